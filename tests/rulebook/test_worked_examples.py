"""The rulebook's worked examples come from engine runs (print/rulebook/examples.py, worked.py).

Each example is read from a real run on the fixture content: its names are the content's,
its numbers move when content's numbers move, the same content gives the same bytes, and
content where no run shows the procedure gives a located chapter error, not a crash or an
empty box.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tether_build.print.rulebook import examples as ex
from tether_build.print.rulebook.directives import DIRECTIVES, Ctx
from tether_build.print.rulebook.words import Words

NAMES = ("bid-example", "action-example", "siege-example", "setup-figure", "combat-example")


def _render(content) -> dict[str, str]:
    ex._RULES.clear()
    ex._RUNS.clear()
    ctx = Ctx(content, Words(content), dict)
    return {name: str(DIRECTIVES[name](ctx)) for name in NAMES}


def _text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.sub(r"<svg.*?</svg>", "", html,
                                                              flags=re.DOTALL)))


def _edited(content_copy: Path, old: str, new: str) -> object:
    from tether_build.content.validate import validate

    game = content_copy / "game.yaml"
    text = game.read_text(encoding="utf-8")
    assert old in text
    game.write_text(text.replace(old, new, 1), encoding="utf-8")
    return validate(content_copy)


@pytest.fixture(scope="module")
def rendered(content):
    return content, _render(content)


def test_examples_name_what_the_engine_did(rendered):
    content, html = rendered
    names = {c["id"]: c["name"] for c in content.cards}
    run, row = ex.bid_round(content)
    text = _text(html["bid-example"])
    for card in row["cards"]:
        assert names[card] in text                      # the row the engine revealed
    for sale in row["sales"]:                           # every bid the agents made
        for p, (kind, x) in sale["bids"].items():
            who = content.factions[run.factions[int(p)]]["name"]
            word = "Buy Bid" if kind == "buy" else "Pass Bid"
            assert f"{who} a {word} of {x}" in text
    run, step = ex.action_step(content)
    text = _text(html["action-example"])
    assert f"Round {step['round']}, Action Step {step['step']}" in text
    played = [d for d in step["declared"] if d["kind"] == "card"]
    assert len({d["init"] for d in played}) >= 2          # initiative decides the order
    for d in played:
        assert names[d["card_id"]] in text and f"Initiative {d['init']}" in text
    order = [e["card"] for e in step["events"] if e["e"] in ("resolved", "fizzled")]
    spots = [text.rindex(names[c]) for c in order]      # listed in the order they resolved
    assert spots == sorted(spots)
    assert "locking" in text                             # a locked target is named


def test_siege_is_fought_by_the_engine(rendered):
    content, html = rendered
    sg = ex.siege(content)
    assert sg["entered_battle"] is False                 # no battle on entering a Capital
    kinds = [e["e"] for e in sg["events"]]
    assert kinds[0] == "battle" and sg["events"][0]["siege"] is True
    rounds = kinds.count("round")
    text = _text(html["siege-example"])
    assert text.count("Combat Round ") == rounds and f"Combat Round {rounds}." in text
    hit = content.game["units"]["force"]["hit"]
    assert f"hits on {hit} or less" in text


def test_combat_example_is_a_battle_the_engine_fought(rendered):
    """§14: every die, hit and loss of the example is the engine's, and they add up."""
    content, html = rendered
    fought = ex.battle(content)
    hit = content.game["units"]["force"]["hit"]
    dice = content.game["units"]["force"]["dice"]
    text = _text(html["combat-example"])
    left = {"1": fought["attackers"], "0": fought["defenders"]}
    for r in fought["rounds"]:
        for p in ("0", "1"):
            assert sum(r["dice"][p]) == left[p] * dice         # every Cohort rolled
            assert r["hits"][p] == sum(r["dice"][p][:hit])      # hits on `hit` or less
            faces = [str(f) for f, k in enumerate(r["dice"][p], 1) for _ in range(k)]
            side = "Attacker" if p == "1" else "Defender"
            assert f"The {side} rolls {', '.join(faces)}: {r['hits'][p]} hit" in text
        for p, q in (("0", "1"), ("1", "0")):
            assert r["lost"][p] <= r["hits"][q]
            left[p] -= r["lost"][p]
    assert left == fought["after"] and 0 in left.values()      # fought to the death
    assert text.count("Combat Round ") == len(fought["rounds"]) + 1   # + "2.7 Combat Rounds"
    assert f"hits on {hit} or less" in text


def test_combat_example_follows_the_dice_content(content_copy, rendered):
    """Two dice a Cohort hitting on 1-3: the engine fights a different battle, and the
    example says so (its rolls, hits and losses, not only its numbers in the intro)."""
    _content, before = rendered
    content = _edited(content_copy, "force: {hp: 1, dice: 1, hit: 2}",
                      "force: {hp: 1, dice: 2, hit: 3}")
    ex._RULES.clear()
    ex._RUNS.clear()
    after = str(DIRECTIVES["combat-example"](Ctx(content, Words(content), dict)))
    fought = ex.battle(content)
    first = fought["rounds"][0]
    assert sum(first["dice"]["1"]) == 2 * fought["attackers"]
    assert first["hits"]["1"] == sum(first["dice"]["1"][:3])
    steps = re.search(r'<ol class="rb-steps">.*?</ol>', after, flags=re.DOTALL).group(0)
    old = re.search(r'<ol class="rb-steps">.*?</ol>', before["combat-example"],
                    flags=re.DOTALL).group(0)
    assert steps != old
    assert "rolls 2 Dice and hits on 3 or less" in _text(after)


def test_setup_figure_is_the_board_of_a_seeded_game(rendered):
    content, html = rendered
    run = ex.setup_state(content)
    svg = html["setup-figure"]
    assert svg.count("<polygon") == len(run.setup["tiles"])     # one hex per board hex
    for f in run.factions:                                      # Capitals in faction colour
        assert content.factions[f]["colour"] in svg
    assert f"seed {run.seed}" in _text(svg)
    assert len(run.setup["bridges"]) >= content.game["starting"]["bridges"]


def test_same_content_same_bytes(rendered):
    content, html = rendered
    assert _render(content) == html


def test_examples_follow_the_content(content_copy, rendered):
    """More starting Gold and Cohorts, a better hit number: the runs and the text change."""
    _content, before = rendered
    text = (content_copy / "game.yaml").read_text(encoding="utf-8")
    text = text.replace("start_gold: 4", "start_gold: 7", 1).replace(
        "force: {hp: 1, dice: 1, hit: 2}", "force: {hp: 1, dice: 1, hit: 3}", 1)
    text = re.sub(r"(starting:\n  forces:) 4", r"\1 5", text, count=1)
    (content_copy / "game.yaml").write_text(text, encoding="utf-8")
    from tether_build.content.validate import validate

    after = _render(validate(content_copy))
    assert "holds 5 Cohorts" in _text(after["setup-figure"])
    assert "has 7 Gold" in _text(after["setup-figure"])
    assert "hits on 3 or less" in _text(after["siege-example"])
    assert "Leadbound holds its Capital with 5 Cohorts" in _text(after["siege-example"])
    for name in NAMES:
        assert after[name] != before[name], name


def test_no_moment_is_a_located_chapter_error(content_copy):
    """No Buy Bid can ever be made and no Pass Pot holds Gold: the Bid-Draft example has
    nothing to show, and the chapter says so at its directive line."""
    from tether_build.print.rulebook.chapters import ChapterRenderer

    content = _edited(content_copy, "min_buy_bid: 1", "min_buy_bid: 999")
    ex._RULES.clear()
    ex._RUNS.clear()
    path = content_copy / "rules" / "06-bid-draft.md"
    line = path.read_text(encoding="utf-8").split("\n").index("::: bid-example") + 1
    chapter, problems = ChapterRenderer(Ctx(content, Words(content), dict)).render(
        path, "content/rules/06-bid-draft.md")
    assert chapter is None
    (p,) = problems
    shown = str(p)
    assert f"content/rules/06-bid-draft.md:{line}:1" in shown
    assert "worked example '::: bid-example'" in shown and "Pass Pot" in shown
    assert "[" not in shown   # glossary words, not tokens


def test_step_score_needs_two_initiatives():
    one = {"declared": [{"p": 0, "kind": "card", "init": 40, "targets": []},
                        {"p": 1, "kind": "march", "targets": []}], "events": []}
    same = {"declared": [{"p": 0, "kind": "card", "init": 40, "targets": []},
                         {"p": 1, "kind": "card", "init": 40, "targets": []}], "events": []}
    two = {"declared": [{"p": 0, "kind": "card", "init": 50, "targets": []},
                        {"p": 1, "kind": "card", "init": 40, "targets": []}],
           "events": [{"e": "resolved", "p": 1}, {"e": "resolved", "p": 0}]}
    assert ex.step_score(one) == 0 and ex.step_score(same) == 0
    assert ex.step_score(two) > 0


def test_lead_in_stays_with_its_figure():
    """worked.css: a heading and lead-in (in a two-column block) at a page's foot go over
    with the figure they introduce, not stay behind alone (the "Anatomy of a card" page)."""
    import weasyprint

    from tether_build.print.layout.patches import page_root

    css = (Path(__file__).resolve().parents[2] / "templates" / "rulebook" /
           "worked.css").read_text(encoding="utf-8")
    page = ("@page { size: A6; margin: 10mm } h2 { break-after: avoid } .rb-cols "
            "{ columns: 2 } figure { break-inside: avoid; height: 60mm; margin: 0 }")

    def pages(style: str) -> list[set[str]]:
        html = (f"<html><head><style>{page} {style}</style></head><body>"
                '<div style="height: 95mm"></div><div class="rb-cols"><h2>Anatomy</h2>'
                "<p>The numbers point at its parts:</p></div><figure>F</figure></body></html>")
        out = []
        for pg in weasyprint.HTML(string=html).render().pages:
            tags, todo = set(), [page_root(pg)]
            while todo:
                box = todo.pop()
                tags.add(box.element_tag)
                todo += list(getattr(box, "children", None) or [])
            out.append(tags & {"h2", "figure"})
        return out

    assert pages("") == [{"h2"}, {"figure"}]           # without it: stranded (the bug)
    assert {"h2", "figure"} in pages(css)              # with it: together


def test_action_step_board_letters_the_hexes_the_text_names(rendered):
    content, html = rendered
    run, step = ex.action_step(content)
    block = html["action-example"]
    figure = re.search(r'<figure class="rb-step-figure">.*?</figure>', block,
                       flags=re.DOTALL).group(0)
    assert figure.count("<polygon") == len(step["board"]["tiles"])
    letters = re.findall(r"(?:Hex|Mine|Forge) ([A-Z])\b", _text(block))
    for letter in set(letters):        # every letter in the text is on the board
        assert re.search(rf">{letter}</text>", figure), letter
    for p, f in enumerate(run.factions):   # each side's units drawn in its colour
        if any(q == p for here in step["board"]["units"].values() for q, _n, _c in here):
            assert f'fill="{content.factions[f]["colour"]}"' in figure


def test_runs_kept_in_the_render_cache_read_back_the_same(content, rendered, tmp_path,
                                                          monkeypatch):
    """The examples' engine runs kept in the render cache (examples.stored) give the same
    examples, byte for byte, as runs played with no cache; a damaged entry is played again."""
    from tether_build.print.cache import Cache

    cache = Cache(tmp_path / "cache")
    with ex.stored(cache):
        first = _render(content)        # played, and kept
    kept = sorted((tmp_path / "cache" / "rulebook-run").glob("*.bin"))
    assert kept, "no run was kept"
    def played(*_args, **_kw):
        raise AssertionError("a kept run was played again")

    with monkeypatch.context() as m:
        m.setattr("tether_build.engine.setup.new_game", played)
        m.setattr("tether_build.engine.scenario.scenario", played)
        with ex.stored(cache):
            again = _render(content)    # read back: nothing played
    assert first == again == rendered[1]
    for path in kept:   # cut entries: a miss, played again, the same examples
        path.write_bytes(path.read_bytes()[:40])
    with ex.stored(cache):
        assert _render(content) == rendered[1]


def test_a_text_edit_keeps_the_runs_key(content):
    """The runs' key leaves the cards' text out (check/memo.play_form): a card's text edit
    reads the kept runs; its effect is in the key."""
    import json

    from tether_build.print.cache import Cache

    ex._RULES.clear()
    with ex.stored(Cache(Path("unused"))):
        key = ex._memo_key(content, "play", 3, 1)
        compiled = ex._compiled(content)[2]
        doc = json.loads(compiled["cards.json"])
        doc["cards"][0]["text"] = "Reworded."
        compiled["cards.json"] = json.dumps(doc).encode()
        ex._RULES[id(content)] = ex._RULES[id(content)][:3]   # (the key hashed again)
        assert ex._memo_key(content, "play", 3, 1) == key
        assert ex._memo_key(content, "play", 3, 2) != key
    ex._RULES.clear()
