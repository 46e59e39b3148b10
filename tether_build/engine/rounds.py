"""The rules' round loop: rounds until a VP win (§3.1) or the round cap (§3.2).

The loop asks nothing of any agent itself: the rules it runs ask their questions through
`Game.decide`, which the state API (state_api.py) turns into a state that waits for an
action. Kept apart from play.py (whole games, logs, replay), which the state API serves.
"""

from __future__ import annotations


def play_round(g) -> list[int]:
    """One full round (§9); returns the seats that won at Scoring (possibly none)."""
    g.reset_phase()
    g.market_phase()
    g.action_phase()
    g.sieges()
    g.collection_phase()
    winners = g.scoring_phase()
    if winners:
        return winners
    g.cleanup_phase()
    return []


def run(g) -> list[int]:
    """Play rounds until a VP win (§3.1) or the round cap (§3.2); returns the winners."""
    s = g.s
    cap = g.rules.game["victory"]["round_cap"]
    while True:
        if g.on_round is not None:
            g.on_round(g)
        winners = play_round(g)
        if winners:
            if len(winners) > 1 and g.opt.simultaneous_win == "tie_breakers":
                winners = g.rank(winners)
            return finish(g, winners, "vp")
        if s.round >= cap:
            return finish(g, g.rank(list(range(len(s.players)))), "round_cap")
        if g.stop_round and s.round >= g.stop_round:
            return []   # a search's world: judged at the end of this round (search.py)
        g.advance_round()


def finish(g, winners: list[int], reason: str) -> list[int]:
    g.s.winner, g.s.end_reason = sorted(winners), reason
    if g.events is not None:  # the digest costs a canonical JSON dump: only for the log
        g.log("end", winners=g.s.winner, reason=reason, round=g.s.round,
              digest=g.s.digest())
    return g.s.winner
