"""The glossary's words for the engine's reading (effects/describe.py), and its selectors,
conditions, modifiers and trigger events in English.

Every game word comes from the glossary (content/terms.yaml), so a renamed term reads in its
new name, in the singular after 1 and the plural otherwise ("1 Cohort", "2 Legionaries",
"2 Crowns" for a countable term, "2 Gold" for a mass noun). Targets chosen by a card
(`choose_target ... as: x`) read as "that Hex" / "that Champion", never by their id.
"""

from __future__ import annotations

import re

from . import spec

UNIQUE_TILES = {"center"}   # one on the board: "the Axis Mundi", not "an Axis Mundi"


def a(noun: str) -> str:
    """The noun with "a" or "an" before it (by its first letter's sound)."""
    low = noun.lower()
    vowel = low[:1] in "aeio" or (low[:1] == "u" and not low.startswith(("uni", "use", "usu")))
    return ("an " if vowel else "a ") + noun


class Words:
    """The glossary (term id -> {singular, plural, adjective, countable}) as phrases."""

    def __init__(self, terms: dict | None = None):
        self.terms = terms or {}
        self.refs: dict[str, str] = {}   # choose_target names -> "that Hex", ...
        self.on_champion = True          # False for a faction passive: no "this Champion"

    # ---- glossary -------------------------------------------------------------------------
    def sg(self, tid: str) -> str:
        term = self.terms.get(tid)
        return term["singular"] if term else tid.replace("_", " ").title()

    def pl(self, tid: str) -> str:
        term = self.terms.get(tid)
        return term["plural"] if term else self.sg(tid) + "s"

    def adj(self, tid: str) -> str:
        term = self.terms.get(tid) or {}
        return term.get("adjective") or self.sg(tid)

    def n(self, count, tid: str) -> str:
        """'1 Cohort', '2 Cohorts', 'all Cohorts' (count an int or 'all')."""
        if count == "all":
            return f"all {self.pl(tid)}"
        return f"{count} {self.sg(tid) if count == 1 else self.pl(tid)}"

    def qty(self, amount, one: str, many: str) -> tuple[str, str]:
        """An amount of a noun as (head, tail): the tail goes at the end of the clause.
        2 -> ('2 Cohorts', ''); {of: cards_in_hand} -> ('1 Cohort', ' for each card in your
        Hand'); {of: last_count} -> ('that many Cohorts', '')."""
        if not isinstance(amount, dict):
            if amount == "all":
                return f"all {many}", ""
            return f"{amount} {one if amount == 1 else many}", ""
        times, plus, cap = amount.get("times", 1), amount.get("plus", 0), amount.get("max")
        if amount.get("of") == "last_count" and times == 1 and not plus:
            head, tail = f"that many {many}", ""
        else:
            of = self.amount_of(amount.get("of"))
            head = f"{times} {one if times == 1 else many}"
            tail = f" for each {of}"
            if plus:
                head, tail = f"{plus} {one if plus == 1 else many}", f", plus {times}{tail}"
        if cap is not None:
            tail += f" (at most {cap} in all)"
        return head, tail

    def amount_of(self, of: str) -> str:
        return {"cards_in_hand": f"card in your {self.sg('hand')}",
                "cards_played_this_round": f"card you have played this {self.sg('round')}",
                "last_count": "card counted by the step before",
                "card_counter": "point on this card's counter",
                "champions_in_play": f"{self.sg('champion')} you have on the board",
                }.get(of, "time it happened")

    # ---- chosen targets -------------------------------------------------------------------
    def name_refs(self, steps) -> None:
        """Give every target an effect names (choose_target, scatter, move `as`) its words:
        "that Hex", or "the first chosen Hex" / "the second ..." when two of a kind."""
        found: list[tuple[str, str]] = []
        _collect_refs(steps, found)
        kinds = [k for _, k in found]
        ordinal = {}
        for name, kind in found:
            if kind == "=scatter":
                self.refs[name] = f"the {self.sg('hex')} it lands on"
                continue
            if kind.startswith("=move:"):
                self.refs[name] = f"the moved {self.sg(kind[6:])}"
                continue
            noun = "player" if kind == "player" else self.sg(kind.split(":")[-1])
            if kinds.count(kind) > 1:
                ordinal[kind] = ordinal.get(kind, 0) + 1
                nth = ["first", "second", "third", "fourth"][min(ordinal[kind], 4) - 1]
                self.refs[name] = f"the {nth} chosen {noun}"
            else:
                self.refs[name] = f"that {noun}"

    def ref(self, name: str) -> str:
        return self.refs.get(name) or "the chosen target"

    # ---- selectors ------------------------------------------------------------------------
    def hex_(self, sel: dict | None) -> str:
        """A hex selector in words: 'a Hex you occupy', 'every Mine you occupy'."""
        sel = sel or {}
        if not sel:
            return a(self.sg("hex"))
        if "ref" in sel:
            return self.ref(sel["ref"])
        if sel.get("any_of"):
            return " or ".join(self.hex_(s) for s in sel["any_of"])
        if sel.get("own_capital"):
            return f"your {self.sg('capital')}"
        if sel.get("this"):
            return f"this {self.sg('champion')}'s {self.sg('hex')}"
        if sel.get("event_hex"):
            return f"the {self.sg('hex')} where it happened"
        kinds = sel.get("kind") or []
        pick = sel.get("pick", "choose")
        if sel.get("enemy_capital"):
            noun = f"enemy {self.sg('capital')}"
        elif kinds:
            noun = " or ".join(self.sg(k) for k in kinds)
        else:
            noun = self.sg("hex")
        if pick == "all":
            words = [f"every {noun}"]
        elif pick == "random":
            words = [f"a random {noun}"]
        elif len(kinds) == 1 and kinds[0] in UNIQUE_TILES:
            words = [f"the {noun}"]
        else:
            words = [a(noun)]
        occupied = {"you": "you occupy", "enemy": "an enemy occupies",
                    "nobody": "nobody occupies", "anyone": "someone occupies",
                    "not_you": "you do not occupy"}
        if sel.get("occupied_by"):
            words.append(occupied[sel["occupied_by"]])
        if sel.get("contains"):
            words.append({"friendly_champion": f"that holds one of your {self.pl('champion')}",
                          "enemy_champion": f"that holds an enemy {self.sg('champion')}",
                          "champion": f"that holds {a(self.sg('champion'))}",
                          "friendly_forces": f"that holds your {self.pl('force')}",
                          }[sel["contains"]])
        if sel.get("not_capital"):
            words.append(f"(not {a(self.sg('capital'))})")
        if sel.get("within"):
            words.append(self.within(sel["within"]))
        if sel.get("adjacent_to_capital"):
            words.append(f"next to {a(self.sg('capital'))}")
        if sel.get("anywhere"):
            words.append("anywhere")
        return " ".join(words)

    def within(self, w: dict) -> str:
        of = {"your_capital": f"your {self.sg('capital')}",
              "your_champion": f"one of your {self.pl('champion')}",
              "your_units": f"your {self.pl('unit')}",
              "your_forces": f"your {self.pl('force')}",
              "this": f"this {self.sg('champion')}",
              "ref": self.ref(w.get("ref", ""))}.get(w.get("of"), f"your {self.pl('unit')}")
        return f"within {self.n(w.get('distance', 1), 'hex')} of {of}"

    def champion(self, sel: dict) -> str:
        """A Champion selector in words."""
        if "ref" in sel:
            return self.ref(sel["ref"])
        if sel.get("this"):
            return f"this {self.sg('champion')}"
        side = {"friendly": "friendly ", "enemy": "enemy "}.get(sel.get("side"), "")
        noun = side + self.sg("champion")
        pick = sel.get("pick", "choose")
        text = {"all": f"every {noun}", "random": f"a random {noun}"}.get(pick) or a(noun)
        if sel.get("in"):
            text += f" in {self.hex_(sel['in'])}"
        if sel.get("within"):
            text += " " + self.within(sel["within"])
        if sel.get("exclude_this"):
            text += " other than this one"
        return text

    def bridge_where(self, sel: dict) -> str:
        """Where a Bridge is: 'touching a Hex you occupy', 'anywhere'."""
        if "ref" in sel:
            return "there"
        if sel.get("anywhere"):
            return "anywhere"
        if sel.get("touching"):
            return f"touching {self.hex_(sel['touching'])}"
        return f"between two adjacent {self.pl('hex')}"

    def bridge(self, sel: dict) -> str:
        """A Bridge selector as a noun phrase: 'that Bridge', 'a Bridge touching ...'."""
        if "ref" in sel:
            return self.ref(sel["ref"])
        return f"{a(self.sg('bridge'))} {self.bridge_where(sel)}"

    def player(self, p: str | None) -> str:
        return {"self": "you", "chosen_opponent": "an opponent you choose",
                "each_opponent": "each opponent", "owner": "its owner",
                "killer": "the player who killed it",
                "battle_enemy": f"your enemy in the {self.sg('battle')}",
                "victim": f"the owner of the killed {self.sg('champion')}",
                "others": "each other player"}.get(p or "self", "a player")

    def card_filter(self, f: dict, count: int = 1) -> str:
        """'Champion card costing 2 Mana' (singular) or '... cards' for count != 1."""
        noun = self.sg(f["type"]) + " " if f.get("type") else ""
        text = noun + ("card" if count == 1 else "cards")
        if f.get("mana") is not None:
            text += f" costing {self.n(f['mana'], 'mana')}"
        if f.get("exclude_this"):
            text += " other than this one"
        return text

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
        p = _with_defaults(spec.MODIFIERS, kind, m)
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


def _limit_tail(words: Words, limit: str | None) -> str:
    return {"once_per_round": f", once per {words.sg('round')}",
            "once_per_battle": f", once per {words.sg('battle')}", "once": ", once"
            }.get(limit or "", "")


def _join(before: str, qty: tuple[str, str]) -> str:
    return before + qty[0] + qty[1]


def _with_defaults(table: dict, kind: str, params: dict) -> dict:
    """params with the spec's defaults filled in, as the compiler does."""
    out = {}
    for name, t in table.get(kind, ("", {}))[1].items():
        typ, _req, default = spec.parse_type(t)
        if default is not None:
            out[name] = spec.default_value(typ, default)
    return {**out, **params}


def _collect_refs(steps, found: list) -> None:
    """(name, kind) of every target an effect names, in order ('=...': not chosen)."""
    for s in steps or []:
        if not isinstance(s, dict):
            continue
        kind = s.get("step")
        if kind == "choose_target" and s.get("as"):
            k = next((k for k in ("hex", "champion", "bridge") if s.get(k) is not None),
                     "player")
            kinds = (s.get("hex") or {}).get("kind") or []
            if k == "hex" and len(kinds) == 1:
                k = "hex:" + kinds[0]   # "that Mine" rather than "that Hex"
            elif k == "hex" and (s.get("hex") or {}).get("enemy_capital"):
                k = "hex:capital"
            found.append((s["as"], k))
        elif kind == "scatter" and s.get("as"):
            found.append((s["as"], "=scatter"))
        elif kind == "move" and s.get("as"):
            found.append((s["as"], "=move:" + {"force": "force", "champion": "champion"}
                          .get(s.get("unit"), "stack")))
        for key in ("then", "else", "steps"):
            _collect_refs(s.get(key), found)
        for group in ("options", "outcomes"):
            for o in s.get(group) or []:
                _collect_refs(o.get("steps"), found)



NON_WORD = re.compile(r"[{}\[\]<>=]|'[a-z_]+'|\b[a-z]+_[a-z0-9_]+\b|\b(?:True|False|None|noop)\b"
                      r"|\b\d+\.\.")


def non_words(text: str, terms: dict, stale: tuple[str, ...] = ()) -> list[str]:
    """What in a reading is not English in the game's words: braces, brackets, quoted keys,
    snake_case ids, Python literals, and names the glossary no longer uses (its terms'
    design names, and `stale` names such as a renamed term's old ones)."""
    bad = [m.group(0) for m in NON_WORD.finditer(text)]
    current = {v for t in terms.values() for v in (t.get("singular"), t.get("plural"),
                                                   t.get("adjective")) if v}
    old = {n for t in terms.values() for n in t.get("design_names", [])} | set(stale)
    for name in sorted(old - current, key=len, reverse=True):
        bad += re.findall(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", text)
    return bad
