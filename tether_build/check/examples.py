"""Card examples: small written scenarios (`examples:` on a card) run in the real engine.

An example gives each player's gold, mana and units (Cohorts per named hex: `capital`,
`enemy_capital`, `center`), optional die faces and a seed; the card is played by seat 0 as
the Action Phase does (declare, pay, resolve; every choice takes the first option) and
`expect:` is compared with the state after. A mismatch is reported as
`file:line: card: example N: expected ..., got ...`.
"""

from __future__ import annotations

from ..engine.actions import declare, playable, resolve_card
from ..engine.scenario import give, put_champion, scenario
from .model import Failure
from .world import ForcedDice, ScriptAgent

PLAYER_FIELDS = ("gold", "mana", "hand", "discard")


class ExampleDice(ForcedDice):
    """Forced faces for `roll` steps (randint) and battle dice (random() * 6 < hit)."""

    def random(self) -> float:
        """The next forced face as a uniform draw inside that face, else a fair draw."""
        if self.faces:
            return (self.faces.pop(0) - 0.5) / 6
        return super().random()


def _hexes(g) -> dict[str, int]:
    s = g.s
    return {"capital": s.players[0].capital, "enemy_capital": s.players[1].capital,
            "center": s.topo.center}


def _setup(rules, card_id: str, ex: dict):
    agents = [ScriptAgent("first", ex.get("seed", 0)) for _ in range(2)]
    given = ex.get("players", [])
    factions = [(given[p] if p < len(given) else {}).get("faction", rules.default_faction)
                for p in range(2)]
    g = scenario(rules, 2, ex.get("seed", 0), factions=factions, agents=agents)
    g.rng = ExampleDice(ex.get("seed", 0), ex.get("dice", ()))
    names = _hexes(g)
    for p, given in enumerate(ex.get("players", [])):
        pl = g.s.players[p]
        pl.gold, pl.mana = given.get("gold", 0), given.get("mana", 0)
        for cid in given.get("hand", []):
            give(g, p, cid, "hand")
    for u in ex.get("units", []):
        g.s.add_forces(u["player"], names[u["hex"]], u.get("cohorts", 0))
        if "champion" in u:
            put_champion(g, u["player"], u["champion"], names[u["hex"]], u.get("hp"))
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
        h = names[u["hex"]]
        got = {**u, "cohorts": g.s.forces[h].get(u["player"], 0)}
        if "champion" in u:
            got["hp"] = next((c.hp for c in g.s.champs_at[h] if c.owner == u["player"]
                              and c.defn.id == u["champion"]), 0)
        out["units"].append({k: got[k] for k in _unit_keys(u)})
    return out


def _unit_keys(u: dict) -> list[str]:
    """What an expected unit entry compares: Cohorts always unless it names a Champion."""
    keys = [k for k in ("hex", "player", "cohorts", "champion", "hp") if k in u]
    return keys if "champion" in u or "cohorts" in u else [*keys, "cohorts"]


def run_example(rules, card_id: str | None, ex: dict) -> str | None:
    """Play one example; None when the state after matches `expect`, else the message."""
    g, names = _setup(rules, card_id, ex)
    if "battle" in ex:
        b = ex["battle"]
        g.battle(names[b["hex"]], b["attacker"], 1 - b["attacker"], b.get("siege", False))
    else:
        why = _play(g, ex.get("play", card_id))
        if why:
            return why
    want = {"players": ex["expect"].get("players", []),
            "units": [{k: u.get(k, 0) for k in _unit_keys(u)}
                      for u in ex["expect"].get("units", [])]}
    got = _observed(g, names, ex["expect"])
    if got != want:
        return f"expected {_show(want)}, got {_show(got)}"
    return None


def _play(g, card_id: str | None) -> str | None:
    if card_id is None:
        return "expected a play: or battle:, got neither"
    iid = give(g, 0, card_id, "hand")
    if not playable(g, 0, iid):
        return "expected the card to be playable, got unplayable"
    g.agents[0].play = iid
    plan = declare(g, 0)
    if plan.get("kind") != "card":
        return "expected the card to be declared, got another action"
    resolve_card(g, plan)
    return None


def _show(d: dict) -> str:
    parts = [f"player {p} {x}" for p, x in enumerate(d["players"])]
    parts += [f"player {u['player']} on {u['hex']}: "
              + ", ".join(f"{k} {u[k]}" for k in ("cohorts", "champion", "hp") if k in u)
              for u in d["units"]]
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
