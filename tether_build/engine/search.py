"""The search agent: single-observer information-set Monte Carlo tree search (SO-ISMCTS,
Cowling, Powley and Whitehouse 2012) on the state API (engine/state_api.py), open-loop over
the other seats' moves. Its parameters are one `Params` (the native search mirrors them).

The searching seat `p` is asked a decision (any kind in `Params.kinds` with two options or
more: the Action Step choice, where a card and its locked targets are one option, a bid, a
target, a move...). The agent is given `p`'s SeatView only; the engine deals it worlds
(`SeatView.deal` -> `TetherState.resample_from_infostate`), never the true state.

The tree. A node is a sequence of `p`'s own answers (by their state-API action ids, the same
in every world) since the searched decision; edges are `p`'s action ids. A node keeps its
visits `n`, the sum of its results `w`, and per action id: the prior `P(a)`, how often it was
available `avail(a)` (the node's visits in whose world `a` was legal) and its child.

One iteration (`Params.iterations` of them per searched decision of 2 players, `iterations`
for more; seeded: the same seed gives the same tree and the same choice; a time cap, off by
default, may stop early). Its numbers come from the agent's `rng`: a 64-bit seed for each
seat's opponent model, one for its own rollout heuristic, then the deal's seed. The native
search (engine/native/search.cpp) draws and deals the same way: on the same observation and
stream both grow the same tree (tests/engine/test_search_reference.py).

1. Determinization: `world = view.deal(sampler, policy)`: a copy of the game in which what `p`
   cannot see (other hands and draw piles, cards gained unseen, other seats' hidden
   Permanence, every draw order, the supply decks, the dice stream) is dealt again from what
   `p` knows; at an Action Step choice the seats that chose before `p` in this step choose
   again in the dealt world by the opponent model (4). The world waits at the searched
   decision with `p`'s information state unchanged.
2. Selection, at each decision of `p` in the world with two options or more and a kind in
   `Params.kinds`, while the iteration is in the tree: every legal action's `avail` rises
   by 1; the action maximising PUCT with availability,
       Q(a) + c * P(a) * sqrt(avail(a)) / (1 + n(a)),
   is applied, with `Q(a) = w(a)/n(a)`, or for an unvisited action the node's mean (0.5 at a
   node not yet visited: first-play urgency), `c = Params.explore`. Ties: the first in the
   engine's option order. `P` is the softmax, at temperature `Params.prior_temp`, of the
   heuristic's scores (agents.HeuristicAgent's `_<kind>`, seen through `p`'s SeatView of the
   world) over the options, set when the node first sees the action (an action first seen in
   a later world gets its prior from that world's softmax).
3. Expansion: the first action chosen that has no child gets one; the iteration leaves the
   tree: every later decision of `p` is the heuristic's (greedy). With `Params.tree_depth`
   the walk also leaves the tree at a node that deep (1: only the root's options are
   chosen by PUCT, the rest of the world is the heuristic's, as the flat search's arms).
4. Other seats, at every decision: the opponent model, the heuristic with noise: with
   probability `Params.noise` a uniformly random option, else the heuristic's choice; each a
   fresh heuristic seeded from the search's stream (it is not the agent it faces: that one
   has its own seed and plays greedily). Every agent in a world is shown its seat's
   SeatView of the world, as in a game.
5. The world is played to the end of round `round + Params.horizon` (or of the game: the
   world's `Game.stop_round`), then scored for `p` in [0, 1]: a win 1 (a shared win 1/k), a
   loss 0, else 0.5 plus half p's lead in VP (Permanent + Control) over the best other seat,
   times `Params.gain`, over the VP to win, clamped.
   The result is added to `n` and `w` of every node on the path and of the root.

The answer is the root's most visited action (ties: the higher mean, then the option order).
The root's visits per option are the "why" the Play page shows (`SearchAgent.why`). A
decision with one option, of a kind not searched, or in a game that does not run as a state
is the heuristic's.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass

from . import weights as W
from .agents import Agent, HeuristicAgent
from .seatview import ask_view
from .state_api import option_ids

# the decision kinds searched: those whose choice matters (not set-up, not card picks the
# heuristic ranks by a card's value alone)
KINDS = ("action", "bid", "mine", "forge", "move", "hex", "bridge", "champion", "player",
         "option", "assign_hit")


@dataclass(frozen=True)
class Params:
    """Every parameter of the search (the native search mirrors these)."""

    iterations: int = 48       # iterations (worlds) per searched decision of 2 players
    scale: bool = True         # more players: iterations * 2 // players (at least 8)
    explore: float = 2.0       # PUCT exploration constant c (results are in [0, 1]; the
    #                            native search's, tuned there: 2.0 beat 0.8)
    prior_temp: float = 2.0    # softmax temperature over the heuristic's scores (the prior)
    gain: float = 1.0          # a world judged at the horizon: 0.5 + 0.5 * gain * VP lead / goal
    noise: float = 0.15        # opponent model: probability of a uniformly random option
    horizon: int = 1           # rounds played after the current one before scoring
    kinds: tuple = KINDS       # decision kinds searched (others: the heuristic)
    same_worlds: bool = False  # every root option is played in the same worlds: the root's
    #                            option is chosen before the iteration, and the k-th visit
    #                            of an option plays the k-th world of the decision's list
    #                            (streams drawn once, `iterations` of them, in the usual order)
    tree_depth: int = 0        # the tree's depth at most (0: no limit): a walk at a node
    #                            this deep leaves the tree, the seat's later decisions the
    #                            heuristic's (1: the root's options only, one level of arms)
    time_cap: float | None = None  # seconds per searched decision (None: iterations only)


ITERATIONS = Params.iterations  # (the default budget, as before)


class Node:
    """The seat's answers so far in an iteration; statistics of the results below."""

    __slots__ = ("avail", "children", "n", "prior", "w")

    def __init__(self):
        self.children: dict[int, Node] = {}  # action id -> Node
        self.prior: dict[int, float] = {}    # action id -> P(a)
        self.avail: dict[int, int] = {}      # action id -> visits in which it was legal
        self.n = 0                           # visits
        self.w = 0.0                         # sum of results

    def depth(self) -> int:
        """Levels of the tree from this node (a leaf: 1)."""
        return 1 + max((c.depth() for c in self.children.values()), default=0)

    def size(self) -> int:
        """Nodes in the tree from this node."""
        return 1 + sum(c.size() for c in self.children.values())

    def visits_at(self, depth: int) -> int:
        """The visits of the nodes `depth` levels below this one (children: 1)."""
        if depth == 0:
            return self.n
        return sum(c.visits_at(depth - 1) for c in self.children.values())


def iterations(prm: Params, players: int) -> int:
    """The iterations of a searched decision: a world of more players takes longer, so
    `iterations * 2 // players` of them (at least 8) when `prm.scale` (native: sims)."""
    if prm.scale and players > 2:
        return max(8, prm.iterations * 2 // players)
    return prm.iterations


def score(g, seat: int, gain: float = 1.0) -> float:
    """A world's result for the seat, in [0, 1] (see the module docstring, step 5)."""
    s = g.s
    if s.winner:
        return 1.0 / len(s.winner) if seat in s.winner else 0.0
    vp = [pl.pvp + g.control_vp(pl.seat) for pl in s.players]
    best_other = max(v for q, v in enumerate(vp) if q != seat)
    goal = g.rules.game["victory"]["vp_to_win"]
    return min(1.0, max(0.0, 0.5 + 0.5 * gain * (vp[seat] - best_other) / goal))


def heuristic_scores(h: HeuristicAgent, view, p: int, kind: str, options: list,
                     ctx) -> list[float]:
    """The heuristic's score of every option (a skip of a "may" target: W.SKIP)."""
    fn = getattr(h, "_" + kind, None) or h._default
    skip = kind in ("hex", "champion", "bridge", "may")
    return [W.SKIP if o is None and skip else float(fn(view, p, o, ctx)) for o in options]


def softmax(values: list[float], temp: float) -> list[float]:
    """exp(v / temp), normalised (a uniform list for temp <= 0 or no spread)."""
    if not values:
        return []
    top = max(values)
    if temp <= 0:
        return [1.0 / len(values)] * len(values)
    e = [math.exp((v - top) / temp) for v in values]
    total = sum(e)
    return [x / total for x in e]


class NoisyHeuristic(HeuristicAgent):
    """The opponent model: the heuristic, or with probability `noise` a random option."""

    name = "noisy-heuristic"

    def __init__(self, noise: float):
        self.noise = noise

    def choose(self, g, p, kind, options, ctx=None) -> int:
        """A random option with probability `noise`, else the heuristic's."""
        if len(options) > 1 and self.rng.random() < self.noise:
            return int(self.rng.random() * len(options))
        return super().choose(g, p, kind, options, ctx)


class _Iteration:
    """One iteration's agents: the opponent model's per seat, the seat's own rollout."""

    def __init__(self, search: SearchAgent, players: int, seeds: list | None = None):
        bits = search.rng.getrandbits
        seeds = seeds or [bits(64) for _ in range(players + 1)]
        self.models = [NoisyHeuristic(search.params.noise) for _ in range(players)]
        for m, s in zip(self.models, seeds):
            m.seed(s)
        self.own = HeuristicAgent()
        self.own.seed(seeds[players])

    def other(self, w) -> int:
        """A seat other than the searcher's answers in world w (the opponent model)."""
        q, kind, options, ctx = w.asked()
        return w.game.ask(self.models[q], q, kind, options, ctx)


class SearchAgent(Agent):
    """SO-ISMCTS on the state API at the decisions of `Params.kinds` (module docstring)."""

    name = "search"
    whole_plays = True  # a card is searched together with its targets

    def __init__(self, iterations: int | None = None, params: Params | None = None,
                 time_cap: float | None = None, **kw):
        base = params or Params()
        if iterations is not None:
            kw["iterations"] = iterations
        if time_cap is not None:
            kw["time_cap"] = time_cap
        self.params = Params(**{**base.__dict__, **kw})
        self.heuristic = HeuristicAgent()
        self.root: Node | None = None      # the last search's tree
        self.root_ids: list[int] = []      # its decision's action ids (option order)
        self.stats = {"decisions": 0, "searches": 0, "iterations": 0, "seconds": 0.0,
                      "cpu": 0.0, "capped": 0, "depth": 0, "nodes": 0, "kinds": {}}

    def seed(self, value: int) -> None:
        """Seed the agent and its heuristic."""
        super().seed(value)
        self.heuristic.seed(self.rng.getrandbits(64))

    def choose(self, g, p, kind, options, ctx=None) -> int:
        """Search the decision if it is of a searched kind; else the heuristic's."""
        self.stats["decisions"] += 1
        self.root = None
        if (kind not in self.params.kinds or len(options) < 2
                or not getattr(g, "can_deal", False)):
            return self.heuristic.choose(g, p, kind, options, ctx)
        t0, c0 = time.perf_counter(), time.process_time()
        ids = option_ids(kind, options)
        root = self.search(g, p, (kind, options, ctx, ids))
        self.root, self.root_ids = root, ids
        ranked = sorted(((c.n, c.w / c.n, -ids.index(a)) for a, c in root.children.items()
                         if c.n and a in ids), reverse=True)
        if ranked:
            pick = -ranked[0][2]
        else:  # no iteration ran (time cap)
            pick = self.heuristic.choose(g, p, kind, options, ctx)
        st = self.stats
        st["searches"] += 1
        st["kinds"][kind] = st["kinds"].get(kind, 0) + 1
        st["seconds"] += time.perf_counter() - t0
        st["cpu"] += time.process_time() - c0
        st["depth"] = max(st["depth"], root.depth())
        st["nodes"] += root.size()
        return pick

    def why(self, kind: str, options: list) -> list[tuple[int, int]] | None:
        """The last search's root visits as (visits, option index), in the order the
        choice ranks them (most visits, then the better mean, then the option order), if
        its last decision was searched and had these options; else None."""
        root = self.root
        if root is None or option_ids(kind, options) != self.root_ids:
            return None
        rows = [(c.n, c.w / c.n if c.n else 0.0, self.root_ids.index(a))
                for a, c in root.children.items() if a in self.root_ids]
        return [(n, i) for n, _m, i in sorted(rows, key=lambda r: (-r[0], -r[1], r[2]))]

    def search(self, view, p: int, decision: tuple | None = None) -> Node:
        """Grow a tree for seat p's current decision (`view`: its SeatView; `decision`:
        its (kind, options, ctx, action ids), needed with `same_worlds`); its root."""
        prm = self.params
        t0 = time.perf_counter()
        root = Node()
        horizon = view.s.round + prm.horizon
        players = len(view.s.players)
        count = iterations(prm, players)
        worlds: list = []
        if prm.same_worlds:   # the worlds' draws, made once; the root's priors from the view
            bits = self.rng.getrandbits
            for _ in range(count):
                seeds = [bits(64) for _ in range(players + 1)]
                worlds.append((seeds, self.rng.random()))
            kind, options, ctx, ids = decision
            self._priors(root, ids, view, p, kind, options, ctx)
        for _ in range(count):
            if prm.time_cap is not None and time.perf_counter() - t0 > prm.time_cap:
                self.stats["capped"] += 1
                break
            forced = None
            if prm.same_worlds:   # the option first, then the next world of that option
                pick, child = self._puct(root, ids)
                forced = ids[pick]
                seeds, deal = worlds[child.n % len(worlds)]
                it = _Iteration(self, players, seeds)
                world = view.deal(lambda d=deal: d, it.other)
            else:
                it = _Iteration(self, players)
                world = view.deal(self.rng.random, it.other)
            world.game.stop_round = horizon   # judged as round `horizon` ends
            result = self._iterate(world, root, p, horizon, it, forced)
            root.n += 1
            root.w += result
            self.stats["iterations"] += 1
        return root

    def _iterate(self, w, root: Node, p: int, horizon: int, it: _Iteration,
                 forced: int | None = None) -> float:
        """Play one world from the searched decision (`forced`: the root's option, chosen
        already); back up its result; return it."""
        prm = self.params
        node: Node | None = root
        path: list[Node] = []
        kinds = prm.kinds
        while not w.is_terminal() and w.game.s.round <= horizon:
            q, kind, options, ctx = w.asked()
            if q != p:
                w.apply_index(it.other(w))
            elif node is not None and kind in kinds and len(options) > 1:
                if prm.tree_depth and len(path) >= prm.tree_depth:
                    node = None   # as deep as the tree goes: the rollout from here
                    w.apply_index(w.game.ask(it.own, q, kind, options, ctx))
                    continue
                ids = w.action_ids()
                if node is root and forced in ids:
                    i, node = ids.index(forced), root.children[forced]
                else:
                    i, node = self._select(w, node, p, kind, options, ctx)
                if node is not None:
                    path.append(node)
                    if node.n == 0:   # just expanded: the rollout from here
                        node = None
                w.apply_index(i)
            else:
                w.apply_index(w.game.ask(it.own, q, kind, options, ctx))
        result = score(w.game, p, prm.gain)
        for nd in path:
            nd.n += 1
            nd.w += result
        return result

    def _select(self, w, node: Node, p: int, kind: str, options: list, ctx):
        """PUCT with availability at `node` (module docstring, steps 2-3): the option index
        and its child (a new child for an action not tried yet)."""
        ids = w.action_ids()
        self._priors(node, ids, w.game.seat_view(p), p, kind, options, ask_view(ctx))
        return self._puct(node, ids)

    def _priors(self, node: Node, ids: list, view, p: int, kind: str, options: list, ctx):
        """The node's priors for these actions, if any is new: the softmax of the
        heuristic's scores seen through `view` (the seat's SeatView; `ctx` as an agent is
        given it)."""
        if any(a not in node.prior for a in ids):
            view = view.refresh(kind, options)
            probs = softmax(heuristic_scores(self.heuristic, view, p, kind, options, ctx),
                            self.params.prior_temp)
            for a, pr in zip(ids, probs):
                node.prior.setdefault(a, pr)

    def _puct(self, node: Node, ids: list):
        """PUCT with availability over these actions (each one's `avail` rises): the
        index of the chosen one and its child (made if new)."""
        prm = self.params
        fpu = node.w / node.n if node.n else 0.5
        best, pick = None, 0
        avail, kids, c = node.avail, node.children, prm.explore
        for i, a in enumerate(ids):
            k = avail[a] = avail.get(a, 0) + 1
            child = kids.get(a)
            if child is None or child.n == 0:
                v = fpu + c * node.prior[a] * math.sqrt(k)
            else:
                v = child.w / child.n + c * node.prior[a] * math.sqrt(k) / (1 + child.n)
            if best is None or v > best:
                best, pick = v, i
        a = ids[pick]
        child = kids.get(a)
        if child is None:
            child = kids[a] = Node()
        return pick, child

