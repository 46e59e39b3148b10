"""Card anatomy: one real card face with its parts numbered, and the icon key.

The face is the printed face (the card helper's template, stamped into the book like every
other face). Where each part sits is measured from the face's own layout: the face is laid
out once more and the box of each part's CSS class is read back, so the numbers follow the
template wherever its parts move. A part the template does not draw is left out.
"""

from __future__ import annotations

from pathlib import Path

from markupsafe import Markup

from ..geometry import ART_BLEED, CARD_H, CARD_W
from ..layout.patches import page_root

PX_PER_MM = 96 / 25.4
BADGE_GAP_MM = 5.2      # least vertical distance between two badges on one side
SCALE = 0.85            # the face a little under print size: with its chapter's
#                         heading it fits the page the chapter before ends on
# (classes the part's element carries, label with glossary tokens, what it tells)
PARTS = (
    (("cost", "mana"), "{mana} cost", "what you pay to play the card"),
    (("cost", "gold"), "{gold} cost", "paid as well, for the cards that show it"),
    (("name-box",), "Name", ""),
    (("typeline",), "Type line", ("[order], [spell], [victory] or [champion], then its "
                                 "category; a faction's emblem on faction cards")),
    (("init-tab",), "[initiative]", ("when the card resolves in an [action_step]: lowest "
                                    "first. The large number counts; the small one is the "
                                    "card's other number, for playtests of that rule")),
    (("art-box",), "Art", "the card's picture, or the pictogram of its category"),
    (("text-box",), "Effect", "what the card does when it resolves"),
    (("stats",), "[champion] stats", "[hp], [die:pl] (the dark faces hit) and [bounty]"),
    (("champion-gold",), "{gold} by [champion]", ("the {gold} paid for your 1st, 2nd and "
                                                 "3rd [champion] in play")),
    (("footer",), "[deck]", ("the [age] numeral and the [deck] the card comes from; the "
                            "copy number at the right")),
)


def pick_card(cards: list[dict]) -> dict:
    """The card to dissect: the first [champion] (it shows every part), else the first card."""
    return next((c for c in cards if c["champion"]), cards[0])


def _boxes(root, want: tuple[str, ...]):
    from ..layout.boxes import classes as _classes
    from ..layout.boxes import walk as _walk

    for box in _walk(root):
        if set(want) <= _classes(box):
            return box
    return None


def measure(faces, card: dict) -> list[dict]:
    """Each part's box on the card, in mm from the trim's top-left corner; kept in the
    render cache (faces.cache) under the face's HTML and all that shapes its layout."""
    import json

    from ..cache import digest

    pages = faces.pages
    html = pages.document([pages.face(card, 1, faces.fits.get(card["id"], {}))])
    key = digest("anatomy/1", pages.salt(), html, Path(__file__).read_bytes())
    cache = faces.cache
    entry = cache.get("anatomy", key) if cache is not None else None
    if entry is not None:
        try:
            return [dict(p, classes=tuple(p["classes"])) for p in json.loads(entry)]
        except (ValueError, TypeError, KeyError):
            pass  # a damaged entry: measure again
    found = _measure(pages, html)
    if cache is not None:
        cache.put("anatomy", key, json.dumps(found).encode())
    return found


def _measure(pages, html: str) -> list[dict]:
    """measure()'s work: lay the face out and read each part's box."""
    from ..layout.boxes import walk as _walk
    from ..layout.pdf import Layout

    document = Layout(pages.base_url).render(html)
    root = page_root(document.pages[0])
    section = next(b for b in _walk(root) if getattr(b, "element", None) is not None
                   and b.element.get("data-face"))
    x0, y0 = section.border_box_x(), section.border_box_y()
    found = []
    for classes, label, text in PARTS:
        box = _boxes(section, classes)
        if box is None:
            continue
        x = (box.border_box_x() - x0) / PX_PER_MM - ART_BLEED
        y = (box.border_box_y() - y0) / PX_PER_MM - ART_BLEED
        w, h = box.border_width() / PX_PER_MM, box.border_height() / PX_PER_MM
        if w <= 0 or h <= 0:
            continue
        found.append({"classes": classes, "label": label, "text": text,
                      "x": x, "y": y, "w": w, "h": h})
    return found


def _badges(parts: list[dict]) -> list[dict]:
    """Number each part (top to bottom) and place its badge beside the card, left or right
    of it after the part's centre, nudged down so badges never overlap."""
    parts = sorted(parts, key=lambda p: (round(p["y"], 1), p["x"]))
    last = {"left": -99.0, "right": -99.0}
    out = []
    for n, p in enumerate(parts, 1):
        side = "left" if p["x"] + p["w"] / 2 < CARD_W / 2 else "right"
        target = max(0.0, min(CARD_H, p["y"] + min(p["h"], 8.0) / 2))
        y = max(target, last[side] + BADGE_GAP_MM)
        last[side] = y
        out.append(dict(p, n=n, side=side, badge_y=y, target_y=target))
    return out


# the badges' numbers, styled on each <text>: a <style> in an inline SVG styles the whole page
# in a browser (rulebook.html), where it turned every figure's text white
BADGE_TEXT = ('fill="#fff" font-size="3" text-anchor="middle" font-family="Tether Sans" '
              'font-weight="bold"')


def figure(faces, words) -> dict:
    """What the anatomy figure shows: the face slot, numbered badges with leader lines, and
    the key (number, label, meaning)."""
    card = pick_card(faces.cards)
    parts = _badges(measure(faces, card))
    margin = 12.0
    width, height = CARD_W * SCALE + 2 * margin, CARD_H * SCALE
    lines, badges = [], []
    for p in parts:
        edge_x = margin if p["side"] == "left" else margin + CARD_W * SCALE
        bx = margin / 2 if p["side"] == "left" else width - margin / 2
        by, ty = p["badge_y"] * SCALE, p["target_y"] * SCALE
        lines.append(f'<line x1="{bx:.2f}" y1="{by:.2f}" x2="{edge_x:.2f}" y2="{ty:.2f}"/>')
        badges.append(f'<circle cx="{bx:.2f}" cy="{by:.2f}" r="2.3"/>'
                      f'<text x="{bx:.2f}" y="{by + 1.05:.2f}" {BADGE_TEXT}>{p["n"]}</text>')
    svg = Markup(
        f'<svg class="rb-anatomy-svg" xmlns="http://www.w3.org/2000/svg" width="{width}mm" '
        f'height="{height}mm" viewBox="0 0 {width} {height}"><g stroke="#2a3640" '
        f'stroke-width="0.3">{"".join(lines)}</g><g fill="#2a3640">{"".join(badges)}</g>'
        '</svg>')
    key = [{"n": p["n"], "label": words.html(p["label"]), "text": words.html(p["text"])}
           for p in parts]
    return {"name": card["name"], "svg": svg, "key": key, "width": width, "height": height,
            "margin": margin, "face": {"id": card["id"], "scale": SCALE}}


def icon_key(content, words) -> list[dict]:
    """Every icon of the glossary with the name it stands for."""
    return [{"icon": Markup(words.icon_html(icon)), "name": words.plain(f"{{{icon}}}")}
            for icon in content.icons]
