"""`tether balance`: the report's numbers on small seeded runs of the fixture content."""

from __future__ import annotations

import json

import pytest

from tether_build.analysis import html, runner, stats
from tether_build.effects.compile import normalize_steps


def _spec(games=12, players=2, agents=("heuristic",), seed=0):
    return {"games": games, "players": players, "seed": seed, "agents": list(agents),
            "factions": None, "options": None}


def _report(compiled, spec, workers=1):
    rules = runner.rules_of(compiled)
    recs = runner.run(compiled, spec, workers=workers)
    return stats.report(recs, spec, [c.id for c in rules.cards]), recs


def _edit(compiled, name, fn):
    data = json.loads(compiled[name])
    fn(data)
    return {**compiled, name: json.dumps(data).encode()}


def test_same_report_for_one_and_two_workers(compiled):
    spec = _spec(games=30, agents=("random",))
    a, ra = _report(compiled, spec, workers=1)
    b, rb = _report(compiled, spec, workers=2)
    assert ra == rb and a == b
    assert sum(v["n"] for v in a["factions"]["win_rate"].values()) == 60


def test_an_absurdly_strong_card_tops_the_win_when_played_rate(compiled):
    """One faction's Champion card also gives 8 Permanence when played (the goal)."""
    facs = json.loads(compiled["factions.json"])["factions"]
    champ = facs[min(facs)]["champion"]

    def strong(data):
        for c in data["cards"]:
            if c["id"] == champ:
                c["effect"] = c["effect"] + normalize_steps(
                    [{"step": "gain_vp", "amount": 8}], "test")
    rep, _ = _report(_edit(compiled, "cards.json", strong), _spec(games=30))
    rows = [c for c in rep["cards"] if c["played_in_games"] >= 5]
    top = max(rows, key=lambda c: (c["win_when_played_in"], c["played_in_games"]))
    assert top["card"] == champ and top["win_when_played_in"] > 0.9


def test_an_absurdly_weak_faction_is_at_the_bottom_of_the_matrix(compiled):
    facs = json.loads(compiled["factions.json"])["factions"]
    weak = sorted(facs)[1]

    def starve(data):  # no Mana and no Gold at the start of every round
        data["factions"][weak]["passives"].append({
            "name": "Starved", "trigger": "round_start", "condition": None, "idea": False,
            "keyword": None, "limit": "unlimited", "modifier": None,
            "steps": normalize_steps([{"step": "set_mana", "amount": 0},
                                      {"step": "lose_gold", "amount": 99}], "test")})
    rep, _ = _report(_edit(compiled, "factions.json", starve), _spec(games=30))
    m = rep["factions"]["matrix"]
    row = {f: sum(c["rate"] for c in cols.values() if c) / sum(1 for c in cols.values() if c)
           for f, cols in m.items()}
    assert min(row, key=row.get) == weak and row[weak] < 0.25
    assert rep["factions"]["win_rate"][weak]["rate"] == min(
        v["rate"] for v in rep["factions"]["win_rate"].values())


def test_report_files_and_removal_comparison(compiled, tmp_path):
    from tether_build.analysis import figures, verdicts

    spec = _spec(games=8, agents=("random",))
    rep, recs = _report(compiled, spec)
    card = next(c for c in json.loads(compiled["cards.json"])["cards"]
                if c.get("deck") != "faction")["id"]
    gone = runner.run(runner.without(compiled, card), spec, workers=1)
    facs = sorted(rep["factions"]["win_rate"])
    cmp = {"rows": figures.paired(figures.Games(gone, facs), figures.Games(recs, facs)),
           "verdict": verdicts.edit(gone, recs, {}, 10)}
    assert all("ci95" in r and "differs" in r for r in cmp["rows"])
    written = html.write(rep, tmp_path, {f"Without {card}": cmp})
    page = (tmp_path / "report.html").read_text()
    for section in ("Verdicts", "Factions", "Head to head", "Win rate by seat", "Cards",
                    "Game shape", f"Without {card}", "a difference?", "95 % interval"):
        assert section in page
    assert page.index("Verdicts") < page.index("<h2>Factions")
    assert page.count("<svg") == 4 and (tmp_path / "win_rates.png").stat().st_size > 1000
    data = json.loads((tmp_path / "report.json").read_text())
    assert data["run"]["games"] == 8 and data["verdicts"]["factions"]["answer"] == "not settled"
    lines = (tmp_path / "cards.csv").read_text().splitlines()
    assert lines[0].startswith("card,name,seats,effect") and len(lines) == len(rep["cards"]) + 1
    assert written[0].name == "report.html"
    with pytest.raises(ValueError):
        runner.without(compiled, "no_such_card")


def test_without_a_faction_card_refuses_with_the_reason(compiled):
    facs = json.loads(compiled["factions.json"])["factions"]
    fid = min(facs)
    for card in (facs[fid]["champion"], facs[fid]["spell"]):
        with pytest.raises(ValueError, match="set-up deals it to every"):
            runner.without(compiled, card)


def test_vary_sets_the_field_wherever_it_sits(compiled):
    from tether_build.analysis import whatif

    assert whatif.parse("game.round_cap=10..12") == ("game.round_cap", [10, 11, 12])
    assert whatif.parse("cards.x.gold=1,3") == ("cards.x.gold", [1, 3])
    for bad in ("round_cap=1..2", "game.round_cap", "game.round_cap=3..1"):
        with pytest.raises(ValueError):
            whatif.parse(bad)
    game = json.loads(whatif.apply(compiled, "game.round_cap", 3)["game.json"])
    assert runner.rules_of({**compiled, "game.json": json.dumps(game).encode()}).game[
        "victory"]["round_cap"] == 3
    cards = json.loads(compiled["cards.json"])["cards"]
    mover = next(c for c in cards if any("distance" in s for s in c["effect"]))
    got = json.loads(whatif.apply(compiled, f"cards.{mover['id']}.distance", 9)["cards.json"])
    assert any(s.get("distance") == 9 for c in got["cards"] if c["id"] == mover["id"]
               for s in c["effect"])
    with pytest.raises(ValueError, match="no field"):
        whatif.apply(compiled, f"cards.{mover['id']}.no_such_field", 1)
    assert len(whatif.grid([("a", [1, 2]), ("b", [3, 4, 5])])) == 6


def test_the_command_settles_or_says_so_and_draws_a_sweep(tmp_path):
    from pathlib import Path

    from click.testing import CliRunner

    from tether_build.cli import main
    from tether_build.engine import weights

    army = weights.ARMY
    content = Path(__file__).resolve().parents[1] / "fixtures" / "content"
    r = CliRunner().invoke(main, [
        "balance", "--content", str(content), "--games", "40", "--players", "2",
        "--workers", "1", "--quiet", "--out", str(tmp_path), "--vary",
        "game.round_cap=3..4", "--sweep-games", "20", "--ladder", "--ladder-games", "20",
        "--ladder-python-games", "4", "--ladder-search-games", "1", "--search-iterations", "2",
        "--card", "Quick March"])
    assert r.exit_code == 0, r.output
    assert "Not settled yet. (40 games)" in r.output
    assert "Is Quick March above the curve" in r.output
    assert "(budget of 40 games spent, 40 games)" in r.output
    data = json.loads((tmp_path / "report.json").read_text())
    assert [p["at"]["game.round_cap"] for p in data["sweep"]["points"]] == [3, 4]
    assert data["sweep"]["points"][0]["figures"]["rounds"][0] <= 3
    assert (tmp_path / "sweep.png").stat().st_size > 1000
    assert "What if" in (tmp_path / "report.html").read_text()
    agents = data["agents"]
    assert {r["agent"] for r in agents["ladder"]} == {"heuristic", "random", "aggressive",
                                                      "economic", "cautious", "search"}
    rungs = {r["agent"]: r for r in agents["ladder"]}
    assert rungs["search"]["games"] == 1 and rungs["search"]["engine"] == "Python"
    assert rungs["random"]["engine"] == "native" and agents["search_iterations"] == 2
    assert data["verdicts"]["card"]["verdict"] == "not settled"
    assert weights.ARMY == army   # (a variant's weights are restored after each choice)
    assert set(agents["variants"]) == {"heuristic", "aggressive", "economic", "cautious"}
    assert all(v["robustness"] in ("robust", "agent-dependent", "not settled")
               for v in agents["robustness"]["factions"].values())
    r = CliRunner().invoke(main, ["balance", "--content", str(content), "--games", "10",
                                  "--quiet", "--out", str(tmp_path), "--vary", "round_cap=1"])
    assert r.exit_code != 0 and "path starts with one of" in r.output


def test_the_report_files_are_the_same_drawn_over_two_processes(compiled, tmp_path):
    """The plots drawn side by side (html.write's workers) are the files drawn one after
    another, byte for byte, and the page shows them in the same order."""
    rep, _ = _report(compiled, _spec(games=6, agents=("random",)))
    html.write(rep, tmp_path / "one", workers=1)
    html.write(rep, tmp_path / "two", workers=2)
    names = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert len(names) == 7 and names == sorted(p.name for p in (tmp_path / "two").iterdir())
    for name in names:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()


def test_a_real_dask_cluster_gives_the_same_records(compiled):
    import distributed
    spec = _spec(games=30, agents=("random",))
    local = runner.run(compiled, spec, workers=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  host="127.0.0.1", dashboard_address=None) as cluster:
        remote = runner.run(compiled, spec, cluster=cluster.scheduler_address)
    assert remote == local


def test_tether_serve_shows_the_last_report(tmp_path, monkeypatch):
    from tether_build.serve.app import Site, default_pages

    monkeypatch.chdir(tmp_path)
    site = Site(tmp_path, default_pages())
    status, body = site.render("/balance")
    assert "No balance report yet" in body and "tether balance" in body
    (tmp_path / "build" / "balance").mkdir(parents=True)
    (tmp_path / "build" / "balance" / "report.html").write_text(
        "<html><body><h1>Balance report</h1></body></html>")
    status, body = site.render("/balance")
    assert status == 200 and "<h1>Balance report</h1>" in body


def test_card_names_read_the_glossary():
    from pathlib import Path
    from types import SimpleNamespace

    from tether_build.cli.balance import card_meta

    card = SimpleNamespace(id="x", name="Extra {force}", age="I", deck="p", mana=1, gold=2,
                           faction=None)
    rules = SimpleNamespace(decks={"p": {"kind": "power"}}, cards=[card])
    content = Path(__file__).resolve().parents[1] / "fixtures" / "content"
    meta = card_meta(rules, content)
    assert "{" not in meta["names"]["x"] and meta["names"]["x"].startswith("Extra ")
    assert meta["power"] == ["x"] and meta["ages"] == {"x": "I"}
    assert meta["prices"] == {"x": 3.0} and meta["kinds"] == {"x": "p"}
