"""The one-page player aid: round phases, basic actions with costs, key numbers, odds.

The phase list is the numbered list of the round chapter (one source); basic action costs
come from content/game.yaml `basic_actions`; combat odds are computed exactly from the hit
thresholds found in content (the Cohort's, hit-on bonuses, every Champion's).
"""

from __future__ import annotations

import re

from markupsafe import Markup

from ...errors import TetherError
from . import odds

ROUND_CHAPTER = "round"
BID_CHAPTER = "bid_draft"   # its section that names the [buy_bid] is the bidding procedure
DICE_COLUMNS = (1, 2, 3, 4)
BATTLE_MAX = 5
COSTS = ("mana", "gold")
ACTION_TEXT = {  # what each basic action does, in one line (costs and numbers from game.yaml)
    "build_bridge": "Place a [bridge] between two adjacent [hex:pl], one of them a [hex] "
                    "you occupy.",
    "march": "Move one [stack] {distance} [hex] along a [bridge]. Entering an enemy [hex] "
             "(not a [capital]) starts a [battle].",
    "capital_reinforce": "Deploy {forces} [force] into your [capital] (joins a [siege] there).",
}


def phases(chapters) -> Markup:
    """The numbered phase list of the round chapter."""
    chapter = next((c for c in chapters if c.id == ROUND_CHAPTER), None)
    match = re.search(r"<ol>.*?</ol>", str(chapter.html), re.DOTALL) if chapter else None
    if match is None:
        raise TetherError(f"player aid: rules chapter id '{ROUND_CHAPTER}' needs a numbered "
                          "list of the round's phases")
    return Markup(match.group(0))


def bids(chapters, words) -> Markup:
    """The bidding procedure (buy and pass bids, who pays, the roll-off) as the [bid_draft]
    chapter states it: its section that names the [buy_bid], without its heading (one
    source: the aid never restates a rule in words of its own)."""
    chapter = next((c for c in chapters if c.id == BID_CHAPTER), None)
    buy = str(words.html("[buy_bid]"))
    sections = re.split(r"(?=<h2[ >])", str(chapter.html)) if chapter else []
    found = next((s for s in sections if s.startswith("<h2") and buy in s), None)
    if found is None:
        raise TetherError(f"player aid: rules chapter id '{BID_CHAPTER}' needs a section "
                          "(## heading) that names the [buy_bid]: the bidding procedure")
    body = _without_examples(re.sub(r"^<h2[^>]*>.*?</h2>\s*", "", found, count=1,
                                    flags=re.DOTALL))
    return Markup(re.sub(r"<h3([ >])", r'<h3 class="rb-aid-sub"\1', body))


_EXAMPLE = re.compile(r'<div class="rb-example\b')
_DIV = re.compile(r"<div[ >]|</div>")


def _without_examples(html: str) -> str:
    """The section without its examples (a worked example the chapter shows is the book's,
    not the aid's: the aid states the procedure alone). Each example is one <div
    class="rb-example ..."> with its nested divs, removed to its matching </div>."""
    while (start := _EXAMPLE.search(html)) is not None:
        depth, end = 0, len(html)
        for tag in _DIV.finditer(html, start.start()):
            depth += -1 if tag.group(0) == "</div>" else 1
            if depth == 0:
                end = tag.end()
                break
        html = html[:start.start()] + html[end:]
    return html


def basic_actions(content, words) -> list[dict]:
    """Name, cost icons and effect of each basic action."""
    out = []
    for aid_, spec in content.game["basic_actions"].items():
        cost = [{"amount": spec[k], "icon": Markup(words.icon_html(k))} for k in COSTS
                if spec.get(k)]
        text = ACTION_TEXT.get(aid_, "").format(**spec)
        out.append({"name": words.term(aid_), "cost": cost, "text": words.html(text)})
    return out


def _hit_values(node, found: set[int]) -> None:
    if isinstance(node, dict):
        if node.get("modifier") == "hit_on" and isinstance(node.get("value"), int):
            found.add(node["value"])
        for value in node.values():
            _hit_values(value, found)
    elif isinstance(node, list):
        for item in node:
            _hit_values(item, found)


def hit_table(content, words, cards: list[dict]) -> dict:
    """Per hit threshold: who uses it, P(hit) per die, P(at least one hit) with n dice."""
    game = content.game
    sides = int(game["combat"]["die_sides"])
    force_hit = int(game["units"]["force"]["hit"])
    bonus: set[int] = set()
    _hit_values([c["effect"] for c in cards] + [c["triggers"] for c in cards], bonus)
    _hit_values(list(content.factions.values()), bonus)
    champions: dict[int, int] = {}
    for c in cards:
        if c["champion"]:
            champions[c["champion"]["hit"]] = champions.get(c["champion"]["hit"], 0) + 1
    rows = []
    for h in sorted({force_hit} | bonus | set(champions)):
        who = []
        if h == force_hit:
            who.append(words.term("force"))
        if h in bonus:
            who.append(words.plain("[force] with a card or passive"))
        if h in champions:
            who.append(words.plain(f"{champions[h]} [champion:pl]" if champions[h] > 1
                                   else "1 [champion]"))
        rows.append({"hit": h, "range": f"1–{h}" if h > 1 else "1", "who": ", ".join(who),
                     "die": odds.percent(odds.p_hit(h, sides)),
                     "any": [odds.percent(odds.p_any_hit(n, h, sides)) for n in DICE_COLUMNS]})
    return {"rows": rows, "dice": DICE_COLUMNS, "sides": sides}


def battle_table(content) -> dict:
    """P(attacker wins) for battles of Cohorts only, 1..BATTLE_MAX a side."""
    force = content.game["units"]["force"]
    battle = odds.battle(int(force["dice"]), int(force["hit"]),
                         int(content.game["combat"]["die_sides"]))
    sizes = list(range(1, BATTLE_MAX + 1))
    return {"sizes": sizes,
            "rows": [[odds.percent(battle.outcome(a, d)[0]) for d in sizes] for a in sizes]}


def reminders(content, words) -> dict:
    """Collection choices and the rules most often looked up, with numbers from content."""
    game, market = content.game, content.game["market"]
    collection = [
        (f"**[mine]**: take {{gold}} equal to its [mine_value], or make a [mine_draft] "
         f"(reveal {market['mine_draft_reveal']} [market:adj] card, keep it or not)."),
        (f"**[forge]**: [reforge] ([scrap] a card from your [hand]), or make a [forge_draft] "
         f"(reveal {market['forge_draft_reveal']} [market:adj] cards, gain 1)."),
        (f"**[center]**: make a [power_pick] (reveal {market['power_pick_reveal']} cards of "
         "the [power_deck], gain 1)."),
    ]
    remember = [
        (f"**Winning**: at the end of [scoring], {game['victory']['vp_to_win']} or more [vp] "
         "and no enemy [unit] in your [capital]."),
        ("**Timing**: cards resolve by [initiative], lowest first; then [basic_action:pl] in "
         "seat order from the [lead]."),
        ("**[battle:pl]** are fought after each single action; [unit:pl] in a [capital] "
         "fight a [siege] after the [action_phase]."),
        "**Gaining a card**: put it into your [draw_pile] at a random place.",
    ]
    bold = re.compile(r"\*\*(.+?)\*\*")
    render = lambda t: Markup(bold.sub(r"<b>\1</b>", str(words.html(t))))
    return {"collection": [render(t) for t in collection],
            "remember": [render(t) for t in remember]}


def player_aid(content, words, cards: list[dict], chapters) -> dict:
    """Everything the player aid page shows."""
    game = content.game
    return {
        **reminders(content, words),
        "phases": phases(chapters),
        "bids": bids(chapters, words),
        "actions": basic_actions(content, words),
        "numbers": [
            (words.html("{mana} each [round]"), game["resources"]["max_mana"]),
            (words.html("[hand] size"), game["hand"]["size"]),
            (words.html("[hand] limit"), game["hand"]["limit"]),
            (words.html("Starting {gold}"), game["resources"]["start_gold"]),
            (words.html("{gold} income each [round]"), game["resources"]["base_income"]),
            (words.html("[vp] to win"), game["victory"]["vp_to_win"]),
            (words.html("Last [round]"), game["victory"]["round_cap"]),
            (words.html("[champion] limit"), game["champions"]["limit"]),
        ],
        "control": [(words.html(f"[{tid}]" if tid != "enemy_capital" else "Enemy [capital]"),
                     value) for tid, value in game["scoring"]["control_vp"].items()],
        "hits": hit_table(content, words, cards),
        "battle": battle_table(content),
    }
