"""The engine's reading of a card: English generated from its effect, not from its text.

Shown beside the printed text (`tether explain`, `tether cards`, the designer notes), so a card
whose effect quietly differs from its words is seen. Every step kind, selector, condition,
modifier and trigger event of effects/spec.py has a phrase here (a test checks the tables).
Defaults the card leaves out are read from the spec, as the compiler fills them in.
"""

from __future__ import annotations

from . import spec


def _defaults(table: dict, kind: str, params: dict) -> dict:
    out = {}
    for name, t in table[kind][1].items():
        typ, _req, default = spec.parse_type(t)
        if default is not None:
            out[name] = spec.default_value(typ, default)
    return {**out, **params}


def amount(a) -> str:
    """2 -> '2'; 'all' -> 'all'; {of: cards_in_hand} -> 'one per card in your hand'."""
    if isinstance(a, dict):
        of = {"cards_in_hand": "card in your hand",
              "cards_played_this_round": "card you played this round",
              "last_count": "card counted by the previous step",
              "card_counter": "time this card's counter was raised",
              "champions_in_play": "Champion you have in play"}.get(a.get("of"), a.get("of"))
        text = f"{a.get('times', 1)} per {of}"
        if a.get("plus"):
            text += f" plus {a['plus']}"
        if a.get("max") is not None:
            text += f" (at most {a['max']})"
        return text
    return str(a)


def _within(w: dict) -> str:
    of = {"your_capital": "your Capital", "your_champion": "one of your Champions",
          "your_units": "your units", "your_forces": "your Cohorts", "this": "this Champion",
          "ref": f"the chosen {w.get('ref', 'target')}"}.get(w.get("of"), w.get("of"))
    d, lo = w.get("distance"), w.get("min_distance") or 0
    if lo == 1 and d == 1:
        return f"adjacent to {of}"
    if lo:
        return f"between {lo} and {d} hexes from {of}"
    return f"within {d} of {of}"


OCCUPIED = {"you": "you occupy", "enemy": "an enemy occupies", "nobody": "nobody occupies",
            "anyone": "someone occupies", "not_you": "you do not occupy"}


def hex_(sel: dict) -> str:
    """A hex selector in words."""
    if not sel:
        return "a hex"
    if "ref" in sel:
        return f"the chosen {sel['ref']}"
    if sel.get("any_of"):
        return " or ".join(hex_(s) for s in sel["any_of"])
    if sel.get("own_capital"):
        return "your Capital"
    if sel.get("this"):
        return "this Champion's hex"
    if sel.get("event_hex"):
        return "the hex where it happened"
    kinds = sel.get("kind")
    noun = " or ".join(k.capitalize() if k != "center" else "Axis Mundi" for k in kinds) \
        if kinds else "hex"
    if sel.get("enemy_capital"):
        noun = "enemy Capital"
    pick = sel.get("pick", "choose")
    det = {"all": "every", "random": "a random"}.get(pick, "a")
    words = [f"{det} {noun}"]
    if sel.get("occupied_by"):
        words.append(f"{OCCUPIED[sel['occupied_by']]}")
    if sel.get("contains"):
        words.append("holding " + sel["contains"].replace("_", " "))
    if sel.get("not_capital"):
        words.append("(not a Capital)")
    if sel.get("within"):
        words.append(_within(sel["within"]))
    if sel.get("adjacent_to_capital"):
        words.append("next to a Capital")
    if sel.get("anywhere"):
        words.append("anywhere")
    return " ".join(words)


def champion(sel: dict) -> str:
    """A Champion selector in words."""
    if "ref" in sel:
        return f"the chosen {sel['ref']}"
    if sel.get("this"):
        return "this Champion"
    side = {"friendly": "friendly ", "enemy": "enemy ", "any": ""}.get(sel.get("side"), "")
    det = {"all": "every", "random": "a random"}.get(sel.get("pick", "choose"), "a")
    det = "an" if det == "a" and side.startswith("enemy") else det
    text = f"{det} {side}Champion"
    if sel.get("in"):
        text += f" in {hex_(sel['in'])}"
    if sel.get("within"):
        text += " " + _within(sel["within"])
    if sel.get("exclude_this"):
        text += " other than this one"
    return text


def bridge(sel: dict) -> str:
    """A Bridge selector in words."""
    if "ref" in sel:
        return f"the chosen {sel['ref']}"
    if sel.get("anywhere"):
        return "anywhere"
    if sel.get("touching"):
        return f"touching {hex_(sel['touching'])}"
    return "between two adjacent hexes"


PLAYER = {"self": "you", "chosen_opponent": "an opponent you choose",
          "each_opponent": "each opponent", "owner": "its owner", "killer": "the killer",
          "battle_enemy": "your enemy in the battle", "victim": "the victim"}


def condition(c: dict) -> str:
    """A condition in words (every key must hold)."""
    parts = []
    for key, value in (c or {}).items():
        if key == "occupies":
            parts.append(f"you occupy {hex_(value)}")
        elif key in ("all", "any"):
            parts.append(f" {'and' if key == 'all' else 'or'} ".join(condition(v) for v in value))
        elif key == "not":
            parts.append(f"not ({condition(value)})")
        elif isinstance(value, dict) and set(value) <= {"min", "max"}:
            bounds = [f"at least {value['min']}" if "min" in value else "",
                      f"at most {value['max']}" if "max" in value else ""]
            parts.append(f"{key.replace('_', ' ')} is " + " and ".join(b for b in bounds if b))
        elif value is True:
            parts.append(key.replace("_", " "))
        elif value is False:
            parts.append("not " + key.replace("_", " "))
        else:
            parts.append(f"{key.replace('_', ' ')}: {value}")
    return " and ".join(parts) or "always"


def modifier(m: dict) -> str:
    """A modifier in words."""
    kind = m.get("modifier")
    doc = spec.MODIFIERS.get(kind, ("?", {}))[0].rstrip(".")
    extra = [f"{k} {amount(v) if k == 'amount' else v}" for k, v in m.items()
             if k not in ("modifier", "when") and not isinstance(v, (dict, list))]
    text = f"{doc} ({', '.join(extra)})" if extra else doc
    if m.get("when"):
        text += f" when {condition(m['when'])}"
    return text


def _n(p: dict, key: str, noun: str) -> str:
    a = p.get(key, 1)
    word = amount(a)
    plural = noun + ("" if a == 1 else "s")
    return f"{'up to ' if p.get('up_to') else ''}{word} {plural}"


def _step(kind: str, p: dict) -> str:
    p = _defaults(spec.STEPS, kind, p) if kind in spec.STEPS else p
    who = PLAYER.get(p.get("player", "self"), p.get("player"))
    may = "you may " if p.get("optional") else ""
    table = {
        "noop": lambda: "nothing happens",
        "gain_gold": lambda: f"{who} gain{'s' if who != 'you' else ''} {amount(p['amount'])}"
                             " gold",
        "lose_gold": lambda: f"{who} lose{'s' if who != 'you' else ''} up to "
                             f"{amount(p['amount'])} gold",
        "steal_gold": lambda: f"take up to {amount(p['amount'])} gold from "
                              f"{PLAYER.get(p['from'], p['from'])}",
        "gain_mana": lambda: f"gain {amount(p['amount'])} mana",
        "set_mana": lambda: f"{who}r mana becomes {amount(p['amount'])}"
                            if who == "you" else f"{who}'s mana becomes {amount(p['amount'])}",
        "gain_vp": lambda: f"gain {amount(p['amount'])} Permanence",
        "draw": lambda: ("each other player draws " if p["player"] == "others" else "draw ")
                        + _n(p, "count", "card"),
        "discard": lambda: f"discard {_n(p, 'count', 'card')}",
        "scrap": lambda: f"remove {_n(p, 'count', 'card')} of your hand from the game",
        "put_on_top": lambda: f"put {_n(p, 'count', 'card')} from your hand on top of your "
                              "draw pile",
        "look": lambda: f"look at the top {p['count']} cards of your draw pile, take "
                        f"{p.get('take', 0)} into your hand, the rest go to the {p['rest']}"
                        .replace("the top", "the top").replace("to the discard",
                                                               "to your discard pile"),
        "deploy": lambda: f"{may}deploy {amount(p['count'])} Cohort"
                          f"{'' if p['count'] == 1 else 's'} into {hex_(p['where'])}",
        "deploy_champion": lambda: f"deploy this Champion into {hex_(p['where'])}",
        "summon_champion": lambda: f"deploy a {'random' if p['pick'] == 'random' else 'chosen'}"
                                   " Champion (free) into " + hex_(p["where"]),
        "move": lambda: _move(p, may),
        "relocate": lambda: f"{may}move {champion(p['champion'])} straight to "
                            f"{hex_(p['to'])}",
        "build_bridge": lambda: f"{may}build {_n(p, 'count', 'Bridge')} "
                                f"{bridge(p['where'])}"
                                + (", removed at Cleanup" if p.get("temporary") else ""),
        "destroy_bridge": lambda: f"{may}destroy {_n(p, 'count', 'Bridge')} "
                                  f"{bridge(p['where'])}",
        "heal": lambda: f"{may}heal {champion(p['champion'])} by {amount(p['amount'])}",
        "damage": lambda: f"{may}deal {amount(p['amount'])} damage to "
                          f"{champion(p['champion'])}",
        "destroy_forces": lambda: f"{may}destroy {'up to ' if p.get('up_to') else ''}"
                                  f"{amount(p['count'])} {p['side']} Cohorts in "
                                  f"{hex_(p['hex'])}".replace("any Cohorts", "Cohorts")
                                  .replace("mover Cohorts", "Cohorts of the crossing stack"),
        "remove_champion": lambda: f"{may}take {champion(p['champion'])} off the board to "
                                   + ("its owner's hand" if p["to"] == "hand" else
                                      "the Entropy pile"),
        "multiply_hp": lambda: f"multiply the HP of {champion(p['champion'])} by {p['factor']}",
        "mine_value": lambda: f"{may}raise the Mine value of {hex_(p['hex'])} by "
                              f"{p['amount']} (at most {p['max']})",
        "forge_draft": lambda: f"reveal {p['reveal']} Archive cards of Age {p['age']}, gain "
                               "one, the rest to the bottom",
        "gain_card": lambda: f"gain {p['count']} {p['pick']} {p['source']} card"
                             f"{'' if p['count'] == 1 else 's'} of Age {p['age']} into your "
                             f"{'hand' if p['to'] == 'hand' else 'draw pile'}",
        "choose_target": lambda: f"choose {_target(p)} (call it {p['as']})",
        "choose_one": lambda: "choose one: " + "; or ".join(
            f"{o['label']}: {describe(o['steps'])}" for o in p["options"]),
        "if": lambda: f"if {condition(p['condition'])}: {describe(p['then'])}"
                      + (f"; otherwise: {describe(p['else'])}" if p.get("else") else ""),
        "roll": lambda: "roll a die: " + "; ".join(
            f"{o['faces'][0]}-{o['faces'][1]}: {describe(o['steps'])}" for o in p["outcomes"]),
        "repeat": lambda: f"{amount(p['times'])} times: {describe(p['steps'])}",
        "add_modifier": lambda: f"{_duration(p['duration'])}, {modifier(p['modifier'])}",
        "add_trigger": lambda: f"{_duration(p['duration'])}, {_limit(p.get('limit'))}when "
                               f"{spec.EVENTS.get(p['trigger'], p['trigger'])}"
                               + (f" and {condition(p['condition'])}" if p.get("condition")
                                  else "") + f": {describe(p['steps'])}",
        "card_counter": lambda: f"add {p['add']} to this card's counter"
                                + (f" (at most {p['max']})" if p.get("max") is not None else ""),
        "scatter": lambda: f"aim at {hex_(p['hex'])}: it hits there with chance "
                           f"{p['center_chance']}, else a random neighbour ({p['as']})",
        "take_card": lambda: f"take {p['card'].replace('_', ' ')} from "
                             f"{PLAYER.get(p['from'], p['from'])} into your "
                             f"{p['to'].replace('_', ' ')}",
    }
    fn = table.get(kind)
    return fn() if fn else f"{kind} ({', '.join(f'{k}={v}' for k, v in p.items())})"


def _target(p: dict) -> str:
    for key, fn in (("hex", hex_), ("champion", champion), ("bridge", bridge)):
        if p.get(key) is not None:
            return fn(p[key])
    return PLAYER.get(p.get("player"), "a player")


def _duration(d: str) -> str:
    return {"this_battle": "in this battle", "next_battle": "in your next battle this round",
            "first_battle": "in the first battle you fight this round",
            "end_of_round": "until the end of the round", "permanent": "from now on"}.get(d, d)


def _limit(limit: str | None) -> str:
    return {"once_per_round": "once per round, ", "once_per_battle": "once per battle, ",
            "once": "once, "}.get(limit or "", "")


def _move(p: dict, may: str) -> str:
    unit = {"stack": "stack", "force": "Cohort", "champion": "Champion"}[p["unit"]]
    n = p.get("stacks", 1)
    what = f"one of your {unit}s" if n == 1 else f"up to {n} of your {unit}s"
    how = "ignoring Bridges" if p.get("ignore_bridges") else "along Bridges"
    text = f"{may}move {what} up to {p['distance']} hex{'es' if p['distance'] != 1 else ''}" \
           f" {how}" + (" each" if n > 1 else "")
    if p.get("stop_on_occupied"):
        text += "; it stops when it enters an occupied hex"
    return text


def describe(steps: list) -> str:
    """A list of steps as one English sentence."""
    parts = [_step(s["step"], {k: v for k, v in s.items() if k != "step"}) for s in steps or []]
    return "; then ".join(parts) if parts else "no effect"


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:] + ("" if text.endswith(".") else ".")


def reading(card: dict) -> str:
    """The whole card as the engine reads it: requirement, effect, triggers, abilities."""
    out = []
    if card.get("requires"):
        out.append(_sentence(f"playable only if {condition(card['requires'])}"))
    if card.get("effect"):
        out.append(_sentence(describe(card["effect"])))
    for ability in (card.get("triggers") or []) + \
            ((card.get("champion") or {}).get("abilities") or []):
        out.append(ability_reading(ability))
    if card.get("burn"):
        out.append("Then it goes to the Entropy pile.")
    return " ".join(out) or "No effect."


def ability_reading(ability: dict) -> str:
    """A Champion ability or faction passive as the engine reads it."""
    name = ability.get("name") or ability.get("keyword") or "ability"
    if ability.get("modifier"):
        body = modifier(ability["modifier"])
    elif ability.get("trigger"):
        body = (f"{_limit(ability.get('limit'))}when "
                f"{spec.EVENTS.get(ability['trigger'], ability['trigger'])}"
                + (f" and {condition(ability['condition'])}" if ability.get("condition")
                   else "") + f": {describe(ability.get('steps'))}")
    else:
        body = describe(ability.get("steps"))
    return f"{name}: " + _sentence(body)
