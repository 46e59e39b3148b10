"""The search agent: open-loop information-set Monte Carlo tree search (SO-ISMCTS, Cowling,
Powley and Whitehouse 2012) over the seat's own Action Step choices.

A tree node is the sequence of the seat's own Action Step choices since the searched one
(each by a key that is the same in every dealt world: `fork.option_key`), so one node
gathers the results of every world in which the seat chose that way. One iteration:

1. a world dealt for the seat (`SeatView.fork`, engine/fork.py): the engine re-runs the game
   to the start of the searched Action Step, where everything the seat cannot know is dealt again
   (other seats' hands, draw piles and Permanent VP, its own draw order, the supply decks,
   the dice); every seat then chooses that step again in the dealt world;
2. selection: at each of the seat's Action Step choices the tree knows, the child with the
   best availability UCB (`mean + c * sqrt(ln(available) / visits)`, where `available`
   counts the visits of the parent in which that choice was legal); a node offers the
   heuristic's best few choices, more as it is visited (progressive widening);
3. expansion: the first offered choice with no node yet gets one;
4. rollout: every other decision, and the seat's decisions below the new node, are the
   heuristic's, to the end of the next round (or of the game); each heuristic (and the one
   ranking a node's choices) sees its seat's `SeatView` of the dealt world, as in a game;
5. backpropagation: the fork's score for the seat (a win 1, a loss 0, else 0.5 plus its lead
   in Permanence over the best other seat, scaled) is added along the path.

The agent answers with the root's most visited choice. It is deterministic for a seed:
iterations, not the clock, set the work; a time budget (off by default) stops early and is
counted in `stats`. Every other kind of decision is the heuristic's.
"""

from __future__ import annotations

import math
import time

from .agents import Agent, HeuristicAgent
from .fork import option_key
from .seatview import SeatView, ask_view

ITERATIONS = 48  # default budget per searched decision
WIDTH = 5        # most choices a node offers (the heuristic's best)
HORIZON = 1      # rounds played on after the current one
EXPLORE = 0.7    # UCB exploration constant (scores are in [0, 1])


class Node:
    """The seat's choices so far in an iteration; statistics of the results below."""

    __slots__ = ("avail", "children", "n", "order", "w")

    def __init__(self):
        self.children: dict = {}   # option key -> Node
        self.order: list | None = None  # the keys offered, best first (heuristic)
        self.n = 0                 # visits
        self.w = 0.0               # sum of scores
        self.avail = 1             # parent visits in which this choice was legal

    def depth(self) -> int:
        """Levels of the tree from this node (a leaf: 1)."""
        return 1 + max((c.depth() for c in self.children.values()), default=0)

    def size(self) -> int:
        """Nodes in the tree from this node."""
        return 1 + sum(c.size() for c in self.children.values())


def widened(n: int, width: int) -> int:
    """How many of its best choices a node visited n times offers."""
    return min(width, 1 + int(math.sqrt(n)))


def score(g, seat: int) -> float:
    """A fork's result for the seat, in [0, 1]."""
    s = g.s
    if s.winner:
        return 1.0 / len(s.winner) if seat in s.winner else 0.0
    vp = [pl.pvp + g.control_vp(pl.seat) for pl in s.players]
    best_other = max(v for q, v in enumerate(vp) if q != seat)
    goal = g.rules.game["victory"]["vp_to_win"]
    return min(1.0, max(0.0, 0.5 + 0.5 * (vp[seat] - best_other) / goal))


def ranked(h, g, p: int, options: list, where: dict, width: int) -> list:
    """The keys of heuristic h's best `width` Action Step choices, best first."""
    best = sorted(where.items(), key=lambda ki: (-h._action(g, p, options[ki[1]], None), ki[1]))
    return [k for k, _ in best[:width]]


class _Walk:
    """One iteration's policy inside its fork: down the tree at the seat's Action Step
    choices until a node is added, the heuristic everywhere else."""

    def __init__(self, agent: SearchAgent, root: Node, seat: int, seed_of):
        self.agent, self.node, self.seat = agent, root, seat
        self.path = [root]
        self.seed_of = seed_of
        self.rollout: list | None = None

    def __call__(self, g, p, kind, options, ctx) -> int:
        """Answer one decision of the fork."""
        if self.rollout is None:  # fresh agents: a heuristic's memos never cross forks
            self.rollout = [HeuristicAgent() for _ in g.s.players]
            for a in self.rollout:
                a.seed(self.seed_of())
        # every agent in a fork sees what its seat may know of the dealt world, as in a game
        view = g.seat_view(p).refresh(kind, options)
        if self.node is not None and p == self.seat and kind == "action" and len(options) > 1:
            return self._tree(view, p, options)
        return self.rollout[p].choose(view, p, kind, options, ask_view(ctx))

    def _tree(self, g, p, options) -> int:
        node, agent = self.node, self.agent
        where: dict = {}
        for i, o in enumerate(options):
            where.setdefault(option_key(o), i)
        if node.order is None:
            node.order = ranked(self.rollout[p], g, p, options, where, agent.width)
        offered = [k for k in node.order if k in where][:widened(node.n, agent.width)]
        if not offered:  # none of the node's choices exists in this world
            self.node = None
            return self.rollout[p].choose(g, p, "action", options, None)
        kids = node.children
        for k in offered:
            if k in kids:
                kids[k].avail += 1
        new = next((k for k in offered if k not in kids), None)
        if new is not None:
            child = kids[new] = Node()
            self.path.append(child)
            self.node = None  # below a new node: the rollout
            return where[new]
        ln = math.log

        def ucb(k):
            c = kids[k]
            return c.w / c.n + EXPLORE * math.sqrt(ln(c.avail) / c.n)

        best = max(offered, key=ucb)
        self.node = kids[best]
        self.path.append(self.node)
        return where[best]


def _view(g, p: int) -> SeatView:
    """The seat's view (a test harness may hand the search the game itself)."""
    return g if isinstance(g, SeatView) else g.seat_view(p)


class SearchAgent(Agent):
    """Information-set MCTS at Action Step decisions; the heuristic elsewhere."""

    name = "search"
    whole_plays = True  # a card is searched together with its targets

    def __init__(self, iterations: int = ITERATIONS, width: int = WIDTH,
                 horizon: int = HORIZON, time_cap: float | None = None):
        self.iterations, self.width, self.horizon = iterations, width, horizon
        self.time_cap = time_cap
        self.heuristic = HeuristicAgent()
        self.root: Node | None = None  # the last search's tree
        self.stats = {"decisions": 0, "searches": 0, "iterations": 0, "seconds": 0.0,
                      "cpu": 0.0, "capped": 0, "depth": 0, "nodes": 0}

    def seed(self, value: int) -> None:
        """Seed the agent and its heuristic."""
        super().seed(value)
        self.heuristic.seed(self.rng.getrandbits(64))

    def choose(self, g, p, kind, options, ctx=None) -> int:
        """Search the Action Step choice; defer every other decision to the heuristic."""
        self.stats["decisions"] += 1
        if kind != "action" or len(options) < 2 or not _view(g, p).can_fork:
            return self.heuristic.choose(g, p, kind, options, ctx)
        t0, c0 = time.perf_counter(), time.process_time()
        root = self.root = self.search(g, p)
        keys = [option_key(o) for o in options]
        visited = [(c.n, c.w / c.n, k) for k, c in root.children.items() if c.n and k in keys]
        if visited:
            pick = keys.index(max(visited, key=lambda v: v[:2])[2])
        else:  # no iteration ran (time budget)
            pick = self.heuristic.choose(g, p, kind, options, ctx)
        st = self.stats
        st["searches"] += 1
        st["seconds"] += time.perf_counter() - t0
        st["cpu"] += time.process_time() - c0
        st["depth"] = max(st["depth"], root.depth())
        st["nodes"] += root.size()
        return pick

    def search(self, g, p: int) -> Node:
        """Grow a tree for seat p's current Action Step decision; returns its root."""
        t0 = time.perf_counter()
        root = Node()
        view = _view(g, p)
        deal = view.fork_step()
        horizon = g.s.round + self.horizon
        bits = self.rng.getrandbits
        for _ in range(self.iterations):
            if self.time_cap is not None and time.perf_counter() - t0 > self.time_cap:
                self.stats["capped"] += 1
                break
            walk = _Walk(self, root, p, lambda: bits(64))
            f = view.fork(deal, bits(64), horizon, walk)
            result = score(f, p)
            for node in walk.path:
                node.n += 1
                node.w += result
            self.stats["iterations"] += 1
        return root
