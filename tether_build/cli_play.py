"""`tether play`: play a game yourself at the terminal against the agents."""

from __future__ import annotations

import click

from .cli_engine import CONTENT, ENGINE, _csv, _options, load_rules


def register(group: click.Group) -> None:
    """Attach `play` to the `tether` group."""
    group.add_command(play)


@click.command()
@CONTENT
@ENGINE
@click.option("--players", type=click.IntRange(2, 6), default=2, show_default=True)
@click.option("--seat", type=click.IntRange(0, 5), default=0, show_default=True,
              help="Your seat (0 = first).")
@click.option("--agents", default="heuristic", show_default=True,
              help="Comma-separated agents for the other seats, cycled: random, heuristic, "
              "search.")
@click.option("--factions", help="Comma-separated faction ids, cycled over the seats.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--option", "opts", multiple=True, metavar="NAME=VALUE",
              help="Rules option (see docs/rules-options.md); repeatable.")
def play(content_dir, engine_dir, players, seat, agents, factions, seed, opts) -> None:
    """Play one seeded game at the terminal: the board, your hand, numbered legal actions."""
    from .engine.human import HumanAgent, Quit
    from .engine.play import play_game
    from .engine.simulate import AGENTS

    if seat >= players:
        raise click.ClickException(f"--seat must be below --players ({players})")
    names = _csv(agents) or ["heuristic"]
    for n in names:
        if n not in AGENTS:
            raise click.ClickException(f"unknown agent {n!r} (known: {', '.join(AGENTS)})")
    rules = load_rules(content_dir, engine_dir)
    others = iter(names * players)
    seats = [HumanAgent(lambda q: click.prompt(q, default="", show_default=False,
                                               prompt_suffix=""), click.echo)
             if p == seat else AGENTS[next(others)]() for p in range(players)]
    fl = _csv(factions)
    try:
        g = play_game(rules, players, seed, seats, fl, _options(opts))
    except Quit:
        click.echo("Game ended by you.")
        return
    except click.Abort:
        raise click.ClickException("input ended before the game did") from None
    except ValueError as exc:
        raise click.ClickException(str(exc)) from None
    s = g.s
    click.echo(f"Game over in round {s.round} ({s.end_reason}): winner(s) "
               + ", ".join(f"seat {w}" + (" (you)" if w == seat else "") for w in s.winner))
