"""The rules chapters are laid out apart from the book, one document a chapter, and drawn
into its page slots (chapterdocs.py, runon.py): an edit to a chapter lays out that chapter,
and the book keeps its contents, running headers and bookmarks."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from bookmarks import outline
from pypdf import PdfReader

from tether_build.rulebook import book
from tether_build.validate import validate

ROOT = Path(__file__).resolve().parents[2]


def _entries(cache: Path, kind: str) -> set[str]:
    return {p.name for p in (cache / kind).glob("*.bin")} if (cache / kind).exists() else set()


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    base = tmp_path_factory.mktemp("chapters")
    shutil.copytree(ROOT / "tests" / "fixtures" / "content", base / "content")
    shutil.copytree(ROOT / "schemas", base / "schemas")
    cache = base / "cache"
    first = book.render_rulebook(validate(base / "content"), base / "content", ("a4",), cache)
    return base, cache, first


def test_every_heading_is_a_bookmark_on_the_page_that_shows_it(project):
    _, _, first = project
    reader = PdfReader(io.BytesIO(first.files["rulebook-a4.pdf"]))
    marks = outline(reader)
    texts = [" ".join(p.extract_text().replace("T ether", "Tether").split())
             for p in reader.pages]
    sections = [(title, page) for level, title, page in marks if level == 2]
    assert len(sections) >= 40
    for _, title, page in marks:
        assert title in texts[page - 1], f"bookmark {title!r} opens page {page}, which " \
                                         "does not show it"
    # every chapter once, in the order of the pages: setting, the rules chapters, factions,
    # glossary, card reference, print and assemble, player aid
    chapters = [(title, page) for level, title, page in marks if level == 1
                and title != "Contents"]
    assert [page for _, page in chapters] == sorted(page for _, page in chapters)
    assert len(chapters) == len(list((project[0] / "content" / "rules").glob("*.md"))) + 6


def test_a_chapter_edit_lays_out_that_chapter_and_not_the_book(project):
    base, cache, first = project
    rules = sorted((base / "content" / "rules").glob("*.md"))
    last = rules[-1]
    text = last.read_text()
    words = [w for w in text.split() if w.isalpha() and w.islower() and len(w) > 4]
    assert words, "the last chapter has no plain word to change"
    word = words[len(words) // 2]
    last.write_text(text.replace(f" {word} ", f" {word[0].upper()}{word[1:]} ", 1))
    chapters, skeletons = _entries(cache, "bookch"), _entries(cache, "book")
    again = book.render_rulebook(validate(base / "content"), base / "content", ("a4",), cache)
    assert again.files["rulebook-a4.pdf"] != first.files["rulebook-a4.pdf"]
    assert len(_entries(cache, "bookch") - chapters) == 1   # the edited chapter alone
    assert _entries(cache, "book") == skeletons              # the book's layout is reused
    reader = PdfReader(io.BytesIO(again.files["rulebook-a4.pdf"]))
    shown = " ".join(p.extract_text() for p in reader.pages)
    assert f"{word[0].upper()}{word[1:]}" in shown
    assert outline(reader) == outline(PdfReader(io.BytesIO(first.files["rulebook-a4.pdf"])))
