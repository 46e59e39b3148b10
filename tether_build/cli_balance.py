"""`tether balance`: many seeded games summarised for the designer (build/balance/)."""

from __future__ import annotations

from pathlib import Path

import click

from .cli_engine import CONTENT, _csv, _options, compiled_files


def register(group: click.Group) -> None:
    """Attach `balance` to the `tether` group."""
    group.add_command(balance)


def _spec(games, players, agents, seed, factions, opts) -> dict:
    from .engine.simulate import AGENTS

    names = _csv(agents) or ["heuristic"]
    for n in names:
        if n not in AGENTS:
            raise click.ClickException(f"unknown agent {n!r} (known: {', '.join(AGENTS)})")
    options = _options(opts)
    return {"games": games, "players": players, "seed": seed, "agents": names,
            "factions": _csv(factions), "options": options.to_dict() if options else None}


def _at_revision(content_dir: Path, rev: str) -> dict[str, bytes]:
    from .compile import compile_engine
    from .versions.gitcontent import validated_at

    content, cards, _rules = validated_at(content_dir, rev)
    return compile_engine(cards, content)


@click.command()
@CONTENT
@click.option("--games", type=click.IntRange(1, 1_000_000), default=1000, show_default=True)
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
              help="Also play the same seeds with CARD taken out of its deck; show the change.")
@click.option("--baseline", metavar="REV", default=None,
              help="Also play the same seeds on the content at git revision REV; show changes.")
@click.option("--option", "opts", multiple=True, metavar="NAME=VALUE",
              help="Rules option (see docs/rules-options.md); repeatable.")
@click.option("--out", type=click.Path(path_type=Path), default=Path("build/balance"),
              show_default=True)
@click.option("--quiet", is_flag=True, help="No progress bar.")
def balance(content_dir, games, players, agents, factions, seed, workers, cluster,
            without_card, baseline, opts, out, quiet) -> None:
    """Win rates, faction matrix, seat advantage, card figures, game shape: report.html."""
    import os

    from .analysis import html, plots, runner, stats

    if workers and cluster is not None:
        raise click.ClickException("--workers and --cluster exclude each other")
    if cluster is not None:   # checked before any work: "", ucx://, tls://, inproc refused
        from .analysis.cluster import check_address

        try:
            cluster = check_address(cluster)
        except ValueError as exc:
            raise click.ClickException(str(exc)) from None
    spec = _spec(games, players, agents, seed, factions, opts)
    compiled = compiled_files(content_dir)
    rules = runner.rules_of(compiled)
    ids = [c.id for c in rules.cards]

    def play(data, label):
        try:
            if quiet:
                return runner.run(data, spec, workers, cluster, meanwhile=plots.warm)
            with click.progressbar(length=games, label=label,
                                   file=click.get_text_stream("stderr")) as bar:
                return runner.run(data, spec, workers, cluster, bar.update, plots.warm)
        except (ValueError, OSError) as exc:
            raise click.ClickException(str(exc)) from None

    names = {f: fac.name for f, fac in rules.factions.items()}
    rep = stats.report(play(compiled, "games"), spec, ids, names)
    comparisons = {}
    if without_card:
        try:
            data = runner.without(compiled, without_card)
        except ValueError as exc:
            raise click.ClickException(str(exc)) from None
        other = stats.report(play(data, f"without {without_card}"), spec, ids, names)
        comparisons[f"Without {without_card} (same seeds)"] = html.compare(other, rep)
    if baseline:
        other = stats.report(play(_at_revision(content_dir, baseline), baseline), spec, ids,
                             names)
        comparisons[f"Against {baseline} (same seeds)"] = html.compare(rep, other)
    for path in html.write(rep, out, comparisons, workers or os.cpu_count() or 1):
        click.echo(f"wrote {path}")
    s = rep["summary"]
    click.echo(f"balance {s['balance']:.3f}, first seat advantage "
               f"{s['first_seat_advantage']:+.3f}, round cap {s['round_cap_share']:.0%}")
