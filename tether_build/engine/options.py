"""Rules options: every place where the design document leaves a rule open.

Each option has a name, a default and the allowed values; docs/rules-options.md explains
each one and the section of the document it comes from. `Options.from_dict` validates
overrides (e.g. from `tether simulate --option initiative=second`).
"""

from __future__ import annotations

from dataclasses import dataclass, fields, replace

from .core import shared

# name -> (allowed values, one-line reason). The default is the dataclass default.
CHOICES: dict[str, tuple[tuple, str]] = {
    "initiative": (("first", "second", "lower", "higher"),
                   "§2.6/§22: cards print two initiative numbers; which one orders resolution"),
    "initiative_ties": (("seat", "die"),
                        "§12.3: equal initiative: seat order from the Lead, or a die roll"),
    "lead": (("rotate", "fixed"),
             "§12.3 'starting from Lead': the Lead passes one seat each round, or stays seat 0"),
    "target_lock": (("declare", "resolve"),
                    "§12.4: targets chosen when the card is declared (and fizzle) or on resolve"),
    "stack_split": ((False, True),
                    ("§2.1 'any number of your units': False = a stack is all your units on "
                    "the hex; True = the player also chooses how many Forces stay behind")),
    "capital_stops_move": ((True, False),
                           ("§12.5 names only non-Capital hexes: does entering an "
                           "enemy-occupied Capital also end a multi-hex move")),
    "blocked_move": (("stop_before", "cancel"),
                     ("§12.6: a move into a hex holding two other players stops before it "
                     "or is cancelled entirely")),
    "activation_mana": ((1, 0),
                        "activated Champion abilities ('as an action'): mana they cost"),
    "final_tie": (("shared", "die"),
                  "§3.2 gives no rule when all tie-breakers are equal: shared win or die roll"),
    "simultaneous_win": (("tie_breakers", "shared"),
                         "§17: two players reach the VP goal in the same Scoring"),
    "next_battle_expires": ((True, False),
                            "'next battle' modifiers: expire at Cleanup if no battle came"),
    "market_deck_empty": (("skip",),
                          "§11: a Market deck runs out: reveal fewer cards"),
    "hand_limit_draw": (("discard", "stop"),
                        "§2.5: drawing at HAND_LIMIT sends the card to the discard pile"),
    "hit_assignment": (("at_roll", "surviving"),
                       ("§14.2 'among all surviving enemy units': the units alive when the "
                       "dice are rolled (a second hit on a dead Force is lost), or only those "
                       "not yet killed by an earlier hit of the same roll")),
    "reforge_empty_hand": (("draft_only",),
                           ("§6.2 Reforge needs a card in hand; with an empty hand only the "
                           "Forge Draft remains")),
}


@shared
@dataclass(frozen=True)
class Options:
    """The rules options of one game (defaults = the engine's reading of the document)."""

    initiative: str = "first"
    initiative_ties: str = "seat"
    lead: str = "rotate"
    target_lock: str = "declare"
    stack_split: bool = False
    capital_stops_move: bool = True
    blocked_move: str = "stop_before"
    activation_mana: int = 1
    final_tie: str = "shared"
    simultaneous_win: str = "tie_breakers"
    next_battle_expires: bool = True
    market_deck_empty: str = "skip"
    hand_limit_draw: str = "discard"
    reforge_empty_hand: str = "draft_only"
    hit_assignment: str = "at_roll"

    @classmethod
    def from_dict(cls, values: dict | None) -> Options:
        """Options with overrides; raises ValueError naming the option and allowed values."""
        opts = cls()
        for name, value in (values or {}).items():
            if name not in CHOICES:
                raise ValueError(f"unknown rules option {name!r} (known: {', '.join(CHOICES)})")
            allowed = CHOICES[name][0]
            value = _coerce(value, allowed)
            if value not in allowed:
                raise ValueError(f"rules option {name}={value!r}: allowed {allowed}")
            opts = replace(opts, **{name: value})
        return opts

    def to_dict(self) -> dict:
        """Plain dict of every option (goes into the game log header)."""
        return {f.name: getattr(self, f.name) for f in fields(self)}


def _coerce(value, allowed: tuple):
    if isinstance(value, str) and allowed and isinstance(allowed[0], bool):
        return {"true": True, "false": False}.get(value.lower(), value)
    if isinstance(value, str) and allowed and isinstance(allowed[0], int):
        return int(value) if value.lstrip("-").isdigit() else value
    return value
