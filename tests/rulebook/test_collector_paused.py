"""The rulebook's documents are laid out, measured and written with the garbage collector
paused from their first layout to their PDF (forking.collector_paused): a part of the book
(runon._entry) and a paper's book (book._layout); it is restored after."""

from __future__ import annotations

import gc

from tether_build.print.cache import Cache
from tether_build.print.rulebook import book, runon


def test_a_part_is_laid_out_and_written_with_the_collector_paused(tmp_path, monkeypatch):
    seen = []

    def lay_out(html, kind, cache, base, first, measure, key):
        seen.append(gc.isenabled())
        return {"pages": 1, "used": 5.0, "slots": []}, b"%PDF"

    monkeypatch.setattr(runon, "_lay_out", lay_out)
    assert gc.isenabled()
    html, base = "<p>a part</p>", (tmp_path / "x").as_uri()
    meta, data = runon._entry(html, "bookch", Cache(tmp_path), base, 100.0, None, False)
    assert (meta["used"], data) == (5.0, b"%PDF")
    assert seen == [False] and gc.isenabled()


def test_a_papers_book_is_laid_out_and_written_with_the_collector_paused(monkeypatch):
    seen = []

    def laid_out(paper):
        seen.append(gc.isenabled())
        return paper, b"%PDF", [], 1

    monkeypatch.setattr(book, "_laid_out", laid_out)
    assert gc.isenabled()
    assert book._layout("a4") == ("a4", b"%PDF", [], 1)
    assert seen == [False] and gc.isenabled()


def test_the_reference_probe_is_laid_out_and_measured_with_the_collector_paused(
        tmp_path, monkeypatch):
    from types import SimpleNamespace

    from tether_build.print.rulebook import reference

    seen = []

    def probed(html, base):
        seen.append(gc.isenabled())
        return {"cols": ["1.0000px"], "header": 5.0, "rows": [4.0]}

    monkeypatch.setattr(reference, "_probed", probed)
    template = SimpleNamespace(render=lambda **context: "<table></table>")
    ctx = {"base": (tmp_path / "x").as_uri()}
    assert gc.isenabled()
    found = reference._probe("a4", template, ctx, Cache(tmp_path), False)
    assert found["header"] == 5.0 and seen == [False] and gc.isenabled()
    assert reference._probe("a4", template, ctx, Cache(tmp_path), True) == found  # cached


def test_the_process_forked_ahead_works_with_the_collector_off(tmp_path):
    """book._ahead's child ends with os._exit once its work is done: it never collects."""
    import multiprocessing

    import pytest

    if "fork" not in multiprocessing.get_all_start_methods():
        pytest.skip("no fork: nothing runs ahead")
    cache = Cache(tmp_path)
    wait = book._ahead(lambda: cache.put("test", "gc", str(gc.isenabled()).encode()),
                       cache, 2)
    wait()
    assert cache.get("test", "gc") == b"False" and gc.isenabled()


def test_a_papers_skeleton_is_read_with_the_collector_paused(tmp_path, monkeypatch):
    """book._layouts reads each paper's laid-out book back (stamp.skeleton, pypdf) with the
    collector paused: what it reads lives to the end."""
    from tether_build.print.rulebook import stamp

    seen = []

    def skeleton(pdf, placed, paper=None):
        seen.append(gc.isenabled())
        return stamp.Skeleton(b"%PDF-1.7", [], {}, b"", {})

    monkeypatch.setattr(stamp, "skeleton", skeleton)
    monkeypatch.setattr(runon, "each_paper",
                        lambda papers, work, **job: [(p, b"%PDF", [], 3) for p in papers])
    base = (tmp_path / "x").as_uri()
    found = book._layouts(("a4", "letter"), {"a4": "<p>b</p>", "letter": "<p>b</p>"}, base,
                          Cache(tmp_path))
    assert {p: found[p][2] for p in found} == {"a4": 3, "letter": 3}
    assert seen == [False, False] and gc.isenabled()
