"""No doc types a count of what a build prints: such a count drifts (docs/printing.md said
the rulebook had 36 pages when it had 38). The counts live in the generated print guide
and components.txt; docs say where to find them."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# a page count of a print file ("Rulebook: 36 pages", "(54 and 60 pages)")
PAGES = re.compile(r"\b\d+(?: and \d+)? pages\b", re.IGNORECASE)
# dated records, whose counts are of their day: the figures' history, the print review
RECORDS = {"performance.md", "print-review.md"}


def test_no_doc_carries_a_page_count():
    found = []
    docs = [p for p in sorted((ROOT / "docs").glob("*.md")) if p.name not in RECORDS]
    for path in [ROOT / "README.md", *docs]:
        name = path.relative_to(ROOT)
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if PAGES.search(line):
                found.append(f"{name}:{n}: {line.strip()}")
    assert not found, "\n".join(found)


def test_the_pattern_finds_a_typed_count():
    assert PAGES.search("Rulebook: 36 pages on each paper")
    assert PAGES.search("by its backs page (54 and 60 pages).")
    assert not PAGES.search("the pages slide within the paper")
