"""Engine commands: `tether engine-build`, `tether simulate`, `tether odds`.

`register(group)` attaches them to the main click group; heavy imports happen inside the
commands. Every failure reaches the user as a click.ClickException, never a traceback.
"""

from __future__ import annotations

import json
from pathlib import Path

import click

CONTENT = click.option("--content", "content_dir", type=click.Path(path_type=Path),
                       default=Path("content"), show_default=True,
                       help="Folder of the game's content files.")
ENGINE = click.option("--engine", "engine_dir", type=click.Path(path_type=Path),
                      default=None, help="Load compiled build/engine/*.json instead of content.")


def compiled_files(content_dir: Path) -> dict[str, bytes]:
    """Validate the content and compile the engine files in memory."""
    from ..commands import load
    from ..content.cards import normalized_cards
    from ..effects.compile import CompileError, compile_engine

    content = load(content_dir)
    try:
        return compile_engine(normalized_cards(content), content)
    except CompileError as exc:
        raise click.ClickException(str(exc)) from None


def load_rules(content_dir: Path, engine_dir: Path | None):
    """The engine Ruleset, from compiled JSON files or compiled from content."""
    from ..engine.ruleset import FILES, Ruleset

    if engine_dir is not None:
        missing = [n for n in FILES[:3] if not (engine_dir / n).exists()]
        if missing:
            raise click.ClickException(f"{engine_dir}: missing {', '.join(missing)} "
                                       "(run 'tether engine-build')")
        try:
            return Ruleset.from_files(engine_dir)
        except (ValueError, KeyError, TypeError) as exc:
            raise click.ClickException(f"{engine_dir}: not usable engine files: "
                                       f"{str(exc)[:300]}") from None
    try:
        return Ruleset.from_compiled(compiled_files(content_dir))
    except ValueError as exc:   # an effect without a bound (validate says so first)
        raise click.ClickException(str(exc)[:300]) from None


def parse_options(pairs: tuple[str, ...]):
    from ..engine.options import Options
    values = {}
    for pair in pairs:
        if "=" not in pair:
            raise click.BadParameter(f"expected name=value, got {pair!r}", param_hint="--option")
        k, v = pair.split("=", 1)
        values[k.strip()] = v.strip()
    try:
        return Options.from_dict(values)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--option") from None


def csv_list(text: str | None) -> list[str] | None:
    return [x.strip() for x in text.split(",") if x.strip()] if text else None


def register(group: click.Group) -> None:
    """Attach the engine commands to the `tether` group."""
    group.add_command(engine_build)
    group.add_command(simulate)
    group.add_command(odds)
    group.add_command(replay)


@click.command("engine-build")
@CONTENT
@click.option("--out", type=click.Path(path_type=Path), default=Path("build"),
              show_default=True, help="Output folder (files go to OUT/engine/).")
@click.option("--quiet", is_flag=True, help="Print nothing on success.")
def engine_build(content_dir: Path, out: Path, quiet: bool) -> None:
    """Compile the cards for the engine: build/engine/{cards,game,factions,tiles}.json."""
    from ..buildsys.lock import write_outputs

    files = {f"engine/{name}": data for name, data in sorted(compiled_files(content_dir).items())}
    written = set(write_outputs(out, files, command="tether engine-build"))  # all or nothing
    if not quiet:
        for rel in files:
            click.echo(f"{'wrote' if rel in written else 'unchanged'} {out / rel}")


@click.command()
@CONTENT
@ENGINE
@click.option("--games", type=click.IntRange(min=1), default=100, show_default=True)
@click.option("--players", type=click.IntRange(2, 6), default=4, show_default=True)
@click.option("--factions", help="Comma-separated faction ids, cycled over the seats "
              "(default: every faction in rotation).")
@click.option("--agents", help="Comma-separated agents cycled over the seats: random, "
              "heuristic (default: random).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--option", "opts", multiple=True, metavar="NAME=VALUE",
              help="Rules option (see docs/rules-options.md); repeatable.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
@click.option("--quiet", is_flag=True, help="No progress bar.")
@click.option("--log-dir", type=click.Path(path_type=Path), default=None,
              help="Write each game's JSON-lines event log into this folder.")
@click.option("--jobs", type=click.IntRange(min=1), default=None,
              help="Processes playing the games (default: one per core); the results are "
              "the same for any number.")
def simulate(content_dir, engine_dir, games, players, factions, agents, seed, opts, as_json,
             quiet, log_dir, jobs) -> None:
    """Play many seeded games: win rate per faction (95 % CI), rounds, endings, cards."""
    from ..engine.core import StepBudget
    from ..engine.simulate import simulate as run

    rules = load_rules(content_dir, engine_dir)
    options = parse_options(opts)
    if log_dir is not None:
        log_dir.mkdir(parents=True, exist_ok=True)
    args = (rules, games, players, seed, csv_list(factions), csv_list(agents), options)
    try:
        if as_json or quiet or games < 20:
            result = run(*args, log_dir=log_dir, workers=jobs)
        else:
            with click.progressbar(length=games, label="simulating", file=click.get_text_stream(
                    "stderr")) as bar:
                result = run(*args, progress=bar.update, log_dir=log_dir, workers=jobs)
    except (ValueError, StepBudget) as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(json.dumps(result, indent=2, sort_keys=True))
        return
    _print_sim(result)


def _print_sim(r: dict) -> None:
    click.echo(f"{r['games']} games, {r['players']} players, agents {','.join(r['agents'])}, "
               f"seed {r['seed']}")
    click.echo(f"{'faction':<16} {'seats':>5} {'wins':>7} {'win rate':>8}  95% CI")
    for f, v in r["factions"].items():
        lo, hi = v["ci95"]
        click.echo(f"{f:<16} {v['seats']:>5} {v['wins']:>7.1f} {v['win_rate']:>8.1%}  "
                   f"{lo:.1%}-{hi:.1%}")
    click.echo("win rate per seat by agent: " + ", ".join(
        f"{a} {v:.1%}" for a, v in r["agent_win_rate"].items()))
    click.echo(f"average rounds: {r['average_rounds']:.2f}")
    click.echo("endings: " + ", ".join(f"{k} {v}" for k, v in sorted(r["endings"].items())))
    click.echo("most played: " + ", ".join(f"{c} {n}" for c, n in r["most_played"]))
    click.echo("least played: " + ", ".join(f"{c} {n}" for c, n in r["least_played"]))


@click.command()
@CONTENT
@ENGINE
@click.option("--attacker", required=True, help="Units, e.g. forces=3,champion=shadeblade")
@click.option("--defender", required=True, help="Units, e.g. forces=2")
@click.option("--attacker-faction", default=None, help="Faction whose passives apply.")
@click.option("--defender-faction", default=None, help="Faction whose passives apply.")
@click.option("--where", type=click.Choice(["capital", "mine", "plain", "forge", "center"]),
              default="plain", show_default=True, help="Where the battle is (capital = siege).")
@click.option("--trials", type=click.IntRange(1, 1_000_000), default=10000, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True)
def odds(content_dir, engine_dir, attacker, defender, attacker_faction, defender_faction,
         where, trials, seed, as_json) -> None:
    """Combat odds from the engine's own battle code."""
    from ..engine.odds import battle_odds, parse_side

    rules = load_rules(content_dir, engine_dir)
    try:
        att, dfn = parse_side(attacker), parse_side(defender)
        r = battle_odds(rules, att, dfn, where, trials, seed,
                        (attacker_faction, defender_faction))
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    if as_json:
        click.echo(json.dumps(r, indent=2, sort_keys=True))
        return
    for line in odds_lines(r, trials, where, seed, _glossary(content_dir)):
        click.echo(line)


def _glossary(content_dir: Path) -> dict:
    """The content's glossary terms for printed words ({} when it cannot be read: the
    words then fall back to the term ids')."""
    from ..content.paths_guard import Refused, project_of, read_text
    from ..content.yamlio import parse

    try:   # through the guard: a link out of the project or a FIFO is not read
        doc, problems = parse(read_text(content_dir / "terms.yaml", project_of(content_dir)),
                              "terms.yaml")
        return doc.data["terms"] if doc is not None and not problems else {}
    except (OSError, KeyError, TypeError, ValueError, Refused):
        return {}


def odds_lines(r: dict, trials: int, where: str, seed: int, terms: dict) -> list[str]:
    """`tether odds` in the glossary's words: 'attacker survivors: 1.7 Cohorts on average'."""
    from ..effects.words import Words

    w = Words(terms)
    place = w.hex_({"kind": [where]})
    if where == "capital":
        place += f" ({w.sg('siege')})"
    battles = w.n(trials, "battle")
    lines = [f"{battles} at {place} (seed {seed})",
             f"attacker wins   {r['attacker_wins']:.1%}",
             f"defender wins   {r['defender_wins']:.1%}",
             f"both destroyed  {r['both_destroyed']:.1%}"]
    for side in ("attacker", "defender"):
        sv = r[f"{side}_survivors"]
        forces, hp = round(sv["forces"], 1), round(sv["champion_hp"], 1)
        lines.append(f"{side} survivors on average: {forces:.1f} "
                     f"{w.sg('force') if forces == 1 else w.pl('force')}, {hp:.1f} "
                     f"{w.sg('champion')} {w.sg('hp') if hp == 1 else w.pl('hp')}")
    return lines


@click.command()
@CONTENT
@ENGINE
@click.argument("log", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def replay(content_dir, engine_dir, log) -> None:
    """Replay a game from its JSON-lines log and check the final state matches."""
    from ..engine.core import StepBudget
    from ..engine.play import ReplayError, read_log
    from ..engine.play import replay as run

    try:
        events = read_log(log)   # first: a file that is no log is refused before any work
    except ReplayError as exc:
        raise click.ClickException(f"{log}: replay failed: {exc}") from None
    rules = load_rules(content_dir, engine_dir)
    try:
        g = run(rules, events)
    except (ReplayError, ValueError, KeyError, StopIteration, StepBudget) as exc:
        raise click.ClickException(f"{log}: replay failed: {exc}") from None
    n = sum(1 for e in events if e["e"] == "decide")
    click.echo(f"{log}: {n} decisions replayed, final state matches "
               f"(round {g.s.round}, winner {g.s.winner}, digest {g.s.digest()[:12]})")
