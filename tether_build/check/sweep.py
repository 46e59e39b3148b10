"""The sweep: seeded whole games, 2-6 players, every faction, random and heuristic agents.

Per card it counts how often it was offered (Market row or a draft), bought (won with a
buy bid), picked (taken from a draft), playable (among a player's legal actions), played, resolved, fizzled and
errored. An engine error in a game is a failure naming the card being resolved; a card
never playable in any game is reported as dead (a warning: chance may be the reason).

The native engine plays the games (engine/native: the same games, and the same counts, which
its Book keeps). Every INVARIANT_EVERY-th game, some of each player count, checks the rules
invariants after each step (engine/invariants.py; the native engine's invariants.cpp makes the
same checks). A game the native engine declines (an engine error, a broken invariant) is played
again in Python, which reports the error or the broken invariant with the card being resolved;
without the native engine, Python plays every game. A game past its step budget
(core.StepBudget, a card without end) is reported from the native engine's words, which are the
Python engine's, without playing its million steps again.
"""

from __future__ import annotations

import os
import re
import traceback
from collections import Counter
from collections.abc import Callable

from ..engine.agents import HeuristicAgent, RandomAgent
from ..engine.invariants import Checker
from ..engine.play import play_game
from ..engine.ruleset import Ruleset
from ..forking import fork_pool
from .model import Failure

INVARIANT_EVERY = 10  # every 10th game checks the rules invariants after each step
PLAYER_COUNTS = 5     # game k seats 2 + k % 5 players
WORKERS: int | None = None   # processes for the games (None: one per core)
GAMES_PER_WORKER = 10        # fewer games are not worth a fork (the Python engine's)
NATIVE_GAMES_PER_WORKER = 400  # the same, natively, beside other work (see _workers)
DRAFTS = ("free_card", "forge_draft", "mine_draft", "power_pick")
FIELDS = ("offered", "bought", "picked", "playable", "played", "resolved", "fizzled",
          "errored")


class Book:
    """Counts of one sweep."""

    def __init__(self):
        self.n = {f: Counter() for f in FIELDS}
        self.seen: set = set()
        self.game = 0

    def see(self, g, kind: str, options: list, ctx, pick) -> None:
        """Note what a decision shows about the cards."""
        cards = g.s.cards
        if kind == "action":
            for opt in {cards[o[1]].defn.id for o in options if o[0] == "card"}:
                self.n["playable"][opt] += 1
        elif kind == "bid":
            cid = cards[ctx["card"]].defn.id
            self._once("offered", cid, ctx["card"])
            if pick[0] == "buy":
                self._once("bought", cid, ctx["card"])
        elif kind in DRAFTS:
            for iid in options:
                if iid is not None:
                    self._once("offered", cards[iid].defn.id, iid)
            if pick is not None:
                self._once("picked", cards[pick].defn.id, pick)

    def _once(self, field: str, card: str, iid: int) -> None:
        key = (field, self.game, iid)
        if key not in self.seen:
            self.seen.add(key)
            self.n[field][card] += 1


class Watch:
    """An agent that lets the Book see each decision it makes. An engine harness: the
    Book reads the live game, the wrapped agent is shown what its seat may know."""

    sees = "game"

    def __init__(self, inner, book: Book):
        self.inner, self.book, self.name = inner, book, inner.name

    def seed(self, value: int) -> None:
        """Seed the wrapped agent."""
        self.inner.seed(value)

    def choose(self, g, p, kind, options, ctx=None) -> int:
        """The wrapped agent's choice."""
        i = g.ask(self.inner, p, kind, options, ctx)
        self.book.see(g, kind, options, ctx, options[i])
        return i


def culprit(exc: BaseException) -> str | None:
    """The card (or ability) being resolved when an error was raised, from the traceback."""
    found = None
    for frame, _ in traceback.walk_tb(exc.__traceback__):
        loc = frame.f_locals
        for name in ("inst", "ctx", "act", "plan"):
            v = loc.get(name)
            v = v.get("inst") if isinstance(v, dict) else v
            inst = getattr(v, "inst", v)
            defn = getattr(inst, "defn", None)
            if defn is not None and hasattr(defn, "id"):
                found = defn.id
            elif getattr(v, "ability", None) is not None and getattr(v, "champ", None):
                found = v.champ.defn.id
            elif getattr(v, "ability", None) is not None and hasattr(loc.get("self"), "s"):
                # a faction passive (no card, no Champion): name the faction and the passive
                faction = loc["self"].s.players[v.owner].faction
                found = f"faction {faction}: {v.ability.name}"
    return found


NATIVE_BROKE = "InvariantError"   # how the native engine words a broken invariant
RUNAWAY = re.compile(r"StepBudget: (?:card (\S+):)?")   # a game past its step budget
HEURISTIC = "heuristic-single"  # the native heuristic as Watch wraps it: no whole plays


def _players(k: int) -> int:
    return 2 + k % PLAYER_COUNTS


def _invariant_game(k: int) -> bool:
    """Does game k check the rules invariants after each step: every INVARIANT_EVERY-th
    game, stepping through the player counts (games 0, 11, 22, 33, 44, 50...: 2, 3, 4, 5, 6,
    2... players), so no player count goes unchecked. (Checking every game natively cost
    more CPU than playing them.)"""
    return k % INVARIANT_EVERY == (k // INVARIANT_EVERY) % PLAYER_COUNTS


def _native(rules, ks, seed: int, factions: list[str]) -> tuple[dict, dict]:
    """({k: result}, {k: why}) of the games numbered ks the native engine plays (engine/native:
    the same games, with the Book's counts; the invariant games check the rules invariants
    after each step): None where it declined one, and why (nothing when it is not built)."""
    from ..engine import native
    from ..engine.options import Options

    by_players: dict[int, list[int]] = {}
    for k in ks:
        by_players.setdefault(_players(k), []).append(k)
    out: dict = {}
    why: dict = {}
    for players, group in by_players.items():
        games = [(seed + k, [factions[(k + i) % len(factions)] for i in range(players)],
                  [HEURISTIC if (k + i) % 2 else "random" for i in range(players)],
                  _invariant_game(k))
                 for k in group]
        declined: list = []
        out.update(zip(group, native.play_agents(rules, players, games, Options(), book=True,
                                                 declined=declined)))
        why.update((k, d) for k, d in zip(group, declined) if d is not None)
    return out, why


def _play(rules, ks, seed: int, src: dict) -> tuple[dict, list, int, int]:
    """Play the sweep's games numbered ks: (counts per field, [(k, failure)], cards played,
    games that checked the rules invariants after each step)."""
    factions = sorted(rules.factions)
    book = Book()
    failures, played_total, checked = [], 0, 0
    natives, why = _native(rules, ks, seed, factions)
    for k in ks:
        got = natives.get(k)
        if got is not None:
            for field in ("offered", "bought", "picked", "playable"):
                book.n[field].update(got["book"][field])
            for field in ("played", "resolved", "fizzled"):  # a game with an error: declined
                book.n[field].update(got[field])
            played_total += sum(got["played"].values())
            checked += _invariant_game(k)
            continue
        players = _players(k)
        facs = [factions[(k + i) % len(factions)] for i in range(players)]
        step = f"sweep game seed {seed + k} ({players} players, {', '.join(facs)})"
        runaway = RUNAWAY.match(why.get(k, ""))
        if runaway:   # the native engine's words are the Python engine's (core.StepBudget)
            card = runaway.group(1) or "engine"
            where = src.get(card, {"file": "-", "line": 0})
            book.n["errored"][card] += 1
            failures.append((k, Failure(card, "sweep", where["file"], where["line"], step,
                                        why[k])))
            continue
        agents = [Watch((HeuristicAgent if (k + i) % 2 else RandomAgent)(), book)
                  for i in range(players)]
        book.game = k
        broke = why.get(k, "").startswith(NATIVE_BROKE)   # an invariant, in the native engine
        try:
            check = Checker() if broke or _invariant_game(k) else None
            checked += check is not None
            g = play_game(rules, players, seed + k, agents, facs, check=check)
        except Exception as exc:  # noqa: BLE001  (an engine error is a finding)
            card = culprit(exc) or "engine"
            where = src.get(card, {"file": "-", "line": 0})
            book.n["errored"][card] += 1
            failures.append((k, Failure(card, "sweep", where["file"], where["line"], step,
                                        f"{type(exc).__name__}: {exc}")))
            continue
        if broke:   # the engines disagree: the native one is wrong (Python is the reference)
            book.n["errored"]["engine"] += 1
            failures.append((k, Failure("engine", "sweep", "-", 0, step,
                                        f"the native engine: {why[k]} (the Python engine "
                                        "keeps every invariant in this game)")))
        for field in ("played", "resolved", "fizzled"):
            book.n[field].update(g.stats[field])
        played_total += sum(g.stats["played"].values())
    return book.n, failures, played_total, checked


_JOB: dict = {}   # set before forking the sweep's workers, read by _games in the child


def _games(ks: list[int]) -> tuple[dict, list, int, int]:
    """In a worker: play the games numbered ks (one task of the sweep)."""
    job = _JOB
    return _play(job["rules"], ks, job["seed"], job["src"])


def _tasks(games: int) -> list[list[int]]:
    """The sweep's games as tasks for the workers, the heaviest first: each a pair k, k + 1
    (they seat the heuristic agent on opposite seats, so the pair has as many heuristic
    seats as random ones), weighed by its players. The workers take the next task as each
    finishes theirs, so they end about together, however the battle odds they work out
    (each keeps its own) make some games slower than others. Dealt in fixed halves, one
    worker was measured playing 2.5 s of CPU to the other's 1.6 s."""
    pairs = [list(range(k, min(k + 2, games))) for k in range(0, games, 2)]
    return sorted(pairs, key=lambda ks: -sum(_players(k) for k in ks))


def _workers(games: int, rules) -> int:
    """Processes for the sweep: one per core, at least GAMES_PER_WORKER games each; at
    least NATIVE_GAMES_PER_WORKER when the native engine plays them beside other work (a
    build's check gives way to the stages that lay out: forking.giving_way). There, the
    default sweep (120 games) is played in this process: two workers were measured at
    0.27-0.29 s of CPU against 0.17 s for one process (each worker forks, then works out
    again the battle odds its agents read), CPU the stages that lay out need. Alone
    (`tether check`), the workers play while this process runs the scenarios, which ends
    sooner (0.71 s against 0.75 s, eight rounds alternated)."""
    import multiprocessing

    from ..engine import native
    from ..forking import beside

    if "fork" not in multiprocessing.get_all_start_methods():
        return 1   # the workers inherit the compiled rules by fork
    each = NATIVE_GAMES_PER_WORKER if beside() and native.for_rules(rules) is not None \
        else GAMES_PER_WORKER
    return max(1, min(WORKERS or os.cpu_count() or 1, games // each))


def _play_all(rules, games: int, seed: int, src: dict,
              meanwhile: Callable[[], None]) -> tuple[dict, list, int, int]:
    """Every game, over the cores (forked workers), `meanwhile` run here as they play; the
    same counts and failures, in game order, whatever the number of workers: each game
    depends only on its number."""
    workers = _workers(games, rules)
    if workers < 2:
        meanwhile()
        n, failures, played, checked = _play(rules, range(games), seed, src)
        return n, [f for _, f in failures], played, checked
    _JOB.update(rules=rules, seed=seed, src=src)
    try:
        with fork_pool(workers) as pool:
            futures = [pool.submit(_games, ks) for ks in _tasks(games)]
            meanwhile()
            parts = [f.result() for f in futures]
    finally:
        _JOB.clear()
    n = {f: Counter() for f in FIELDS}
    for counts, *_ in parts:
        for field in FIELDS:
            n[field].update(counts[field])
    failures = sorted((pair for _, fails, *_ in parts for pair in fails), key=lambda kf: kf[0])
    return (n, [f for _, f in failures], sum(part[2] for part in parts),
            sum(part[3] for part in parts))


def sweep(compiled: dict, games: int, seed: int, cards: list[dict],
          meanwhile: Callable[[], None] = lambda: None):
    """Play `games` games; returns (summary, failures, dead card ids). meanwhile: work for
    this process while forked workers play (e.g. the check's scenarios)."""
    rules = Ruleset.from_compiled(compiled)
    factions = sorted(rules.factions)
    src = {c["id"]: c["source"] for c in cards}
    n, failures, played_total, checked = _play_all(rules, games, seed, src, meanwhile)
    per = {c.id: {f: n[f][c.id] for f in FIELDS} for c in rules.cards}
    dead = sorted(c for c, v in per.items() if not v["playable"]) if games else []
    summary = {"games": games, "seed": seed, "players": "2-6",
               "invariant_games": checked,
               "agents": "random+heuristic", "factions": factions,
               "played": played_total, "errors": len(failures),
               "never_played": sorted(c for c, v in per.items() if not v["played"]),
               "cards": per}
    return summary, failures, dead
