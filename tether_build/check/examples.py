"""Card examples: small written scenarios (`examples:` on a card) run in the real engine.

An example gives each player's gold, mana and units (Cohorts per named hex: `capital`,
`enemy_capital`, `center`), optional die faces and a seed; the card is played by seat 0 as
the Action Phase does (declare, pay, resolve; every choice takes the first option) and
`expect:` is compared with the state after. A mismatch is reported as
`file:line: card: example N: expected ..., got ...`.
"""

from __future__ import annotations

from ..engine.actions import declare, playable, resolve_card
from ..engine.scenario import give, scenario
from .model import Failure
from .world import ForcedDice, ScriptAgent

PLAYER_FIELDS = ("gold", "mana", "hand", "discard")


def _hexes(g) -> dict[str, int]:
    s = g.s
    return {"capital": s.players[0].capital, "enemy_capital": s.players[1].capital,
            "center": s.topo.center}


def _setup(rules, card_id: str, ex: dict):
    agents = [ScriptAgent("first", ex.get("seed", 0)) for _ in range(2)]
    g = scenario(rules, 2, ex.get("seed", 0), agents=agents)
    g.rng = ForcedDice(ex.get("seed", 0), ex.get("dice", ()))
    names = _hexes(g)
    for p, given in enumerate(ex.get("players", [])):
        pl = g.s.players[p]
        pl.gold, pl.mana = given.get("gold", 0), given.get("mana", 0)
        for cid in given.get("hand", []):
            give(g, p, cid, "hand")
    for u in ex.get("units", []):
        g.s.add_forces(u["player"], names[u["hex"]], u.get("cohorts", 0))
    g.s.bridges.update(g.s.topo.edges)
    g.dirty.clear()
    return g, names


def _observed(g, names, expect: dict) -> dict:
    out: dict = {"players": [], "units": []}
    for p, want in enumerate(expect.get("players", [])):
        pl = g.s.players[p]
        got = {"gold": pl.gold, "mana": pl.mana, "hand": len(pl.hand),
               "discard": len(pl.discard)}
        out["players"].append({k: got[k] for k in want})
    for u in expect.get("units", []):
        out["units"].append({**u, "cohorts": g.s.forces[names[u["hex"]]].get(u["player"], 0)})
    return out


def run_example(rules, card_id: str, ex: dict) -> str | None:
    """Play one example; None when the state after matches `expect`, else the message."""
    g, names = _setup(rules, card_id, ex)
    iid = give(g, 0, card_id, "hand")
    if not playable(g, 0, iid):
        return "expected the card to be playable, got unplayable"
    g.agents[0].play = iid
    plan = declare(g, 0)
    if plan.get("kind") != "card":
        return "expected the card to be declared, got another action"
    resolve_card(g, plan)
    want = {k: ex["expect"].get(k, []) for k in ("players", "units")}
    got = _observed(g, names, ex["expect"])
    if got != want:
        return f"expected {_show(want)}, got {_show(got)}"
    return None


def _show(d: dict) -> str:
    parts = [f"player {p} {x}" for p, x in enumerate(d["players"])]
    parts += [f"{u['cohorts']} Cohorts of player {u['player']} on {u['hex']}"
              for u in d["units"]]
    return "; ".join(parts)


def run_examples(rules, content) -> tuple[int, list[Failure]]:
    """Run every card example of the content: (examples run, failures located)."""
    n, fails = 0, []
    for card in content.cards:
        src = card["_src"]
        doc = content.docs.get(src["doc"])
        for k, ex in enumerate(card.get("examples", [])):
            n += 1
            try:
                why = run_example(rules, card["id"], ex)
            except Exception as exc:  # noqa: BLE001  (reported as the example's failure)
                why = f"expected it to resolve, got {type(exc).__name__}: {exc}"
            if why:
                line = doc.locate(("cards", src["index"], "examples", k))[0] if doc \
                    else src["line"]
                fails.append(Failure(card["id"], "example", src["file"], line,
                                     f"example {k + 1}", why))
    return n, fails
