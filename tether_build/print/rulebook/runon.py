"""Parts of the book laid out as documents of their own, drawn into empty page slots of it:
the rules chapters, the print-and-assemble guide and the player aid (chapterdocs.py) and the
card reference (reference.py).

Why: laying out the whole book takes about 4 s a paper. Laid out apart, part by part, an edit
lays out its own part again, and the book only when its page slots change.

A part's page is the book's text area with the face bleed around it (stamp.py trims the
bleed), with no header or folio: the book's own page prints those around the slot. Parts run
on like one document: a part's first page is only as tall as the space the part before left
on its last page, and is drawn below it on the same printed page (pdfasm.stack), unless less
than `min_start` mm is left, when it starts a fresh page. So a part is laid out again when its
own HTML changes or when the space the part before leaves changes.

A part may go on from the part before as one table (the card reference's runs of rows): it is
laid out with its own header, and the top of its first page, where that header is, is not drawn
(`hidden`), so its rows follow the rows before.

A part that holds card faces (`data-card-slot`, e.g. the anatomy figure) is kept as a
stamp.Skeleton with its slots, and the faces are stamped into it once they are laid out.

The book's slot pages (slot_pages) carry, with no height, the titles of the headings that start
on them (measured by `headings`), for the book's contents, running headers and bookmarks.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import astuple, dataclass, replace

from markupsafe import Markup, escape

from ...forking import collector_paused, fork_pool
from ..layout.patches import page_root
from .stamp import boxes

TOP_MM = 0.5  # a heading this close to its page's top starts that page
SLACK = 0.05  # mm a slot page is shorter than the book's text area, so it never spills over
#               (0.5 mm cost the chapters a line here and there: the combat example broke early)


@dataclass
class Link:
    """One part laid out: its PDF (or Skeleton bytes when meta["slots"] is not empty), what
    was measured (meta: pages, used mm of the last page, slots, and what `measure` adds),
    whether it starts a fresh printed page, the mm at the top of its first page that is
    not drawn (`hidden`: it goes on below the part before), and how many mm lower than a
    fresh page's top its page is drawn (`lower`: a part laid out on a whole page that goes
    on below the part before, see chain's `whole_first`)."""

    data: bytes
    meta: dict
    fresh: bool
    clip: float = 0.0
    lower: float = 0.0


def sheet() -> tuple[float, float]:
    """Width and height (mm) of the page the book is laid out on, for every paper: the
    narrowest paper's width and the shortest paper's height. Each paper's PDF shows it
    centred on its own sheet (paper_box), the book's bleed (sheet_bleed) filling the rest."""
    from ..geometry import PAPERS

    return min(w for w, _ in PAPERS.values()), min(h for _, h in PAPERS.values())


def sheet_bleed() -> tuple[float, float]:
    """(across, down) mm the book's pages reach past sheet() on each side: half of the most
    that any paper is wider or taller, so a cover printed to the page's edge fills them."""
    from ..geometry import PAPERS

    width, height = sheet()
    return (max(w for w, _ in PAPERS.values()) - width) / 2, (
        max(h for _, h in PAPERS.values()) - height) / 2


def paper_box(paper: str, trim: tuple[float, ...]) -> list[float]:
    """The PDF box (pt) of `paper` around a book page laid out on sheet() whose trim box is
    `trim` (x0, y0, x1, y1 in pt): the paper's sheet with that page centred on it."""
    from ..geometry import PAPERS, PT_PER_MM

    width, height = sheet()
    across = (PAPERS[paper][0] - width) / 2 * PT_PER_MM
    down = (PAPERS[paper][1] - height) / 2 * PT_PER_MM
    x0, y0, x1, y1 = trim
    return [x0 - across, y0 - down, x1 + across, y1 + down]


def box(margin: tuple | None = None) -> tuple[float, float]:
    """Width and height (mm) of a slot page: the text area of a book page (sheet()) with
    these margins (top, right, bottom, left; default the book's), less SLACK. The same on
    every paper, so a part is laid out once for all papers: the first paper lays it out, the
    others find it in the cache, and every paper's book has the same pages."""
    from .pagebase import MARGIN

    top, right, bottom, left = margin or MARGIN
    width, height = sheet()
    return width - right - left, height - top - bottom - SLACK


def page_sizes(fresh: bool, used: float | None, margin: tuple | None = None
               ) -> dict[str, str | None]:
    """The @page sizes of a part's document: `size` for every page and `first_size` for a
    first page that goes on below the part before (None when it starts a fresh page)."""
    from ..geometry import ART_BLEED

    width, height = box(margin)
    wide = width + 2 * ART_BLEED

    def size(tall: float) -> str:
        return f"{wide:.4f}mm {tall + 2 * ART_BLEED:.4f}mm"

    return {"size": size(height), "bleed": f"{ART_BLEED:.4f}mm",
            "first_size": None if fresh else size(height - used)}


def chain(count: int, render: Callable[[int, dict], str], kind: str, cache,
          base: str, min_start: float | Callable[[int], float],
          measure: Callable | None = None, cached_only: bool = False,
          margin: tuple | None = None, hidden: Callable[[int], float] | None = None,
          whole_first: Callable[[int, float], bool] | None = None) -> list[Link] | None:
    """The parts in order (on every paper the same: see box), from the cache (`kind` entries,
    keyed by their HTML) or laid out. render(k, sizes) is part k's HTML (sizes: page_sizes); measure(document) adds
    to a part's meta. min_start: mm, or part k -> mm. cached_only: None as soon as a part is
    not in the cache. margin: the book page's margins around the slots (default the book's).
    hidden(k): mm at the top of part k's first page that are not drawn when it goes on below
    the part before (the header of a table that goes on from that part: its document repeats
    it on every page), added to that page's height.

    whole_first(k, room): whether part k, going on below the part before, may fit in the
    room left (mm; False only when it cannot). Such a part is laid out on a whole page first
    (the HTML and layout of a part that starts a fresh page); when all of it fits in the room
    left, that layout is drawn lower on the page (Link.lower), where its own first page would
    start. A layout that fits on one page does not change with the height of that page, so
    the part lays out the same whatever room the part before leaves: when a run of rows grows
    by a line, the runs after it are not laid out again. A part that does not fit is laid
    out as before, with its first page as tall as the room left. Either way the part's bytes
    depend only on where it starts, never on what the cache held."""
    _, height = box(margin)
    links: list[Link] = []
    plan: list = []   # where each part was laid out: [fresh, mm used before it, clip]
    used = None   # mm used on the last printed page so far
    at = _AT.get(kind)
    for k in range(count):
        if at is not None and at.value < k:
            at.value = k   # (ahead() in another process stops here)
        start = min_start(k) if callable(min_start) else min_start
        fresh = used is None or height - used < start
        lower = 0.0
        while True:
            clip = 0.0 if fresh or hidden is None else hidden(k)
            first, sizes = _placed(fresh, used, clip, height, margin)
            if whole_first is not None and not fresh and whole_first(k, first):
                entry = _entry(render(k, page_sizes(True, None, margin)), kind, cache,
                               base, height, measure, cached_only)
                if entry is None:
                    return None
                meta, data = entry
                if meta["pages"] == 1 and meta["used"] <= first:
                    lower = used - clip
                    break
            entry = _entry(render(k, sizes), kind, cache, base, first, measure, cached_only)
            if entry is None:
                return None
            meta, data = entry
            if fresh or not meta.get("spills"):
                break
            fresh = True   # what it must start with does not fit below the part before
        links.append(Link(data, meta, fresh, clip, lower))
        plan.append([fresh, None if fresh else used, clip])
        used = meta["used"] + (0 if fresh or meta["pages"] > 1 else used - clip)
    if whole_first is None:
        _keep_plan(cache, kind, plan)
    return links


_AT: dict = {}   # kind -> a shared int (multiprocessing.Value): the part its chain is at


def watched(kind: str) -> None:
    """A shared int that the chains of `kind` set to the part they are at, made before a
    process that runs one is forked, for ahead() to stop there; forget() it after."""
    import multiprocessing

    if "fork" in multiprocessing.get_all_start_methods():   # (else nothing is forked)
        _AT[kind] = multiprocessing.get_context("fork").Value("i", -1, lock=False)


def forget(kind: str) -> None:
    _AT.pop(kind, None)


def _placed(fresh: bool, used: float | None, clip: float, height: float,
            margin: tuple | None) -> tuple[float, dict]:
    """Where a part is laid out: (its first page's height in mm, its page sizes), on a
    fresh page or below `used` mm of the page (less `clip`, its hidden top: chain's)."""
    if fresh:
        return height, page_sizes(True, None, margin)
    return height - used + clip, page_sizes(False, used - clip, margin)


def _plan_key(kind: str) -> str:
    from ..cache import digest

    return digest("chainplan/1", kind)


def _keep_plan(cache, kind: str, plan: list) -> None:
    """Keep where a chain's parts were laid out (for ahead())."""
    import json

    data = json.dumps(plan).encode()
    if cache.get("chainplan", _plan_key(kind)) != data:
        cache.put("chainplan", _plan_key(kind), data)


def ahead(count: int, render: Callable[[int, dict], str], kind: str, cache, base: str,
          measure: Callable | None = None, margin: tuple | None = None) -> int:
    """Lay out, last part first, the parts of a chain that the cache lacks at the places
    the last build laid them out (its plan), while another process runs the chain itself
    from the first part (book._ahead): an edit that moves no part (a number in a sentence)
    has the chain's layouts shared by two processes. A part the other has claimed (_entry)
    is left to it; it stops at the part the chain is at (watched()), so what it lays out at
    a place the chain no longer asks for (an edit that moves the parts after it) is a part
    or two at most. Returns how many parts were laid out here."""
    import json

    try:
        plan = json.loads(cache.get("chainplan", _plan_key(kind)) or b"[]")
    except ValueError:
        return 0
    _, height = box(margin)
    done = 0
    at = _AT.get(kind)
    for k in reversed(range(min(count, len(plan)))):
        if at is not None and at.value >= k:
            break   # the chain is there: the parts before are its own
        try:
            fresh, used, clip = plan[k]
            first, sizes = _placed(bool(fresh), None if fresh else float(used), float(clip),
                                   height, margin)
        except (TypeError, ValueError):
            return done   # not a plan this code wrote
        got = _entry(render(k, sizes), kind, cache, base, first, measure, False,
                     helping=True)
        done += got is not None
    return done


def _entry(html: str, kind: str, cache, base: str, first: float, measure: Callable | None,
           cached_only: bool, helping: bool = False
           ) -> tuple[dict, bytes] | None:
    """A part's (meta, data) from the cache, or laid out (None: cached_only and not cached).
    meta["spills"]: its first page's content runs past that page's foot (`first` mm tall):
    WeasyPrint puts something on a page that holds nothing else, fit or not (a table's first
    row below its repeated header, a figure), so the part must start a fresh page instead.

    A part is claimed while it is laid out (_claim): a chain that meets a part another
    process is laying out (ahead()) waits for its entry; `helping` (ahead() itself) leaves
    it to the other (None), and lays out nothing the cache has."""
    key = _key(html, base)
    entry = _noted(_cached(cache, kind, key))
    if entry is not None or cached_only:
        return None if helping else entry
    while True:
        claim = _claim(cache, kind, key)
        if claim is not False:
            break
        if helping:
            return None
        entry = _noted(_claimed(cache, kind, key))   # laid out by the process that claimed it
        if entry is not None:
            return entry
    try:
        with collector_paused():   # (see _lay_out)
            entry = _lay_out(html, kind, cache, base, first, measure, key)
        return _noted(entry)
    finally:
        if claim is not None:
            claim.unlink(missing_ok=True)


SHRUNK: set[str] = set()   # the shrunk-to-fit warnings of the parts this process read


def _noted(entry: tuple[dict, bytes] | None) -> tuple[dict, bytes] | None:
    """The entry, its shrunk-to-fit warnings noted (a cached part warns as a fresh one)."""
    if entry is not None:
        SHRUNK.update(entry[0].get("shrunk", ()))
    return entry


def _key(html: str, base: str) -> str:
    from .pagebase import layout_key

    return layout_key(html, base)


def _cached(cache, kind: str, key: str) -> tuple[dict, bytes] | None:
    from ..cache import unpack

    entry = unpack(cache.get(kind, key))
    if entry is not None and not {"pages", "used", "slots"} <= entry[0].keys():
        return None  # not an entry this code wrote: lay the part out again
    return entry


def _claim(cache, kind: str, key: str):
    """Claim the layout of a part: the claim's file (unlinked when the part is in the
    cache), False while another living process holds it, None where the cache keeps
    nothing (one process: no claims)."""
    path = _claim_path(cache, kind, key)
    if path is None:
        return None
    for _ in range(2):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            if _holder_alive(path):
                return False
            path.unlink(missing_ok=True)   # left by a process that ended: take it over
            continue
        except OSError:
            return None   # a read-only cache: lay it out, as without claims
        with os.fdopen(fd, "w") as file:
            file.write(str(os.getpid()))
        return path
    return None


def _claim_path(cache, kind: str, key: str):
    """The file that claims a part, or None where the cache keeps nothing."""
    root = getattr(cache, "root", None)
    return None if root is None else root / "claims" / f"{kind}-{key}"


def _holder_alive(path) -> bool:
    try:
        text = path.read_text()
    except OSError:
        return False   # released meanwhile
    if not text:
        return True    # being claimed this instant
    try:
        os.kill(int(text), 0)
    except (ValueError, ProcessLookupError):
        return False
    except PermissionError:
        return True
    return True


def _claimed(cache, kind: str, key: str) -> tuple[dict, bytes] | None:
    """Wait while another process holds the claim of a part; its entry, or None (it ended
    without one: the caller claims the part)."""
    import time

    path = _claim_path(cache, kind, key)
    while path.exists() and _holder_alive(path):
        time.sleep(0.004)
    return _cached(cache, kind, key)


def _lay_out(html: str, kind: str, cache, base: str, first: float, measure: Callable | None,
             key: str) -> tuple[dict, bytes]:
    """Lay a part out and keep it in the cache. _entry calls it with the garbage collector
    paused (forking.collector_paused), from the first layout to the last measure and the
    PDF: the part's documents live until then, and each collection between them (after a
    layout, measuring, writing, reading the PDF back) would walk them again for nothing;
    once it returns, one collection walks what is left of them, garbage (WeasyPrint's styles
    and boxes hold cycles) that it frees."""
    from ..cache import pack
    from ..layout.pdf import Layout
    from . import balance, tablefit
    from .stamp import skeleton, slots

    document = (balance.render(layout(base), html) if kind == "bookch"
                else layout(base).render(html))   # a chapter's long runs: balance.py
    # tables opted in to shrinking (`shrink: true` in a chapter's front matter) laid out
    # again smaller until they fit; then every table is checked
    document, scale, why = tablefit.fitted(
        document, lambda css: layout(base).render(tablefit.with_css(html, css)))
    tablefit.check(document, kind)   # before the cache keeps it: refused on every build
    placed = slots(document)
    meta = {"pages": len(document.pages), "used": used_height(document.pages[-1]),
            "shrunk": [f"shrunk to fit: {w} (set at {round(scale * 100)} % with shrink: "
                       "true)" for w in why] if scale < 1 else [],
            "spills": used_height(document.pages[0]) > first + SLACK,
            "slots": [list(astuple(s)) for s in placed],
            **(measure(document) if measure else {})}
    pdf = Layout.write(document.pages, document)
    entry = (meta, skeleton(pdf, placed).to_bytes() if placed else pdf)
    cache.put(kind, key, pack(*entry))
    return entry


def layout(base: str):
    """The Layout the book's documents are laid out with in this process (print/layout/pdf.py's
    shared(): the fonts read once, not once a chain, and the style sheets every part links
    parsed once, not once a document, about 30 ms each: print/layout/sheets.py); the
    rulebook starts with fresh_layouts()."""
    from ..layout.pdf import shared

    return shared(base, sheets=True)


# what every part of the book links (templates/rulebook/partdoc.html): read by fresh_layouts
WARM_HTML = ('<!DOCTYPE html><html><head><link rel="stylesheet" href="fonts/fonts.css">'
             '<link rel="stylesheet" href="rulebook/book.css">'
             '<link rel="stylesheet" href="rulebook/worked.css"></head><body></body></html>')


def fresh_layouts(base: str) -> None:
    """Start a book's layouts (print/layout/pdf.py's fresh()), the fonts and style sheets every
    part links read now, before book._ahead forks the chapters' process."""
    from ..layout.pdf import fresh

    fresh(base, WARM_HTML, sheets=True)


JOB: dict = {}   # what a paper's work reads (template, book, cache...): set around each_paper


def each_paper(papers: tuple[str, ...], work: Callable, **job) -> list:
    """[work(paper) for paper in papers], side by side in forked processes when there are two
    or more and cores allow. job: put in JOB for the work to read, here or in the workers
    (which inherit it by fork), and cleared after. work: a module-level function."""
    JOB.update(job)
    try:
        workers = min(len(papers), os.cpu_count() or 1)
        if workers < 2:
            return [work(p) for p in papers]
        with fork_pool(workers) as pool:
            return list(pool.map(work, papers))
    finally:
        JOB.clear()


def per_paper(papers: tuple[str, ...], chain: Callable, **job) -> dict[str, list[Link]]:
    """paper -> chain(paper): every paper's parts found in the cache (chain(paper, True)), the
    others laid out. chain: a module-level function (paper, cached_only=False) ->
    list[Link] | None that reads what it needs in JOB (job).

    Every paper's parts have the same HTML (every paper's slot pages are box()'s): the first
    paper not in the cache is laid out here, and the others then find its parts (kept here
    too when `cache` stores nothing), so the parts are laid out once, not once a paper. A
    paper whose parts still differ (a part that prints its own paper) is laid out after
    that, the papers side by side (each_paper)."""
    job = dict(job, cache=_Kept(job["cache"]))
    JOB.update(job)
    try:
        found = {p: chain(p, True) for p in papers}
        todo = tuple(p for p in papers if found[p] is None)
        if todo:
            found[todo[0]] = chain(todo[0])
            found.update((p, chain(p, True)) for p in todo[1:])
            todo = tuple(p for p in todo if found[p] is None)
    finally:
        JOB.clear()
    found.update(zip(todo, each_paper(todo, chain, **job)))
    return found


def all_cached(papers: tuple[str, ...], chain: Callable, **job) -> dict[str, list[Link]] | None:
    """paper -> chain(paper) when every paper's parts are in the cache (per_paper's first
    look, and its answer then), else None: nothing is laid out."""
    JOB.update(job)
    try:
        found = {}
        for paper in papers:
            links = chain(paper, True)
            if links is None:
                return None
            found[paper] = links
        return found
    finally:
        JOB.clear()


class _Kept:
    """A render cache that also keeps, in memory, the entries put through it: a part laid out
    for one paper is found by the next even when the cache stores nothing (Cache(None))."""

    def __init__(self, cache):
        self.cache, self.kept = cache, {}
        self.root = getattr(cache, "root", None)   # (where claims are made: _claim)

    def get(self, kind: str, key: str) -> bytes | None:
        """The entry's bytes, or None."""
        data = self.kept.get((kind, key))
        return data if data is not None else self.cache.get(kind, key)

    def put(self, kind: str, key: str, data: bytes) -> None:
        """Store an entry, and keep it here."""
        self.kept[kind, key] = data
        self.cache.put(kind, key, data)


def used_height(page) -> float:
    """mm of the page's height down to the bottom border edge of its lowest box, from the top
    of its content area: a trailing bottom margin is not counted, as in one document, where
    it would collapse with the top margin of what follows."""
    from ..layout.pdf import PX_PER_MM

    page_box = page_root(page)
    body = page_box.children[0].children[0]
    bottom = max((b.border_box_y() + b.border_height() for child in body.children
                  for b in boxes(child) if hasattr(b, "border_box_y")),
                 default=page_box.content_box_y())
    return (bottom - page_box.content_box_y()) / PX_PER_MM


def printed(links: list[Link]) -> list[list[tuple[int, int]]]:
    """The printed slot pages: for each, the (part, page) drawn on it, top to bottom."""
    out: list[list[tuple[int, int]]] = []
    for k, link in enumerate(links):
        for i in range(link.meta["pages"]):
            if i == 0 and not link.fresh and out:
                out[-1].append((k, i))   # below the part before, on its last page
            else:
                out.append([(k, i)])
    return out


def fragments(paper: str, links: list[Link], faces: dict, cache) -> dict[tuple[int, int], object]:
    """(part, page) -> the page as a pdfasm.Fragment; faces (card id -> Fragment) are stamped
    into the parts that hold them."""
    from ..geometry import ART_BLEED, PT_PER_MM
    from ..pdfparts.pdfasm import fragments as read
    from .stamp import Skeleton, Slot, stamp

    parts = []
    for k, link in enumerate(links):
        pdf = link.data
        if link.meta["slots"]:
            pdf = stamp(Skeleton.from_bytes(link.data), [Slot(*s) for s in link.meta["slots"]],
                        faces)
        parts.append((pdf, [f"{paper}-{k}-{i}" for i in range(link.meta["pages"])]))
    frags = read(parts, cache)
    out = {(k, i): frags[f"{paper}-{k}-{i}"]
           for k, link in enumerate(links) for i in range(link.meta["pages"])}
    for k, link in enumerate(links):
        if link.clip or link.lower:
            # its first page's top bleed and hidden strip are not drawn; a whole page drawn
            # lower: neither what would fall below the printed page's own foot (room that
            # the part's own first page would not have had: it holds nothing)
            first = out[k, 0]
            x0, y0, x1, y1 = first.mediabox
            lower = link.lower * PT_PER_MM
            out[k, 0] = replace(first, lower=lower, mediabox=[
                x0, y0 + lower, x1, y1 - (ART_BLEED + link.clip) * PT_PER_MM])
    return out


def stacked(pages: list[list[tuple[int, int]]], frags: dict) -> list:
    """One Fragment per printed slot page: its parts' pages drawn at the same origin."""
    from ..pdfparts.pdfasm import stack

    if not pages:
        return []
    full = frags[pages[0][0]].mediabox
    return [stack([frags[at] for at in page], full) for page in pages]


def headings(document) -> dict:
    """A part's chapter titles and section headings: each one's page, y (mm) and title, in
    order (its first box), as meta["marks"] for slot_pages."""
    from ..layout.pdf import PX_PER_MM

    marks, seen = [], set()
    for index, page in enumerate(document.pages):
        top = page_root(page).content_box_y()
        for box in boxes(page_root(page)):
            element = getattr(box, "element", None)
            if element is None or element.tag not in ("h1", "h2") or id(element) in seen:
                continue
            if element.tag == "h1" and "rb-chapter-title" not in element.get("class", ""):
                continue
            seen.add(id(element))
            text = " ".join("".join(element.itertext()).split())
            marks.append([index, element.tag, round((box.position_y - top) / PX_PER_MM, 2),
                          text])
    return {"marks": marks}


@dataclass
class SlotPages:
    """Parts laid out for one paper: the book's slot pages (HTML) and what they draw (a Link
    per part, and which parts' pages go on which slot page)."""

    slots: list
    links: list[Link]
    printed: list
    slot: str

    def fragments(self, paper: str, faces: dict, cache) -> dict:
        """slot name -> the slot page's pdfasm.Fragment (faces: card id -> Fragment, stamped
        into the parts that show cards)."""
        return {self.slot.format(n): frag for n, frag in
                enumerate(stacked(self.printed, fragments(paper, self.links, faces, cache)))}


def slot_pages(links: list[Link], slot: str, anchors: list[str] = (),
               margin: tuple | None = None) -> SlotPages:
    """The book's empty slot pages for the parts (slot: their names' format), each
    carrying, with no height, the headings that start on it (parts measured with `headings`;
    anchors: the id of each part's title, which the contents link to)."""
    width, height = box(margin)
    pages = printed(links)
    slots = []
    for n, page in enumerate(pages):
        marks = []
        for k, i in page:
            for at, tag, y, text in links[k].meta.get("marks", ()):
                if at != i:
                    continue
                top = y < TOP_MM and (i > 0 or links[k].fresh)
                if tag == "h1":
                    head = f'<h1 class="rb-chapter-title rb-ref-mark" id="{escape(anchors[k])}">'
                    marks.append((top, f"{head}{escape(text)}</h1>"))
                else:
                    marks.append((False, f'<h2 class="rb-ref-mark">{escape(text)}</h2>'))
        # a page whose first mark is not a chapter starting at its top begins with a gap,
        # so its running header is the chapter going on from the page before
        gap = "" if not marks or marks[0][0] else '<div class="rb-mark-gap"></div>'
        slots.append(Markup(
            f'<div class="rb-ref-page" data-card-slot="{slot.format(n)}" '
            f'style="width:{width:.4f}mm;height:{height:.4f}mm">{gap}'
            + "".join(m for _, m in marks) + "</div>"))
    return SlotPages(slots, links, pages, slot)
