"""Normalized cards: the one shape every other tool reads content through."""

from __future__ import annotations

import hashlib
from pathlib import Path

from . import text as textmod
from .load import Content


def render(content: Content, value: str) -> str:
    """Plain text with the current glossary names."""
    return textmod.render_plain(value, content.terms, content.icons)


def _ability(content: Content, ability: dict) -> dict:
    out = {k: v for k, v in ability.items() if k not in ("notes", "departures")}
    out["text"] = render(content, ability["text"])
    out["text_source"] = ability["text"]
    out.setdefault("limit", "unlimited")
    return out


def face_text(content: Content, card: dict) -> str:
    """The rules text printed on the card (champions: their abilities)."""
    lines = [card["text"]] if card.get("text") else []
    if card["type"] == "champion":
        lines += [f"{a['name']}: {a['text']}" for a in card["champion"].get("abilities", [])]
    return "\n".join(lines)


def normalize(content: Content, card: dict) -> dict:
    """One card with every slot present, text rendered, deck metadata resolved."""
    deck = content.ages["decks"][card["deck"]]
    champion = card.get("champion")
    if champion is not None:
        champion = {**champion,
                    "abilities": [_ability(content, a) for a in champion.get("abilities", [])]}
    source_text = face_text(content, {**card, "champion": card.get("champion")})
    return {
        "id": card["id"],
        "name": card["name"],
        "design_name": card.get("design_name", card["name"]),
        "deck": card["deck"],
        "deck_name": render(content, deck["name"]),
        "deck_kind": deck["kind"],
        "age": deck.get("age"),
        "faction": card.get("faction"),
        "category": card["category"],
        "type": card["type"],
        "type_name": render(content, f"[{card['type']}]"),
        "mana": card["cost"]["mana"],
        "gold": card["cost"].get("gold", 0),
        "initiative": list(card["initiative"]),
        "initiative_note": card.get("initiative_note"),
        "copies": card.get("copies", 1),
        "burn": card.get("burn", False),
        "vp": card.get("vp", 0),
        "requires": card.get("requires"),
        "text": render(content, source_text) if source_text else "",
        "text_source": source_text,
        "champion": champion,
        "effect": card["effect"],
        "triggers": [_ability(content, t) for t in card.get("triggers", [])],
        "notes": card.get("notes", []),
        **({"art": art_file(content, card["art"])} if card.get("art") else {}),
        **({"flavor": card["flavor"]} if card.get("flavor") else {}),
        **({"shrink": True} if card.get("shrink") else {}),
        "source": {"file": card["_src"]["file"], "line": card["_src"]["line"],
                   "text_line": _text_line(content, card)},
    }


ART_SUFFIXES = (".png", ".jpg", ".jpeg", ".svg")


def art_path(content: Content, value: str):
    """(path of a card's `art:` file, why it is refused or None): relative to the project
    folder (the content folder's parent), inside it, one of ART_SUFFIXES, on disk only."""
    project = Path(content.root).resolve().parent
    if "://" in value or value.startswith(("/", "\\")) or (len(value) > 1 and value[1] == ":"):
        return None, "must be a path relative to the project folder, not a URL or absolute"
    path = (project / value).resolve()
    if not path.is_relative_to(project):
        return None, f"{value} lies outside the project folder {project}"
    if path.suffix.lower() not in ART_SUFFIXES:
        return None, f"{value}: not a picture ({', '.join(ART_SUFFIXES)})"
    if not path.is_file():
        return None, f"no file {value} in the project folder {project}"
    why = picture_problem(path, project)
    return (None, f"{value}: {why}") if why else (path, None)


def picture_problem(path: Path, root=None) -> str | None:
    """Why a card picture cannot be printed (outside `root`, not a regular file, too large,
    not decodable, an SVG with outside references or entities), or None: pictures.problem."""
    from .pictures import problem

    return problem(path, root)


def art_file(content: Content, value: str) -> dict:
    """A card's art as the faces use it: its path, file URL and the SHA-256 of its bytes
    (so an edited picture changes the card's face, stamp and cache keys)."""
    path, _ = art_path(content, value)
    if path is None:
        return {"path": value, "url": None, "sha256": None}
    return {"path": value, "url": path.as_uri(),
            "sha256": hashlib.sha256(path.read_bytes()).hexdigest()}


def _text_line(content: Content, card: dict) -> int:
    """The line of the card's `text:` (where a text/effect drift is fixed), else its id's."""
    src = card["_src"]
    if "text" not in card or src["doc"] not in content.docs:
        return src["line"]
    return content.docs[src["doc"]].locate(("cards", src["index"], "text"))[0]


def normalized_cards(content: Content) -> list[dict]:
    """Every card of the content, normalized, in deck-file order."""
    return [normalize(content, card) for card in content.cards]
