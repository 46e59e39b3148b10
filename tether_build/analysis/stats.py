"""The report's figures from the game records."""

from __future__ import annotations

from collections import Counter, defaultdict

from ..engine.simulate import wilson

SMALL = 30        # fewer games than this behind a card figure: a warning
STALEMATE = 3     # rounds with no battle and no change of Permanence
ALWAYS = 0.95     # bought at least this share of the times it was offered


def _share(wins: float, n: int) -> dict:
    lo, hi = wilson(wins, n)
    return {"n": n, "wins": round(wins, 3), "rate": wins / n if n else 0.0, "ci95": [lo, hi]}


def _won(rec: dict, p: int) -> float:
    w = rec["winners"]
    return 1.0 / len(w) if p in w else 0.0


def finishing(rec: dict) -> list[float]:
    """Each seat's finishing place (0 = first): the winners first, the others by their
    final total Permanence (equal totals share a place)."""
    last = rec["vp"][-1] if rec["vp"] else [0] * rec["players"]
    return [0.0 if p in rec["winners"] else 1.0 + sum(1 for v in last if v > last[p])
            for p in range(rec["players"])]


def factions(recs: list[dict]) -> dict:
    """Win rate per faction, the head-to-head matrix (how often the row finishes ahead of
    the column in games with both; level places count half), win rate by seat."""
    seats: Counter = Counter()
    wins: Counter = Counter()
    by_seat: dict[int, list] = defaultdict(lambda: [0.0, 0])
    pair: dict[tuple, list] = defaultdict(lambda: [0.0, 0])
    for r in recs:
        facs = [s["faction"] for s in r["seats"]]
        place = finishing(r)
        for p, f in enumerate(facs):
            seats[f] += 1
            wins[f] += _won(r, p)
            by_seat[p][0] += _won(r, p)
            by_seat[p][1] += 1
        for a in range(len(facs)):
            for b in range(len(facs)):
                if facs[a] == facs[b]:
                    continue
                cell = pair[facs[a], facs[b]]
                cell[0] += (1.0 if place[a] < place[b] else
                            0.5 if place[a] == place[b] else 0.0)
                cell[1] += 1
    names = sorted(seats)
    rates = {f: _share(wins[f], seats[f]) for f in names}
    matrix = {a: {b: (_share(*pair[a, b]) if pair[a, b][1] else None) for b in names}
              for a in names}
    seat_rates = {p: _share(*by_seat[p]) for p in sorted(by_seat)}
    return {"win_rate": rates, "matrix": matrix, "by_seat": seat_rates}


def summary(recs: list[dict], fac: dict) -> dict:
    """Ludii-style figures: balance, seat-1 advantage, round-cap share, lead changes,
    decisiveness."""
    rates = [v["rate"] for v in fac["win_rate"].values()]
    players = recs[0]["players"] if recs else 2
    from .figures import leads_of

    leads = []
    margins = []
    for r in recs:
        changes, margin = leads_of(r)
        leads.append(changes)
        if margin is not None:
            margins.append(margin)
    n = max(len(recs), 1)
    first = fac["by_seat"].get(0, {"rate": 0.0})["rate"]
    return {"balance": 1.0 - (max(rates) - min(rates)) if rates else 1.0,
            "first_seat_advantage": first - 1.0 / players,
            "round_cap_share": sum(r["end"] == "round_cap" for r in recs) / n,
            "lead_changes": sum(leads) / n,
            "decisiveness": (sum(margins) / len(margins)) if margins else 0.0}


def cards(recs: list[dict], fac: dict, card_ids: list[str]) -> list[dict]:
    """Per card: offered, bought (average price), played, win rates when gained / played
    against the same seats' faction baseline, small-sample warnings, dead / always bought."""
    base = {f: v["rate"] for f, v in fac["win_rate"].items()}
    offered: Counter = Counter()
    bought: Counter = Counter()
    price: Counter = Counter()
    played: Counter = Counter()
    gain = defaultdict(lambda: [0.0, 0, 0.0])   # wins, seat-games, baseline sum
    play = defaultdict(lambda: [0.0, 0, 0.0])
    for r in recs:
        offered.update(r["offered"])
        for p, s in enumerate(r["seats"]):
            won, b = _won(r, p), base[s["faction"]]
            for cid, gold in s["bought"]:
                bought[cid] += 1
                price[cid] += gold
            played.update(s["played"])
            for table, ids in ((gain, set(s["gained"])), (play, set(s["played"]))):
                for cid in ids:
                    row = table[cid]
                    row[0] += won
                    row[1] += 1
                    row[2] += b
    out = []
    for cid in card_ids:
        row = {"card": cid, "offered": offered[cid], "bought": bought[cid],
               "average_price": price[cid] / bought[cid] if bought[cid] else None,
               "played": played[cid]}
        for name, table in (("gained", gain), ("played_in", play)):
            w, n, b = table.get(cid, (0.0, 0, 0.0))
            sh = _share(w, n)
            row[f"win_when_{name}"] = sh["rate"] if n else None
            row[f"win_when_{name}_ci95"] = sh["ci95"] if n else None
            row[f"win_when_{name}_vs_baseline"] = (w - b) / n if n else None
            row[f"{name}_games"] = n
        row["small_sample"] = row["played_in_games"] < SMALL
        row["dead"] = not bought[cid] and not played[cid] and not row["gained_games"]
        row["always_bought"] = offered[cid] >= 5 and bought[cid] >= ALWAYS * offered[cid]
        out.append(row)
    return out


def shape(recs: list[dict]) -> dict:
    """Game length, Permanence over rounds per faction, battles, endings, rule holes."""
    n = max(len(recs), 1)
    lengths = Counter(r["rounds"] for r in recs)
    endings = Counter(r["end"] for r in recs)
    vp_sum: dict[str, dict[int, list]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    stalemates = shut = shut_wins = 0
    for r in recs:
        for i, row in enumerate(r["vp"], 1):
            for p, v in enumerate(row):
                cell = vp_sum[r["seats"][p]["faction"]][i]
                cell[0] += v
                cell[1] += 1
        run, prev = 0, None
        for row, fights in zip(r["vp"], r["battles_by_round"]):
            run = run + 1 if (not fights and row == prev) else 0
            prev = row
            if run >= STALEMATE - 1:
                stalemates += 1
                break
        for p, s in enumerate(r["seats"]):
            if not s["mines"]:
                shut += 1
                shut_wins += _won(r, p)
    seat_games = sum(r["players"] for r in recs) or 1
    return {
        "length": {str(k): v for k, v in sorted(lengths.items())},
        "average_rounds": sum(r["rounds"] for r in recs) / n,
        "endings": dict(sorted(endings.items())),
        "battles_per_game": sum(r["battles"] for r in recs) / n,
        "cards_played_per_game": sum(len(s["played"]) for r in recs for s in r["seats"]) / n,
        "permanence_by_round": {f: {str(i): c[0] / c[1] for i, c in sorted(rows.items())}
                                for f, rows in sorted(vp_sum.items())},
        "holes": {"round_cap_share": endings.get("round_cap", 0) / n,
                  "stalemate_share": stalemates / n,
                  "shut_out_of_mines_share": shut / seat_games,
                  "shut_out_win_rate": shut_wins / shut if shut else None,
                  "games_hitting_the_action_cap": sum(1 for r in recs if r["loops"])},
    }


def report(recs: list[dict], spec: dict, card_ids: list[str],
           names: dict[str, str] | None = None, card_meta: dict | None = None) -> dict:
    """Every section of the report as plain data (report.json); `names`: faction id ->
    the name players read (labels only); `card_meta`: {"names": card id -> name, "power":
    the Power cards (gained only by holding the Center), "ages", and for the cost curve
    "prices" and "kinds" (card id -> price, kind)}."""
    from . import cardmodel, costcurve, figures, verdicts

    names = dict(names or {})
    meta = card_meta or {}
    cnames = meta.get("names", {})
    fac = factions(recs)
    games = figures.Games(recs, sorted(fac["win_rate"]))
    rows = cards(recs, fac, card_ids)
    for row in rows:
        row["name"] = cnames.get(row["card"], row["card"])
    model = cardmodel.effects(recs, set(meta.get("power", ())), cnames,
                              ages=meta.get("ages"))
    iwd = cardmodel.improvement_when_drawn(recs, cnames)
    margin = spec.get("margin", verdicts.MARGIN)
    return {"run": {k: spec[k] for k in ("games", "players", "seed", "agents")},
            "names": names,
            "verdicts": {"factions": verdicts.factions(recs, spec["players"], names,
                                                       margin)},
            "factions": fac, "summary": summary(recs, fac),
            "intervals": figures.intervals(games, spec.get("seed", 0)),
            "fair_balance": games.fair_balance(seed=spec.get("seed", 0)),
            "card_effects": model, "improvement_when_drawn": iwd,
            "cost_curve": costcurve.fit(model["cards"], meta.get("prices", {}),
                                        meta.get("kinds", {}), seed=spec.get("seed", 0)),
            "cards": rows, "shape": shape(recs)}
