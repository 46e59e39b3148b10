"""The glossary's words for the engine's reading (effects/describe.py): names, amounts,
chosen targets and selectors (conditions, modifiers and events: effects/phrases.py).

Every game word comes from the glossary (content/terms.yaml), so a renamed term reads in its
new name, in the singular after 1 and the plural otherwise ("1 Cohort", "2 Legionaries",
"2 Crowns" for a countable term, "2 Gold" for a mass noun). Targets chosen by a card
(`choose_target ... as: x`) read as "that Hex" / "that Champion", never by their id.
"""

from __future__ import annotations

import re

from .phrases import Phrases, a

UNIQUE_TILES = {"center"}   # one on the board: "the Axis Mundi", not "an Axis Mundi"


class Words(Phrases):
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
        distance, nearest = w.get("distance", 1), w.get("min_distance") or 0
        if nearest == 1 and distance == 1:   # (Tempest: the hexes around, not its own)
            return f"adjacent to {of}"
        if nearest:
            return f"between {nearest} and {self.n(distance, 'hex')} from {of}"
        return f"within {self.n(distance, 'hex')} of {of}"

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
                      r"|\b\d+\.\.|\ba [AEIO][a-z]+|\ban [B-DF-HJ-NP-TV-Z][a-z]+")


def non_words(text: str, terms: dict, stale: tuple[str, ...] = ()) -> list[str]:
    """What in a reading is not English in the game's words: braces, brackets, quoted keys,
    snake_case ids, Python literals, 'a' before a vowel ('a Axis Mundi'), and names the glossary no longer uses (its terms'
    design names, and `stale` names such as a renamed term's old ones)."""
    bad = [m.group(0) for m in NON_WORD.finditer(text)]
    current = {v for t in terms.values() for v in (t.get("singular"), t.get("plural"),
                                                   t.get("adjective")) if v}
    old = {n for t in terms.values() for n in t.get("design_names", [])} | set(stale)
    for name in sorted(old - current, key=len, reverse=True):
        bad += re.findall(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", text)
    return bad
