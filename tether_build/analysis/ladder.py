"""How much is the AI: an agent ladder with ratings, and the faction verdicts re-run under
variants of the heuristic's weights (robust, or agent-dependent)."""

from __future__ import annotations

import math

import numpy as np

from ..engine.agents import HeuristicAgent
from .stats import finishing

# Variants of the heuristic: weights.py constants scaled or replaced for every seat of a
# run (the native agent reads one weight set per request, so a game has one variant).
VARIANTS: dict[str, dict] = {
    "heuristic": {},
    "aggressive": {"ARMY": 3.0, "APPROACH_ARMY": 1.2, "CLOSE_BONUS": 6.0},
    "economic": {"CATEGORY": {"economy": 4.0, "victory": 4.0}, "VICTORY_BID": 5},
    "cautious": {"ARMY": 7.0, "APPROACH_MOVE": 0.5, "APPROACH_ARMY": 0.5},
}


def apply_weights(over: dict) -> dict:
    """Set weights.py constants (dicts merged key by key); return what to restore."""
    from ..engine import weights

    saved = {}
    for k, v in over.items():
        old = getattr(weights, k)
        saved[k] = old
        setattr(weights, k, {**old, **v} if isinstance(v, dict) else v)
    return saved


SEARCH_ITERATIONS = 8   # the ladder's search budget per searched decision (the agent's
                        # default is 48: in Python that is minutes per four-player game)


def make_agent(name: str, spec: dict):
    """A fresh agent for a seat: 'search' with the run's budget (spec["search_iterations"]),
    a heuristic variant by its name (VARIANTS), else the engine's agent of that name."""
    from ..engine.simulate import AGENTS

    if name == "search":
        from ..engine.search import SearchAgent

        return SearchAgent(iterations=spec.get("search_iterations", SEARCH_ITERATIONS))
    if name in VARIANTS and name != "heuristic":
        return VariantAgent(name, VARIANTS[name])
    return AGENTS[name]()


class VariantAgent(HeuristicAgent):
    """The heuristic with its weights replaced while it chooses (and restored after): one
    seat may play a variant while the others play the heuristic (in the Python engine)."""

    def __init__(self, name: str, over: dict):
        self.name, self.over = name, over

    def choose(self, g, p, kind, options, ctx=None) -> int:
        """The heuristic's choice under the variant's weights."""
        saved = apply_weights(self.over)
        try:
            return super().choose(g, p, kind, options, ctx)
        finally:
            apply_weights(saved)


def elo(recs: list[dict], agents: list[str], anchor: str = "heuristic",
        reps: int = 200, seed: int = 0) -> list[dict]:
    """Bradley-Terry ratings (Elo scale) from the finishing order of seats with different
    agents; a 95 % bootstrap interval over games; `anchor` at 0."""
    idx = {a: i for i, a in enumerate(agents)}
    pairs = []   # per game: list of (i, j, score of i)
    for r in recs:
        place = finishing(r)
        names = [s["agent"] for s in r["seats"]]
        game = []
        for p in range(len(names)):
            for q in range(p + 1, len(names)):
                if names[p] != names[q]:
                    s = 1.0 if place[p] < place[q] else 0.5 if place[p] == place[q] else 0.0
                    game.append((idx[names[p]], idx[names[q]], s))
        pairs.append(game)

    def fit(games) -> np.ndarray:
        w = np.zeros((len(agents), len(agents)))
        for g in games:
            for i, j, s in g:
                w[i, j] += s
                w[j, i] += 1 - s
        r = np.zeros(len(agents))
        for _ in range(200):   # MM updates of the Bradley-Terry strengths (log scale)
            p = np.exp(r)
            n = w + w.T
            denom = (n / (p[:, None] + p[None, :])).sum(axis=1)
            new = np.log(np.maximum(w.sum(axis=1) + 0.5, 1e-9) / np.maximum(denom, 1e-12))
            new -= new[idx.get(anchor, 0)]
            if np.max(np.abs(new - r)) < 1e-8:
                break
            r = new
        return r * 400 / math.log(10)

    point = fit(pairs)
    rng = np.random.default_rng(seed)
    boots = np.array([fit([pairs[i] for i in rng.integers(0, len(pairs), len(pairs))])
                      for _ in range(reps)]) if len(pairs) > 1 else np.zeros((1, len(agents)))
    return [{"agent": a, "rating": float(point[i]),
             "ci95": [float(np.quantile(boots[:, i], 0.025)),
                      float(np.quantile(boots[:, i], 0.975))]}
            for i, a in enumerate(agents)]


def robustness(base: dict, variants: dict[str, dict], names: dict[str, str],
               fair: float, margin: float) -> dict:
    """Per faction: the verdict under the default agent and the win-rate range across the
    variants; robust when every variant's 95 % interval sits on the same side of the fair
    band (above fair + margin, below fair - margin, or inside it) as the default verdict,
    agent-dependent when one contradicts it, else not settled."""
    out, sentences = {}, []
    for f, v in base["factions"].items():
        rates = [var["win_rate"][f] for var in variants.values() if f in var["win_rate"]]
        lo = min(r["rate"] for r in rates)
        hi = max(r["rate"] for r in rates)
        side = {"too strong": 1, "too weak": -1, "fair": 0}.get(v["verdict"])

        def where(r):
            a, b = r["ci95"]
            return 1 if a > fair + margin else -1 if b < fair - margin else (
                0 if a >= fair - margin and b <= fair + margin else None)
        sides = [where(r) for r in rates]
        if side is not None and all(s == side for s in sides):
            tag = "robust"
        elif side is not None and any(s is not None and s != side for s in sides):
            tag = "agent-dependent"
        else:
            tag = "not settled"
        out[f] = {"verdict": v["verdict"], "range": [lo, hi], "robustness": tag}
        sentences.append(f"{names.get(f, f)}: {v['verdict']} under the default agent; "
                         f"{100 * lo:.1f}-{100 * hi:.1f} % across {len(rates)} agent "
                         f"variants: {tag}.")
    return {"factions": out, "sentences": sentences}
