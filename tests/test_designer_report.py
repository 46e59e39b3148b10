"""The designer report (report.py): a contents list, an anchor per item and per note, an
open-items list with a show-only-open toggle, and every note's true file line."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

from tether_build.content.report import OPEN, collect, render_html

ROOT = Path(__file__).resolve().parents[1]
RULES = ROOT / "tests" / "fixtures" / "content" / "rules"


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.hrefs, self.open_list, self._in_open = [], [], 0, False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "a" and a.get("href", "").startswith("#"):
            self.hrefs.append(a["href"][1:])
        if tag == "ol" and a.get("class") == "open-list":
            self._in_open = True
        if tag == "li" and self._in_open:
            self.open_list += 1

    def handle_endtag(self, tag):
        if tag == "ol":
            self._in_open = False


def _note_line(path: Path, note: str) -> int:
    """The line where a note's text starts in its file (found by reading the file)."""
    words = note[-30:]
    lines = path.read_text(encoding="utf-8").splitlines()
    hits = [n for n, line in enumerate(lines, 1) if words in line]
    assert hits, (path, words)
    return hits[0]


def test_rules_notes_point_at_their_own_lines(content):
    items = [i for i in collect(content, RULES) if i.kind == "rules"]
    assert items
    seen = set()
    for item in items:
        assert len(item.lines) == len(item.notes)
        for note, line in zip(item.notes, item.lines):
            text = (RULES / "designer-notes.yaml").read_text().splitlines()[line - 1]
            assert text.lstrip().startswith("- chapter:"), (line, text)
            assert line <= _note_line(RULES / "designer-notes.yaml", note) <= line + 3
            seen.add(line)
    assert len(seen) == sum(len(i.notes) for i in items) > 1   # not all at line 1


def test_content_notes_point_at_their_own_lines(content):
    items = [i for i in collect(content, RULES) if i.kind == "card" and len(i.notes) > 1]
    assert items
    for item in items[:5]:
        path = ROOT / "tests" / "fixtures" / "content" / Path(item.file).name
        if not path.exists():
            path = next((ROOT / "tests" / "fixtures" / "content").rglob(Path(item.file).name))
        assert item.lines == sorted(item.lines) and len(set(item.lines)) == len(item.lines)
        for note, line in zip(item.notes, item.lines):
            if "[" not in note and "{" not in note:
                assert note[:30] in path.read_text().splitlines()[line - 1]


def test_contents_anchors_and_open_items(content):
    html = render_html(content, RULES).decode()
    ids = _Ids()
    ids.feed(html)
    assert len(ids.ids) == len(set(ids.ids)), "duplicate anchors"
    assert set(ids.hrefs) <= set(ids.ids), set(ids.hrefs) - set(ids.ids)
    items = collect(content, RULES)
    for item in items:
        if item.notes:
            assert item.anchor in ids.ids
    contents = html[html.index('<nav class="contents"'):html.index("</nav>")]
    for anchor in ("open-items", "departures", "name-changes", "readings", "notes-rules",
                   "notes-card"):
        assert f'href="#{anchor}"' in contents
    open_total = int(re.search(r"· (\d+) look open", html).group(1))
    open_notes = sum(1 for i in items for n in i.notes if OPEN.search(n))
    assert 0 < open_notes <= open_total
    assert ids.open_list == open_total   # the list holds every open item, no more
    assert 'id="only-open"' in html and "#only-open:checked" in html
