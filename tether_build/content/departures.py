"""Departures: where a card's printed text differs in meaning from the design document.

A `departures:` list on a card, a card trigger, a Champion ability, a faction passive or a
keyword records each place where the printed words say something other than the design
document's words: `kind` (clarification | open_reading | rule_change), `document` (the
document's exact wording), `printed` (optional: the printed words that replace it), `reason`,
and `accepted` (the designer's mark). A reading of open wording or a rule change stays an open
designer question until it is accepted. `tether check --design-document` lists every one beside
the engine's reading and checks that each `document:` wording is in the document; the designer
report (`tether notes`, build/designer-notes.html) lists them too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..errors import Problem
from .load import Content
from .text import render_plain

KINDS = {"clarification": "clarification", "open_reading": "reading of open wording",
         "rule_change": "rule change"}
PLURALS = {"clarification": "clarifications", "open_reading": "readings of open wording",
           "rule_change": "rule changes"}


@dataclass
class Departure:
    """One recorded departure, with the printed words it concerns and where it is written."""

    kind: str
    document: str
    reason: str
    accepted: bool
    printed_part: str | None  # the `printed:` words, glossary names rendered
    owner: str  # card | ability | passive | keyword
    owner_id: str
    title: str
    printed: str  # the whole printed text it belongs to, glossary names rendered
    reading: str | None  # the engine's reading (cards, abilities, passives), else None
    doc: str  # content document name (e.g. cards/age2_market.yaml)
    path: tuple  # YAML path of the departure entry
    file: str
    line: int
    design_name: str | None = None  # the card's design-document name, to find its entry

    @property
    def label(self) -> str:
        return KINDS[self.kind]

    @property
    def open(self) -> bool:
        """A reading or rule change the designer has not accepted yet."""
        return self.kind != "clarification" and not self.accepted

    @property
    def status(self) -> str:
        if self.kind == "clarification":
            return "clarification"
        return "accepted by the designer" if self.accepted else "open designer question"

    @property
    def tag(self) -> str:
        """'rule change (open designer question)', 'clarification'."""
        return self.label if self.kind == "clarification" else f"{self.label} ({self.status})"

    def to_json(self) -> dict:
        return {"kind": self.kind, "label": self.label, "status": self.status,
                "open": self.open, "owner": self.owner, "id": self.owner_id,
                "title": self.title, "document": self.document,
                "printed_part": self.printed_part, "printed": self.printed,
                "reading": self.reading, "reason": self.reason, "accepted": self.accepted,
                "file": self.file, "line": self.line}


def _owners(content: Content, cards: list | None, readings: bool):
    """(owner, id, title, doc, path, node, design_name, printed(), reading()) of everything
    that may carry departures: cards, their triggers and abilities, passives, keywords. The
    printed text and the engine's reading are computed only for what has departures."""
    from ..effects.describe import ability_reading, reading
    from .cards import face_text, normalized_cards

    memo: dict = {}

    def norm(cid: str) -> dict | None:
        if not readings:
            return None
        if "cards" not in memo:
            memo["cards"] = {c["id"]: c for c in (normalized_cards(content) if cards is None
                                                  else cards)}
        return memo["cards"].get(cid)

    def read_ability(cid: str | None, key: str, i: int, raw: dict):
        if not readings:
            return None
        card = norm(cid) if cid else None
        items = (((card.get("champion") or {}).get("abilities") if key == "abilities"
                  else card.get("triggers")) if card else None) or []
        return ability_reading(items[i] if i < len(items) else raw, content.terms,
                               passive=key != "abilities")

    plain = _plain(content)
    for card in content.cards:
        src, cid = card["_src"], card["id"]
        base = ("cards", src["index"])
        design = card.get("design_name", card["name"])
        yield ("card", cid, card["name"], src["doc"], base, card, design,
               lambda c=card: plain(face_text(content, {**c, "champion": c.get("champion")})),
               lambda c=cid: reading(norm(c), content.terms) if norm(c) else None)
        for key, items in (("triggers", card.get("triggers") or []),
                           ("abilities", (card.get("champion") or {}).get("abilities") or [])):
            path = base + (("champion", "abilities") if key == "abilities" else ("triggers",))
            for i, ab in enumerate(items):
                yield ("ability", f"{cid}.{ab['name']}", f"{card['name']}: {ab['name']}",
                       src["doc"], path + (i,), ab, design,
                       lambda a=ab: f"{a['name']}: {plain(a['text'])}",
                       lambda c=cid, k=key, j=i, a=ab: read_ability(c, k, j, a))
    for fid, faction in content.factions.items():
        for i, ab in enumerate(faction.get("passives") or []):
            yield ("passive", f"{fid}.{ab['name']}", f"{plain(faction['name'])}: {ab['name']}",
                   "factions.yaml", ("factions", fid, "passives", i), ab, None,
                   lambda a=ab: f"{a['name']}: {plain(a['text'])}",
                   lambda j=i, a=ab: read_ability(None, "passives", j, a))
    for kid, kw in content.keywords.items():
        yield ("keyword", kid, f"keyword {plain(kw['name'])}", "keywords.yaml",
               ("keywords", kid), kw, None, lambda k=kw: plain(k["reminder"]), lambda: None)


def _plain(content: Content):
    def plain(text: str) -> str:
        try:
            return render_plain(text, content.terms, content.icons)
        except (KeyError, ValueError):  # an unknown token: check_text reports it
            return text
    return plain


def collect(content: Content, cards: list | None = None,
            readings: bool = True) -> list[Departure]:
    """Every recorded departure in content order (cards, passives, keywords), with the
    engine's reading when `readings`. cards: the content's normalized cards, if at hand."""
    plain = _plain(content)
    out = []
    for owner, oid, title, doc, path, node, design, printed, read in _owners(content, cards,
                                                                              readings):
        if not isinstance(node, dict) or not node.get("departures"):
            continue
        text, reading = printed(), read()
        for j, dep in enumerate(node["departures"]):
            dpath = path + ("departures", j)
            line, _ = content.docs[doc].locate(dpath)
            out.append(Departure(
                kind=dep["kind"], document=dep["document"], reason=plain(dep["reason"]),
                accepted=bool(dep.get("accepted", False)),
                printed_part=plain(dep["printed"]) if dep.get("printed") else None,
                owner=owner, owner_id=oid, title=title, printed=text, reading=reading,
                doc=doc, path=dpath, file=content.docs[doc].path, line=line,
                design_name=design))
    return out


def _norm(text: str) -> str:
    """Wording compared loosely: quotes, dashes, spacing and case do not count."""
    text = re.sub(r"[\u2018\u2019\u201b`]", "'", text)
    text = re.sub(r"[\u201c\u201d]", '"', text)
    text = re.sub(r"[\u2010-\u2015\u2212]", "-", text)
    return re.sub(r"\s+", " ", text).strip().lower()


def check_printed(content: Content):
    """A departure's `printed:` words are in the printed text they belong to (so a record
    goes stale loudly when the text is rewritten). Yields Problems."""
    for dep in collect(content, readings=False):
        if dep.printed_part and _norm(dep.printed_part) not in _norm(dep.printed):
            yield content.problem(dep.doc, dep.path + ("printed",),
                                  f"departure's printed words are not in the {dep.owner}'s "
                                  f"text: {dep.printed_part!r}",
                                  "copy them from the text, or update the departure")


@dataclass
class Located:
    """Where a departure's document wording was found in the design document."""

    departure: Departure
    line: int | None  # 1-based line of the design document, None if not found
    in_entry: bool  # found inside the card's own entry of §22-24


def locate_in_document(departures: list[Departure], doc_text: str,
                       entries: list[dict]) -> list[Located]:
    """Find each departure's `document:` wording in the design document: first inside its
    card's own entry (entries: designdoc.parse_document), else anywhere."""
    lines = doc_text.splitlines()
    normed = [_norm(ln) for ln in lines]
    starts = sorted(e["line"] - 1 for e in entries)  # the name line of each entry
    span = {}
    for e in entries:
        begin = e["line"] - 1
        end = next((s for s in starts if s > begin), len(lines))
        span.setdefault(e["name"].lower(), (begin, end))
    out = []
    for dep in departures:
        want = _norm(dep.document)
        found, in_entry = None, False
        key = (dep.design_name or "").lower()
        if key in span:
            found = _find(normed, want, *span[key])
            in_entry = found is not None
        if found is None:
            found = _find(normed, want, 0, len(lines))
        out.append(Located(dep, found, in_entry))
    return out


def _find(normed: list[str], want: str, begin: int, end: int) -> int | None:
    """1-based line where `want` starts, the text of lines begin..end joined by spaces."""
    pos, starts, end = 0, [], min(end, len(normed))
    for i in range(begin, end):
        starts.append(pos)
        pos += len(normed[i]) + 1
    hit = " ".join(normed[begin:end]).find(want)
    if hit < 0 or not want:
        return None
    index = max(i for i, s in enumerate(starts) if s <= hit)
    return begin + index + 1


WORDS = {"one": "1", "once": "1", "first": "1", "two": "2", "three": "3", "four": "4", "five": "5",
         "six": "6", "seven": "7", "eight": "8", "nine": "9", "ten": "10"}
HEADER = re.compile(r"^(Cost|Gold|Init|Type|HP|Attack|Bounty)\b|^Gives \+ ?\d+ VP")
HEADING = re.compile(r"^([A-I]\) |\d+\) |\d+\.\d+ |Power Victory|Non.Victory|Power Champion|"
                     r"Note to self|Note:)")


def entry_bodies(doc_text: str, entries: list[dict]) -> dict[str, str]:
    """Design-document name (lower case) -> the effect wording of its card entry: the lines
    after the entry's cost, type and statistics, up to the next entry or heading."""
    lines = doc_text.splitlines()
    starts = sorted(e["line"] - 1 for e in entries)
    out = {}
    for e in entries:
        begin = e["line"] + 1
        end = next((s for s in starts if s > e["line"] - 1), len(lines))
        body = []
        for ln in lines[begin:end]:
            if HEADING.match(ln):
                break
            if ln.strip() and not HEADER.match(ln):
                body.append(ln.strip())
        out.setdefault(e["name"].lower(), " ".join(body))
    return out


def numbers(text: str) -> set[str]:
    """The numbers a wording states, in digits or words (percentages and VP aside)."""
    text = re.sub(r"\d+%|\+ ?\d+ VP|\bone of\b|\bthere is one\b", " ", text, flags=re.IGNORECASE)
    found = set(re.findall(r"\d+", text))
    return found | {WORDS[w] for w in re.findall(r"[a-z]+", text.lower()) if w in WORDS}


def unrecorded(cards: list[dict], departures: list[Departure], doc_text: str,
               entries: list[dict]) -> list[str]:
    """Cards with no departure recorded whose printed text states other numbers than the
    document's wording: a difference the content may not explain (a hint, not proof: the
    check lists them and does not fail on them)."""
    recorded = {d.owner_id.split(".")[0] for d in departures}
    bodies = entry_bodies(doc_text, entries)
    out = []
    for card in cards:
        body = bodies.get(card["design_name"].lower())
        if card["id"] in recorded or not body:
            continue
        abilities = (card.get("triggers") or []) + ((card.get("champion") or {}).get(
            "abilities") or [])
        printed = " ".join([card["text"]] + [t["text"] for t in card.get("triggers") or []]
                           + ["(1/round)" for a in abilities
                              if a.get("limit") == "once_per_round"])  # the face's label
        if numbers(body) != numbers(printed):
            out.append(f"{card['source']['file']}:{card['source']['line']}: {card['id']}: "
                       f"no departure recorded, but the printed text states the numbers "
                       f"{sorted(numbers(printed), key=int)} and the document's wording "
                       f"{sorted(numbers(body), key=int)}: {body!r} (record a departure, "
                       "a clarification if the meaning is the same)")
    return out


def not_found_problem(content: Content, dep: Departure) -> Problem:
    """The located error for a `document:` wording the design document does not contain."""
    return content.problem(dep.doc, dep.path + ("document",),
                           f"wording not found in the design document: {dep.document!r}",
                           "copy the document's exact words (quotes, dashes and spacing "
                           "may differ)")


def text_lines(located: list[Located]) -> list[str]:
    """`tether check --design-document`'s listing: one block per departure."""
    out = []
    for loc in located:
        dep = loc.departure
        where = f"document line {loc.line}" if loc.line else "NOT IN THE DOCUMENT"
        if loc.line and dep.owner in ("card", "ability") and not loc.in_entry:
            where += ", outside the card's entry"
        out.append(f"DEPARTURE {dep.tag}: {dep.title}  "
                   f"[{dep.file}:{dep.line}]")
        out.append(f"  document: {dep.document}  ({where})")
        out.append(f"  printed:  {dep.printed_part or dep.printed}")
        if dep.printed_part:
            out.append(f"            (in: {dep.printed})")
        if dep.reading:
            out.append(f"  engine:   {dep.reading}")
        out.append(f"  reason:   {dep.reason}")
    return out


def summary(departures: list[Departure]) -> str:
    """'N departures: ...' counted by kind, with the open ones."""
    parts = []
    for kind, label in KINDS.items():
        of_kind = [d for d in departures if d.kind == kind]
        if of_kind:
            opened = sum(d.open for d in of_kind)
            word = label if len(of_kind) == 1 else PLURALS[kind]
            parts.append(f"{len(of_kind)} {word}"
                         + (f" ({opened} open)" if kind != "clarification" else ""))
    n = len(departures)
    return f"{n} departure{'s' * (n != 1)} from the design document recorded" + (
        ": " + ", ".join(parts) if parts else "")
