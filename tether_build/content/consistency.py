"""Consistency rules across content files (issue 41.6): what one file says must fit another.

Errors (generators of Problems, run by `validate`): the ages cover Rounds 1 to the round
cap with no gap, overlap or preview outside their rounds (a round cap below the last age's
end is only a warning: the game may be cut short on purpose, to try a shorter game); every keyword a card or passive
relies on is defined (an ability's `keyword`, a printed `limit`, the burn keyword of a
`burn: true` card); every card id and faction id an example names exists.

Warnings (`warnings(content)`, printed by `tether validate`, never failing): a round cap
that ends the game before the last age ends, a deck whose card count differs from the count
the design document states (`stated_count`), a glossary term no text, rule chapter or
content file uses, and a faction colour closer to a tile colour than faction colours keep
from each other under some vision type (its tokens on that tile).
"""

from __future__ import annotations

import difflib
from pathlib import Path

from ..errors import Problem
from . import text as textmod
from .load import Content

# Limits that print as a keyword label after an ability's name (print/cards/context.py
# LIMIT_KEYWORDS): keywords.yaml must define them, or the label silently goes missing.
PRINTED_LIMITS = ("once_per_round",)
# example keys whose value is a card id, or a list of card ids
EXAMPLE_CARD = ("play", "champion", "card")
EXAMPLE_CARDS = ("hand", "discard", "draw", "hand_cards", "discard_cards")


def _close(word, options) -> str | None:
    match = difflib.get_close_matches(str(word), list(options), n=1, cutoff=0.6)
    return f"did you mean '{match[0]}'?" if match else None


def _span(rounds: list[int]) -> str:
    return f"{rounds[0]}-{rounds[-1]}" if len(rounds) > 1 else str(rounds[0])


def check_ages(content: Content):
    """The ages cover Rounds 1..round_cap in order, each a run of consecutive Rounds, and
    an age's preview names only its own Rounds (§19, §3.2)."""
    cap = content.game["victory"]["round_cap"]
    cap_line = content.docs["game.yaml"].locate(("victory", "round_cap"))[0]
    expected = 1
    ages = list(content.ages["ages"].items())
    for n, (aid, age) in enumerate(ages):
        rounds, where = list(age["rounds"]), ("ages", aid, "rounds")
        label = f"Age {age.get('numeral', aid)}"
        if not rounds:
            yield content.problem("ages.yaml", where, f"{label} has no Rounds",
                                  f"give it Rounds from {expected}")
            continue
        if rounds != list(range(rounds[0], rounds[0] + len(rounds))):
            yield content.problem("ages.yaml", where,
                                  f"{label}'s Rounds {rounds} are not consecutive",
                                  "list each Round once, in order, e.g. [4, 5, 6, 7]")
        elif rounds[0] != expected:
            what = "a gap" if rounds[0] > expected else "an overlap"
            yield content.problem("ages.yaml", where,
                                  f"{label} starts at Round {rounds[0]}: {what} after the "
                                  f"age before it (expected Round {expected})",
                                  f"start it at Round {expected}")
        if n == len(ages) - 1 and rounds[-1] < cap:  # Rounds that belong to no Age
            yield content.problem(
                "ages.yaml", where,
                f"{label} covers Rounds {_span(rounds)} but the game lasts at most {cap} "
                f"Rounds (game.yaml:{cap_line}: victory.round_cap: {cap}): Rounds "
                f"{_span(list(range(rounds[-1] + 1, cap + 1)))} belong to no age",
                f"end the last age at Round {cap}, or set round_cap to {rounds[-1]}")
        expected = rounds[-1] + 1
        for key in (age.get("preview") or {}):
            if int(key) not in rounds:
                yield content.problem("ages.yaml", ("ages", aid, "preview", key),
                                      f"the preview gives Round {key}, which is not one of "
                                      f"{label}'s Rounds ({_span(rounds)})",
                                      "give the preview for the age's own Rounds only")


def _abilities(content: Content):
    """(doc, path, ability) of every card ability, trigger and faction passive."""
    for card in content.cards:
        src = card["_src"]
        base = ("cards", src["index"])
        for i, a in enumerate((card.get("champion") or {}).get("abilities", [])):
            yield src["doc"], base + ("champion", "abilities", i), a
        for i, a in enumerate(card.get("triggers", [])):
            yield src["doc"], base + ("triggers", i), a
    for fid, faction in content.factions.items():
        for i, p in enumerate(faction.get("passives", [])):
            yield "factions.yaml", ("factions", fid, "passives", i), p


def check_keywords(content: Content):
    """Every keyword the cards and passives rely on is defined in keywords.yaml."""
    keywords = content.keywords
    hint = "define it in keywords.yaml (name, reminder)"
    for doc, path, ability in _abilities(content):
        limit = ability.get("limit")
        if limit in PRINTED_LIMITS and limit not in keywords:
            yield content.problem(doc, path + ("limit",),
                                  f"limit {limit!r} prints as a keyword, but keywords.yaml "
                                  "does not define it", hint)
        kw = ability.get("keyword")
        if doc == "factions.yaml" and kw and kw not in keywords:  # cards: validate.check_ids
            yield content.problem(doc, path + ("keyword",), f"unknown keyword {kw!r}",
                                  _close(kw, keywords) or hint)
    if not any(k.get("term") == "burn" for k in keywords.values()):
        for card in content.cards:
            if card.get("burn"):
                src = card["_src"]
                yield content.problem(src["doc"], ("cards", src["index"], "burn"),
                                      "the card has burn, but no keyword of keywords.yaml "
                                      "has term: burn (its reminder text goes missing)",
                                      "define the burn keyword with term: burn")


def _example_ids(node, path=()):
    """Yield (path, 'card'|'faction', id) for every id an example names."""
    if isinstance(node, dict):
        for key, value in node.items():
            here = path + (key,)
            if isinstance(value, str) and (key in EXAMPLE_CARD
                                           or (key == "hit" and value != "cohort")):
                yield here, "card", value
            elif key == "faction" and isinstance(value, str):
                yield here, "faction", value
            elif key in EXAMPLE_CARDS and isinstance(value, list):
                for i, item in enumerate(value):
                    if isinstance(item, str):
                        yield here + (i,), "card", item
            elif key == "decks" and isinstance(value, dict):
                for deck, ids in value.items():
                    for i, item in enumerate(ids if isinstance(ids, list) else []):
                        if isinstance(item, str):
                            yield here + (deck, i), "card", item
            else:
                yield from _example_ids(value, here)
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _example_ids(item, path + (i,))


def _examples(content: Content):
    """(doc, path of the examples list, examples) of every card, ability and passive."""
    for card in content.cards:
        src = card["_src"]
        base = ("cards", src["index"])
        yield src["doc"], base + ("examples",), card.get("examples", [])
    for doc, path, ability in _abilities(content):
        yield doc, path + ("examples",), ability.get("examples", [])


def check_example_ids(content: Content):
    """Every card and faction id a card example names exists (did you mean...?)."""
    cards = {c["id"] for c in content.cards}
    for doc, base, examples in _examples(content):
        for path, kind, value in _example_ids(examples):
            known = cards if kind == "card" else content.factions
            if value not in known:
                yield content.problem(doc, base + path, f"example names unknown {kind} "
                                      f"{value!r}", _close(value, known) or
                                      f"the {kind} must exist in the content")


def check_rejected_cards(content: Content):
    """The faction and keyword references of cards the schema rejected (the model leaves
    them out, so validate.check_ids never sees them): reported in the same run."""
    from .walk import bad_cards

    for doc, index, card in bad_cards(content):
        base = ("cards", index)
        faction = card.get("faction")
        if isinstance(faction, str) and faction not in content.factions:
            yield content.problem(doc, base + ("faction",), f"unknown faction {faction!r}",
                                  _close(faction, content.factions))
        champion = card.get("champion") if isinstance(card.get("champion"), dict) else {}
        for key, items in ((("champion", "abilities"), champion.get("abilities")),
                           (("triggers",), card.get("triggers"))):
            for i, ability in enumerate(items if isinstance(items, list) else []):
                kw = ability.get("keyword") if isinstance(ability, dict) else None
                if isinstance(kw, str) and kw not in content.keywords:
                    yield content.problem(doc, base + key + (i, "keyword"),
                                          f"unknown keyword {kw!r}",
                                          _close(kw, content.keywords) or
                                          "add it to keywords.yaml")


CHECKS = (check_ages, check_keywords, check_example_ids, check_rejected_cards)


# ---- warnings -------------------------------------------------------------------------------
def warn_ages_cut_short(content: Content):
    """A round cap before the last age's last Round: those Rounds are never played."""
    cap = content.game["victory"]["round_cap"]
    ages = list(content.ages["ages"].values())
    if not ages or not ages[-1]["rounds"] or ages[-1]["rounds"][-1] <= cap:
        return
    unplayed = [f"{a.get('numeral', '?')} {_span(r)}" for a in ages
                if (r := [n for n in a["rounds"] if n > cap])]
    yield content.problem("game.yaml", ("victory", "round_cap"),
                          f"the game ends after Round {cap}, so these Rounds of the ages are "
                          f"never played: {'; '.join(unplayed)} (ages.yaml)",
                          f"end the last age at Round {cap} in ages.yaml, or raise round_cap")


def warn_deck_counts(content: Content):
    """A deck whose cards (or copies) differ from the design document's stated count."""
    from .walk import deck_counts

    for deck, distinct, copies, stated in deck_counts(content):
        if stated is None or stated in (distinct, copies):
            continue
        notes = content.ages["decks"][deck].get("notes")
        yield content.problem("ages.yaml", ("decks", deck, "stated_count"),
                              f"deck {deck} has {distinct} cards ({copies} copies); the design "
                              f"document states {stated}",
                              "see the deck's notes" if notes else
                              "add a card, or record why in the deck's notes")


def _chapter_text(path: Path, root) -> str:
    """A rules chapter's text, or "" when the guard refuses it (the chapter check says why)."""
    from .paths_guard import Refused, project_of, read_text

    try:
        return read_text(path, project_of(root))
    except Refused:
        return ""


def _used_terms(content: Content) -> set[str]:
    """Term ids that some text token, rules chapter or content field refers to."""
    from .walk import walk_text

    used: set[str] = set()
    texts = [v for doc in content.docs.values() for _, v in walk_text(doc.data)]
    rules = Path(content.root) / "rules"
    texts += [_chapter_text(p, content.root) for p in sorted(rules.glob("*.md"))]
    for value in texts:
        for kind, tid, _form, _ in textmod.tokens(value):
            used.add(tid if kind == "term" else content.icons.get(tid, {}).get("term", ""))
    for table in (content.icons, content.tiles, content.keywords):
        used |= {v.get("term") for v in table.values()}
    # a card's category and type print as their terms' names (render.context.category)
    used |= {c["category"] for c in content.cards} | {c["type"] for c in content.cards}
    return used


def warn_unused_terms(content: Content):
    """A glossary term nothing refers to (text, rules chapters, icons, tiles, keywords)."""
    used = _used_terms(content)
    for tid in content.terms:
        if tid not in used:
            yield content.problem("terms.yaml", ("terms", tid), f"term {tid!r} is used "
                                  "nowhere (no card, rule or content text refers to it)",
                                  f"use it as [{tid}] in text, or remove it", key=True)


def warn_tile_colours(content: Content):
    """A faction colour close to a tile's (print/tiles/palette.py)."""
    from ..print.tiles.palette import warn_tile_colours as tile_warnings

    yield from tile_warnings(content)


WARNINGS = (warn_ages_cut_short, warn_deck_counts, warn_unused_terms, warn_tile_colours)


def warnings(content: Content) -> list[Problem]:
    """Every consistency warning of validated content, sorted."""
    return sorted({p for w in WARNINGS for p in w(content)})
