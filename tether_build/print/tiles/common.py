"""Shared print helpers: paper, hex geometry in millimetres, glossary words, icons, PDF.

Geometry: hexes are pointy-top. A hex of `flat` mm across the flats has circumradius
(edge length) s = flat / sqrt(3) and is 2s tall. Axial (q, r) sits at
x = flat * (q + r / 2), y = 1.5 * s * r, with y growing down the page, so C0 = (R, 0) is
at the right and C3 = (-R, 0) at the left of every map.
"""

from __future__ import annotations

import json
import math
import os
import re
from contextlib import contextmanager
from functools import cache, lru_cache
from pathlib import Path

from markupsafe import Markup, escape

from ...content import text as textmod
from ...errors import TetherError
from ..layout.patches import page_root

PAPERS = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}  # portrait width, height (mm)
SAFE_MM = 5.0  # nothing is printed within 4 mm of the paper edge; 1 mm to spare
DEFAULT_TILE_MM = 52.0  # across the flats; see tokens.tile_fit for why
TEMPLATES = Path(__file__).resolve().parents[3] / "templates"
TILE_TEMPLATES = TEMPLATES / "tiles"
ICONS = TEMPLATES / "icons"
RIM = "#3B3632"  # basalt rim shared by every tile: a slightly missed cut shows the same rim
CUT = "#D9D4CC"  # cut lines on tiles (light, so they show on the dark rim)
CUT_DARK = "#6E6E6E"  # cut lines on white paper (tokens, tracks)
KINDS = ("capital", "center", "forge", "mine", "plain")
FALLBACK_COLOURS = {"capital": "#A9A39A", "center": "#E6D59A", "forge": "#D98B62",
                    "mine": "#EBC96A", "plain": "#EFECE6"}


def hex_radius(flat: float) -> float:
    """Circumradius (= edge length) of a hex `flat` mm across the flats."""
    return flat / math.sqrt(3)


def hex_corners(cx: float, cy: float, flat: float) -> list[tuple[float, float]]:
    """The six corners of a pointy-top hex, clockwise from the top."""
    return [(cx + dx, cy + dy) for dx, dy in _corner_offsets(flat)]


@lru_cache(maxsize=256)
def _corner_offsets(flat: float) -> tuple[tuple[float, float], ...]:
    """Each corner of hex_corners less the centre, as it adds them (the same products: the
    same corners), made once per size: a map places thousands of hexes of a few sizes."""
    s = hex_radius(flat)
    return tuple((s * math.cos(math.radians(a)), s * math.sin(math.radians(a)))
                 for a in (-90, -30, 30, 90, 150, 210))


PLAIN_TEXTURE = "#C2B9A9"  # grass tufts on Plains: light, and still a light grey in grayscale
BLADES = ((-0.7, -0.1, -1.0, -0.9, -1.7), (0.0, 0.1, -1.2, 0.2, -2.3),
          (0.7, 0.2, -0.9, 1.0, -1.6))  # base x, curve control, tip (mm at 52 mm)


@cache
def plain_texture(flat: float) -> str:
    """SVG path data of the grass tufts that texture a Plain hex, relative to its centre
    (draw it translated there): a fixed, slightly staggered lattice inside the rim."""
    k = flat / DEFAULT_TILE_MM
    step = 9.0 * k
    apothem = flat / 2 - 5.0 * k
    parts = []
    for row in range(-4, 5):
        for col in range(-4, 5):
            x = (col + (0.5 if row % 2 else 0.0)) * step + ((row * 7 + col * 3) % 5 - 2) * 0.5 * k
            y = row * step * 0.866 + ((row * 3 + col * 5) % 5 - 2) * 0.4 * k
            if abs(x) > apothem or abs(x) * 0.5 + abs(y) * 0.866 > apothem:
                continue
            bx, by = x, y + 1.0 * k
            parts.append(" ".join(  # three blades from a short base, leaning apart
                f"M{bx + x0 * k:.2f},{by:.2f} q{qx * k:.2f},{qy * k:.2f} {dx * k:.2f},{dy * k:.2f}"
                for x0, qx, qy, dx, dy in BLADES))
    return " ".join(parts)


def axial_mm(q: int, r: int, flat: float) -> tuple[float, float]:
    """Centre of axial hex (q, r) in mm, relative to the Center."""
    return flat * (q + r / 2), 1.5 * hex_radius(flat) * r


def points(corners) -> str:
    """SVG `points` attribute for a polygon."""
    return " ".join(f"{x:.3f},{y:.3f}" for x, y in corners)


def safe_area(paper: str, landscape: bool = False) -> tuple[float, float, float, float]:
    """(x, y, width, height) in mm of the part of the page that may carry ink."""
    w, h = paper_size(paper, landscape)
    return SAFE_MM, SAFE_MM, w - 2 * SAFE_MM, h - 2 * SAFE_MM


def paper_size(paper: str, landscape: bool = False) -> tuple[float, float]:
    """Paper width and height in mm."""
    if paper not in PAPERS:
        raise TetherError(f"unknown paper {paper!r} (choose from {', '.join(PAPERS)})")
    w, h = PAPERS[paper]
    return (h, w) if landscape else (w, h)


# ---- words and pictures from content ------------------------------------------------------

def term(content, tid: str, plural: bool = False) -> str:
    """A glossary word (singular or plural) by term id."""
    return content.terms[tid]["plural" if plural else "singular"]


def plain(content, text: str) -> str:
    """Designer text with glossary tokens replaced (plain text)."""
    return textmod.render_plain(text, content.terms, content.icons)


def rich(content, text: str) -> Markup:
    """Designer text as safe HTML, icons drawn inline."""
    return Markup(textmod.render_html(text, content.terms, content.icons, _inline_icon))


def _inline_icon(icon_id: str) -> str:
    svg = icon_svg(icon_id, 0, 0, 1, "inline-icon")
    return svg or ""


def tile_info(content, kind: str) -> dict:
    """Name, colour, icon id and brief rules of a tile kind, from tiles.yaml + terms.yaml."""
    tiles = content.tiles
    tile = tiles.get(kind) or next((t for t in tiles.values() if t["term"] == kind), None)
    if tile is None:
        raise TetherError(f"content/tiles.yaml has no tile for {kind!r}")
    tid = tile["term"]
    return {"kind": kind, "name": term(content, tid), "plural": term(content, tid, True),
            "colour": tile.get("colour", FALLBACK_COLOURS[kind]),
            "icon": tile.get("icon") or content.terms[tid].get("icon"),
            "summary": rich(content, tile["summary"]),
            "summary_text": plain(content, tile["summary"])}


def ink(colour: str) -> str:
    """Black or white, whichever reads better on `colour` (#RRGGBB)."""
    r, g, b = (int(colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
    lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (r, g, b)]
    lum = 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]
    return "#111111" if lum > 0.22 else "#FFFFFF"


@cache
def _icon_parts(icon_id: str) -> tuple[str, str] | None:
    """(viewBox, inner markup) of templates/icons/<id>.svg, or None if there is none."""
    path = ICONS / f"{icon_id}.svg"
    if not re.fullmatch(r"[a-z0-9_]+", icon_id or "") or not path.exists():
        return None
    text = path.read_text(encoding="utf-8")
    m = re.search(r"<svg\b([^>]*)>(.*)</svg>", text, re.DOTALL)
    if not m:
        return None
    vb = re.search(r'viewBox="([^"]+)"', m.group(1))
    return (vb.group(1) if vb else "0 0 24 24"), m.group(2)


def icon_svg(icon_id: str | None, x: float, y: float, size: float, cls: str = "icon",
             colour: str = "currentColor") -> Markup | None:
    """An icon as a nested <svg> box of `size` at (x, y); None if the icon file is missing."""
    parts = _icon_parts(icon_id) if icon_id else None
    if parts is None:
        return None
    vb, inner = parts
    return Markup(f'<svg class="{escape(cls)}" x="{x:.3f}" y="{y:.3f}" width="{size:.3f}" '
                  f'height="{size:.3f}" viewBox="{escape(vb)}" color="{escape(colour)}" '
                  f'style="color:{escape(colour)}">{inner}</svg>')


# ---- templates and PDF -----------------------------------------------------------------------

@lru_cache(maxsize=4)
def _env(cache_root: Path | None = None):
    """The tiles' templates, their compiled code kept in the render cache at cache_root (as
    the cards' and the rulebook's: print/templatecode.py), or nowhere (None)."""
    from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

    from ..cache import Cache
    from ..templatecode import bytecode_cache, pure_filter

    env = Environment(loader=FileSystemLoader(TILE_TEMPLATES), undefined=StrictUndefined,
                      autoescape=select_autoescape(["html", "j2"], default=True),
                      trim_blocks=True, lstrip_blocks=True,
                      bytecode_cache=bytecode_cache(Cache(cache_root) if cache_root else None))
    env.filters["mm"] = pure_filter(lambda v: f"{float(v):.3f}")
    env.globals["icon"] = icon_svg
    return env


def render_html(template: str, **context) -> str:
    """Render one of templates/tiles/*.html.j2 (inside `cached`: compiled once per cache)."""
    cache = current_cache()
    return _env(cache.root if cache is not None else None).get_template(template).render(**context)


WARM_HTML = """<!doctype html><html><head><meta charset="utf-8">
<style>@page { size: 30mm 20mm; margin: 0; }</style><link rel="stylesheet" href="print.css">
</head><body><section class="page label" style="width: 30mm; height: 20mm;"><b>Warm</b> 0-9
<svg class="layer" xmlns="http://www.w3.org/2000/svg" width="30mm" height="20mm"
viewBox="0 0 30 20"><polygon points="1,1 9,1 5,8" fill="#EFECE6" stroke="#3B3632"
stroke-width="0.3"/><text x="2" y="15" font-size="3">Warm 0,-1</text></svg>
</section></body></html>"""


def ready(templates: tuple[str, ...]) -> None:
    """Within `cached`: compile `templates` (and what they import) and lay out a small page
    in the stage's Layout (its fonts and style sheet read), so a process forked next (the
    board stage's grid maps: commands.build._aside) inherits them, not doing them again."""
    from .. import geometry  # noqa: F401  (what places the pieces)
    from ..layout.pdf import Layout, shared
    from ..pdfparts import pdfasm, pdfraw  # noqa: F401  (what reads and writes the files)

    cache = current_cache()
    env = _env(cache.root if cache is not None else None)
    for template in templates:
        env.get_template(template)
    if cache is not None:
        _sheet_key("")   # (the part of every sheet's key that is not its HTML: its files')
    document = shared(_base()).render(WARM_HTML, images=True)
    Layout.write(document.pages, document)


class Pdf(bytes):
    """PDF bytes that remember their page count and any text that overflowed its box."""

    pages: int = 0
    overflows: tuple[tuple[str, float], ...] = ()


_CACHE: list = []   # the render cache of the running stage (see `cached`), or empty


def current_cache():
    """The render cache the running stage opened (`cached`), or None outside one."""
    return _CACHE[-1] if _CACHE else None


@contextmanager
def cached(cache_dir):
    """Within: to_pdf keeps each sheet in the render cache under cache_dir (None: off), keyed
    by its HTML and all that shapes its PDF, so a constant that only the tokens print leaves
    the tiles' sheets to the cache."""
    from ..cache import Cache
    from ..layout.pdf import fresh

    _CACHE.append(Cache(cache_dir))
    fresh(_base())   # this stage's sheets share one Layout (to_pdf)
    _KEYED.clear()   # (the files and code it names are read again: --watch)
    _STAGE.clear()
    try:
        yield
    finally:
        _CACHE.pop()
        _KEYED.clear()
        _STAGE.clear()


_STAGE: dict[str, dict] = {}   # what the running stage keeps for its own next asks


def stage_memo(name: str) -> dict:
    """A dict the running stage keeps (within `cached`: emptied as it opens and as it
    closes, so nothing outlives a build: --watch), for answers the stage asks for again, the
    second paper's (a document of pieces the same for both papers); outside `cached`, a new
    empty dict each call (nothing kept). Its keys must hold all the answer depends on but
    the stage's templates and code."""
    return _STAGE.setdefault(name, {}) if _CACHE else {}


def pdf_fragments(pdf: bytes) -> list:
    """Every page of `pdf` as a Fragment (pdfasm.document_fragments, through the render
    cache), made once a stage for one PDF object: a pieces document that both papers draw
    is read once."""
    from ..pdfparts.pdfasm import document_fragments

    memo = stage_memo("fragments")
    found = memo.get(id(pdf))
    if found is None or found[0] is not pdf:   # (the PDF is kept: its id is not reused)
        found = memo[id(pdf)] = (pdf, document_fragments(pdf, current_cache()))
    return found[1]


def _base() -> str:
    return TILE_TEMPLATES.as_uri() + "/"


def _sheet_key(html: str) -> str:
    from .. import cache

    if _KEYED.get("base") is None:   # (all but the HTML: once a stage, see `cached`)
        _KEYED["base"] = cache.digest(
            "sheet-pdf/1", TILE_TEMPLATES.as_uri(),
            cache.files_digest(TEMPLATES, ("tiles", "icons", "fonts")),
            cache.code_digest(*cache.LAYOUT_CODE), Path(__file__).read_bytes(),
            cache.versions(*cache.LAYOUT_PACKAGES), os.environ.get("SOURCE_DATE_EPOCH", "0"))
    return cache.digest(_KEYED["base"], html)


_KEYED: dict = {}   # the part of every sheet's key that is not its HTML, once a stage


def to_pdf(html: str) -> Pdf:
    """HTML -> PDF bytes through the project's one WeasyPrint module (print/layout/pdf.py); from
    the render cache when a stage opened one (`cached`) and it holds this sheet. Laid out
    with the process's shared Layout (print/layout/pdf.py's shared(): the fonts and print.css read
    once); a PDF's bytes do not depend on what shared its Layout."""
    from ..cache import pack, unpack
    from ..layout.pdf import Layout, shared

    cache = current_cache()
    key = _sheet_key(html) if cache is not None else ""
    entry = unpack(cache.get("sheets", key)) if cache is not None else None
    if entry is not None:
        meta, data = entry
        out = Pdf(data)
        out.pages, out.overflows = meta["pages"], tuple(tuple(o) for o in meta["overflows"])
        return out
    document = shared(_base()).render(html, images=True)
    out = Pdf(Layout.write(document.pages, document))
    out.pages = len(document.pages)
    out.overflows = tuple(sorted(set(_overflows(document))))
    if cache is not None:
        cache.put("sheets", key, pack({"pages": out.pages, "overflows": out.overflows}, out))
    return out


def to_pdf_pages(template: str, pages: list, heads: list | None = None, **context) -> Pdf:
    """One PDF of every page of a sheet template (templates/tiles/*.html.j2 that draw one
    <section> a page from `pages`, what each page shows, and nothing that counts pages): each
    page is laid out as a document of its own, kept in the render cache under its own HTML
    (to_pdf), and the pages are drawn into one file (join). A constant that changes one page
    (the round cap: the round track's cells) lays out that page, not the sheet; the file is
    the same whatever the cache held. `heads`, if given, is each page's own head line (the
    template's `head`)."""
    heads = heads or [None] * len(pages)
    parts = [to_pdf(render_html(template, pages=[page], head=head, **context))
             for page, head in zip(pages, heads, strict=True)]
    out = Pdf(join(parts))
    out.pages = sum(part.pages for part in parts)
    out.overflows = tuple(sorted({o for part in parts for o in part.overflows}))
    return out


def piece_key(item: dict) -> str:
    """What a piece of a sheet draws: all its item holds but its place (to_pdf_pieces)."""
    return json.dumps({k: v for k, v in item.items() if k not in ("x", "y")}, sort_keys=True)


def pieces_pdf(template: str, items: list[dict], margin: float, **context) -> Pdf:
    """One PDF of `items` (each {w, h, ...} in mm, as to_pdf_pieces' pages hold them), each
    laid out alone on a page of its own of its size plus `margin` on every side (its bleed
    and cut line), in the order given, all in one document (to_pdf: in the render cache
    under that document's HTML). `template` draws one <section> a page from `pages` and
    takes each page's size from `sizes`. Laid out once a stage for the same pieces and
    context (stage_memo: the token pieces both papers draw)."""
    memo = stage_memo("pieces")
    key = (template, tuple(piece_key(item) for item in items), margin, _context_key(context))
    found = memo.get(key) if key[-1] is not None else None
    if found is None:
        found = memo[key] = to_pdf(render_html(
            template, pages=[[dict(item, x=margin, y=margin)] for item in items],
            sizes=[(item["w"] + 2 * margin, item["h"] + 2 * margin) for item in items],
            paper=(items[0]["w"] + 2 * margin, items[0]["h"] + 2 * margin), **context))
    return found


def _context_key(context: dict) -> str | None:
    """A template's context as a key (JSON, as piece_key writes an item), or None: a value
    JSON does not write (then nothing is kept)."""
    try:
        return json.dumps(context, sort_keys=True)
    except (TypeError, ValueError):
        return None


def to_pdf_pieces(template: str, pages: list[list[dict]], paper: tuple[float, float],
                  margin: float, shared: list[dict] = (), **context) -> Pdf:
    """One PDF of `pages` (each a list of items {x, y, w, h, ...} in mm from the page's top
    left, which `template` draws as one <section> a page) drawn from pieces: each distinct
    item (all it holds but its place: piece_key) is laid out once, on a page of its own of
    its size plus `margin` on every side (pieces_pdf); every page then draws the piece of
    each of its items where the item stands, as a Form XObject the file holds once (with
    the objects the pieces share, their fonts, once). Items must stand `margin` clear of
    the page edge and of each other (the token sheets' gutters), so a piece draws nothing
    another would.

    The pieces are two documents: `shared`, the pieces the caller names (the tokens: the
    same for every paper and for the Tabletop Simulator table, so a second paper finds the
    document in the stage's memo, and the table in the render cache), and every other distinct item of the pages (the heads).
    One document, not one per piece: WeasyPrint's cost per document (the style sheets, the
    fonts, the PDF's writing) was most of a token's. A constant that adds a token (the
    round cap: a cell of the Round tracker) lays out the document again; the file is the
    same whatever the cache held."""
    from ..geometry import PT_PER_MM

    pieces: dict[str, dict] = {}   # what an item draws (its place aside) -> the item
    keyed = []
    for page in pages:
        keyed.append([])
        for item in page:
            key = piece_key(item)
            pieces.setdefault(key, item)
            keyed[-1].append((key, item))
    given = {piece_key(item): item for item in shared}
    rest = [key for key in pieces if key not in given]
    docs = [(pieces_pdf(template, [given.get(k) or pieces[k] for k in keys], margin,
                        **context), keys) for keys in (list(given), rest) if keys]
    frags = {key: frag for pdf, keys in docs
             for key, frag in zip(keys, pdf_fragments(pdf), strict=True)}
    height = paper[1] * PT_PER_MM
    box = [0.0, 0.0, paper[0] * PT_PER_MM, height]
    out = Pdf(placed_file([(box, [(frags[key], (item["x"] - margin) * PT_PER_MM,
                                   height - (item["y"] - margin) * PT_PER_MM
                                   - frags[key].mediabox[3]) for key, item in page])
                           for page in keyed]))
    out.pages = len(pages)
    out.overflows = tuple(sorted({o for pdf, _ in docs for o in pdf.overflows}))
    return out


def placed_file(pages: list[tuple[list[float], list[tuple]]], used: bool = False) -> bytes:
    """A PDF file of pages (box in pt, items) that each draw their items in order: an item
    (fragment, x, y) draws the fragment as a Form XObject with its lower left corner at
    (x, y) pt; an item ("clip", (x, y, w, h), items) draws its items clipped to that
    rectangle (pt); an item (fragment, x, y, scale) draws it scaled by `scale` about that
    corner. Each fragment's form is written once, and the objects the fragments of
    one document share (their fonts) once (Writer(share=True)); `used`: of those, only the
    ones the forms drawn refer to (Writer(used=True): a file drawing a few of a document's
    pages); no bleed (TrimBox and BleedBox are the MediaBox)."""
    from ..pdfparts.pdfasm import num_bytes

    def sheets(writer):
        forms: dict[int, int] = {}
        for box, placed in pages:
            names: dict[int, int] = {}

            def ops(items, names=names) -> list[bytes]:
                out = []
                for item in items:
                    if item[0] == "clip":
                        rect = b" ".join(num_bytes(v) for v in item[1])
                        out += [b"q %s re W n" % rect, *ops(item[2], names), b"Q"]
                        continue
                    frag, x, y, *scale = item
                    if id(frag) not in forms:
                        forms[id(frag)] = writer.add_form(frag, frag.mediabox)
                    n = names.setdefault(id(frag), len(names))
                    k = num_bytes(scale[0]) if scale else b"1"
                    out.append(b"q %s 0 0 %s %s %s cm /T%d Do Q" % (k, k, num_bytes(x),
                                                                    num_bytes(y), n))
                return out
            content = b"\n".join(ops(placed))
            yield box, {b"T%d" % n: forms[i] for i, n in names.items()}, content

    return _page_file(sheets, share=True, used=used)


def join(pdfs: list[bytes]) -> bytes:
    """One PDF of every page of `pdfs`, in order, each drawn as a Form XObject on a page of its
    size (pages with no bleed: TrimBox and BleedBox are the MediaBox, as WeasyPrint writes
    them then)."""
    from ..pdfparts.pdfasm import fragments

    keyed = [(pdf, [f"{n}-{i}" for i in range(pdf.pages)]) for n, pdf in enumerate(pdfs)]
    frags = fragments(keyed, current_cache())

    def pages(writer):
        for _, keys in keyed:
            for key in keys:
                frag = frags[key]
                yield frag.mediabox, {b"Page": writer.add_form(frag, frag.mediabox)}, None

    return _page_file(pages)


def _page_file(pages, share: bool = False, used: bool = False) -> bytes:
    """A PDF file of the pages `pages(writer)` yields as it adds their forms to the writer:
    each (box in pt, {XObject name: form object}, content ops drawing them, or None for the
    one form drawn as it is), with no bleed (TrimBox and BleedBox are the MediaBox)."""
    import zlib

    from ..pdfparts.pdfasm import Writer, num_bytes, stream

    writer = Writer(share=share, used=used)
    catalog, tree = writer.reserve(), writer.reserve()
    kids = []
    for mediabox, forms, ops in pages(writer):
        contents = writer.add(stream(b"", b"q /Page Do Q") if ops is None else stream(
            b"/Filter /FlateDecode\n", zlib.compress(ops + b"\n")))
        box = b"[" + b" ".join(num_bytes(v) for v in mediabox) + b"]"
        xobjects = b" ".join(b"/%s %d 0 R" % (name, form) for name, form in forms.items())
        kids.append(writer.add(
            b"<</Type /Page\n/Parent %d 0 R\n/MediaBox %s\n/TrimBox %s\n/BleedBox %s\n"
            b"/Resources <</XObject <<%s>>>>\n/Contents %d 0 R>>"
            % (tree, box, box, box, xobjects, contents)))
    writer.put(tree, b"<</Type /Pages\n/Kids [" + b" ".join(b"%d 0 R" % k for k in kids)
               + b"]\n/Count %d>>" % len(kids))
    writer.put(catalog, b"<</Type /Catalog\n/Pages %d 0 R>>" % tree)
    info = writer.add(b"<</Producer (tether print)>>")
    return writer.write(b"/Root %d 0 R\n/Info %d 0 R\n" % (catalog, info))


def _overflows(document):
    """(data-fit label, mm) for each element marked data-fit whose text runs past its box:
    lines below its foot, or a line wider than the box (a name that does not wrap, clipped
    by the box's overflow: hidden)."""
    px_mm = 25.4 / 96
    for page in document.pages:
        for box in page_root(page).descendants():
            element = getattr(box, "element", None)
            if element is None or not element.get("data-fit") or not hasattr(box, "height"):
                continue
            bottom = box.content_box_y() + box.height
            left = box.content_box_x()
            right = left + box.width
            inner = list(box.descendants())
            lines = [b.position_y + b.height for b in inner if type(b).__name__ == "LineBox"]
            texts = [b for b in inner if type(b).__name__ == "TextBox" and b.text.strip()]
            over = max([(max(lines) - bottom) if lines else 0.0]
                       + [max(left - t.position_x, t.position_x + t.width - right)
                          for t in texts]) * px_mm
            if over > 0.2:
                yield element.get("data-fit"), round(over, 1)
