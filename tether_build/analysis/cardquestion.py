"""'Is this card above the curve?' asked sequentially: the lab plays until it is settled or
the budget is spent.

The card's effect is the card model's (cardmodel.Model: its centred coefficient in the
win model, against an average gain by a seat in the same position). At every look the
coefficient's interval is the normal-mixture confidence sequence (Robbins; Howard et al.,
Ann. Statist. 2021) on the model's estimate and its standard error: with V = 1 / se^2 and
a mixing precision RHO fixed in advance, the half-width is

    sqrt(2 (V + RHO) / V^2 * (log(1 / alpha) + log((V + RHO) / RHO) / 2)),

valid at every look at once as the estimate's normal approximation holds (an asymptotic
confidence sequence, as for a regression coefficient in Lindon et al. 2022), about 1.6
times a fixed-size 95 % interval at the sizes the lab plays. The intervals are intersected
over the looks (in log-odds), as the faction question's are, and shown in points of win
rate. The verdict: above the curve (the whole interval beyond +margin), below it (beyond
-margin), no detectable difference (the whole interval inside ±margin), else not settled.
"""

from __future__ import annotations

import math

from . import cardmodel
from .verdicts import ALPHA

RHO = 5.0   # mixing precision (log-odds^-2): tightest where 1/se^2 is near 7.9 RHO (se 0.16)


def half_width(se: float, alpha: float = ALPHA, rho: float = RHO) -> float:
    """The normal-mixture confidence sequence's half-width at standard error se."""
    v = 1.0 / max(se, 1e-12) ** 2
    return math.sqrt(2 * (v + rho) / v ** 2 * (math.log(1 / alpha)
                                              + 0.5 * math.log((v + rho) / rho)))


def find(card: str, names: dict[str, str], ids) -> str:
    """A card's id from its id or its name (case and spaces ignored); ValueError if none."""
    ids = list(ids)
    if card in ids:
        return card
    key = " ".join(card.lower().split())
    hits = [i for i in ids if " ".join(names.get(i, i).lower().split()) == key]
    if len(hits) == 1:
        return hits[0]
    raise ValueError(f"no card {card!r} (give its id or its name as printed)"
                     if not hits else f"{card!r} names {len(hits)} cards: "
                     f"{', '.join(hits)} (give the id)")


class CardQuestion:
    """The question, looked at as the run goes on (`look(records)` at each of the lab's
    looks); `answer()` the verdict and its sentence."""

    def __init__(self, card: str, power: set[str], names: dict[str, str],
                 ages: dict[str, str] | None = None, margin: float = 0.05,
                 alpha: float = ALPHA):
        self.card, self.power, self.names, self.ages = card, power, names, ages
        self.margin, self.alpha = margin, alpha
        self.lo, self.hi = -math.inf, math.inf
        self.trace: list[dict] = []
        self.last: dict | None = None

    def look(self, recs: list[dict]) -> dict:
        """Refit on the records so far; narrow the interval; the verdict now."""
        row = {"games": len(recs), "seats": 0, "effect": None, "interval": None,
               "verdict": "not settled"}
        gained = any(self.card in s["gained"] for r in recs for s in r["seats"])
        if gained:
            mod = cardmodel.Model(recs, self.power, self.ages, cardmodel.RIDGE)
            j = mod.cards.index(self.card)
            b, w = float(mod.bc[j]), half_width(float(mod.se[j]), self.alpha)
            lo, hi = max(self.lo, b - w), min(self.hi, b + w)
            if lo > hi:   # (an empty intersection: the latest look alone)
                lo, hi = b - w, b + w
            self.lo, self.hi = lo, hi
            pts = [mod.points(j, lo), mod.points(j, hi)]
            row.update(seats=int(mod.have[j].sum()), effect=mod.points(j, b), interval=pts,
                       log_odds=[lo, hi])
            m = self.margin
            row["verdict"] = ("above the curve" if pts[0] > m else
                              "below the curve" if pts[1] < -m else
                              "no detectable difference" if -m <= pts[0] and pts[1] <= m
                              else "not settled")
        self.trace.append({k: row[k] for k in ("games", "effect", "interval", "verdict")})
        self.last = row
        return row

    @property
    def settled(self) -> bool:
        return self.last is not None and self.last["verdict"] != "not settled"

    def answer(self, budget: int) -> dict:
        """The verdict, its sentence and how the run ended (settled or budget spent)."""
        r = self.last or {"games": 0, "seats": 0, "effect": None, "interval": None,
                          "verdict": "not settled"}
        name = self.names.get(self.card, self.card)
        m = f"{100 * self.margin:.1f}"
        head = f"Is {name} above the curve (by more than {m} points of win rate)?"
        if r["effect"] is None:
            text = f"{name} was never gained in {r['games']} games: nothing to judge."
        else:
            lo, hi = r["interval"]
            fig = (f"{100 * r['effect']:+.1f} points [{100 * lo:+.1f}, {100 * hi:+.1f}] "
                   f"against an average gain ({r['seats']} seats gained it, "
                   f"{r['games']} games)")
            if r["verdict"] == "no detectable difference":
                text = f"{name}: no detectable difference (±{m} points): {fig}."
            elif r["verdict"] == "not settled":
                text = f"{name}: not settled, {fig}: more games needed."
            else:
                text = f"{name} is {r['verdict']}: {fig}."
        ended = ("settled" if r["verdict"] != "not settled" else
                 f"budget of {budget} games spent")
        answer = {"above the curve": "yes", "below the curve": "no",
                  "no detectable difference": "no"}.get(r["verdict"], "not settled")
        return {"question": head, "card": self.card, "name": name, "answer": answer,
                "verdict": r["verdict"], "effect": r["effect"], "interval": r["interval"],
                "games": r["games"], "seats": r["seats"], "ended": ended,
                "margin": self.margin, "alpha": self.alpha, "sentence": text,
                "looks": self.trace}
