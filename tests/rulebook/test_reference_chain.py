"""The card reference is laid out one deck a document (reference.py), each deck going on
below the one before on the same printed page, so a card edit lays out its deck alone."""

from __future__ import annotations

import io
import re

from pypdf import PdfReader

from tether_build.render.cache import Cache
from tether_build.render.pdfasm import Writer
from tether_build.rulebook import book, reference


def _pages_text(refs) -> list[str]:
    """The text of each reference page (its stacked fragment drawn on a page of its own)."""
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
        pdf = writer.write(b"/Root %d 0 R\n" % root)
        out.append(PdfReader(io.BytesIO(pdf)).pages[0].extract_text())
    return out


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
