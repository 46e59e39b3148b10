"""`::: name` lines in rules chapters: tables and figures rendered from content data.

One registry maps a directive name to a small handler `(ctx) -> HTML`. A new directive is
a handler, a registry line and a test. Every word comes from the glossary (`ctx.words`),
every number from content or from arithmetic over it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from markupsafe import Markup, escape

from . import examples, odds, svg
from .words import Words

ODDS_MAX = 5                                              # battle odds table: 1..5 a side
BOARD_MM = 54.0                                           # width of one example board


@dataclass
class Ctx:
    """What a directive handler may read."""

    content: object
    words: Words
    components: Callable[[], dict]

    @property
    def game(self) -> dict:
        return self.content.game


def _table(head: list, rows: list[list], cls: str = "") -> Markup:
    cells = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>"
                   for row in rows)
    return Markup(f'<table class="rb-table {cls}"><thead><tr>{cells}</tr></thead>'
                  f"<tbody>{body}</tbody></table>")


def _players(game: dict) -> range:
    return range(int(game["players"]["min"]), int(game["players"]["max"]) + 1)


def _by_players(table: dict, p: int):
    return table[p] if p in table else table[str(p)]


def preview_table(ctx: Ctx) -> Markup:
    """§11.0: next-age cards in the Archive row, per round of the ages that preview."""
    w, rows = ctx.words, []
    for age in ctx.content.ages["ages"].values():
        preview = {int(k): int(v) for k, v in (age.get("preview") or {}).items()}
        if not any(preview.values()):
            continue
        for rnd in age["rounds"]:
            rows.append([rnd, f"{age['numeral']}", preview.get(rnd, 0)])
    head = [w.term("round"), w.term("age"), w.plain("Cards from the next [age]")]
    return _table(head, rows, "rb-narrow")


def ages_table(ctx: Ctx) -> Markup:
    """§19: rounds, name and decks of every age."""
    w, decks, rows = ctx.words, ctx.content.ages["decks"], []
    for age in ctx.content.ages["ages"].values():
        r = age["rounds"]
        rows.append([f"{age['numeral']}: {w.plain(age['name'])}",
                     f"{r[0]}–{r[-1]}" if len(r) > 1 else str(r[0]),
                     w.plain(decks[age["market_deck"]]["name"]),
                     w.plain(decks[age["power_deck"]]["name"])])
    head = [w.term("age"), w.term("round", "pl"), w.plain("[market:adj] deck"),
            w.term("power_deck")]
    return _table(head, rows)


def radius_table(ctx: Ctx) -> Markup:
    """§4.1: board radius and hex count by player count."""
    w, board = ctx.words, ctx.game["board"]
    rows = []
    for p in _players(ctx.game):
        radius = int(_by_players(board["radius_by_players"], p))
        rows.append([p, radius, 2 * radius + 1, 3 * radius * (radius + 1) + 1])
    head = [w.plain("Players"), w.plain("Radius (steps from the [center] to the edge)"),
            w.plain("[hex:pl] across"), w.plain("[hex:pl] in all")]
    return _table(head, rows)


def tile_count_table(ctx: Ctx) -> Markup:
    """§6.1: special hexes by player count."""
    w, board = ctx.words, ctx.game["board"]
    kinds = ("mine", "forge", "center")
    rows = [[p] + [int(_by_players(board["tile_counts"], p)[k]) for k in kinds]
            for p in _players(ctx.game)]
    return _table([w.plain("Players")] + [w.term(k, "pl") for k in kinds], rows)


def hex_distance_figure(ctx: Ctx) -> Markup:
    """§2.1, §4.2: distance counts every step; movement crosses bridges only."""
    figure, facts = svg.distance_figure(ctx.content)
    caption = ctx.words.html(
        f"The numbers give the distance of each [hex] from A. B is at distance "
        f"{facts['distance']} from A, but with the {facts['bridges']} [bridge:pl] shown a "
        f"[stack] in A needs {facts['steps']} moves of one [hex] to reach B: it can only "
        f"cross an edge that has a [bridge].")
    return Markup(f'<figure class="rb-figure">{figure}<figcaption>{caption}</figcaption>'
                  "</figure>")


def board_diagrams(ctx: Ctx) -> Markup:
    """§5: one example board per player count, Capital slots labelled (board generator)."""
    w, parts = ctx.words, []
    for p in _players(ctx.game):
        figure, facts = svg.board_diagram(ctx.content, p, BOARD_MM)
        caption = escape(w.plain(f"{p} players: radius {facts['radius']}, "
                                 f"{facts['hexes']} [hex:pl]; [capital] slots "
                                 f"{', '.join(facts['slots'])}"))
        parts.append(f'<figure class="rb-board players-{p}">{figure}<figcaption>{caption}</figcaption>'
                     "</figure>")
    legend = "".join(f'<span class="rb-legend-item">{item["swatch"]} {escape(item["name"])}'
                     "</span>" for item in svg.legend(ctx.content))
    note = w.html("Example layouts: the [mine:pl] (with their [mine_value:pl]) and "
                  "[forge:pl] are placed anew for every game.")
    return Markup(f'<div class="rb-boards">{"".join(parts)}</div>'
                  f'<p class="rb-legend">{legend}</p><p class="rb-caption">{note}</p>')


def combat_example(ctx: Ctx) -> Markup:
    """§14: a battle of Cohorts the engine fought (print/rulebook/examples.py: a scenario where a
    stack marches into an enemy-held hex), its dice and losses the run's; then the exact
    odds of such battles."""
    w, game = ctx.words, ctx.game
    force, sides = game["units"]["force"], int(game["combat"]["die_sides"])
    fought = examples.battle(ctx.content)
    a, d = fought["attackers"], fought["defenders"]
    hit, dice = int(force["hit"]), int(force["dice"])
    items = []
    left = {"1": a, "0": d}
    for r in fought["rounds"]:
        text = (f"**[combat_round] {r['n']}.** The [attacker] rolls {_faces(r['dice']['1'])}: "
                f"{_n(r['hits']['1'], 'hit')}. The [defender] rolls "
                f"{_faces(r['dice']['0'])}: {_n(r['hits']['0'], 'hit')}. ")
        text += _losses(r, left)
        items.append(f"<li>{_bold(w.html(text))}</li>")
    held = w.html(_held(fought["after"]))
    battle = odds.battle(dice, hit, sides)
    win, lose, both, rounds = battle.outcome(a, d)
    intro = w.html(
        f"The [attacker] takes the [march] [basic_action]: its [stack] of {a} [force:pl] "
        f"moves into a [hex] held by {d} enemy [force:pl], and the [battle] is fought at "
        f"once. Every [force] rolls {dice} {'[die]' if dice == 1 else '[die:pl]'} and hits on {hit} or less: a chance of "
        f"{odds.percent(odds.p_hit(hit, sides))} for each [die]. This is how the rules "
        f"engine fought it (dice stream {fought['seed']}; no card or faction ability in "
        "play):")
    after = w.html(
        f"Played many times, this [battle] ends with the [attacker] holding the [hex] "
        f"{odds.percent(win)} of the time and the [defender] {odds.percent(lose)}; both "
        f"sides are wiped out {odds.percent(both)}. It lasts "
        f"{float(rounds):.1f} [combat_round:pl] on average. Hits go to a random enemy "
        f"[unit], so two hits can fall on the same [force]: the second one is wasted.")
    head = [w.plain("[attacker] [force:pl] \\ [defender] [force:pl]")] + \
        [str(n) for n in range(1, ODDS_MAX + 1)]
    rows = [[n] + [odds.percent(battle.outcome(n, m)[0]) for m in range(1, ODDS_MAX + 1)]
            for n in range(1, ODDS_MAX + 1)]
    caption = w.html("Chance that the [attacker] wins a [battle] of [force:pl] only "
                     "(exact chances).")
    return Markup(f'<div class="rb-example"><p>{intro}</p><ol class="rb-steps">'
                  f'{"".join(items)}</ol><p>{held}</p><p>{after}</p></div>'
                  f'<figure class="rb-figure rb-odds-figure">{_table(head, rows, "rb-odds")}'
                  f"<figcaption>{caption}</figcaption></figure>")


def _faces(tally: list[int]) -> str:
    """The faces a side rolled (the engine logs how many of each), lowest first."""
    faces = [str(face) for face, count in enumerate(tally, 1) for _ in range(count)]
    return ", ".join(faces) if faces else "nothing"


def _n(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def _losses(r: dict, left: dict) -> str:
    """Who lost what in one Combat Round (`left`: Cohorts per side, updated)."""
    out = []
    for side, p, q in (("[defender]", "0", "1"), ("[attacker]", "1", "0")):
        lost = r["lost"][p]
        left[p] -= lost
        if not lost:
            continue
        wasted = r["hits"][q] - lost
        unit = "[force:pl]" if lost > 1 else "[force]"
        extra = ""
        if wasted:
            extra = (" (a second hit landed on a [force] already hit)" if wasted == 1 else
                     f" ({wasted} hits landed on [force:pl] already hit)")
        out.append(f"The {side} loses {lost} {unit}{extra} and has {left[p]} left.")
    if out:
        return " ".join(out)
    return "Nobody is hit, so another [combat_round] is fought."


def _held(after: dict) -> str:
    """Who holds the hex when the battle ends, with what is left."""
    for side, p in (("[attacker]", "1"), ("[defender]", "0")):
        if after[p]:
            unit = "[force]" if after[p] == 1 else "[force:pl]"
            return f"The {side} holds the [hex] with {after[p]} {unit}."
    return "Both sides are wiped out: nobody holds the [hex]."


def _bold(html: Markup) -> Markup:
    return Markup(str(html).replace("**", "<b>", 1).replace("**", "</b>", 1))


def components(ctx: Ctx) -> Markup:
    """The components manifest (print/tiles/components.py): cards by deck, tiles, tokens."""
    w, data = ctx.words, ctx.components()
    t = data["totals"]
    groups = []
    rows = []
    for deck in data["decks"]:
        note = (w.plain(f" ({deck['sets']} sets of the {deck['count'] // deck['sets']} cards, "
                        "one per player)") if deck["per_player"] else "")
        rows.append((deck["count"], w.plain(deck["name"]) + note))
    groups.append((f"{t['cards']} cards", rows))
    rows = [(tile["count"], tile["name"] + (f" ({tile['faction']})" if tile["faction"] else ""))
            for tile in data["tiles"]]
    groups.append((w.plain(f"{t['tiles']} [hex] tiles"), rows))
    rows = []
    for row in data["tokens"]:
        each = (f" ({row['each']} in each of {len(row['factions'])} faction colours)"
                if row["factions"] else "")
        rows.append((row["count"], row["name"] + each))
    groups.append((f"{t['tokens']} tokens and tracks", rows))
    if data.get("markers"):
        groups.append((w.plain(f"{t['markers']} pile markers (printed with the cards, one "
                               "per [draw_pile])"),
                       [(m["count"], w.plain(m["name"])) for m in data["markers"]]))
    dice = data.get("dice")
    if dice:
        groups.append((f"{dice['count']} {dice['name']}",
                       [(dice["count"], w.plain(f"Ordinary {dice['sides']}-sided [die:pl] "
                                                "(not printed)"))]))
    html = []
    for title, items in groups:
        body = "".join(f'<tr><td class="rb-num">{escape(n)}</td><td>{escape(name)}</td></tr>'
                       for n, name in items)
        html.append(f'<div class="rb-component-group"><h3>{escape(title)}</h3>'
                    f'<table class="rb-table rb-components"><tbody>{body}</tbody></table>'
                    "</div>")
    return Markup(f'<div class="rb-components-list">{"".join(html)}</div>')


ANATOMY = "<!--rb-card-anatomy-->"


def card_anatomy(ctx: Ctx) -> Markup:
    """A real card face with its parts numbered, and the icon key (print/rulebook/anatomy.py; the
    book puts the figure here once the faces are laid out)."""
    return Markup(ANATOMY)


DIRECTIVES: dict[str, Callable[[Ctx], Markup]] = {
    "card-anatomy": card_anatomy,
    "components": components,
    "preview-table": preview_table,
    "combat-example": combat_example,
    "ages-table": ages_table,
    "radius-table": radius_table,
    "hex-distance-figure": hex_distance_figure,
    "board-diagrams": board_diagrams,
    "tile-count-table": tile_count_table,
}


def _worked() -> None:
    """The worked examples from engine runs (print/rulebook/worked.py) join the registry."""
    from .worked import HANDLERS

    DIRECTIVES.update(HANDLERS)


_worked()
