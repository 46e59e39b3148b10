"""Every tile and token sheet names itself: title, version, "Sheet i/n" and what it holds,
printed whole (measured in the font it prints in), and the 8 mm markers of every colour
share their strips instead of a half-empty row per colour (issue 42 review)."""

from __future__ import annotations

import math

import pytest
from tether_print_helpers import print_build as _print_build

from tether_build.errors import ContentError
from tether_build.print.tiles import common, fitcheck, textwidth, tiles, tokens


@pytest.fixture(scope="module")
def print_build(tmp_path_factory):
    return _print_build(tmp_path_factory)


def _headed(content, paper, title="The Last Tether 0.1.0 (g1a2b3c4)"):
    pages = tokens._labelled(tokens.token_set(content), tokens.sheet_area(paper), content)
    return tokens.with_heads(pages, paper, title)


@pytest.mark.parametrize("paper", list(common.PAPERS))
def test_every_token_sheet_head_prints_whole(content, paper):
    headed = _headed(content, paper)
    assert tokens.head_overflows(headed) == []
    for n, page in enumerate(headed, start=1):
        head = page[0]
        assert head["shape"] == "header" and f"Sheet {n}/{len(headed)}" in head["face"]["title"]
        lines, size = head["face"]["lines"], head["face"]["size"]
        assert 1 <= len(lines) <= tokens.HEAD_LINES and size >= tokens.HEAD_MIN_MM
        for line in lines:   # no line runs off the page (the old estimate clipped one)
            assert textwidth.text_mm(line, size, "sans") <= head["w"], (n, line)
        # every token on the sheet is counted in its line
        counted = sum(int(w.split(" ", 1)[0]) for part in " ".join(lines).split("; ")
                      for w in part.rpartition(": ")[2].split(", "))
        each = [part for part in " ".join(lines).split("; ") if " (each): " in part]
        extra = sum((len(p.split(" (each): ")[0].split(", ")) - 1)
                    * sum(int(w.split(" ", 1)[0]) for w in p.split(" (each): ")[1].split(", "))
                    for p in each)
        assert counted + extra == len(page) - 3, n   # less the head and the two tick columns


def test_factions_with_the_same_tokens_share_one_entry():
    page = [{"name": "HP marker", "faction": f} for f in ("Leadbound", "Cipher")
            for _ in range(4)] + [{"name": "Bridge", "faction": None}] * 3
    assert tokens._contents(page) == "Leadbound, Cipher (each): 4 HP marker; 3 Bridge"


def test_a_head_too_long_to_print_is_refused(content):
    headed = _headed(content, "a4", title="The Last Tether " + "very long " * 30)
    over = tokens.head_overflows(headed)
    assert over and over[0][1] == "title" and "mm past the head" in over[0][2]
    page = [{"name": "Enduring Permanence", "faction": f"Faction number {k}", "x": 20.0,
             "y": 30.0, "w": 8.0, "h": 8.0, "shape": "rect"} for k in range(60)]
    long = tokens.with_heads([page], "a4", "T")
    assert [o[:2] for o in tokens.head_overflows(long)] == [(1, "contents")]
    sheet = common.Pdf(b"%PDF-1.4")
    sheet.head_overflows = tuple(tokens.head_overflows(long))
    with pytest.raises(ContentError) as err:
        fitcheck.check(content, [], [], {"print/tokens-a4.pdf": sheet})
    problem = err.value.problems[0]
    assert problem.field == "tokens.sheet1.contents" and problem.path == "content/factions.yaml"
    assert "tokens-a4.pdf sheet 1" in problem.message


@pytest.mark.parametrize("paper", list(common.PAPERS))
def test_markers_of_every_colour_share_their_strips(content, paper):
    pages = tokens.pack(tokens.token_set(content), tokens.sheet_area(paper), content)
    markers = [i for page in pages for i in page if i["shape"] == "rect" and i["w"] == 8.0]
    assert markers
    per_row = int((tokens.sheet_area(paper)[2] + tokens.GUTTER_MM) // (8.0 + tokens.GUTTER_MM))
    rows = {(id(page), round(i["y"], 3)) for page in pages for i in page
            if i["shape"] == "rect" and i["w"] == 8.0}
    assert len(rows) <= math.ceil(len(markers) / per_row) + 1   # a page break may add one


def _head_line(page) -> str:
    """The text run of a page that holds "Sheet " (the head line in the bottom margin)."""
    runs = []
    page.extract_text(visitor_text=lambda text, *_: runs.append(text))
    return next(run for run in runs if "Sheet " in run).strip()


@pytest.mark.parametrize("paper", list(common.PAPERS))
def test_every_tile_sheet_names_itself_and_what_it_holds(print_build, content, paper):
    from pypdf import PdfReader

    pdf = PdfReader(print_build / f"tiles-{paper}.pdf")
    title = common.plain(content, content.game["title"]).replace(" ", "")
    names = {}
    for spec in tiles.tile_set(content):
        info = common.tile_info(content, spec.kind)
        names[info["name"]] = names[info["plural"]] = spec.kind
    held: dict[str, int] = {}
    for n, page in enumerate(pdf.pages, start=1):
        head = _head_line(page)
        before, _, what = head.partition(f" · Sheet {n}/{len(pdf.pages)}: ")
        assert what, (paper, n, head)
        assert before.replace(" ", "").startswith(title) and str(content.game["version"]) in before
        for part in what.split(", "):
            k, name = part.split(" ", 1)
            held[names[name]] = held.get(names[name], 0) + int(k)
    want: dict[str, int] = {}
    for spec in tiles.tile_set(content):
        want[spec.kind] = want.get(spec.kind, 0) + spec.count
    assert held == want


def test_a_text_is_measured_once_whatever_the_sizes_tried():
    words = "Sheet 3/6: 20 Cohort 1, 6 Cohort 5 (Court)"
    font = textwidth._font("sans")
    before = textwidth._length.cache_info().hits
    sizes = [2.6 - 0.05 * k for k in range(10)]
    assert [textwidth.text_mm(words, size, "sans") for size in sizes] == \
        [font.getlength(words) / 1000 * size for size in sizes]
    assert textwidth._length.cache_info().hits - before >= len(sizes) - 1
