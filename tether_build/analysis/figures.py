"""The headline figures as functions of a resample of games, so that each gets a bootstrap
interval, and a comparison of two runs on the same seeds gets a paired one (game k of one
run resampled with game k of the other)."""

from __future__ import annotations

import numpy as np

from .verdicts import won

REPS = 1000


def leads_of(r: dict) -> tuple[int, int | None]:
    """One game's (changes of the sole leader over the Scorings, the winner's Permanence
    margin in a game won on Permanence, else None)."""
    leader, changes = None, 0
    for row in r["vp"]:
        top = max(row)
        now = row.index(top) if row.count(top) == 1 else None
        if now is not None and leader is not None and now != leader:
            changes += 1
        leader = now if now is not None else leader
    if not (r["vp"] and r["end"] == "vp"):
        return changes, None
    last = sorted(r["vp"][-1], reverse=True)
    return changes, last[0] - (last[1] if len(last) > 1 else 0)


def _leads(r: dict) -> tuple[float, float]:
    """(lead changes, the winner's Permanence margin or nan): leads_of as floats."""
    changes, margin = leads_of(r)
    return float(changes), np.nan if margin is None else float(margin)


class Games:
    """Per-game arrays of one run: faction wins and seats, seat-0 wins, rounds, endings."""

    def __init__(self, recs: list[dict], facs: list[str]):
        self.facs = facs
        idx = {f: i for i, f in enumerate(facs)}
        g = len(recs)
        self.players = recs[0]["players"] if recs else 2
        self.wins = np.zeros((g, len(facs)))
        self.seats = np.zeros((g, len(facs)))
        self.first = np.zeros(g)
        self.rounds = np.zeros(g)
        self.cap = np.zeros(g)
        self.battles = np.zeros(g)
        self.played = np.zeros(g)
        self.seat_f = np.zeros((g, self.players), dtype=int)
        self.leads = np.zeros(g)
        self.margin = np.full(g, np.nan)
        for k, r in enumerate(recs):
            self.leads[k], self.margin[k] = _leads(r)
            for p, s in enumerate(r["seats"]):
                i = idx[s["faction"]]
                self.wins[k, i] += won(r, p)
                self.seats[k, i] += 1
                self.seat_f[k, p] = i
            self.first[k] = won(r, 0)
            self.rounds[k] = r["rounds"]
            self.cap[k] = r["end"] == "round_cap"
            self.battles[k] = r["battles"]
            self.played[k] = sum(len(s["played"]) for s in r["seats"])

    def figures(self, idx=None) -> dict[str, float]:
        """Every headline figure over the games `idx` (all by default)."""
        sl = slice(None) if idx is None else idx
        n = self.seats[sl].sum(axis=0)
        rates = np.where(n > 0, self.wins[sl].sum(axis=0) / np.maximum(n, 1), np.nan)
        out = {f"win rate: {f}": float(v) for f, v in zip(self.facs, rates)}
        seen = rates[~np.isnan(rates)]
        out["balance"] = float(1 - (seen.max() - seen.min())) if len(seen) else 1.0
        out["first seat advantage"] = float(self.first[sl].mean() - 1 / self.players)
        out["round cap share"] = float(self.cap[sl].mean())
        out["average rounds"] = float(self.rounds[sl].mean())
        out["battles per game"] = float(self.battles[sl].mean())
        out["cards played per game"] = float(self.played[sl].mean())
        out["lead changes"] = float(self.leads[sl].mean())
        m = self.margin[sl]
        out["decisiveness"] = float(np.nanmean(m)) if np.any(~np.isnan(m)) else np.nan
        return out

    def fair_balance(self, reps: int = 200, seed: int = 0) -> list[float]:
        """The balance score of a perfectly fair game of the same size and seating (each
        seat wins with chance 1/players): its mean and central 95 %."""
        rng = np.random.default_rng(seed)
        g = len(self.rounds)
        n = self.seats.sum(axis=0)
        vals = []
        for _ in range(reps):
            w = self.seat_f[np.arange(g), rng.integers(0, self.players, g)]
            rates = np.bincount(w, minlength=len(self.facs)) / np.maximum(n, 1)
            rates = rates[n > 0]
            vals.append(1 - (rates.max() - rates.min()))
        return [float(np.mean(vals)), float(np.quantile(vals, 0.025)),
                float(np.quantile(vals, 0.975))]


def intervals(games: Games, seed: int = 0) -> dict[str, list[float]]:
    """A 95 % bootstrap interval (over games) for every headline figure."""
    g = len(games.rounds)
    out = {}
    names = list(games.figures())
    rng = np.random.default_rng(seed)
    draws = [games.figures(rng.integers(0, g, g)) for _ in range(REPS)] if g > 1 else []
    for name in names:
        vals = [d[name] for d in draws if not np.isnan(d[name])]
        out[name] = ([float(np.quantile(vals, 0.025)), float(np.quantile(vals, 0.975))]
                     if vals else None)
    return out


def paired(now: Games, other: Games, seed: int = 0) -> list[dict]:
    """Each headline figure of both runs, the change and its paired 95 % bootstrap interval,
    and whether the change is a difference at all (the interval excludes 0)."""
    g = min(len(now.rounds), len(other.rounds))
    a, b = now.figures(np.arange(g)), other.figures(np.arange(g))
    rng = np.random.default_rng(seed)
    draws = []
    for _ in range(REPS if g > 1 else 0):
        idx = rng.integers(0, g, g)
        x, y = now.figures(idx), other.figures(idx)
        draws.append({k: x[k] - y[k] for k in x if k in y})
    rows = []
    for k in sorted(set(a) | set(b)):
        change = a[k] - b[k] if k in a and k in b else None
        vals = [d[k] for d in draws if k in d and not np.isnan(d[k])]
        ci = ([float(np.quantile(vals, 0.025)), float(np.quantile(vals, 0.975))]
              if vals else None)
        differs = ci is not None and (ci[0] > 0 or ci[1] < 0)
        rows.append({"figure": k, "this run": a.get(k), "other": b.get(k), "change": change,
                     "ci95": ci, "differs": differs})
    return rows

