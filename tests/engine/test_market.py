"""§11 Market Bid-Draft: preview counts, buy bids, ties by die roll, pass bids and pot."""

from __future__ import annotations

import pytest

from tether_build.engine import market
from tether_build.engine.scenario import scenario


@pytest.mark.parametrize("rnd,expected", [(1, 0), (2, 1), (3, 1), (4, 0), (5, 1), (6, 2),
                                          (7, 2), (8, 0), (9, 0), (10, 0)])
def test_preview_counts(rules, rnd, expected):
    assert market.preview_count(rules, rnd, 6) == expected
    assert market.preview_count(rules, rnd, 1) == min(1, expected)  # capped at P


def test_row_mixes_next_age(rules):
    g = scenario(rules, 4, 2)
    g.s.round, g.s.age = 6, "II"
    row = g.market_row()
    ages = sorted(g.s.cards[i].defn.age for i in row)
    assert ages == ["II", "II", "III", "III"]
    assert all(i in g.s.revealed for i in row)


def _bidders(scripted, bids):
    def fn_for(bid):
        return lambda kind, options, ctx: options.index(bid) if kind == "bid" else None
    return [scripted(fn_for(b)) for b in bids]


def test_highest_buy_wins_and_pays(rules, scripted):
    g = scenario(rules, 3, 1, agents=_bidders(scripted, [("buy", 3), ("buy", 2), ("pass", 1)]))
    for pl in g.s.players:
        pl.gold = 5
    iid = g.reveal("age1_market", 1)[0]
    assert g.resolve_bids(iid, [0, 1, 2]) == 0
    assert [pl.gold for pl in g.s.players] == [2, 5, 5]
    assert iid in g.s.players[0].draw and g.s.players[0].market_won


def test_buy_tie_rolls_off(rules, scripted):
    g = scenario(rules, 2, 3, agents=_bidders(scripted, [("buy", 2), ("buy", 2)]))
    for pl in g.s.players:
        pl.gold = 4
    iid = g.reveal("age1_market", 1)[0]
    w = g.resolve_bids(iid, [0, 1])
    assert any(e["e"] == "rolloff" for e in g.events)
    assert g.s.players[w].gold == 2 and g.s.players[1 - w].gold == 4


def test_pass_pot(rules, scripted):
    """Nobody buys: the lowest pass bids form the pool, everyone pays, receiver gets pot."""
    g = scenario(rules, 3, 4, agents=_bidders(scripted, [("pass", 2), ("pass", 1),
                                                         ("pass", 1)]))
    for pl in g.s.players:
        pl.gold = 5
    iid = g.reveal("age1_market", 1)[0]
    w = g.resolve_bids(iid, [0, 1, 2])
    assert w in (1, 2)
    gold = [pl.gold for pl in g.s.players]
    assert gold[0] == 3 and gold[w] == 5 - 1 + 4 and gold[3 - w] == 4
    assert sum(gold) == 15


def test_roll_off_reaches_one(rules):
    g = scenario(rules, 6, 1)
    wins = {g.roll_off([0, 1, 2, 3, 4, 5], "t") for _ in range(200)}
    assert wins == set(range(6))


def test_one_market_win_per_round(rules):
    g = scenario(rules, 5, 8)
    for pl in g.s.players:
        pl.gold = 6
    g.market_phase()
    gains = [e["p"] for e in g.events if e["e"] == "gain"]
    assert sorted(gains) == [0, 1, 2, 3, 4]
    assert not g.s.revealed


def test_bid_options(rules):
    opts = market.bid_options(2, rules.game["market"])
    assert list(opts) == [("pass", 0), ("pass", 1), ("pass", 2), ("buy", 1), ("buy", 2)]
