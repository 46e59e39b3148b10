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
    """Faction win rates: the fixed-size 95 % interval (thick) and the anytime-valid one the
    verdicts use (thin), the fair share and the verdict's margin."""
    plt = _plt()
    rates = rep["factions"]["win_rate"]
    ver = rep.get("verdicts", {}).get("factions", {})
    names = list(rates)
    fig, ax = plt.subplots(figsize=(6.4, 0.45 * len(names) + 1.8))
    ys = list(range(len(names)))
    vals = [rates[f]["rate"] for f in names]
    for y, f, v in zip(ys, names, vals):
        cs = ver.get("factions", {}).get(f, {}).get("interval")
        if cs:
            ax.plot(cs, [y, y], color="#888", lw=1)
        ax.plot(rates[f]["ci95"], [y, y], color="#4a7bb7", lw=5, solid_capstyle="butt")
        ax.plot([v], [y], "o", color="#1d3f6e", ms=4)
    fair = 1 / rep["run"]["players"]
    ax.axvline(fair, color="#c33", ls="--", label="fair share")
    if ver:
        ax.axvspan(fair - ver["margin"], fair + ver["margin"], color="#c33", alpha=0.08,
                   label=f"fair ±{100 * ver['margin']:.0f} points")
    ax.set_yticks(ys, [label(rep, f) for f in names])
    ax.set_xlabel("share of games won (thick: 95 % interval; thin: anytime-valid interval)")
    ax.set_title(f"Win rate per faction ({rep['run']['games']} games, "
                 f"{rep['run']['players']} players)")
    ax.invert_yaxis()
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.25), ncol=2, fontsize=8)
    fig.tight_layout()
    return _save(fig, out, "win_rates")


def convergence(rep: dict, out: Path) -> str:
    """Each faction's win rate and anytime-valid interval at each look of the lab."""
    conv = rep.get("convergence") or []
    if len(conv) < 2:
        return ""
    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 3.6))
    for f in sorted(conv[-1]["factions"]):
        xs = [c["games"] for c in conv if f in c["factions"]]
        mid = [c["factions"][f][0] for c in conv if f in c["factions"]]
        lo = [c["factions"][f][1] for c in conv if f in c["factions"]]
        hi = [c["factions"][f][2] for c in conv if f in c["factions"]]
        line, = ax.plot(xs, mid, marker="o", ms=3, label=label(rep, f))
        ax.fill_between(xs, lo, hi, color=line.get_color(), alpha=0.12)
    ax.axhline(1 / rep["run"]["players"], color="#c33", ls="--")
    ax.set_xlabel("games played")
    ax.set_ylabel("win rate (anytime-valid interval)")
    ax.set_title("Convergence: the lab looks, and stops when every verdict is settled")
    ax.legend(fontsize=7, ncol=3)
    fig.tight_layout()
    return _save(fig, out, "convergence")


def sweep(rep: dict, out: Path) -> str:
    """What-if curves: per varied value, win rates, game length and round-cap share, each
    with its 95 % interval."""
    sw = rep.get("sweep")
    if not sw:
        return ""
    plt = _plt()
    pts = sw["points"]
    xs = list(range(len(pts)))
    ticks = [", ".join(f"{k.split('.')[-1]}={v}" for k, v in p["at"].items()) for p in pts]
    fig, axes = plt.subplots(1, 3, figsize=(11, 3.6))
    for f in sorted(pts[0]["figures"]["win_rate"]):
        mid = [p["figures"]["win_rate"][f][0] for p in pts]
        err = [[m - p["figures"]["win_rate"][f][1] for m, p in zip(mid, pts)],
               [p["figures"]["win_rate"][f][2] - m for m, p in zip(mid, pts)]]
        axes[0].errorbar(xs, mid, yerr=err, marker="o", ms=3, capsize=2, label=label(rep, f))
    axes[0].set_title("win rate per faction")
    axes[0].legend(fontsize=6, ncol=2)
    for ax, key, title in ((axes[1], "rounds", "average rounds"),
                           (axes[2], "round_cap_share", "share of games at the round cap")):
        mid = [p["figures"][key][0] for p in pts]
        err = [[m - p["figures"][key][1] for m, p in zip(mid, pts)],
               [p["figures"][key][2] - m for m, p in zip(mid, pts)]]
        ax.errorbar(xs, mid, yerr=err, marker="o", capsize=3, color="#4a7bb7")
        ax.set_title(title)
    for ax in axes:
        ax.set_xticks(xs, ticks, rotation=30, ha="right", fontsize=7)
    fig.suptitle("What if: " + "; ".join(sw["varied"]) + " (95 % intervals)")
    fig.tight_layout()
    return _save(fig, out, "sweep")


def ladder(rep: dict, out: Path) -> str:
    """Each faction's win rate under each agent variant (95 % intervals)."""
    lad = rep.get("agents")
    if not lad or not lad.get("variants"):
        return ""
    plt = _plt()
    var = lad["variants"]
    facs = sorted(next(iter(var.values()))["win_rate"])
    fig, ax = plt.subplots(figsize=(6.4, 0.5 * len(facs) + 1.8))
    width = 0.8 / len(var)
    for i, (name, v) in enumerate(sorted(var.items())):
        ys = [j + i * width for j in range(len(facs))]
        vals = [v["win_rate"][f]["rate"] for f in facs]
        err = [[x - v["win_rate"][f]["ci95"][0] for x, f in zip(vals, facs)],
               [v["win_rate"][f]["ci95"][1] - x for x, f in zip(vals, facs)]]
        ax.barh(ys, vals, height=width, xerr=err, capsize=2, label=name)
    ax.axvline(1 / rep["run"]["players"], color="#c33", ls="--")
    ax.set_yticks([j + 0.4 - width / 2 for j in range(len(facs))],
                  [label(rep, f) for f in facs])
    ax.invert_yaxis()
    ax.set_xlabel("win rate")
    ax.set_title("Faction win rates under each agent variant")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return _save(fig, out, "agents")


def cost_curve(rep: dict, out: Path) -> str:
    """Per kind of card with a curve: each card's effect against its price (95 % interval),
    the fitted line, the cards off the curve named."""
    kinds = [(k, e) for k, e in sorted(rep.get("cost_curve", {}).items()) if e["curve"]]
    if not kinds:
        return ""
    plt = _plt()
    cols = min(3, len(kinds))
    rows = -(-len(kinds) // cols)
    fig, axes = plt.subplots(rows, cols, figsize=(3.8 * cols, 3.2 * rows), squeeze=False)
    for ax, (k, e) in zip(axes.flat, kinds):
        c = e["curve"]
        xs = [r["price"] for r in e["cards"]]
        lo, hi = min(xs), max(xs)
        ax.plot([lo - 0.3, hi + 0.3], [100 * (c["intercept"] + c["slope"] * v)
                                       for v in (lo - 0.3, hi + 0.3)], color="#c33", lw=1)
        for i, r in enumerate(sorted(e["cards"], key=lambda r: r["card"])):
            off = r["off_curve"]
            x = r["price"] + 0.04 * (i % 7 - 3)   # (equal prices spread a little)
            err = [[100 * (r["above"] - r["above_ci95"][0])],
                   [100 * (r["above_ci95"][1] - r["above"])]]
            ax.errorbar([x], [100 * r["effect"]], yerr=err, fmt="o", ms=3, capsize=1,
                        lw=0.6, color="#c33" if off else "#4a7bb7")
            if off:
                ax.annotate(r["name"], (x, 100 * r["effect"]), fontsize=6,
                            xytext=(3, 2), textcoords="offset points")
        ax.set_title(f"{k} ({c['cards']} cards)", fontsize=8)
        ax.set_xlabel("cost (Mana + Gold)")
        ax.set_ylabel("effect (points of win rate)")
    for ax in list(axes.flat)[len(kinds):]:
        ax.axis("off")
    fig.suptitle("Cost curve: each card's effect against its price (red: off the curve)")
    fig.tight_layout()
    return _save(fig, out, "cost_curve")


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
    fig.colorbar(im, ax=ax, label="row finishes ahead of column")
    ax.set_title("Head to head: how often the row finishes ahead of the column")
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
         "length": lengths, "convergence": convergence, "sweep": sweep, "agents": ladder,
         "cost_curve": cost_curve}


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
