"""Card examples: small written scenarios (`examples:` on a card) run in the real engine.

An example builds a 2-player board (its `seed`), gives each player Gold, mana, Permanence
and cards, puts units on named hexes (see `example_agent`), sets the Bridges (`bridges: all`
by default, `none`, or a list of hex pairs), forces the first die faces, and then does one
thing as seat 0: `play:` a card (default: the card that carries the example), `march:`,
`reinforce:`, `ability:` (an "as an action" ability), `battle:` or `phase:` (reset,
collection, scoring or cleanup). Seat 0's decisions take the answers of `choose:` in order.
`expect:` is compared with the state after; a mismatch is reported as
`file:line: card: example N: expected ..., got ...`.
"""

from __future__ import annotations

from ..engine import phases
from ..engine.actions import choose, resolve_basic, resolve_card, reveal
from ..engine.scenario import give, put_champion, scenario
from .example_agent import (
    ExampleAgent,
    ExampleError,
    QuietAgent,
    edge_of,
    fits,
    hex_of,
    named_hexes,
)
from .model import Failure
from .world import ForcedDice

DOINGS = ("play", "march", "reinforce", "ability", "battle", "phase")
PHASES = {"reset": phases.reset_phase, "collection": phases.collection_phase,
          "scoring": phases.scoring_phase, "cleanup": phases.cleanup_phase}
ZONES = ("hand", "discard", "draw")


class ExampleDice(ForcedDice):
    """Forced faces for `roll` steps (randint) and battle dice (random() * 6 < hit)."""

    def random(self) -> float:
        """The next forced face as a uniform draw inside that face, else a fair draw."""
        if self.faces:
            return (self.faces.pop(0) - 0.5) / 6
        return super().random()


def _setup(rules, ex: dict):
    seed = ex.get("seed", 0)
    given = ex.get("players", [])
    agents = [ExampleAgent(ex.get("choose", ())), QuietAgent()]
    factions = [(given[p] if p < len(given) else {}).get("faction", rules.default_faction)
                for p in range(2)]
    g = scenario(rules, 2, seed, factions=factions, agents=agents)
    g.rng = ExampleDice(seed, ex.get("dice", ()))
    names = agents[0].names = named_hexes(g)
    for p, want in enumerate(given):
        pl = g.s.players[p]
        pl.gold, pl.mana = want.get("gold", 0), want.get("mana", 0)
        pl.pvp, pl.played_count = want.get("permanence", 0), want.get("played", 0)
        for zone in ZONES:
            for cid in want.get(zone, []):
                give(g, p, cid, zone)
    for u in ex.get("units", []):
        h = hex_of(names, u["hex"])
        g.s.add_forces(u["player"], h, u.get("cohorts", 0))
        if "champion" in u:
            put_champion(g, u["player"], u["champion"], h, u.get("hp"))
    bridges = ex.get("bridges", "all")
    if bridges == "all":
        g.s.bridges.update(g.s.topo.edges)
    elif bridges != "none":
        g.s.bridges.update(edge_of(names, pair) for pair in bridges)
    g.dirty.clear()
    return g, names


def _observed(g, names, expect: dict) -> dict:
    s = g.s
    out: dict = {"players": [], "units": [], "bridges": []}
    for p, want in enumerate(expect.get("players", [])):
        pl = s.players[p]
        got = {"gold": pl.gold, "mana": pl.mana, "hand": len(pl.hand),
               "discard": len(pl.discard), "draw": len(pl.draw), "permanence": pl.pvp,
               "control": pl.cvp,
               "hand_cards": sorted(s.cards[i].defn.id for i in pl.hand),
               "discard_cards": sorted(s.cards[i].defn.id for i in pl.discard)}
        out["players"].append({k: got[k] for k in want})
    for u in expect.get("units", []):
        h = hex_of(names, u["hex"])
        got = {**u, "cohorts": s.forces[h].get(u["player"], 0)}
        if "champion" in u:
            got["hp"] = next((c.hp for c in s.champs_at[h] if c.owner == u["player"]
                              and c.defn.id == u["champion"]), 0)
        out["units"].append({k: got[k] for k in _unit_keys(u)})
    for b in expect.get("bridges", []):
        out["bridges"].append({"between": b["between"],
                               "bridged": edge_of(names, b["between"]) in s.bridges})
    return out


def _unit_keys(u: dict) -> list[str]:
    """What an expected unit entry compares: Cohorts always unless it names a Champion."""
    keys = [k for k in ("hex", "player", "cohorts", "champion", "hp") if k in u]
    return keys if "champion" in u or "cohorts" in u else [*keys, "cohorts"]


def _wanted(expect: dict) -> dict:
    return {"players": [{k: sorted(v) if k.endswith("_cards") else v for k, v in p.items()}
                        for p in expect.get("players", [])],
            "units": [{k: u.get(k, 0) for k in _unit_keys(u)} for u in expect.get("units", [])],
            "bridges": [{"between": b["between"], "bridged": b["bridged"]}
                        for b in expect.get("bridges", [])]}


def run_example(rules, card_id: str | None, ex: dict) -> str | None:
    """Play one example; None when the state after matches `expect`, else the message."""
    doing = [k for k in DOINGS if k in ex]
    if len(doing) > 1:
        return f"expected one of {', '.join(DOINGS)}, got {' and '.join(doing)}"
    try:
        g, names = _setup(rules, ex)
        why = _do(g, names, doing[0] if doing else "play", ex, card_id)
        why = why or g.agents[0].unused()
    except ExampleError as exc:
        return str(exc)
    if why:
        return why
    want, got = _wanted(ex["expect"]), _observed(g, names, ex["expect"])
    if got != want:
        return f"expected {_show(want)}, got {_show(got)}"
    return None


def _do(g, names, doing: str, ex: dict, card_id: str | None) -> str | None:
    """Seat 0 does the example's one thing; a message when it cannot."""
    if doing == "battle":
        b = ex["battle"]
        g.battle(hex_of(names, b["hex"]), b["attacker"], 1 - b["attacker"],
                 b.get("siege", False))
        return None
    if doing == "phase":
        PHASES[ex["phase"]](g)
        return None
    agent = g.agents[0]
    if doing == "play":
        card = ex.get("play", card_id)
        if card is None:
            return f"expected one of {', '.join(DOINGS)}, got none"
        iid = give(g, 0, card, "hand")
        agent.action = lambda o: o == ("card", iid)
    elif doing == "march":
        agent.action = lambda o: o[0] == "march" and fits(g, names, {"move": ex["march"]},
                                                           o[1])
    elif doing == "reinforce":
        agent.action = lambda o: o == ("reinforce", hex_of(names, ex["reinforce"]))
    else:
        agent.action = lambda o: o[0] == "ability" and o[2] == ex["ability"]
    plan = reveal(g, choose(g, 0))
    (resolve_card if plan["kind"] == "card" else resolve_basic)(g, plan)
    return None


def _show(d: dict) -> str:
    parts = [f"player {p} {x}" for p, x in enumerate(d["players"])]
    parts += [f"player {u['player']} on {u['hex']}: "
              + ", ".join(f"{k} {u[k]}" for k in ("cohorts", "champion", "hp") if k in u)
              for u in d["units"]]
    parts += [f"{'a' if b['bridged'] else 'no'} Bridge between {b['between'][0]} and "
              f"{b['between'][1]}" for b in d["bridges"]]
    return "; ".join(parts)


def _subjects(content):
    """(subject, carrier id, examples, doc key, path of examples, file, line) of every holder."""
    for card in content.cards:
        src = card["_src"]
        base = ("cards", src["index"])
        yield card["id"], card["id"], card.get("examples", []), src["doc"], base, src["file"]
        for a, ab in enumerate((card.get("champion") or {}).get("abilities", [])):
            yield (f"{card['id']}.{ab['name']}", None, ab.get("examples", []), src["doc"],
                   base + ("champion", "abilities", a), src["file"])
    for fid, fac in sorted(content.factions.items()):
        doc = next((k for k, d in content.docs.items()
                    if isinstance(d.data, dict) and fid in d.data.get("factions", {})), None)
        for a, ab in enumerate(fac["passives"]):
            yield (f"{fid}.{ab['name']}", None, ab.get("examples", []), doc,
                   ("factions", fid, "passives", a), content.docs[doc].path if doc else "-")


def run_examples(rules, content) -> tuple[int, list[Failure]]:
    """Run every example of the content (cards, Champion abilities, faction passives):
    (examples run, failures located at the example's line)."""
    n, fails = 0, []
    for subject, card_id, examples, doc_key, path, file in _subjects(content):
        doc = content.docs.get(doc_key)
        for k, ex in enumerate(examples):
            n += 1
            try:
                why = run_example(rules, card_id, ex)
            except Exception as exc:  # noqa: BLE001  (reported as the example's failure)
                why = f"expected it to resolve, got {type(exc).__name__}: {exc}"
            if why:
                line = doc.locate(path + ("examples", k))[0] if doc else 0
                fails.append(Failure(subject, "example", file, line, f"example {k + 1}",
                                     why))
    return n, fails
