"""The one module that imports WeasyPrint: lay out HTML, measure text boxes, write PDF."""

from __future__ import annotations

import contextlib
import copy
import logging
import os
import re
from contextlib import contextmanager
from dataclasses import dataclass

from ..errors import TetherError
from ..forking import collector_paused


def _import_weasyprint() -> None:
    """Import WeasyPrint with its C libraries opened by their Linux names at once.

    WeasyPrint tries several names per library (Windows' and macOS' first); cffi passes each
    name it cannot open to ctypes.util.find_library, which runs ldconfig, gcc and ld to look
    for it: 17 look-ups, about 0.15 s of every process that lays anything out. Every list
    also names the Linux soname (libpango-1.0.so.0...), which opens directly, so on Linux the
    look-up is skipped while WeasyPrint loads. Should that fail, WeasyPrint is imported
    again the usual way. Its C declarations are parsed once per machine (wpffi)."""
    import sys

    if "weasyprint" in sys.modules:
        return
    from . import wpffi

    wpffi.install()
    if not sys.platform.startswith("linux"):
        return
    import ctypes.util

    real = ctypes.util.find_library
    ctypes.util.find_library = lambda name: None
    stand_ins = _stand_ins()
    try:
        import weasyprint.text.fonts  # noqa: F401
    except OSError:
        for name in [m for m in sys.modules if m == "weasyprint" or m.startswith("weasyprint.")]:
            del sys.modules[name]
    finally:
        ctypes.util.find_library = real
        for name in stand_ins:   # (WeasyPrint holds them; a later import gets the real one)
            sys.modules.pop(name, None)


class _Later:
    """A stand-in for a module WeasyPrint imports as it loads but uses only in work this
    project's builds do not do: fontTools' subsetter (WeasyPrint subsets with HarfBuzz when
    it can: render/cache.py's font_subsetter) and its variable-font instancer (the project's
    fonts are not variable fonts). The real module is imported when an attribute is first
    read, or one of `functions` first called: together about 0.09 s of CPU (fontTools.varLib
    and fontTools.subset) in the process every stage forks from, on the path of every
    build that lays anything out."""

    def __init__(self, name: str, functions: tuple[str, ...] = ()):
        self.__name__ = name
        for function in functions:   # (`from module import function` reads it at import)
            setattr(self, function, self._later(function))

    def _real(self):
        import importlib

        return importlib.import_module(self.__name__)

    def _later(self, function: str):
        def call(*args, **kwargs):
            return getattr(self._real(), function)(*args, **kwargs)
        return call

    def __getattr__(self, attr: str):
        if attr.startswith("__"):   # (the import system's questions: not a package...)
            raise AttributeError(attr)
        return getattr(self._real(), attr)


_LATER = {"fontTools.subset": (), "fontTools.varLib.mutator": ("instantiateVariableFont",)}


def _stand_ins() -> list[str]:
    """Put a _Later in sys.modules for each module of _LATER not imported yet; their names.
    WeasyPrint's `from fontTools import subset` and `from fontTools.varLib.mutator import
    instantiateVariableFont` then find them there, and its fonts module keeps them."""
    import sys

    names = [name for name in _LATER if name not in sys.modules]
    for name in names:
        sys.modules[name] = _Later(name, _LATER[name])
    return names


_import_weasyprint()

# (after _import_weasyprint: these find WeasyPrint imported)
from weasyprint import HTML
from weasyprint.text.fonts import FontConfiguration


class _UnsizedArrays:
    """WeasyPrint's cffi handle as its font subsetter (weasyprint.pdf.fonts) sees it, with
    every array it makes, 'hb_codepoint_t[N]' filled from N items, made as
    'hb_codepoint_t[]' from the same items: the same array. cffi parses each new type
    string with pycparser (1-2 ms), and N is the number of glyphs of the font being subset,
    new for nearly every font of every PDF: that was about a quarter of writing a card's
    PDF. Everything else goes to the real handle unchanged. Used when WeasyPrint's
    declarations could not be loaded parsed (wpffi) and its FFI is cffi's in-line one."""

    _SIZED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\[(\d+)\]")

    def __init__(self, ffi):
        self._ffi = ffi

    def __getattr__(self, name: str):
        return getattr(self._ffi, name)

    def new(self, cdecl, init=None):
        sized = self._SIZED.fullmatch(cdecl) if isinstance(cdecl, str) else None
        if sized and init is not None and len(init) == int(sized[2]):
            return self._ffi.new(f"{sized[1]}[]", init)
        return self._ffi.new(cdecl, init)


def _parse_array_types_once() -> None:
    try:
        from weasyprint.pdf import fonts
    except ImportError:   # another WeasyPrint layout: it subsets as it does
        return
    # only cffi's in-line FFI parses type strings with pycparser: the FFI wpffi loads reads
    # them with cffi's C parser, which needs no help
    if hasattr(getattr(fonts, "ffi", None), "_parsed_types") and not isinstance(
            fonts.ffi, _UnsizedArrays):
        fonts.ffi = _UnsizedArrays(fonts.ffi)


_parse_array_types_once()


class _LinkedSheets:
    """WeasyPrint's stylesheet maker as its cascade (weasyprint.css) sees it: a stylesheet a
    document links (`<link rel="stylesheet" href="file:...">`) is parsed once per font
    configuration (one Layout), and a later document that links the same unchanged file
    gets the same parsed sheet (the same bytes: its checksum is in the key), with the
    @page rules and counter styles parsing added to that document. Parsing book.css
    (tinycss2, then every selector compiled) was about 30 ms of each of the rulebook's
    fifty-odd documents. <style> blocks, @import-ed sheets, anything not a local file and
    anything read by a fetcher that does not say whether it makes colours gray are parsed
    as before, every time."""

    def __init__(self, make):
        import weakref

        self._make = make
        self._parsed = weakref.WeakKeyDictionary()   # font configuration -> {key: sheet...}

    def __call__(self, *args, **kwargs):
        key = self._key(args, kwargs)
        if key is None:
            return self._make(*args, **kwargs)
        rules, styles = kwargs["page_rules"], kwargs["counter_style"]
        parsed = self._parsed.setdefault(kwargs["font_config"], {})
        found = parsed.get(key)
        if found is None:
            # the sheet gets a list of its own @page rules: WeasyPrint keeps the list it is
            # given as the sheet's page_rules, and the cascade reads each sheet's. Given the
            # document's list, a sheet kept for later documents carried the first document's
            # own @page rules (its <style> size, its :first size) into every later one.
            own, before = [], dict(styles)
            sheet = self._make(*args, **dict(kwargs, page_rules=own))
            rules.extend(own)
            added = {k: v for k, v in styles.items() if before.get(k) is not v}
            found = parsed[key] = (sheet, list(own), added)
        else:
            rules.extend(found[1])
            styles.update(found[2])
        return found[0]

    @staticmethod
    def _key(args, kwargs) -> tuple | None:
        url = kwargs.get("url")
        # the fetcher may change what it reads (grayscale, modes.py): our fetchers say so
        mode = getattr(kwargs.get("url_fetcher"), "grayscale", None)
        wanted = ("page_rules", "counter_style", "font_config")
        if args or not isinstance(url, str) or not url.startswith("file:") or mode is None \
                or kwargs.get("matcher") is not None \
                or any(kwargs.get(k) is None for k in wanted):
            return None
        import hashlib
        from urllib.parse import urlsplit
        from urllib.request import url2pathname

        try:
            _local_file(url)   # a regular file of bounded size: never a FIFO to block on
            with open(url2pathname(urlsplit(url).path), "rb") as file:
                digest = hashlib.sha256(file.read()).hexdigest()
        except (OSError, TetherError):
            return None   # WeasyPrint's fetcher says what is wrong with it
        return url, digest, mode, kwargs.get("media_type")


def _parse_linked_sheets_once() -> None:
    try:
        from weasyprint import css
    except ImportError:   # another WeasyPrint layout: it parses as it does
        return
    if callable(getattr(css, "CSS", None)) and not isinstance(css.CSS, _LinkedSheets):
        css.CSS = _LinkedSheets(css.CSS)


_parse_linked_sheets_once()


class _LineSplits:
    """WeasyPrint's split_first_line (one line of a text run: Pango lays it out and measures
    it) as its inline and preferred-width layout see it, with what it returned kept for the
    layout of one document (`scope`). Column balancing lays a chapter's last page out again
    and again, each time splitting the same text at the same width: the Overview called it
    1,548 times for 534 different lines, the board chapter's layout took 0.86 s, 0.55 s with
    this. The key is everything the result depends on (the text, the style and layout context
    objects, the width, the justification spacing and the two flags); the entry holds the
    style and context, so an id is never another object's. A repeated split gets its own
    copy of the (deactivated) Pango layout holder, so no two text boxes share one (drawing
    may change a box's: an ellipsis); the first caller keeps the one made, which nothing
    changes before the layout ends (drawing comes after). Outside a scope, nothing is
    kept."""

    def __init__(self, real):
        self._real = real
        self._kept: dict | None = None
        self.calls = 0   # calls of the real function (tests)

    def __call__(self, text, style, context, max_width, justification_spacing,
                 is_line_start=True, minimum=False):
        kept = self._kept
        if kept is not None:
            key = (text, id(style), id(context), max_width, justification_spacing,
                   is_line_start, minimum)
            hit = kept.get(key)
            if hit is not None and hit[0] is style and hit[1] is context:
                layout, *rest = hit[2]
                return (_copied(layout), *rest)
        self.calls += 1
        out = self._real(text, style, context, max_width, justification_spacing,
                         is_line_start, minimum)
        if kept is not None:   # (the first caller's holder: nothing changes it in a layout)
            kept[key] = (style, context, out)
        return out

    @contextmanager
    def scope(self):
        """Within: results are kept (nested scopes share the outer one's)."""
        outer = self._kept
        if outer is None:
            self._kept = {}
        try:
            yield
        finally:
            if outer is None:
                self._kept = None


def _copied(holder):
    """A shallow copy of a layout holder (its attributes: a deactivated one holds no Pango
    object), made without copy.copy's detour: the split of a repeated line costs this."""
    try:
        new = object.__new__(type(holder))
        new.__dict__.update(holder.__dict__)
    except (AttributeError, TypeError):   # (a holder with no __dict__)
        return copy.copy(holder)
    return new


def _split_lines_once() -> _LineSplits | None:
    try:
        from weasyprint.layout import inline, preferred
        from weasyprint.text import line_break
    except ImportError:   # another WeasyPrint layout: it lays out as it does
        return None
    real = line_break.split_first_line
    if isinstance(real, _LineSplits):
        return real
    if not (callable(real) and inline.split_first_line is real
            and preferred.split_first_line is real):
        return None   # not the shape this was written for: left as it is
    splits = _LineSplits(real)
    line_break.split_first_line = inline.split_first_line = splits
    preferred.split_first_line = splits
    return splits


_LINES = _split_lines_once()

MAX_RESOURCE_BYTES = 64 * 1024 * 1024


def _local_file(url: str) -> None:
    """Refuse anything but a regular local file of bounded size (no /dev/zero, no FIFO)."""
    from urllib.parse import urlsplit
    from urllib.request import url2pathname

    if not url.startswith("file:"):
        raise TetherError(f"pages may only load local files, not {url[:80]}")
    path = url2pathname(urlsplit(url).path)
    try:
        info = os.stat(path)
    except OSError as exc:
        raise TetherError(f"cannot read {path}: {exc.strerror}") from None
    import stat

    if not stat.S_ISREG(info.st_mode) or info.st_size > MAX_RESOURCE_BYTES:
        raise TetherError(f"{path} is not a regular file of at most "
                          f"{MAX_RESOURCE_BYTES // 2**20} MB")


try:  # WeasyPrint >= 69: a fetcher object that refuses every protocol but file:
    from weasyprint.urls import FatalURLFetchingError, URLFetcher, URLFetcherResponse

    class _LocalFetcher(URLFetcher):
        def __init__(self, grayscale: bool = False, **kwargs):
            super().__init__(**kwargs)
            self.grayscale = grayscale

        def fetch(self, url, headers=None):
            try:
                _local_file(url)
            except TetherError as exc:
                raise FatalURLFetchingError(str(exc)) from None
            response = super().fetch(url, headers)
            if not self.grayscale:
                return response
            from .modes import gray_resource

            try:
                data = gray_resource(url, response.content_type, response.read())
            finally:
                response.close()
            kind = response.content_type
            kind = "image/png" if kind.startswith("image/") and kind != "image/svg+xml" \
                else kind
            return URLFetcherResponse(response.url, data, {"Content-Type": kind})

    def _fetcher(grayscale: bool = False):
        return _LocalFetcher(grayscale, allowed_protocols={"file"}, fail_on_errors=True)
except ImportError:  # WeasyPrint 62-68 (requirements.lock holds 66: it lays out faster)
    from weasyprint import default_url_fetcher

    def _fetcher(grayscale: bool = False):
        def fetch(url: str, *args, **kwargs):
            _local_file(url)
            resource = default_url_fetcher(url, *args, **kwargs)
            if grayscale:
                from .modes import gray_resource

                body = resource.pop("file_obj", None)
                data = body.read() if body is not None else resource.pop("string")
                resource["string"] = gray_resource(url, resource.get("mime_type", ""), data)
            return resource
        fetch.grayscale = grayscale   # what it does to what it reads (_LinkedSheets)
        return fetch

SVG_ISLAND_CHARS = 16_000  # an inline <svg> at least this long is read by the XML parser
_SVG_TAG = re.compile(r"<svg\b|</svg\s*>")


def parse(html: str, base_url: str, fetcher) -> HTML:
    """The HTML document, with every long inline SVG (a sheet of tokens or a board map: tens
    of thousands of attributes) read by the XML parser, written in C, instead of the HTML
    tokenizer, about ten times slower on attributes. The tree is the same (tested: same PDF
    bytes); anything that is not plain well-formed SVG is read the usual way."""
    islands, skeleton = _islands(html)
    if islands:
        from xml.etree.ElementTree import ParseError, fromstring

        try:
            trees = [fromstring(island) for island in islands]
        except ParseError:
            islands = []
    if not islands:
        return HTML(string=html, base_url=base_url, url_fetcher=fetcher)
    import cssselect2

    document = HTML(string=skeleton, base_url=base_url, url_fetcher=fetcher)
    root = document.etree_element
    for parent in list(root.iter()):
        for index, child in enumerate(list(parent)):
            if child.tag == _PLACEHOLDER:
                tree = trees[int(child.get("data-island"))]
                tree.tail = child.tail
                parent[index] = tree
    document.wrapper_element = cssselect2.ElementWrapper.from_html_root(root,
                                                                         content_language=None)
    document.etree_element = document.wrapper_element.etree_element
    return document


_PLACEHOLDER = "tether-svg-island"


def _islands(html: str) -> tuple[list[str], str]:
    """(the long top-level <svg>...</svg> runs, the HTML with an empty placeholder element in
    place of each); none where the HTML holds a comment, a DOCTYPE inside an SVG or an
    unbalanced <svg> (read the usual way)."""
    if "<!--" in html:
        return [], html
    islands, parts, depth, start, at = [], [], 0, 0, 0
    for match in _SVG_TAG.finditer(html):
        if match.group().startswith("</"):
            depth -= 1
            if depth < 0:
                return [], html
            if depth == 0 and match.end() - start >= SVG_ISLAND_CHARS:
                island = html[start:match.end()]
                if "<!DOCTYPE" in island.upper() or "<!ENTITY" in island.upper():
                    return [], html
                parts.append(html[at:start])
                parts.append(f'<{_PLACEHOLDER} data-island="{len(islands)}"></{_PLACEHOLDER}>')
                islands.append(island)
                at = match.end()
        else:
            if depth == 0:
                start = match.start()
            depth += 1
    if depth:
        return [], html
    parts.append(html[at:])
    return islands, "".join(parts)


PX_PER_MM = 96 / 25.4
TOLERANCE_PX = 0.5
FOOTER_GAP_PX = 2 * PX_PER_MM

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


class Layout:
    """Lays out HTML documents with one font configuration and one image cache."""

    def __init__(self, base_url: str, grayscale: bool = False):
        # fontTools stamps subset fonts with the current time unless this is set; a fixed
        # stamp makes the PDFs reproducible, so unchanged outputs are not rewritten.
        os.environ.setdefault("SOURCE_DATE_EPOCH", "0")
        self.base_url = base_url
        self.grayscale = grayscale   # modes.py: every colour the pages load made gray
        self.fonts = FontConfiguration()
        self.cache: dict = {}

    def render(self, html: str):
        """A laid-out WeasyPrint document (one page per section)."""
        # templates, fonts and icons come from disk only: the build never uses the network
        if self.grayscale:
            from .modes import gray_html

            html = gray_html(html)
        with collector_paused(), _LINES.scope() if _LINES else contextlib.nullcontext():
            return parse(html, self.base_url, _fetcher(self.grayscale)).render(
                font_config=self.fonts, cache=self.cache)

    @staticmethod
    def measure(document) -> list[Fit]:
        """Per page: how far the name and the rules text overflow their boxes."""
        return [_measure_page(page._page_box) for page in document.pages]

    @staticmethod
    def derive(page, cls: str, was: str, text: str):
        """`page` with the text of its element of class `cls`, `was`, made `text`, without
        laying the page out again: a card's copies differ only in their copy number
        ("2/12"), and laying out each copy was a fifth of the faces' work. The new page
        writes the same PDF bytes as laying out its own HTML would (tested), because it is
        only used when nothing but that text can differ: the element must hold one run of
        text, laid out as written (no CSS text-transform made it other than `was`), and the
        new text must be exactly as wide as the old. None otherwise: then lay the page out."""
        import copy

        from weasyprint.document import Page
        from weasyprint.formatting_structure.boxes import TextBox
        from weasyprint.text.line_break import line_size

        path = _path_to(page._page_box, cls)
        if path is None or len(path[-1].children) != 1 or not text:
            return None
        old = path[-1].children[0]
        if type(old) is not TextBox or old.text != was or old.pango_layout.text != was:
            return None

        def width(words: str):
            layout = copy.copy(old.pango_layout)
            layout.text = words
            layout.reactivate(old.style)
            try:
                return line_size(layout.get_first_line()[0], old.style)
            finally:
                layout.deactivate()

        if width(text) != width(old.text):
            return None
        child = old.copy_with_text(text)
        child.pango_layout = copy.copy(old.pango_layout)
        child.pango_layout.text = text   # set up again from its text when it is drawn
        for box, below in zip(reversed(path), [old, *reversed(path[1:])]):
            parent = box.copy()
            parent.children = [child if c is below else c for c in box.children]
            child = parent
        return Page(child)

    @staticmethod
    def write(pages: list, first_document) -> bytes:
        """One PDF of the given laid-out pages (they may come from several documents)."""
        with collector_paused():
            return first_document.copy(pages).write_pdf()


_SHARED: dict = {}     # base URL -> the Layout this process's documents of it share


def shared(base: str) -> Layout:
    """The Layout (font configuration, parsed style sheets, images) that a stage's documents
    with this base URL are laid out with in this process: the fonts and the style sheets
    they link are read once for all of them (_LinkedSheets), not once a document or a
    sheet, in this process and those it forks. A document's bytes do not depend on what
    shared its Layout. A stage starts with fresh()."""
    found = _SHARED.get(base)
    if found is None:
        found = _SHARED[base] = Layout(base)
    return found


def fresh(base: str, warm: str | None = None) -> None:
    """Start a stage's layouts of `base`: forget a Layout of an earlier stage in this
    process (a file it read may have changed since: `tether build --watch`), and lay out
    `warm` (a document linking the style sheets the stage's documents link) in the new one,
    so a process forked next finds them read."""
    _SHARED.pop(base, None)
    if warm is not None:
        shared(base).render(warm)


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


def _classes(box) -> set[str]:
    element = getattr(box, "element", None)
    if element is None:
        return set()
    return set((element.get("class") or "").split())


def _walk(box):
    """Every box under `box` (itself included), absolute placeholders unwrapped."""
    box = getattr(box, "_box", box)   # AbsolutePlaceholder wraps positioned boxes
    yield box
    for child in getattr(box, "children", ()):
        yield from _walk(child)


def _path_to(box, cls: str) -> list | None:
    """The boxes from `box` down to the first box of class `cls`; None if there is none. A
    positioned box's placeholder stands in for it (it reads, writes and copies the box)."""
    if cls in _classes(box):
        return [box]
    for child in getattr(box, "children", ()):
        below = _path_to(child, cls)
        if below is not None:
            return [box, *below]
    return None


def _first(root, cls: str, kind: str | None):
    """The first box of class `cls` (and box type `kind`)."""
    for box in _walk(root):
        if (kind is None or type(box).__name__ == kind) and cls in _classes(box):
            return box
    return None


def _measure_page(page_box) -> Fit:
    section = next((b for b in _walk(page_box)
                    if getattr(b, "element", None) is not None
                    and (b.element.get("data-face") or b.element.get("data-back"))), None)
    if section is None:
        raise TetherError("a rendered page has no data-face or data-back section")
    key = section.element.get("data-face") or section.element.get("data-back")
    card = section.element.get("data-card")
    name_over = text_over = 0.0
    name_box, name = _first(section, "name-box", None), _first(section, "name", None)
    if name_box is not None and name is not None:
        # a name may wrap (two lines fit the box); too wide a word or too many lines overflow
        lines = [b for b in _walk(name) if type(b).__name__ == "LineBox"]
        widest = max([_line_extent(b) for b in lines] + [name.margin_width()])
        tall = sum(b.height for b in lines) if lines else name.margin_height()
        name_over = max(0.0, widest - name_box.width, tall - name_box.height)
    typeline = _first(section, "typeline", "BlockBox")
    kind, init = _first(section, "type", None), _first(section, "initiative", None)
    if typeline is not None and kind is not None and init is not None:
        # the type line shrinks with the name (same header level)
        name_over = max(name_over, kind.margin_width() + init.margin_width() + FOOTER_GAP_PX
                        - typeline.width)
    text_box, flow = _first(section, "text-box", None), _first(section, "text-flow", None)
    if text_box is not None and flow is not None:
        top = flow.content_box_y()
        lines = [b for b in _walk(flow) if type(b).__name__ == "LineBox"]
        bottom = max([top + flow.height] + [b.position_y + b.height for b in lines])
        text_over = max(0.0, (bottom - top) - text_box.height)
    footer_over = 0.0
    footer = _first(section, "footer", "BlockBox")
    left, right = _first(section, "foot-left", None), _first(section, "foot-right", None)
    if footer is not None and left is not None and right is not None:
        footer_over = max(0.0, left.margin_width() + right.margin_width() + FOOTER_GAP_PX
                          - footer.width)
    return Fit(key, card, _mm(name_over), _mm(text_over), _mm(footer_over))


def _line_extent(line) -> float:
    """How wide the text of a line box runs (a line box spans its block; its text may not)."""
    ends = [c.position_x + c.margin_width() for c in line.children]
    return max(ends, default=line.position_x) - line.position_x


def _mm(px: float) -> float:
    return 0.0 if px <= TOLERANCE_PX else px / PX_PER_MM
