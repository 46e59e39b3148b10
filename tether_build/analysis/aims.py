"""Whom card effects land on: every target an effect resolved on, read from a game log.

Each `target` event (logged by both engines as a chosen or locked Champion, hex or player
target is used while an effect resolves) names the acting seat, the compiled step (its uid)
and the seats whose units the target holds at that moment. The step says what the effect
does to its target, read from the compiled effect as the agents read it (`engine/intent`):
harmful (damage, destruction, a hostile modifier such as a dice cap ...), helpful (heals,
deploys, a friendly modifier ...) or either. No card names: a new card is classified by its
steps. A harmful effect on the acting seat's own units, or a helpful one on an enemy's, is
*misaimed*, unless the card's text makes it the point: its selector names that side
(`side: friendly` for harm, `side: enemy` for help, a reference to such a choice, or a
destroy_forces step that spares one's own: `side: enemy`, `mover`). Harm on a hex that a
scatter step picked at random (where a shot landed, not where it was aimed) is counted
apart: chance, not aim.

    tally(events, rules) -> Tally      # one game's log (or many: add the Tallies)
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from ..engine.intent import step_intent, steps, uses

HARM, HELP, EITHER = "harmful", "helpful", "either"
CHANCE = "chance"  # a hex a scatter step chose at random (where a shot landed), not a seat


def _source(rules, card: str | None) -> list:
    """The raw effect trees a step of this card (or Champion) may belong to."""
    defn = rules.by_id.get(card) if card else None
    if defn is None:
        return []
    champ = (defn.raw.get("champion") or {}).get("abilities", [])
    return [defn.raw.get("effect"), [a.get("steps") for a in champ],
            [t.get("steps") for t in defn.raw.get("triggers") or []]]


def step_effect(step, source) -> int:
    """+1 helpful, -1 harmful, 0 either: the step's own kind, or for a choose_target the
    steps that use its name (engine/intent.target_intent, uncached: read here per card)."""
    if step.kind != "choose_target":
        return step_intent(step.kind, step.params)
    name = step.params.get("as")
    votes = {step_intent(d["step"], d) for d in steps(source)
             if d is not step.params and uses(d, name)}
    votes.discard(0)
    return votes.pop() if len(votes) == 1 else 0


def _side(params: dict, source) -> str:
    """The side a step's selector names (friendly, enemy, any); a {ref: name} selector
    names the side of the choose_target that chose it ("Choose a friendly Champion ...
    It takes 2 damage")."""
    sel = params.get("champion") or params.get("hex") or {}
    if not isinstance(sel, dict):
        return "any"
    ref = sel.get("ref")
    if ref is not None:
        setter = next((d for d in steps(source) if d["step"] in ("choose_target", "scatter")
                       and d.get("as") == ref), None)
        if setter is not None and setter["step"] == "scatter":
            return CHANCE
        return "any" if setter is None else _side(setter, [])
    return sel.get("side", "any")


@dataclass
class Tally:
    """Target resolutions counted by (effect, step kind, whose target, locked?)."""

    counts: Counter = field(default_factory=Counter)
    misaimed: list = field(default_factory=list)  # (game, event index, event, why)
    chance: list = field(default_factory=list)  # harm on own where a random scatter landed

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.counts + other.counts, self.misaimed + other.misaimed,
                     self.chance + other.chance)

    def total(self, why: str) -> int:
        """How many resolutions of one kind ('harm on own', 'help on enemy', 'harm on own
        by chance')."""
        return sum(1 for m in self.misaimed + self.chance if m[3] == why)

    def rows(self) -> list[tuple]:
        """(effect, step, whose, locked, count), most frequent first."""
        return [(*k, n) for k, n in self.counts.most_common()]


def classify(e: dict, rules) -> tuple[str, str, str | None]:
    """(effect, whose, why-misaimed or None) of one target event."""
    step = rules.step_by_uid[e["uid"]]
    source = _source(rules, e.get("card"))
    eff = {-1: HARM, 1: HELP, 0: EITHER}[step_effect(step, source)]
    owners, p = e["owners"], e["p"]
    whose = "own" if p in owners else ("enemy" if owners else "nobody")
    if p in owners and len(owners) > 1:
        whose = "own and enemy"
    side = _side(step.params, source)
    spares = step.params.get("side") in ("enemy", "mover")  # destroy_forces: whose Forces
    why = None
    if eff == HARM and p in owners and side == CHANCE:
        why = "harm on own by chance"  # the shot was aimed elsewhere and landed here
    elif eff == HARM and p in owners and side != "friendly" and not spares:
        why = "harm on own"
    elif eff == HELP and e["kind"] != "hex" and owners and p not in owners and side != "enemy":
        why = "help on enemy"  # a hex a friendly step targets may be an enemy's (an attack)
    return eff, whose, why


def tally(events: list[dict], rules, game: str = "") -> Tally:
    """Count one game's target resolutions; keep each misaimed one with where it is."""
    t = Tally()
    for i, e in enumerate(events):
        if e.get("e") != "target":
            continue
        eff, whose, why = classify(e, rules)
        t.counts[(eff, e["step"], whose, bool(e.get("locked")))] += 1
        if why:
            (t.chance if why.endswith("by chance") else t.misaimed).append((game, i, e, why))
    return t


def report(t: Tally, games: int) -> str:
    """Plain-text table of a Tally."""
    lines = [f"target resolutions in {games} games: {sum(t.counts.values())}",
             (f"  harm on own units: {t.total('harm on own')}; "
              f"help on enemies: {t.total('help on enemy')}; harm that landed on own "
              f"units by chance (a scattered shot): {t.total('harm on own by chance')}"),
             "  effect    step               whose          locked  count"]
    for eff, step, whose, locked, n in t.rows():
        lines.append(f"  {eff:9} {step:18} {whose:14} {'yes' if locked else 'no':7} {n}")
    for game, i, e, why in (t.misaimed + t.chance)[:20]:
        lines.append(f"  {why}: {game} event {i}: seat {e['p']} {e.get('card')} "
                     f"{e['step']} on {e['kind']} of {e['owners']}")
    return "\n".join(lines)
