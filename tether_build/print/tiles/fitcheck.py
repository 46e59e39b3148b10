"""The fit check of the printed pieces beside the cards: hex tiles and tokens.

Tiles are measured after layout (common._overflows: every `data-fit` box of a tile whose
text runs past its foot or its sides, which `overflow: hidden` would clip unseen). Tokens
draw their numbers and captions as SVG text, which has no layout boxes: each is measured
with the font it is printed in (the same TrueType files) against the room the disc leaves
at its line (the chord of the cut circle, less a cut margin; a number beside its icon has
the room right of the icon). An overflow is a build error naming the piece and the field,
located at the content that gives the words (print/cards/fit.py does the same for the cards).
"""

from __future__ import annotations

import math

from ...errors import ContentError, Problem
from .textwidth import text_mm

CUT_MARGIN_MM = 0.6     # text keeps this far inside a token's cut line
TOLERANCE_MM = 0.2
HINT_TILE = "shorten the words in content (the tile's name, faction name or summary)"
HINT_HEAD = "shorten the faction or token names (content/factions.yaml, content/terms.yaml)"
HINT_TOKEN = "shorten the glossary name printed on the token (content/terms.yaml)"


def _chord(r: float, dy: float) -> float:
    """Half the width of a circle of radius r at dy from its centre (0 outside it)."""
    return math.sqrt(max(0.0, r * r - dy * dy))


def disc_overflows(face: dict, d: float) -> list[tuple[str, str, float]]:
    """(field, text, mm) for each text of a round token's face that runs past the room the
    disc leaves (templates/tiles/tokens.html.j2's disc macro: the same proportions)."""
    r = d / 2
    out = []
    fit = face.get("fit", 1.0)     # shrunk to fit (print/tiles/shrink.py)
    lines = face.get("caption", "").split() if face.get("caption") else []
    for i, line in enumerate(lines):
        size = 0.12 * d * fit
        base = (0.26 if len(lines) == 1 else 0.10) * d + i * 0.14 * d
        half = min(_chord(r, base - 0.76 * size), _chord(r, base + 0.24 * size)) - CUT_MARGIN_MM
        over = text_mm(line, size, "sans-bold") / 2 - half
        if over > TOLERANCE_MM:
            out.append(("caption", line, round(2 * over, 1)))
    value = str(face.get("value") or "")
    if value:
        size = (0.40 if len(value) == 1 else 0.30) * d * fit
        centre = 0.22 * d
        icon_right = -0.20 * d + 0.36 * d / 2 * (0.86 if face.get("medallion") else 1.0)
        ink_top, ink_bottom = -0.76 * size + 0.36 * size, 0.36 * size
        right = min(_chord(r, ink_top), _chord(r, ink_bottom)) - CUT_MARGIN_MM
        w = text_mm(value, size, "serif-bold")
        over = max(centre + w / 2 - right, icon_right - (centre - w / 2))
        if over > TOLERANCE_MM:
            out.append(("value", value, round(over, 1)))
    return out


def _term_line(content, words: str) -> tuple[int, int]:
    """Where the glossary writes `words` (a term's singular or plural), else the file's top."""
    doc = content.docs.get("terms.yaml")
    if doc is None:
        return 1, 1
    for tid, term in content.terms.items():
        for form in ("singular", "plural"):
            if term.get(form) and term[form] in words:
                return doc.locate(("terms", tid, form))
    return 1, 1


def token_problems(content, tokens) -> list[Problem]:
    """Every round token whose number or caption does not fit (every copy's face)."""
    from .tokenface import copy_face

    problems = []
    seen = set()
    for token in tokens:
        if token.shape != "circle" or token.face.get("kind") != "disc":
            continue
        for i in range(token.count):
            face = copy_face(token, i, content)
            for field, text, over in disc_overflows(face, token.w):
                if (token.group, field, text) in seen:
                    continue
                seen.add((token.group, field, text))
                line, col = _term_line(content, face.get("caption") or token.name)
                problems.append(Problem(
                    "content/terms.yaml", line, col, f"token.{token.group}.{field}",
                    f"token {token.name!r}: {text!r} runs {over:g} mm past the room on its "
                    f"{token.w:g} mm disc", HINT_TOKEN))
    return problems


def tile_problems(content, overflows) -> list[Problem]:
    """The tiles' measured overflows (labels `kind.part` or `kind.part.faction`)."""
    doc = content.docs.get("tiles.yaml")
    problems = []
    for label, mm in overflows:
        kind, part, *who = label.split(".", 2)
        path = ("tiles", kind, "summary" if part == "summary" else "term")
        line, col = doc.locate(path) if doc else (1, 1)
        name = f"{kind} tile" + (f" ({who[0]})" if who else "")
        problems.append(Problem("content/tiles.yaml", line, col, f"tiles.{kind}.{part}",
                                f"{name}: its {part} runs {mm:g} mm past its box on the "
                                "printed tile", HINT_TILE))
    return problems


def head_problems(content, token_pdfs: dict) -> list[Problem]:
    """Token sheets whose head (title, version, "Sheet i/n", contents) does not fit:
    {file name: pdf} with each pdf's `head_overflows` (tokens.head_overflows)."""
    doc = content.docs.get("factions.yaml")
    line, col = doc.locate(("factions",)) if doc else (1, 1)
    return [Problem("content/factions.yaml", line, col, f"tokens.sheet{n}.{field}",
                    f"{name} sheet {n}: its {field} does not fit ({how})", HINT_HEAD)
            for name, pdf in token_pdfs.items()
            for n, field, how in getattr(pdf, "head_overflows", ())]


def check(content, tile_pdfs, tokens, token_pdfs: dict | None = None) -> None:
    """Raise one ContentError with every tile and token that does not fit, and every token
    sheet whose head does not."""
    overflows = sorted({o for pdf in tile_pdfs for o in getattr(pdf, "overflows", ())})
    problems = (tile_problems(content, overflows) + token_problems(content, tokens)
                + head_problems(content, token_pdfs or {}))
    if problems:
        raise ContentError(problems)
