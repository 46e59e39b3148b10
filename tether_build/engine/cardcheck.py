"""Play every card once from a rich constructed state: does it declare and resolve?

A smoke check of the whole card set through the real handlers (issue 4 builds the full
per-card proof on top). The state: seat 0 holds its Capital, a Mine (with a Champion), a
Forge and the Center, Bridges around them; seat 1 sits next to the Mine with Forces and a
Champion; both have gold, mana and cards in hand and draw pile.
"""

from __future__ import annotations

from .agents import RandomAgent
from .core import Ctx
from .scenario import give, hex_of_kind, put_champion, scenario
from .topo import edge_key


def rich_state(rules, seed: int = 0):
    """The constructed two-player state described in the module docstring."""
    g = scenario(rules, 2, seed, factions=[rules.default_faction] * 2, forces=3,
                 agents=[RandomAgent(), RandomAgent()])
    s = g.s
    caps = set(s.capital_of)
    mine, forge = hex_of_kind(g, "mine", caps), hex_of_kind(g, "forge", caps)
    center = s.topo.center
    for h in (mine, forge, center):
        s.add_forces(0, h, 2)
        for e in s.topo.edges_of[h]:
            s.bridges.add(e)
    enemy = next(n for n in s.topo.nbrs[mine] if not s.occupants(n) and n not in caps)
    s.add_forces(1, enemy, 2)
    s.bridges.add(edge_key(mine, enemy))
    put_champion(g, 0, "ironclad_warden", mine)
    put_champion(g, 0, "sergeant", s.players[0].capital)
    put_champion(g, 1, "sergeant", enemy)
    for p, pl in enumerate(s.players):
        pl.gold, pl.mana = 30, 10
        for cid in ("zap", "supply_cache", "recruit", "scout_report"):
            give(g, p, cid, "draw")
            give(g, p, cid, "hand")
    g.dirty.clear()
    return g


def try_card(rules, card_id: str, seed: int = 0) -> str:
    """'resolved', 'fizzled', 'unplayable' or 'error: ...' for one card in the rich state
    (and, if it cannot be played there, in the same state with a third friendly Champion)."""
    out = _try(rules, card_id, seed, extra_champion=False)
    return out if out != "unplayable" else _try(rules, card_id, seed, extra_champion=True)


def _try(rules, card_id: str, seed: int, extra_champion: bool) -> str:
    g = rich_state(rules, seed)
    if extra_champion:
        put_champion(g, 0, "sergeant", g.s.players[0].capital)
    iid = give(g, 0, card_id)
    inst = g.s.cards[iid]
    if inst.defn.requires is not None and not inst.defn.requires(Ctx(g, 0, inst)):
        g.s.players[0].mana = 10
    if not g.playable(0, iid):
        return "unplayable"
    try:
        locks = g.declare_card(0, inst, dry=False)
        pl = g.s.players[0]
        pl.hand.remove(iid)
        pl.played.append(iid)
        g.resolve_card({"p": 0, "inst": inst, "locks": locks["locks"], "refs": locks["refs"]})
    except Exception as exc:  # noqa: BLE001  (reported, this is a checker)
        return f"error: {type(exc).__name__}: {exc}"
    return "fizzled" if g.stats["fizzled"] else "resolved"


def try_every_card(rules, seeds=(0, 1, 2)) -> dict[str, dict[str, int]]:
    """card id -> {outcome: count} over a few seeds."""
    out: dict[str, dict[str, int]] = {}
    for c in rules.cards:
        tally: dict[str, int] = {}
        for seed in seeds:
            r = try_card(rules, c.id, seed)
            tally[r] = tally.get(r, 0) + 1
        out[c.id] = tally
    return out
