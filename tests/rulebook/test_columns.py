"""Rules text in two columns, with tables, figures and directive blocks across the page
(print/rulebook/columns.py): how a chapter's HTML is cut into runs."""

from __future__ import annotations

from tether_build.print.rulebook.columns import runs
from tether_build.print.rulebook.directives import ANATOMY


def _kinds(html: str) -> list[tuple[str, str]]:
    return [(r.kind, str(r.html)) for r in runs(html)]


def test_prose_runs_flow_in_columns_and_wide_blocks_cut_them():
    html = ("<h2>A</h2>\n<p>one <b>two</b></p>\n<ul><li>x</li></ul>\n"
            "<div class=\"rb-example\"><p>inside</p></div>\n<p>after</p>")
    assert _kinds(html) == [
        ("cols", "<h2>A</h2>\n<p>one <b>two</b></p>\n<ul><li>x</li></ul>"),
        ("wide", "<div class=\"rb-example\"><p>inside</p></div>"),
        ("cols", "<p>after</p>")]


def test_a_heading_goes_down_with_the_wide_block_it_introduces():
    html = ("<p>a</p>\n<h2>Odds</h2>\n<table><tr><th>A</th><th>B</th><th>C</th><th>D</th></tr>"
            "</table>")
    kinds = _kinds(html)
    assert [k for k, _ in kinds] == ["cols", "wide"]
    assert kinds[1][1].startswith("<h2>Odds</h2>")


def test_a_small_table_stays_in_its_column_a_wide_one_does_not():
    small = "<table><tr><th>Round</th><th>Age</th></tr><tr><td>1</td><td>I</td></tr></table>"
    wide = ("<table><tr><th>Players</th><th>Radius (steps from the centre to the edge)</th>"
            "</tr></table>")
    assert [k for k, _ in _kinds(f"<p>a</p>{small}<p>b</p>")] == ["cols"]
    assert [k for k, _ in _kinds(f"<p>a</p>{wide}<p>b</p>")] == ["cols", "wide", "cols"]


def test_text_icons_stay_in_columns_pictures_do_not():
    icon = '<p>Pay 1 <img class="icon" src="mana.svg"> Mana.</p>'
    picture = '<p><img src="board.png"></p>'
    assert [k for k, _ in _kinds(icon + picture)] == ["cols", "wide"]


def test_the_anatomy_figure_has_its_own_place_and_nothing_is_lost():
    html = f"loose <em>text</em>\n<p>a</p>\n{ANATOMY}\n<p>b &amp; c</p>\n<!-- a > b -->"
    kinds = _kinds(html)
    assert [k for k, _ in kinds] == ["cols", "anatomy", "cols"]
    assert "".join(h for _, h in kinds).replace("\n", "") == html.replace("\n", "")
