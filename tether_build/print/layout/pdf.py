"""The one module that imports WeasyPrint: lay out HTML, measure text boxes, write PDF."""

from __future__ import annotations

import logging
import os
import re
from dataclasses import dataclass

from ...errors import TetherError
from ...forking import collector_paused
from . import patches
from .boxes import firsts as _firsts
from .boxes import walk as _walk
from .patches import page_root, parse
from .resources import local_file
from .sheets import plain as plain_sheet
from .sheets import split as split_sheets

patches.import_weasyprint()

# (after import_weasyprint: these find WeasyPrint imported)
from weasyprint.text.fonts import FontConfiguration

patches.install()

try:  # WeasyPrint >= 69: a fetcher object that refuses every protocol but file:
    from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

    class _LocalFetcher(URLFetcher):
        def __init__(self, grayscale: bool = False, svgs: dict | None = None, **kwargs):
            super().__init__(**kwargs)
            self.grayscale = grayscale
            self.svgs = svgs or {}

        def fetch(self, url, headers=None):
            if url in self.svgs:   # (svg_images': made here, never read from anywhere)
                return URLFetcherResponse(url, self.svgs[url],
                                          {"Content-Type": "image/svg+xml"})
            try:
                local_file(url)
            except TetherError as exc:
                raise FatalURLFetchingError(str(exc)) from None
            response = super().fetch(url, headers)
            if not self.grayscale:
                return response
            from ..modes import gray_resource

            try:
                data = gray_resource(url, response.content_type, response.read())
            finally:
                response.close()
            kind = response.content_type
            kind = "image/png" if kind.startswith("image/") and kind != "image/svg+xml" \
                else kind
            return URLFetcherResponse(response.url, data, {"Content-Type": kind})

    def _fetcher(grayscale: bool = False, svgs: dict | None = None):
        return _LocalFetcher(grayscale, svgs or {}, allowed_protocols={"file"},
                             fail_on_errors=True)
except ImportError:  # WeasyPrint 62-68 (requirements.lock holds 66: it lays out faster)
    from weasyprint import default_url_fetcher

    def _fetcher(grayscale: bool = False, svgs: dict | None = None):
        def fetch(url: str, *args, **kwargs):
            if svgs and url in svgs:   # (svg_images': made here, never read from anywhere)
                return {"string": svgs[url], "mime_type": "image/svg+xml",
                        "redirected_url": url}
            local_file(url)
            resource = default_url_fetcher(url, *args, **kwargs)
            if grayscale:
                from ..modes import gray_resource

                body = resource.pop("file_obj", None)
                data = body.read() if body is not None else resource.pop("string")
                resource["string"] = gray_resource(url, resource.get("mime_type", ""), data)
            return resource
        return fetch

PX_PER_MM = 96 / 25.4
TOLERANCE_PX = 0.5
FOOTER_GAP_PX = 2 * PX_PER_MM
# The print services' safe zone, from the edge of a face drawn with 1/8 in of bleed: The
# Game Crafter's poker template keeps text 1/8 in inside the cut line, as does
# MakePlayingCards' (its 822 x 1122 px image is centred on the same trim, 36 px of bleed).
SAFE_ZONES_MM = {"tgc": 3.175 + 3.175, "mpc": 3.175 + 3.175}
SAFE_MM = max(SAFE_ZONES_MM.values())
MIN_PT = {"stamp": 4.4}   # smallest type per measured box (data-fit); others MIN_PT_DEFAULT
MIN_PT_DEFAULT = 6.0
PX_PER_PT = 96 / 72

# WeasyPrint logs unsupported CSS at WARNING; the templates are ours, so keep the CLI quiet
# and let tests catch real problems (missing files raise below).
logging.getLogger("weasyprint").setLevel(logging.ERROR)
logging.getLogger("fontTools").setLevel(logging.ERROR)


@dataclass
class Fit:
    """What one laid-out page reports: which face, and whether name or text overflow."""

    key: str            # data-face or data-back value
    card: str | None
    name_over: float    # mm the name is too wide (0 when it fits)
    text_over: float    # mm the text is too tall (0 when it fits)
    footer_over: float  # mm the footer's two sides overlap (0 when they fit)
    art_mm: float | None = None   # height of the art box (None: none shown)
    boxes: dict = None  # measured box (data-fit) -> why it does not fit; {} when all do
    squeezed: bool = False   # a body laid out as blocks whose text runs past it under
                             # the art box: a flex column lays it out otherwise (fit.py)


class Layout:
    """Lays out HTML documents with one font configuration and one image cache."""

    def __init__(self, base_url: str, grayscale: bool = False, sheets: bool = False):
        # fontTools stamps subset fonts with the current time unless this is set; a fixed
        # stamp makes the PDFs reproducible, so unchanged outputs are not rewritten.
        os.environ.setdefault("SOURCE_DATE_EPOCH", "0")
        self.base_url = base_url
        self.grayscale = grayscale   # modes.py: every colour the pages load made gray
        self.fonts = FontConfiguration()
        self.cache: dict = {}
        self.served: set[str] = set()   # the svg_images addresses the fetcher answered
        self.linked_svg: dict[str, bool] = {}   # a linked sheet's href -> svg_subjects
        self.pid = os.getpid()   # the process whose font folder this is (fresh())
        self.sheets = sheets     # style sheets read once for every document (sheets.py)
        self.linked: dict = {}   # address -> its parsed sheet, or None (not plain)

    def render(self, html: str, images: bool = False):
        """A laid-out WeasyPrint document (one page per section). `images`: each outermost
        inline <svg> is handed to WeasyPrint as an image of its own instead (svg_images)."""
        # templates, fonts and icons come from disk only: the build never uses the network
        if self.grayscale:
            from ..modes import gray_html

            html = gray_html(html)
        svgs = _Served()
        if images and not self.svg_styled(html):
            html, lifted = svg_images(html)
            svgs.update(lifted)
        fetcher = _fetcher(self.grayscale, svgs)
        with collector_paused():
            document = None
            if self.sheets:
                found = split_sheets(html)
                parsed = None if found is None else self._sheets(found.sheets, fetcher)
                if parsed is not None:
                    document = parse(found.html, self.base_url, fetcher).render(
                        font_config=self.fonts, cache=self.cache, stylesheets=parsed)
            if document is None:
                document = parse(html, self.base_url, fetcher).render(
                    font_config=self.fonts, cache=self.cache)
        # an image WeasyPrint did not ask for (a WeasyPrint that refuses the address before
        # the fetcher sees it) would be left out of the page without an error: one
        self.served |= svgs.asked
        missing = set(svgs) - self.served
        if missing:
            raise TetherError(f"WeasyPrint did not load {len(missing)} of a document's "
                              f"{len(svgs)} SVG images (svg_images)")
        return document

    def svg_styled(self, html: str) -> bool:
        """Whether a style sheet of the document (a <style> block, or a sheet it links, read
        once per Layout) has a rule whose subject could be an <svg> element itself but not
        the <img> svg_images puts in its place, or the other way round: a type selector
        `svg` or `img`, or an attribute selector, in a selector's last compound. Then the
        document is laid out with its SVGs inline, as written (a rule on what lies inside an
        SVG never reaches it either way: WeasyPrint styles an SVG's elements from the SVG's
        own <style> only)."""
        for text in _STYLE_BLOCK.findall(html):
            if svg_subjects(text):
                return True
        for href in _STYLE_LINK.findall(html):
            if href not in self.linked_svg:
                self.linked_svg[href] = svg_subjects(self.linked_text(href)[1])
            if self.linked_svg[href]:
                return True
        return False

    def linked_text(self, href: str) -> tuple[str, str]:
        """(its address, its text) of a style sheet a document links by `href`, relative to
        the base URL: a regular local file of the project or the templates (local_file)."""
        from urllib.parse import urljoin, urlsplit
        from urllib.request import url2pathname

        url = urljoin(self.base_url, href)
        local_file(url)
        with open(url2pathname(urlsplit(url).path), encoding="utf-8", errors="replace") as file:
            return url, file.read()

    def _sheets(self, found: tuple, fetcher) -> list | None:
        """The parsed sheets of a document (sheets.split), as WeasyPrint would parse them for
        it (its base URL, media type, font configuration); a linked sheet is read once. None:
        one of them is not plain (sheets.plain)."""
        from weasyprint import CSS

        out = []
        for kind, text in found:
            if kind == "style":
                out.append(CSS(string=text, base_url=self.base_url, url_fetcher=fetcher,
                               font_config=self.fonts))
                continue
            if text not in self.linked:
                url, css = self.linked_text(text)
                self.linked[text] = CSS(url=url, url_fetcher=fetcher,
                                        font_config=self.fonts) if plain_sheet(css) else None
            if self.linked[text] is None:
                return None
            out.append(self.linked[text])
        return out

    @staticmethod
    def measure(document) -> list[Fit]:
        """Per page: how far the name and the rules text overflow their boxes."""
        return [_measure_page(page_root(page)) for page in document.pages]

    @staticmethod
    def write(pages: list, first_document, finisher=None) -> bytes:
        """One PDF of the given laid-out pages (they may come from several documents);
        `finisher` (WeasyPrint's public hook: the document and its pydyf objects, before
        they are serialized) may rework its objects (cards/icons.py)."""
        with collector_paused():
            return first_document.copy(pages).write_pdf(finisher=finisher)


class _Served(dict):
    """svg_images' {address: SVG} for the fetcher, noting which addresses it was asked."""

    def __init__(self):
        super().__init__()
        self.asked: set[str] = set()

    def __getitem__(self, url: str) -> bytes:
        self.asked.add(url)
        return super().__getitem__(url)


_STYLE_BLOCK = re.compile(r"<style\b[^>]*>(.*?)</style\s*>", re.DOTALL | re.IGNORECASE)
_STYLE_LINK = re.compile(r"<link\b[^>]*\bhref=\"([^\"]+\.css)\"", re.IGNORECASE)
_SUBJECT_SPLIT = re.compile(r"\s*[>+~]\s*|\s+")


def svg_subjects(css: str) -> bool:
    """Whether a rule of the style sheet `css` (inside @media and @supports too) may select
    an <svg> or an <img> for what it is: a selector whose last compound names the type svg
    or img, or tests an attribute (svg_images keeps only an <svg>'s class and style)."""
    import tinycss2

    def rules(nodes) -> bool:
        for rule in nodes:
            if rule.type == "at-rule" and rule.content is not None and \
                    rule.lower_at_keyword in ("media", "supports", "document"):
                if rules(tinycss2.parse_rule_list(rule.content, skip_comments=True,
                                                  skip_whitespace=True)):
                    return True
            elif rule.type == "qualified-rule":
                for selector in tinycss2.serialize(rule.prelude).split(","):
                    last = _SUBJECT_SPLIT.split(selector.strip())[-1].lower()
                    if "[" in last or re.match(r"(\*\|)?(svg|img)\b", last):
                        return True
        return False
    return rules(tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True))


SVG_URL = "tether-svg:"   # an svg_images image's address: this, then its text's digest
_SVG_TAG = re.compile(r"<svg\b[^>]*>|</svg\s*>")
_SVG_ATTR = re.compile(r'\s(class|style)="([^"]*)"')


def svg_images(html: str) -> tuple[str, dict[str, bytes]]:
    """(html, {address: SVG}): each outermost inline <svg> of `html` that is well-formed XML
    (the templates' are) made an <img> of the same class and style, whose address the
    fetcher answers with that <svg>'s text. WeasyPrint draws an image's SVG as it draws an
    inline one (the same SVG code, the same tree), but reads it with the XML parser, not
    the HTML tokenizer, and gives its elements no HTML styles: a sheet's long SVGs (tens of
    thousands of attributes) cost a fraction. The address is the text's digest, so an SVG
    that repeats is read once (the Layout's image cache). One that is not well-formed XML
    stays inline."""
    import hashlib
    from xml.etree import ElementTree

    out: list[str] = []
    svgs: dict[str, bytes] = {}
    depth, start, opening, done = 0, 0, "", 0
    for m in _SVG_TAG.finditer(html):
        if m.group().startswith("</"):
            depth -= 1
            if depth:
                continue
            text = html[start:m.end()]
            try:
                ElementTree.fromstring(text)
            except ElementTree.ParseError:
                continue
            data = text.encode()
            url = SVG_URL + hashlib.sha256(data).hexdigest()
            svgs[url] = data
            attrs = "".join(f' {name}="{value}"' for name, value in _SVG_ATTR.findall(opening))
            out += [html[done:start], f'<img{attrs} src="{url}" alt="">']
            done = m.end()
        else:
            if not depth:
                start, opening = m.start(), m.group()
            depth += 1
    out.append(html[done:])
    return "".join(out), svgs


_SHARED: dict = {}     # (base URL, sheets) -> the Layout this process's documents of it share


def shared(base: str, sheets: bool = False) -> Layout:
    """The Layout (font configuration, parsed style sheets, images) that a stage's documents
    with this base URL are laid out with in this process: the fonts are read once for all
    of them, not once a document, in this process and those it forks. A document's bytes do not depend on what
    shared its Layout. A stage starts with fresh(). sheets: its documents' style sheets
    read once for all of them (sheets.py), a Layout of its own."""
    found = _SHARED.get((base, sheets))
    if found is None:
        found = _SHARED[base, sheets] = Layout(base, sheets=sheets)
    return found


_INHERITED: list[Layout] = []


def fresh(base: str, warm: str | None = None, sheets: bool = False) -> None:
    """Start a stage's layouts of `base`: forget a Layout of an earlier stage in this
    process (a file it read may have changed since: `tether build --watch`), and lay out
    `warm` (a document linking the style sheets the stage's documents link) in the new one,
    so a process forked next finds them read."""
    old = _SHARED.pop((base, sheets), None)
    if old is not None and old.pid != os.getpid():
        # made by the process this one was forked from: WeasyPrint's FontConfiguration
        # deletes its font folder when it is collected, and that folder is the parent's,
        # which the parent still writes its next @font-face into. Never collected here (a
        # forked process ends with os._exit).
        _INHERITED.append(old)
    if warm is not None:
        shared(base, sheets).render(warm)


WARM_UP_HTML = """<!DOCTYPE html><html><head><link rel="stylesheet" href="fonts/fonts.css">
<style>@page { size: 63mm 88mm; margin: 3mm; } p { font-family: "Tether Sans"; }
h1 { font-family: "Tether Serif"; font-weight: bold; } img { width: 4mm; }</style></head>
<body><h1>Warm 1/2</h1><p>Text <b>bold</b> <i>italic</i> 0123456789 <img src="icons/gold.svg"
alt=""></p></body></html>"""


def warm_up(base_url: str) -> None:
    """Lay out, write and draw one small page, as a process that forks builds does before
    its first (`tether build --watch`): the libraries' first-use work (font configuration,
    the C type declarations cffi parses on first use, PDFium's start) is then done once, not
    in every build. Nothing of it reaches an output."""
    import pypdfium2 as pdfium

    layout = Layout(base_url)
    document = layout.render(WARM_UP_HTML)
    pdf = Layout.write(document.pages, document)
    page = pdfium.PdfDocument(pdf)[0]
    page.render(scale=1).to_pil().tobytes()


# the boxes a face's measure reads: (class, box type or None for any)
MEASURED = [("name-box", None), ("name", None), ("typeline", "BlockBox"), ("type", None),
            ("initiative", None), ("body", None), ("text-flow", None), ("art-box", None),
            ("footer", "BlockBox"), ("foot-left", None), ("foot-right", None)]


def _measure_page(page_box) -> Fit:
    section = next((b for b in _walk(page_box)
                    if getattr(b, "element", None) is not None
                    and (b.element.get("data-face") or b.element.get("data-back"))), None)
    if section is None:
        raise TetherError("a rendered page has no data-face or data-back section")
    key = section.element.get("data-face") or section.element.get("data-back")
    card = section.element.get("data-card")
    boxes = _firsts(section, MEASURED)

    def first(cls: str, kind: str | None):
        return boxes[(cls, kind)]

    name_over = text_over = 0.0
    name_box, name = first("name-box", None), first("name", None)
    if name_box is not None and name is not None:
        # a name may wrap (two lines fit the box); too wide a word or too many lines overflow
        lines = [b for b in _walk(name) if type(b).__name__ == "LineBox"]
        widest = max([_line_extent(b) for b in lines] + [name.margin_width()])
        tall = sum(b.height for b in lines) if lines else name.margin_height()
        name_over = max(0.0, widest - name_box.width, tall - name_box.height)
    typeline = first("typeline", "BlockBox")
    kind, init = first("type", None), first("initiative", None)
    if typeline is not None and kind is not None and init is not None:
        # the type line shrinks with the name (same header level)
        name_over = max(name_over, kind.margin_width() + init.margin_width() + FOOTER_GAP_PX
                        - typeline.width)
    body, flow = first("body", None), first("text-flow", None)
    art = first("art-box", None)
    squeezed = False
    if body is not None and flow is not None:
        # the text box is as tall as its text, in a column under the art: it overflows
        # when its lines run past the bottom of the body (or above its top)
        lines = [b for b in _walk(flow) if type(b).__name__ == "LineBox"]
        top = min([flow.content_box_y()] + [b.position_y for b in lines])
        bottom = max([flow.content_box_y() + flow.height]
                     + [b.position_y + b.height for b in lines])
        body_top = body.content_box_y()
        text_over = max(0.0, bottom - (body_top + body.height), body_top - top)
        # the text box ends where its text flow does (no bottom padding or margin)
        squeezed = art is not None and type(body).__name__ != "FlexBox" and (
            flow.position_y + flow.margin_height() > body_top + body.height)
    art_mm = art.border_height() / PX_PER_MM if art is not None else None
    footer_over = 0.0
    footer = first("footer", "BlockBox")
    left, right = first("foot-left", None), first("foot-right", None)
    if footer is not None and left is not None and right is not None:
        footer_over = max(0.0, left.margin_width() + right.margin_width() + FOOTER_GAP_PX
                          - footer.width)
    return Fit(key, card, _mm(name_over), _mm(text_over), _mm(footer_over), art_mm,
               _boxes(section), squeezed)


def _text_boxes(box):
    return [b for b in _walk(box) if type(b).__name__ == "TextBox" and b.text.strip()]


ASCENT_EM, DESCENT_EM = 0.76, 0.24   # DejaVu: the tallest glyph above and below the line
DESCENDERS = set("gjpqyQ,;()[]{}/|_")


def _ink_rows(text) -> tuple[float, float]:
    """Top and bottom of a text box's glyphs (not of its font's line box: a digit in a
    tight badge may fit while the font's line height does not)."""
    size = text.style["font_size"]
    baseline = getattr(text, "baseline", None)
    if baseline is None:
        return text.position_y, text.position_y + text.height
    base = text.position_y + baseline
    below = DESCENT_EM * size if DESCENDERS & set(text.text) else 0.0
    return base - ASCENT_EM * size, base + below


def _boxes(section) -> dict[str, str]:
    """Every measured box (an element with `data-fit`) of a face or back: why its text does
    not fit (runs outside the box, or smaller than MIN_PT), and every text outside the
    print services' safe zone; {} when all fit."""
    problems: dict[str, str] = {}
    done: set[int] = set()
    page_w = section.margin_width()
    page_h = section.margin_height()
    safe = SAFE_MM * PX_PER_MM - TOLERANCE_PX
    for box in _walk(section):
        element = getattr(box, "element", None)
        name = element.get("data-fit") if element is not None else None
        if not name or id(element) in done or type(box).__name__ == "LineBox":
            continue
        done.add(id(element))
        x0, y0 = box.border_box_x(), box.border_box_y()
        x1, y1 = x0 + box.border_width(), y0 + box.border_height()
        texts = _text_boxes(box)
        for text in texts:
            tx0, tx1 = text.position_x, text.position_x + text.width
            ty0, ty1 = _ink_rows(text)
            over = max(x0 - tx0, tx1 - x1, y0 - ty0, ty1 - y1)
            if over > TOLERANCE_PX:
                problems[name] = (f"{text.text.strip()!r} runs {_mm(over):.1f} mm outside "
                                  f"its box ({_mm(x1 - x0):.1f} x {_mm(y1 - y0):.1f} mm)")
                break
            size = text.style["font_size"] / PX_PER_PT
            if size < MIN_PT.get(name, MIN_PT_DEFAULT) - 0.05:
                problems[name] = (f"{text.text.strip()!r} is set at {size:.1f} pt, under "
                                  f"the {MIN_PT.get(name, MIN_PT_DEFAULT)} pt minimum")
                break
            if min(tx0, ty0, page_w - tx1, page_h - ty1) < safe:
                problems[name] = (f"{text.text.strip()!r} lies outside the print services' "
                                  f"safe zone ({SAFE_MM:.2f} mm from the edge of the face)")
                break
    return problems


def _line_extent(line) -> float:
    """How wide the text of a line box runs (a line box spans its block; its text may not)."""
    ends = [c.position_x + c.margin_width() for c in line.children]
    return max(ends, default=line.position_x) - line.position_x


def _mm(px: float) -> float:
    return 0.0 if px <= TOLERANCE_PX else px / PX_PER_MM
