"""Card effects with the confounders taken out.

1. A model of the win: one row per seat of every game, a ridge-regularised logistic
   regression of "this seat won" on its faction, seat, the player count, how often it held
   the Center (the Power cards it picked there), how many cards it gained (in all and per
   Age: a late gain comes with a long game and a rich seat), and one
   indicator per card it gained. A card's coefficient is then its worth against an average
   gain by a seat in the same position: the card coefficients are centred so that they
   sum to zero (no "+5.7 points for gaining anything"). Effects are shown in points of win
   rate (the average change of the seats that gained it, centred again so the points sum
   to zero too), with Wald intervals from the penalised information. A card is "above" /
   "below the curve" when its effect is beyond ±MARGIN points with the false discoveries
   controlled (Benjamini-Hochberg over the one-sided p-values of the cards with enough
   seats), "on the curve" when its interval is inside ±MARGIN, else not settled; cards
   gained by fewer than SMALL seats are labelled, not judged.
2. "Improvement when drawn" in the manner of 17lands: among the seats that gained the card,
   the win rate of those that drew it minus those that never did, within each faction
   (whether a gained card is drawn is mostly the shuffle's doing).
"""

from __future__ import annotations

import math

import numpy as np

from .inference import benjamini_hochberg, two_sided_p
from .verdicts import won

SMALL = 30       # seats that gained a card: fewer and the card gets no verdict
RIDGE = 2.0      # penalty on each card coefficient (log-odds); a card seen rarely stays near 0
FDR = 0.05
MARGIN = 0.02    # points of win rate a card must be beyond the curve to be called off it


def _sigmoid(x):
    return 1.0 / (1.0 + np.exp(-x))


def design(recs: list[dict], power: set[str], ages: dict[str, str] | None = None) -> tuple:
    """(X, y, card ids, number of control columns) of the model; rows are seat-games.
    `ages`: card id -> its Age (the gains are then counted per Age: a late gain comes with
    a long game and a seat rich enough to buy late)."""
    ages = ages or {}
    age_names = sorted({a for a in ages.values() if a})
    facs = sorted({s["faction"] for r in recs for s in r["seats"]})
    sizes = sorted({r["players"] for r in recs})
    seats = max((r["players"] for r in recs), default=2)
    cards = sorted({c for r in recs for s in r["seats"] for c in s["gained"]})
    ctrl = ["intercept"] + [f"faction:{f}" for f in facs[1:]] + \
        [f"seat:{p}" for p in range(1, seats)] + [f"players:{n}" for n in sizes[1:]] + \
        ["center_picks", "held_center", "cards_gained"] + [f"age:{a}" for a in age_names]
    col = {c: i for i, c in enumerate(ctrl)}
    k = len(ctrl)
    cidx = {c: k + i for i, c in enumerate(cards)}
    rows = sum(r["players"] for r in recs)
    X = np.zeros((rows, k + len(cards)))
    y = np.zeros(rows)
    i = 0
    for r in recs:
        for p, s in enumerate(r["seats"]):
            X[i, 0] = 1.0
            for name in (f"faction:{s['faction']}", f"seat:{p}", f"players:{r['players']}"):
                if name in col:
                    X[i, col[name]] = 1.0
            picks = sum(1 for c in s["gained"] if c in power)
            X[i, col["center_picks"]] = math.log1p(picks)
            X[i, col["held_center"]] = 1.0 if picks else 0.0
            X[i, col["cards_gained"]] = math.log1p(len(s["gained"]))
            for a in age_names:
                X[i, col[f"age:{a}"]] = math.log1p(sum(1 for c in s["gained"]
                                                       if ages.get(c) == a))
            for c in set(s["gained"]):
                X[i, cidx[c]] = 1.0
            y[i] = won(r, p)
            i += 1
    return X, y, cards, k


def fit(X, y: np.ndarray, k: int, ridge: float = RIDGE,
        iters: int = 30) -> tuple[np.ndarray, np.ndarray]:
    """Penalised logistic regression by Newton's method: (coefficients, covariance). X is
    made sparse (a seat gains a few of the cards): each step is milliseconds."""
    from scipy import sparse

    X = sparse.csr_matrix(X)
    pen = np.full(X.shape[1], ridge)
    pen[:k] = 1e-4
    beta = np.zeros(X.shape[1])

    def hessian(mu):
        w = sparse.diags(mu * (1 - mu))
        return np.asarray((X.T @ w @ X).todense()) + np.diag(pen)
    for _ in range(iters):
        mu = _sigmoid(X @ beta)
        grad = X.T @ (y - mu) - pen * beta
        step = np.linalg.solve(hessian(mu), grad)
        beta += step
        if np.max(np.abs(step)) < 1e-7:
            break
    return beta, np.linalg.inv(hessian(_sigmoid(X @ beta)))


class Model:
    """The fitted model: per card its centred coefficient (log-odds) and standard error, and
    the way from a coefficient to points of win rate (the average change of the seats that
    gained the card, centred over the cards so the points sum to zero)."""

    def __init__(self, recs: list[dict], power: set[str], ages: dict[str, str] | None,
                 ridge: float):
        X, y, self.cards, k = design(recs, power, ages)
        beta, cov = fit(X, y, k, ridge)
        b = beta[k:]
        center = b.mean()
        self.bc = b - center               # centred: the card coefficients sum to zero
        m = len(self.cards)
        # variance of b_c - mean(b): var_c - 2 cov(c, mean) + var(mean)
        C = cov[k:, k:]
        var = np.diag(C) - 2 * C.mean(axis=1) + C.mean()
        self.se = np.sqrt(np.maximum(var, 1e-12))
        eta = X @ beta - X[:, k:] @ np.full(m, center)   # linear predictor, centred cards
        self.have = [X[:, k + j] > 0 for j in range(m)]
        self.base = [eta[h] - self.bc[j] for j, h in enumerate(self.have)]
        self.shift = 0.0
        self.shift = sum(self.points(j, self.bc[j]) for j in range(m)) / m

    def points(self, j: int, coef: float) -> float:
        """Card j's coefficient `coef` in points of win rate (centred)."""
        base = self.base[j]
        return float(np.mean(_sigmoid(base + coef) - _sigmoid(base))) - self.shift


def effects(recs: list[dict], power: set[str], names: dict[str, str],
            ridge: float = RIDGE, fdr: float = FDR, ages: dict[str, str] | None = None,
            margin: float = MARGIN) -> dict:
    """Per gained card: its centred effect in points of win rate with a 95 % interval, the
    BH-controlled verdict (above / below the curve / no detectable difference / small
    sample) and the model's controls."""
    if not recs or not any(s["gained"] for r in recs for s in r["seats"]):
        return {"cards": [], "sum_of_effects": 0.0}
    mod = Model(recs, power, ages, ridge)
    bc, se = mod.bc, mod.se
    rows = []
    for j, c in enumerate(mod.cards):
        n = int(mod.have[j].sum())
        rows.append({"card": c, "name": names.get(c, c), "seats": n,
                     "effect": mod.points(j, bc[j]),
                     "ci95": [mod.points(j, bc[j] - 1.96 * se[j]),
                              mod.points(j, bc[j] + 1.96 * se[j])],
                     "log_odds": float(bc[j]), "se": float(se[j]),
                     "p": two_sided_p(bc[j] / se[j]), "small_sample": n < SMALL})
    judged = [r for r in rows if not r["small_sample"]]
    for r in judged:   # one-sided: is the effect beyond ±margin (in points)?
        half = (r["ci95"][1] - r["ci95"][0]) / 2
        z = (abs(r["effect"]) - margin) / max(half / 1.96, 1e-9)
        r["p"] = 0.5 * math.erfc(z / math.sqrt(2))
    qs, hits = benjamini_hochberg([r["p"] for r in judged], fdr)
    for r, q, hit in zip(judged, qs, hits):
        r["q"] = q
        if hit:
            r["verdict"] = "above the curve" if r["effect"] > 0 else "below the curve"
        elif -margin < r["ci95"][0] and r["ci95"][1] < margin:
            r["verdict"] = f"on the curve (within ±{100 * margin:.0f} points)"
        else:
            r["verdict"] = "not settled"
    for r in rows:
        if r["small_sample"]:
            r["q"] = None
            r["verdict"] = f"small sample ({r['seats']} seats)"
    rows.sort(key=lambda r: (r["small_sample"], r["q"] if r["q"] is not None else 1,
                             -r["effect"], r["card"]))
    return {"cards": rows, "sum_of_effects": float(sum(r["effect"] for r in rows)),
            "sum_of_log_odds": float(bc.sum()), "ridge": ridge, "fdr": fdr,
            "margin": margin,
            "controls": ["faction", "seat", "player count", "held the Center (Power picks)",
                         "cards gained", "cards gained per Age"]}


def improvement_when_drawn(recs: list[dict], names: dict[str, str]) -> dict[str, dict]:
    """17lands-style: per card, among the seats that gained it, win rate when drawn minus
    when never drawn, averaged over factions (weights: the harmonic size of both groups),
    with a normal 95 % interval."""
    cell: dict[tuple, list] = {}
    for r in recs:
        for p, s in enumerate(r["seats"]):
            w = won(r, p)
            drawn = set(s.get("drawn", ()))
            for c in set(s["gained"]):
                row = cell.setdefault((c, s["faction"]), [0.0, 0, 0.0, 0])
                j = 0 if c in drawn else 2
                row[j] += w
                row[j + 1] += 1
    per: dict[str, list] = {}
    for (c, _f), (w1, n1, w0, n0) in cell.items():
        if n1 and n0:
            p1, p0 = w1 / n1, w0 / n0
            wt = n1 * n0 / (n1 + n0)
            var = p1 * (1 - p1) / n1 + p0 * (1 - p0) / n0
            per.setdefault(c, []).append((wt, p1 - p0, var, n1, n0))
    out = {}
    for c, parts in per.items():
        tw = sum(p[0] for p in parts)
        est = sum(p[0] * p[1] for p in parts) / tw
        var = sum((p[0] / tw) ** 2 * max(p[2], 0.25 / (p[3] + p[4])) for p in parts)
        se = math.sqrt(var)
        out[c] = {"name": names.get(c, c), "iwd": est, "ci95": [est - 1.96 * se,
                                                                  est + 1.96 * se],
                  "drawn": sum(p[3] for p in parts), "not_drawn": sum(p[4] for p in parts)}
    return out
