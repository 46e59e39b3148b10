"""run_check: compile, prove every subject in constructed scenarios, sweep games, drift."""

from __future__ import annotations

import time

from ..compile import compile_engine
from ..textcheck import drift
from .instrument import instrumented_rules
from .model import Report
from .scenarios import Runner
from .subjects import subjects

DEFAULT_GAMES = 120  # a multiple of 30: every player count meets every faction rotation equally


def run_check(content, cards: list[dict], games: int = DEFAULT_GAMES, seed: int = 1,
              progress=None) -> Report:
    """Check the content: per-subject scenarios, a seeded sweep of games, text drift."""
    t0 = time.perf_counter()
    report = Report()
    compiled = compile_engine(cards, content)
    rules, comp = instrumented_rules(compiled)
    runner = Runner(rules, comp)
    subs = subjects(rules, comp.info, content, cards)
    bad: set[str] = set()
    counts = {"card": [0, 0], "ability": [0, 0], "passive": [0, 0]}
    for sub in subs:
        tally, fails = runner.check(sub)
        report.failures += fails
        counts[sub.kind][1] += 1
        counts[sub.kind][0] += not fails
        if fails and sub.card:
            bad.add(sub.card)
        report.subjects[sub.id] = {
            "kind": sub.kind, "file": sub.file, "line": sub.line, "ok": not fails,
            "scenarios": tally.scenarios, "probes": tally.replays,
            "outcomes": dict(tally.outcomes)}
        if progress:
            progress(sub)
    report.scenarios, report.replays = runner.scenarios, runner.replays
    t1 = time.perf_counter()
    if games:
        from .sweep import sweep
        report.sweep, sweep_fails, report.dead = sweep(compiled, games, seed, cards)
        report.failures += sweep_fails
        bad |= {f.subject for f in sweep_fails}
    t2 = time.perf_counter()
    report.total = counts["card"][1]
    report.resolved = sum(1 for c in rules.cards if c.id not in bad)
    report.abilities = tuple(counts["ability"])
    report.passives = tuple(counts["passive"])
    report.ideas = [f"{fid}.{a['name']}" for fid, f in sorted(content.factions.items())
                    for a in f["passives"] if a.get("idea")]
    report.drift = drift(cards)
    report.seconds = {"scenarios": round(t1 - t0, 3), "sweep": round(t2 - t1, 3),
                      "total": round(time.perf_counter() - t0, 3)}
    return report
