"""The designer report: every note, open question, decision and name change in content."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ContentError, Problem
from . import yamlio
from .load import Content
from .text import render_plain

ORDER = ["rule_change", "open_reading", "clarification"]  # departures: most pressing first
OPEN = re.compile(r"\b(TODO|todo|Todo|\?|unclear|not settled|designer to confirm|confirm|"
                  r"open question|undecided|idea)\b|\?", re.IGNORECASE)


@dataclass
class Item:
    """One content item that carries notes."""

    kind: str
    id: str
    title: str
    file: str
    line: int
    notes: list[str] = field(default_factory=list)
    renamed: str | None = None  # "design name -> current name"
    lines: list[int] = field(default_factory=list)  # the file line of each note
    anchor: str = ""   # the item's id in the report's page, unique (collect sets it)

    @property
    def open_count(self) -> int:
        return sum(1 for n in self.notes if OPEN.search(n))

    def open_notes(self) -> list[tuple[int, str, int]]:
        """(index, note, line) of each open note."""
        return [(k, n, line) for k, (n, line) in enumerate(zip(self.notes, self.lines))
                if OPEN.search(n)]


def _walk_notes(data, path=()):
    """Yield (path, notes list) for every `notes`-like list in a document."""
    if isinstance(data, dict):
        for key, value in data.items():
            if key in ("notes", "fixed_slot_notes", "placement_notes") and isinstance(value,
                                                                                      list):
                yield path, value
            else:
                yield from _walk_notes(value, path + (key,))
    elif isinstance(data, list):
        for i, item in enumerate(data):
            yield from _walk_notes(item, path + (i,))


def _notes_key(data, path: tuple, notes: list):
    """The key under which `notes` hangs in the mapping at `path` (_walk_notes yields the
    mapping's path, not the list's)."""
    node = data
    for part in path:
        node = node[part]
    return next(k for k, v in node.items() if v is notes)


def _title(content: Content, doc: str, path: tuple) -> tuple[str, str, str]:
    """(kind, id, title) for the item at `path` of a document."""
    data = content.docs[doc].data
    node = data
    for part in path:
        node = node[part]
    if doc.startswith("cards/") and len(path) >= 2:
        card = data["cards"][path[1]]
        return "card", card["id"], card["name"]
    if doc.startswith("cards/"):
        return "deck", data["deck"], data["deck"]
    if len(path) >= 2 and isinstance(path[1], str):
        name = node.get("name") or node.get("singular") or node.get("title") if isinstance(
            node, dict) else None
        label = render_plain(name, content.terms, content.icons) if name else path[1]
        return path[0].rstrip("s"), path[1], label
    return doc.removesuffix(".yaml"), ".".join(map(str, path)) or doc, \
        ".".join(map(str, path)) or doc.removesuffix(".yaml")


def collect(content: Content, rules_dir: Path | None = None) -> list[Item]:
    """Every item with notes, plus every renamed term and card, in content order."""
    items: dict[tuple, Item] = {}
    for doc_name, doc in content.docs.items():
        for path, notes in _walk_notes(doc.data):
            kind, iid, title = _title(content, doc_name, path)
            line, _ = doc.locate(path)
            key = (doc_name, kind, iid)
            item = items.setdefault(key, Item(kind, iid, title, doc.path, line))
            item.notes += [render_plain(n, content.terms, content.icons)
                           if "[" in n or "{" in n else n for n in notes]
            item.lines += [doc.locate(path + (_notes_key(doc.data, path, notes), k))[0]
                           for k in range(len(notes))]
    for tid, term in content.terms.items():
        design = [d for d in term.get("design_names", []) if d not in (term["singular"],
                                                                       term["plural"])]
        if design:
            line, _ = content.docs["terms.yaml"].locate(("terms", tid))
            item = items.setdefault(("terms.yaml", "term", tid),
                                    Item("term", tid, term["singular"], "content/terms.yaml",
                                         line))
            item.renamed = f"{' / '.join(design)} → {term['singular']}"
    for card in content.cards:
        if card.get("design_name") and card["design_name"] != card["name"]:
            src = card["_src"]
            item = items.setdefault((src["doc"], "card", card["id"]),
                                    Item("card", card["id"], card["name"], src["file"],
                                         src["line"]))
            item.renamed = f"{card['design_name']} → {card['name']}"
    out = list(items.values())
    _anchors(out)
    if rules_dir and (rules_dir / "designer-notes.yaml").exists():
        path = rules_dir / "designer-notes.yaml"
        entries, problems = load_designer_notes(path, str(path))
        if problems:
            raise ContentError(problems)
        for entry in entries:
            key = ("rules", entry.get("chapter", "rules"))
            item = next((i for i in out if (i.kind, i.id) == key), None)
            if item is None:
                item = Item("rules", entry.get("chapter", "rules"),
                            f"Rules: {entry.get('chapter', '')}", str(path), entry["_line"])
                out.append(item)
                _anchors(out)
            item.notes.append(f"{entry.get('section', '')} {entry['note']}".strip())
            item.lines.append(entry["_line"])
    return out


def _anchors(items: list[Item]) -> None:
    """Give every item without one a unique page id: kind-id (--2, --3 ... where the same
    kind and id is noted in two files, as a deck in its cards file and in ages.yaml; a
    note is anchor-<index>)."""
    taken = {i.anchor for i in items if i.anchor}
    for item in items:
        if item.anchor:
            continue
        base = re.sub(r"[^A-Za-z0-9_.-]+", "-", f"{item.kind}-{item.id}")
        anchor, n = base, 1
        while anchor in taken:
            n += 1
            anchor = f"{base}--{n}"
        item.anchor = anchor
        taken.add(anchor)


def load_designer_notes(path: Path, shown: str, memo=None) -> tuple[list[dict], list[Problem]]:
    """rules/designer-notes.yaml: a list of {chapter, section, note}, checked against
    schemas/designer-notes.schema.json; problems located. memo: as content.load_partial's.
    Each entry carries `_line`, the file line it starts at (where its notes point)."""
    from .load import schema_checked
    from .paths_guard import project_of

    doc, problems = yamlio.load(path, shown, memo, root=project_of(Path(path).parent.parent))
    if doc is None or problems:
        return [], problems
    problems = schema_checked(doc, path, "designer-notes.schema.json", memo)
    if problems:
        return [], problems
    return [dict(e, _line=doc.locate((i,))[0]) for i, e in enumerate(doc.data)], problems


def _readings(content: Content, cards: list | None = None) -> list[dict]:
    """Every card's printed text and the engine's reading of its effect."""
    from ..effects.describe import reading
    from .cards import normalized_cards

    return [{"id": c["id"], "name": c["name"], "text": c["text"],
             "reading": reading(c, content.terms)}
            for c in (normalized_cards(content) if cards is None else cards)]


def render_html(content: Content, rules_dir: Path | None = None, cards: list | None = None,
                cache=None) -> bytes:
    """The designer report as one self-contained HTML page. cards: the content's normalized
    cards, when the caller has them; cache: a render cache, where the template's compiled
    code is kept (print/templatecode.py)."""
    from jinja2 import Environment, FileSystemLoader, select_autoescape

    from ..print.templatecode import bytecode_cache
    from .departures import collect as collect_departures

    templates = Path(__file__).resolve().parents[2] / "templates" / "report"
    env = Environment(loader=FileSystemLoader(templates), autoescape=select_autoescape(),
                      bytecode_cache=bytecode_cache(cache))
    items = collect(content, rules_dir)
    departures = collect_departures(content, cards)
    groups: dict[str, list[Item]] = {}
    for item in items:
        groups.setdefault(item.kind, []).append(item)
    open_items = [(i, k, n, line) for i in items for k, n, line in i.open_notes()]
    return env.get_template("designer-notes.html").render(
        title=content.game["title"], version=content.game["version"], groups=groups,
        total=sum(len(i.notes) for i in items),
        open_total=sum(i.open_count for i in items) + sum(d.open for d in departures),
        renames=[i for i in items if i.renamed], open_re=OPEN, open_items=open_items,
        departures=sorted(departures, key=lambda d: (not d.open, ORDER.index(d.kind))),
        open_departures=sum(d.open for d in departures),
        readings=_readings(content, cards),
    ).encode()
