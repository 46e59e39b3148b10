"""What changed between two versions of the content: cards, glossary, constants, rules.

Cards are matched by id; a card whose id is new but whose effect, type and cost equal a
removed card's is reported as renamed. For each changed card the fields that changed are
listed (name, cost, initiative, stats, effect...) and its printed text as a word diff.
"""

from __future__ import annotations

import difflib
import json
from dataclasses import dataclass, field

# fields of a normalized card that a designer compares (text is shown as a word diff)
FIELDS = ("name", "type", "category", "deck", "faction", "mana", "gold", "initiative",
          "copies", "burn", "vp", "requires", "champion", "effect", "triggers", "text")
FACE_IGNORED = ("source", "notes", "reading")


@dataclass
class CardChange:
    """One card that differs: which fields, the old and new text, and a word diff."""

    id: str
    name: str
    fields: dict[str, tuple] = field(default_factory=dict)  # field -> (old, new)
    old_text: str = ""
    new_text: str = ""

    def word_diff(self) -> str:
        """The text with removed words as [-x-] and added words as {+y+}."""
        old, new = self.old_text.split(), self.new_text.split()
        out = []
        for op, a1, a2, b1, b2 in difflib.SequenceMatcher(a=old, b=new).get_opcodes():
            if op == "equal":
                out += old[a1:a2]
            if op in ("delete", "replace"):
                out.append("[-" + " ".join(old[a1:a2]) + "-]")
            if op in ("insert", "replace"):
                out.append("{+" + " ".join(new[b1:b2]) + "+}")
        return " ".join(out)


@dataclass
class Changes:
    """Everything that differs between two content versions."""

    old_rev: str
    new_rev: str
    added: list[dict] = field(default_factory=list)
    removed: list[dict] = field(default_factory=list)
    renamed: list[tuple[str, str]] = field(default_factory=list)  # (old id, new id)
    changed: list[CardChange] = field(default_factory=list)
    terms: list[tuple[str, str, str]] = field(default_factory=list)  # (id, old, new)
    constants: list[tuple[str, object, object]] = field(default_factory=list)
    rules: dict[str, list[str]] = field(default_factory=dict)  # added/removed/changed

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.renamed or self.changed or self.terms
                    or self.constants or any(self.rules.values()))

    def face_changed_ids(self) -> list[str]:
        """Cards whose printed face differs (changed or new): what a reprint needs."""
        return sorted({c.id for c in self.changed} | {c["id"] for c in self.added}
                      | {new for _old, new in self.renamed})

    def to_json(self) -> dict:
        return {"from": self.old_rev, "to": self.new_rev,
                "cards": {"added": [c["id"] for c in self.added],
                          "removed": [c["id"] for c in self.removed],
                          "renamed": [{"from": a, "to": b} for a, b in self.renamed],
                          "changed": [{"id": c.id, "name": c.name,
                                       "fields": {k: {"old": o, "new": n}
                                                  for k, (o, n) in c.fields.items()},
                                       "text": c.word_diff() if "text" in c.fields else None}
                                      for c in self.changed]},
                "glossary": [{"term": t, "old": o, "new": n} for t, o, n in self.terms],
                "constants": [{"path": p, "old": o, "new": n} for p, o, n in self.constants],
                "rules": self.rules}


def _flat(data, prefix: str = "") -> dict[str, object]:
    if isinstance(data, dict):
        out = {}
        for key, value in data.items():
            if key in ("notes", "departures") or str(key).endswith("_notes"):
                continue
            out.update(_flat(value, f"{prefix}.{key}" if prefix else str(key)))
        return out
    return {prefix: data}


def _same(a, b) -> bool:
    return json.dumps(a, sort_keys=True, default=str) == json.dumps(b, sort_keys=True,
                                                                    default=str)


def _card_change(old: dict, new: dict) -> CardChange | None:
    fields = {f: (old.get(f), new.get(f)) for f in FIELDS if not _same(old.get(f), new.get(f))}
    if not fields:
        return None
    return CardChange(new["id"], new["name"], fields, old.get("text", ""), new.get("text", ""))


def _signature(card: dict) -> str:
    return json.dumps([card["type"], card["mana"], card["gold"], card["effect"],
                       card["champion"], card["triggers"]], sort_keys=True, default=str)


def diff(old_rev: str, old, old_cards: list[dict], old_rules: dict[str, str],
         new_rev: str, new, new_cards: list[dict], new_rules: dict[str, str]) -> Changes:
    """Compare two validated contents (with their normalized cards and rules chapters)."""
    ch = Changes(old_rev, new_rev)
    before, after = {c["id"]: c for c in old_cards}, {c["id"]: c for c in new_cards}
    gone = [before[i] for i in before if i not in after]
    fresh = [after[i] for i in after if i not in before]
    for card in list(fresh):
        twin = next((g for g in gone if _signature(g) == _signature(card)), None)
        if twin is not None:
            ch.renamed.append((twin["id"], card["id"]))
            gone.remove(twin)
            fresh.remove(card)
            change = _card_change(twin, card)
            if change:
                ch.changed.append(change)
    ch.added, ch.removed = fresh, gone
    for cid, card in after.items():
        if cid in before:
            change = _card_change(before[cid], card)
            if change:
                ch.changed.append(change)
    for tid, term in new.terms.items():
        was = old.terms.get(tid)
        if was and (was["singular"], was["plural"]) != (term["singular"], term["plural"]):
            ch.terms.append((tid, was["singular"], term["singular"]))
    a, b = _flat(old.game), _flat(new.game)
    ch.constants = [(k, a.get(k), b.get(k)) for k in sorted(set(a) | set(b))
                    if not _same(a.get(k), b.get(k))]
    ch.rules = {"added": sorted(set(new_rules) - set(old_rules)),
                "removed": sorted(set(old_rules) - set(new_rules)),
                "changed": sorted(k for k in set(old_rules) & set(new_rules)
                                  if old_rules[k] != new_rules[k])}
    return ch


def summary(ch: Changes) -> list[str]:
    """The changes as text lines for the terminal."""
    out = [f"changes from {ch.old_rev} to {ch.new_rev}:"]
    if ch.empty:
        return out + ["  nothing changed"]
    out += [f"  added   {c['id']} ({c['name']})" for c in ch.added]
    out += [f"  removed {c['id']} ({c['name']})" for c in ch.removed]
    out += [f"  renamed {a} -> {b}" for a, b in ch.renamed]
    for c in ch.changed:
        names = ", ".join(k for k in c.fields if k != "text")
        out.append(f"  changed {c.id} ({c.name})" + (f": {names}" if names else ""))
        for key, (old, new) in c.fields.items():
            if key not in ("text", "effect", "champion", "triggers"):
                out.append(f"      {key}: {old} -> {new}")
        if "text" in c.fields:
            out.append(f"      text: {c.word_diff()}")
    out += [f"  glossary {t}: {o} -> {n}" for t, o, n in ch.terms]
    out += [f"  constant {p}: {o} -> {n}" for p, o, n in ch.constants]
    for kind, files in ch.rules.items():
        out += [f"  rules {kind}: {f}" for f in files]
    return out
