"""Walks over loaded content that validate and its cross-file checks (crosscheck) share."""

from __future__ import annotations

from collections import Counter

from .load import Content

# keys whose string values (or lists of strings) are player-facing text
TEXT_KEYS = {"text", "reminder", "rulings", "lore", "flavor", "summary", "collection",
             "scoring", "rules", "champion_lore", "theme", "tagline", "name"}


def walk_text(data, path=()):
    """Yield (path, string) for every player-facing text value."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in TEXT_KEYS and isinstance(value, str):
                yield path + (key,), value
            elif key in TEXT_KEYS and isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, str):
                        yield path + (key, i), item
            if key != "notes":
                yield from walk_text(value, path + (key,))
    elif isinstance(data, list):
        for i, item in enumerate(data):
            yield from walk_text(item, path + (i,))


def bad_cards(content: Content):
    """(doc name, index, card) of the cards left out for schema problems of their own."""
    for name, bad in content.bad_cards.items():
        cards = content.docs[name].data["cards"]
        for i in sorted(bad):
            if isinstance(cards[i], dict):
                yield name, i, cards[i]


def deck_counts(content: Content) -> list[tuple[str, int, int, int | None]]:
    """(deck, distinct cards, total copies, count stated by the design document)."""
    distinct, copies = Counter(), Counter()
    for card in content.cards:
        distinct[card["deck"]] += 1
        copies[card["deck"]] += card.get("copies", 1)
    return [(deck, distinct[deck], copies[deck], meta.get("stated_count"))
            for deck, meta in content.ages["decks"].items()]
