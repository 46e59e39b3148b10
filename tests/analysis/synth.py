"""Synthetic game records whose truth is known (the balance lab's statistics are tested
on these: no engine, milliseconds per thousand games)."""

from __future__ import annotations

import math
import random

FACTIONS = ["a", "b", "c", "d", "e", "f"]
CARDS = [f"card{i:02d}" for i in range(40)]
POWER = {f"power{i}" for i in range(4)}


def games(n: int, seed: int = 0, players: int = 4, strength: dict | None = None,
          card_power: dict | None = None, center: float = 1.0, start: int = 0,
          cards: list[str] | None = None) -> list[dict]:
    """n records shaped like records.record_of's. Each seat gains 3-8 random market cards;
    a seat that holds the Center (chance 1/players) also picks a Power card, and holding it
    adds `center` to its score (so Power cards look strong without being so). The winner is
    drawn with probability proportional to exp(score): faction strength + the power of
    the gained cards it drew (70 % of them). `cards`: the market (default CARDS)."""
    strength = strength or {}
    card_power = card_power or {}
    out = []
    for k in range(start, start + n):
        rng = random.Random(seed * 1_000_003 + k)
        facs = [FACTIONS[(k + i) % len(FACTIONS)] for i in range(players)]
        seats, scores = [], []
        for f in facs:
            pool = cards or CARDS
            gained = rng.sample(pool, min(rng.randint(3, 8), len(pool) - 1))
            score = strength.get(f, 0.0)
            if rng.random() < 1 / players:
                gained.append(sorted(POWER)[rng.randrange(len(POWER))])
                score += center
            drawn = [c for c in gained if rng.random() < 0.7]
            score += sum(card_power.get(c, 0.0) for c in drawn)
            seats.append({"faction": f, "agent": "synthetic", "gained": gained,
                          "played": drawn, "bought": [], "drawn": sorted(drawn), "mines": 1})
            scores.append(score)
        weights = [math.exp(s) for s in scores]
        winner = rng.choices(range(players), weights)[0]
        rounds = rng.randint(5, 10)
        vp = [[rng.randint(0, 9) for _ in range(players)] for _ in range(rounds)]
        vp[-1][winner] = 12
        out.append({"k": k, "seed": seed + k, "players": players, "winners": [winner],
                    "end": "vp" if rounds < 10 else "round_cap", "rounds": rounds,
                    "battles": 0, "loops": 0, "seats": seats, "offered": [], "vp": vp,
                    "battles_by_round": [0] * rounds})
    return out


def light(n: int, seed: int = 0, players: int = 4, strength: dict | None = None,
          rounds_shift: float = 0.0) -> list[dict]:
    """Records with factions, winners and rounds only (fast: for the verdicts' error rates).
    The winner is drawn with probability proportional to exp(strength)."""
    import numpy as np

    strength = strength or {}
    ks = np.arange(n)   # (two streams: the first n games are the same for any n)
    fac_idx = (ks[:, None] + np.arange(players)[None, :]) % len(FACTIONS)
    score = np.array([strength.get(f, 0.0) for f in FACTIONS])[fac_idx]
    p = np.exp(score)
    p /= p.sum(axis=1, keepdims=True)
    u = np.random.default_rng([seed, 0]).random(n)[:, None]
    winner = (p.cumsum(axis=1) < u).sum(axis=1)
    rounds = np.minimum(np.random.default_rng([seed, 1]).poisson(7 + rounds_shift, n) + 1, 10)
    return [{"k": int(k), "players": players, "winners": [int(w)], "rounds": int(r),
             "end": "round_cap" if r >= 10 else "vp", "battles": 0, "loops": 0,
             "vp": [], "offered": [],
             "seats": [{"faction": FACTIONS[i], "agent": "synthetic", "gained": [],
                        "played": [], "drawn": []} for i in row]}
            for k, w, r, row in zip(ks, winner, rounds, fac_idx)]
