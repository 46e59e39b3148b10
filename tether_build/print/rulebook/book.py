"""The rulebook: gather and check everything, render HTML, lay out A4 and Letter PDFs.

`render_rulebook(content, content_dir, papers)` returns {file name: bytes} and writes
nothing; the CLI (or `tether build`) writes the files atomically. Every word comes from
content through the glossary, every number from content/game.yaml or arithmetic over it.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable
from dataclasses import astuple, dataclass, field
from pathlib import Path

import jinja2
from markupsafe import Markup

from ...errors import ContentError, TetherError
from ..geometry import PAPERS  # the papers a book is printed on, and their sizes
from ..tiles import splitcache
from . import aid, anatomy, chapterdocs, columns, printguide, reference, runon, tablefit
from .chapters import render_chapters
from .directives import ANATOMY, Ctx
from .pagebase import AID_MARGIN, MARGIN, TEMPLATES, layout_key
from .words import Words

CARD_SCALE = {"faction": 0.8}   # two factions a page, each beside its two cards
BOARD = (4, 1)  # players and seed of the board map the build prints (tether build's default)
README = "print/README.pdf"
AID = "print/player-aid-{paper}.pdf"


@dataclass
class Rulebook:
    """What a rulebook build made."""

    files: dict[str, bytes] = field(default_factory=dict)
    pages: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    warnings: list[str] = field(default_factory=list)   # tables shrunk to fit (opted in)


def _env(words: Words, cache=None) -> jinja2.Environment:
    """The rulebook's templates, with the glossary filters, the book's and the aid's page
    margins and the sheet the book is laid out on for every paper (runon.sheet); cache:
    the render cache, where their compiled code is kept (templatecode.py)."""
    from ..templatecode import bytecode_cache, data_filter

    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True,
                             bytecode_cache=bytecode_cache(cache))
    env.filters["tok"] = data_filter(words.html)     # token text -> glossary HTML
    env.filters["plain"] = data_filter(words.plain)  # token text -> plain text
    env.globals["term"] = words.term
    env.globals["icon"] = lambda name: Markup(words.icon_html(name))
    env.globals["ruler"] = printguide.ruler_svg
    env.globals["columns"] = columns.runs     # a chapter's HTML -> two-column and wide runs
    env.globals["margin"] = _css(MARGIN)
    env.globals["aid_margin"] = _css(AID_MARGIN)
    width, height = runon.sheet()
    across, down = runon.sheet_bleed()
    env.globals["sheet"] = {"size": f"{width:g}mm {height:g}mm",
                            "bleed": f"{round(down, 4):g}mm {round(across, 4):g}mm",
                            "cover": f"width: {round(width + 2 * across, 4):g}mm; "
                                     f"height: {round(height + 2 * down, 4):g}mm; "
                                     f"margin: -{round(down, 4):g}mm -{round(across, 4):g}mm;"}
    return env


def _css(margin: tuple) -> str:
    return " ".join(f"{m:g}mm" for m in margin)


def setting(content, words: Words) -> dict:
    """Setting and lore: world sections (setting.yaml) and the ages' flavour (ages.yaml)."""
    data = content.setting
    sections = [{"title": words.html(s["title"]), "text": [words.html(t) for t in s["text"]]}
                for s in data["sections"]]
    ages = [{"numeral": a["numeral"], "name": words.html(a["name"]),
             "rounds": a["rounds"], "flavor": [words.html(t) for t in a.get("flavor", [])]}
            for a in content.ages["ages"].values()]
    return {"world": words.plain(data["world"]), "sections": sections, "ages": ages}


def factions(content, words: Words, faces) -> list[dict]:
    """Each faction: lore, passives, starter spell and Champion faces (two factions a page)."""
    default = content.data("factions.yaml")["default"]
    keywords = content.keywords
    out = []
    for fid, f in content.factions.items():
        passives = []
        for p in f["passives"]:
            if p.get("idea"):
                continue  # only an idea in the design document: not a rule yet
            limit = p.get("limit")
            passives.append({"name": words.html(p["name"]), "text": words.html(p["text"]),
                             "limit": words.html(keywords[limit]["name"])
                             if limit in keywords else None})
        out.append({
            "id": fid, "name": words.html(f["name"]), "name_plain": words.plain(f["name"]),
            "theme": words.html(f.get("theme", "")), "tagline": words.html(f.get("tagline", "")),
            "lore": words.html(f.get("lore", "")),
            "champion_lore": words.html(f.get("champion_lore", "")),
            "colour": f["colour"], "emblem": f.get("emblem"), "default": fid == default,
            "passives": passives,
            "spell": {"id": f["spell"], "scale": CARD_SCALE["faction"]},
            "champion": {"id": f["champion"], "scale": CARD_SCALE["faction"]},
            "spell_name": faces.by_id[f["spell"]]["name"],
            "champion_name": faces.by_id[f["champion"]]["name"],
        })
    return out


def glossary(content, words: Words, cards: list[dict]) -> list[dict]:
    """Keywords with reminder text, rulings and the cards that carry them."""
    used: dict[str, list[str]] = {}
    for card in cards:
        abilities = (card["champion"] or {}).get("abilities", []) + card["triggers"]
        kws = {a.get("keyword") for a in abilities} | {a.get("limit") for a in abilities}
        if card["burn"]:
            kws |= {k for k, v in content.keywords.items() if v.get("term") == "burn"}
        for kid in kws - {None}:
            used.setdefault(kid, []).append(card["name"])
    out = []
    for kid, kw in content.keywords.items():
        name = words.term(kw["term"]) if kw.get("term") else words.plain(kw["name"])
        out.append({"id": kid, "name": name, "reminder": words.html(kw["reminder"]),
                    "rulings": [words.html(r) for r in kw.get("rulings", [])],
                    "cards": sorted(set(used.get(kid, [])))})
    return sorted(out, key=lambda k: k["name"].lower())


def _context(content, content_dir: Path, cache=None, papers=("a4",), board=BOARD
             ) -> tuple[dict, Words, object]:
    """(the book's template context, its glossary words, its card faces)."""
    book, words, faces, parts = _chapters_context(content, content_dir, cache)
    _rest_of_context(book, content, content_dir, words, faces, parts, papers, board)
    return book, words, faces


def _chapters_context(content, content_dir: Path, cache=None) -> tuple[dict, Words, object,
                                                                       list]:
    """What the rules chapters' documents read of the book's context (chapterdoc.html: the
    title, the chapters, the card anatomy figure and the icon key, the base URL), and the
    words, faces and components the rest of it is made from (_rest_of_context): the
    chapters' process is forked with this much (render_rulebook)."""
    from ..tiles.components import components
    from .faces import Faces

    words = Words(content)
    faces = Faces(content, cache)
    parts = components(content, faces.cards)
    ctx = Ctx(content, words, lambda: parts)
    from .examples import stored

    with stored(cache):   # the worked examples' engine runs (examples.stored)
        chapters, problems = render_chapters(ctx, Path(content_dir) / "rules",
                                             Path(content_dir).resolve().parent, cache)
    if problems:
        raise ContentError(problems)  # before any layout: fail fast, every problem at once
    wanted = any(ANATOMY in str(ch.html) for ch in chapters)
    if wanted:  # the anatomy figure measures its card as printed; the rest fit later
        faces.fit([anatomy.pick_card(faces.cards)["id"]])
    book = {
        "title": words.plain(content.game["title"]), "chapters": chapters,
        "anatomy": anatomy.figure(faces, words) if wanted else None,
        "icon_key": anatomy.icon_key(content, words),
        "base": faces.base_url,
    }
    return book, words, faces, parts


def _rest_of_context(book: dict, content, content_dir: Path, words: Words, faces, parts: list,
                     papers=("a4",), board=BOARD) -> None:
    """Add to `book` what the rest of the book reads: the cover, the setting, the factions,
    the glossary, the card reference, the player aid and the print-and-assemble guide."""
    game = content.game
    book.update({
        "version": content_version(str(game["version"]), Path(content_dir)),
        "players": game["players"],
        "setting": setting(content, words), "factions": factions(content, words, faces),
        "emblems": [f.get("emblem") for f in content.factions.values() if f.get("emblem")],
        "glossary": glossary(content, words, faces.cards),
        "decks": reference.reference(words, faces),
        "card_total": sum(c["copies"] for c in faces.cards),
        "aid": aid.player_aid(content, words, faces.cards, book["chapters"]),
        "guide": printguide.guide(content, faces.cards, words, parts, papers, board),
    })


def _layout(paper: str) -> tuple[str, bytes, list, int]:
    """Lay out one paper's HTML: (paper, PDF, slots, page count); its HTML and base URL in
    runon.JOB (_layouts). The garbage collector is paused from the layout to the PDF, as for
    a part of the book (runon._lay_out): the document lives until then."""
    from ...forking import collector_paused

    with collector_paused():
        return _laid_out(paper)


def _laid_out(paper: str) -> tuple[str, bytes, list, int]:
    """_layout, the collector paused."""
    from ..layout.pdf import Layout
    from .stamp import slots

    document = runon.layout(runon.JOB["base"]).render(runon.JOB["html"][paper])
    tablefit.check(document, f"the {paper} book")
    pdf = Layout.write(document.pages, document)
    return paper, pdf, slots(document), len(document.pages)


def _layouts(papers: tuple[str, ...], html: dict[str, str], base: str, cache) -> dict:
    """paper -> (skeleton, slots, page count): from the cache, or laid out. Papers whose HTML
    is the same (the book and the aid sheet are laid out on runon.sheet() for every paper)
    share one layout, each paper's skeleton showing its pages on its own sheet (paper_box);
    different HTML is laid out side by side."""
    from ...forking import collector_paused
    from ..cache import digest, pack, unpack
    from .stamp import Skeleton, Slot, skeleton

    laid = {h: layout_key(h, base) for h in set(html.values())}  # once for each HTML
    keys = {p: digest("book/paper", laid[html[p]], p) for p in papers}
    found = {}
    for paper in papers:
        entry = unpack(cache.get("book", keys[paper]))
        if entry is not None:
            meta, data = entry
            try:
                found[paper] = (Skeleton.from_bytes(data), [Slot(*s) for s in meta["slots"]],
                                meta["pages"])
            except (ValueError, KeyError, TypeError):
                pass  # a damaged entry: lay the paper out again
    same: dict[str, list[str]] = {}
    for paper in papers:
        if paper not in found:
            same.setdefault(html[paper], []).append(paper)
    if same:
        firsts = tuple(group[0] for group in same.values())
        for first, pdf, placed, pages in runon.each_paper(firsts, _layout, html=html,
                                                          base=base):
            for paper in same[html[first]]:
                with collector_paused():   # (pypdf's reading of the PDF lives to the end)
                    skel = skeleton(pdf, placed,
                                    lambda trim, paper=paper: runon.paper_box(paper, trim)
                                    ).to_bytes()
                cache.put("book", keys[paper], pack(
                    {"slots": [astuple(s) for s in placed], "pages": pages}, skel))
                found[paper] = (Skeleton.from_bytes(skel), placed, pages)
    return found


SETTLE_TRIES = 4   # layouts of the book, at most, until the page count its guide prints holds


def _settle(env, book: dict, papers: tuple[str, ...], cache, render: Callable
            ) -> tuple[dict, dict]:
    """(guide slot pages, book layouts) per paper, with the guide printing the page count of
    each paper's book. The guide is laid out with a count (the last build's, kept in the
    cache, or 0), then the book, then the guide again with the book's count if it differs,
    and so on until the count holds: the book's layout depends only on the guide's slot
    pages, which a count of other digits does not change, so the second round finds the
    book in the cache. The outputs are the same whatever count the cache held."""
    counts = _counts(cache, papers)
    for _ in range(SETTLE_TRIES):
        guides = chapterdocs.layout_guide(env, book, papers, cache, counts)
        html = {p: render(p, inline=False, guides=guides) for p in papers}
        layouts = _layouts(papers, html, book["base"], cache)
        found = {p: layouts[p][2] for p in papers}
        if found == counts:
            return guides, layouts
        for p in papers:
            if found[p] != counts[p]:
                cache.put("bookpages", _pages_key(p), str(found[p]).encode())
        counts = found
    raise TetherError(f"the rulebook's page count does not settle ({counts} after "
                      f"{SETTLE_TRIES} layouts): its print-and-assemble guide changes length "
                      "with the count it prints")


def _pages_key(paper: str) -> str:
    """The cache key of the last page count of a paper's book."""
    from ..cache import digest

    return digest("bookpages/1", paper)


def _counts(cache, papers: tuple[str, ...]) -> dict[str, int]:
    """paper -> the page count its guide is first laid out with: the last build's (kept in
    the cache), or 0."""
    return {p: _count(cache.get("bookpages", _pages_key(p))) for p in papers}


def _count(data: bytes | None) -> int:
    """A page count the cache held (a hint), or 0."""
    try:
        value = int((data or b"0").decode("ascii"))
    except (UnicodeDecodeError, ValueError):
        return 0
    return value if 0 < value < 100_000 else 0


def _ahead(work: Callable[[], object], cache, workers: int) -> Callable[[], None]:
    """Start `work` in a forked child, for what it puts in the render cache, while this
    process goes on; returns the wait for it. The caller then does the same work itself,
    finding it in the cache (an entry's bytes do not depend on the process that made it),
    so a child that fails changes nothing: the caller meets the same error and reports it.
    Nothing is forked with one worker, without fork, or with a cache that keeps nothing.
    The child runs with the garbage collector off: it ends with os._exit once its work is
    done, and the system takes its memory back at once, so walking and freeing the cycles
    its layouts leave (WeasyPrint's styles and boxes) would be work for nothing; it holds
    them until then (the chapters' layouts: some tens of MB)."""
    import multiprocessing
    import sys

    if workers < 2 or cache.root is None \
            or "fork" not in multiprocessing.get_all_start_methods():
        return lambda: None
    sys.stdout.flush()
    sys.stderr.flush()
    from ...forking import fork

    pid = fork()
    if pid == 0:
        code = 1
        try:
            import gc

            gc.disable()
            work()
            code = 0
        except BaseException:  # noqa: BLE001, S110  (the caller's own run reports it)
            pass
        finally:
            os._exit(code)   # nothing of the parent's to run or clean up here

    def wait() -> None:
        os.waitpid(pid, 0)
    return wait


def render_rulebook(content, content_dir: Path, papers=("a4", "letter"),
                    cache_dir: Path | None = None, board: tuple[int, int] = BOARD,
                    faces_ready=lambda: None, workers: int = 1) -> Rulebook:
    """The rulebook PDFs (one per paper), rulebook.pdf (the first paper), the HTML and the
    print-and-assemble page print/README.pdf (on the first paper).

    cache_dir: the render cache (print/cache.py) for faces and book layouts, or None;
    board: players and seed of the board map the guide describes; faces_ready: called
    after the page layouts, before the faces are fitted (a build waits for its card stage);
    workers: with two or more, the rules chapters are laid out in a forked process while
    this one lays out the player aid, the card reference and the guide (the same bytes).
    """
    from ..cache import Cache
    from .stamp import stamp

    start = time.perf_counter()
    papers = tuple(papers)
    unknown = [p for p in papers if p not in PAPERS]
    if unknown or not papers:
        raise TetherError(f"unknown paper {', '.join(unknown) or '(none)'} "
                          f"(choose from {', '.join(PAPERS)})")
    cache = Cache(cache_dir)
    runon.SHRUNK.clear()
    book, words, faces, parts = _chapters_context(content, content_dir, cache)
    env = _env(words, cache)
    template = env.get_template("rulebook/book.html")

    def card_face(inline: bool):
        return lambda c: faces.face(c["id"], c["scale"], inline)

    runon.fresh_layouts(book["base"])   # (read once, here, before the fork below)
    # every chapter in the cache (an edit no chapter prints, a card's text): no process is
    # forked to lay them out ahead, nor are they looked up three times (chapterdocs.cached)
    rules = chapterdocs.cached(env, book, papers, cache, card_face(False))
    runon.watched("bookch")   # (chapterdocs.ahead below stops where the forked chain is)
    wait = _ahead(lambda: chapterdocs.layout(env, book, papers, cache, card_face(False)),
                  cache, workers) if rules is None else (lambda: None)
    try:   # (the chapters' process has what it reads of the book: the rest is made here)
        with splitcache.stored(cache):   # the guide's map splits (tiles/splitcache.py)
            _rest_of_context(book, content, content_dir, words, faces, parts, papers, board)
        aids = chapterdocs.layout_aid(env, book, papers, cache)
        refs = reference.pages(env, book, papers, cache)
        if workers > 1:   # the guide with the page counts _settle tries first (cached)
            chapterdocs.layout_guide(env, book, papers, cache, _counts(cache, papers))
            if rules is None:   # then the chapters from the last, meeting the forked
                #                 process's from the first
                chapterdocs.ahead(env, book, papers, cache, card_face(False))
    finally:
        wait()
        runon.forget("bookch")
    if rules is None:
        rules = chapterdocs.layout(env, book, papers, cache, card_face(False))

    def render(paper: str, inline: bool, guides=None) -> str:
        return template.render(paper=paper, **book,
                               ref_slots=None if inline else refs[paper].slots,
                               rules_slots=None if inline else rules[paper].slots,
                               aid_slots=None if inline else aids[paper].slots,
                               guide_slots=None if inline else guides[paper].slots,
                               card_face=card_face(inline))

    guides, layouts = _settle(env, book, papers, cache, render)
    sheets = _layouts(papers, {p: _aid_sheet(env, book, p, aids[p].slots) for p in papers},
                      book["base"], cache)
    first = papers[0]   # print/README.pdf is printed on the first paper
    readme = _layouts((first,), {first: _readme(env, book, guides[first].slots)},
                      book["base"], cache)[first]
    shown = {s.card for p in papers for s in layouts[p][1]} | {
        s[1] for p in papers for link in rules[p].links for s in link.meta["slots"]}
    faces_ready()  # the layouts hold empty face slots only: `tether build` runs its card
    #                stage meanwhile, and the faces the book shows come from the render cache
    faces.fit(sorted(c for c in shown if not c.startswith("rb-")))  # not the page slots
    fragments = faces.fragments()
    out = Rulebook()
    out.files["rulebook.html"] = _absolute(render(papers[0], inline=True), book["base"]).encode()
    for paper in papers:
        skel, placed, pages = layouts[paper]
        aid_pages = aids[paper].fragments(paper, {}, cache)
        guide_pages = guides[paper].fragments(paper, {}, cache)
        out.files[f"rulebook-{paper}.pdf"] = stamp(
            skel, placed, dict(fragments, **refs[paper].fragments,
                               **rules[paper].fragments(paper, fragments, cache),
                               **aid_pages, **guide_pages))
        out.pages[paper] = pages
        out.files[AID.format(paper=paper)] = stamp(*sheets[paper][:2], aid_pages)
        if paper == first:
            out.files[README] = stamp(*readme[:2], guide_pages)
    out.files["rulebook.pdf"] = out.files[f"rulebook-{first}.pdf"]
    out.warnings = sorted(runon.SHRUNK)
    out.seconds = round(time.perf_counter() - start, 2)
    return out


def _readme(env: jinja2.Environment, book: dict, slots: list) -> str:
    """The HTML of print/README.pdf, the print-and-assemble guide alone: the book's guide
    pages (slots) drawn on pages of its own, with its own header and folios."""
    return env.get_template("rulebook/readme.html").render(
        title=book["title"], version=book["version"], guide_slots=slots)


def _aid_sheet(env: jinja2.Environment, book: dict, paper: str, slots: list) -> str:
    """The HTML of print/player-aid-<paper>.pdf, the aid on one sheet, front and back (one
    per player): the book's aid pages (slots) drawn on pages of its own, with its own folios."""
    return env.get_template("rulebook/aidsheet.html").render(
        paper=paper, title=book["title"], version=book["version"],
        aid=book["aid"], aid_slots=slots)


def preview_html(content, content_dir: Path, base: str = "/templates/") -> str:
    """The rulebook as one browser page (no PDF layout), template files under `base`."""
    book, words, faces = _context(content, content_dir)
    faces.fit()
    template = _env(words).get_template("rulebook/book.html")
    html = template.render(paper="a4", **book, ref_slots=None,
                           rules_slots=None, aid_slots=None, guide_slots=None,
                           card_face=lambda c: faces.face(c["id"], c["scale"], True))
    return _absolute(html, base)


def _absolute(html: str, base: str) -> str:
    """The preview HTML with its template files (CSS, fonts, icons) as absolute URLs, so it
    opens from build/ while its own #links still work (a <base> element would break them)."""
    return re.sub(r'(href|src)="(?![a-z]+:|#)', lambda m: f'{m.group(1)}="{base}', html)


def content_version(version: str, content_dir: Path) -> str:
    """'0.1.0', or '0.1.0 (v2-3-g1a2b3c4+dirty)' in a git work tree (versions/gitcontent)."""
    from ...content.versions.gitcontent import describe

    name = describe(content_dir)
    return f"{version} ({name})" if name else version
