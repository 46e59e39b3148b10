"""`tether check` on the shipped content, and on copies broken on purpose."""

from __future__ import annotations

import json

from tether_cli import run_cli

from tests.conftest import CONTENT

AGE1 = "cards/age1_market.yaml"


def _check(content_dir, *extra: str):
    return run_cli("check", "--content", str(content_dir), *extra)


def _edit(content_dir, rel: str, old: str, new: str) -> None:
    path = content_dir / rel
    text = path.read_text()
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new))


def test_shipped_content_resolves(content):
    result = _check(CONTENT, "--games", "30")
    n = len(content.cards)
    assert result.exit_code == 0, result.output
    assert f"{n}/{n} cards resolve" in result.output
    assert "Champion abilities resolve" in result.output
    assert "faction passives resolve" in result.output
    assert "FAIL" not in result.output and "DRIFT" not in result.output


def test_json_report_is_complete(content):
    result = _check(CONTENT, "--json", "--games", "5", "--seed", "7")
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["ok"] is True
    assert report["cards"] == {"resolved": len(content.cards), "total": len(content.cards)}
    assert report["abilities"]["resolved"] == report["abilities"]["total"] > 0
    assert report["passives"]["resolved"] == report["passives"]["total"] > 0
    assert report["sweep"]["games"] == 5 and report["sweep"]["seed"] == 7
    ids = {c["id"] for c in content.cards}
    assert set(report["sweep"]["cards"]) == ids
    assert ids <= set(report["subjects"])
    assert all(s["ok"] for s in report["subjects"].values())
    assert report["scenarios"] >= len(ids)


def test_deploy_into_an_impossible_hex_fails(content_copy):
    _edit(content_copy, AGE1, "      - {step: deploy, count: 4, where: {own_capital: true}}\n\n"
          "  - id: escort_detail",
          "      - {step: deploy, count: 4, where: {kind: [capital], not_capital: true}}\n\n"
          "  - id: escort_detail")
    result = _check(content_copy, "--games", "0")
    assert result.exit_code == 1
    line = next(x for x in result.output.splitlines() if "paid_volunteers" in x)
    assert line.startswith("FAIL content/cards/age1_market.yaml:96: paid_volunteers:")
    assert "effect[0] deploy" in line and "no legal target" in line
    assert "Traceback" not in result.output
    assert "check failed" in result.output


def test_heal_of_a_champion_that_never_matches_fails(content_copy):
    _edit(content_copy, AGE1, "      - {step: draw, count: 1}\n    notes:\n"
          "      - \"Name kept as written: 'Market'",
          "      - {step: draw, count: 1}\n"
          "      - {step: heal, amount: 1, champion: {side: friendly, in: {kind: [capital], "
          "not_capital: true}}}\n    notes:\n      - \"Name kept as written: 'Market'")
    result = _check(content_copy, "--games", "0")
    assert result.exit_code == 1
    fails = [x for x in result.output.splitlines() if x.startswith("FAIL")]
    assert fails and all("scavengers_market" in x for x in fails), result.output
    assert "content/cards/age1_market.yaml:241" in fails[0]
    assert "effect[2] heal" in fails[0]


def test_text_number_that_disagrees_with_the_effect_fails(content_copy):
    _edit(content_copy, AGE1, 'text: "Gain +3 {gold}."\n    effect:\n'
          "      - {step: gain_gold, amount: 3}",
          'text: "Gain +4 {gold}."\n    effect:\n      - {step: gain_gold, amount: 3}')
    result = _check(content_copy, "--games", "0")
    assert result.exit_code == 1
    drift = [x for x in result.output.splitlines() if x.startswith("DRIFT")]
    assert drift == [
        ("DRIFT content/cards/age1_market.yaml:224: trade_caravan: text says 4 but no step "
        "of the effect has 4"),
        ("DRIFT content/cards/age1_market.yaml:224: trade_caravan: effect has 3 but the text "
        "never says 3")]
    assert "FAIL" not in result.output
    assert "check failed on text/effect drift: 2 text/effect drifts in 1 card" in result.output


def test_check_reuses_the_build_cache_and_gives_the_same_report(content_copy, tmp_path):
    """Issue 19.4: `tether check` after `tether build` reuses the build's check results."""
    import json

    cache = tmp_path / "build" / ".cache"
    cold = _check(content_copy, "--json", "--games", "5", "--cache", str(tmp_path / "none"))
    cache.mkdir(parents=True)
    first = _check(content_copy, "--json", "--games", "5", "--cache", str(cache))
    again = _check(content_copy, "--json", "--games", "5", "--cache", str(cache))
    reports = [json.loads(r.output) for r in (cold, first, again)]
    assert [r["cached"] for r in reports] == [False, False, True]
    for r in reports:
        r.pop("seconds", None)
        r.pop("cached", None)
    assert reports[0] == reports[1] == reports[2]


def test_a_check_that_failed_only_on_drift_says_so(content_copy):
    """Issue 41.7: the last line names drift, not a count of resolved cards."""
    _edit(content_copy, "cards/starter.yaml", 'text: "Gain +2 {gold}."', 'text: "Gain +3 {gold}."')
    result = _check(content_copy, "--games", "0")
    assert result.exit_code == 1
    last = result.output.strip().splitlines()[-1]
    assert last.startswith("Error: check failed on text/effect drift: 2 text/effect drifts "
                           "in 1 card"), last
    assert last.endswith("every card resolves")

