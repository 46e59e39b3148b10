"""Text that fits: lay faces out, shrink what overflows within bounds, fail naming the card.

Shrink bounds (see templates/cards/cards.css): the name steps from 10.5 pt down to 7.4 pt;
rules text steps from 9.2 pt down to 7.0 pt, first keeping keyword reminder text (down to
7.5 pt), then without it. Overflow is read from WeasyPrint's layout boxes, not guessed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import ContentError, Problem

NAME_LEVELS = 5                         # .name-l0 .. .name-l4
TEXT_SIZES = [9.2, 8.6, 8.0, 7.5, 7.0]  # .text-l0 .. .text-l4, in pt
SPILL_MM = 99.0                         # reported when text pushes a face onto a second page
WITH_REMINDERS = [(level, True) for level in range(4)]
WITHOUT_REMINDERS = [(level, False) for level in range(len(TEXT_SIZES))]


@dataclass
class Faces:
    """Laid-out faces and backs, as one or more PDFs (one per worker process)."""

    parts: list[tuple[bytes, list[str]]]      # (pdf, page keys: "card-copy" or "back:<deck>")
    keys: list[str]                           # every face key in print order, then backs
    fits: dict[str, dict] = field(default_factory=dict)   # card id -> chosen fit


ATTEMPTS = WITH_REMINDERS + WITHOUT_REMINDERS   # (text level, show reminders), in order


def _problem(card: dict, field_name: str, what: str, over: float, hint: str) -> Problem:
    return Problem(card["source"]["file"], card["source"]["line"], 1,
                   f"{card['id']}.{field_name}",
                   f"card {card['id']!r}: {what} does not fit on the card even at the "
                   f"smallest size (over by {over:.1f} mm or more)", hint)


def _measure(layout, doc, accepted: dict, back_pages: list) -> dict[str, tuple]:
    """Worst (name, text, footer) overflow in mm per card; keeps each face's first page."""
    worst: dict[str, tuple[float, float, float]] = {}
    seen: set[str] = set()
    for page, fit in zip(doc.pages, layout.measure(doc)):
        if fit.card is None:
            back_pages.append(page)
            continue
        text_over = fit.text_over
        if fit.key in seen:   # the face ran onto a second page: far too much text
            text_over = max(text_over, SPILL_MM)
        else:
            accepted[fit.key] = page
        seen.add(fit.key)
        old = worst.get(fit.card, (0.0, 0.0, 0.0))
        worst[fit.card] = (max(old[0], fit.name_over), max(old[1], text_over),
                           max(old[2], fit.footer_over))
    return worst


def _step(card: dict, st: dict, over: tuple, problems: list) -> bool:
    """Shrink what overflows by one level; True if the card must be laid out again."""
    name_over, text_over, footer_over = over
    if footer_over:
        problems.append(_problem(card, "footer", "the footer (deck and faction name)",
                                 footer_over, "shorten the deck or faction name"))
    elif name_over and st["name"] + 1 >= NAME_LEVELS:
        problems.append(_problem(card, "name", "name", name_over, "shorten the name"))
    elif text_over and st["attempt"] + 1 >= len(ATTEMPTS):
        problems.append(_problem(card, "text", "text", text_over,
                                 "shorten the text or split the card"))
    elif name_over or text_over:
        st["name"] += 1 if name_over else 0
        st["attempt"] += 1 if text_over else 0
        return True
    return False


def fit_part(pages, layout, cards: list[dict], backs: list[str]):
    """Lay out every copy of `cards` and the `backs`, shrinking to fit.

    Returns (pdf, keys, fits, problems); problems name the cards that cannot fit.
    """
    state = {c["id"]: {"attempt": 0, "name": 0} for c in cards}
    by_id = {c["id"]: c for c in cards}
    accepted: dict[str, object] = {}
    first_doc, problems, back_pages = None, [], []
    todo = [c["id"] for c in cards]
    while todo or first_doc is None:
        sections = []
        for cid in todo:
            level, reminders = ATTEMPTS[state[cid]["attempt"]]
            fit = {"name": state[cid]["name"], "text": level, "reminders": reminders}
            sections += [pages.face(by_id[cid], n, fit)
                         for n in range(1, by_id[cid]["copies"] + 1)]
        if first_doc is None:
            sections += [pages.back(deck) for deck in backs]
        doc = layout.render(pages.document(sections))
        first_doc = first_doc or doc
        worst = _measure(layout, doc, accepted, back_pages)
        todo = [cid for cid in todo if _step(by_id[cid], state[cid], worst[cid], problems)]
    if problems:
        return b"", [], {}, problems
    keys = [f"{c['id']}-{n}" for c in cards for n in range(1, c["copies"] + 1)]
    ordered = [accepted[k] for k in keys] + back_pages
    keys += [f"back:{deck}" for deck in backs]
    fits = {}
    for cid, st in state.items():
        level, reminders = ATTEMPTS[st["attempt"]]
        fits[cid] = {"name_level": st["name"], "text_pt": TEXT_SIZES[level],
                     "reminders": reminders}
    return layout.write(ordered, first_doc), keys, fits, []


_JOB: dict = {}   # set before forking workers; read by _work in the child


def _work(index: int):
    from .pdf import Layout

    pages, chunks, backs = _JOB["pages"], _JOB["chunks"], _JOB["backs"]
    return fit_part(pages, Layout(pages.base_url), chunks[index], backs if index == 0 else [])


def _split(cards: list[dict], workers: int) -> list[list[dict]]:
    """Consecutive chunks with about the same number of faces."""
    total = sum(c["copies"] for c in cards)
    chunks, count = [[] for _ in range(workers)], 0
    for card in cards:
        chunks[min(workers - 1, count * workers // max(total, 1))].append(card)
        count += card["copies"]
    return [c for c in chunks if c] or [[]]


def render_faces(pages, cards: list[dict], backs: list[str], workers: int = 1) -> Faces:
    """Every face and back, fitted, laid out by `workers` processes (fork) in parallel."""
    import multiprocessing

    if "fork" not in multiprocessing.get_all_start_methods():
        workers = 1   # the workers inherit the templates by fork; elsewhere lay out in-process
    chunks = _split(cards, workers)
    _JOB.update(pages=pages, chunks=chunks, backs=backs)
    try:
        if len(chunks) == 1:
            results = [_work(0)]
        else:
            from concurrent.futures import ProcessPoolExecutor

            ctx = multiprocessing.get_context("fork")
            with ProcessPoolExecutor(len(chunks), mp_context=ctx) as pool:
                results = list(pool.map(_work, range(len(chunks))))
    finally:
        _JOB.clear()
    problems = [p for r in results for p in r[3]]
    if problems:
        raise ContentError(problems)
    parts = [(pdf, keys) for pdf, keys, _, _ in results]
    fronts = [f"{c['id']}-{n}" for c in cards for n in range(1, c["copies"] + 1)]
    fits = {cid: fit for r in results for cid, fit in r[2].items()}
    return Faces(parts, fronts + [f"back:{deck}" for deck in backs], fits)
