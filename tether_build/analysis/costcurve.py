"""A fitted cost curve: where each card's price sits against cards like it.

For the cards of one kind (by default the cards of one deck: the market cards of an Age,
the Power cards of an Age), the card model's effect (cardmodel.effects: points of win rate
against an average gain, the confounders taken out) is fitted against the card's price
from content (its cost: Mana + Gold) by a straight line. A card above the line does more
than cards of its price; read back through the line's slope, it is "priced N under the
curve": the price at which cards like it reach its effect, minus its own price.

The interval is a bootstrap: each replicate resamples the kind's cards (the curve's
uncertainty) and redraws every card's effect from its own interval (the card's
uncertainty), refits the line and reads each card against it. A kind with fewer than
MIN_CARDS judged cards, or a single price, gets no curve (labelled, not fitted); a card
gained by too few seats (cardmodel.SMALL) is labelled and left out of the fit. The price
gap is given in price units only when the curve rises with the price (its slope's interval
above zero); otherwise the card is placed in points of win rate against cards like it.
"""

from __future__ import annotations

import numpy as np

from .inference import benjamini_hochberg, two_sided_p

MIN_CARDS = 5     # judged cards a kind needs for a curve
REPS = 1000
FDR = 0.05


def prices(rules) -> dict[str, float]:
    """Card id -> its price from content: the Mana and Gold it costs to play."""
    return {c.id: float((c.mana or 0) + (c.gold or 0)) for c in rules.cards}


def kinds(rules, by: str = "deck") -> dict[str, str]:
    """Card id -> its kind: its deck (market or Power cards of an Age: the default), its
    category or its type; starter and faction cards (never bought) have none."""
    out = {}
    for c in rules.cards:
        if c.deck in ("starter", "faction") or c.faction:
            continue
        out[c.id] = str(getattr(c, by) or "-")
    return out


def _line(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """Least-squares intercept and slope (slope 0 when x does not vary)."""
    xm = x.mean()
    sxx = float(((x - xm) ** 2).sum())
    b = float(((x - xm) * (y - y.mean())).sum() / sxx) if sxx > 0 else 0.0
    return float(y.mean() - b * xm), b


def _loo(x: np.ndarray, y: np.ndarray, w: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per card j, the weighted least-squares line of the other cards (card j's weight
    set to 0): a card is read against cards like it, not against a curve it pulls."""
    sums = [float((w * v).sum()) for v in (np.ones_like(x), x, x * x, y, x * y)]
    s0, sx, sxx, sy, sxy = (t - w * v for t, v in zip(
        sums, (np.ones_like(x), x, x * x, y, x * y)))
    with np.errstate(divide="ignore", invalid="ignore"):
        den = s0 * sxx - sx * sx
        b = np.where(den > 1e-12, (s0 * sxy - sx * sy) / np.where(den > 1e-12, den, 1), 0.0)
        a = np.where(s0 > 0, (sy - b * sx) / np.where(s0 > 0, s0, 1), np.nan)
    return a, b


def fit(effects: list[dict], price: dict[str, float], kind: dict[str, str],
        reps: int = REPS, seed: int = 0, min_cards: int = MIN_CARDS,
        fdr: float = FDR) -> dict:
    """Per kind: the fitted line (intercept, slope with a 95 % bootstrap interval) and per
    card its place against it: points above the curve and (when the curve rises) the price
    gap, each with a 95 % bootstrap interval, and a sentence. A card is off the curve when
    its distance from it is detectable with the false discoveries controlled
    (Benjamini-Hochberg over every card of every kind, p from the bootstrap's spread)."""
    rng = np.random.default_rng(seed)
    groups: dict[str, list[dict]] = {}
    for e in effects:
        if e["card"] in kind and e["card"] in price:
            groups.setdefault(kind[e["card"]], []).append(e)
    out = {}
    for g, rows in sorted(groups.items()):
        judged = sorted((r for r in rows if not r.get("small_sample")),
                        key=lambda r: r["card"])
        small = [r for r in rows if r.get("small_sample")]
        x = np.array([price[r["card"]] for r in judged])
        entry = {"kind": g, "cards": [], "small_sample": [r["name"] for r in small]}
        out[g] = entry
        if len(judged) < min_cards or len(set(x.tolist())) < 2:
            entry["curve"] = None
            entry["note"] = (f"small sample: {len(judged)} judged card(s), "
                             f"{len(set(x.tolist()))} price(s): no curve fitted")
            continue
        y = np.array([r["effect"] for r in judged])
        se = np.array([max((r["ci95"][1] - r["ci95"][0]) / 3.92, 1e-9) for r in judged])
        a, b = _line(x, y)
        m = len(judged)
        a0, b0 = _loo(x, y, np.ones(m))
        res = np.empty((reps, m))
        gap = np.empty((reps, m))
        slopes = np.empty(reps)
        loo = np.empty((reps, m))
        for i in range(reps):
            ys = y + rng.normal(0.0, se)
            w = np.bincount(rng.integers(0, m, m), minlength=m).astype(float)
            slopes[i] = _line(np.repeat(x, w.astype(int)), np.repeat(ys, w.astype(int)))[1]
            ai, bi = _loo(x, ys, w)
            loo[i] = bi
            res[i] = ys - (ai + bi * x)
            gap[i] = np.where(bi > 0, res[i] / np.where(bi > 0, bi, 1.0), np.nan)
        s_lo, s_hi = np.quantile(slopes, [0.025, 0.975])
        rising = bool(s_lo > 0 and b > 0)
        entry["curve"] = {"intercept": a, "slope": b, "slope_ci95": [float(s_lo),
                                                                       float(s_hi)],
                          "rising": rising, "cards": m}
        for j, r in enumerate(judged):
            above = float(y[j] - (a0[j] + b0[j] * x[j]))
            col = res[:, j][~np.isnan(res[:, j])]
            lo, hi = np.quantile(col, [0.025, 0.975])
            row = {"card": r["card"], "name": r["name"], "price": float(x[j]),
                   "effect": float(y[j]), "above": above, "above_ci95": [float(lo),
                                                                         float(hi)]}
            gs = gap[:, j][~np.isnan(gap[:, j])]
            up = np.quantile(loo[:, j], 0.025) > 0   # the other cards' curve rises
            if up and b0[j] > 0 and len(gs) >= reps // 2:
                glo, ghi = np.quantile(gs, [0.025, 0.975])
                row["gap"] = above / b0[j]
                row["gap_ci95"] = [float(glo), float(ghi)]
            sd = float(col.std())
            row["p"] = two_sided_p(above / sd) if sd > 0 else 1.0
            entry["cards"].append(row)
        entry["cards"].sort(key=lambda r: -r["above"])
    rows = [r for e in out.values() for r in e["cards"]]
    qs, hits = benjamini_hochberg([r["p"] for r in rows], fdr)
    for r, q, hit in zip(rows, qs, hits):
        r["q"], r["off_curve"] = q, hit
        r["sentence"] = sentence(r, kind[r["card"]])
    return out


def sentence(row: dict, kind: str) -> str:
    """'Quick March (cost 1, age1_market) is priced 1.2 under the curve [+0.3, +2.1] ...'."""
    def pts(v):
        return f"{100 * v:+.1f}"
    lo, hi = row["above_ci95"]
    where = (f"{pts(row['above'])} points of win rate against cards like it "
             f"[{pts(lo)}, {pts(hi)}]")
    noise = "" if row.get("off_curve") else ": within the noise (false discovery rate 5 %)"
    head = f"{row['name']} (cost {row['price']:g}, {kind})"
    if "gap" not in row:
        return (f"{head}: {where}{noise}; the curve does not rise with the price here, "
                "so no price gap is given.")
    g, (glo, ghi) = row["gap"], row["gap_ci95"]
    side = "under" if g > 0 else "over"
    return (f"{head} is priced {abs(g):.1f} {side} the curve [{glo:+.1f}, {ghi:+.1f}] "
            f"(cost in Mana + Gold; + means cheap for what it does){noise}; {where}.")
