"""The native engine (engine/native) plays exactly the Python engine's games: the same
decisions, draws and event log, line for line, and the same final state, on the fixture
content, on a kitchen-sink ruleset that plays every rule of the effect language often
(native_cases.py), and under every rules option, with random agents and with the heuristic
agent. Where it cannot play, the Python engine does."""

from __future__ import annotations

import json

import pytest

from tether_build.engine import native
from tether_build.engine.agents import HeuristicAgent, RandomAgent
from tether_build.engine.options import Options
from tether_build.engine.play import play_game

from .native_cases import kitchen_sink

OPTION_SETS = [  # every option at a value other than its default, in four sets
    {"initiative": "second", "initiative_ties": "die", "hit_assignment": "surviving"},
    {"lead": "fixed", "target_lock": "resolve", "activation_mana": 0},
    {"stack_split": True, "capital_stops_move": False, "blocked_move": "cancel"},
    {"final_tie": "die", "simultaneous_win": "shared", "next_battle_expires": False,
     "hand_limit_draw": "stop", "initiative": "lower"},
]


@pytest.fixture
def built(native_built):
    return native_built


@pytest.fixture(scope="session")
def sink(compiled):
    from tether_build.engine.ruleset import Ruleset
    return Ruleset.from_compiled(kitchen_sink(compiled))


def _agent(name: str):
    """A Python agent by its native name: "heuristic-single" is the heuristic as the check's
    sweep wraps it (Watch), asked card and targets one decision at a time."""
    from tether_build.check.sweep import Book, Watch

    if name == "heuristic-single":
        return Watch(HeuristicAgent(), Book())
    return {"random": RandomAgent, "heuristic": HeuristicAgent}[name]()


def _python_log(rules, players, seed, factions, opts, names) -> list[dict]:
    g = play_game(rules, players, seed, [_agent(n) for n in names], factions, opts, log=True)
    return [json.loads(json.dumps(e, sort_keys=True, default=str)) for e in g.events]


def _compare(rules, games, opts=None, agents=("random",)) -> int:
    """Play each (players, seed) in both engines, the agents cycled over the seats; fail at
    the first line that differs."""
    opts = Options.from_dict(opts or {})
    facs = sorted(rules.factions)
    events = 0
    for players, seed in games:
        seats = [facs[(seed + i) % len(facs)] for i in range(players)]
        names = [agents[(seed + i) % len(agents)] for i in range(players)]
        py = _python_log(rules, players, seed, seats, opts, names)
        (got,) = native.play_agents(rules, players, [(seed, seats, names)], opts, log=True)
        assert got is not None, f"the native engine declined game {players}/{seed}"
        nat = got["events"] + [native.end_event(got)]
        for i, (a, b) in enumerate(zip(py, nat)):
            assert a == b, f"game {players}p seed {seed}, event {i}: Python {a} native {b}"
        assert len(py) == len(nat), f"game {players}p seed {seed}: {len(py)} vs {len(nat)} lines"
        events += len(py)
    return events


def test_boards_checked_for_forge_fairness_are_the_same_in_both_engines(built, compiled):
    """forge_fairness_max_spread (game.yaml): both engines reroll the same boards."""
    import copy

    from tether_build.engine.ruleset import Ruleset

    defs = copy.deepcopy(compiled)
    game = json.loads(defs["game.json"])
    place = game["constants"]["board"]["placement"]
    place["forge_fairness_max_spread"] = place["fairness_max_spread"]
    defs["game.json"] = json.dumps(game).encode()
    rules = Ruleset.from_compiled(defs)
    assert _compare(rules, [(p, s) for p in (2, 4, 6) for s in (1, 2)]) > 0


def test_eighty_seeded_games_have_identical_logs(built, rules):
    events = _compare(rules, [(2 + i % 5, 1000 + i) for i in range(80)])
    assert events > 80 * 500  # whole games, not setup alone


def test_kitchen_sink_games_have_identical_logs(built, sink):
    _compare(sink, [(2 + i % 5, 5000 + i) for i in range(40)])


HEURISTIC = ("heuristic", "random")            # whole card plays, beside random seats
SINGLE = ("heuristic-single", "random")        # as the check's sweep seats it


@pytest.mark.parametrize("agents", [HEURISTIC, SINGLE], ids=["whole-plays", "single"])
def test_heuristic_games_have_identical_logs(built, rules, sink, agents):
    """The heuristic agent in C++ makes the Python agent's every decision: its scores, its
    tie-breaks, its battle odds, the whole plays it is offered; on the fixture and on the
    kitchen sink."""
    events = _compare(rules, [(2 + i % 5, 3000 + i) for i in range(40)], agents=agents)
    events += _compare(sink, [(2 + i % 5, 6000 + i) for i in range(30)], agents=agents)
    assert events > 70 * 500


@pytest.mark.parametrize("opts", OPTION_SETS, ids=lambda o: ",".join(o))
def test_every_rules_option_plays_the_same(built, sink, opts):
    _compare(sink, [(2 + i % 5, 7000 + i) for i in range(12)], opts)
    _compare(sink, [(2 + i % 5, 7100 + i) for i in range(8)], opts, HEURISTIC)


def test_the_native_heuristic_reads_its_weights_from_weights_py(built, rules, monkeypatch):
    """A weight changed in weights.py (an experiment, a tuning) changes the native agent as
    it changes the Python one: other decisions, the same in both engines."""
    from tether_build.engine import appraise, weights

    games = [(4, 4100 + i) for i in range(6)]
    facs = sorted(rules.factions)

    def decisions() -> list:
        out = []
        for players, seed in games:
            seats = [facs[(seed + i) % len(facs)] for i in range(players)]
            names = [HEURISTIC[(seed + i) % 2] for i in range(players)]
            (got,) = native.play_agents(rules, players, [(seed, seats, names)], Options(),
                                        log=True)
            out.append([e["i"] for e in got["events"] if e["e"] == "decide"])
        return out

    before = decisions()
    monkeypatch.setattr(weights, "OBJECTIVE", {"mine": 9.0, "center": 1.0, "forge": 2.0})
    monkeypatch.setattr(weights, "MARCH_BASE", -1.0)
    appraise._odds.cache_clear()
    assert decisions() != before
    _compare(rules, games, agents=HEURISTIC)


def test_kitchen_sink_reaches_the_rare_rules(built, sink):
    """The sink's games reach what it is there for (else the comparisons prove little)."""
    facs = sorted(sink.factions)
    seen: set[str] = set()
    for i in range(40):
        players = 2 + i % 5
        seats = [facs[(i + k) % len(facs)] for k in range(players)]
        (got,) = native.play_agents(sink, players, [(5000 + i, seats)], Options(), log=True)
        seen.update(e["e"] for e in got["events"])
    assert {"summon", "steal", "scatter", "relocate", "activate", "prevent", "counter",
            "roll", "mana", "to_top", "look", "battle", "bounty"} <= seen


def test_results_match_the_python_engine(built, rules):
    """What `simulate` reads of a game: winners, ending, rounds, decisions, cards played."""
    facs = sorted(rules.factions)
    games = [(300 + k, [facs[(k + i) % len(facs)] for i in range(4)]) for k in range(20)]
    got = native.play_agents(rules, 4, games, Options())
    for (seed, seats), res in zip(games, got):
        g = play_game(rules, 4, seed, [RandomAgent() for _ in range(4)], seats)
        assert (res["winner"], res["end"], res["round"], res["decisions"]) == (
            g.s.winner, g.s.end_reason, g.s.round, g.decisions)
        for field in ("played", "fizzled", "resolved"):
            assert res[field] == g.stats[field]


@pytest.mark.parametrize("agents", [["random"], ["heuristic", "random"]], ids=",".join)
def test_simulate_is_the_same_with_either_engine(built, rules, tmp_path, monkeypatch, agents):
    from tether_build.engine.simulate import simulate

    (tmp_path / "native").mkdir()
    (tmp_path / "python").mkdir()
    fast = simulate(rules, 40, 3, seed=11, agents=agents, log_dir=tmp_path / "native",
                    workers=2)
    monkeypatch.setenv(native.ENV, "python")
    monkeypatch.setattr(native, "_LIB", [])
    assert native.library() is None
    slow = simulate(rules, 40, 3, seed=11, agents=agents, log_dir=tmp_path / "python",
                    workers=2)
    assert fast == slow
    for path in sorted((tmp_path / "python").iterdir()):
        assert (tmp_path / "native" / path.name).read_bytes() == path.read_bytes()


def test_the_balance_lab_records_the_same_games(built, compiled, monkeypatch):
    """The balance lab's game records (analysis/runner.py), heuristic agents: the same from
    the native engine's logs as from the Python engine's games."""
    from tether_build.analysis.runner import run_batch

    spec = {"players": 4, "seed": 5, "agents": ["heuristic"], "games": 12}
    fast = run_batch(compiled, spec, list(range(12)))
    monkeypatch.setattr(native, "_LIB", [None])
    slow = run_batch(compiled, spec, list(range(12)))
    assert fast == slow


def test_a_game_it_declines_is_played_in_python(built, rules):
    """Seeds beyond 64 bits are the Python engine's (the library takes 64-bit seeds)."""
    from tether_build.engine.simulate import simulate

    seed = 2**70
    assert native.play_agents(rules, 2, [(seed, ["leadbound"] * 2)], Options()) == [None]
    got = simulate(rules, 2, 2, seed=seed, workers=1)
    g = play_game(rules, 2, seed, [RandomAgent(), RandomAgent()],
                  [sorted(rules.factions)[i % len(rules.factions)] for i in range(2)])
    assert got["average_rounds"] == g.s.round


def test_a_stale_library_is_not_used(built, monkeypatch):
    monkeypatch.setattr(native, "source_digest", lambda: "0" * 16)
    monkeypatch.setattr(native, "_LIB", [])
    assert native.library() is None  # built from other sources: the Python engine plays


def test_no_compiler_leaves_the_library_alone(built, monkeypatch, tmp_path):
    out = tmp_path / "lib.so"
    out.write_bytes(b"old")
    monkeypatch.setattr(native, "compiler", lambda: None)
    why = native.build(out)
    assert "no C++ compiler" in why
    assert out.read_bytes() == b"old"


def test_a_failed_compile_leaves_the_library_alone(built, monkeypatch, tmp_path):
    out = tmp_path / "lib.so"
    out.write_bytes(b"old")
    monkeypatch.setenv("CXX", "false")  # a compiler that always fails
    why = native.build(out)
    assert "failed" in why
    assert out.read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["lib.so"]  # no half-written file


def _odds_cases(rules) -> list:
    champs = sorted(c.id for c in rules.cards if c.type == "champion")
    facs = sorted(rules.factions)
    out = []
    for i in range(60):
        a, d = champs[i % len(champs)], champs[(i * 7 + 3) % len(champs)]
        att = {"forces": i % 9, "champions": [a] if i % 4 else []}
        dfn = {"forces": (i * 5) % 9, "champions": [d, champs[i % 3]] if i % 5 == 0 else [d]}
        where = ("plain", "capital", "mine", "forge")[i % 4]
        seats = [facs[i % len(facs)], facs[(i + 1) % len(facs)]] if i % 3 == 0 else ["_none"] * 2
        out.append((att, dfn, where, seats, i))
    return out


@pytest.mark.parametrize("which", ["fixture", "sink"])
def test_battle_odds_are_the_same_battles(built, rules, sink, which):
    """The heuristic agent's odds (and `tether odds`): the same tallies from both engines."""
    from tether_build.engine import odds

    r = rules if which == "fixture" else sink
    for att, dfn, where, seats, seed in _odds_cases(r):
        py = odds._battles(r, att, dfn, where, 40, seed, seats)
        got = native.battle_odds(r, att, dfn, where, 40, seed, seats)
        assert got is not None
        assert py == ({k: got[k] for k in ("attacker", "defender", "none")}, got["surv"],
                      got["rounds"]), (att, dfn, where, seats, seed)


def test_the_check_sweep_finds_the_same(built, compiled, monkeypatch):
    """The check's sweep (heuristic agents judging attacks by the native odds) counts the
    same plays, failures and dead cards as with the Python engine alone."""
    from tether_build.check.sweep import sweep
    from tether_build.content.cards import normalized_cards
    from tether_build.content.load import load_content
    from tether_build.engine import appraise

    from .conftest import ROOT

    cards = normalized_cards(load_content(ROOT / "tests" / "fixtures" / "content"))
    appraise._odds.cache_clear()
    fast = sweep(compiled, 16, 21, cards)
    monkeypatch.setattr(native, "_LIB", [None])
    appraise._odds.cache_clear()
    slow = sweep(compiled, 16, 21, cards)
    appraise._odds.cache_clear()
    assert fast == slow


def test_fuzzed_content_plays_the_same(built, tmp_path):
    """Odd but valid content (the content fuzzer's mutants that still validate): the same
    games in both engines, and nothing the native engine cannot survive."""
    import os
    import random
    import shutil

    from tests.test_fuzz import CONTENT, _mutant
    from tether_build.content.cards import normalized_cards
    from tether_build.content.load import load_content
    from tether_build.effects.compile import compile_engine
    from tether_build.engine.ruleset import Ruleset
    from tether_build.errors import TetherError

    rng = random.Random(1)
    played = 0
    # 20 mutants in the suite's run (the first 20 of the same seeded series); the long run,
    # benchmarks/fuzz.py, sets TETHER_FUZZ_MUTANTS (a fifth of it here: 400 -> 80)
    mutants = int(os.environ.get("TETHER_FUZZ_MUTANTS", "100")) // 5
    for n in range(mutants):
        work = tmp_path / f"m{n}"
        shutil.copytree(CONTENT, work)
        _mutant(work, rng)
        try:
            content = load_content(work)
            rules = Ruleset.from_compiled(compile_engine(normalized_cards(content), content))
        except (TetherError, ValueError):
            continue  # an invalid mutant: the fuzzer's own test covers its error
        played += _compare(rules, [(2 + n % 3, n)], agents=HEURISTIC if n % 2 else ("random",))
    assert played > mutants // 2 * 500  # most mutants validate and play whole games


def test_effects_that_never_end_are_declined_not_crashed(built, compiled):
    """A deck of cards that draw two more when drawn: Python stops the chain with a
    RecursionError; the native engine declines the game (no overflow of its stack) and the
    Python engine, playing it instead, raises the same error as before."""
    from tether_build.effects.compile import compile_card
    from tether_build.engine.ruleset import Ruleset

    from .native_cases import _card

    loop = _card("ks_loop", [{"step": "noop"}], copies=40, triggers=[
        {"trigger": "card_drawn", "steps": [{"step": "draw", "count": 2}]}])
    cards = json.loads(compiled["cards.json"])
    cards["cards"].append(compile_card(loop))
    rules = Ruleset.from_compiled({**compiled, "cards.json": json.dumps(cards)})
    seats = [rules.default_faction] * 2
    assert native.play_agents(rules, 2, [(3, seats)], Options()) == [None]
    with pytest.raises(RecursionError):
        play_game(rules, 2, 3, [RandomAgent(), RandomAgent()], seats)


def test_the_native_invariant_checks_can_fail(built, rules):
    """The native engine's invariant checks (invariants.cpp) report each way a state can
    break, worded as engine/invariants.py words it, and nothing on a sound state."""
    twin = native.for_rules(rules)
    factions = sorted(rules.factions)[:3]
    opts = Options().to_dict()

    def found(players, where, *breaks):
        return " | ".join(twin.invariants(players, 5, factions[:players], opts, where,
                                          list(breaks)))

    assert found(3, "card") == found(2, "collect") == ""
    cases = {("gold",): "seat 0 gold -1", ("card",): "cards created or lost",
             ("three",): "holds 3 players", ("index",): "occupancy index of seat 0",
             ("bridge",): "bridged-neighbour index out of sync",
             ("forces",): "bad Force entry 0:-1", ("pvp",): "Permanent VP decreased"}
    for breaks, needle in cases.items():
        assert needle in found(3, "collect", *breaks), breaks
    assert "unresolved battle" in found(2, "card", "battle")
    assert found(2, "battle", "battle") == ""   # a contact battle may still be pending


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_native_games_keep_the_invariants(built, rules, sink, players):
    """Games that check the invariants after each step, heuristic and random seats, on the
    fixture content and the kitchen sink: none is declined (the native checks hold where
    the Python engine's do), and a checked game is the same game."""
    seats = ["heuristic-single" if i % 2 else "random" for i in range(players)]
    for r in (rules, sink):
        factions = sorted(r.factions)
        games = [(seed, [factions[(seed + i) % len(factions)] for i in range(players)], seats)
                 for seed in range(6)]
        declined: list = []
        checked = native.play_agents(r, players, [(*g, True) for g in games], Options(),
                                     declined=declined)
        assert declined == [None] * len(games)
        plain = native.play_agents(r, players, games, Options())
        assert [g["round"] for g in checked] == [g["round"] for g in plain]
        assert [g["played"] for g in checked] == [g["played"] for g in plain]
