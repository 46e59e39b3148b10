"""Questions the lab answers with their certainty, in plain English.

Every verdict rests on an anytime-valid confidence sequence (inference.confidence_sequence),
so the lab may look after every chunk of games and stop when every question is settled (the
intervals are intersected over the looks, which keeps them valid, so a settled verdict stays
settled as the run goes on): a verdict is "settled" only when its interval lies wholly on one side of the question's
threshold. Two runs give opposite settled verdicts only if one of their intervals misses the
truth, which each does with probability at most alpha (Bonferroni over a question's parts).
"""

from __future__ import annotations

from .inference import confidence_sequence

ALPHA = 0.05          # family error rate of each question
MARGIN = 0.05         # "more than X points from fair" / "a change of more than X"


def won(rec: dict, p: int) -> float:
    """Seat p's share of the win (a shared win is split)."""
    w = rec["winners"]
    return 1.0 / len(w) if p in w else 0.0


def faction_series(recs: list[dict]) -> dict[str, list[float]]:
    """Per faction, its seats' win shares in game order."""
    out: dict[str, list[float]] = {}
    for r in recs:
        for p, s in enumerate(r["seats"]):
            out.setdefault(s["faction"], []).append(won(r, p))
    return dict(sorted(out.items()))


def _look_cuts(recs: list[dict]) -> dict[str, list[int]]:
    """Per faction, how many of its seats had been played at each of the lab's looks."""
    from .lab import looks

    marks = set(looks(len(recs)))
    seen: dict[str, int] = {}
    cuts: dict[str, list[int]] = {}
    for i, r in enumerate(recs, 1):
        for s in r["seats"]:
            seen[s["faction"]] = seen.get(s["faction"], 0) + 1
        if i in marks:
            for f, n in seen.items():
                cuts.setdefault(f, []).append(n)
    return cuts


def running(ys: list[float], cuts: list[int], alpha: float, lo: float = 0.0,
            hi: float = 1.0) -> tuple[float, float]:
    """The confidence sequence intersected over the looks (valid: it covers at every look
    at once), so a settled verdict stays settled as the run goes on."""
    a, b = lo, hi
    for n in cuts or [len(ys)]:
        x, y = confidence_sequence(ys[:n], alpha, lo, hi)
        if max(a, x) > min(b, y):   # (an empty intersection: the latest look alone)
            a, b = x, y
        else:
            a, b = max(a, x), min(b, y)
    return a, b


def _pts(v: float) -> str:
    return f"{100 * v:.1f}"


def factions(recs: list[dict], players: int, names: dict[str, str],
             margin: float = MARGIN, alpha: float = ALPHA) -> dict:
    """'Is any faction more than `margin` from a fair share?' Per faction: its win rate,
    its anytime-valid interval (alpha split over the factions) and a verdict: too strong,
    too weak, fair (within the margin), or not settled yet."""
    fair = 1.0 / players
    series = faction_series(recs)
    a = alpha / max(len(series), 1)
    cuts = _look_cuts(recs)
    rows = {}
    for f, ys in series.items():
        lo, hi = running(ys, cuts[f], a)
        rate = sum(ys) / len(ys)
        if lo > fair + margin:
            v = "too strong"
        elif hi < fair - margin:
            v = "too weak"
        elif lo >= fair - margin and hi <= fair + margin:
            v = "fair"
        else:
            v = "not settled"
        lean = ("above" if lo > fair else "below" if hi < fair else None)
        rows[f] = {"n": len(ys), "rate": rate, "interval": [lo, hi], "verdict": v,
                   "lean": lean}
    settled = [f for f, r in rows.items() if r["verdict"] != "not settled"]
    off = [f for f, r in rows.items() if r["verdict"] in ("too strong", "too weak")]
    if off:
        answer = "yes"
    elif rows and len(settled) == len(rows):
        answer = "no"
    else:
        answer = "not settled"
    return {"question": f"Is any faction more than {_pts(margin)} points from a fair "
                        f"{_pts(fair)} %?",
            "fair": fair, "margin": margin, "alpha": alpha, "answer": answer,
            "settled": len(settled) == len(rows), "factions": rows,
            "sentences": [_faction_sentence(names.get(f, f), r, fair, margin, players)
                          for f, r in sorted(rows.items(),
                                             key=lambda it: order(it, names))]}


def order(item, names: dict[str, str]) -> tuple:
    """Settled verdicts first, strongest first; then the unsettled ones by name (they are
    not ranked: the run cannot tell them apart yet)."""
    f, r = item
    unsettled = r["verdict"] == "not settled"
    return (unsettled, 0.0 if unsettled else -r["rate"], names.get(f, f))


def _faction_sentence(name: str, r: dict, fair: float, margin: float, players: int) -> str:
    lo, hi = r["interval"]
    head = (f"{name} wins {_pts(r['rate'])} % [{_pts(lo)}, {_pts(hi)}] of {players}-player "
            f"games against a fair {_pts(fair)} %")
    if r["verdict"] == "fair":
        return f"{head}: fair (within ±{_pts(margin)} points)."
    if r["verdict"] != "not settled":
        return f"{head}: {r['verdict']}."
    lean = {"above": "above fair, but not yet known whether by more than "
                     f"{_pts(margin)} points",
            "below": "below fair, but not yet known whether by more than "
                     f"{_pts(margin)} points"}.get(r["lean"], "not settled: more games needed")
    return f"{head}: {lean} ({r['n']} seats played)."


def paired(a: list[float], b: list[float], what: str, bound: float, unit: str,
           scale: float = 1.0, margin: float = MARGIN, alpha: float = ALPHA,
           cuts: list[int] | None = None) -> dict:
    """'Did the edit change `what`?' from the same games played twice (game k against
    game k): the anytime-valid interval of the mean difference a - b (values within
    ±bound), and a verdict: changed, no change beyond the margin, or not settled."""
    d = [x - y for x, y in zip(a, b)]
    n = len(d)
    lo, hi = running(d, [] if cuts is None else cuts, alpha, -bound, bound)
    mean = sum(d) / n if n else 0.0
    if lo > 0 or hi < 0:
        v = "changed"
    elif lo >= -margin and hi <= margin:
        v = "no detectable difference"
    else:
        v = "not settled"
    f = (lambda x: f"{x * scale:+.1f}")
    if v == "changed":
        text = f"{what}: changed by {f(mean)} {unit} [{f(lo)}, {f(hi)}] after {n} games."
    elif v == "no detectable difference":
        width = max(-lo, hi) * scale
        text = (f"{what}: no detectable difference (±{width:.1f} {unit}) after {n} "
                "games.")
    else:
        text = (f"{what}: not settled after {n} games ({f(mean)} {unit} [{f(lo)}, "
                f"{f(hi)}]): more games needed.")
    return {"what": what, "n": n, "change": mean, "interval": [lo, hi], "verdict": v,
            "margin": margin, "sentence": text}


def edit(now: list[dict], other: list[dict], names: dict[str, str], round_cap: int,
         margin: float = MARGIN, alpha: float = ALPHA) -> dict:
    """'Did this edit change win rates or game length?': per faction (win share of its
    seats, same seats in both runs), rounds played and the round-cap share; alpha split
    over the parts."""
    n = min(len(now), len(other))
    now, other = now[:n], other[:n]
    facs = sorted({s["faction"] for r in now for s in r["seats"]})
    a = alpha / (len(facs) + 2)
    parts = []
    from .lab import looks

    marks = set(looks(n))
    for f in facs:
        xs, ys, cuts = [], [], []
        for i, (r, q) in enumerate(zip(now, other), 1):
            seats = [p for p, s in enumerate(r["seats"]) if s["faction"] == f]
            if seats:
                xs.append(sum(won(r, p) for p in seats))
                ys.append(sum(won(q, p) for p in seats))
            if i in marks:
                cuts.append(len(xs))
        parts.append(paired(xs, ys, f"{names.get(f, f)} win rate", 1.0, "points", 100,
                            margin, a, cuts))
    cap = max(round_cap, 2)
    game_cuts = sorted(marks)
    parts.append(paired([r["rounds"] for r in now], [r["rounds"] for r in other],
                        "Game length", cap, "rounds", 1.0, margin * cap, a, game_cuts))
    parts.append(paired([float(r["end"] == "round_cap") for r in now],
                        [float(r["end"] == "round_cap") for r in other],
                        "Games at the round cap", 1.0, "points", 100, margin, a, game_cuts))
    changed = [p for p in parts if p["verdict"] == "changed"]
    settled = all(p["verdict"] != "not settled" for p in parts)
    answer = "yes" if changed else ("no" if settled else "not settled")
    return {"question": "Did this edit change win rates or game length?", "answer": answer,
            "settled": settled, "parts": parts, "alpha": alpha}
