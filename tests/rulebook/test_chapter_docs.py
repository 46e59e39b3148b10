"""The rules chapters are laid out apart from the book, one document a chapter, and drawn
into its page slots (chapterdocs.py, runon.py): an edit to a chapter lays out that chapter,
and the book keeps its contents, running headers and bookmarks."""

from __future__ import annotations

import io
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from bookmarks import outline, page_glyphs
from pypdf import PdfReader

from tests.conftest import make_small_content
from tether_build.content.validate import validate
from tether_build.print.rulebook import book, chapterdocs


def _entries(cache: Path, kind: str) -> set[str]:
    return {p.name for p in (cache / kind).glob("*.bin")} if (cache / kind).exists() else set()


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """The small content (every rules chapter, each age deck cut to its first card: the
    chapters, the aid and the guide these tests are about laid out whole, the card reference
    short), its book laid out from nothing, and the render cache that holds it."""
    base = tmp_path_factory.mktemp("chapters")
    make_small_content(base)
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


def test_a_number_only_the_guide_prints_lays_out_the_guide_not_the_book(project):
    """The round cap (a token a round on the round track) changes the print-and-assemble
    guide's token count: the guide is laid out again, the book's own layout is reused."""
    base, cache, _ = project
    game = base / "content" / "game.yaml"
    text = game.read_text()
    cap = int(text.split("round_cap:")[1].split()[0])
    # the worked examples come from engine runs, and the agents play by the round cap: with
    # them, the cap changes the book too (as it should). This test is about the guide's
    # part of the cache, so its copy of the rules leaves the examples out.
    for chapter in sorted((base / "content" / "rules").glob("*.md")):
        rules = chapter.read_text()
        kept = re.sub(r"^::: (?:\w+-example|setup-figure)\n", "", rules, flags=re.MULTILINE)
        if kept != rules:
            chapter.write_text(kept)
    before = book.render_rulebook(validate(base / "content"), base / "content", ("a4",), cache)
    guides, skeletons = _entries(cache, "bookguide"), _entries(cache, "book")
    aids = _entries(cache, "bookaid")
    try:
        game.write_text(text.replace(f"round_cap: {cap}", f"round_cap: {cap - 5}", 1))
        again = book.render_rulebook(validate(base / "content"), base / "content", ("a4",),
                                     cache)
    finally:
        game.write_text(text)
    assert again.files["rulebook-a4.pdf"] != before.files["rulebook-a4.pdf"]
    assert len(_entries(cache, "bookguide") - guides) == 1   # the guide's part that counts them
    # the book's layout is reused, and so are those of the aid's sheet and of the print
    # guide, print/README.pdf, which draw the aid's and the guide's pages laid out for the book
    assert _entries(cache, "book") == skeletons
    assert len(_entries(cache, "bookaid") - aids) == 1   # the aid's back: the last round
    assert again.files[book.README] != before.files[book.README]   # it counts the tokens

    def guide(result) -> str:
        reader = PdfReader(io.BytesIO(result.files["rulebook-a4.pdf"]))
        return " ".join(" ".join(p.extract_text().split()) for p in reader.pages
                        if p.extract_text().startswith("Print and Assemble"))
    assert guide(again) != guide(before)   # the guide's pages print the new count


def _glyphs(pdf: bytes) -> list[Counter]:
    """Per page, every character drawn and where (pdfium, to 0.05 pt)."""
    import pypdfium2 as pdfium

    return [page_glyphs(page) for page in pdfium.PdfDocument(pdf)]


@pytest.fixture(scope="module")
def whole(project, tmp_path_factory):
    """The book of the project's content as it is now, laid out from nothing with the aid
    as one document (both sides) and the print-and-assemble guide as one part: what the two
    tests below compare the parts with (one layout from nothing for both, not one each)."""
    base, _, _ = project
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(chapterdocs, "AID_SIDES", (None,))   # one part: both sides
        patch.setattr(chapterdocs, "GUIDE_PARTS", 1)
        return book.render_rulebook(validate(base / "content"), base / "content", ("a4",),
                                    tmp_path_factory.mktemp("whole") / "cache")


def test_the_aids_sides_laid_out_apart_print_what_one_document_prints(project, whole):
    """Each side of the player aid is laid out apart (a number on one side lays out that
    side alone); both sheets that show it print every character where the aid laid out as
    one document prints it."""
    base, cache, _ = project
    content = validate(base / "content")
    first = book.render_rulebook(content, base / "content", ("a4",), cache)
    aid = book.AID.format(paper="a4")
    assert len(_glyphs(first.files[aid])) == 2
    assert _glyphs(first.files[aid]) == _glyphs(whole.files[aid])
    assert _glyphs(first.files["rulebook-a4.pdf"]) == _glyphs(whole.files["rulebook-a4.pdf"])


def test_the_guide_laid_out_in_parts_prints_what_one_document_prints(project, whole):
    """The print-and-assemble guide is laid out in parts, one below the other (a number one
    part prints lays out that part); the book and print/README.pdf print every character
    where the guide laid out as one document prints it."""
    base, cache, _ = project
    content = validate(base / "content")
    parts = book.render_rulebook(content, base / "content", ("a4",), cache)
    for name in ("rulebook-a4.pdf", book.README):
        assert _glyphs(parts.files[name]) == _glyphs(whole.files[name]), name


def test_the_guide_prints_the_books_page_count_whatever_the_cache_held(project):
    """The guide prints its own book's page count, which only the book's layout gives: it is
    laid out with the last build's count, and again until the count holds. A wrong count in
    the cache changes nothing in the outputs."""
    import re

    from tether_build.print.cache import Cache, digest

    base, cache, _ = project
    content = validate(base / "content")
    first = book.render_rulebook(content, base / "content", ("a4",), cache)
    pages = first.pages["a4"]
    key = digest("bookpages/1", "a4")
    assert Cache(cache).get("bookpages", key) == str(pages).encode()
    for hint in (b"7", b"", b"not a number", str(pages + 100).encode()):
        Cache(cache).put("bookpages", key, hint)
        again = book.render_rulebook(content, base / "content", ("a4",), cache)
        assert again.files == first.files
        assert Cache(cache).get("bookpages", key) == str(pages).encode()
    reader = PdfReader(io.BytesIO(first.files["rulebook-a4.pdf"]))
    assert len(reader.pages) == pages
    text = " ".join(" ".join(p.extract_text().split()) for p in reader.pages)
    assert re.search(rf"This rulebook {pages}\b", text)


def test_chapters_laid_out_in_a_forked_process_make_the_same_book(project, tmp_path):
    """With two workers the rules chapters are laid out in a forked process while this one
    lays out the aid, the reference and the guide (book._ahead): the same files as one
    process laying out everything, from the same cache."""
    base, cache, _ = project
    first = min((base / "content" / "rules").glob("*.md"))
    text = first.read_text()
    body = text.split("---", 2)[-1]   # below the front matter
    words = [w for w in body.split() if w.isalpha() and w.islower() and len(w) > 5
             and f" {w} " in body]
    assert words, "the first chapter has no plain word to change"
    first.write_text(text.replace(f" {words[0]} ", f" {words[0].upper()} ", 1))
    alone = tmp_path / "cache"
    shutil.copytree(cache, alone)
    content = validate(base / "content")
    chapters = _entries(cache, "bookch")
    one = book.render_rulebook(content, base / "content", ("a4",), alone, workers=1)
    two = book.render_rulebook(content, base / "content", ("a4",), cache, workers=2)
    assert len(_entries(cache, "bookch") - chapters) >= 1   # laid out by the forked process
    assert one.files == two.files


def test_chapters_laid_out_from_both_ends_make_the_same_book(project, tmp_path, monkeypatch):
    """A number printed in the first and the last chapter (the round cap), with two workers:
    the forked process lays the chapters out in order while this one lays out, last first,
    those the last build laid out, at the places it laid them out (chapterdocs.ahead), and
    they meet. The same files as one process alone; no claim is left behind."""
    base, cache, _ = project
    game = base / "content" / "game.yaml"
    text = game.read_text()
    cap = int(text.split("round_cap:")[1].split()[0])
    content = validate(base / "content")
    book.render_rulebook(content, base / "content", ("a4",), cache, workers=2)
    helped = []
    real_ahead = chapterdocs.ahead
    monkeypatch.setattr(chapterdocs, "ahead", lambda *a: helped.append(real_ahead(*a)))
    try:
        game.write_text(text.replace(f"round_cap: {cap}", f"round_cap: {cap - 3}", 1))
        alone = tmp_path / "cache"
        shutil.copytree(cache, alone)
        content = validate(base / "content")
        two = book.render_rulebook(content, base / "content", ("a4",), cache, workers=2)
        one = book.render_rulebook(content, base / "content", ("a4",), alone, workers=1)
    finally:
        game.write_text(text)
    assert helped and helped[0] >= 1   # this process laid out a chapter of the forked one's
    assert one.files == two.files
    assert not (cache / "claims").exists() or not list((cache / "claims").iterdir())


def test_chapters_all_in_the_cache_fork_nothing_and_make_the_same_book(project, monkeypatch):
    """An edit no chapter prints (a card's text): every chapter is found in the cache
    (chapterdocs.cached), so no process is forked to lay them out ahead and none is laid out
    from the last; the same files as the build that laid them out."""
    base, cache, _ = project
    content = validate(base / "content")
    before = book.render_rulebook(content, base / "content", ("a4",), cache, workers=2)
    forked, helped = [], []
    real_fork, real_ahead = book._ahead, chapterdocs.ahead
    monkeypatch.setattr(book, "_ahead", lambda *a: forked.append(1) or real_fork(*a))
    monkeypatch.setattr(chapterdocs, "ahead", lambda *a: helped.append(real_ahead(*a)))
    chapters = _entries(cache, "bookch")
    again = book.render_rulebook(content, base / "content", ("a4",), cache, workers=2)
    assert not forked and not helped
    assert _entries(cache, "bookch") == chapters
    assert again.files == before.files
    # a chapter missing from the cache: the chapters are laid out as before (forked ahead)
    for name in chapters:
        (cache / "bookch" / name).unlink()
    third = book.render_rulebook(content, base / "content", ("a4",), cache, workers=2)
    assert forked and third.files == before.files
