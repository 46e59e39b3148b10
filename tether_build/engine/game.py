"""The Game: state + ruleset + options + one seeded RNG + agents + event log.

The rules are Game mixins, methods over the game's state: card zones (cards), units,
movement and paths, combat, the round phases (phases), the Market (market), the Action
Phase (actions) and declaring a card (declare); clone, observation and determinization are
in views. Effect steps are not methods: they are handlers registered by step kind (a
dispatch table, steps_basic / steps_board / steps_cards / steps_flow) that a card's
compiled effect runs with a Ctx. This module holds decisions, logging and trigger dispatch.
"""

from __future__ import annotations

import random

from . import core
from .actions import ActionsMixin
from .cards import CardsMixin
from .combat import CombatMixin
from .core import Ctx, Fizzle, NoTarget
from .declare import DeclareMixin
from .index import Index
from .market import MarketMixin
from .mods import Hooks
from .movement import MoveMixin
from .options import Options
from .phases import PhasesMixin
from .seatview import SeatView, ask_view
from .units import UnitsMixin
from .views import ViewsMixin

EVENT_CHAMP = ("on_deploy", "on_death")
UNIT_KINDS = ("all", "forces", "champions", "this", "target", "enemy_forces",
              "enemy_champions")
# every event the engine fires, and where (tested against spec.EVENTS)
EVENTS_FIRED = {
    "on_deploy": "units.place_champion", "on_death": "units.kill",
    "kill_champion": "units.kill", "champion_dies": "units.kill",
    "battle_start": "combat.battle", "battle_won": "combat._end_battle",
    "battle_end": "combat._end_battle", "battle_entered": "movement.do_move",
    "others_battle": "combat.battle", "enemy_enters_capital": "movement._crossed",
    "enemy_crosses_bridge": "movement._crossed", "round_start": "phases.reset_phase",
    "round_end": "phases.cleanup_phase", "card_drawn": "cards.draw",
    "card_discarded": "cards.discard_card", "activated": "actions._activate",
}


class Game(CardsMixin, UnitsMixin, MoveMixin, CombatMixin, PhasesMixin, MarketMixin,
           ActionsMixin, DeclareMixin, ViewsMixin):
    """One game in progress. Create with `setup.new_game`."""

    def __init__(self, rules, state, opt: Options, rng: random.Random, agents, log=None,
                 check=None):
        self.rules, self.s, self.opt, self.rng = rules, state, opt, rng
        self.agents = agents
        self.hooks = Hooks()
        self.events: list[dict] | None = log
        self.check = check            # invariant callback(game, where) for tests
        self.decisions = 0
        # effect steps this game may run, and may still run (Step.run)
        self.step_budget = self.steps_left = core.STEP_BUDGET
        self.battle_seq = 0
        self.tally = [0] * 6  # dice faces of the side rolling now (combat, for the log)
        self.last_battle_rounds = 0
        self.dirty: dict[int, int] = {}   # hex -> last seat to enter (for §12.7)
        self.stats = {"played": {}, "fizzled": {}, "resolved": {}}
        self.index = Index()  # every cache of derived facts (engine/index.py)
        self.pending: set[int] = set()  # cards chosen this Action Step, not yet revealed
        self.trace: list[int] = []  # every decision's index, in order (search re-runs it)
        self.origin: tuple | None = None  # (players, seed, factions, options) of setup
        self.views: dict[int, SeatView] = {}  # seat -> what its agent is shown
        self.on_step = None  # called with the game as each Action Step starts (search forks)
        self.on_auction = None  # ... and as each market card's auction starts (state_api)
        self.stop_round = 0  # a search's world ends after this round (0: play to the end)
        self.on_round = None  # called with the game as each round starts (state_api snapshots)
        # cards a seat gained from a supply deck unseen by the others (a random or chosen
        # gain into its hand or pile): card -> (seat, deck); dropped once the card leaves
        # that seat's hand and draw pile (it was shown). resample deals them again.
        self.unseen: dict[int, tuple[int, str]] = {}

    # ---- decisions and log -------------------------------------------------------------
    def decide(self, p: int, kind: str, options: list, ctx=None):
        """Ask seat p's agent to pick one of `options`; log it; return the option."""
        if not options:
            raise ValueError(f"no options for decision {kind!r} of seat {p}")
        self.decisions += 1
        if self.unseen:
            self.prune_unseen()
        i = self.ask(self.agents[p], p, kind, options, ctx)
        if not 0 <= i < len(options):
            raise ValueError(f"agent {p} chose {i} of {len(options)} for {kind}")
        self.trace.append(i)
        if self.events is not None:
            self.events.append({"e": "decide", "p": p, "kind": kind, "n": len(options),
                                "i": i})
        return options[i]

    def prune_unseen(self) -> None:
        """Forget the unseen gains that left their seat's hand and draw pile (shown)."""
        players = self.s.players
        for iid, (q, _deck) in list(self.unseen.items()):
            pl = players[q]
            if iid not in pl.hand and iid not in pl.draw:
                del self.unseen[iid]

    def ask(self, agent, p: int, kind: str, options: list, ctx=None) -> int:
        """The index `agent` picks for seat p: shown the seat's view (engine/seatview.py),
        or the game itself if it is an engine harness (`sees = "game"`)."""
        if getattr(agent, "sees", "seat") == "game":
            return agent.choose(self, p, kind, options, ctx)
        return agent.choose(self.seat_view(p).refresh(kind, options), p, kind, options,
                            ask_view(ctx))

    def seat_view(self, p: int) -> SeatView:
        """The read-only view of this game that seat p's agent is given (engine/seatview)."""
        view = self.views.get(p)
        if view is None:
            view = self.views[p] = SeatView(self, p)
        return view

    @property
    def whole_plays(self) -> list[bool]:
        """Which seats' agents are offered whole card plays (docs/decisions.md)."""
        return [bool(getattr(a, "whole_plays", False)) for a in self.agents]

    def card_targets(self, p: int, inst) -> list:
        """The candidates of the first chosen target of seat p's card `inst`, looked ahead
        as if declared now ([] if it chooses none)."""
        st = next((x for x in inst.defn.effect if x.targets is not None), None)
        return [] if st is None else list(st.targets(self.probe(p, inst)))

    def log(self, e: str, **data) -> None:
        """Append one event to the JSON-lines log (if logging)."""
        if self.events is not None:
            data["e"] = e
            self.events.append(data)

    def checkpoint(self, where: str) -> None:
        """Run the invariant callback (tests) after a step of the game."""
        if self.check is not None:
            self.check(self, where)

    def probe(self, p: int, inst):
        """The dry, declaring context of a card's target look-ahead (one per game, reset
        here: a look-ahead runs to its end before the next one starts)."""
        ctx = self.index.probe
        if ctx is None:
            ctx = self.index.probe = Ctx(self, p, inst, locks={}, declaring=True, dry=True)
            ctx.quick = True
        ctx.p, ctx.inst = p, inst
        return ctx

    # ---- queries used by selectors -------------------------------------------------------
    def capital_has_enemy(self, p: int) -> bool:
        """Does seat p's Capital contain enemy units."""
        return any(o != p for o in self.s.occupants(self.s.players[p].capital))

    def deploy_anchors(self, p: int) -> list[int]:
        """Hexes seat p may deploy into as if they were its Capital (§20.1, deploy_anchor)."""
        out = [self.s.players[p].capital]
        for act in self.hooks.mods.get("deploy_anchor", ()):
            if act.owner != p:
                continue
            ctx = act.ctx(self)
            if act.mod.when(ctx):
                out.extend(h for h in act.mod.hexsel.candidates(ctx) if h not in out)
        return out

    def mod_owners(self, kinds: tuple[str, ...]) -> frozenset:
        """Seats owning an active modifier of one of these kinds (kept in the index per
        version of the hooks)."""
        got = self.index.owners.get(kinds)
        if got is not None and got[0] == self.hooks.ver:
            return got[1]
        mods = self.hooks.mods
        owners = frozenset(a.owner for k in kinds for a in mods.get(k, ()))
        self.index.owners[kinds] = (self.hooks.ver, owners)
        return owners

    def untargetable(self, champ, ctx) -> bool:
        """Is this Champion protected from the card running in ctx (enemy card types)."""
        src = ctx.source_type
        if src is None or ctx.p == champ.owner:
            return False
        for act in self.hooks.of("untargetable"):
            if (act.owner == champ.owner and src in act.mod.params["by"]
                    and self.unit_matches(act, champ, is_force=False)):
                return True
        return False

    def unit_matches(self, act, champ, is_force: bool, side_owner: int | None = None) -> bool:
        """Does a modifier's `units` cover this unit (champ None for a Force)."""
        units = act.mod.units or "all"
        owner = side_owner if champ is None else champ.owner
        if units == "target":  # a chosen Champion, friendly or enemy (e.g. Slow)
            return not is_force and act.refs.get(act.target) is champ
        if units.startswith("enemy_"):
            if owner == act.owner:
                return False
            return (units == "enemy_forces") == is_force
        if owner != act.owner:
            return False
        if units == "all":
            return True
        if units == "forces":
            return is_force
        if units == "champions":
            return not is_force
        if units == "this":
            return not is_force and champ is act.champ
        return False

    # ---- triggers ----------------------------------------------------------------------
    def fire(self, event: str, info: dict, only: set[int] | None = None) -> None:
        """Run every active trigger for `event` whose scope and condition match."""
        if not self.hooks.trigs.get(event):
            return
        for act in self.hooks.on(event):
            if only is not None and act.owner not in only:
                continue
            if not self._trigger_scope(act, event, info):
                continue
            battle = info.get("battle")
            if not act.limit_ok(self, battle, reuse=False):
                continue
            ctx = act.ctx(self, battle, info)
            if not act.cond(ctx) or not self._would_act(act, ctx):
                continue
            act.mark_used(self, battle)
            self.log("trigger", ev=event, p=act.owner,
                     src=act.ability.name if act.ability else getattr(
                         act.inst.defn, "id", "") if act.inst else "")
            self.run_steps(act.steps, ctx)
            if act.limit == "once" and act.duration != "permanent":
                self.hooks.remove_where(lambda a, act=act: a is act)

    @staticmethod
    def _would_act(act, ctx) -> bool:
        """A limited trigger whose first step has no legal target does nothing, so it
        is not used up ("(1/round)" reading in docs/rules-options.md)."""
        if act.limit == "unlimited" or not act.steps:
            return True
        first = act.steps[0]
        exists = getattr(first, "exists", None) if getattr(first, "may_fail", False) else None
        return exists is None or exists(ctx)

    def _trigger_scope(self, act, event: str, info: dict) -> bool:
        p, champ = act.owner, act.champ
        if event in EVENT_CHAMP:
            return champ is not None and info.get("champ") is champ
        tgt = act.refs.get(act.target) if act.target else None
        if tgt is not None and not self._target_matches(tgt, info):
            return False
        if event == "kill_champion":
            if champ is not None:
                return info.get("killer_champ") is champ
            return info.get("killer") == p
        if event in ("battle_start", "battle_won", "battle_end"):
            sides = info.get("sides", ())
            if event == "battle_won" and info.get("winner") != p:
                return False
            if champ is not None:
                return champ in info.get("champs", ())
            return p in sides
        if event == "others_battle":
            return p not in info.get("sides", ())
        if event == "battle_entered":
            return info.get("mover") == p
        if event == "enemy_enters_capital":
            return info.get("owner") == p and info.get("mover") != p
        if event == "enemy_crosses_bridge":
            return info.get("mover") != p
        if event in ("round_start", "round_end"):
            return info.get("player") == p
        return True

    def _target_matches(self, tgt, info: dict) -> bool:
        if hasattr(tgt, "cid"):
            return tgt is info.get("champ") or tgt in info.get("champs", ())
        if "edge" in info:
            return tgt == info["edge"]
        return tgt == info.get("hex")

    def run_steps(self, steps, ctx) -> bool:
        """Run compiled steps; returns False if they fizzled."""
        try:
            for st in steps:
                st.run(ctx)
        except Fizzle as exc:
            self.log("fizzle", p=ctx.p, why=str(exc))
            return False
        except NoTarget:
            return False
        return True
