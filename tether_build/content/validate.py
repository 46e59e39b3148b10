"""Cross-checks over loaded content: ids, references, tokens, literal names, effect refs.

Each check is a generator of Problems; `validate` runs them all and fails once.
"""

from __future__ import annotations

import difflib
from pathlib import Path

from ..errors import ContentError, Problem
from . import consistency as crosscheck
from . import constants, yamlio
from . import text as textmod
from .load import CORE, Content, load_partial
from .walk import bad_cards, walk_text

NO_TOKEN_FILES = {"game.yaml", "terms.yaml"}


def _close(word: str, options) -> str | None:
    match = difflib.get_close_matches(word, list(options), n=1, cutoff=0.6)
    return f"did you mean '{match[0]}'?" if match else None


def check_text(content: Content):
    """Every token names a term or icon; no glossary name is typed literally."""
    terms, icons = content.terms, content.icons
    literal = textmod.literal_names(terms)
    prefer_icon = textmod.icon_preferred(
        (v for n, d in content.docs.items() if n not in NO_TOKEN_FILES
         for _, v in walk_text(d.data)), icons)
    # cards and files that failed their schema are checked too: their text is read as
    # strings only, so a broken structure elsewhere in them cannot mislead the check
    docs = {**content.broken, **content.docs}
    for name, doc in docs.items():
        if name in NO_TOKEN_FILES:
            continue
        for path, value in walk_text(doc.data):
            for kind, tid, form, _ in textmod.tokens(value):
                table = terms if kind == "term" else icons
                if tid not in table:
                    shown = f"[{tid}]" if kind == "term" else f"{{{tid}}}"
                    yield _problem(doc, path, f"unknown {kind} token {shown}",
                                   _close(tid, table) or f"see content/terms.yaml {kind}s")
            if path[-1] == "name" or (len(path) > 1 and path[-2] == "name"):
                continue  # a card's own name may use a game word ("Bridge Crew")
            bare = textmod.strip_tokens(value)
            for pos, typed, fix in textmod.literal_hits(bare, literal, terms, icons,
                                                        prefer_icon):
                yield _problem(
                    doc, path, f"glossary name {typed!r} typed literally (character {pos + 1})",
                    f"write {fix} so a rename reaches this text")


def _problem(doc, path, message: str, hint: str | None = None) -> Problem:
    """A Problem located in a document (loaded cleanly or not)."""
    line, col = doc.locate(path)
    return Problem(doc.path, line, col, yamlio.dotted(path), message, hint)


def check_ids(content: Content):
    """Card ids are unique; decks, factions and keywords referenced exist."""
    seen: dict[str, dict] = {}
    decks = content.ages["decks"]
    for card in content.cards:
        src = card["_src"]
        where = ("cards", src["index"])
        if card["id"] in seen:
            other = seen[card["id"]]["_src"]
            yield content.problem(src["doc"], where + ("id",),
                                  f"duplicate card id {card['id']!r} "
                                  f"(also {other['file']}:{other['line']})",
                                  "card ids must be unique across all decks")
        seen.setdefault(card["id"], card)
        if card["deck"] not in decks:
            yield content.problem(src["doc"], ("deck",), f"unknown deck {card['deck']!r}",
                                  _close(card["deck"], decks) or "decks are listed in ages.yaml")
        faction = card.get("faction")
        if faction is not None and faction not in content.factions:
            yield content.problem(src["doc"], where + ("faction",),
                                  f"unknown faction {faction!r}", _close(faction,
                                                                         content.factions))
        abilities = (card.get("champion") or {}).get("abilities", []) + card.get("triggers", [])
        for i, ability in enumerate(abilities):
            kw = ability.get("keyword")
            if kw and kw not in content.keywords:
                sub = ("champion", "abilities", i) if i < len(
                    (card.get("champion") or {}).get("abilities", [])) else ("triggers", i)
                yield content.problem(src["doc"], where + sub + ("keyword",),
                                      f"unknown keyword {kw!r}",
                                      _close(kw, content.keywords) or "add it to keywords.yaml")
    for fid, faction in content.factions.items():
        for role, kind in (("spell", "spell"), ("champion", "champion")):
            cid = faction[role]
            card = seen.get(cid)
            path = ("factions", fid, role)
            if card is None:
                yield content.problem("factions.yaml", path, f"unknown card {cid!r}",
                                      _close(cid, seen) or "the card must exist in cards/")
            elif card["type"] != kind or card.get("faction") != fid:
                yield content.problem("factions.yaml", path,
                                      f"card {cid!r} is a {card['type']} of faction "
                                      f"{card.get('faction')!r}",
                                      f"expected a {kind} with faction: {fid}")
    if content.data("factions.yaml")["default"] not in content.factions:
        yield content.problem("factions.yaml", ("default",), "unknown default faction")
    for iid, icon in content.icons.items():
        if icon["term"] not in content.terms:
            yield content.problem("terms.yaml", ("icons", iid, "term"),
                                  f"unknown term {icon['term']!r}",
                                  _close(icon["term"], content.terms))
    for tid, tile in content.tiles.items():
        if tile["term"] not in content.terms:
            yield content.problem("tiles.yaml", ("tiles", tid, "term"),
                                  f"unknown term {tile['term']!r}",
                                  _close(tile["term"], content.terms))


def _refs(node, path=()):
    """Yield (path, kind, name) for names defined ('as') and used ('ref') in steps."""
    if isinstance(node, dict):
        if "ref" in node and isinstance(node["ref"], str):
            yield path + ("ref",), "use", node["ref"]
        if "target" in node and isinstance(node["target"], str):
            yield path + ("target",), "use", node["target"]
        if "as" in node and isinstance(node["as"], str):
            yield path + ("as",), "def", node["as"]
        for key, value in node.items():
            yield from _refs(value, path + (key,))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _refs(item, path + (i,))


def check_effect_refs(content: Content):
    """A `{ref: name}` must name a target chosen earlier in the same card."""
    cards = [(c["_src"]["doc"], c["_src"]["index"], c) for c in content.cards]
    for doc, index, card in cards + list(bad_cards(content)):  # refs are safe in bad cards
        defined: set[str] = set()
        for path, kind, name in _refs({k: card[k] for k in ("effect", "triggers", "champion")
                                       if k in card}):
            if kind == "def":
                defined.add(name)
            elif name not in defined:
                yield content.problem(doc, ("cards", index) + path,
                                      f"reference to unknown target {name!r}",
                                      _close(name, defined) or
                                      "choose it first with a choose_target step (as: name)")


def _areas(node, path=()):
    """Yield (path, within dict) for every `within:` area in steps."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "within" and isinstance(value, dict):
                yield path + (key,), value
            yield from _areas(value, path + (key,))
    elif isinstance(node, list):
        for i, item in enumerate(node):
            yield from _areas(item, path + (i,))


def check_areas(content: Content):
    """A `within:` area with `min_distance` above `distance` holds no hex."""
    for card in content.cards:
        src = card["_src"]
        for path, w in _areas({k: card[k] for k in ("effect", "triggers", "champion")
                               if k in card}):
            lo, d = w.get("min_distance"), w.get("distance")
            if isinstance(lo, int) and isinstance(d, int) and lo > d:
                yield content.problem(src["doc"], ("cards", src["index"]) + path
                                      + ("min_distance",),
                                      f"min_distance {lo} is above distance {d}: no hex "
                                      "is that far and that near",
                                      f"at most {d}; distance 1 with min_distance 1 is the "
                                      "adjacent hexes")


def check_effect_bounds(content: Content):
    """Every effect runs a bounded number of steps: nested repeats multiply (effects/bound.py)."""
    from ..effects.bound import effect_lists, too_much

    hint = "nested repeats multiply: make a count smaller, or give an amount read from the " \
           "game a max"
    for card in content.cards:
        src = card["_src"]
        for path, steps in effect_lists(card):
            found = too_much(steps, path)
            if found:
                yield content.problem(src["doc"], ("cards", src["index"]) + found[0],
                                      found[1], hint)
    if "factions.yaml" in content.docs:
        for fid, faction in (content.factions or {}).items():
            passives = faction.get("passives") if isinstance(faction, dict) else None
            for i, passive in enumerate(passives if isinstance(passives, list) else []):
                if not isinstance(passive, dict):
                    continue
                found = too_much(passive.get("steps"), ("factions", fid, "passives", i,
                                                        "steps"))
                if found:
                    yield content.problem("factions.yaml", found[0], found[1], hint)


# Files whose text may interpolate constants as {{ path }} (card text may not: its numbers
# come from the card's effect, and braces typed there print as typed).
CONSTANT_FILES = ("tiles.yaml", "keywords.yaml", "factions.yaml", "setting.yaml", "ages.yaml")


def _interpolate(content: Content, apply: bool):
    """Fill `{{ constant }}` paths in constant-aware text; yield Problems for bad ones."""
    for name in CONSTANT_FILES:
        doc = content.docs[name]
        for path, value in list(walk_text(doc.data)):
            if "{" not in value:
                continue
            rendered, found = constants.fill(value, content.game)
            for _line, _col, message, hint in found:
                yield content.problem(name, path, message, hint)
            if apply and not found:
                node = doc.data
                for part in path[:-1]:
                    node = node[part]
                node[path[-1]] = rendered


def check_constants(content: Content):
    """Every {{ constant }} in tiles, keywords, factions, setting and ages text resolves."""
    yield from _interpolate(content, apply=False)


def check_game_numbers(content: Content):
    """Numbers of game.yaml that only make sense together (issue 17.13)."""
    game = content.game
    sides = game["combat"]["die_sides"]
    pairs = [
        (("players", "min"), game["players"]["min"] <= game["players"]["max"],
         "players.min is above players.max", "swap them"),
        (("units", "force", "hit"), game["units"]["force"]["hit"] <= sides,
         f"a Cohort cannot hit on more than the die's {sides} faces", f"at most {sides}"),
        (("hand", "size"), game["hand"]["size"] <= game["hand"]["limit"],
         "the hand size is above the hand limit", "hand.size <= hand.limit"),
        (("board", "mine_value_max"),
         all(int(v) <= game["board"]["mine_value_max"] for v in game["board"]["mine_values"]),
         "a starting Mine value is above mine_value_max", "raise mine_value_max"),
    ]
    for path, ok, message, hint in pairs:
        if not ok:
            yield content.problem("game.yaml", path, message, hint)
    for card in content.cards:
        hit = (card.get("champion") or {}).get("hit")
        if hit is not None and hit > sides:
            yield content.problem(card["_src"]["doc"], ("cards", card["_src"]["index"],
                                                         "champion", "hit"),
                                  f"a Champion cannot hit on more than {sides}",
                                  f"at most {sides}")


def check_art(content: Content):
    """A card's `art:` is a picture on disk inside the project folder (cards.art_path)."""
    from .cards import art_path

    for card in content.cards:
        if card.get("art"):
            src = card["_src"]
            _, why = art_path(content, card["art"])
            if why:
                yield content.problem(src["doc"], ("cards", src["index"], "art"), why,
                                      "put the picture in the project folder and give its "
                                      "path from there, e.g. art/" + card["id"] + ".png")


def check_palette(content: Content):
    """Faction colours stay apart for colour-blind players (print/tiles/palette.py)."""
    from ..print.tiles.palette import check_gray
    from ..print.tiles.palette import check_palette as palette_problems

    yield from palette_problems(content)
    yield from check_gray(content)


def check_departures(content: Content):
    """A departure's `printed:` words are in its text (departures.py)."""
    from .departures import check_printed

    yield from check_printed(content)


def check_term_names(content: Content):
    """Two glossary terms may not print the same word (singular or plural, in any case):
    a player could not tell them apart, and a literal name could not say which it meant."""
    owner: dict[str, tuple[str, str]] = {}
    for tid, term in content.terms.items():
        for form in ("singular", "plural"):
            name = term.get(form)
            if not isinstance(name, str) or not name.strip():
                continue
            key = " ".join(name.split()).casefold()
            first = owner.setdefault(key, (tid, form))
            if first[0] != tid:
                yield content.problem("terms.yaml", ("terms", tid, form),
                                      f"the name {name!r} is also term {first[0]!r}'s "
                                      f"{first[1]}", "give each term a name of its own")


CHECKS = (check_ids, check_text, check_term_names, check_effect_refs, check_areas,
          check_effect_bounds, check_constants,
          check_game_numbers, check_palette, check_art, crosscheck.check_ages,
          crosscheck.check_keywords, crosscheck.check_example_ids,
          crosscheck.check_rejected_cards, check_departures)
# The core files each check reads: when some core file has problems of its own, the checks
# that do not read it still run, so every problem is reported in one run (issue 41.7).
NEEDS = {"check_ids": CORE, "check_text": ("terms.yaml",), "check_term_names": ("terms.yaml",),
         "check_effect_refs": (), "check_areas": (), "check_effect_bounds": (),
         "check_constants": ("game.yaml", *CONSTANT_FILES),
         "check_game_numbers": ("game.yaml",),
         "check_palette": ("factions.yaml", "tiles.yaml", "terms.yaml"),
         "check_art": (), "check_ages": ("game.yaml", "ages.yaml"),
         "check_keywords": ("keywords.yaml", "factions.yaml"),
         "check_example_ids": ("factions.yaml",),
         "check_rejected_cards": ("factions.yaml", "keywords.yaml"),
         "check_departures": CORE}


def runnable(content: Content):
    """The checks whose core files all loaded cleanly (every check, when all did)."""
    return [c for c in CHECKS
            if content.complete or all(n in content.docs for n in NEEDS[c.__name__])]


def validate(root: Path, memo=None) -> Content:
    """Load, schema-check and cross-check content; raise ContentError listing every problem.
    memo: a render.cache.Cache remembering files found schema-valid (content.load_partial)."""
    content, problems = load_partial(root, memo)
    problems += [p for check in runnable(content) for p in check(content)]
    if problems:
        raise ContentError(problems)
    for _ in _interpolate(content, apply=True):
        pass
    return content
