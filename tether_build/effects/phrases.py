"""Conditions, modifiers, trigger events and durations in the glossary's words: the part of
the engine's reading (effects/describe.py) that says when and how long. A mixin of
effects/words.Words, whose glossary lookups (sg, pl, n, qty) and selectors it uses.
"""

from __future__ import annotations

from . import spec


def a(noun: str) -> str:
    """The noun with "a" or "an" before it (by its first letter's sound)."""
    low = noun.lower()
    vowel = low[:1] in "aeio" or (low[:1] == "u" and not low.startswith(("uni", "use", "usu")))
    return ("an " if vowel else "a ") + noun


class Phrases:
    """When and how long: conditions, modifiers, events, durations (see Words)."""

    # ---- conditions -----------------------------------------------------------------------
    def range_(self, r: dict, tid: str | None = None, noun: tuple = ("", "")) -> str:
        lo, hi = r.get("min"), r.get("max")
        if lo is not None and lo == hi:
            words, last = f"exactly {lo}", lo
        elif lo is not None and hi is not None:
            words, last = f"between {lo} and {hi}", hi
        elif lo is not None:
            words, last = f"at least {lo}", lo
        else:
            words, last = f"at most {hi}", hi
        if tid:
            return f"{words} {self.sg(tid) if last == 1 else self.pl(tid)}"
        return f"{words} {noun[0] if last == 1 else noun[1]}".rstrip()

    def condition(self, c: dict | None) -> str:
        """A condition as a clause (every key must hold): 'you occupy a Mine'."""
        parts = [self._clause(k, v) for k, v in (c or {}).items()]
        return " and ".join(parts) or "always"

    def _clause(self, key: str, value) -> str:
        sg, pl = self.sg, self.pl
        flags = {
            "won_battle_this_round": (f"you won {a(sg('battle'))} this {sg('round')}",
                                      f"you have not won {a(sg('battle'))} this {sg('round')}"),
            "capital_has_enemy": (f"enemy {pl('unit')} are in your {sg('capital')}",
                                  f"no enemy {sg('unit')} is in your {sg('capital')}"),
            "defending": (f"you are the {sg('defender')}", f"you are not the {sg('defender')}"),
            "attacking": (f"you are the {sg('attacker')}", f"you are not the {sg('attacker')}"),
            "siege": (f"the {sg('battle')} is {a(sg('siege'))}",
                      f"the {sg('battle')} is not {a(sg('siege'))}"),
            "enemy_champion_present": (f"an enemy {sg('champion')} is in the {sg('battle')}",
                                       f"no enemy {sg('champion')} is in the {sg('battle')}"),
            "friendly_forces_present": (f"your {pl('force')} are in the {sg('battle')}",
                                        (f"none of your {pl('force')} is in the "
                                        f"{sg('battle')}")),
            "moving_alone": ("it moves alone", "it does not move alone"),
            "first_move_this_round": (f"it is your first move this {sg('round')}",
                                      f"it is not your first move this {sg('round')}"),
            "on_board": (f"this {sg('champion')} is on the board",
                         f"this {sg('champion')} is not on the board"),
        }
        if key in flags:
            return flags[key][0 if value else 1]
        if key == "occupies":
            return f"you occupy {self.hex_(value)}"
        if key in ("all", "any"):
            return f" {'and' if key == 'all' else 'or'} ".join(self.condition(v) for v in value)
        if key == "not":
            if len(value) == 1 and next(iter(value)) in flags:
                k, v = next(iter(value.items()))
                return flags[k][1 if v else 0]
            return f"it is not so that {self.condition(value)}"
        if key == "target_in":
            return f"{self.ref(value['target'])} is in {self.hex_(value['hex'])}"
        if key == "adjacent_occupied":
            return (f"you occupy at least {self.n(value['min'], 'hex')} adjacent to "
                    f"{self.ref(value['target'])}")
        if key == "battle_in":
            if value.get("this"):
                return f"this {sg('champion')} is in the {sg('battle')}"
            return f"the {sg('battle')} is in {self.hex_(value)}"
        if key == "hand_size":
            if value.get("max") == 0:
                return f"your {sg('hand')} is empty"
            return f"you have {self.range_(value, noun=('card', 'cards'))} in your {sg('hand')}"
        if key == "draw_pile_size":
            if value.get("max") == 0:
                return f"your {sg('draw_pile')} is empty"
            return f"your {sg('draw_pile')} holds {self.range_(value, noun=('card', 'cards'))}"
        if key == "champions_in_play":
            return f"you have {self.range_(value, 'champion')} on the board"
        if key == "mana":
            return f"you have {self.range_(value, 'mana')}"
        if key == "last_count":
            if value.get("min") == 1 and value.get("max") is None:
                return "you did"
            return f"the step before counted {self.range_(value)}"
        if key == "combat_round":
            if value.get("min") is not None and value.get("min") == value.get("max"):
                return f"it is {sg('combat_round')} {value['min']}"
            return f"the {sg('combat_round')} is {self.range_(value)}"
        if key == "last_drawn_type":
            return f"the card drawn is {a(sg(value))}"
        if key == "victim_side":
            return (f"the {sg('champion')} that died is yours" if value == "friendly" else
                    f"the {sg('champion')} that died is an enemy's")
        return f"{key.replace('_', ' ')} holds"   # spec-validated content never gets here

    # ---- modifiers ------------------------------------------------------------------------
    def units(self, u: str | None, target: str | None = None) -> tuple[str, bool]:
        """(the units a modifier applies to, whether the phrase is singular)."""
        return {"forces": (f"your {self.pl('force')}", False),
                "champions": (f"your {self.pl('champion')}", False),
                "this": (f"this {self.sg('champion')}", True),
                "target": (self.ref(target) if target else f"that {self.sg('champion')}", True),
                "all": (f"all your {self.pl('unit')}", False),
                "enemy_forces": (f"enemy {self.pl('force')}", False),
                "enemy_champions": (f"enemy {self.pl('champion')}", False),
                }.get(u or "all", (f"your {self.pl('unit')}", False))

    def modifier(self, m: dict, target: str | None = None) -> str:
        """A modifier in words, with its 'when' condition."""
        kind = m.get("modifier")
        p = with_defaults(spec.MODIFIERS, kind, m)
        who, one = self.units(p.get("units"), target)
        s = "s" if one else ""
        sg, pl = self.sg, self.pl
        table = {
            "hit_on": lambda: f"{who} hit{s} on " + (
                "1 only" if p["value"] == 1 else f"1-{p['value']}"),
            "extra_dice": lambda: _join(f"{who} roll{s} ", self.qty(p["amount"], "extra "
                                        + sg("die"), "extra " + pl("die"))),
            "set_dice": lambda: f"{who} roll{s} only {self.n(p['value'], 'die')}",
            "assign_hits": lambda: (f"you assign {p['count']} of your hits yourself" if
                                    p.get("count") else "you assign all your hits yourself")
                                   + " instead of at random",
            "redirect_hit": lambda: (
                f"the first hit that would be assigned to a friendly {sg('champion')} is "
                f"assigned to a friendly {sg('force')} instead (if there is one)"
                if p["count"] == 1 else
                f"the first {p['count']} hits that would be assigned to friendly "
                f"{pl('champion')} are assigned to friendly {pl('force')} instead"),
            "ignore_bridges": lambda: f"{who} may move to adjacent {pl('hex')} without "
                                      f"{pl('bridge')}",
            "extra_move": lambda: f"a move may go {self.n(p['amount'], 'hex')} further"
                                  + _limit_tail(self, p.get("limit")),
            "deploy_anchor": lambda: f"you may deploy into {self.hex_(p['hex'])} as if it "
                                     f"were your {sg('capital')}",
            "untargetable": lambda: self._untargetable(p, who),
            "prevent_damage_for_gold": lambda: (
                f"each time {who} would take a point of damage, you lose "
                f"{self.n(p['gold'], 'gold')} and that damage is prevented"),
            "block_bridge": lambda: f"{self.bridge(p['bridge'])} cannot be crossed",
            "link_hexes": lambda: f"{self.hex_(p['a'])} and {self.hex_(p['b'])} count as "
                                  f"adjacent and joined by {a(sg('bridge'))}",
            "mine_bonus": lambda: self._mine_bonus(p),
            "control_vp": lambda: (
                f"each {self._kind(p['kind'])} you occupy at {sg('scoring')} gives you "
                f"{self.n(p['amount'], 'control_vp')}"),
            "vp_while": lambda: f"it is worth {self.n(p['amount'], 'control_vp')}",
            "deploy_bonus": lambda: f"each time you deploy {pl('force')} into "
                                    f"{self.hex_(p['where'])}, deploy "
                                    f"{self.n(p['amount'], 'force').replace(' ', ' extra ', 1)}",
            "pick_extra": lambda: f"when you pick from a number of cards, reveal {p['amount']} "
                                  f"more card{'s' if p['amount'] != 1 else ''} to pick from",
            "cost_override": lambda: self._cost(p),
            "mines_connected": lambda: f"all {pl('mine')} you occupy count as adjacent to "
                                       f"each other and joined by {pl('bridge')}",
            "retreat_from_battle": lambda: (
                f"if {a(sg('battle'))} would start in {self.hex_(p['hex'])}, your "
                f"{pl('unit')} there retreat to a random unoccupied adjacent {sg('hex')} "
                "(they are destroyed if there is none)"),
        }
        text = table[kind]() if kind in table else "a rule changes"
        if m.get("when"):
            conj = "while" if kind == "vp_while" else "when"
            text += f" {conj} {self.condition(m['when'])}"
        return text

    def _mine_bonus(self, p: dict) -> str:
        where = p.get("where") or {}
        if where.get("this"):
            which = f"the {self.sg('mine')} this {self.sg('champion')} stands on"
        elif where:
            which = f"each {self.sg('mine')} you collect from in {self.hex_(where)}"
        else:
            which = f"each {self.sg('mine')} you collect from"
        return f"{which} gives {self.n(p['amount'], 'gold')} more at {self.sg('collection')}"

    def _kind(self, kind: str) -> str:
        return f"enemy {self.sg('capital')}" if kind == "enemy_capital" else self.sg(kind)

    def _untargetable(self, p: dict, who: str) -> str:
        types = [self.sg(t) for t in (p.get("by") or spec.CARD_TYPES)]
        listed = ", ".join(types[:-1]) + " and " + types[-1] if len(types) > 1 else types[0]
        return f"enemy {listed} cards cannot target or affect {who}"

    def _cost(self, p: dict) -> str:
        uses = p.get("uses", 1)
        what = self.card_filter(p["applies_to"], uses)
        head = f"the next {what} you play" if uses == 1 else f"the next {uses} {what} you play"
        costs = [self.n(p[k], k) for k in ("gold", "mana") if p.get(k) is not None]
        return f"{head} cost{'s' if uses == 1 else ''} " + " and ".join(costs)

    # ---- triggers -------------------------------------------------------------------------
    def event(self, event: str, limit: str | None = None, target: str | None = None,
              condition: dict | None = None) -> str:
        """'when ...', 'the first time ...', 'once per Round, as an action' (lower case)."""
        sg, pl = self.sg, self.pl
        from ..engine.options import Options
        events = {
            "on_deploy": ("when", f"this {sg('champion')} is deployed"),
            "on_death": ("when", f"this {sg('champion')} dies"),
            "kill_champion": ("when", f"you{self._holder()} kill an enemy {sg('champion')}"),
            "champion_dies": ("when", f"{self.ref(target)} dies" if target else
                              f"{a(sg('champion'))} dies"),
            "battle_start": ("before", f"{sg('combat_round')} 1 of {a(sg('battle'))}"),
            "battle_won": ("when", f"you{self._holder()} win {a(sg('battle'))}"),
            "battle_end": ("after", f"each {sg('battle')} you fought"),
            "battle_entered": ("when", f"a move ends in {a(sg('battle'))}"),
            "others_battle": ("when", f"two other players fight {a(sg('battle'))}"),
            "enemy_enters_capital": ("when", (f"an enemy {sg('stack')} enters your "
                                             f"{sg('capital')}")),
            "enemy_crosses_bridge": ("when", f"an enemy {sg('stack')} crosses "
                                             + (self.ref(target) if target else
                                                f"that {sg('bridge')}")),
            "round_start": ("after", (f"you draw your {sg('hand')} in the "
                                     f"{sg('reset_phase')}")),
            "round_end": ("at", sg("cleanup")),
            "card_drawn": ("when", "this card is drawn"),
            "card_discarded": ("when", "this card is discarded"),
            "activated": ("as", (f"an action (paying {self.n(Options().activation_mana, 'mana')}"
                                f", resolved with the {pl('basic_action')})")),
        }
        conj, clause = events.get(event, ("when", "it happens"))
        if condition:
            clause += (" and " if conj == "when" else ", if ") + self.condition(condition)
        if limit == "once" and conj == "when":
            return f"the first time {clause}"
        lead = {"once": "once, ", "once_per_round": f"once per {sg('round')}, ",
                "once_per_battle": f"once per {sg('battle')}, "}.get(limit or "", "")
        return f"{lead}{conj} {clause}"

    def _holder(self) -> str:
        return f" (or this {self.sg('champion')})" if self.on_champion else ""

    def duration(self, d: str, target: str | None = None) -> str:
        sg = self.sg
        if d == "next_battle" and target:
            return f"in {self.ref(target)}'s next {sg('battle')} this {sg('round')}"
        return {"this_battle": f"in this {sg('battle')}",
                "next_battle": f"in your next {sg('battle')} this {sg('round')}",
                "first_battle": f"in the first {sg('battle')} you fight this {sg('round')}",
                "end_of_round": f"until the end of the {sg('round')}",
                "permanent": "from now on"}.get(d, "for a while")


def _limit_tail(words: Phrases, limit: str | None) -> str:
    return {"once_per_round": f", once per {words.sg('round')}",
            "once_per_battle": f", once per {words.sg('battle')}", "once": ", once"
            }.get(limit or "", "")


def _join(before: str, qty: tuple[str, str]) -> str:
    return before + qty[0] + qty[1]


def with_defaults(table: dict, kind: str, params: dict) -> dict:
    """params with the spec's defaults filled in, as the compiler does."""
    out = {}
    for name, t in table.get(kind, ("", {}))[1].items():
        typ, _req, default = spec.parse_type(t)
        if default is not None:
            out[name] = spec.default_value(typ, default)
    return {**out, **params}
