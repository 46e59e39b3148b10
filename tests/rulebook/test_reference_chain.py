"""The card reference is laid out one deck a document (reference.py), each deck going on
below the one before on the same printed page, so a card edit lays out its deck alone."""

from __future__ import annotations

import io
import re
from collections import Counter

from bookmarks import page_glyphs
from pypdf import PdfReader

from tether_build.print.cache import Cache
from tether_build.print.pdfparts.pdfasm import Writer
from tether_build.print.rulebook import book, reference


def _page_pdfs(refs) -> list[bytes]:
    """Each reference page (its stacked fragment) as a PDF of its own."""
    out = []
    for frag in refs.fragments.values():
        writer = Writer()
        form = writer.add_form(frag, frag.mediabox)
        content = writer.add(b"<</Length 11>>\nstream\nq /F Do Q\n\nendstream")
        page = writer.reserve()
        pages = writer.add(b"<</Type /Pages /Kids [%d 0 R] /Count 1>>" % page)
        box = b" ".join(b"%g" % v for v in frag.mediabox)
        writer.put(page, b"<</Type /Page /Parent %d 0 R /MediaBox [%s] /Contents %d 0 R "
                         b"/Resources <</XObject <</F %d 0 R>>>>>>" % (pages, box, content, form))
        root = writer.add(b"<</Type /Catalog /Pages %d 0 R>>" % pages)
        out.append(writer.write(b"/Root %d 0 R\n" % root))
    return out


def _pages_text(refs) -> list[str]:
    """The text of each reference page (its stacked fragment drawn on a page of its own)."""
    return [PdfReader(io.BytesIO(data)).pages[0].extract_text() for data in _page_pdfs(refs)]


def _reference(content, tmp_path):
    ctx, words, _ = book._context(content, content.root, Cache(tmp_path), ("a4",))
    return reference.pages(book._env(words), ctx, ("a4",), Cache(tmp_path))["a4"], ctx


def _heads(ctx) -> list[re.Pattern]:
    """A pattern per deck head as the PDF spells it: the deck's name, then its card count."""
    return [re.compile(re.escape(re.sub(r"<[^>]+>", "", str(d["name"])).strip())
                       + rf"\s+{d['count']} cards?") for d in ctx["decks"]]


def test_decks_follow_each_other_on_the_same_page(content, tmp_path, monkeypatch):
    refs, ctx = _reference(content, tmp_path)
    heads = _heads(ctx)
    texts = _pages_text(refs)
    assert len(texts) == len(refs.slots) >= 1
    joined = " ".join(texts)
    found = [h.search(joined) for h in heads]
    assert all(found) and [m.start() for m in found] == sorted(m.start() for m in found)
    assert any(sum(bool(h.search(t)) for h in heads) >= 2 for t in texts), \
        "no page holds two decks"
    # with no deck allowed to start below another, each deck starts a page of its own
    monkeypatch.setattr(reference, "MIN_START", 10_000.0)
    alone, _ = _reference(content, tmp_path)
    texts = _pages_text(alone)
    assert len(texts) > len(refs.slots)
    assert all(sum(bool(h.search(t)) for h in heads) <= 1 for t in texts)
    firsts = [next(i for i, h in enumerate(heads) if h.search(t)) for t in texts
              if any(h.search(t) for h in heads)]
    assert firsts == list(range(len(heads)))


def _glyphs(refs) -> list[Counter]:
    """Per reference page, every character drawn and where (pdfium, to 0.05 pt)."""
    import pypdfium2 as pdfium

    return [page_glyphs(pdfium.PdfDocument(data)[0]) for data in _page_pdfs(refs)]


def test_runs_of_rows_print_where_one_table_a_deck_would(content, tmp_path, monkeypatch):
    """A deck laid out in runs of rows (a text edit lays out its own run) prints every
    word where one table of the whole deck prints it: the same columns, the same rows,
    the same page breaks, and no second header where a run goes on below the one before."""
    monkeypatch.setattr(reference, "ROWS", 10_000)
    whole, ctx = _reference(content, tmp_path / "whole")
    assert max(len(d["rows"]) for d in ctx["decks"]) >= 4, "the fixture needs a longer deck"
    _, words, _ = book._context(content, content.root, Cache(tmp_path / "whole"), ("a4",))
    header = set("NameCostTypeText" + re.sub(r"<[^>]+>", "", str(words.html("[initiative]"))))
    pages = _glyphs(whole)
    for rows in (1, 2, 3):   # runs end and start at every place a page may break
        monkeypatch.setattr(reference, "ROWS", rows)
        assert len(reference.parts(ctx["decks"])) > len(ctx["decks"])
        runs, _ = _reference(content, tmp_path / f"runs{rows}")
        assert len(runs.slots) == len(whole.slots)
        for expected, got in zip(pages, _glyphs(runs), strict=True):
            missing, extra = _match(expected, got)
            assert not missing   # every character of one table a deck, in its place
            # and nothing more but the header a run repeats (clipped away, its text there)
            assert {char for char, _, _ in extra.elements()} <= header


def _match(expected: Counter, got: Counter, near: int = 2) -> tuple[Counter, Counter]:
    """(characters of `expected` that `got` does not draw within `near` / 20 pt of their
    place, characters of `got` left over): the same page drawn from other PDF pieces may
    place a glyph a few thousandths of a point off."""
    missing, extra = expected - got, got - expected
    for (char, x, y), n in list(missing.items()):
        for _ in range(n):
            match = next((k for k in extra if k[0] == char and abs(k[1] - x) <= near
                          and abs(k[2] - y) <= near), None)
            if match is None:
                continue
            extra[match] -= 1
            extra += Counter()   # drop zero counts
            missing[char, x, y] -= 1
    return missing + Counter(), extra


def test_a_text_edit_lays_out_its_own_run_of_rows_again(content, tmp_path, monkeypatch):
    from markupsafe import Markup

    from tether_build.print.layout import pdf

    monkeypatch.setattr(reference, "ROWS", 2)
    laid: list[str] = []
    render = pdf.Layout.render

    def counting(self, html):
        laid.append(html)
        return render(self, html)
    monkeypatch.setattr(pdf.Layout, "render", counting)
    ctx, words, _ = book._context(content, content.root, Cache(tmp_path), ("a4",))
    env = book._env(words)
    reference.pages(env, ctx, ("a4",), Cache(tmp_path))
    runs = reference.parts(ctx["decks"])
    # each run once, and again with its own first page when it goes on below the run before
    # and does not fit in the room left (runon.chain's whole_first)
    assert len(runs) <= len([h for h in laid if "rb-ref-fixed" in h]) < 2 * len(runs)
    deck = max(range(len(ctx["decks"])), key=lambda d: len(ctx["decks"][d]["rows"]))
    last = len(ctx["decks"][deck]["rows"]) - 1
    ctx["decks"][deck]["rows"][last]["text"] = Markup("Draw 1 card.")
    laid.clear()
    reference.pages(env, ctx, ("a4",), Cache(tmp_path))
    again = [h for h in laid if "rb-ref-fixed" in h]
    assert again and "Draw 1 card." in again[0]
    assert len(again) < len(runs)
    assert not any("rb-refdoc" in h and "rb-ref-fixed" not in h for h in laid)  # the probe
    # the runs before it, its own deck's first rows included, are not laid out again
    name = str(ctx["decks"][deck]["rows"][0]["name"])
    assert not any(name in h for h in again)


def test_a_part_that_cannot_start_below_the_one_before_starts_a_fresh_page(tmp_path):
    """WeasyPrint puts a block on a page that holds nothing else even if it does not fit:
    a part whose first page (the room the part before left) cannot hold its first block is
    laid out again on a fresh page, instead of running past the page's foot."""
    from pathlib import Path

    from tether_build.print.rulebook import runon

    _, height = runon.box()
    blocks = [height - 5.0, 20.0]   # the second part's block is taller than what is left

    def render(k: int, sizes: dict) -> str:
        first = f"@page :first {{ size: {sizes['first_size']}; }}" if sizes["first_size"] else ""
        return (f"<html><head><style>@page {{ size: {sizes['size']}; margin: {sizes['bleed']}; }}"
                f"{first} body {{ margin: 0; }} div {{ break-inside: avoid; }}</style></head><body>"
                f"<div style='height: {blocks[k]}mm'></div></body></html>")

    base = (Path(__file__).resolve().parents[2] / "templates").as_uri() + "/"
    links = runon.chain(2, render, "test", Cache(tmp_path), base, 0.0)
    assert links[0].fresh
    assert links[1].fresh and links[1].meta["pages"] == 1
    assert abs(links[1].meta["used"] - blocks[1]) < 0.1


def test_runs_after_a_run_that_grew_are_drawn_lower_not_laid_out_again(content, tmp_path,
                                                                       monkeypatch):
    """A text edit that makes its run of rows a few lines taller moves the runs after it down
    the page; each run that still fits in the room left is drawn lower from the layout it
    had (laid out on a whole page), so the edit lays out its own run alone."""
    from markupsafe import Markup

    from tether_build.print.layout import pdf
    from tether_build.print.rulebook import runon

    monkeypatch.setattr(reference, "ROWS", 2)
    laid: list[str] = []
    render = pdf.Layout.render
    monkeypatch.setattr(pdf.Layout, "render", lambda self, html: (laid.append(html),
                                                                  render(self, html))[1])
    chains: list = []
    chain = runon.chain
    monkeypatch.setattr(runon, "chain", lambda *a, **k: (chains.append(chain(*a, **k)),
                                                         chains[-1])[1])
    ctx, words, _ = book._context(content, content.root, Cache(tmp_path), ("a4",))
    env = book._env(words)
    before = reference.pages(env, ctx, ("a4",), Cache(tmp_path))
    links, runs = chains[-1], reference.parts(ctx["decks"])
    # a run with the run after it drawn lower, with room for a few more lines below that one
    _, height = runon.box()
    k = next(k for k in range(len(runs) - 1) if links[k + 1].lower
             and links[k + 1].lower + links[k + 1].meta["used"] < height - 25)
    deck, row, _ = runs[k]
    ctx["decks"][deck]["rows"][row]["text"] = Markup(" ".join(["Draw 1 card."] * 12))
    laid.clear()
    after = reference.pages(env, ctx, ("a4",), Cache(tmp_path))
    again = chains[-1]
    assert laid and "Draw 1 card. Draw 1 card." in laid[0]   # its own run
    # every run after it that fitted where it was, and fits where it moved, is drawn from the
    # layout it had: not laid out again (the runs a page's foot now cuts are)
    moved = [j for j in range(k + 1, len(runs))
             if again[j].lower and links[j].lower and again[j].lower > links[j].lower]
    assert len(moved) >= 3
    for j in moved:
        deck, row, _ = runs[j]
        name = str(ctx["decks"][deck]["rows"][row]["name"])
        assert not any(name in h for h in laid), f"run {j} was laid out again"
        assert again[j].data == links[j].data
    assert len(laid) < len(moved)
    assert after["a4"].fragments != before["a4"].fragments
    # the same bytes as laying the edited reference out with nothing in the cache
    clean = reference.pages(env, ctx, ("a4",), Cache(tmp_path / "clean"))
    assert {k: f.to_bytes() for k, f in clean["a4"].fragments.items()} == {
        k: f.to_bytes() for k, f in after["a4"].fragments.items()}
    texts = " ".join(_pages_text(after["a4"]))
    assert texts.count("Draw 1 card.") >= 12
