"""Seeded games in batches: a local process pool or a Dask cluster, the same records.

Game k of a run has seed `seed + k`, its factions and agents from k alone, so a batch is
just a range of k; batches are gathered in order, so the records (and the report) do not
depend on how many workers ran them or where.
"""

from __future__ import annotations

import hashlib
import json
import os
from concurrent.futures import ProcessPoolExecutor

from ..forking import frozen_heap
from .records import record, record_of

BATCH = 25  # games per batch: small enough to spread, large enough to amortise a task

_RULES: dict[str, object] = {}


def rules_of(compiled: dict[str, bytes]):
    """The Ruleset of compiled engine files, built once per process."""
    from ..engine.ruleset import Ruleset

    key = hashlib.sha256(b"".join(compiled[k] for k in sorted(compiled))).hexdigest()
    got = _RULES.get(key)
    if got is None:
        got = _RULES[key] = Ruleset.from_compiled(compiled)
    return got


def without(compiled: dict[str, bytes], card: str) -> dict[str, bytes]:
    """Compiled engine files with one card taken out of its deck (copies 0). A faction's
    Champion or starter spell is refused: set-up deals it to every seat of its faction
    whatever its copies (design document §8), so taking it out would change nothing."""
    cards = json.loads(compiled["cards.json"])
    rows = cards if isinstance(cards, list) else cards.get("cards", cards)
    hit = [c for c in rows if c.get("id") == card]
    if not hit:
        raise ValueError(f"no card {card!r} to take out")
    facs = json.loads(compiled["factions.json"]).get("factions", {})
    for fid, fac in sorted(facs.items()):
        for role, what in (("champion", "Champion"), ("spell", "starter spell")):
            if fac.get(role) == card:
                raise ValueError(
                    f"{card} ({hit[0].get('name', card)}) is the {fac.get('name', fid)} "
                    f"faction {what}: set-up deals it to every {fac.get('name', fid)} seat "
                    "whatever its copies (design document §8), so --without cannot take it "
                    f"out. Measure an edit of it instead: --vary cards.{card}.FIELD=A..B or "
                    "--baseline REV")
    for c in hit:
        c["copies"] = 0
    return {**compiled, "cards.json": json.dumps(cards).encode()}


def seat_plan(rules, spec: dict, k: int) -> tuple[list[str], list[str]]:
    """(factions, agent names) of game k: factions rotate (or the pairs of a head-to-head
    schedule), agents cycle over the seats."""
    from ..engine.simulate import seat_factions

    players = spec["players"]
    pool = spec.get("factions") or sorted(rules.factions)
    if players == 2 and not spec.get("factions"):
        pairs = [(a, b) for a in pool for b in pool if a != b]
        a, b = pairs[k % len(pairs)]
        facs = [a, b]
    else:
        facs = seat_factions(rules, players, k, spec.get("factions"))
    names = spec["agents"]
    return facs, [names[i % len(names)] for i in range(players)]


def run_batch(compiled: dict[str, bytes], spec: dict, ks: list[int]) -> list[dict]:
    """Play games ks of a run; one record each (with the weights of spec["weights"], an
    agent variant's, set for the batch and restored after)."""
    from .ladder import apply_weights

    saved = apply_weights(spec.get("weights") or {})   # an agent variant's weights
    try:
        return _batch(compiled, spec, ks)
    finally:
        apply_weights(saved)


def _batch(compiled: dict[str, bytes], spec: dict, ks: list[int]) -> list[dict]:
    from ..engine.options import Options
    from ..engine.play import play_game
    from .ladder import make_agent

    rules = rules_of(compiled)
    opts = Options.from_dict(spec["options"]) if spec.get("options") else None
    plans = [seat_plan(rules, spec, k) for k in ks]
    natives = _native(rules, spec, ks, plans, opts or Options())
    out = []
    for k, (facs, names), got in zip(ks, plans, natives):
        if got is not None:   # the same game, played by the native engine (engine/native)
            out.append(record_of(got["events"], k, names, facs, spec["seed"] + k,
                                 got["winner"], got["end"], got["round"]))
            continue
        agents = [make_agent(n, spec) for n in names]
        g = play_game(rules, spec["players"], spec["seed"] + k, agents, facs, opts, log=True)
        out.append(record(g, k, names))
    return out


def _native(rules, spec: dict, ks: list[int], plans: list, opts) -> list[dict | None]:
    """The native engine's logged result of each game (None: the Python engine plays it):
    games of random and heuristic agents."""
    from ..engine import native

    if any(n not in native.AGENTS for _, names in plans for n in names):
        return [None] * len(ks)
    games = [(spec["seed"] + k, facs, names) for k, (facs, names) in zip(ks, plans)]
    return native.play_agents(rules, spec["players"], games, opts, log=True)


def batches(games: int, start: int = 0, size: int = BATCH) -> list[list[int]]:
    """The run's game numbers (start .. start + games - 1) cut into batches."""
    end = start + games
    return [list(range(i, min(end, i + size))) for i in range(start, end, size)]


def run(compiled: dict[str, bytes], spec: dict, workers: int | None = None,
        cluster: str | None = None, progress=None, meanwhile=None,
        start: int = 0) -> list[dict]:
    """Every game's record, in game order: in this process (1 worker), over a process pool
    (every core by default), or on the Dask scheduler at `cluster`. `meanwhile`: work for
    this process while the pool's workers play (the report's imports). `start`: the first
    game number (a sequential run plays games start .. start + spec["games"] - 1 next)."""
    slow = "search" in spec["agents"]   # (seconds per game: one game a batch, spread)
    parts = batches(spec["games"], start, 1 if slow else BATCH)
    if cluster:
        return _dask(compiled, spec, parts, cluster, progress)
    workers = workers or os.cpu_count() or 1
    out: list[dict] = []
    if workers == 1 or len(parts) == 1:
        for ks in parts:
            out.extend(run_batch(compiled, spec, ks))
            if progress:
                progress(len(ks))
        return out
    with frozen_heap(), ProcessPoolExecutor(max_workers=workers) as pool:
        futs = [pool.submit(run_batch, compiled, spec, ks) for ks in parts]
        if meanwhile is not None:   # (every worker is forked by now: the first submit)
            meanwhile()
        for ks, fut in zip(parts, futs):
            out.extend(fut.result())
            if progress:
                progress(len(ks))
    return out


def _dask(compiled, spec, parts, address: str, progress) -> list[dict]:
    try:
        from distributed import Client
    except ImportError:
        raise ValueError("--cluster needs the 'distributed' package "
                         "(bash scripts/setup.sh installs it)") from None
    from .cluster import probe

    probe(address)   # one line, in seconds, if nothing (or something silent) answers there
    with Client(address, timeout="20s") as client:
        data = client.scatter(compiled, broadcast=True)
        futs = [client.submit(run_batch, data, spec, ks, pure=False) for ks in parts]
        out: list[dict] = []
        for ks, fut in zip(parts, futs):
            out.extend(fut.result())
            if progress:
                progress(len(ks))
    return out
