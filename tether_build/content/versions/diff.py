"""What changed between two versions of the content: cards, glossary, constants, rules.

Cards are matched by id; a card whose id is new but whose effect, type and cost equal a
removed card's is reported as renamed. For each changed card the fields that changed are
listed (name, cost, initiative, stats, effect...) and its printed text as a word diff.
"""

from __future__ import annotations

import json
import re
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
    echo: bool = False  # the change is only a glossary rename showing on the card

    def word_diff(self) -> str:
        """The text with removed words as [-x-] and added words as {+y+}."""
        from .rules_diff import word_diff

        return word_diff(self.old_text, self.new_text)


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
    plurals: dict[str, tuple[str, str]] = field(default_factory=dict)  # id -> (old, new)
    constants: list[tuple[str, object, object]] = field(default_factory=list)
    rules: dict[str, list[str]] = field(default_factory=dict)  # added/removed/changed
    rule_titles: dict[str, str] = field(default_factory=dict)  # chapter file -> its title
    rule_diffs: dict[str, list[str]] = field(default_factory=dict)  # file -> word diffs

    def renamed_to(self, tid: str, old: str, new: str, arrow: str = "->") -> str:
        """'Gold -> Crown', with the plural when it is not the singular's: 'Gold -> Crown,
        plural Gold -> Crowns'."""
        plural = self.plurals.get(tid)
        shown = f"{old} {arrow} {new}"
        if plural and plural != (old, new):
            shown += f", plural {plural[0]} {arrow} {plural[1]}"
        return shown

    @property
    def edits(self) -> list[CardChange]:
        """The changed cards a designer edited (a glossary rename's echoes left out)."""
        return [c for c in self.changed if not c.echo]

    @property
    def echoes(self) -> list[CardChange]:
        """The cards whose face changed only because a glossary name changed."""
        return [c for c in self.changed if c.echo]

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
                                       "text": c.word_diff() if "text" in c.fields else None,
                                       "glossary_echo": c.echo}
                                      for c in self.changed]},
                "glossary": [{"term": t, "old": o, "new": n,
                              "plural": {"old": self.plurals[t][0], "new": self.plurals[t][1]}}
                             for t, o, n in self.terms],
                "constants": [{"path": p, "old": o, "new": n} for p, o, n in self.constants],
                "rules": self.rules,
                "rule_changes": {f: {"title": self.rule_titles.get(f, f), "paragraphs": d}
                                 for f, d in self.rule_diffs.items()}}


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


def _renames(old, new) -> dict[str, str]:
    """Every old and new name of each glossary term whose names changed -> a placeholder
    of that term (longest names first, so 'Gold Mine' goes before 'Gold')."""
    names: dict[str, str] = {}
    for tid, term in new.terms.items():
        was = old.terms.get(tid)
        forms = ("singular", "plural", "adjective")
        if not was or all(was.get(f) == term.get(f) for f in forms):
            continue
        for side in (was, term):
            for form in forms:
                if side.get(form):
                    names.setdefault(side[form], f"\x00{tid}\x00")
    return dict(sorted(names.items(), key=lambda kv: -len(kv[0])))


ARTICLE = re.compile(r"\b([Aa])n?(?= )")


def _renamed(value, names: dict[str, str]) -> str:
    """A field's value as JSON text with each renamed term's old and new names put to one
    placeholder (and a/an alike: a rename may change the article)."""
    text = json.dumps(value, sort_keys=True, default=str)
    if names:
        pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, names)) + r")(?![\w-])")
        text = pattern.sub(lambda m: names[m.group(1)], text)
    return ARTICLE.sub(r"\1", text)


def _is_echo(change: CardChange, names: dict[str, str]) -> bool:
    """Whether every changed field of the card differs only by a renamed glossary term's
    name: the face changed, but nobody edited the card."""
    return bool(names) and all(_renamed(o, names) == _renamed(n, names)
                               for o, n in change.fields.values())


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
            ch.plurals[tid] = (was["plural"], term["plural"])
    a, b = _flat(old.game), _flat(new.game)
    ch.constants = [(k, a.get(k), b.get(k)) for k in sorted(set(a) | set(b))
                    if not _same(a.get(k), b.get(k))]
    ch.rules = {"added": sorted(set(new_rules) - set(old_rules)),
                "removed": sorted(set(old_rules) - set(new_rules)),
                "changed": sorted(k for k in set(old_rules) & set(new_rules)
                                  if old_rules[k] != new_rules[k])}
    names = _renames(old, new)
    for change in ch.changed:
        change.echo = _is_echo(change, names)
    ch.changed.sort(key=lambda c: c.echo)  # real edits first
    from .rules_diff import chapter_changes

    ch.rule_titles, ch.rule_diffs = chapter_changes(ch.rules, old_rules, new_rules, new)
    return ch


def summary(ch: Changes) -> list[str]:
    """The changes as text lines for the terminal."""
    out = [f"changes from {ch.old_rev} to {ch.new_rev}:"]
    if ch.empty:
        return out + ["  nothing changed"]
    out += [f"  added   {c['id']} ({c['name']})" for c in ch.added]
    out += [f"  removed {c['id']} ({c['name']})" for c in ch.removed]
    out += [f"  renamed {a} -> {b}" for a, b in ch.renamed]
    for c in ch.edits:
        names = ", ".join(k for k in c.fields if k != "text")
        out.append(f"  changed {c.id} ({c.name})" + (f": {names}" if names else ""))
        for key, (old, new) in c.fields.items():
            if key not in ("text", "effect", "champion", "triggers"):
                out.append(f"      {key}: {old} -> {new}")
        if "text" in c.fields:
            out.append(f"      text: {c.word_diff()}")
    out += [f"  constant {p}: {o} -> {n}" for p, o, n in ch.constants]
    for kind, files in ch.rules.items():
        out += [f"  rules {kind}: {f} ({ch.rule_titles.get(f, f)})" for f in files]
    out += [f"  glossary {t}: {ch.renamed_to(t, o, n)}" for t, o, n in ch.terms]
    if ch.echoes:
        out.append(f"  glossary echo: {echo_line(ch)}")
    return out


def echo_line(ch: Changes) -> str:
    """One line for every card whose face changed only by a renamed glossary name."""
    names = ", ".join(ch.renamed_to(t, o, n) for t, o, n in ch.terms)
    return (f"{len(ch.echoes)} card{'s' * (len(ch.echoes) != 1)} print the new name"
            f"{'s' * (len(ch.terms) != 1)} ({names}) and change in nothing else: "
            + ", ".join(c.id for c in ch.echoes))
