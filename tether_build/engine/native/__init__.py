"""The native engine: the rules and the random and heuristic agents in C++ (this folder's
sources), for whole games and battle odds.

It plays whole games of random and heuristic agents (`tether simulate`, the balance lab, the
check's sweep, the engine benchmark) and the battles of odds.battle_odds (the heuristic
agent's attack odds, `tether odds`) 5 to 13 times faster than the Python engine, and the
Python engine stays the reference: every game it plays makes the same decisions, draws the
same numbers and writes the same event log, which tests/engine/test_native.py checks game by
game. The heuristic agent's weights are weights.py's constants, sent with each request
(heuristic_weights), so the two agents share them. `scripts/setup.sh` builds it with the C++
compiler (`python3 -m tether_build.engine.native`); without a compiler, or when the library is
older than its sources, nothing uses it and the Python engine plays every game.

The C++ declines a game it cannot play (a path longer than its limit, an unknown option, an
engine error): `play` returns None for that game and the caller plays it in Python, where the
same error, if any, is raised with its usual message.
"""

from __future__ import annotations

import ctypes
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import weakref
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
SOURCES = ("json.h", "mt.h", "defs.h", "load.h", "state.h", "game.h", "rules.cpp", "play.cpp",
           "heur.cpp", "search.cpp", "invariants.cpp", "nstate.h", "nstate.cpp", "nview.cpp",
           "capi.cpp")
LIBRARY = HERE / "_tether_engine.so"
FLAGS = ("-O2", "-std=c++17", "-shared", "-fPIC", "-fno-plt")
COMPILE_FLAGS = tuple(f for f in FLAGS if f != "-shared")   # one source to its object
ENV = "TETHER_ENGINE"  # "python": never the native engine (e.g. to compare the two)


def source_digest() -> str:
    """Digest of the sources and flags the library must be built from."""
    h = hashlib.sha256(" ".join(FLAGS).encode())
    for name in SOURCES:
        h.update(name.encode() + b"\0" + (HERE / name).read_bytes())
    return h.hexdigest()[:16]


def compiler() -> str | None:
    """The C++ compiler: $CXX, else g++ or c++ on the PATH."""
    return os.environ.get("CXX") or shutil.which("g++") or shutil.which("c++")


def build(out: Path = LIBRARY, jobs: int | None = None) -> str | None:
    """Compile the library (atomically: a failed build leaves the old one); returns None on
    success, else why it could not be built. Each source is compiled on its own, `jobs` at a
    time (default: one per core), then linked: one `g++` call with every source compiles them
    one after another (about 58 CPU-s of one core, the set-up's longest step on CI's 2 cores)."""
    cxx = compiler()
    if cxx is None:
        return "no C++ compiler (install g++): the Python engine plays every game"
    fd, tmp = tempfile.mkstemp(suffix=".so", dir=out.parent)
    os.close(fd)
    digest = f'-DTN_DIGEST="{source_digest()}"'
    sources = [s for s in SOURCES if s.endswith(".cpp")]
    try:
        with tempfile.TemporaryDirectory(prefix="tether-native-") as objdir:
            def compile_one(name: str) -> subprocess.CompletedProcess:
                obj = os.path.join(objdir, name[:-4] + ".o")
                return subprocess.run([cxx, *COMPILE_FLAGS, digest, "-c", str(HERE / name),
                                       "-o", obj], check=False, capture_output=True, text=True)
            # the longest first: two workers end together
            order = sorted(sources, key=lambda s: -(HERE / s).stat().st_size)
            with ThreadPoolExecutor(max_workers=jobs or os.cpu_count() or 1) as pool:
                runs = list(pool.map(compile_one, order))
            if not any(r.returncode for r in runs):   # link
                objects = [os.path.join(objdir, s[:-4] + ".o") for s in sources]
                runs.append(subprocess.run([cxx, *FLAGS, "-o", tmp, *objects], check=False,
                                           capture_output=True, text=True))
        failed = [r for r in runs if r.returncode != 0]
        if failed:
            return "the C++ compiler failed:\n" + "".join(r.stderr for r in failed)[-2000:]
        os.chmod(tmp, 0o755)
        os.replace(tmp, out)
    finally:
        if os.path.exists(tmp):
            os.unlink(tmp)
    return None


_LIB: list = []  # [the loaded library or None], once per process


def library():
    """The loaded library, or None (not built, built from other sources, or disabled)."""
    if os.environ.get(ENV, "").lower() == "python":
        return None
    if not _LIB:
        _LIB.append(_load())
    return _LIB[0]


def _load():
    if not LIBRARY.exists():
        return None
    try:
        lib = ctypes.CDLL(str(LIBRARY))
    except OSError:
        return None
    lib.tn_digest.restype = ctypes.c_char_p
    if lib.tn_digest().decode() != source_digest():
        return None  # built from older sources: scripts/setup.sh builds it again
    lib.tn_load.restype = ctypes.c_void_p
    lib.tn_load.argtypes = [ctypes.c_char_p] * 3 + [ctypes.POINTER(ctypes.c_void_p)]
    for fn in (lib.tn_play, lib.tn_odds, lib.tn_invariants):
        fn.restype = ctypes.c_void_p
        fn.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    lib.tn_free.argtypes = [ctypes.c_void_p]
    lib.tn_unload.argtypes = [ctypes.c_void_p]
    return lib


def available() -> bool:
    """Is the native engine built and current."""
    return library() is not None


class NativeRules:
    """One ruleset loaded into the native engine."""

    def __init__(self, lib, compiled: dict):
        self.lib = lib
        err = ctypes.c_void_p()
        texts = [json.dumps(compiled[k]).encode() for k in ("cards", "game", "factions")]
        self.handle = lib.tn_load(*texts, ctypes.byref(err))
        if not self.handle:
            why = ctypes.string_at(err.value).decode() if err.value else "unknown"
            if err.value:
                lib.tn_free(err.value)
            raise ValueError(f"the native engine cannot load these rules: {why}")

    def __del__(self):
        handle, self.handle = getattr(self, "handle", None), None
        if handle:
            self.lib.tn_unload(handle)

    def _call(self, fn, request: dict):
        ptr = fn(self.handle, json.dumps(request).encode())
        try:
            return json.loads(ctypes.string_at(ptr).decode())
        finally:
            self.lib.tn_free(ptr)

    def odds(self, attacker: dict, defender: dict, where: str, trials: int, seed: int,
             factions: list[str]) -> dict | None:
        """odds.battle_odds's tallies (attacker / defender / none wins, survivors per side,
        combat rounds) from the same battles, or None if the native engine declined."""
        got = self._call(self.lib.tn_odds, {"att": attacker, "dfn": defender, "where": where,
                                            "trials": trials, "seed": seed,
                                            "factions": factions})
        return got if got.get("ok") else None

    def invariants(self, players: int, seed: int, factions: list[str], options: dict,
                   where: str, breaks: list[str]) -> list[str]:
        """The messages of the native invariant checks on a game just set up and broken in
        each way named (capi.cpp's tn_invariants): for the tests, that they can fail."""
        got = self._call(self.lib.tn_invariants,
                         {"players": players, "seed": seed, "factions": factions,
                          "options": options, "where": where, "breaks": breaks})
        refused = isinstance(got, dict)   # {"ok": false, "error": why}
        if refused:
            raise RuntimeError(got.get("error"))
        return got

    def play(self, players: int, games: list[tuple], options: dict, log: bool = False,
             book: bool = False, declined: list | None = None,
             search: dict | None = None) -> list[dict | None]:
        """Play games (seed, factions) of random agents, or (seed, factions, agents) with an
        agent name a seat ("random" or "heuristic"), or (seed, factions, agents, True) to
        check the rules invariants after each step (invariants.cpp: a broken one declines
        the game); each result a dict (winner, end, round, decisions, played, fizzled,
        resolved; with `log` events + snapshot; with `book` the sweep's counts of each card:
        offered, bought, picked, playable), or None where the native engine declined the
        game. declined: a list that gets, per game, why it was declined (or None). A game
        that runs past core.STEP_BUDGET effect steps raises core.StepBudget, worded as the
        Python engine words it (naming the card); with `declined`, it is declined instead,
        its reason "StepBudget: " and those words (the check's sweep reports it as the
        Python engine's error, without playing the game again).
        search: the native search agent's settings (search.cpp: sims, width, horizon,
        explore, prior_temp, noise, bids, nested, limit; unset ones keep their defaults); a
        game with an "nsearch" seat gets "search" in its result: decisions searched (bids
        and nested roots, "nested": targets, moves, modes..., among them), simulations, mismatched, tree nodes, deepest node, cpu seconds and a trace
        of each search."""
        from ..core import STEP_BUDGET, StepBudget

        request = {"players": players, "log": log, "book": book, "options": options,
                   "step_budget": STEP_BUDGET,
                   "games": [{"seed": g[0], "factions": g[1],
                              **({"agents": g[2]} if len(g) > 2 else {}),
                              **({"check": True} if len(g) > 3 and g[3] else {})}
                             for g in games]}
        if any(len(g) > 2 and any(a.startswith(("heuristic", "nsearch")) for a in g[2])
               for g in games):
            request["weights"] = heuristic_weights()
        if search:
            request["search"] = search
        got = self._call(self.lib.tn_play, request)
        if isinstance(got, dict):  # the whole request was refused
            got = [got] * len(games)
        runaway = next((r for r in got if r.get("budget")), None)
        if runaway is not None and declined is None:   # as the Python engine would raise it
            raise StepBudget(str(runaway.get("error")), card=runaway.get("card") or None)
        if declined is not None:
            declined.extend(None if r.get("ok") else
                            f"{BUDGET}: {r.get('error')}" if r.get("budget") else
                            str(r.get("error")) for r in got)
        return [r if r.get("ok") else None for r in got]


INT64 = 2**63
BUDGET = "StepBudget"   # a declined game's reason when it ran past its step budget
_TWINS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()  # Ruleset -> NativeRules | None


def for_rules(rules) -> NativeRules | None:
    """The native twin of a Ruleset (made once per ruleset), or None if there is none."""
    lib = library()
    if lib is None:
        return None
    if rules not in _TWINS:
        try:
            _TWINS[rules] = NativeRules(lib, rules.compiled)
        except (ValueError, AttributeError):
            _TWINS[rules] = None
    return _TWINS[rules]


AGENTS = ("random", "heuristic", "nsearch")  # the agents the native engine plays, by name
# (the engine also seats "heuristic-single" and "nsearch-single": offered one decision at a
# time, no whole plays, as the check's sweep and the search reference test seat them)
# the nsearch agent's settings in simulate and the balance lab (search.cpp: sims, width,
# horizon, explore, prior_temp, noise, bids, same_worlds, tree_depth); an unset one keeps
# search.cpp's default
SEARCH: dict = {}


def heuristic_weights() -> dict:
    """The heuristic agent's weights as the native engine reads them: weights.py's module
    constants, read at each request, so a weight changed there (an experiment, a tuning)
    changes the native agent too."""
    from ..weights import native_weights

    return native_weights()


def play_agents(rules, players: int, games: list[tuple], options, log: bool = False,
                book: bool = False, declined: list | None = None,
                search: dict | None = None) -> list[dict | None]:
    """Results of games (seed, factions, agent names; without the names, random agents;
    with True after them, the rules invariants checked after each step) from the native
    engine (None: play it in Python), with the sweep's counts when `book`. declined: see
    NativeRules.play (nothing is added when there is no native engine)."""
    native = for_rules(rules)
    if native is None or not all(-INT64 < g[0] < INT64 for g in games):
        return [None] * len(games)
    return native.play(players, games, options.to_dict(), log, book, declined,
                       SEARCH if search is None else search)


def battle_odds(rules, attacker: dict, defender: dict, where: str, trials: int, seed: int,
                factions: list[str]) -> dict | None:
    """The native engine's tallies for odds.battle_odds (None: the Python engine's turn)."""
    native = for_rules(rules)
    if native is None or not -INT64 < seed < INT64:
        return None
    return native.odds(attacker, defender, where, trials, seed, factions)


def end_event(result: dict) -> dict:
    """The log's last line, as play._finish writes it: its digest is the state's."""
    blob = json.dumps(result["snapshot"], sort_keys=True, separators=(",", ":"))
    return {"e": "end", "winners": result["winner"], "reason": result["end"],
            "round": result["round"], "digest": hashlib.sha256(blob.encode()).hexdigest()}


def main(argv: list[str]) -> int:
    """`python3 -m tether_build.engine.native`: build the library (scripts/setup.sh) unless
    it is current (`--force`: build anyway)."""
    if "--force" not in argv and _load() is not None:
        print(f"native engine up to date: {LIBRARY.name} ({source_digest()})")
        return 0
    why = build()
    if why is not None:
        print(f"native engine not built: {why}", file=sys.stderr)
        return 0 if "--optional" in argv else 1
    print(f"native engine built: {LIBRARY.name} ({source_digest()})")
    return 0



# the state API in the native engine: tether_build.engine.native.nstate (NativeState,
# new_native_state); it imports this module, so this module does not import it
