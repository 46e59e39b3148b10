"""`tether play`: play a game yourself at the terminal against the agents."""

from __future__ import annotations

import click

from .engine import CONTENT, ENGINE, csv_list, load_rules, parse_options


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
@click.option("--seed", type=click.IntRange(0, 2**63 - 1), default=None,
              help="Replay a game: with the seed (and the same answers) the same game. "
                   "Without it the seed is drawn in secret and shown at the end.")
@click.option("--option", "opts", multiple=True, metavar="NAME=VALUE",
              help="Rules option (see docs/rules-options.md); repeatable.")
def play(content_dir, engine_dir, players, seat, agents, factions, seed, opts) -> None:
    """Play one seeded game at the terminal: the board, your hand, the options in words."""
    from ..engine.simulate import AGENTS
    from ..engine.table import HUMAN, Refused, Table
    from ..serve.play import Rules
    from ..serve.term import Quit, play_terminal
    from ..serve.words import Words

    if seat >= players:
        raise click.ClickException(f"--seat must be below --players ({players})")
    names = csv_list(agents) or ["heuristic"]
    for n in names:
        if n not in AGENTS:
            raise click.ClickException(f"unknown agent {n!r} (known: {', '.join(AGENTS)})")
        if n == "nsearch":
            raise click.ClickException("nsearch plays whole games in the native engine only "
                                       "(tether simulate, tether balance); here use search")
    rules = Rules.load(content_dir)
    if engine_dir is not None:
        rules.rules = load_rules(content_dir, engine_dir)
        rules.words = Words(rules.content.terms, rules.rules)
    others = iter(names * players)
    seats = [HUMAN if p == seat else next(others) for p in range(players)]
    fl = csv_list(factions)
    if fl:
        fl = (fl * players)[:players]
        for f in fl:
            if f not in rules.rules.factions:
                raise click.ClickException(f"unknown faction {f!r} (known: "
                                           f"{', '.join(sorted(rules.rules.factions))})")
    if seed is None:  # secret: with it and the answers every hand can be worked out
        from ..serve.seal import draw_seed
        seed = draw_seed()
    table = Table(rules.rules, players, seed, seats, fl, parse_options(opts), agents=AGENTS).start()
    try:
        st = play_terminal(rules, table, seat,
                           lambda q: click.prompt(q, default="", show_default=False,
                                                  prompt_suffix=""), click.echo)
    except Quit:
        click.echo("Game ended by you.")
        return
    except click.Abort:
        raise click.ClickException("input ended before the game did") from None
    except (ValueError, RuntimeError, Refused) as exc:
        raise click.ClickException(str(exc)) from None
    finally:
        table.close()
    winners = st.get("winner") or []
    click.echo("Winner(s): " + ", ".join(f"Seat {w + 1}" + (" (you)" if w == seat else "")
                                         for w in winners))
    click.echo(f"Seed {seed} (--seed {seed} with the same answers plays this game again).")
