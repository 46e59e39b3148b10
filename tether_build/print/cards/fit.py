"""Text that fits: lay faces out, shrink what overflows within bounds, fail naming the card.

Shrink bounds (see templates/cards/cards.css): the name wraps to two lines at 10.5 pt
first, and only a name that needs more steps down to 7.4 pt. Rules text: a short text
prints at 10.4 pt with a picture of ART_BIG_MIN_MM or more above it; otherwise 9.2 pt,
the picture (art box) giving way to the text first (a flexbox: the art takes what the
text leaves; under ART_MIN_MM it is left out), and only then does the text step down to
7.0 pt, first keeping keyword reminder text (down to 7.5 pt), then without it. Shrinking
under the standard sizes (a name past two lines at 10.5 pt, text under 9.2 pt) is opt-in:
a card with `shrink: true` shrinks and the build warns ("shrunk to fit"); any other card
that needs it is a build error naming the card and the field. That ladder is the only
shrinking there is; every other
measured box (initiative numbers, costs, stats, Permanence, stamp, back titles: the
`data-fit` elements of the templates) must fit as designed or the build fails naming the
card and the field, as it does for text below its minimum size or outside the print
services' safe zone (pdf.SAFE_MM). Overflow is read from WeasyPrint's layout boxes, not
guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...errors import ContentError, Problem
from .copies import COPY_WORK, composed, face_sections, lay_out_numbers, write_card
from .fitproblems import BOX_HINT, back_problem, box_or_footer, problem
from .icons import IconForms

NAME_LEVELS = 5                         # .name-l0 .. .name-l4
TEXT_SIZES = [10.4, 9.2, 8.6, 8.0, 7.5, 7.0]  # .text-l0 .. .text-l5, in pt
STANDARD_LEVEL = 1                      # 9.2 pt: smaller than this is "shrunk"
ART_MIN_MM = 6.0                        # a picture squeezed under this is left out
ART_BIG_MIN_MM = 12.0                   # the large text size only above such a picture
MIN_FACES_PER_WORKER = 24              # fewer faces than this are not worth a fork
SPILL_MM = 99.0                         # reported when text pushes a face onto a second page
WITH_REMINDERS = [(level, True) for level in range(5)]
WITHOUT_REMINDERS = [(level, False) for level in range(STANDARD_LEVEL, len(TEXT_SIZES))]


@dataclass
class Faces:
    """Laid-out faces and backs: one PDF per card (a page per copy) and one per back."""

    parts: list[tuple[bytes, list[str]]]      # (pdf, page keys: "card-copy" or "back:<deck>")
    keys: list[str]                           # every face key in print order, then backs
    fits: dict[str, dict] = field(default_factory=dict)   # card id -> chosen fit
    forms: dict[str, bytes] = field(default_factory=dict)  # page key -> Fragment bytes


ATTEMPTS = WITH_REMINDERS + WITHOUT_REMINDERS   # (text level, show reminders), in order


def _shrinks(attempt: int) -> bool:
    """Whether ATTEMPTS[attempt] sets the text under its standard size or drops reminders."""
    level, reminders = ATTEMPTS[attempt]
    return level > STANDARD_LEVEL or not reminders


def _unshrunk(card: dict, what: str, over: float) -> Problem:
    size = "two lines at 10.5 pt" if what == "name" else f"{TEXT_SIZES[STANDARD_LEVEL]} pt"
    return Problem(card["source"]["file"], card["source"]["line"], 1, f"{card['id']}.{what}",
                   f"card {card['id']!r}: {what} does not fit at its standard size ({size}; "
                   f"over by {over:.1f} mm)",
                   f"shorten the {what}, or set `shrink: true` on the card to let it shrink "
                   "(the build then warns: shrunk to fit)")



def _measure(layout, doc, accepted: dict, back_pages: list) -> dict[str, dict]:
    """Per card: worst name, text and footer overflow in mm, the smallest art box height,
    and the fixed boxes that do not fit; keeps each face's first page."""
    worst: dict[str, dict] = {}
    seen: set[str] = set()
    for page, fit in zip(doc.pages, layout.measure(doc)):
        if fit.card is None:
            back_pages.append((page, fit))
            continue
        text_over = fit.text_over
        if fit.key in seen:   # the face ran onto a second page: far too much text
            text_over = max(text_over, SPILL_MM)
        else:
            accepted[fit.key] = page
        seen.add(fit.key)
        old = worst.setdefault(fit.card, {"name": 0.0, "text": 0.0, "footer": 0.0,
                                          "art": None, "boxes": {}, "squeezed": False})
        old["name"] = max(old["name"], fit.name_over)
        old["text"] = max(old["text"], text_over)
        old["footer"] = max(old["footer"], fit.footer_over)
        if fit.art_mm is not None:
            old["art"] = fit.art_mm if old["art"] is None else min(old["art"], fit.art_mm)
        old["squeezed"] = old["squeezed"] or fit.squeezed
        for field_name, why in fit.boxes.items():
            old["boxes"].setdefault(field_name, why)
    return worst


def _step(card: dict, st: dict, over: dict, problems: list) -> bool:
    """Shrink what overflows by one level (the art first); True if the card must be laid
    out again."""
    name_over, text_over, footer_over = over["name"], over["text"], over["footer"]
    level = ATTEMPTS[st["attempt"]][0]
    found = box_or_footer(card, over["boxes"], footer_over)
    if found:
        problems += found
        return False
    if name_over and st["name"] + 1 >= NAME_LEVELS:
        problems.append(problem(card, "name", "name", name_over, "shorten the name"))
    elif text_over and st["attempt"] + 1 >= len(ATTEMPTS):
        problems.append(problem(card, "text", "text", text_over,
                                 "shorten the text or split the card"))
    elif name_over or text_over:
        gives_way = text_over and level != 0 and not st["no_art"] and over["art"] is not None
        step = text_over and not gives_way
        if not card.get("shrink") and (name_over or (step and _shrinks(st["attempt"] + 1))):
            problems.append(_unshrunk(card, "name" if name_over else "text",
                                      name_over or text_over))
            return False
        st["name"] += 1 if name_over else 0
        if gives_way:
            st["no_art"] = True        # the picture gives way before the text shrinks
        elif step:
            st["attempt"] += 1
        return True
    elif level == 0 and (over["art"] or 0.0) < ART_BIG_MIN_MM:
        st["attempt"] += 1             # the large size only for a short text
        return True
    elif over["art"] is not None and over["art"] < ART_MIN_MM and not st["no_art"]:
        st["no_art"] = True            # a sliver of picture is no picture
        return True
    return False


def _next(card: dict, st: dict, over: dict, problems: list) -> bool:
    """_step, on a layout that shows what the flex column of cards.css makes of the face.
    A face is laid out first with its body as blocks (cards.css .fixed-art: WeasyPrint's
    flex layout is about a third of the faces' layout time), which places the art and the
    text where the flex column does whenever the text fits under the art box at its full
    height; a face whose text runs past the body there is laid out again, and from then on,
    as the flex column (which squeezes the art its own way). True if the card must be laid
    out again."""
    if over["squeezed"] and not st["flex"]:
        st["flex"] = True
        return True
    return _step(card, st, over, problems)


def _fit(st: dict) -> dict:
    """The template's fit (the context's `fit`) of a card's state in the ladder."""
    level, reminders = ATTEMPTS[st["attempt"]]
    return {"name": st["name"], "text": level, "reminders": reminders,
            "no_art": st["no_art"], "block": not st["flex"]}


def fit_part(pages, layout, cards: list[dict], backs: list[str]):
    """Lay out every copy of `cards` and the `backs`, shrinking to fit.

    Returns (card pdfs, back pdfs, fits, problems): one PDF per card (its copies, in order)
    and one per back, so each can be cached and reused on its own; problems name the cards
    that cannot fit. A face's PDF does not depend on what else shared its layout pass: each
    face is its own page, and the PDF is written from that card's pages alone (fonts
    subset to them), the same bytes as laying out the card by itself.
    """
    state = {c["id"]: {"attempt": 0, "name": 0, "no_art": False, "flex": False}
             for c in cards}
    by_id = {c["id"]: c for c in cards}
    accepted: dict[str, object] = {}
    doc_of: dict[str, object] = {}
    first_doc, problems, back_pages = None, [], []
    icons = IconForms(layout)   # each icon drawn once per face PDF (icons.py)
    todo = [c["id"] for c in cards]
    while todo or first_doc is None:
        sections = []
        for cid in todo:
            fit = _fit(state[cid])
            sections += face_sections(pages, by_id[cid], fit)
        if first_doc is None:
            sections += [pages.back(deck) for deck in backs]
        doc = layout.render(icons.standins(pages.document(sections)))
        first_doc = first_doc or doc
        worst = _measure(layout, doc, accepted, back_pages)
        if first_doc is doc:
            problems += [back_problem(fit.key, field_name, why, BOX_HINT)
                         for _, fit in back_pages for field_name, why in fit.boxes.items()]
        doc_of.update((cid, doc) for cid in todo)
        todo = [cid for cid in todo if _next(by_id[cid], state[cid], worst[cid], problems)]
    numbers = None
    if not problems:   # each copy's number alone, where it lies on its face (copies.py)
        numbers = lay_out_numbers(pages, layout, cards, {cid: _fit(st)
                                                         for cid, st in state.items()})
        problems += numbers.problems
    if problems:
        return {}, {}, {}, problems
    card_pdfs, fits = {}, {}
    for card in cards:
        card_pdfs[card["id"]] = write_card(layout, card, accepted, doc_of[card["id"]], numbers,
                                             icons.finisher)
        st = state[card["id"]]
        level, reminders = ATTEMPTS[st["attempt"]]
        fits[card["id"]] = {"name_level": st["name"], "text_pt": TEXT_SIZES[level],
                            "reminders": reminders, "art": not st["no_art"]}
    back_pdfs = {deck: layout.write([page], first_doc, icons.finisher)
                 for deck, (page, _) in zip(backs, back_pages)}
    return card_pdfs, back_pdfs, fits, []


_JOB: dict = {}   # set before forking workers; read by _work in the child


def _work(index: int):
    """Lay out one chunk, and read its PDFs into sheet fragments while in the worker (the
    sheets need them; parsing them here spreads that work over the workers too).

    The garbage collector is paused for the whole chunk, not only inside each layout and
    write (Layout): every laid-out document stays alive until the chunk's PDFs are written,
    so each collection between them (building the next HTML, measuring, composing, reading
    the fragments) walked those documents again and freed next to nothing."""
    from ...forking import collector_paused

    with collector_paused():
        return _work_chunk(index)


def _work_chunk(index: int):
    """_work, the collector paused."""
    from ..layout.pdf import Layout
    from ..pdfparts.pdfasm import fragments

    pages, chunks, backs = _JOB["pages"], _JOB["chunks"], _JOB["backs"]
    chunk = chunks[index]
    cards, back_pdfs, fits, problems = fit_part(pages, Layout(pages.base_url, pages.grayscale, sheets=True),
                                                chunk, backs if index == 0 else [])
    if problems:
        return cards, back_pdfs, fits, problems, {}
    parts = _parts(chunk, cards, list(back_pdfs), back_pdfs)
    forms = {key: frag.to_bytes() for key, frag in fragments(parts).items()}
    return cards, back_pdfs, fits, problems, forms


def _parts(cards: list[dict], card_pdfs: dict, backs: list[str], back_pdfs: dict
           ) -> list[tuple[bytes, list[str]]]:
    """(pdf, page keys) per card ("<card>-<copy>") and per back ("back:<deck>"), in order."""
    parts = [(card_pdfs[c["id"]], [f"{c['id']}-{n}" for n in range(1, c["copies"] + 1)])
             for c in cards]
    return parts + [(back_pdfs[deck], [f"back:{deck}"]) for deck in backs]


def _split(cards: list[dict], workers: int, backs: int = 0) -> list[list[dict]]:
    """Consecutive chunks with about the same work: a card's face is laid out and drawn once
    and each further copy's number costs a small share of a face (copies.COPY_WORK); the
    first chunk also lays out the `backs` (fit_part's backs go to chunk 0), so it takes that
    many faces fewer."""
    work = [1 + (c["copies"] - 1) * COPY_WORK if composed(c) else c["copies"] for c in cards]
    total = sum(work) + backs
    chunks, done = [[] for _ in range(workers)], float(backs)
    for card, weight in zip(cards, work):
        chunks[min(workers - 1, int(done * workers / max(total, 1)))].append(card)
        done += weight
    return [c for c in chunks if c] or [[]]


def _lay_out(pages, cards: list[dict], backs: list[str], workers: int):
    """fit_part over `workers` processes (fork): (card pdfs, back pdfs, fits, problems)."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        workers = 1   # the workers inherit the templates by fork; elsewhere lay out in-process
    faces = sum(c["copies"] for c in cards) + len(backs)
    workers = max(1, min(workers, faces // MIN_FACES_PER_WORKER))  # a fork costs a few faces
    chunks = _split(cards, workers, len(backs))
    _JOB.update(pages=pages, chunks=chunks, backs=backs)
    try:
        if len(chunks) == 1:
            results = [_work(0)]
        else:
            from ...forking import fork_pool
            from ..preload import load_layout

            # loaded here, not in each worker: this process needs it too, for the sheets'
            # keys (read_faces), and the workers inherit it
            load_layout()
            with fork_pool(len(chunks)) as pool:
                results = list(pool.map(_work, range(len(chunks))))
    finally:
        _JOB.clear()
    card_pdfs, back_pdfs, fits, problems, forms = {}, {}, {}, [], {}
    for cards_r, backs_r, fits_r, problems_r, forms_r in results:
        card_pdfs.update(cards_r)
        back_pdfs.update(backs_r)
        fits.update(fits_r)
        problems += problems_r
        forms.update(forms_r)
    return card_pdfs, back_pdfs, fits, problems, forms


def render_faces(pages, cards: list[dict], backs: list[str], workers: int = 1,
                 cache=None) -> Faces:
    """Every face and back, fitted, one PDF per card and per back.

    Faces found in `cache` (render.cache.Cache, keyed by Pages.face_key / back_key) are
    reused; the rest are laid out by `workers` processes (fork) and stored.
    """
    from ..cache import Cache, pack, unpack

    cache = cache if cache is not None else Cache(None)
    card_pdfs, back_pdfs, fits, forms = {}, {}, {}, {}
    kept = cache.root is not None   # else no key is worked out: keys only find and store
    card_keys = {c["id"]: pages.face_key(c) for c in cards} if kept else {}
    back_keys = {deck: pages.back_key(deck) for deck in backs} if kept else {}
    for cid, key in card_keys.items():
        entry = unpack(cache.get("faces", key))
        if entry is not None:
            fits[cid], card_pdfs[cid] = entry[0]["fit"], entry[1]
    for deck, key in back_keys.items():
        entry = unpack(cache.get("faces", key))
        if entry is not None:
            back_pdfs[deck] = entry[1]
    todo = [c for c in cards if c["id"] not in card_pdfs]
    todo_backs = [deck for deck in backs if deck not in back_pdfs]
    if todo or todo_backs:
        new_cards, new_backs, new_fits, problems, forms = _lay_out(pages, todo, todo_backs,
                                                                   workers)
        if problems:
            raise ContentError(problems)
        if kept:
            for cid, pdf in new_cards.items():
                cache.put("faces", card_keys[cid], pack({"fit": new_fits[cid]}, pdf))
            for deck, pdf in new_backs.items():
                cache.put("faces", back_keys[deck], pack({"back": deck}, pdf))
        card_pdfs.update(new_cards)
        back_pdfs.update(new_backs)
        fits.update(new_fits)
    parts = _parts(cards, card_pdfs, backs, back_pdfs)
    fronts = [key for _, keys in parts[:len(cards)] for key in keys]
    return Faces(parts, fronts + [f"back:{deck}" for deck in backs],
                 {c["id"]: fits[c["id"]] for c in cards}, forms)
