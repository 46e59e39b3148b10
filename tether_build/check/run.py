"""run_check: compile, prove every subject in constructed scenarios, sweep games, drift.

The scenarios and the sweep play the compiled definitions with each card's printed text and
source position removed (the engine reads neither), so what they find depends only on those
definitions, the game constants, the seed and the engine and check code. `run_check(memo=)`
keys their result on exactly that: a text-only edit reuses it, re-attaches the current file
and line to every subject and failure, and recomputes only the text/effect drift.

The scenarios' results are also kept apart, with the game constants they read (reads.py):
an edit of a constant that no scenario reads (the round cap) plays the sweep again and
reuses them. So are the card examples' results, under the examples themselves.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict

from ..content.textcheck import drift
from ..effects.compile import compile_engine
from .examples import examples_form, locate_failures, run_examples
from .instrument import instrumented_rules
from .memo import (
    DEFAULT_GAMES,
    EXAMPLES_KIND,
    MEMO_KIND,
    SCENARIOS_KIND,
    examples_key,
    play_form,
    play_key,
    scenarios_key,
)
from .model import Failure, Report
from .reads import Log, still_hold
from .scenarios import Runner
from .subjects import subjects


def run_check(content, cards: list[dict], games: int = DEFAULT_GAMES, seed: int = 1,
              progress=None, memo=None, compiled: dict[str, bytes] | None = None) -> Report:
    """Check the content: per-subject scenarios, a seeded sweep of games, text drift.

    memo: a render.cache.Cache; the scenario and sweep results are stored in it and reused
    while the definitions they play are unchanged (see the module docstring). compiled: the
    cards' compile_engine output when the caller has it already."""
    t0 = time.perf_counter()
    report = Report()
    play = play_form(compiled if compiled is not None else compile_engine(cards, content))
    log = Log() if memo is not None else None   # the constants the scenarios read
    rules, comp = instrumented_rules(play, log)
    subs = subjects(rules, comp.info, content, cards)
    found = key = None
    if memo is not None:
        key = play_key(play, games, seed)
        found = _load(memo.get(MEMO_KIND, key))
    examples: list = []  # the card examples, run here while the sweep's workers play

    def run_card_examples() -> None:
        examples.append(_examples(rules, content, memo, play, seed, log))

    if found is None:
        kept = _kept_scenarios(memo, play, seed)
        found, ran = _play(rules, comp, subs, play, games, seed, cards, progress,
                           run_card_examples, kept, log)
        if memo is not None:
            memo.put(MEMO_KIND, key, json.dumps(found, sort_keys=True).encode())
            if ran is not None:
                memo.put(SCENARIOS_KIND, scenarios_key(play, seed),
                         json.dumps(ran, sort_keys=True).encode())
        report.scenarios_reused = kept is not None
    else:
        report.cached = True
    _attach(report, found, subs, cards)
    if not examples:
        run_card_examples()
    report.examples, example_fails = examples[0]
    report.failures += example_fails
    report.total = len(rules.cards)
    bad = {f.subject for f in report.failures if f.kind == "sweep"}
    bad |= {s.card for s in subs if s.card and not found["subjects"][s.id]["ok"]}
    report.resolved = sum(1 for c in rules.cards if c.id not in bad)
    counts = {"card": [0, 0], "ability": [0, 0], "passive": [0, 0]}
    for sub in subs:
        counts[sub.kind][1] += 1
        counts[sub.kind][0] += found["subjects"][sub.id]["ok"]
    report.abilities = tuple(counts["ability"])
    report.passives = tuple(counts["passive"])
    report.ideas = [f"{fid}.{a['name']}" for fid, f in sorted(content.factions.items())
                    for a in f["passives"] if a.get("idea")]
    report.drift = drift(cards)
    report.seconds = dict(found["seconds"], total=round(time.perf_counter() - t0, 3))
    return report


def _play(rules, comp, subs, play, games, seed, cards, progress, then,
          kept: dict | None = None, log: Log | None = None) -> tuple[dict, dict | None]:
    """Run the scenarios and the sweep: (results as JSON data, without source positions;
    the scenarios' own part with the game constants read, to keep, or None).

    The sweep's games play in forked workers (one per core) while this process runs the
    scenarios, and then `then` (the card examples, which are not kept with these results);
    none reads the others' results. Beside a build's other stages, natively played games
    are played here after them (sweep._workers). kept: the scenarios' part of an earlier
    run whose game constants read still hold (_kept_scenarios), used instead of running
    them; log: the reads.Log of `rules`, whose reads so far are kept with the scenarios'
    part."""
    t0 = time.perf_counter()
    runner = Runner(rules, comp)
    out: dict = {"subjects": {}, "failures": []}
    scenario_failures: list = []
    spent: dict = {}
    ran: dict = {}

    def scenarios() -> None:
        t = time.perf_counter()
        if kept is not None:
            out["subjects"] = kept["subjects"]
            scenario_failures.extend(kept["failures"])
            out["scenarios"], out["replays"] = kept["scenarios"], kept["replays"]
        else:
            for sub in subs:
                tally, fails = runner.check(sub)
                scenario_failures.extend(_strip(f) for f in fails)
                out["subjects"][sub.id] = {"kind": sub.kind, "ok": not fails,
                                           "scenarios": tally.scenarios,
                                           "probes": tally.replays,
                                           "outcomes": dict(tally.outcomes)}
                if progress:
                    progress(sub)
            out["scenarios"], out["replays"] = runner.scenarios, runner.replays
            if log is not None:   # (before the examples: they are not kept)
                ran.update(reads=log.reads(), found={
                    "subjects": out["subjects"], "failures": list(scenario_failures),
                    "scenarios": out["scenarios"], "replays": out["replays"]})
        spent["scenarios"] = round(time.perf_counter() - t, 3)
        t = time.perf_counter()
        then()
        spent["then"] = time.perf_counter() - t

    out["sweep"], out["dead"] = {}, []
    if games:
        from .sweep import sweep
        out["sweep"], sweep_fails, out["dead"] = sweep(play, games, seed, cards, scenarios)
        out["failures"] = scenario_failures + [_strip(f) for f in sweep_fails]
    else:
        scenarios()
        out["failures"] = scenario_failures
    out["seconds"] = {"scenarios": spent["scenarios"],
                      "sweep": round(time.perf_counter() - t0 - spent["scenarios"]
                                     - spent["then"], 3)}
    return out, ran or None


def _examples(rules, content, memo, play: dict, seed: int, log: Log | None
              ) -> tuple[int, list[Failure]]:
    """run_examples' (examples run, failures), or those kept in the memo for the same
    definitions (without their constants) and the same examples, while every game constant
    read meanwhile (reads.py: the scenarios' too, when they ran first) still has the value
    it had. The failures are located in the content as it is now."""
    if memo is None or log is None:
        return run_examples(rules, content)
    key = examples_key(play, seed, examples_form(content))
    entry = _kept(memo, EXAMPLES_KIND, key, play)
    try:
        if entry is not None:
            return entry["n"], locate_failures(content, entry["failures"])
    except (KeyError, TypeError, ValueError):
        pass   # an entry this code did not write: the examples run again
    n, fails = run_examples(rules, content, located=False)
    memo.put(EXAMPLES_KIND, key, json.dumps({"n": n, "failures": fails, "reads": log.reads()},
                                            sort_keys=True).encode())
    return n, locate_failures(content, fails)


def _kept_scenarios(memo, play: dict, seed: int) -> dict | None:
    """The scenario results kept for these definitions (memo.scenarios_key), when every game
    constant they read still has the value it had (reads.py); else None."""
    if memo is None:
        return None
    entry = _kept(memo, SCENARIOS_KIND, scenarios_key(play, seed), play)
    return entry.get("found") if isinstance(entry, dict) else None


def _kept(memo, kind: str, key: str, play: dict) -> dict | None:
    """The memo's entry under (kind, key), kept with the game constants read while it was
    made (its "reads"), when every one of them still has that value in `play`; else None
    (none kept, or one this code did not write)."""
    entry = _load(memo.get(kind, key))
    try:
        if entry is not None and still_hold(entry["reads"],
                                            json.loads(play["game.json"])["constants"]):
            return entry
    except (KeyError, TypeError, ValueError):
        pass
    return None


def _strip(failure: Failure) -> dict:
    data = asdict(failure)
    del data["file"], data["line"]
    return data


def _attach(report: Report, found: dict, subs, cards: list[dict]) -> None:
    """Fill the report from play results, with the current file and line of each subject."""
    where = {s.id: (s.file, s.line) for s in subs}
    src = {c["id"]: (c["source"]["file"], c["source"]["line"]) for c in cards}
    for f in found["failures"]:
        file, line = (src if f["kind"] == "sweep" else where).get(f["subject"], ("-", 0))
        report.failures.append(Failure(f["subject"], f["kind"], file, line, f["step"],
                                       f["why"]))
    for sub in subs:
        report.subjects[sub.id] = {"file": sub.file, "line": sub.line,
                                   **found["subjects"][sub.id]}
    report.scenarios, report.replays = found["scenarios"], found["replays"]
    report.sweep, report.dead = found["sweep"], found["dead"]


def _load(data: bytes | None) -> dict | None:
    try:
        return json.loads(data) if data is not None else None
    except ValueError:
        return None
