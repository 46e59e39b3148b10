"""The report as one HTML page (plots inline), report.json and cards.csv."""

from __future__ import annotations

import csv
import html
import io
import json
from pathlib import Path

from .plots import all_plots, label

CSV_FIELDS = ["card", "offered", "bought", "average_price", "played", "gained_games",
              "win_when_gained", "win_when_gained_vs_baseline", "played_in_games",
              "win_when_played_in", "win_when_played_in_vs_baseline", "small_sample", "dead",
              "always_bought"]


def _pct(v) -> str:
    return "-" if v is None else f"{v:.0%}"


def _signed(v) -> str:
    return "-" if v is None else f"{v:+.0%}"


def headline(rep: dict) -> dict[str, float]:
    """The figures compared side by side against a baseline or a removal run."""
    out = {f"win rate: {label(rep, f)}": v["rate"]
           for f, v in rep["factions"]["win_rate"].items()}
    out.update({k.replace("_", " "): v for k, v in rep["summary"].items()})
    sh = rep["shape"]
    out["average rounds"] = sh["average_rounds"]
    out["battles per game"] = sh["battles_per_game"]
    out["cards played per game"] = sh["cards_played_per_game"]
    return out


def compare(now: dict, other: dict) -> list[list]:
    """[figure, now, other, change] for every headline figure."""
    a, b = headline(now), headline(other)
    return [[k, a.get(k), b.get(k), (a[k] - b[k]) if k in a and k in b else None]
            for k in sorted(set(a) | set(b))]


def _table(rows, head) -> str:
    h = "".join(f"<th>{html.escape(x)}</th>" for x in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{h}</tr>{body}</table>"


def _cards_section(rep: dict) -> str:
    rows = sorted(rep["cards"], key=lambda c: -(c["win_when_played_in_vs_baseline"] or -9))
    body = []
    for c in rows:
        warn = " ⚠ small sample" if c["small_sample"] else ""
        tags = ", ".join(t for t, on in (("dead", c["dead"]), ("always bought",
                                                              c["always_bought"])) if on)
        lo_hi = c["win_when_played_in_ci95"]
        ci = f" [{lo_hi[0]:.0%}, {lo_hi[1]:.0%}]" if lo_hi else ""
        price = "-" if c["average_price"] is None else f"{c['average_price']:.1f}"
        body.append([html.escape(c["card"]), c["offered"], c["bought"], price, c["played"],
                     _pct(c["win_when_gained"]), _signed(c["win_when_gained_vs_baseline"]),
                     _pct(c["win_when_played_in"]) + ci + warn,
                     _signed(c["win_when_played_in_vs_baseline"]), tags])
    return _table(body, ["card", "offered", "bought", "avg price", "played", "win when gained",
                         "vs baseline", "win when played (95 %)", "vs baseline", "flags"])


def page(rep: dict, svgs: dict[str, str], comparisons: dict[str, list]) -> str:
    """The whole report page."""
    fac = rep["factions"]
    s = rep["summary"]
    sh = rep["shape"]
    run = rep["run"]
    wr = _table([[html.escape(label(rep, f)), v["n"], f"{v['rate']:.1%}",
                  f"{v['ci95'][0]:.1%} - {v['ci95'][1]:.1%}"]
                 for f, v in fac["win_rate"].items()],
                ["faction", "seats", "win rate", "95 % interval"])
    seats = _table([[p + 1, f"{v['rate']:.1%}", f"{v['ci95'][0]:.1%} - {v['ci95'][1]:.1%}"]
                    for p, v in fac["by_seat"].items()], ["seat", "win rate", "95 % interval"])
    metrics = _table([[k.replace("_", " "), f"{v:.3f}"] for k, v in s.items()],
                     ["figure", "value"])
    holes = _table([[k.replace("_", " "), "-" if v is None else
                     (f"{v:.1%}" if isinstance(v, float) else v)]
                    for k, v in sh["holes"].items()], ["rule hole", "value"])
    cmp_html = ""
    for title, rows in comparisons.items():
        cmp_html += f"<h2>{html.escape(title)}</h2>" + _table(
            [[html.escape(k), "-" if a is None else f"{a:.3f}", "-" if b is None else f"{b:.3f}",
              "-" if d is None else f"{d:+.3f}"] for k, a, b, d in rows],
            ["figure", "this run", "other", "change"])
    return f"""<!doctype html><html><head><meta charset="utf-8">
<title>Balance report</title><style>
body{{font-family:sans-serif;max-width:70em;margin:1em auto;padding:0 1em}}
table{{border-collapse:collapse;margin:.5em 0 1.5em}} td,th{{border:1px solid #ccc;
padding:2px 6px;font-size:90%;text-align:right}} td:first-child{{text-align:left}}
svg{{max-width:100%;height:auto}}</style></head><body>
<h1>Balance report</h1>
<p>{run['games']} games, {run['players']} players, agents {html.escape(', '.join(run['agents']))},
seeds {run['seed']}-{run['seed'] + run['games'] - 1}. Intervals are 95 % Wilson intervals.</p>
<h2>Factions</h2>{svgs['win_rates']}{wr}
<h3>Faction against faction</h3>{svgs['matrix']}
<h3>Win rate by seat</h3>{seats}
<h3>Summary</h3>{metrics}
<h2>Cards</h2><p>Win rates of the seats that gained / played the card, against the same
seats' faction win rate (baseline). ⚠ marks fewer than 30 games.</p>{_cards_section(rep)}
<h2>Game shape</h2>{svgs['length']}{svgs['permanence']}
<p>Battles per game {sh['battles_per_game']:.2f}; cards played per game
{sh['cards_played_per_game']:.1f}; endings {html.escape(str(sh['endings']))}.</p>{holes}
{cmp_html}</body></html>"""


def write(rep: dict, out: Path, comparisons: dict[str, list] | None = None,
          workers: int = 1) -> list[Path]:
    """report.html (plots inline, PNG beside), report.json and cards.csv into `out`; the
    plots drawn over `workers` processes (the same files for any number)."""
    out.mkdir(parents=True, exist_ok=True)
    comparisons = comparisons or {}
    svgs = all_plots(rep, out, workers)
    data = dict(rep, comparisons={k: v for k, v in comparisons.items()})
    (out / "report.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    buf = io.StringIO()
    w = csv.DictWriter(buf, CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    w.writerows(rep["cards"])
    (out / "cards.csv").write_text(buf.getvalue())
    (out / "report.html").write_text(page(rep, svgs, comparisons))
    return [out / n for n in ("report.html", "report.json", "cards.csv")]
