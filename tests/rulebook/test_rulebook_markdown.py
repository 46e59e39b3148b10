"""Rules chapters (front matter, constants, tokens, directives), exact odds, templates."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

import pytest
from click.testing import CliRunner

from tether_build.cli import main
from tether_build.content import text as textmod
from tether_build.content.validate import validate
from tether_build.print.rulebook import odds
from tether_build.print.rulebook.chapters import check_chapters, render_chapters
from tether_build.print.rulebook.directives import DIRECTIVES, Ctx
from tether_build.print.rulebook.words import Words

ROOT = Path(__file__).resolve().parents[2]


def _ctx(content):
    return Ctx(content, Words(content), lambda: {"decks": [], "tiles": [], "tokens": [],
                                                  "totals": {"cards": 0, "tiles": 0,
                                                             "tokens": 0}})


def _chapter(content_dir: Path, body: str, name: str = "99-test.md") -> Path:
    path = content_dir / "rules" / name
    path.write_text(f"---\ntitle: \"Test [force:pl]\"\nid: test\n---\n\n{body}\n")
    return path


def test_shipped_chapters_render_without_problems(content):
    chapters, problems = render_chapters(_ctx(content), ROOT / "tests" / "fixtures" / "content" / "rules", ROOT)
    assert problems == []
    ids = [c.id for c in chapters]
    assert len(ids) == len(set(ids)) == len(list((ROOT / "tests" / "fixtures" / "content" / "rules").glob("*.md")))
    used = {d for c in chapters for d in c.directives}
    assert used == set(DIRECTIVES), "every directive is used by a chapter, and only those"


def test_chapters_read_from_the_render_cache_are_the_chapters_rendered(content, tmp_path):
    """Each chapter's HTML is kept in the render cache under its Markdown: a second reading
    finds every one there and gives the same chapters; an edit parses its chapter alone."""
    from tether_build.print.cache import Cache

    rules = ROOT / "tests" / "fixtures" / "content" / "rules"
    plain, _ = render_chapters(_ctx(content), rules, ROOT)
    cache = Cache(tmp_path)
    first, _ = render_chapters(_ctx(content), rules, ROOT, cache)
    kept = {p.name for p in (tmp_path / "chapterhtml").glob("*.bin")}
    assert len(kept) == len(plain)
    again, _ = render_chapters(_ctx(content), rules, ROOT, cache)
    assert [c.html for c in again] == [c.html for c in first] == [c.html for c in plain]
    assert cache.hits >= len(plain)
    copy = tmp_path / "rules"
    copy.mkdir()
    for path in rules.glob("*.md"):
        (copy / path.name).write_text(path.read_text())
    edited = min(copy.glob("*.md"))
    edited.write_text(edited.read_text() + "\nOne more sentence.\n")
    render_chapters(_ctx(content), copy, ROOT, cache)
    assert len({p.name for p in (tmp_path / "chapterhtml").glob("*.bin")} - kept) == 1


def test_rules_text_has_no_literal_digits_left_for_constants():
    """Numbers the rules name come from game.yaml; only list numbering stays literal."""
    for path in sorted((ROOT / "tests" / "fixtures" / "content" / "rules").glob("*.md")):
        body = path.read_text().split("---", 2)[2]
        for n, line in enumerate(body.splitlines(), 1):
            line = re.sub(r"\{\{.*?\}\}", "", re.sub(r"^\s*\d+\.\s", "", line))
            assert not re.search(r"(?<![\w\[])\d+(?![\w\]])", line), f"{path.name}: {line}"


def test_constants_are_interpolated(content):
    chapters, _ = render_chapters(_ctx(content), ROOT / "tests" / "fixtures" / "content" / "rules", ROOT)
    reset = next(c for c in chapters if c.id == "reset")
    assert f"<strong>{content.game['resources']['max_mana']}</strong>" in reset.html
    scoring = next(c for c in chapters if c.id == "scoring")
    assert "{{" not in scoring.html and "[vp]" not in scoring.html


def test_unknown_constant_token_directive_and_literal_name_are_located(content_copy):
    _chapter(content_copy, "Line one.\n\nYou get {{ resources.max_mama }} {mana}.\n\n"
                           "Move a [stak].\n\n::: combat-exampel\n\nEach Cohort rolls.")
    content = validate(content_copy)
    problems = check_chapters(content, content_copy / "rules", content_copy.parent)
    assert [p.path for p in problems] == ["content/rules/99-test.md"] * 4
    by_line = {p.line: p for p in problems}
    assert "max_mama" in by_line[8].message and "resources.max_mana" in by_line[8].hint
    assert "[stak]" in by_line[10].message and "stack" in by_line[10].hint
    assert "combat-exampel" in by_line[12].message and "combat-example" in by_line[12].hint
    assert "'Cohort' typed literally" in by_line[14].message and "[force]" in by_line[14].hint


@pytest.mark.parametrize("expression", [
    '{{ cycler.__init__.__globals__.os.system("touch PWNED") }}',
    "{{ 'x' * 10**10 }}",
    "{% for i in range(10**10) %}x{% endfor %}",
    "{{ resources.max_mana | attr('__class__') }}",
])
def test_rules_constants_are_plain_lookups_never_code(content_copy, expression, tmp_path,
                                                      monkeypatch):
    """A chapter cannot run code or loop: only a constant's path is allowed (issue 17.1)."""
    monkeypatch.chdir(tmp_path)
    _chapter(content_copy, f"Line one.\n\nMana: {expression}.")
    content = validate(content_copy)
    problems = check_chapters(content, content_copy / "rules", content_copy.parent)
    assert {(p.path, p.line) for p in problems} == {("content/rules/99-test.md", 8)}
    assert not (tmp_path / "PWNED").exists()


def test_constant_forms_fill_lists_mappings_and_arithmetic():
    from tether_build.content.constants import fill
    game = {"b": {"values": {4: 50, 5: 30}, "dist": [2, 3], "n": 3}}
    text, problems = fill("{{ b.values | keys | or }}; {{ b.values | chances }}; "
                          "{{ b.dist | and }}; {{ b.n - 1 }}; {{b.n}}", game)
    assert problems == []
    assert text == "4 or 5; 4 (50%), 5 (30%); 2 and 3; 2; 3"


def test_designer_html_is_escaped_and_tokens_become_terms(content_copy):
    _chapter(content_copy, "A <b>bold</b> claim about [force:pl] & {gold}.")
    content = validate(content_copy)
    chapters, problems = render_chapters(_ctx(content), content_copy / "rules",
                                         content_copy.parent)
    assert problems == []
    html = next(c for c in chapters if c.id == "test").html
    assert "&lt;b&gt;bold&lt;/b&gt;" in html and "<b>bold</b>" not in html
    assert '<span class="term">Cohorts</span>' in html and "&amp;" in html
    assert 'alt="Gold"' in html


def test_missing_front_matter_is_an_error(content_copy):
    (content_copy / "rules" / "98-bad.md").write_text("# no front matter\n")
    content = validate(content_copy)
    problems = check_chapters(content, content_copy / "rules", content_copy.parent)
    assert any(p.path.endswith("98-bad.md") and "front matter" in p.message
               for p in problems)


@pytest.mark.parametrize("name", sorted(DIRECTIVES))
def test_every_directive_renders_from_content(content, name):
    html = str(DIRECTIVES[name](_ctx(content)))
    assert html.strip().startswith("<") and "[" not in re.sub(r"<[^>]+>", "", html)


def test_exact_odds():
    p = odds.p_hit(2, 6)
    assert p == Fraction(1, 3)
    battle = odds.Battle(dice=1, hit=2, sides=6)
    win, lose, both, rounds = battle.outcome(1, 1)
    # 1 v 1: per round P(only A hits) = 2/9, P(only D) = 2/9, P(both) = 1/9, P(none) = 4/9
    assert (win, lose, both) == (Fraction(2, 5), Fraction(2, 5), Fraction(1, 5))
    assert rounds == Fraction(9, 5)
    for a in range(1, 5):
        for d in range(1, 5):
            assert sum(battle.outcome(a, d)[:3]) == 1
    assert odds.distinct_hit(2, 2) == (0, Fraction(1, 2), Fraction(1, 2))
    assert odds.percent(Fraction(1, 3)) == "33%"
    assert odds.percent(Fraction(1, 1000)) == "<1%" and odds.percent(1 - Fraction(1, 1000)) \
        == ">99%"


def test_rulebook_templates_name_no_game_word_literally(content):
    """Headings in templates/rulebook use glossary tokens, so a rename reaches them."""
    literal = textmod.literal_names(content.terms)
    for path in sorted((ROOT / "templates" / "rulebook").glob("*.html")):
        source = re.sub(r"\{#.*?#\}", "", path.read_text(), flags=re.DOTALL)
        source = re.sub(r"\{[{%].*?[}%]\}", lambda m: " ".join(
            re.findall(r'"([^"]*)"', m.group(0))), source, flags=re.DOTALL)
        text = textmod.strip_tokens(re.sub(r"<[^>]+>", " ", source))
        for pattern, tid in literal:
            m = pattern.search(text)
            assert m is None, f"{path.name}: {m.group(0)!r} should be [{tid}]"


def test_figures_come_from_the_board_generator(content):
    from tether_build.engine.board import generate_board
    from tether_build.print.rulebook import svg

    _, facts = svg.distance_figure(content)
    assert facts["distance"] == 2 and facts["steps"] == 3  # bridges make the way longer
    for players in range(2, 7):
        figure, facts = svg.board_diagram(content, players)
        board = generate_board(players, svg.BOARD_SEED, content.game)
        labels = re.findall(r"<text[^>]*>([^<]*)</text>", str(figure))
        mines = [str(h["mine_value"]) for h in board.hexes if h["tile"] == "mine"]
        assert sorted(labels) == sorted(mines + list(board.capitals()))
        assert facts["slots"] == sorted(board.capitals())


def test_rulebook_reports_chapter_problems_without_a_traceback(content_copy, tmp_path):
    (content_copy / "rules" / "99-bad.md").write_text(
        "---\ntitle: Bad\nid: bad\n---\n\nYou get {{ resources.max_mama }} [forcee].\n")
    result = CliRunner().invoke(main, ["rulebook", "--content", str(content_copy),
                                       "--out", str(tmp_path / "out"), "--quiet"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "content/rules/99-bad.md:6:" in result.output and "max_mana" in result.output
    assert "did you mean 'force'?" in result.output
    assert not (tmp_path / "out").exists()  # nothing written


@pytest.mark.parametrize("src", ["/dev/zero", "../../../../etc/hostname.png",
                                 "http://example.org/x.png", "rules/missing.png",
                                 "data:image/png;base64,AAAA", "cards/starter.yaml"])
def test_rules_images_only_from_the_content_folder(content_copy, src):
    """An image outside content/ and templates/, remote, missing or not an image is a
    located error, never read (issue 17.2)."""
    _chapter(content_copy, f"Line one.\n\n![]({src})")
    content = validate(content_copy)
    problems = check_chapters(content, content_copy / "rules", content_copy.parent)
    assert [(p.path, p.line) for p in problems] == [("content/rules/99-test.md", 8)]
    assert "image" in problems[0].message


def test_rules_image_inside_content_is_shown(content_copy):
    img = content_copy / "rules" / "img"
    img.mkdir()
    (img / "map.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>')
    _chapter(content_copy, "![](rules/img/map.svg)")
    content = validate(content_copy)
    chapters, problems = render_chapters(_ctx(content), content_copy / "rules",
                                         content_copy.parent)
    assert problems == []
    html = next(c for c in chapters if c.id == "test").html
    assert (img / "map.svg").resolve().as_uri() in html


def test_a_clean_chapter_is_not_checked_again_until_the_glossary_changes(content_copy,
                                                                         tmp_path,
                                                                         monkeypatch):
    """A chapter whose tokens and names were checked and found clean is kept so in the
    render cache: the next build does not read it line by line again, unless its text, the
    glossary or the code changed (a rename can make its words a glossary name)."""
    from tether_build.print.cache import Cache
    from tether_build.print.rulebook.chapters import ChapterRenderer

    cache = Cache(tmp_path / "cache")
    _chapter(content_copy, "A Legion rolls.")
    checked: list[str] = []
    real = ChapterRenderer._tokens

    def counting(self, line, shown, lineno):
        checked.append(shown)
        return real(self, line, shown, lineno)
    monkeypatch.setattr(ChapterRenderer, "_tokens", counting)

    def problems(content_dir: Path) -> list:
        checked.clear()
        content = validate(content_dir)
        return render_chapters(_ctx(content), content_dir / "rules", content_dir.parent,
                               cache)[1]
    assert problems(content_copy) == [] and "content/rules/99-test.md" in checked
    assert problems(content_copy) == [] and checked == []   # kept as clean
    terms = content_copy / "terms.yaml"
    terms.write_text(terms.read_text().replace('singular: "Cohort"', 'singular: "Legion"', 1))
    found = problems(content_copy)
    assert [p.message for p in found] == ["glossary name 'Legion' typed literally"]


def test_distance_figure_bridges_cover_no_label(content):
    """No Bridge bar touches a label's box (a bar once covered the '2' of hex B)."""
    import math
    import re as _re

    from tether_build.print.rulebook import svg

    html, _ = svg.distance_figure(content)
    bars = [(*map(float, m.groups()[:4]), float(m.group(5))) for m in _re.finditer(
        r'<line x1="([\d.-]+)" y1="([\d.-]+)" x2="([\d.-]+)" y2="([\d.-]+)" '
        r'stroke="#6b4a2b" stroke-width="([\d.]+)"', str(html))]
    labels = [(float(x), float(y), float(size), value) for x, y, size, value in _re.findall(
        r'<text x="([\d.-]+)" y="([\d.-]+)" font-size="([\d.]+)"[^>]*>([^<]*)</text>',
        str(html))]
    assert bars and labels

    def gap(px, py, x1, y1, x2, y2):
        dx, dy = x2 - x1, y2 - y1
        t = max(0.0, min(1.0, ((px - x1) * dx + (py - y1) * dy) / (dx * dx + dy * dy)))
        return math.hypot(px - x1 - t * dx, py - y1 - t * dy)

    for x, baseline, size, value in labels:
        w, h = 0.62 * size * len(value), 0.75 * size   # the glyphs' box, generously
        top = baseline - h
        corners = [(x + sx * w / 2, top + sy * h) for sx in (-1, 0, 1) for sy in (0, 0.5, 1)]
        for x1, y1, x2, y2, width in bars:
            assert min(gap(cx, cy, x1, y1, x2, y2) for cx, cy in corners) > width / 2, \
                f"a Bridge bar touches the label {value!r} at ({x}, {baseline})"


def test_player_aid_bids_come_from_the_bid_draft_chapter(tmp_path, content):
    """The aid's bidding box is the [bid_draft] chapter's section naming the [buy_bid]
    (buy and pass bids, payment, roll-off), in glossary words; without it, a located error."""
    from tether_build.errors import TetherError
    from tether_build.print.rulebook import aid

    words = Words(content)
    rules = ROOT / "tests" / "fixtures" / "content" / "rules"
    chapters, problems = render_chapters(_ctx(content), rules, ROOT)
    assert not problems
    html = str(aid.bids(chapters, words))
    source = (rules / "06-bid-draft.md").read_text()
    assert "<h2" not in html and 'class="rb-aid-sub"' in html
    for tid in ("buy_bid", "pass_bid", "pass_pot", "die"):
        assert str(words.html(f"[{tid}]")) in html, tid
    assert html.count("<ol>") == source.count("\n1. ") - 1   # both resolutions, not the row
    assert "whole" in html and "lowest" in html
    chapter = next(c for c in chapters if c.id == "bid_draft")
    shorn = [type(chapter)(**{**chapter.__dict__, "html": "<h2>Bidding</h2><p>none</p>"})]
    with pytest.raises(TetherError, match="bid_draft"):
        aid.bids(shorn, words)
