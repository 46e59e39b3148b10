"""The report's plots (matplotlib, Agg): SVG for the page, PNG beside it."""

from __future__ import annotations

import io
import math
from pathlib import Path


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    plt.rcParams.update({"svg.hashsalt": "tether", "font.size": 9})
    return plt


def label(rep: dict, fid: str) -> str:
    """The faction's name as players read it (its id if the report has none)."""
    return rep.get("names", {}).get(fid, fid)


def _save(fig, out: Path, name: str) -> str:
    """Write NAME.png beside the report; return the SVG text."""
    buf = io.StringIO()
    fig.savefig(buf, format="svg", metadata={"Date": None})
    fig.savefig(out / f"{name}.png", dpi=120, metadata={"Software": None})
    import matplotlib.pyplot as plt

    plt.close(fig)
    svg = buf.getvalue()
    return svg[svg.index("<svg"):]


def win_rates(rep: dict, out: Path) -> str:
    """Faction win rates with 95 % intervals and the fair share."""
    plt = _plt()
    rates = rep["factions"]["win_rate"]
    names = list(rates)
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * len(names) + 1.6))
    vals = [rates[f]["rate"] for f in names]
    err = [[v - rates[f]["ci95"][0] for f, v in zip(names, vals)],
           [rates[f]["ci95"][1] - v for f, v in zip(names, vals)]]
    ax.barh([label(rep, f) for f in names], vals, xerr=err, color="#4a7bb7", capsize=3, label="win rate (95 % interval)")
    ax.axvline(1 / rep["run"]["players"], color="#c33", ls="--", label="fair share")
    ax.set_xlabel("share of games won")
    ax.set_title(f"Win rate per faction ({rep['run']['games']} games, "
                 f"{rep['run']['players']} players)")
    ax.invert_yaxis()
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.22), ncol=2, fontsize=8)
    fig.tight_layout()
    return _save(fig, out, "win_rates")


def matrix(rep: dict, out: Path) -> str:
    """Head-to-head: how often the row faction finishes ahead of the column faction."""
    plt = _plt()
    m = rep["factions"]["matrix"]
    names = list(m)
    grid = [[(m[a][b]["rate"] if m[a][b] else float("nan")) for b in names] for a in names]
    fig, ax = plt.subplots(figsize=(0.7 * len(names) + 2.6, 0.6 * len(names) + 1.6))
    im = ax.imshow(grid, cmap="RdBu", vmin=0, vmax=1)
    shown = [label(rep, f) for f in names]
    ax.set_xticks(range(len(names)), shown, rotation=40, ha="right")
    ax.set_yticks(range(len(names)), shown)
    for i, row in enumerate(grid):
        for j, v in enumerate(row):
            if not math.isnan(v):
                ax.text(j, i, f"{v:.0%}", ha="center", va="center", fontsize=7)
    fig.colorbar(im, ax=ax, label="row beats column")
    ax.set_title("Faction against faction")
    fig.tight_layout()
    return _save(fig, out, "matrix")


def permanence(rep: dict, out: Path) -> str:
    """Average total Permanence after each round's Scoring, per faction."""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    for f, rows in rep["shape"]["permanence_by_round"].items():
        xs = [int(k) for k in rows]
        ax.plot(xs, list(rows.values()), marker="o", ms=3, label=label(rep, f))
    ax.set_xlabel("round")
    ax.set_ylabel("average total Permanence")
    ax.set_title("Permanence over the rounds, per faction")
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    return _save(fig, out, "permanence")


def lengths(rep: dict, out: Path) -> str:
    """How many rounds games last."""
    plt = _plt()
    ln = rep["shape"]["length"]
    fig, ax = plt.subplots(figsize=(6.4, 3.0))
    ax.bar([int(k) for k in ln], list(ln.values()), color="#6a9f58")
    ax.set_xlabel("rounds played")
    ax.set_ylabel("games")
    ax.set_title("Game length")
    fig.tight_layout()
    return _save(fig, out, "length")


PLOTS = {"win_rates": win_rates, "matrix": matrix, "permanence": permanence,
         "length": lengths}


def warm() -> None:
    """Import matplotlib now (about 0.3 s): the balance lab does it while its workers play."""
    _plt()


def _one(name: str, rep: dict, out: Path) -> str:
    return PLOTS[name](rep, out)


def all_plots(rep: dict, out: Path, workers: int = 1) -> dict[str, str]:
    """Every plot: name -> SVG text (PNG files written into `out`); drawn side by side in
    `workers` forked processes when there are two or more (the same files: each plot is
    drawn by the same code from the same report, matplotlib imported before the fork)."""
    import multiprocessing

    _plt()
    if workers < 2 or "fork" not in multiprocessing.get_all_start_methods():
        return {name: fn(rep, out) for name, fn in PLOTS.items()}
    from ..forking import fork_pool

    with fork_pool(min(workers, len(PLOTS))) as pool:
        futures = {name: pool.submit(_one, name, rep, out) for name in PLOTS}
        return {name: f.result() for name, f in futures.items()}
