"""The engine's reading of a card: English generated from its effect, not from its text.

Shown beside the printed text (`tether explain`, `tether cards`, the preview gallery, the
designer notes), so a card whose effect quietly differs from its words is seen. Every step
kind, selector, condition, modifier and trigger event of effects/spec.py has a phrase here or
in effects/words.py (a test checks the tables). Every game word is the glossary's current
name (pass the content's `terms`); defaults the card leaves out are read from the spec, as
the compiler fills them in.
"""

from __future__ import annotations

from . import spec
from .phrases import a, with_defaults
from .words import Words


def _sentence(text: str) -> str:
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


class Reader:
    """Steps in words, with the glossary and the names of the card's chosen targets."""

    def __init__(self, terms: dict | None = None):
        self.w = Words(terms)

    def steps(self, steps: list | None) -> str:
        parts = [self.step(s) for s in steps or []]
        return "; then ".join(parts) if parts else "no effect"

    def step(self, s: dict) -> str:
        kind = s.get("step")
        p = with_defaults(spec.STEPS, kind, {k: v for k, v in s.items() if k != "step"})
        fn = getattr(self, "_" + str(kind), None)
        return fn(p) if fn else "something happens"   # spec-validated content never

    # ---- resources and cards --------------------------------------------------------------
    def _noop(self, p):
        return "nothing happens"

    def _gain(self, p, verb: str, tid: str, up_to: str = "") -> str:
        who = p.get("player", "self")
        head, tail = self.w.qty(p["amount"], self.w.sg(tid), self.w.pl(tid))
        if who == "self":
            return f"{verb} {up_to}{head}{tail}"
        return f"{self.w.player(who)} {verb}s {up_to}{head}{tail}"

    def _gain_gold(self, p):
        return self._gain(p, "gain", "gold")

    def _lose_gold(self, p):
        return self._gain(p, "lose", "gold", "up to ")

    def _steal_gold(self, p):
        head, tail = self.w.qty(p["amount"], self.w.sg("gold"), self.w.pl("gold"))
        return f"take up to {head} from {self.w.player(p['from'])}{tail}"

    def _gain_mana(self, p):
        return self._gain(p, "gain", "mana")

    def _set_mana(self, p):
        whose = {"self": "your", "owner": "its owner's"}.get(
            p.get("player"), self.w.player(p.get("player")) + "'s")
        head, tail = self.w.qty(p["amount"], "", "")
        return f"set {whose} {self.w.sg('mana')} to {head.strip()}{tail}"

    def _gain_vp(self, p):
        return self._gain(p, "gain", "permanent_vp")

    def _cards(self, p, key="count") -> tuple[str, str]:
        head, tail = self.w.qty(p[key], "card", "cards")
        return ("up to " if p.get("up_to") else "") + head, tail

    def _draw(self, p):
        head, tail = self._cards(p)
        if p.get("player") == "others":
            return f"each other player draws {head}{tail}"
        return f"draw {head}{tail}"

    def _discard(self, p):
        head, tail = self._cards(p)
        return f"discard {head}{tail}"

    def _scrap(self, p):
        head, tail = self._cards(p)
        return f"remove {head} in your {self.w.sg('hand')} from the game{tail}"

    def _put_on_top(self, p):
        head, tail = self._cards(p)
        return (f"put {head} from your {self.w.sg('hand')} on top of your "
                f"{self.w.sg('draw_pile')}{tail}")

    def _look(self, p):
        sg = self.w.sg
        text = f"look at the top {p['count']} cards of your {sg('draw_pile')}"
        if p.get("take"):
            text += f", put {p['take']} into your {sg('hand')}"
        rest = "the rest" if p.get("take") else "them"
        return text + {
            "discard": f" and put {rest} on your {sg('discard_pile')}",
            "bottom": f" and put {rest} on the bottom of your {sg('draw_pile')}",
            "choose_bottom": f"; put any of {rest} on the bottom of your {sg('draw_pile')} "
                             "and the others back on top",
        }.get(p.get("rest"), f" and put {rest} back on top in the same order")

    def _forge_draft(self, p):
        return (f"reveal {p['reveal']} {self.w.adj('market')} cards of {self._age(p['age'])}"
                ", gain one of them and put the others on the bottom")

    def _age(self, age: str) -> str:
        return f"the current {self.w.sg('age')}" if age == "current" else \
            f"{self.w.sg('age')} {age}"

    def _gain_card(self, p):
        deck = self.w.adj("market") if p["source"] == "market" else self.w.sg("power_deck")
        n = p.get("count", 1)
        how = "random" if p.get("pick") == "random" else "chosen"
        text = (f"gain {n} {how} {deck} card{'' if n == 1 else 's'} of {self._age(p['age'])}"
                f" into your {self.w.sg('hand') if p['to'] == 'hand' else self.w.sg('draw_pile')}")
        o = p.get("overrides") or {}
        changes = []
        if o.get("burn"):
            changes.append(f"they gain {self.w.sg('burn')}")
        costs = [self.w.n(o[k], k) for k in ("mana", "gold") if o.get(k) is not None]
        if costs:
            changes.append("they cost " + " and ".join(costs))
        if o.get("initiative") is not None:
            changes.append(f"they have {self.w.sg('initiative')} {o['initiative']}")
        return text + ("; " + ", ".join(changes) if changes else "")

    def _take_card(self, p):
        dest = self.w.sg("hand") if p.get("to") == "hand" else self.w.sg("draw_pile")
        who = self.w.player(p.get("from"))
        if p["card"] == "killed_champion":
            pile = f"its owner's {self.w.sg('burn_pile')}" if p.get("from") == "victim" else \
                f"the {self.w.sg('burn_pile')} of {who}"
            return f"take the killed {self.w.sg('champion')}'s card from {pile} into your {dest}"
        return f"take the faction {self.w.sg('spell')} of {who} into your {dest}"

    def _card_counter(self, p):
        return (f"add {p['add']} to this card's counter"
                + (f" (at most {p['max']})" if p.get("max") is not None else ""))

    # ---- board ----------------------------------------------------------------------------
    def _may(self, p) -> str:
        return "you may " if p.get("optional") else ""

    def _deploy(self, p):
        head, tail = self.w.qty(p["count"], self.w.sg("force"), self.w.pl("force"))
        return f"{self._may(p)}deploy {head} into {self.w.hex_(p['where'])}{tail}"

    def _deploy_champion(self, p):
        return f"deploy this {self.w.sg('champion')} into {self.w.hex_(p['where'])}"

    def _summon_champion(self, p):
        pool = p.get("pool") or {}
        noun = self.w.sg("champion") + (f" that costs {self.w.n(pool['mana'], 'mana')}"
                                        if pool.get("mana") is not None else "")
        pick = a(f"random {noun}") if p.get("pick") == "random" else f"{a(noun)} you choose"
        return f"deploy {pick} into {self.w.hex_(p['where'])} without paying its costs"

    def _move(self, p):
        tid = {"force": "force", "champion": "champion"}.get(p.get("unit"), "stack")
        n = p.get("stacks", 1)
        what = f"1 of your {self.w.pl(tid)}" if n == 1 else \
            f"up to {n} of your {self.w.pl(tid)}"
        how = f"ignoring {self.w.pl('bridge')}" if p.get("ignore_bridges") else \
            f"along {self.w.pl('bridge')}"
        text = f"{self._may(p)}move {what} up to {self.w.n(p['distance'], 'hex')}" + \
            (" each" if n > 1 else "") + f" {how}"
        if p.get("stop_on_occupied"):
            text += f"; it stops when it enters an occupied {self.w.sg('hex')}"
        return text

    def _relocate(self, p):
        return (f"{self._may(p)}move {self.w.champion(p['champion'])} straight to "
                f"{self.w.hex_(p['to'])}")

    def _build_bridge(self, p):
        return (f"{self._may(p)}build {self.w.n(p['count'], 'bridge')} "
                f"{self.w.bridge_where(p['where'])}"
                + (f"; remove it at {self.w.sg('cleanup')}" if p.get("temporary") else ""))

    def _destroy_bridge(self, p):
        where = p["where"]
        if "ref" in where:
            return f"{self._may(p)}destroy {self.w.bridge(where)}"
        return (f"{self._may(p)}destroy {self.w.n(p['count'], 'bridge')} "
                f"{self.w.bridge_where(where)}")

    def _heal(self, p):
        head, tail = self.w.qty(p["amount"], self.w.sg("hp"), self.w.pl("hp"))
        return f"{self._may(p)}heal {self.w.champion(p['champion'])} {head}{tail}"

    def _damage(self, p):
        head, tail = self.w.qty(p["amount"], "damage", "damage")
        return f"{self._may(p)}deal {head} to {self.w.champion(p['champion'])}{tail}"

    def _destroy_forces(self, p):
        side = p.get("side", "enemy")
        one, many = self.w.sg("force"), self.w.pl("force")
        if side in ("enemy", "friendly"):
            adj = "enemy " if side == "enemy" else "friendly "
            one, many = adj + one, adj + many
        head, tail = self.w.qty(p["count"], one, many)
        up_to = "up to " if p.get("up_to") and p["count"] != "all" else ""
        if side == "mover":
            return f"{self._may(p)}destroy {up_to}{head} of the crossing {self.w.sg('stack')}"
        return f"{self._may(p)}destroy {up_to}{head} in {self.w.hex_(p['hex'])}{tail}"

    def _remove_champion(self, p):
        to = f"into its owner's {self.w.sg('hand')}" if p.get("to") == "hand" else \
            f"onto its owner's {self.w.sg('burn_pile')}"
        return f"{self._may(p)}take {self.w.champion(p['champion'])} off the board {to}"

    def _multiply_hp(self, p):
        hp = self.w.sg("hp")
        return (f"{self._may(p)}multiply the {hp} of {self.w.champion(p['champion'])} by "
                f"{p['factor']} (its maximum {hp} rises to match if needed)")

    def _mine_value(self, p):
        return (f"{self._may(p)}raise the {self.w.sg('mine_value')} of "
                f"{self.w.hex_(p['hex'])} by {p['amount']} (at most {p['max']})")

    def _scatter(self, p):
        chance = round(float(p.get("center_chance", 0.5)) * 100)
        return (f"aim at {self.w.hex_(p['hex'])}: the shot lands there {chance}% of the "
                f"time, otherwise on a random adjacent {self.w.sg('hex')}")

    # ---- flow -----------------------------------------------------------------------------
    def _choose_target(self, p):
        if p.get("hex") is not None:
            return f"choose {self.w.hex_(p['hex'])}"
        if p.get("champion") is not None:
            return f"choose {self.w.champion(p['champion'])}"
        if p.get("bridge") is not None:
            return f"choose {self.w.bridge(p['bridge'])}"
        return f"choose {self.w.player(p.get('player'))}"

    def _choose_one(self, p):
        return "choose one: " + "; or ".join(self.steps(o["steps"]) for o in p["options"])

    def _if(self, p):
        text = f"if {self.w.condition(p['condition'])}, {self.steps(p['then'])}"
        if p.get("else"):
            text += f"; otherwise {self.steps(p['else'])}"
        return text

    def _roll(self, p):
        def faces(f):
            return str(f[0]) if f[0] == f[1] else f"{f[0]}-{f[1]}"
        return f"roll {a(self.w.sg('die'))}: " + "; ".join(
            f"on {faces(o['faces'])}, {self.steps(o['steps'])}" for o in p["outcomes"])

    def _repeat(self, p):
        t = p["times"]
        if isinstance(t, dict):
            head, tail = self.w.qty(t, "time", "times")
            return f"{head.replace('1 time', 'once')}{tail}: {self.steps(p['steps'])}"
        return f"{'once' if t == 1 else f'{t} times'}: {self.steps(p['steps'])}"

    def _add_modifier(self, p):
        return (f"{self.w.duration(p['duration'], p.get('target'))}, "
                f"{self.w.modifier(p['modifier'], p.get('target'))}")

    def _add_trigger(self, p):
        when = self.w.event(p["trigger"], p.get("limit"), p.get("target"), p.get("condition"))
        return f"{self.w.duration(p['duration'])}, {when}: {self.steps(p['steps'])}"


def describe(steps: list, terms: dict | None = None) -> str:
    """A list of steps as one English sentence (without its final full stop)."""
    reader = Reader(terms)
    reader.w.name_refs(steps)
    return reader.steps(steps)


def reading(card: dict, terms: dict | None = None) -> str:
    """The whole card as the engine reads it: requirement, effect, triggers, abilities."""
    reader = Reader(terms)
    w = reader.w
    w.on_champion = card.get("type") == "champion"   # "you (or this Champion) win ..."
    out = []
    if card.get("requires"):
        out.append(_sentence(f"play only while {w.condition(card['requires'])}"))
    if card.get("effect"):
        w.name_refs(card["effect"])
        out.append(_sentence(reader.steps(card["effect"])))
    for ability in (card.get("triggers") or []) + \
            ((card.get("champion") or {}).get("abilities") or []):
        out.append(ability_reading(ability, terms, passive=not w.on_champion))
    if card.get("burn"):
        out.append(f"Then it goes to the {w.sg('burn_pile')}.")
    return " ".join(out) or "No effect."


def ability_reading(ability: dict, terms: dict | None = None, passive: bool = False) -> str:
    """A Champion ability (or, with `passive`, a faction passive or the trigger of a card
    that is not a Champion) as the engine reads it."""
    reader = Reader(terms)
    w = reader.w
    w.on_champion = not passive
    w.name_refs(ability.get("steps"))
    name = ability.get("name") or w.sg("champion")
    limit = ability.get("limit")
    if ability.get("modifier"):
        lead = {"once_per_round": f"once per {w.sg('round')}, ",
                "once_per_battle": f"once per {w.sg('battle')}, ", "once": "once, "
                }.get(limit or "", "")
        body = lead + w.modifier(ability["modifier"])
    elif ability.get("trigger"):
        body = (w.event(ability["trigger"], limit, None, ability.get("condition"))
                + f": {reader.steps(ability.get('steps'))}")
    else:
        body = reader.steps(ability.get("steps"))
    return f"{name}: " + _sentence(body)


def every_reading(content, cards: list[dict] | None = None) -> list[tuple[str, str]]:
    """(where, reading) of every card and faction passive of the content."""
    from ..content.cards import normalized_cards

    out = []
    for card in normalized_cards(content) if cards is None else cards:
        src = card.get("source") or {}
        out.append((f"{src.get('file', '?')}:{src.get('line', '?')}: {card['id']}",
                    reading(card, content.terms)))
    for fid, faction in content.factions.items():
        for passive in faction.get("passives") or []:
            out.append((f"factions.yaml: {fid}: {passive.get('name')}",
                        ability_reading(passive, content.terms, passive=True)))
    return out
