"""The report as one HTML page (plots inline), report.json and cards.csv. The page leads
with the verdicts in plain English, the detail below."""

from __future__ import annotations

import csv
import html
import io
import json
from pathlib import Path

from . import costcurve, verdicts
from .plots import all_plots, label

CSV_FIELDS = ["card", "name", "seats", "effect", "effect_ci_low", "effect_ci_high", "q",
              "verdict", "improvement_when_drawn", "iwd_ci_low", "iwd_ci_high", "offered",
              "bought", "average_price", "played", "gained_games", "played_in_games",
              "win_when_gained", "win_when_played_in", "small_sample", "dead",
              "always_bought", "kind", "price", "above_curve", "above_curve_ci_low",
              "above_curve_ci_high", "price_gap", "price_gap_ci_low", "price_gap_ci_high",
              "off_curve"]


SHOWN = 5   # cards above / below the curve named among the verdicts (the rest: the table)


def _pct(v) -> str:
    return "-" if v is None else f"{v:.1%}"


def _pts(v) -> str:
    return "-" if v is None else f"{100 * v:+.1f}"


def _ci(ci, fmt=lambda x: f"{100 * x:.1f}") -> str:
    return "" if not ci else f" [{fmt(ci[0])}, {fmt(ci[1])}]"


def _table(rows, head) -> str:
    h = "".join(f"<th>{html.escape(x)}</th>" for x in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><tr>{h}</tr>{body}</table>"


def figure_name(rep: dict, key: str) -> str:
    """'win rate: fid' with the faction's name."""
    if key.startswith("win rate: "):
        return "win rate: " + label(rep, key[len("win rate: "):])
    return key


def card_rows(rep: dict) -> list[dict]:
    """The card table: the model's effect and verdict, improvement when drawn and the
    plain counts, settled cards first (by q), small samples below."""
    counts = {c["card"]: c for c in rep["cards"]}
    for kind, e in rep.get("cost_curve", {}).items():
        for r in e["cards"]:
            counts[r["card"]] = dict(
                counts.get(r["card"], {}), kind=kind, price=r["price"],
                above_curve=r["above"], above_curve_ci_low=r["above_ci95"][0],
                above_curve_ci_high=r["above_ci95"][1], price_gap=r.get("gap"),
                price_gap_ci_low=(r.get("gap_ci95") or [None])[0],
                price_gap_ci_high=(r.get("gap_ci95") or [None, None])[1],
                off_curve=r["off_curve"])
    iwd = rep.get("improvement_when_drawn", {})
    out = []
    seen = set()
    for e in rep.get("card_effects", {}).get("cards", []):
        c = counts.get(e["card"], {})
        w = iwd.get(e["card"], {})
        out.append({**c, **e, "effect_ci_low": e["ci95"][0], "effect_ci_high": e["ci95"][1],
                    "improvement_when_drawn": w.get("iwd"),
                    "iwd_ci_low": (w.get("ci95") or [None])[0],
                    "iwd_ci_high": (w.get("ci95") or [None, None])[1]})
        seen.add(e["card"])
    for c in rep["cards"]:   # never gained: starter and faction cards, dead cards
        if c["card"] not in seen:
            out.append({**c, "verdict": "not gained in play (starter, faction or dead)",
                        "seats": 0})
    return out


def _verdicts(rep: dict, comparisons: dict) -> str:
    v = rep["verdicts"]["factions"]
    games = rep["run"]["games"]
    parts = ["<h2>Verdicts</h2>"]
    card = rep["verdicts"].get("card")
    if card:
        parts.append(f"<p class=q>{html.escape(card['question'])} "
                     f"<b>{html.escape(answer(card['answer']))}</b> "
                     f"({html.escape(card['ended'])}; anytime-valid 95 % interval, looked "
                     f"at {len(card['looks'])} times)</p><ul><li>"
                     f"{html.escape(card['sentence'])}</li></ul>")
    parts += [(f"<p class=q>{html.escape(v['question'])} "
              f"<b>{html.escape(answer(v['answer']))}</b> after {games} games "
              f"(anytime-valid 95 % intervals, {v['alpha']:.0%} error shared over the "
              "factions).</p>")]
    if not v["settled"]:
        parts.append("<p class=warn>This run is too small to settle every faction: those "
                     "marked 'not settled' are not ranked. Raise --games (the budget) to "
                     "settle them.</p>")
    parts.append("<ul>" + "".join(f"<li>{html.escape(s)}</li>" for s in v["sentences"])
                 + "</ul>")
    rob = rep.get("agents", {}).get("robustness")
    if rob:
        parts.append("<p>Across agent variants:</p><ul>" + "".join(
            f"<li>{html.escape(s)}</li>" for s in rob["sentences"]) + "</ul>")
    for title, cmp in comparisons.items():
        if cmp.get("verdict"):
            e = cmp["verdict"]
            parts.append(f"<p class=q>{html.escape(title)}: {html.escape(e['question'])} "
                         f"<b>{html.escape(answer(e['answer']))}</b></p><ul>" + "".join(
                             f"<li>{html.escape(p['sentence'])}</li>" for p in e["parts"])
                         + "</ul>")
    eff = rep.get("card_effects", {})
    hot = [c for c in eff.get("cards", []) if c.get("verdict", "").endswith("curve")]
    judged = [c for c in eff.get("cards", []) if not c["small_sample"]]
    if eff.get("cards"):
        up = sorted((c for c in hot if c["effect"] > 0), key=lambda c: -c["effect"])
        down = sorted((c for c in hot if c["effect"] < 0), key=lambda c: c["effect"])
        shown = up[:SHOWN] + down[:SHOWN]
        text = "; ".join(f"{c['name']} {c['verdict']} ({_pts(c['effect'])} points"
                         f"{_ci(c['ci95'], lambda x: f'{100 * x:+.1f}')})" for c in shown)
        if len(hot) > len(shown):
            text += f"; and {len(hot) - len(shown)} more in the table below"
        parts.append(f"<p>Cards (false discovery rate {eff['fdr']:.0%} over {len(judged)} "
                     f"cards with enough games): "
                     + (html.escape(text) if hot else "no card is detectably above or below "
                        "the curve.") + "</p>")
    off = [r for e in rep.get("cost_curve", {}).values() for r in e["cards"]
           if r["off_curve"]]
    if rep.get("cost_curve"):
        off.sort(key=lambda r: -abs(r["above"]))
        parts.append("<p>Cost curve (each card against cards of its kind and price, false "
                     "discovery rate 5 %): " + ("; ".join(html.escape(r["sentence"])
                                                       for r in off[:2 * SHOWN])
                                                if off else "no card's price is detectably "
                                                "off the curve of cards like it.") + "</p>")
    return "".join(parts)


def answer(a: str) -> str:
    return {"yes": "Yes.", "no": "No.", "not settled": "Not settled yet."}.get(a, a)


def _factions(rep: dict, svgs: dict) -> str:
    fac = rep["factions"]
    ver = rep["verdicts"]["factions"]["factions"]
    order = [f for f, _ in sorted(ver.items(),
                                  key=lambda it: verdicts.order(it, rep.get("names", {})))]
    wr = _table([[html.escape(label(rep, f)), fac["win_rate"][f]["n"],
                  _pct(fac["win_rate"][f]["rate"]),
                  f"{fac['win_rate'][f]['ci95'][0]:.1%} - {fac['win_rate'][f]['ci95'][1]:.1%}",
                  f"{ver[f]['interval'][0]:.1%} - {ver[f]['interval'][1]:.1%}",
                  html.escape(ver[f]["verdict"])] for f in order],
                ["faction", "seats", "win rate", "95 % interval", "anytime-valid interval",
                 "verdict"])
    m = fac["matrix"]
    names = list(m)
    mt = _table([[html.escape(label(rep, a))] + [
        "-" if not m[a][b] else f"{m[a][b]['rate']:.0%}{_ci(m[a][b]['ci95'], _p0)}"
        for b in names] for a in names], ["row ahead of column"] +
        [label(rep, b) for b in names])
    seats = _table([[p + 1, f"{v['rate']:.1%}", f"{v['ci95'][0]:.1%} - {v['ci95'][1]:.1%}"]
                    for p, v in fac["by_seat"].items()], ["seat", "win rate", "95 % interval"])
    players = rep["run"]["players"]
    what = ("With 2 players every ordered pair is played in turn: this is the matchup."
            if players == 2 else "How often the row's seat finishes ahead of the column's "
            "in games with both (winners first, then final Permanence; level places count "
            "half), with 95 % intervals.")
    return (f"<h2>Factions</h2>{svgs['win_rates']}{wr}{svgs.get('convergence', '')}"
            f"<h3>Head to head</h3><p>{what}</p>{svgs['matrix']}{mt}"
            f"<h3>Win rate by seat</h3>{seats}")


def _p0(x: float) -> str:
    return f"{100 * x:.0f}"


def _summary(rep: dict) -> str:
    s, ci = rep["summary"], rep.get("intervals", {})
    keys = {"balance": "balance", "first_seat_advantage": "first seat advantage",
            "round_cap_share": "round cap share", "lead_changes": "lead changes",
            "decisiveness": "decisiveness"}
    rows = []
    for k, v in s.items():
        c = ci.get(keys.get(k, ""))
        rows.append([k.replace("_", " "), f"{v:.3f}",
                     "-" if not c else f"{c[0]:.3f} - {c[1]:.3f}"])
    fb = rep.get("fair_balance")
    note = ("" if not fb else f"<p>A perfectly fair game of this size and seating would "
            f"score a balance of {fb[0]:.3f} ({fb[1]:.3f} - {fb[2]:.3f}): the score is "
            "read against that, not against 1.</p>")
    return "<h3>Summary</h3>" + _table(rows, ["figure", "value", "95 % interval"]) + note


def _cards(rep: dict) -> str:
    eff = rep.get("card_effects", {})
    body = []
    for c in card_rows(rep):
        price = "-" if c.get("average_price") is None else f"{c['average_price']:.1f}"
        ci = c.get("ci95")
        iw = c.get("improvement_when_drawn")
        body.append([html.escape(c.get("name", c["card"])), c.get("seats", 0),
                     "-" if "effect" not in c else _pts(c["effect"]) +
                     _ci(ci, lambda x: f"{100 * x:+.1f}"),
                     "-" if c.get("q") is None else f"{c['q']:.3f}",
                     html.escape(c["verdict"]),
                     "-" if iw is None else _pts(iw) + _ci(
                         [c["iwd_ci_low"], c["iwd_ci_high"]], lambda x: f"{100 * x:+.1f}"),
                     c.get("offered", 0), c.get("bought", 0), price, c.get("played", 0)])
    return (f"<h2>Cards</h2><p>Effect: a card's worth in points of win rate against an "
            f"average gain by a seat in the same position (a logistic model of the win "
            f"controlling for {html.escape(', '.join(eff.get('controls', [])))}; ridge "
            f"{eff.get('ridge', 0)}), so the effects sum to about zero (here "
            f"{100 * eff.get('sum_of_effects', 0):+.1f} points over "
            f"{len(eff.get('cards', []))} cards). Above / below the curve: the effect is "
            f"beyond ±{100 * eff.get('margin', 0):.0f} points with q (Benjamini-Hochberg "
            f"adjusted p-value) under the false discovery rate {eff.get('fdr', 0):.0%}; on "
            "the curve: its interval is inside that band. Improvement when drawn "
            "(17lands): among the seats that gained it, win rate when drawn minus never "
            "drawn, within each faction. Cards gained by fewer than 30 seats are labelled "
            "and listed below the settled ones.</p>"
            + _table(body, ["card", "seats gained", "effect (points, 95 %)", "q", "verdict",
                            "improvement when drawn", "offered", "bought", "avg price",
                            "played"]))


def _cost_curve(rep: dict, svgs: dict) -> str:
    cc = rep.get("cost_curve")
    if not cc:
        return ""
    parts = []
    for kind, e in cc.items():
        c = e["curve"]
        if not c:
            parts.append(f"<h3>{html.escape(kind)}</h3><p>{html.escape(e['note'])}.</p>")
            continue
        rows = [[html.escape(r["name"]), f"{r['price']:g}", _pts(r["effect"]),
                 _pts(r["above"]) + _ci(r["above_ci95"], lambda x: f"{100 * x:+.1f}"),
                 "-" if "gap" not in r else f"{r['gap']:+.1f}" + _ci(
                     r["gap_ci95"], lambda x: f"{x:+.1f}"),
                 f"{r['q']:.3f}", "yes" if r["off_curve"] else "no"] for r in e["cards"]]
        small = (f" Small samples, not fitted: {html.escape(', '.join(e['small_sample']))}."
                 if e["small_sample"] else "")
        parts.append(
            f"<h3>{html.escape(kind)}</h3><p>Curve: {100 * c['intercept']:+.1f} "
            f"{100 * c['slope']:+.1f} points per unit of cost (slope 95 % "
            f"{_ci(c['slope_ci95'], lambda x: f'{100 * x:+.1f}')}), {c['cards']} cards."
            f"{small}</p>" + _table(rows, ["card", "cost", "effect (points)",
                                           "above the curve (points, 95 %)",
                                           "priced under the curve by (cost, 95 %)", "q",
                                           "off the curve?"]))
    return ("<h2>Cost curve</h2><p>For the cards of one kind (a deck: the market or Power "
            "cards of an Age), each card's effect (above) is read against a straight line "
            "through the other cards of its kind, effect against cost (Mana + Gold). "
            "Priced under the curve by N: cards like it cost N more for the same effect "
            "(given only where the other cards' line rises with the cost). Intervals: a "
            "bootstrap over the kind's cards and each card's own interval; off the curve: "
            "Benjamini-Hochberg at 5 % over every card. Kinds with fewer than "
            f"{costcurve.MIN_CARDS} cards or one cost get no curve.</p>"
            + svgs.get("cost_curve", "") + "".join(parts))


def _comparison(rep: dict, title: str, cmp: dict) -> str:
    rows = [[html.escape(figure_name(rep, r["figure"])),
             "-" if r["this run"] is None else f"{r['this run']:.3f}",
             "-" if r["other"] is None else f"{r['other']:.3f}",
             "-" if r["change"] is None else f"{r['change']:+.3f}",
             "-" if not r["ci95"] else f"{r['ci95'][0]:+.3f} - {r['ci95'][1]:+.3f}",
             "yes" if r["differs"] else "no detectable difference"]
            for r in cmp["rows"]]
    return (f"<h2>{html.escape(title)}</h2><p>The same seeds played twice; the change's "
            "95 % interval is a paired bootstrap over games.</p>" + _table(
                rows, ["figure", "this run", "other", "change", "95 % interval",
                       "a difference?"]))


def _sweep(rep: dict, svgs: dict) -> str:
    sw = rep.get("sweep")
    if not sw:
        return ""
    rows = []
    for p in sw["points"]:
        at = ", ".join(f"{k}={v}" for k, v in p["at"].items())
        f = p["figures"]
        rows.append([html.escape(at), p["games"],
                     f"{f['rounds'][0]:.2f} [{f['rounds'][1]:.2f}, {f['rounds'][2]:.2f}]",
                     f"{f['round_cap_share'][0]:.1%}{_ci(f['round_cap_share'][1:])}",
                     html.escape("; ".join(
                         f"{label(rep, fid)} {v[0]:.1%}{_ci(v[1:])}"
                         for fid, v in sorted(f["win_rate"].items())))])
    return (f"<h2>What if</h2>{svgs.get('sweep', '')}" + _table(
        rows, ["point", "games", "average rounds", "at the round cap", "win rates"]))


def _agents(rep: dict, svgs: dict) -> str:
    lad = rep.get("agents")
    if not lad:
        return ""
    rows = [[html.escape(r["agent"]), f"{r['rating']:+.0f}",
             f"{r['ci95'][0]:+.0f} - {r['ci95'][1]:+.0f}", r.get("games", "-"),
             f"{r.get('seconds', 0):.1f}", f"{r['games_per_s']:.2f}",
             html.escape(r.get("engine", "native"))]
            for r in lad.get("ladder", [])]
    note = ("<p>Each agent plays the heuristic on alternate seats; ratings are fitted over "
            "every rung at once (Bradley-Terry on the finishing order, 95 % bootstrap "
            "intervals). The heuristic's variants and the search agent play in the Python "
            "engine; the search with a small budget of "
            f"{lad.get('search_iterations', '-')} iterations per searched decision (its "
            "own default is 48), so its rating is that of a weak search, on few games.</p>")
    return ("<h2>How much is the AI</h2>" + (note + _table(rows, [
        "agent", "rating (Elo, heuristic = 0)", "95 % interval", "games", "seconds",
        "games/s", "engine"]) if rows else "") + svgs.get("agents", ""))


def page(rep: dict, svgs: dict[str, str], comparisons: dict[str, dict]) -> str:
    """The whole report page: verdicts first, the detail below."""
    sh = rep["shape"]
    run = rep["run"]
    holes = _table([[k.replace("_", " "), "-" if v is None else
                     (f"{v:.1%}" if isinstance(v, float) else v)]
                    for k, v in sh["holes"].items()], ["rule hole", "value"])
    cmp_html = "".join(_comparison(rep, t, c) for t, c in comparisons.items())
    budget = run.get("budget")
    size = (f"{run['games']} games (budget {budget}, stopped "
            f"{'when the question asked was settled' if run['games'] < budget else 'at the budget'})"
            if budget else f"{run['games']} games")
    return f"""<!doctype html><html><head><meta charset="utf-8">
<title>Balance report</title><style>
body{{font-family:sans-serif;max-width:70em;margin:1em auto;padding:0 1em}}
table{{border-collapse:collapse;margin:.5em 0 1.5em}} td,th{{border:1px solid #ccc;
padding:2px 6px;font-size:90%;text-align:right}} td:first-child{{text-align:left}}
.warn{{background:#fff3cd;padding:.4em}} svg{{max-width:100%;height:auto}}</style></head><body>
<h1>Balance report</h1>
<p>{size}, {run['players']} players, agents {html.escape(', '.join(run['agents']))},
seeds from {run['seed']}.</p>
{_verdicts(rep, comparisons)}
{_factions(rep, svgs)}{_summary(rep)}
{cmp_html}{_sweep(rep, svgs)}{_agents(rep, svgs)}
{_cards(rep)}{_cost_curve(rep, svgs)}
<h2>Game shape</h2>{svgs['length']}{svgs['permanence']}
<p>Battles per game {sh['battles_per_game']:.2f}; cards played per game
{sh['cards_played_per_game']:.1f}; endings {html.escape(str(sh['endings']))}.</p>{holes}
</body></html>"""


def write(rep: dict, out: Path, comparisons: dict[str, dict] | None = None,
          workers: int = 1) -> list[Path]:
    """report.html (plots inline, PNG beside), report.json and cards.csv into `out`; the
    plots drawn over `workers` processes (the same files for any number)."""
    out.mkdir(parents=True, exist_ok=True)
    comparisons = comparisons or {}
    svgs = all_plots(rep, out, workers)
    data = dict(rep, comparisons=comparisons)
    (out / "report.json").write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    buf = io.StringIO()
    w = csv.DictWriter(buf, CSV_FIELDS, extrasaction="ignore", lineterminator="\n")
    w.writeheader()
    w.writerows(card_rows(rep))
    (out / "cards.csv").write_text(buf.getvalue())
    (out / "report.html").write_text(page(rep, svgs, comparisons))
    return [out / n for n in ("report.html", "report.json", "cards.csv")]
