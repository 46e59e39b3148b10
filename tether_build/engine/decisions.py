"""The decision kinds an agent is asked (`choose(g, seat, kind, options, ctx)`) and the
shape of their options: one table, documented in docs/decisions.md and checked by tests."""

from __future__ import annotations

from .state import Champion


def _int(o) -> bool:
    return isinstance(o, int) and not isinstance(o, bool)


def _card(o) -> bool:
    return _int(o) and o >= 0


def _card_or_skip(o) -> bool:
    return o is None or _card(o)


def _tagged(tags: dict):
    """Options that are tuples (tag, *fields); `tags` maps a tag to its fields' checks."""
    def ok(o) -> bool:
        if not isinstance(o, tuple) or not o or o[0] not in tags:
            return False
        checks = tags[o[0]]
        return len(o) == len(checks) + 1 and all(c(x) for c, x in zip(checks, o[1:]))
    return ok


def _path(o) -> bool:
    return isinstance(o, tuple) and bool(o) and all(_int(h) for h in o)


def _opt_int(o) -> bool:
    return o is None or _int(o)


def _move(o) -> bool:
    return _tagged({u: (_int, _int, _opt_int, _path)
                    for u in ("stack", "force", "champion", "cohorts")})(o)


def _play(o) -> bool:
    """A whole play: the (kind, value, step) of each target its declaration locks."""
    return isinstance(o, tuple) and all(isinstance(a, tuple) and len(a) == 3
                                        and a[0] in DECISIONS for a in o)


_ACTION_TAGS = _tagged({"done": (), "card": (_card,), "bridge": (_int,), "reinforce": (_int,),
                        "march": (_move,), "ability": (_int, lambda x: isinstance(x, str))})
_WHOLE = _tagged({"card": (_card, _play)})


def _action(o) -> bool:
    return _ACTION_TAGS(o) or _WHOLE(o)

# kind -> (who asks, the shape of one option, its check)
DECISIONS: dict[str, tuple[str, str, object]] = {
    "action": ("Action Step (§12.1), asked of every seat from the step's starting state",
               ("('done',) | ('card', card) | ('card', card, play) for an agent with "
               "whole_plays: play = ((kind, value, step), ...), each target the card locks | "
               "('bridge', edge) | ('reinforce', hex) | ('march', move) | "
               "('ability', champion id, ability name)"), _action),
    "bid": ("Market bid (§11.2)", "('pass', gold) | ('buy', gold)",
            _tagged({"pass": (_int,), "buy": (_int,)})),
    "mine": ("Mine Collection", "('gold', amount) | ('draft',)",
             _tagged({"gold": (_int,), "draft": ()})),
    "forge": ("Forge Collection", "('draft',) | ('reforge',)",
              _tagged({"draft": (), "reforge": ()})),
    "capital": ("setup: the Capital draft (§8)", "capital slot name",
                lambda o: isinstance(o, str)),
    "start_bridge": ("setup: a starting Bridge", "edge", _int),
    "move": ("a card's move step, one stack at a time",
             ("(unit, from hex, champion id, Forces or None for all, path of hexes); None ends "
             "a multi-stack move"), lambda o: o is None or _move(o)),
    "hex": ("a targeted step or choose_target on a hex", "hex, or None to skip a 'may'",
            _opt_int),
    "bridge": ("a Bridge step or target", "edge, or None to skip", _opt_int),
    "champion": ("a targeted step on a Champion", "Champion, or None to skip",
                 lambda o: o is None or isinstance(o, Champion)),
    "player": ("a step that names a seat", "seat", _int),
    "option": ("choose_one (a card's modes)", "the mode's label", lambda o: isinstance(o, str)),
    "may": ("an optional step with nothing to aim", "None (skip) | True", lambda o: o in (None,
                                                                                        True)),
    "assign_hit": ("a battle where the hits are chosen (assign_hits)",
                   "('force',) | ('champion', champion id)",
                   _tagged({"force": (), "champion": (_int,)})),
    "summon": ("a summon step that chooses the Champion card", "card", _card),
    "gain_card": ("a gain step with a choice of copies", "card", _card),
}
# kinds that pick cards one at a time (cards.choose_cards / draft): a card, None = stop
CARD_PICKS = ("discard", "scrap", "put_on_top", "look_take", "look_bottom", "mine_draft",
              "forge_draft", "power_pick", "free_card")
for _k in CARD_PICKS:
    DECISIONS[_k] = ("a card picked from a hand, a look or a draft",
                     "card, or None to stop ('up to' / optional)", _card_or_skip)


def check_option(kind: str, option) -> bool:
    """True when `option` has the shape the table gives for `kind` (unknown kind: False)."""
    row = DECISIONS.get(kind)
    return row is not None and row[2](option)
