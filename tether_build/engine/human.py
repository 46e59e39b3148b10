"""A person at the terminal as one seat's agent (`tether play`).

Each decision prints what the seat may see (its observation: the board, its hand, everyone's
Gold) and the legal options, numbered; the person answers with a number. `q` ends the game.
"""

from __future__ import annotations

from .topo import edge_ends


class Quit(Exception):
    """The person ended the game."""


def _card(g, iid) -> str:
    return g.s.cards[iid].defn.name


def term_word(words, term: str, plural: bool, default: str) -> str:
    """The glossary's word for a term (words: term id -> (singular, plural)), else default."""
    got = (words or {}).get(term)
    return default if got is None else got[1 if plural else 0]


def _hex(g, h: int, words=None) -> str:
    s = g.s
    tile = s.tile[h]
    where = s.topo.name(h)
    if tile == "mine":
        return f"{where} {term_word(words, 'mine', False, 'Mine')} {s.mine_value[h]}"
    return where if tile == "plain" else f"{where} {term_word(words, tile, False, tile)}"


def group(g, opt, words=None) -> str:
    """Which units a move option carries, and where."""
    unit, src, cid, nf, path = opt
    cohorts = term_word(words, "force", True, "Cohorts")
    champions = term_word(words, "champion", True, "Champions")
    if unit == "champion" and cid in g.s.champions:
        who = g.s.champions[cid].defn.name
    elif unit == "stack" and cid < 0:
        who = f"the {cohorts} alone"
    elif unit == "stack" and nf == 0:
        who = f"the {champions} alone"
    elif unit == "stack" and nf is not None:
        who = f"{nf} {cohorts} and the {champions}"
    else:
        who = (f"the {term_word(words, 'stack', False, 'stack').lower()}" if unit == "stack"
               else f"1 {term_word(words, 'force', False, 'Cohort')}")
    return f"{who} {_hex(g, src, words)} -> {_hex(g, path[-1], words)}"


def describe(g, kind: str, opt, words=None) -> str:
    """One option of a decision, in words (the glossary's, if `words` is given)."""
    if opt is None:
        return "skip"
    if opt is True:  # a "may" step taken (not the card that happens to have id 1)
        return "yes"
    if isinstance(opt, tuple) and opt and isinstance(opt[0], str):
        head = opt[0]
        if head == "done":
            return "done for this round"
        if head == "card":
            return f"play {_card(g, opt[1])}"
        if head == "march":
            return "march " + group(g, opt[1], words)
        if head == "bridge":
            a, b = edge_ends(opt[1])
            return (f"build a {term_word(words, 'bridge', False, 'Bridge')} {_hex(g, a, words)} - "
                    f"{_hex(g, b, words)}")
        if head == "reinforce":
            return f"reinforce at {_hex(g, opt[1], words)}"
        if head == "ability":
            return f"use {opt[2]}"
        if head in ("pass", "buy"):
            return f"{head} bid {opt[1]} {term_word(words, 'gold', False, 'Gold')}"
        return " ".join(str(x) for x in opt)
    if kind == "move":
        return "move " + group(g, opt, words)
    if kind in ("hex", "capital") and isinstance(opt, int):
        return _hex(g, opt, words)
    if hasattr(opt, "cid"):
        return f"{opt.defn.name} (seat {opt.owner}) HP {opt.hp} at {_hex(g, opt.hex, words)}"
    if kind in ("bridge", "start_bridge") and isinstance(opt, int):
        a, b = edge_ends(opt)
        return f"{_hex(g, a, words)} - {_hex(g, b, words)}"
    if isinstance(opt, int) and 0 <= opt < len(g.s.cards) and kind not in ("player",):
        return _card(g, opt)
    if kind == "player":
        return f"seat {opt}"
    return str(opt)


def board_text(g, p: int) -> str:
    """The public board and seat p's own cards, as lines of text."""
    obs = g.observation(p)
    lines = [f"Round {obs['round']} (Age {obs['age']}), Lead: seat {obs['lead']}"]
    for pl in obs["players"]:
        me = " (you)" if pl["seat"] == p else ""
        lines.append(f"  seat {pl['seat']}{me} {pl['faction']}: Gold {pl['gold']}, "
                     f"Mana {pl['mana']}, control {pl['control_vp']}, hand {pl['hand_size']}"
                     f", capital {pl['capital']}")
    units: dict[str, list[str]] = {}
    for where, forces in obs["forces"].items():
        for seat, n in forces:
            units.setdefault(where, []).append(f"seat {seat}: {n} Cohorts")
    for seat, cid, where, hp, _mx in obs["champions"]:
        units.setdefault(where, []).append(f"seat {seat}: {g.rules.by_id[cid].name} HP {hp}")
    lines.append("Units:")
    for where in sorted(units):
        tile = obs["tiles"].get(where, "")
        lines.append(f"  {where} {tile}: " + "; ".join(units[where]))
    lines.append(f"Bridges: {len(obs['bridges'])}")
    hand = obs["players"][p]["hand"] or []
    names = [g.rules.by_id[c].name for c in hand]
    lines.append("Your hand: " + (", ".join(names) if names else "(empty)"))
    return "\n".join(lines)


class HumanAgent:
    """Asks a person through `ask(prompt) -> str` and `say(text)`."""

    name = "human"

    def __init__(self, ask, say):
        self.ask, self.say = ask, say
        self.last_round = None

    def seed(self, value: int) -> None:
        """A person needs no random stream."""

    def choose(self, g, p, kind, options, ctx=None) -> int:
        """Show the board (once a round) and the options; read a number."""
        if self.last_round != g.s.round or kind == "action":
            self.say(board_text(g, p))
            self.last_round = g.s.round
        self.say(f"Decision: {kind}")
        for i, opt in enumerate(options):
            self.say(f"  {i + 1:>3}. {describe(g, kind, opt)}")
        while True:
            answer = self.ask(f"Choose 1-{len(options)} (q to quit): ").strip().lower()
            if answer in ("q", "quit"):
                raise Quit
            if answer.isdigit() and 1 <= int(answer) <= len(options):
                return int(answer) - 1
            self.say(f"Please type a number from 1 to {len(options)}.")
