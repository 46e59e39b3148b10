"""What an agent is given instead of the live Game: a read-only view of what its seat may
know (§15.4, and the Gold display rule), the same shape as the parts of a Game agents read.

`Game.decide` hands each agent `SeatView(game, p)` (one per seat, kept by the game) unless
the agent declares `sees = "game"`: engine harnesses only (a search fork's seats replaying a
game the searcher built, the example and sweep runners, tests that drive the engine).

Through the view (its public attributes, items and methods) a seat can read:
- the public board: tiles, Mine values, Capitals, Forces, Champions, Bridges, round, Age,
  Lead, the revealed Market row, the winner;
- every seat's Gold, Mana, Held (Control) Permanence, hand and draw pile sizes, and
  face-up piles (discard, burn, scrapped, played this round);
- its own hand, its own Permanent VP, and the contents (not the order) of its draw pile;
- a card's definition by its id, for every card not hidden from the seat, and for the cards
  the current decision offers it (a draft's revealed cards, a look at its own pile);
- worlds dealt for its seat (`deal`: a copy of the game as a state, engine/state_api.py,
  with everything the seat cannot see dealt again; `fork`: engine/fork.py re-runs the game
  on the engine's side and deals again at the start of the current Action Step); the setup seed and the decisions so far (`Game.origin`, `Game.trace`) are not
  shown: an agent cannot re-run the true game.

It cannot read (each raises `Hidden`): other seats' hands, draw piles and Permanent VP, any
draw order (its own included), the supply decks, the card behind an id in any of those,
the dice stream, or the Game itself. What the asking context of a target choice shows is
an `Asking` (the step asked, the card and the Champion it belongs to), not the running
context (which holds the game).
"""

from __future__ import annotations

from functools import cached_property
from types import MappingProxyType

NOTHING: frozenset = frozenset()
CARD_KINDS = frozenset({"free_card", "forge_draft", "power_pick", "gain_card", "look_take",
                        "mine_draft", "discard", "scrap", "put_on_top", "look_bottom"})



# The Forker class (engine/fork.py), registered there when it is imported: the fork module
# imports the setup, which imports the game and so this module (no import circle).
FORKERS: list = []

class Hidden(AttributeError):
    """Seat p asked for something its seat may not know (§15.4)."""


class _Frozen:
    """Refuses attribute writes: a view is read-only (its fields are set once, by _set)."""

    def __setattr__(self, name, value):
        raise AttributeError(f"{type(self).__name__} is read-only")

    def _set(self, **values) -> None:
        self.__dict__.update(values)

    def __reduce__(self):
        """Copied (an agent's memo of a view, copied with a game) field by field."""
        return _rebuild, (type(self), dict(self.__dict__))


def _rebuild(cls, values: dict):
    """A view object from its fields (see _Frozen.__reduce__)."""
    obj = object.__new__(cls)
    obj.__dict__.update(values)
    return obj


class Asking(_Frozen):
    """What a target choice's context shows an agent: the step asked (`asking`), the card
    instance and the Champion whose effect asks."""


    def __init__(self, asking, inst, champ):
        self._set(asking=asking, inst=inst, champ=champ)


def ask_view(ctx):
    """The agent's side of a decision's context: an `Asking` for a running effect context,
    a read-only mapping for a plain dict (a bid's card), None for None."""
    if ctx is None:
        return None
    if isinstance(ctx, dict):
        return MappingProxyType(dict(ctx))
    return Asking(getattr(ctx, "asking", None), getattr(ctx, "inst", None),
                  getattr(ctx, "champ", None))


class PlayerView(_Frozen):
    """One seat as seen from seat `viewer`."""


    def __init__(self, pl, viewer: int, cards):
        mine = pl.seat == viewer
        self._set(seat=pl.seat, faction=pl.faction, gold=pl.gold, mana=pl.mana, cvp=pl.cvp,
                  capital=pl.capital, champions=tuple(pl.champions),
                  discard=tuple(pl.discard), burn=tuple(pl.burn),
                  scrapped=tuple(pl.scrapped), played=tuple(pl.played),
                  hand_size=len(pl.hand), draw_size=len(pl.draw), _mine=mine,
                  _hand=tuple(pl.hand) if mine else None,
                  _pvp=pl.pvp if mine else None,
                  _draw=(tuple(pl.draw), cards) if mine else None)

    def _own(self, what: str, value):
        if not self._mine:
            raise Hidden(f"seat {self.seat}'s {what} is hidden from this seat (§15.4)")
        return value

    @property
    def hand(self) -> tuple:
        """This seat's own hand (card ids); another seat's raises Hidden."""
        return self._own("hand", self._hand)

    @property
    def pvp(self) -> int:
        """This seat's own Permanent VP; another seat's raises Hidden."""
        return self._own("Permanent VP", self._pvp)

    @property
    def draw_contents(self) -> tuple:
        """The card ids (definition ids) in this seat's own draw pile, sorted: not its order
        (named when first asked: most decisions never ask)."""
        iids, cards = self._own("draw pile", self._draw)
        got = self.__dict__.get("_draw_names")
        if got is None:
            got = self.__dict__["_draw_names"] = tuple(sorted(cards[i].defn.id for i in iids))
        return got

    @property
    def draw(self):
        """Any draw pile's order is hidden (its own: `draw_contents`)."""
        raise Hidden("the order of a draw pile is hidden (own pile: draw_contents)")


class CardsView(_Frozen):
    """Card instances by id, for the ids the seat may see.

    A card is in one zone at a time (engine/state.py), so a card of the seat's own hand
    or of the revealed Market row is never hidden: those ids are answered at once, and the
    set of hidden ids (every draw pile, the other hands, the supply decks) is gathered only
    when another id is asked, once per decision."""


    def __init__(self, s, viewer: int, offered: frozenset):
        self._set(_cards=s.cards, _state=s, _viewer=viewer, _offered=offered,
                  _open=frozenset(s.players[viewer].hand).union(s.revealed))

    @cached_property
    def _hidden(self) -> frozenset:
        s = self._state
        hidden = set()
        for pl in s.players:
            hidden.update(pl.draw)
            if pl.seat != self._viewer:
                hidden.update(pl.hand)
        for deck in s.decks.values():
            hidden.update(deck)
        return frozenset(hidden)

    def __getitem__(self, iid: int):
        if iid not in self._open and iid in self._hidden and iid not in self._offered:
            raise Hidden(f"card {iid} is in a hidden zone (another hand, a draw pile or a "
                         "supply deck)")
        return self._cards[iid]

    def __len__(self) -> int:
        return len(self._cards)


class StateView(_Frozen):
    """The public board and the seats, as the State's attributes agents read."""


    def __init__(self, s, viewer: int, offered: frozenset):
        # the State's own queries (bound: `_`-names lead to the State, as `_state` does;
        # the view guards its public names, Python cannot stop introspection)
        self._set(_state=s, _viewer=viewer, _offered=offered, topo=s.topo, tile=s.tile,
                  mine_value=s.mine_value, capital_of=s.capital_of, forces=s.forces,
                  champs_at=s.champs_at, champions=s.champions, bridges=s.bridges,
                  round=s.round, age=s.age, lead=s.lead, winner=s.winner,
                  end_reason=s.end_reason, occupants=s.occupants, occupies=s.occupies,
                  occupied_by=s.occupied_by, units_of=s.units_of)

    @cached_property
    def players(self) -> tuple:
        """Every seat as this seat sees it (PlayerView)."""
        s = self._state
        return tuple(PlayerView(pl, self._viewer, s.cards) for pl in s.players)

    @cached_property
    def cards(self) -> CardsView:
        """Card instances by id, for the ids this seat may see."""
        return CardsView(self._state, self._viewer, self._offered)

    @cached_property
    def revealed(self) -> tuple:
        """The revealed Market row (card ids)."""
        return tuple(self._state.revealed)

    @property
    def decks(self):
        """The supply decks' order is hidden."""
        raise Hidden("the supply decks are hidden")


class _DecisionState:
    """`SeatView.s`: the StateView of the current decision, built on the agent's first read
    and then kept in the view until the next refresh (a random agent never reads it: one
    StateView a decision was about 4 % of a random game's bytecodes); None before any."""

    def __get__(self, view, cls=None):
        if view is None:
            return self
        d = view.__dict__
        offered = d.get("_offered")
        if offered is None:
            return None
        got = d["s"] = StateView(view._game.s, view.seat, offered)
        return got


class SeatView(_Frozen):
    """What seat `seat` may know of a game, refreshed at each of its decisions."""

    s = _DecisionState()

    def __init__(self, game, seat: int):
        self._set(_game=game, seat=seat, rules=game.rules)  # s: None until a decision

    def __reduce__(self):
        """Copied or pickled with its game, as a view of the copy (refreshed at the copy's
        next decision)."""
        return _rebuild, (SeatView, {"_game": self._game, "seat": self.seat,
                                     "rules": self.rules})

    def refresh(self, kind: str, options: list) -> SeatView:
        """Bring the view up to the game's current decision (engine side: Game.decide);
        its StateView `s` is built when the agent first reads it (see _DecisionState)."""
        d = self.__dict__
        d["_offered"] = frozenset(o for o in options if isinstance(o, int)) if (
            kind in CARD_KINDS) else NOTHING
        d.pop("s", None)
        return self

    @property
    def decisions(self) -> int:
        """How many decisions the game has asked so far."""
        return self._game.decisions

    @property
    def can_fork(self) -> bool:
        """Can the engine deal worlds of this game for this seat (`fork`)."""
        return self._game.origin is not None

    def fork_step(self) -> int:
        """Which Action Step of the round (from 1) the game is deciding in."""
        return self._forker().step(self._game)

    def fork(self, deal: int, seed: int, horizon: int, policy):
        """A world dealt for this seat (engine/fork.py): the game's public round to its
        `deal`-th Action Step, where everything this seat cannot see is dealt again from
        `seed`, then every decision asked of `policy(game, seat, kind, options, ctx)` to
        the end of round `horizon`. Returns the dealt game where it stopped. The engine
        re-runs the game to deal it: the agent is given the dealt world only, never the
        setup seed or the decisions of other seats."""
        return self._forker().fork(self._game, self.seat, deal, seed, horizon, policy)

    @property
    def can_deal(self) -> bool:
        """Can the engine deal worlds of this game for this seat as states (`deal`): the
        game runs as a state (engine/state_api.py) waiting at this seat's decision."""
        st = self._state()
        return st is not None

    def deal(self, sampler, policy=None):
        """A world dealt for this seat as a state waiting at its current decision
        (`TetherState.resample_from_infostate`: everything this seat cannot see dealt
        again from `sampler`, uniform numbers in [0, 1); at an Action Step choice the
        seats that chose before it choose again, by `policy(world)` if given). The
        agent is given the dealt world only, never the true one."""
        st = self._state()
        if st is None:
            raise RuntimeError("this game does not run as a state waiting at this seat")
        return st.resample_from_infostate(self.seat, sampler, policy)

    def _state(self):
        """The state (engine side) waiting at this seat's decision, else None."""
        agents = self._game.agents
        seat = agents[self.seat] if self.seat < len(agents) else None
        st = getattr(seat, "__dict__", {}).get("st")
        if (st is None or st._lazy or st._g is not self._game or st._a is None
                or st._a[0] != self.seat):
            return None
        return st

    def _forker(self):
        got = self.__dict__.get("_forks")
        if got is None:
            if not FORKERS:
                raise RuntimeError("a fork needs tether_build.engine.fork imported (the "
                                   "search agent uses `deal` instead)")
            got = self.__dict__["_forks"] = FORKERS[0]()
        return got

    @property
    def whole_plays(self) -> list[bool]:
        """Which seats are offered whole card plays (the shape of their options)."""
        return self._game.whole_plays

    def capital_has_enemy(self, p: int) -> bool:
        """Does seat p's Capital contain enemy units (public)."""
        return self._game.capital_has_enemy(p)

    def control_vp(self, p: int) -> int:
        """Seat p's Control VP if Scoring were now (public: what it holds, §17)."""
        return self._game.control_vp(p)

    def card_targets(self, p: int, inst) -> list:
        """The candidates of the first chosen target of seat p's own card `inst` (the
        board's public units or hexes)."""
        if p != self.seat:
            raise Hidden("a seat may look ahead only at its own cards")
        self.s.cards[inst.iid]
        return self._game.card_targets(p, inst)

    def observation(self, p: int | None = None) -> dict:
        """This seat's observation as plain data (Game.observation); another seat's raises
        Hidden."""
        if p is not None and p != self.seat:
            raise Hidden("a seat sees only its own observation")
        return self._game.observation(self.seat)
