"""`tether balance`: the balance lab. Plays seeded games until its questions are settled or
the budget is spent, and writes the verdicts with the detail below (build/balance/)."""

from __future__ import annotations

from pathlib import Path

import click

from .engine import CONTENT, compiled_files, csv_list, parse_options


def register(group: click.Group) -> None:
    """Attach `balance` to the `tether` group."""
    group.add_command(balance)


def _spec(games, players, agents, seed, factions, opts) -> dict:
    from ..engine.simulate import AGENTS

    names = csv_list(agents) or ["heuristic"]
    for n in names:
        if n not in AGENTS:
            raise click.ClickException(f"unknown agent {n!r} (known: {', '.join(AGENTS)})")
    options = parse_options(opts)
    return {"games": games, "players": players, "seed": seed, "agents": names,
            "factions": csv_list(factions), "options": options.to_dict() if options else None}


def _at_revision(content_dir: Path, rev: str) -> dict[str, bytes]:
    from ..content.versions.gitcontent import validated_at
    from ..effects.compile import compile_engine

    content, cards, _rules = validated_at(content_dir, rev)
    return compile_engine(cards, content)


def card_meta(rules, content_dir: Path | None = None, curve_by: str = "deck") -> dict:
    """Card names as players read them (a glossary token in a name rendered with the
    glossary's current word), their Ages, the Power cards (gained by holding the
    Center), and for the cost curve each card's price (Mana + Gold) and kind (its deck,
    or `curve_by`: category, type)."""
    power = {d for d, info in rules.decks.items() if info.get("kind") == "power"}
    names = {c.id: c.name or c.id for c in rules.cards}
    if content_dir is not None and any("{" in n for n in names.values()):
        from ..commands import load
        from ..content.text import render_plain

        content = load(content_dir)
        names = {k: render_plain(n, content.terms, content.icons) for k, n in names.items()}
    from ..analysis import costcurve

    return {"names": names,
            "ages": {c.id: c.age for c in rules.cards if c.age},
            "power": sorted(c.id for c in rules.cards if c.deck in power),
            "prices": costcurve.prices(rules), "kinds": costcurve.kinds(rules, curve_by)}


@click.command()
@CONTENT
@click.option("--games", type=click.IntRange(1, 1_000_000), default=4000, show_default=True,
              help="The budget: the lab stops earlier when every verdict is settled.")
@click.option("--all-games", is_flag=True, help="Play the whole budget (no early stop).")
@click.option("--margin", type=click.FloatRange(0.5, 50), default=5.0, show_default=True,
              help="Points from a fair share (or of change) that matter to a verdict.")
@click.option("--players", type=click.IntRange(2, 6), default=4, show_default=True)
@click.option("--agents", default="heuristic", show_default=True,
              help="Comma-separated agents cycled over the seats: random, heuristic, search.")
@click.option("--factions", help="Comma-separated faction ids cycled over the seats "
              "(default: every faction in rotation; 2 players: every ordered pair).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--workers", type=click.IntRange(1, 256), default=None,
              help="Processes (default: every core). The report is the same for any count.")
@click.option("--cluster", metavar="ADDR", default=None,
              help="Run the games on the Dask scheduler at ADDR (e.g. tcp://10.0.0.5:8786).")
@click.option("--without", "without_card", metavar="CARD", default=None,
              help="Also play the same seeds with CARD taken out of its deck: did it matter?")
@click.option("--baseline", metavar="REV", default=None,
              help="Also play the same seeds on the content at git revision REV: did the "
              "edit change win rates or game length?")
@click.option("--card", "card_q", metavar="CARD", default=None,
              help="Ask 'is CARD (id or name) above the curve?': the lab plays until that "
              "is settled (instead of the faction question) or the budget is spent.")
@click.option("--vary", "varies", multiple=True, metavar="PATH=A..B",
              help="What-if sweep, e.g. cards.quick_march.distance=2..4 or "
              "game.round_cap=10..12 (repeatable: every combination).")
@click.option("--sweep-games", type=click.IntRange(20, 100_000), default=500,
              show_default=True, help="Games at each point of a --vary sweep.")
@click.option("--ladder", is_flag=True, help="Also rate the agents and re-run the faction "
              "verdicts under variants of the heuristic (robust or agent-dependent).")
@click.option("--ladder-games", type=click.IntRange(20, 100_000), default=1000,
              show_default=True, help="Games per agent variant and per ladder pairing.")
@click.option("--ladder-python-games", type=click.IntRange(0, 100_000), default=200,
              show_default=True, help="Games for each heuristic variant's rung (Python "
              "engine: a variant plays beside the heuristic).")
@click.option("--ladder-search-games", type=click.IntRange(0, 10_000), default=10,
              show_default=True, help="Games for the search agent's rung (Python engine, "
              "slow: see docs/balance.md); 0 leaves it out.")
@click.option("--search-iterations", type=click.IntRange(1, 10_000), default=8,
              show_default=True, help="The ladder's search budget per searched decision "
              "(the agent's own default is 48).")
@click.option("--curve-by", type=click.Choice(["deck", "category", "type"]), default="deck",
              show_default=True, help="Cards of a kind for the cost curve: the same deck "
              "(market or Power cards of an Age), category or type.")
@click.option("--option", "opts", multiple=True, metavar="NAME=VALUE",
              help="Rules option (see docs/rules-options.md); repeatable.")
@click.option("--out", type=click.Path(path_type=Path), default=Path("build/balance"),
              show_default=True)
@click.option("--quiet", is_flag=True, help="No progress bar.")
def balance(content_dir, games, all_games, margin, players, agents, factions, seed, workers,
            cluster, without_card, baseline, card_q, varies, sweep_games, ladder,
            ladder_games, ladder_python_games, ladder_search_games, search_iterations,
            curve_by, opts, out, quiet) -> None:
    """Verdicts with their certainty (factions, edits, cards), then the detail: win rates,
    head to head, seats, card effects, what-if curves, agents, game shape: report.html."""
    import os

    from ..analysis import html, lab, plots, runner, stats, verdicts, whatif

    if workers and cluster is not None:
        raise click.ClickException("--workers and --cluster exclude each other")
    if cluster is not None:   # checked before any work: "", ucx://, tls://, inproc refused
        from ..analysis.cluster import check_address

        try:
            cluster = check_address(cluster)
        except ValueError as exc:
            raise click.ClickException(str(exc)) from None
    spec = _spec(games, players, agents, seed, factions, opts)
    spec["margin"] = margin / 100
    try:
        sweep_axes = [whatif.parse(v) for v in varies]
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    compiled = compiled_files(content_dir)
    rules = runner.rules_of(compiled)
    ids = [c.id for c in rules.cards]
    meta = card_meta(rules, content_dir, curve_by)
    names = {f: fac.name for f, fac in rules.factions.items()}
    cap = rules.game["victory"]["round_cap"]

    def player(data, label, sp=None):
        sp = sp or spec

        def play(start, n):
            part = dict(sp, games=n)
            try:
                if quiet:
                    return runner.run(data, part, workers, cluster, meanwhile=plots.warm,
                                      start=start)
                with click.progressbar(length=n, label=f"{label} {start}-{start + n - 1}",
                                       file=click.get_text_stream("stderr")) as bar:
                    return runner.run(data, part, workers, cluster, bar.update, plots.warm,
                                      start=start)
            except (ValueError, OSError) as exc:
                raise click.ClickException(str(exc)) from None
        return play

    versions = {"this": player(compiled, "games")}
    if without_card:
        try:
            versions["without"] = player(runner.without(compiled, without_card),
                                         f"without {without_card}")
        except ValueError as exc:
            raise click.ClickException(str(exc)) from None
    if baseline:
        versions["baseline"] = player(_at_revision(content_dir, baseline), baseline)
    convergence = []
    question = _card_question(card_q, meta, spec["margin"])

    def settled(recs) -> bool:
        v = verdicts.factions(recs["this"], players, names, spec["margin"])
        convergence.append({"games": len(recs["this"]), "factions": {
            f: [r["rate"], *r["interval"]] for f, r in v["factions"].items()}})
        ok = v["settled"]
        if question is not None:   # the question asked: the card's, not the factions'
            question.look(recs["this"])
            ok = question.settled
        for other in ("without", "baseline"):
            if other in recs:
                ok = ok and verdicts.edit(recs["this"], recs[other], names, cap,
                                          spec["margin"])["settled"]
        return ok

    recs, trace = lab.sequential(versions, games, settled, not all_games)
    rep = stats.report(recs["this"], spec, ids, names, meta)
    rep["run"].update(games=len(recs["this"]), budget=games, looks=trace)
    rep["convergence"] = convergence
    if question is not None:
        rep["verdicts"]["card"] = question.answer(games)
    comparisons = _comparisons(recs, names, cap, spec, without_card, baseline)
    if sweep_axes:
        rep["sweep"] = _sweep(compiled, sweep_axes, spec, sweep_games, player)
    if ladder:
        rep["agents"] = _ladder(compiled, spec, rep, names, ladder_games, player,
                                ladder_python_games, ladder_search_games, search_iterations)
    for path in html.write(rep, out, comparisons, workers or os.cpu_count() or 1):
        click.echo(f"wrote {path}")
    if question is not None:
        c = rep["verdicts"]["card"]
        click.echo(f"{c['question']} {html.answer(c['answer'])} ({c['ended']}, "
                   f"{c['games']} games)")
        click.echo(f"  {c['sentence']}")
    v = rep["verdicts"]["factions"]
    click.echo(f"{v['question']} {html.answer(v['answer'])} ({len(recs['this'])} games)")
    for s in v["sentences"]:
        click.echo(f"  {s}")
    if "agents" in rep:
        for r in rep["agents"]["ladder"]:
            click.echo(f"agent {r['agent']}: rating {r['rating']:+.0f} "
                       f"[{r['ci95'][0]:+.0f}, {r['ci95'][1]:+.0f}] (heuristic = 0; "
                       f"{r['games']} games, {r['seconds']:.1f} s, "
                       f"{r['engine']} engine)")
        for s in rep["agents"]["robustness"]["sentences"]:
            click.echo(f"  {s}")
    for title, c in comparisons.items():
        click.echo(f"{title}: {c['verdict']['question']} {html.answer(c['verdict']['answer'])}")
        for p in c["verdict"]["parts"]:
            click.echo(f"  {p['sentence']}")


def _card_question(card, meta, margin):
    """The card question of --card (None without it); a card no seat can gain is refused."""
    if card is None:
        return None
    from ..analysis import cardquestion

    names = meta["names"]
    try:
        cid = cardquestion.find(card, names, names)
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    if cid not in meta["kinds"]:
        raise click.ClickException(
            f"{cid} ({names[cid]}) is a starter or faction card: set-up deals it to every "
            "seat that has it (design document §8), so no seat gains it and the card model "
            "has nothing to compare it with. Measure an edit of it instead: --vary "
            f"cards.{cid}.FIELD=A..B or --baseline REV")
    return cardquestion.CardQuestion(cid, set(meta["power"]), names, meta["ages"], margin)


def _comparisons(recs, names, cap, spec, without_card, baseline) -> dict:
    from ..analysis import figures, verdicts

    facs = sorted({s["faction"] for r in recs["this"] for s in r["seats"]})
    here = figures.Games(recs["this"], facs)
    out = {}
    if without_card:
        gone = recs["without"]
        out[f"Without {without_card} (same seeds)"] = {
            "rows": figures.paired(figures.Games(gone, facs), here, spec["seed"]),
            "verdict": verdicts.edit(gone, recs["this"], names, cap, spec["margin"])}
    if baseline:
        base = recs["baseline"]
        out[f"Against {baseline} (same seeds)"] = {
            "rows": figures.paired(here, figures.Games(base, facs), spec["seed"]),
            "verdict": verdicts.edit(recs["this"], base, names, cap, spec["margin"])}
    return out


def _sweep(compiled, axes, spec, n, player) -> dict:
    """Every combination of the varied values, n games each: win rates, rounds and the
    round-cap share with 95 % intervals."""
    from ..analysis import whatif
    from ..engine.simulate import wilson

    points = []
    for at in whatif.grid(axes):
        try:
            data = whatif.applied(compiled, at)
        except ValueError as exc:
            raise click.ClickException(str(exc)) from None
        label = ", ".join(f"{k}={v}" for k, v in at.items())
        rs = player(data, label)(0, n)
        wins: dict[str, list] = {}
        for r in rs:
            for p, s in enumerate(r["seats"]):
                cell = wins.setdefault(s["faction"], [0.0, 0])
                cell[0] += 1.0 / len(r["winners"]) if p in r["winners"] else 0.0
                cell[1] += 1
        rounds = [r["rounds"] for r in rs]
        mean = sum(rounds) / len(rounds)
        sd = (sum((x - mean) ** 2 for x in rounds) / max(len(rounds) - 1, 1)) ** 0.5
        half = 1.96 * sd / len(rounds) ** 0.5
        cap = sum(r["end"] == "round_cap" for r in rs)
        points.append({"at": at, "games": len(rs), "figures": {
            "win_rate": {f: [w / k, *wilson(w, k)] for f, (w, k) in sorted(wins.items())},
            "rounds": [mean, mean - half, mean + half],
            "round_cap_share": [cap / len(rs), *wilson(cap, len(rs))]}})
    return {"varied": [f"{p}={','.join(map(str, v))}" for p, v in axes], "points": points}


def _ladder(compiled, spec, rep, names, n, player, python_games, search_games,
            search_iterations) -> dict:
    """The agent ladder: each rung plays the heuristic on alternate seats (random: n games
    in the native engine; each weight variant: python_games, and search: search_games with
    search_iterations per searched decision, in the Python engine), rated together; then the
    faction win rates under each variant of the heuristic's weights, with the verdicts'
    robustness."""
    import time

    from ..analysis import ladder, stats
    from ..engine import native

    rungs = [("random", n)] + [(v, python_games) for v in ladder.VARIANTS
                               if v != "heuristic"]
    if search_games:
        rungs.append(("search", search_games))
    recs, timing = [], {}
    for other, m in rungs:
        if not m:
            continue
        sp = dict(spec, agents=["heuristic", other], search_iterations=search_iterations)
        t = time.perf_counter()
        rs = player(compiled, f"ladder heuristic/{other}", sp)(0, m)
        took = time.perf_counter() - t
        timing[other] = {"games": m, "seconds": took, "games_per_s": m / took,
                         "engine": "native" if other in native.AGENTS else "Python"}
        recs.extend(rs)
    games, secs = sum(t["games"] for t in timing.values()), sum(
        t["seconds"] for t in timing.values())
    timing["heuristic"] = {"games": games, "seconds": secs,
                           "games_per_s": games / secs if secs else 0.0, "engine": "both"}
    agents = ["heuristic", *[a for a in timing if a != "heuristic"]]
    ratings = [dict(r, **timing[r["agent"]]) for r in ladder.elo(recs, agents)]
    variants = {}
    for name, over in ladder.VARIANTS.items():
        sp = dict(spec, weights=over)
        vs = player(compiled, f"variant {name}", sp)(0, n)
        variants[name] = stats.factions(vs)
    rob = ladder.robustness(rep["verdicts"]["factions"], variants, names,
                            1 / spec["players"], spec["margin"])
    return {"ladder": ratings, "variants": variants, "robustness": rob,
            "search_iterations": search_iterations}
