"""The heuristic agent's weights: plain module constants, read where they are used (by the
Python agent in agents.py and appraise.py, and sent to the native agent with each request:
`native_weights`), so a benchmark, an experiment or a tuning can change one for both."""

from __future__ import annotations

OBJECTIVE = {"mine": 3.0, "center": 8.0, "forge": 7.0}
SKIP = 0.5  # the worth of declining an optional ("you may") step
LATE_ROUNDS = 5  # rounds before the cap in which the heuristic spends all spare Gold on VP
VICTORY_BID = 4  # the most Gold the heuristic pays for each Permanence a Victory card gives
CATEGORY = {"recruitment": 3.0, "economy": 2.5, "movement": 2.0, "champion": 3.5,
            "victory": 3.0, "combat": 1.5, "bridges": 1.5, "deckcraft": 1.0,
            "synergy": 1.5, "power": 2.0}

APPROACH_MOVE = 0.8    # worth of each hex a move brings a group nearer an objective ...
APPROACH_ARMY = 0.8    # ... plus this much for a group of ARMY strength or more
ARMY = 5.0             # strength (Cohorts, a Champion counting 2) of a group worth sending
APPROACH_BRIDGE = 1.6  # worth of each hex a Bridge brings our nearest group nearer
MARCH_BASE = 1.5       # a March's worth before its destination is scored
CLOSE_GAP = 2          # end-game mode: own Permanence within this much of vp_to_win ...
CLOSE_ROUNDS = 3       # ... or this few rounds left before the cap
CLOSE_BONUS = 4.0      # extra worth of a Control-Permanence hex (Center, Forge, enemy Capital)
ODDS_TRIALS = 40  # battles the heuristic simulates to judge an attack (the engine's odds)
ODDS_FORCES = 8   # Forces beyond this count as this many when judging odds

NATIVE = ("SKIP", "APPROACH_MOVE", "APPROACH_ARMY", "ARMY", "APPROACH_BRIDGE", "MARCH_BASE",
          "CLOSE_BONUS", "LATE_ROUNDS", "VICTORY_BID", "CLOSE_GAP", "CLOSE_ROUNDS",
          "ODDS_TRIALS", "ODDS_FORCES")   # the scalar weights the native agent reads


def native_weights() -> dict:
    """The weights as the native engine reads them, as they are now."""
    here = globals()   # (a weight set on the module since, by an experiment, is read here)
    return {"objective": dict(here["OBJECTIVE"]), "category": dict(here["CATEGORY"]),
            **{n: here[n] for n in NATIVE}}
