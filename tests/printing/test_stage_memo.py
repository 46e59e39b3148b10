"""What a tiles or board stage lays out once for both papers (common.stage_memo): the
second paper's ask gets the same document, and the files are the bytes a stage of one paper
writes."""

from __future__ import annotations

from tether_build.print.tiles import boardmap, common, tokens


def test_a_stage_keeps_its_memo_while_it_runs_and_nothing_after(tmp_path):
    assert common.stage_memo("x") is not common.stage_memo("x")   # outside a stage: none
    with common.cached(tmp_path / "cache"):
        memo = common.stage_memo("x")
        memo["k"] = 1
        assert common.stage_memo("x") is memo
    assert common.stage_memo("x") == {}
    with common.cached(tmp_path / "cache"):
        assert common.stage_memo("x") == {}   # a new stage starts empty (--watch)


def test_a_maps_pieces_are_laid_out_once_for_both_papers(content, tmp_path, monkeypatch):
    data = boardmap.layout(2, 3, content.game)
    alone = {}
    for paper in common.PAPERS:   # a stage per paper, no render cache: nothing shared
        with common.cached(None):
            alone[paper] = bytes(boardmap.render_map(content, data, paper))
    asked = []
    render = common.render_html
    monkeypatch.setattr(common, "render_html",
                        lambda template, **kw: asked.append(template) or render(template, **kw))
    with common.cached(tmp_path / "cache"):
        both = {paper: bytes(boardmap.render_map(content, data, paper))
                for paper in common.PAPERS}
    assert both == alone
    assert asked.count("hexpieces.html.j2") == 1
    assert asked.count("map.html.j2") == len(common.PAPERS)   # (each paper's own pages)


def test_a_pieces_document_is_laid_out_once_a_stage_for_its_pieces_and_context(content):
    items = [{"w": tokens.COHORT_MM, "h": tokens.COHORT_MM, "shape": "circle",
              "face": tokens._disc("#EFECE6", value="1")}]
    context = tokens.piece_context(content)
    with common.cached(None):
        first = common.pieces_pdf("tokens.html.j2", items, tokens.BLEED_MM, **context)
        assert common.pieces_pdf("tokens.html.j2", [dict(items[0])], tokens.BLEED_MM,
                                 **context) is first
        other = common.pieces_pdf("tokens.html.j2", items, tokens.BLEED_MM,
                                  **{**context, "cut": "#000000"})
        assert other is not first and bytes(other) != bytes(first)
        pages = common.pdf_fragments(first)
        assert common.pdf_fragments(first) is pages and len(pages) == 1
    with common.cached(None):
        again = common.pieces_pdf("tokens.html.j2", items, tokens.BLEED_MM, **context)
    assert again is not first and bytes(again) == bytes(first)
