"""The build errors of a card's fit, one constructor each: what does not fit, where
(the card's file and line, the field) and the hint. fit.py and copies.py both report them."""

from __future__ import annotations

from ...errors import Problem

BOX_HINT = ("the template or the content makes this box too small for what it holds: "
            "shorten the value or widen the box in templates/cards/cards.css")


def problem(card: dict, field_name: str, what: str, over: float, hint: str) -> Problem:
    return Problem(card["source"]["file"], card["source"]["line"], 1,
                   f"{card['id']}.{field_name}",
                   f"card {card['id']!r}: {what} does not fit on the card even at the "
                   f"smallest size (over by {over:.1f} mm or more)", hint)


def box_problem(card: dict, field_name: str, why: str, hint: str) -> Problem:
    return Problem(card["source"]["file"], card["source"]["line"], 1,
                   f"{card['id']}.{field_name}", f"card {card['id']!r}: {why}", hint)


def back_problem(back: str, field_name: str, why: str, hint: str) -> Problem:
    return Problem("templates/backs", 1, 1, f"{back}.{field_name}", f"back {back!r}: {why}",
                   hint)


def box_or_footer(card: dict, boxes: dict[str, str], footer_over: float) -> list[Problem]:
    """What no smaller size cures, as a face's measure found it: each measured box that
    overflows (`boxes`: field -> why), else the footer's overflow; [] when neither."""
    if boxes:
        return [box_problem(card, field_name, why, BOX_HINT)
                for field_name, why in sorted(boxes.items())]
    if footer_over:
        return [problem(card, "footer", "the footer (deck and faction name)", footer_over,
                        "shorten the deck or faction name")]
    return []
