"""`simulate` deals its games over forked workers: the summary and the event logs are the
same whatever the number of workers (each game depends only on its number)."""

from __future__ import annotations

import json

from tether_build.engine import simulate as sim


def test_workers_give_the_same_summary_and_logs(rules, tmp_path, monkeypatch):
    monkeypatch.setattr(sim, "MIN_PER_WORKER", 2)
    monkeypatch.setattr(sim, "CHUNK", 3)  # several tasks per worker, finishing out of order
    steps: list[int] = []
    runs = {}
    for workers in (1, 2):
        logs = tmp_path / f"w{workers}"
        logs.mkdir()
        runs[workers] = sim.simulate(rules, 8, 3, 11, agents=["random", "heuristic"],
                                     log_dir=logs, workers=workers, progress=steps.append)
    assert json.dumps(runs[1], sort_keys=True) == json.dumps(runs[2], sort_keys=True)
    assert sum(steps) == 16  # every game reported once per run
    one = sorted(p.name for p in (tmp_path / "w1").iterdir())
    assert one == [f"game-{11 + k}.jsonl" for k in range(8)]
    for name in one:
        assert (tmp_path / "w1" / name).read_bytes() == (tmp_path / "w2" / name).read_bytes()
