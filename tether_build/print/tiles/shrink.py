"""Shrink to fit where the designer opts in, beside the cards: tiles and tokens.

A card with `shrink: true` may set its text smaller when it does not fit (print/cards/fit.py);
the same opt-in exists here, in the same style:

- a tile kind in tiles.yaml with `shrink: true`: its name, faction name and summary are
  laid out again at 90, 80, then 70 % of their standard size until every box fits;
- a glossary term in terms.yaml with `shrink: true`: a round token whose number or caption
  (words of that term) does not fit its disc prints them at the first of those sizes that
  fits.

Either way the build warns (`shrunk to fit: ...`); what still does not fit at 70 %, and
every overflow without the opt-in, stays a build error (print/tiles/fitcheck.py).
"""

from __future__ import annotations

from collections.abc import Callable

STEPS = (0.9, 0.8, 0.7)   # the sizes tried, of the standard size; the last is the floor


def _next(scale: float) -> float | None:
    return next((s for s in STEPS if s < scale - 1e-9), None)


# ---- tiles ------------------------------------------------------------------------------------

def tile_opted(content, kind: str) -> bool:
    return bool((content.tiles.get(kind) or {}).get("shrink"))


def fit_tiles(content, papers: list[str], render: Callable[[str, dict], object]
              ) -> tuple[dict[str, object], list[str]]:
    """The tile sheets per paper, each opted-in kind that overflowed laid out again smaller
    until it fits or reaches the floor: ({paper: pdf}, warnings). `render(paper, scales)`
    draws one paper's sheets; a pdf's `overflows` are (data-fit label, mm)."""
    scales: dict[str, float] = {}
    pdfs = {p: render(p, scales) for p in papers}
    while True:
        over = {label.split(".")[0] for pdf in pdfs.values()
                for label, _mm in getattr(pdf, "overflows", ())}
        smaller = {k: _next(scales.get(k, 1.0)) for k in sorted(over) if tile_opted(content, k)}
        smaller = {k: s for k, s in smaller.items() if s is not None}
        if not smaller:
            break
        scales.update(smaller)
        pdfs = {p: render(p, scales) for p in papers}
    warnings = [f"content/tiles.yaml: tiles.{k}: shrunk to fit: the {k} tile's text at "
                f"{round(s * 100)} % of its standard size (shrink: true)"
                for k, s in sorted(scales.items())]
    return pdfs, warnings


# ---- tokens -----------------------------------------------------------------------------------

def opted_term(content, words: str) -> str | None:
    """The glossary term with `shrink: true` whose words these are (singular or plural)."""
    for tid, term in content.terms.items():
        if term.get("shrink") and any(term.get(f) and term[f] in words
                                      for f in ("singular", "plural")):
            return tid
    return None


def fit_tokens(content, tokens: list) -> list:
    """The tokens with a text size `fit` (of the standard) on the face of each round token
    whose words do not fit and belong to an opted-in term: the first step at which every
    copy fits, else the floor (the fit check then reports it)."""
    from .fitcheck import disc_overflows
    from .tokenface import copy_face

    for token in tokens:
        if token.shape != "circle" or token.face.get("kind") != "disc":
            continue
        faces = [copy_face(token, i, content) for i in range(token.count)]
        if not any(disc_overflows(f, token.w) for f in faces):
            continue
        words = " ".join(sorted({f.get("caption") or "" for f in faces} | {token.name}))
        tid = opted_term(content, words)
        if tid is None:
            continue
        for step in STEPS:
            if not any(disc_overflows({**f, "fit": step}, token.w) for f in faces):
                break
        token.face.update(fit=step, fit_term=tid)
    return tokens


def token_warnings(content, tokens: list) -> list[str]:
    return [f"content/terms.yaml: token.{t.group}: shrunk to fit: {t.name!r} printed at "
            f"{round(t.face['fit'] * 100)} % of its standard size (shrink: true on "
            f"terms.{t.face['fit_term']})"
            for t in tokens if t.face.get("fit", 1.0) < 1.0]
