"""Card examples: small written scenarios (`examples:` on a card) run in the real engine.

An example builds a 2-player board (its `seed`), gives each player Gold, mana, Permanence
and cards, sets Market or Power decks (`decks:`), puts units on named hexes (see
`example_agent`), sets the Bridges (`bridges: all` by default, `none`, or a list of hex
pairs), forces the first die faces, and then does one thing as seat 0: `play:` a card
(default: the card that carries the example), `march:`, `reinforce:`, `ability:` (an "as
an action" ability), `battle:` or `phase:` (reset, collection, scoring or cleanup), then
each of `then:` in order (the same keys; `seat: 1` makes the opponent do a play, March,
Reinforce or ability). Each doing's seat answers its decisions from that doing's
`choose:`, in order. `expect:` is compared with the state after; a mismatch is reported
as `file:line: card: example N: expected ..., got ...`. An ability's or passive's
example is also played without that ability and must then differ (or, with
`unaffected: true`, must not).
"""

from __future__ import annotations

from ..engine.scenario import give, new_card, put_champion, scenario
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
PHASES = {"reset": "reset_phase", "collection": "collection_phase",
          "scoring": "scoring_phase", "cleanup": "cleanup_phase"}  # Game methods
ZONES = ("hand", "discard", "draw")


class ExampleDice(ForcedDice):
    """Forced faces for `roll` steps (randint) and battle dice (random() * 6 < hit)."""

    def random(self) -> float:
        """The next forced face as a uniform draw inside that face, else a fair draw."""
        if self.faces:
            return (self.faces.pop(0) - 0.5) / 6
        return super().random()

    def getrandbits(self, k: int) -> int:
        """Fair bits: defined here so that random choices among units (`_randbelow`) keep
        drawing bits and never take a forced die face (Random picks by what a subclass
        overrides)."""
        return super().getrandbits(k)


def _setup(rules, ex: dict):
    seed = ex.get("seed", 0)
    given = ex.get("players", [])
    agents = [ExampleAgent(), QuietAgent()]
    factions = [(given[p] if p < len(given) else {}).get("faction", rules.default_faction)
                for p in range(2)]
    for f in factions:
        if f not in rules.factions:
            raise ExampleError(f"expected a faction id ({', '.join(sorted(rules.factions))}), "
                               f"got {f!r}")
    g = scenario(rules, 2, seed, factions=factions, agents=agents)
    g.rng = ExampleDice(seed, ex.get("dice", ()))
    names = agents[0].names = agents[1].names = named_hexes(g)
    for p, want in enumerate(given):
        pl = g.s.players[p]
        pl.gold, pl.mana = want.get("gold", 0), want.get("mana", 0)
        pl.pvp, pl.played_count = want.get("permanence", 0), want.get("played", 0)
        for zone in ZONES:  # a draw pile is given top first; the engine draws from its end
            ids = want.get(zone, [])
            for cid in reversed(ids) if zone == "draw" else ids:
                give(g, p, known(g, cid), zone)
    for deck, ids in ex.get("decks", {}).items():
        if deck not in g.s.decks:
            raise ExampleError(f"expected a Market or Power deck id, got {deck!r} "
                               f"(decks: {', '.join(sorted(g.s.decks))})")
        g.s.decks[deck] = [new_card(g, known(g, cid)) for cid in reversed(ids)]
    for u in ex.get("units", []):
        h = hex_of(names, u["hex"])
        g.s.add_forces(u["player"], h, u.get("cohorts", 0))
        if "champion" in u:
            put_champion(g, u["player"], known(g, u["champion"]), h, u.get("hp"))
    bridges = ex.get("bridges", "all")
    if bridges == "all":
        g.s.bridges.update(g.s.topo.edges)
    elif bridges != "none":
        g.s.bridges.update(edge_of(names, pair, g.s.topo) for pair in bridges)
    g.dirty.clear()
    return g, names


def _in_hand(g, seat: int, card_id: str) -> int:
    """The first copy of the card in the seat's hand (a gained card keeps its changes),
    else a new copy put there."""
    cards = g.s.cards
    for iid in g.s.players[seat].hand:
        if cards[iid].defn.id == card_id:
            return iid
    return give(g, seat, card_id, "hand")


def known(g, card_id: str) -> str:
    """A card id the content defines, or an ExampleError naming it."""
    if card_id not in g.rules.by_id:
        import difflib

        close = difflib.get_close_matches(str(card_id), list(g.rules.by_id), n=1, cutoff=0.6)
        raise ExampleError(f"expected a card id, got {card_id!r}"
                           + (f" (did you mean {close[0]!r}?)" if close else ""))
    return card_id


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
                               "bridged": edge_of(names, b["between"], s.topo) in s.bridges})
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


def _doings(ex: dict, card_id: str | None) -> list[tuple[str, dict]] | str:
    """The example's doing, then each of `then:`, as (kind, the dict holding it)."""
    out = []
    for part in [ex, *ex.get("then", [])]:
        kinds = [k for k in DOINGS if k in part]
        if len(kinds) > 1:
            return f"expected one of {', '.join(DOINGS)}, got {' and '.join(kinds)}"
        if not kinds and (part is not ex or card_id is None):
            return f"expected one of {', '.join(DOINGS)}, got none"
        out.append((kinds[0] if kinds else "play", part))
    return out


def run_example(rules, card_id: str | None, ex: dict, without=()) -> str | None:
    """Play one example; None when the state after matches `expect`, else the message.
    `without`: abilities (engine Ability objects) the game must not have, as if unprinted."""
    doings = _doings(ex, card_id)
    if isinstance(doings, str):
        return doings
    try:
        g, names = _setup(rules, ex)
        if without:
            _strip(g, without)
        for kind, part in doings:
            _do(g, names, kind, part, card_id if part is ex else None)
        why = g.agents[0].unused() or g.agents[1].unused()
    except ExampleError as exc:
        return str(exc)
    if why:
        return why
    want, got = _wanted(ex["expect"]), _observed(g, names, ex["expect"])
    if got != want:
        return f"expected {_show(want)}, got {_show(got)}"
    return None


def _strip(g, without) -> None:
    """Remove these abilities from the game and keep them from being installed later."""
    hooks = g.hooks
    hooks.remove_where(lambda act: getattr(act, "ability", None) in without)
    install = hooks.install_ability

    def install_unless(ab, owner, champ=None):
        return None if ab in without else install(ab, owner, champ)
    hooks.install_ability = install_unless


def _do(g, names, doing: str, part: dict, card_id: str | None) -> None:
    """Seat 0 does one thing of the example (a play, a basic action, a battle, a phase)."""
    seat = part.get("seat", 0)
    g.agents[seat].answers.extend(part.get("choose", ()))
    if doing == "battle":
        b = part["battle"]
        g.battle(hex_of(names, b["hex"]), b["attacker"], 1 - b["attacker"],
                 b.get("siege", False))
        return
    if doing == "phase":
        getattr(g, PHASES[part["phase"]])()
        return
    agent = g.agents[seat]
    if doing == "play":
        iid = _in_hand(g, seat, known(g, part.get("play", card_id)))
        agent.action = lambda o: o == ("card", iid)
        mana, gold, _ = g.card_cost(seat, g.s.cards[iid])
        pl = g.s.players[seat]
        agent.what = (f"playing {g.s.cards[iid].defn.id} (it costs {mana} mana and {gold} "
                      f"Gold now; seat {seat} has {pl.mana} mana and {pl.gold} Gold)")
    elif doing == "march":
        agent.action = lambda o: o[0] == "march" and fits(g, names, {"move": part["march"]},
                                                           o[1], seat)
    elif doing == "reinforce":
        agent.action = lambda o: o == ("reinforce", hex_of(names, part["reinforce"]))
    else:
        agent.action = lambda o: o[0] == "ability" and o[2] == part["ability"]
    if doing != "play":
        agent.what = f"the {doing} {part[doing]}"
    plan = g.reveal_action(g.choose_action(seat))
    (g.resolve_card if plan["kind"] == "card" else g.resolve_basic)(plan)


def _show(d: dict) -> str:
    parts = [f"player {p} {x}" for p, x in enumerate(d["players"])]
    parts += [f"player {u['player']} on {u['hex']}: "
              + ", ".join(f"{k} {u[k]}" for k in ("cohorts", "champion", "hp") if k in u)
              for u in d["units"]]
    parts += [f"{'a' if b['bridged'] else 'no'} Bridge between {b['between'][0]} and "
              f"{b['between'][1]}" for b in d["bridges"]]
    return "; ".join(parts)


def _subjects(content):
    """(subject, carrier id, examples, doc key, path of examples, file, ability) of every
    holder; ability is (card or faction id, ability name) for abilities and passives."""
    for card in content.cards:
        src = card["_src"]
        base = ("cards", src["index"])
        yield (card["id"], card["id"], card.get("examples", []), src["doc"], base, src["file"],
               None)
        for a, ab in enumerate((card.get("champion") or {}).get("abilities", [])):
            yield (f"{card['id']}.{ab['name']}", None, ab.get("examples", []), src["doc"],
                   base + ("champion", "abilities", a), src["file"], (card["id"], ab["name"]))
    for fid, fac in sorted(content.factions.items()):
        doc = next((k for k, d in content.docs.items()
                    if isinstance(d.data, dict) and fid in d.data.get("factions", {})), None)
        for a, ab in enumerate(fac["passives"]):
            yield (f"{fid}.{ab['name']}", None, ab.get("examples", []), doc,
                   ("factions", fid, "passives", a), content.docs[doc].path if doc else "-",
                   (fid, ab["name"]))


def _abilities(rules, owner: str, name: str) -> set:
    """The engine's Ability objects of a Champion card's ability or a faction's passive."""
    if owner in rules.factions:
        pool = rules.factions[owner].passives
    else:
        pool = rules.by_id[owner].abilities if owner in rules.by_id else []
    return {ab for ab in pool if ab.name == name}


def _without(rules, ability, ex: dict, card_id) -> str | None:
    """The example played again without its ability: it must then fail (it shows what the
    ability does), or pass as well if it says `unaffected: true`."""
    owner, name = ability
    without = _abilities(rules, owner, name)
    if not without:
        return None  # not in play (an idea): nothing to take away
    why = run_example(rules, card_id, ex, without)
    if ex.get("unaffected"):
        return None if why is None else (
            f"expected the same result without {name} (unaffected: true), got {why}")
    if why is None:
        return (f"expected a different result without {name} (else the example does not "
                f"show what {name} does), got the same")
    return None


def run_examples(rules, content, located: bool = True) -> tuple[int, list]:
    """Run every example of the content (cards, Champion abilities, faction passives), each
    example of an ability also without that ability: (examples run, failures located at the
    example's line). located=False: each failure as [holder number, example number, why]
    (locate_failures places them in the content)."""
    n, fails = 0, []
    for h, (_, card_id, examples, _, _, _, ability) in enumerate(_subjects(content)):
        for k, ex in enumerate(examples):
            n += 1
            try:
                why = run_example(rules, card_id, ex)
                if why is None and ability is not None:
                    why = _without(rules, ability, ex, card_id)
            except Exception as exc:  # noqa: BLE001  (reported as the example's failure)
                why = f"expected it to resolve, got {type(exc).__name__}: {exc}"
            if why:
                fails.append([h, k, why])
    return n, locate_failures(content, fails) if located else fails


def locate_failures(content, fails: list) -> list[Failure]:
    """Failures [holder number, example number, why] (run_examples) as Failures located at
    their example's line in `content`."""
    holders = list(_subjects(content))
    out = []
    for h, k, why in fails:
        subject, _, _, doc_key, path, file, _ = holders[h]
        doc = content.docs.get(doc_key)
        line = doc.locate(path + ("examples", k))[0] if doc else 0
        out.append(Failure(subject, "example", file, line, f"example {k + 1}", why))
    return out


def examples_form(content) -> list:
    """Every holder's examples as the engine plays them (the card or the ability that
    carries them, with no file or line), in run_examples' order: what their results depend
    on besides the definitions and the game constants (memo.examples_key)."""
    return [[subject, card_id, examples, list(ability) if ability else None]
            for subject, card_id, examples, _, _, _, ability in _subjects(content)]
