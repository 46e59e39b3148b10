"""The worked examples' text and figure, written from engine runs (print/rulebook/examples.py).

Four `::: name` directives: `bid-example` (§11), `action-example` (§12), `siege-example`
(§13) and `setup-figure` (§8). Every word is the glossary's (`[token]` text through
`ctx.words`), every name a card's or a faction's from content, every number the run's.
"""

from __future__ import annotations

from markupsafe import Markup

from . import examples as ex
from .worked_board import board_svg, legend


class _Say:
    """Seat, hex and card names of one run, as token text for `Words.html`."""

    def __init__(self, ctx, factions: list[str], tiles: dict, capitals: dict,
                 letters: bool = False):
        self.ctx, self.factions, self.tiles, self.capitals = ctx, factions, tiles, capitals
        self.labels: dict | None = {} if letters else None   # coord -> its letter in a figure

    def _where(self, coord) -> str:
        if self.labels is None:
            return f"at {_at(coord)}"
        if coord not in self.labels:
            self.labels[coord] = chr(ord("A") + len(self.labels))
        return self.labels[coord]

    def seat(self, p) -> str:
        return _safe(self.ctx.content.factions[self.factions[int(p)]]["name"])

    def hex(self, coord) -> str:
        coord = _coord(coord)
        tile = self.tiles.get(coord, "plain")
        if coord in self.capitals:
            return f"the {self.seat(self.capitals[coord])} [capital]"
        if tile == "center":
            return "the [center]"
        kind = tile if tile in ("mine", "forge") else "hex"
        if self.labels is not None:   # "Forge A": the letter on the figure
            return f"[{kind}] {self._where(coord)}"
        return f"the [{kind}] {self._where(coord)}"

    def card(self, card_id: str) -> str:
        """A card (or the Champion of a card) by its id: its name, in bold."""
        return _card(self.ctx, card_id)

    def text(self, card_id: str) -> str:
        """A card's printed rules text (token text), as content words it."""
        for card in self.ctx.content.cards:
            if card["id"] == card_id:
                return str(card.get("text") or "").replace("**", "").strip()
        return ""

    def name(self, card_id: str) -> str:
        return _safe(ex.rules_of(self.ctx.content).by_id[card_id].name)


def _card(ctx, card_id: str) -> str:
    rules = ex.rules_of(ctx.content)
    return "**" + _safe(rules.by_id[card_id].name) + "**"


def _safe(name: str) -> str:
    """A name from content inside token text (brackets and braces would read as tokens)."""
    return str(name).replace("[", "(").replace("]", ")").replace("{", "(").replace("}", ")")


def _coord(c) -> tuple[int, int]:
    if isinstance(c, str):   # "(q,r)" as the event log writes it
        q, r = c.strip("()").split(",")
        return int(q), int(r)
    return int(c[0]), int(c[1])


def _at(c) -> str:
    return f"({c[0]},{c[1]})"


def _html(ctx, text: str) -> Markup:
    """Token text with **bold** and ‹i›italics‹/i› as HTML."""
    out = str(ctx.words.html(text))
    out = out.replace("\u2039i\u203a", "<i>").replace("\u2039/i\u203a", "</i>")
    while "**" in out:
        out = out.replace("**", "<b>", 1).replace("**", "</b>", 1)
    return Markup(out)


def _n(count: int, term: str) -> str:
    return f"{count} [{term}]" if count == 1 else f"{count} [{term}:pl]"


# ---- §11 the Bid-Draft ---------------------------------------------------------------------

def bid_example(ctx) -> Markup:
    """A round's Market row, the secret bids for each card, who gains it and how."""
    run, row = ex.bid_round(ctx.content)
    rules = ex.rules_of(ctx.content)
    say = _Say(ctx, run.factions, run.setup["tiles"], run.setup["capitals"])
    age = rules.age_of_round.get(row["round"])
    cards = []
    for n, cid in enumerate(row["cards"], 1):
        early = rules.by_id[cid].age != age
        cards.append(f"Card {n} {_card(ctx, cid)}" +
                     (f" (from [age] {rules.by_id[cid].age}, shown early)" if early else ""))
    gold = row["sales"][0]["gold"]
    intro = (f"[round] {row['round']} of a seeded {run.players}-player game "
             f"(seed {run.seed}; the seats play as {_list([say.seat(p) for p in range(run.players)])}). "
             f"[gold] before the bids: "
             + ", ".join(f"{say.seat(p)} {gold[str(p)]}" for p in range(run.players)
                         if str(p) in gold)
             + f". The [market:adj] row is {'; '.join(cards)}.")
    items = []
    for n, sale in enumerate(row["sales"], 1):
        bids = ", ".join(f"{say.seat(p)} a [{'buy_bid' if kind == 'buy' else 'pass_bid'}] "
                         f"of {x}" for p, (kind, x) in sale["bids"].items())
        text = f"**Card {n}, {_card(ctx, sale['card'])[2:-2]}.** Secret bids: {bids}. "
        winner = say.seat(sale["winner"])
        if sale.get("way") == "buy":
            top = max(x for kind, x in sale["bids"].values() if kind == "buy")
            text += _rolloffs(say, sale, "highest [buy_bid]")
            text += (f"The highest [buy_bid] wins: {winner} pays {top} [gold] and gains the "
                     "card. Nobody else pays anything. ")
        else:
            low = min(x for _k, x in sale["bids"].values())
            text += "Nobody buys, so the [pass_bid:pl] count. "
            text += _rolloffs(say, sale, f"lowest [pass_bid] ({low})")
            pot = sale.get("pot") or 0
            text += (f"{winner} gains the card. Every bidder pays their [pass_bid] into the "
                     f"[pass_pot] ({pot} [gold] in all) and {winner} takes the [pass_pot]. ")
        items.append(f"<li>{_html(ctx, text)}</li>")
    intro += (" A player who gains a card bids no more this [round], so each card has "
              "fewer bidders than the one before.")
    return Markup(f'<div class="rb-example rb-worked"><p class="rb-worked-head">'
                  f'{_html(ctx, "Example: a [bid_draft]")}</p><p>{_html(ctx, intro)}</p>'
                  f'<ol class="rb-steps">{"".join(items)}</ol></div>')


def _rolloffs(say, sale: dict, what: str) -> str:
    if not sale["rolloffs"]:
        return ""
    rounds = []
    for rolls in sale["rolloffs"]:
        rounds.append(", ".join(f"{say.seat(p)} {v}" for p, v in rolls.items()))
    text = f"There is a tie for the {what}: the tied players roll a [die] ({rounds[0]})"
    for again in rounds[1:]:
        text += f"; the lowest are tied again and roll again ({again})"
    return text + "; the lowest roll wins. "


def _list(names: list[str]) -> str:
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


# ---- §12 an Action Step ----------------------------------------------------------------------

def action_example(ctx) -> Markup:
    """Each seat's secret choice with its locked targets; the reveal; initiative order; the
    board as the step begins, the hexes the text names lettered."""
    run, step = ex.action_step(ctx.content)
    board = step["board"]
    say = _Say(ctx, run.factions, board["tiles"], board["capitals"], letters=True)
    intro = (f"[round] {step['round']}, [action_step] {step['step']} of a seeded "
             f"{run.players}-player game (seed {run.seed}); {say.seat(step['lead'])} is the "
             "[lead]. The board shows the [unit:pl] as the step begins. Each player chooses "
             "in secret, and the targets are locked as they choose:")
    chosen = [f"<li>{_html(ctx, _choice(say, d))}</li>" for d in step["declared"]]
    reveal = ("All reveal together and pay their costs. The cards resolve from the lowest "
              "[initiative] up (a tie goes in seat order from the [lead]), then the "
              "[basic_action:pl] in seat order from the [lead]:")
    done = [f"<li>{_html(ctx, t)}</li>" for t in _resolution(say, step)]
    figure = board_svg(ctx.content, run.factions, board, STEP_MM,
                       f"round {step['round']}, step {step['step']}", units=True,
                       labels=say.labels)
    key = _html(ctx, "A disc: a player's [force:pl] in a [hex] (the number); a dark ring "
                     "around it: a [champion] with them. A letter: a [hex] the text names.")
    # the board beside the choices: a two-cell table (a float that meets a page break
    # crashes WeasyPrint 66's layout: KeyError in broken_out_of_flow)
    # (the intro across the example, so the block that cannot break, board and choices,
    # is short enough to end the page the chapter's text leaves room on)
    return Markup(f'<div class="rb-example rb-worked"><div class="rb-worked-top">'
                  f'<p class="rb-worked-head">{_html(ctx, "Example: an [action_step]")}</p>'
                  f'<p class="rb-step-intro">{_html(ctx, intro)}</p>'
                  f'<div class="rb-step-grid"><div class="rb-step-text">'
                  f'<ul class="rb-steps">{"".join(chosen)}</ul>'
                  f'</div><figure class="rb-step-figure">{figure}<figcaption>'
                  f'<span class="rb-legend">{legend(ctx.content, run.factions, units=True)}'
                  f"</span> {key}</figcaption></figure></div></div>"
                  f'<p>{_html(ctx, reveal)}</p><ol class="rb-steps">{"".join(done)}</ol></div>')


STEP_MM = 62.0


def _choice(say, d: dict) -> str:
    who, aims = say.seat(d["p"]), [_aim(say, t) for t in d["targets"]]
    aim = f", locking {_list(aims)}" if aims else ""
    if d["kind"] == "card":
        text = say.text(d["card_id"])
        said = f" \u2039i\u203a“{text}”\u2039/i\u203a" if text else ""
        return f"{who} plays {say.card(d['card_id'])} ([initiative] {d['init']}){aim}.{said}"
    if d["kind"] == "march":
        return f"{who} takes the [march] [basic_action]{aim}."
    if d["kind"] == "bridge":
        return f"{who} takes the [build_bridge] [basic_action]{aim}."
    if d["kind"] == "reinforce":
        return f"{who} takes the [capital_reinforce] [basic_action]."
    if d["kind"] == "done":
        return f"{who} declares [done]."
    return f"{who} uses an ability."


def _aim(say, t: dict) -> str:
    if t["kind"] == "champion":
        return f"{say.seat(t['owner'])}'s {_safe(t['name'])} in {say.hex(t['hex'])}"
    if t["kind"] == "edge":
        a, b = t["hexes"]
        return f"the edge between {say.hex(a)} and {say.hex(b)}"
    if t["kind"] == "path":
        hexes = t["hexes"]
        return f"the path from {say.hex(hexes[0])} to {say.hex(hexes[-1])}"
    return say.hex(t["hex"])


BATTLE = {"battle", "round", "destroy", "damage", "battle_end", "bounty", "trigger", "heal"}
BASIC_START = {"move", "bridge", "deploy", "deploy_fail", "fizzle"}
BASIC_NAME = {"march": "[march]", "bridge": "[build_bridge]", "reinforce": "[capital_reinforce]",
              "ability": "ability"}


def _resolution(say, step: dict) -> list[str]:
    """One line per card, in the order they resolved (with the battle it caused), then one
    per basic action, in seat order from the Lead."""
    declared = step["declared"]
    cards = {d["card_id"]: d for d in declared if d["kind"] == "card"}
    players = max(d["p"] for d in declared) + 1 if declared else 1
    rank = {p: (p - step["lead"]) % max(players, len(say.factions)) for p in range(64)}
    basics = sorted((d for d in declared if d["kind"] not in ("card", "done")),
                    key=lambda d: rank[d["p"]])
    lines, pending, last = [], [], None   # last: the line a following battle belongs to
    left = len(cards)
    for e in step["events"]:
        kind = e["e"]
        if kind in ("resolved", "fizzled") and left:
            d = cards.get(e["card"], {})
            head = (f"{say.card(e['card'])} ([initiative] {d.get('init', '?')}, "
                    f"{say.seat(e['p'])})")
            last = {"head": head, "effects": pending, "fizzled": kind == "fizzled"}
            lines.append(last)
            pending, left = [], left - 1
            continue
        text = _event(say, e)
        if not left and kind in BASIC_START and not (kind == "bridge" and not e.get("basic")):
            d = basics.pop(0) if basics else {"p": e.get("p", 0), "kind": "march"}
            last = {"head": f"{say.seat(d['p'])}'s {BASIC_NAME.get(d['kind'], 'action')}",
                    "effects": [], "fizzled": False}
            lines.append(last)
        if text is None:
            continue
        if last is not None and (kind in BATTLE or not left):
            last["effects"].append(text)
        else:
            last = None
            pending.append(text)
    out = []
    for line in lines:
        if line["fizzled"]:
            body = "it fizzles: a locked target is no longer legal (its costs stay paid)"
        else:
            body = "; ".join(line["effects"]) or "it resolves"
        text = (f"{line['head']} {body[3:]}." if body.startswith("it fizzles") else
                f"{line['head']}: {body}.")
        out.append(text[0].upper() + text[1:])
    return out


def _event(say, e: dict) -> str | None:
    kind = e["e"]
    who = say.seat(e["p"]) if "p" in e and e["p"] is not None else ""
    if kind == "champion":
        return f"{who}'s {say.name(e['card'])} enters {say.hex(e['hex'])} with {e['hp']} [hp]"
    if kind == "deploy":
        return f"{_n(e['n'], 'force')} of {who} deploy into {say.hex(e['hex'])}"
    if kind == "move":
        return f"{who}'s [stack] moves from {say.hex(e['frm'])} to {say.hex(e['to'])}"
    if kind == "bridge":
        a, b = e["between"]
        return f"{who} builds a [bridge] between {say.hex(a)} and {say.hex(b)}"
    if kind == "unbridge":
        a, b = e["between"]
        return f"the [bridge] between {say.hex(a)} and {say.hex(b)} is removed"
    if kind == "damage":
        return f"{who}'s {say.name(e['card'])} takes {e['n']} damage ({e['hp']} [hp] left)"
    if kind == "heal":
        return f"{who}'s {say.name(e['card'])} heals {e['n']} [hp]"
    if kind == "gold":
        n = e["n"]
        return f"{who} {'gains' if n >= 0 else 'loses'} {abs(n)} [gold]"
    if kind == "modifier":
        return "its effect lasts " + LASTS.get(e["duration"], e["duration"].replace("_", " "))
    if kind == "battle":
        return (f"{say.seat(e['att'])} and {say.seat(e['dfn'])} fight a [battle] in "
                f"{say.hex(e['hex'])}")
    if kind == "battle_end":
        won = say.seat(e["winner"]) if e["winner"] is not None else "nobody"
        return f"after {_n(e['rounds'], 'combat_round')} {won} holds it"
    if kind == "destroy":
        return f"{who} loses {_n(e['n'], 'force')}"
    if kind == "fizzle":
        return "it fizzles: its locked target is no longer legal"
    if kind == "trigger" and e.get("src"):
        return f"{who}'s {_safe(e['src'])} triggers"
    if kind == "bounty":
        return f"{who} gains {e['gold']} [gold] of [bounty]"
    return None


LASTS = {"end_of_round": "until the end of the [round]", "next_battle": "until the next [battle]",
         "this_battle": "for this [battle]", "first_battle": "until the first [battle]",
         "permanent": "for the rest of the game"}


# ---- §13 a Siege ---------------------------------------------------------------------------

def siege_example(ctx) -> Markup:
    """A march into an enemy Capital (no battle yet), then the Siege to the death."""
    sg = ex.siege(ctx.content)
    say = _Say(ctx, sg["factions"], {}, {tuple(sg["capital"]): sg["owner"]})
    dfn, att = say.seat(0), say.seat(1)
    force = ctx.game["units"]["force"]
    intro = (f"{dfn} holds its [capital] with {_n(sg['before'][0], 'force')}. "
             f"{att} has {_n(sg['before'][1], 'force')} next door, with a [bridge] into "
             f"it, and takes the [march] [basic_action] into the {dfn} [capital]. "
             + ("In any other [hex] a [battle] would be fought at once; in a [capital] "
                "it is not: the [capital] is under [siege]."
                if not sg["entered_battle"] else "")
             + f" When the [action_phase] ends, the [siege] is fought to the death, "
             f"{dfn} as the [defender] and {att} as the [attacker]. Each [force] rolls "
             f"{_n(force['dice'], 'die')} and hits on {force['hit']} or less (no card or "
             f"faction ability in play; dice stream {sg['seed']}).")
    items, current = [], None
    for e in sg["events"]:
        kind = e["e"]
        if kind == "round":
            if current:
                items.append(current)
            hits, dice = e["hits"], e["dice"]
            current = (f"**[combat_round] {e['n']}.** {att} rolls {_faces(dice['1'])}: "
                       f"{_hits(hits['1'])}; {dfn} rolls {_faces(dice['0'])}: "
                       f"{_hits(hits['0'])}.")
        elif kind == "destroy" and current:
            current += f" {say.seat(e['p'])} loses {_n(e['n'], 'force')}."
        elif kind == "damage" and current:
            current += f" {say.name(e['card'])} takes {e['n']} damage."
        elif kind == "trigger" and e.get("src"):
            note = f" {say.seat(e['p'])}'s {_safe(e['src'])} triggers."
            if current:
                current += note
            else:
                items.append(note.strip())
    if current:
        items.append(current)
    left = sg["after"]
    won = (dfn if left[0] and not left[1] else att if left[1] and not left[0] else None)
    end = (f"{dfn} keeps its [capital] with {_n(left[0], 'force')} left." if won == dfn
           else f"{att} takes the {dfn} [capital] with {_n(left[1], 'force')} left: while it "
                f"stays, {dfn} cannot win at [scoring]." if won == att
           else "Both sides are wiped out.")
    return Markup(f'<div class="rb-example rb-worked"><p class="rb-worked-head">'
                  f'{_html(ctx, "Example: a [siege]")}</p><p>{_html(ctx, intro)}</p>'
                  f'<ol class="rb-steps">{"".join(f"<li>{_html(ctx, t)}</li>" for t in items)}'
                  f"</ol><p>{_html(ctx, end)}</p></div>")


def _faces(tally: list[int]) -> str:
    faces = [str(face) for face, count in enumerate(tally, 1) for _ in range(count)]
    return ", ".join(faces) if faces else "nothing"


def _hits(n: int) -> str:
    return f"{n} hit" if n == 1 else f"{n} hits"


# ---- §8 the set-up picture -----------------------------------------------------------------

FIGURE_MM = 80.0   # a column wide: the figure flows with the set-up text (columns.py)


def setup_figure(ctx) -> Markup:
    """The board of a seeded game after set-up: tiles, Capitals in faction colours with
    their Cohorts, the Mine Values and the starting Bridges."""
    run = ex.setup_state(ctx.content)
    st, content = run.setup, ctx.content
    figure = board_svg(content, run.factions, st, FIGURE_MM, f"set-up, {run.players} players")
    start = content.game["starting"]
    home = next(iter(st["capitals"]))
    forces = sum(n for q, n, _c in st["units"].get(home, []) if q == st["capitals"][home])
    hand = st["hand"][0]
    caption = _html(ctx, (
        f"A seeded {run.players}-player game (seed {run.seed}) after set-up. "
        f"Each [capital], in its faction's colour, holds {_n(forces, 'force')} "
        f"(the number on it). Each player has {st['gold'][0]} [gold], a [hand] of {hand} "
        f"cards with its [champion] in it, and placed {_n(start['bridges'], 'bridge')} "
        f"({len(st['bridges'])} on the board, as two players may place the same one). "
        f"The [mine:pl] show their [mine_value:pl]."))
    return Markup(f'<figure class="rb-figure rb-setup-figure rb-in-column">{figure}<figcaption>'
                  f'<span class="rb-legend">{legend(content, run.factions)}</span> '
                  f"{caption}</figcaption></figure>")


HANDLERS = {
    "bid-example": bid_example,
    "action-example": action_example,
    "siege-example": siege_example,
    "setup-figure": setup_figure,
}
