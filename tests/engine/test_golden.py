"""80 seeded games pinned by their final-state digests: any change to what the engine does
shows here. After a DELIBERATE engine change, re-pin in the same commit:

    python3 tests/engine/test_golden.py --regen
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parents[1] / "data" / "golden_digests.json"
REGEN = "python3 tests/engine/test_golden.py --regen"


def games():
    """(players, seed, agent name) of the 80 pinned games: 2-6 players, both agents."""
    out = []
    for i in range(80):
        agent = "random" if i % 2 == 0 else "heuristic"
        players = 2 + i % 5 if agent == "random" else 2 + i % 3
        out.append((players, 1000 + i, agent))
    return out


def digests(rules) -> dict[str, str]:
    """'players/seed/agent' -> the end digest of that game."""
    from tether_build.engine.play import play_game
    from tether_build.engine.simulate import AGENTS

    out = {}
    for players, seed, agent in games():
        g = play_game(rules, players, seed, [AGENTS[agent]() for _ in range(players)])
        out[f"{players}/{seed}/{agent}"] = g.s.digest()
    return out


def test_golden_digests(rules):
    pinned = json.loads(DATA.read_text())
    got = digests(rules)
    changed = sorted(k for k in pinned if got.get(k) != pinned[k])
    assert not changed, (f"{len(changed)} of {len(pinned)} pinned games now end differently "
                         f"(first: {changed[:3]}). If the engine change is deliberate, re-pin "
                         f"in the same commit: {REGEN}")
    assert len(pinned) == 80


def test_golden_digests_native(rules, native_built):
    """The native engine ends the pinned random-agent games in the same states."""
    from tether_build.engine import native
    from tether_build.engine.options import Options

    pinned = json.loads(DATA.read_text())
    mine = [(p, s) for p, s, agent in games() if agent == "random"]
    got = {}
    for players, seed in mine:
        # play_game with factions=None seats the default faction (setup.new_game)
        (res,) = native.play_agents(rules, players, [(seed, [rules.default_faction] * players)],
                                    Options(), log=True)
        got[f"{players}/{seed}/random"] = native.end_event(res)["digest"]
    changed = sorted(k for k in got if got[k] != pinned[k])
    assert not changed, f"the native engine ends {len(changed)} pinned games differently"
    assert len(got) == 40


if __name__ == "__main__" and "--regen" in sys.argv:
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
    from tests.engine.conftest import ROOT
    from tether_build.content.cards import normalized_cards
    from tether_build.content.load import load_content
    from tether_build.effects.compile import compile_engine
    from tether_build.engine.ruleset import Ruleset

    content = load_content(ROOT / "tests" / "fixtures" / "content")
    rules = Ruleset.from_compiled(compile_engine(normalized_cards(content), content))
    DATA.write_text(json.dumps(digests(rules), indent=1, sort_keys=True) + "\n")
    print(f"wrote {DATA}")
