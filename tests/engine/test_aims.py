"""Whom effects land on (analysis/aims.py): every resolved target is logged by both engines,
classified by its compiled step, and the heuristic never aims harm at its own units nor
help at an enemy's in seeded four-player games."""

from __future__ import annotations

from tether_build.analysis.aims import tally
from tether_build.engine import native
from tether_build.engine.agents import HeuristicAgent
from tether_build.engine.options import Options
from tether_build.engine.play import play_game
from tether_build.engine.scenario import give, put_champion, scenario

from .conftest import Scripted
from .test_whole_plays import Whole, _zap_board


def _pick_card(kind, options, ctx):
    if kind == "action":
        return next(i for i, o in enumerate(options) if o[0] == "card")
    return None


def _aimed_at(rules, card: str, owner: int):
    """Seat 0 plays `card` (one decision at a time) on seat `owner`'s Champion."""
    def fn(kind, options, ctx):
        if kind == "champion":
            return next(i for i, c in enumerate(options) if c.owner == owner)
        return _pick_card(kind, options, ctx)
    g, _, _ = _zap_board(rules, [Scripted(fn), Scripted()])
    g.s.players[0].hand = [give(g, 0, card)]
    for c in g.s.champions.values():
        c.hp = c.max_hp - 1
    g.resolve_card(g.reveal_action(g.choose_action(0)))
    return tally(g.events, rules)


def test_harm_on_own_and_help_on_enemies_are_counted(rules):
    t = _aimed_at(rules, "zap", owner=0)
    assert t.total("harm on own") == 1 and t.total("help on enemy") == 0
    assert t.counts[("harmful", "damage", "own", True)] == 1
    assert _aimed_at(rules, "zap", owner=1).total("harm on own") == 0
    t = _aimed_at(rules, "field_medic", owner=1)
    assert t.total("help on enemy") == 1 and t.counts[("helpful", "heal", "enemy", True)] == 1
    assert _aimed_at(rules, "field_medic", owner=0).misaimed == []


def test_harm_the_card_text_aims_at_a_friend_is_not_misaimed(rules):
    """Frenzy: 'Choose a friendly Champion ... It takes 2 damage now': the damage step's
    target is a reference to a friendly choice."""
    t = _aimed_at(rules, "frenzy", owner=0)
    assert t.counts[("harmful", "damage", "own", False)] == 1
    assert t.misaimed == []


def test_a_scattered_shot_landing_on_own_units_is_chance_not_aim(rules):
    """Mortar Shot: destroy_forces on {ref: impact}, the hex its scatter step hit."""
    shot = rules.by_id["mortar_shot"]
    chooser, _, destroy = shot.effect[:3]
    aim = {"e": "target", "p": 0, "card": "mortar_shot", "kind": "hex", "locked": True}
    t = tally([{**aim, "step": "choose_target", "uid": chooser.uid, "owners": [1]},
               {**aim, "step": "destroy_forces", "uid": destroy.uid, "owners": [0],
                "locked": False}], rules)
    assert t.misaimed == [] and t.total("harm on own by chance") == 1
    assert t.counts[("harmful", "choose_target", "enemy", True)] == 1
    t = tally([{**aim, "step": "choose_target", "uid": chooser.uid, "owners": [0]}], rules)
    assert t.total("harm on own") == 1


def test_a_forced_target_is_part_of_the_whole_play(rules):
    """The only Champion in Zap's range is the seat's own: the play names it, and the
    heuristic does not play it (it did before: the play was empty and scored as harmless)."""
    for seed in range(4):
        h = HeuristicAgent()
        h.seed(seed)
        g = scenario(rules, 2, 0, factions=["cipher", "cipher"], agents=[h, Scripted()])
        cap = g.s.players[0].capital
        g.s.add_forces(0, cap, 1)
        mine = put_champion(g, 0, "sergeant", cap)
        g.s.players[0].mana = 1
        zap = give(g, 0, "zap")
        g.s.players[0].hand = [zap]
        assert [[(k, v.cid) for k, v, _ in play] for play in g.card_plays(0, zap)] == [
            [("champion", mine.cid)]]
        plan = g.reveal_action(g.choose_action(0))
        assert plan["kind"] != "card"
        assert mine.hp == mine.max_hp


def test_a_forced_target_is_declared_and_logged(rules):
    def pick(kind, options, ctx):
        return next(i for i, o in enumerate(options) if o[0] == "card")
    g = scenario(rules, 2, 0, factions=["cipher", "cipher"], agents=[Whole(pick), Scripted()])
    cap = g.s.players[0].capital
    g.s.add_forces(0, cap, 1)
    mine = put_champion(g, 0, "sergeant", cap)
    g.s.players[0].mana = 1
    g.s.players[0].hand = [give(g, 0, "zap")]
    g.resolve_card(g.reveal_action(g.choose_action(0)))
    aims = [e for e in g.events if e["e"] == "aim"]
    assert [(a["card"], a["owners"]) for a in aims] == [("zap", [0])]
    assert mine.hp == mine.max_hp - 1
    assert tally(g.events, rules).total("harm on own") == 1


def _factions(rules, seed: int) -> list[str]:
    names = sorted(rules.factions)
    return [names[(seed + k) % len(names)] for k in range(4)]


def _games(rules, seeds, engine: str):
    if engine == "native":
        games = [(s, _factions(rules, s), ["heuristic"] * 4) for s in seeds]
        res = native.play_agents(rules, 4, games, Options(), log=True)
        assert None not in res
        return [r["events"] for r in res]
    return [play_game(rules, 4, s, [HeuristicAgent() for _ in range(4)], _factions(rules, s),
                      log=True).events for s in seeds]


def _check(rules, logs) -> None:
    t = sum((tally(ev, rules, str(i)) for i, ev in enumerate(logs)), start=tally([], rules))
    assert t.misaimed == [], t.misaimed[:3]
    harm = sum(n for (eff, _, whose, _), n in t.counts.items()
               if eff == "harmful" and whose == "enemy")
    helped = sum(n for (eff, _, whose, _), n in t.counts.items()
                 if eff == "helpful" and whose == "own")
    assert harm >= len(logs) and helped >= len(logs)  # the audit saw real plays


def test_no_misaimed_effect_in_seeded_games_python(rules):
    _check(rules, _games(rules, range(700, 708), "python"))


def test_no_misaimed_effect_in_seeded_games_native(rules, native_built):
    _check(rules, _games(rules, range(700, 740), "native"))
