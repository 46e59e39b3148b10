"""The lab's loop: play chunks of seeded games until every question asked is settled or the
budget is spent. The look points are fixed in advance (FIRST games, then every CHUNK) and
the verdicts rest on anytime-valid intervals, so stopping at the first settled look is a
valid stopping rule; game k is the same game whichever look plays it, so the records (and
the report) do not depend on the workers or the cluster."""

from __future__ import annotations

from collections.abc import Callable

FIRST = 250
CHUNK = 500


def looks(budget: int) -> list[int]:
    """Game counts at which the lab looks: FIRST, 2 FIRST, then every CHUNK, the budget."""
    pts = [FIRST, 2 * FIRST, *range(2 * CHUNK, budget, CHUNK)]
    return sorted({n for n in pts if n < budget} | {budget})


def sequential(versions: dict[str, Callable[[int, int], list[dict]]], budget: int,
               settled: Callable[[dict[str, list[dict]]], bool],
               until_settled: bool = True) -> tuple[dict[str, list[dict]], list[dict]]:
    """Play every version (name -> play(start, games)) look by look; stop at the first look
    where settled(records by version) holds (unless until_settled is off) or at the budget.
    Returns the records and the trace of the looks ({games, settled})."""
    recs: dict[str, list[dict]] = {name: [] for name in versions}
    trace = []
    done = 0
    for n in looks(budget):
        for name, play in versions.items():
            recs[name].extend(play(done, n - done))
        done = n
        ok = settled(recs)
        trace.append({"games": n, "settled": ok})
        if ok and until_settled:
            break
    return recs, trace
