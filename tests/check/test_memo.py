"""`run_check(memo=)`, as `tether build` uses it: the scenario and sweep results are reused
while the definitions they play are unchanged, with current places and a fresh drift check;
the scenarios' results alone while the game constants they read are unchanged."""

from __future__ import annotations

from tether_build.check import run_check
from tether_build.content.cards import normalized_cards
from tether_build.content.validate import validate
from tether_build.print.cache import Cache

AGE1 = "cards/age1_market.yaml"
BROKEN = ("      - {step: deploy, count: 4, where: {own_capital: true}}\n\n  - id: escort_detail",
          ("      - {step: deploy, count: 4, where: {kind: [capital], not_capital: true}}\n\n"
          "  - id: escort_detail"))


def _edit(content_dir, old: str, new: str, rel: str = AGE1) -> None:
    path = content_dir / rel
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


def _check(content_dir, memo):
    content = validate(content_dir)
    return run_check(content, normalized_cards(content), games=3, memo=memo)


def _json(report) -> dict:
    return report.to_json(timings=False)


def test_text_edit_reuses_results_at_the_new_place(content_copy, tmp_path):
    memo = Cache(tmp_path / "memo")
    _edit(content_copy, *BROKEN)
    first = _check(content_copy, memo)
    assert not first.cached
    [fail] = [f for f in first.failures if f.subject == "paid_volunteers"]
    assert (fail.file, fail.line) == ("content/cards/age1_market.yaml", 96)
    # a longer text two lines higher (wrapped over one more line): every card below moves
    _edit(content_copy, 'text: "Deploy 4 [force:pl] into your [capital]."',
          'text: >-\n      Deploy 4 [force:pl]\n      into your [capital].')
    _edit(content_copy, "  - id: paid_volunteers", "  # recruited for pay\n  - id: paid_volunteers")
    again = _check(content_copy, memo)
    assert again.cached
    [fail] = [f for f in again.failures if f.subject == "paid_volunteers"]
    assert fail.line == 97
    assert again.subjects["paid_volunteers"]["line"] == 97
    assert again.subjects["escort_detail"]["line"] == first.subjects["escort_detail"]["line"] + 3
    assert _json(_check(content_copy, None)) == _json(again)   # same as without the memo


def test_text_drift_is_found_even_when_results_are_reused(content_copy, tmp_path):
    memo = Cache(tmp_path / "memo")
    assert _check(content_copy, memo).ok
    _edit(content_copy, 'text: "Gain +3 {gold}."', 'text: "Gain +4 {gold}."')
    report = _check(content_copy, memo)
    assert report.cached and not report.ok
    assert {d.card for d in report.drift} == {"trade_caravan"}


def test_effect_edit_plays_again(content_copy, tmp_path):
    memo = Cache(tmp_path / "memo")
    assert _check(content_copy, memo).ok
    _edit(content_copy, *BROKEN)
    report = _check(content_copy, memo)
    assert not report.cached
    assert "paid_volunteers" in {f.subject for f in report.failures}


def test_a_constant_no_scenario_reads_plays_the_sweep_again_alone(content_copy, tmp_path):
    memo = Cache(tmp_path / "memo")
    _edit(content_copy, *BROKEN)   # a failing scenario: its failure is kept with the results
    first = _check(content_copy, memo)
    assert not first.scenarios_reused
    _edit(content_copy, "round_cap: 10", "round_cap: 4", "game.yaml")
    capped = _check(content_copy, memo)
    assert capped.scenarios_reused and not capped.cached
    assert "paid_volunteers" in {f.subject for f in capped.failures if f.kind != "sweep"}
    assert capped.sweep != first.sweep   # (four rounds: the games end sooner)
    assert _json(capped) == _json(_check(content_copy, None))
    assert any("no game constant they read changed" in line for line in capped.summary())


def test_a_constant_the_scenarios_read_plays_them_again(content_copy, tmp_path):
    memo = Cache(tmp_path / "memo")
    _check(content_copy, memo)
    _edit(content_copy, "  size: 6", "  size: 5", "game.yaml")   # a hand's size
    report = _check(content_copy, memo)
    assert not report.scenarios_reused and not report.cached
    assert _json(report) == _json(_check(content_copy, None))


def test_the_card_examples_are_reused_while_what_they_read_holds(content_copy, tmp_path,
                                                                  monkeypatch):
    """The card examples' results are kept with the game constants read: a round cap edit
    (and lines moved above an example) reuses them, its failure at its new line; an edit of
    a constant they read runs them again. Either way the report is the memo-less one."""
    from tether_build.check import run as module

    ran: list[int] = []
    real = module.run_examples

    def counting(*args, **kwargs):
        ran.append(1)
        return real(*args, **kwargs)
    monkeypatch.setattr(module, "run_examples", counting)
    memo = Cache(tmp_path / "memo")
    starter = "cards/starter.yaml"
    _edit(content_copy, "players: [{gold: 3, mana: 0, discard: 1}]",
          "players: [{gold: 4, mana: 0, discard: 1}]", starter)   # an example that fails
    first = _check(content_copy, memo)
    [fail] = [f for f in first.failures if f.kind == "example"]
    assert ran == [1] and fail.file == "content/cards/starter.yaml"
    ran.clear()
    _edit(content_copy, "round_cap: 10", "round_cap: 4", "game.yaml")
    _edit(content_copy, "cards:\n", "cards:\n  # a note\n", starter)   # the example moves down
    capped = _check(content_copy, memo)
    assert ran == []
    [moved] = [f for f in capped.failures if f.kind == "example"]
    assert (moved.subject, moved.why) == (fail.subject, fail.why)
    assert moved.line == fail.line + 1
    assert _json(capped) == _json(_check(content_copy, None))
    ran.clear()
    _edit(content_copy, "  size: 6", "  size: 5", "game.yaml")   # a hand's size
    resized = _check(content_copy, memo)
    assert ran == [1]
    assert _json(resized) == _json(_check(content_copy, None))
