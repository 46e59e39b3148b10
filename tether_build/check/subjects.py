"""What the check proves: every card, Champion ability and faction passive ("subjects"),
where each is written, which steps it has, and the scenarios worth trying for it."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from .instrument import assign_paths
from .world import Spec

RANDOM_SEEDS = 3  # subjects with chance in them run at least this many scenarios


@dataclass
class Subject:
    """One card effect (with its card triggers), Champion ability or faction passive."""

    kind: str                      # card | ability | passive
    id: str                        # card id, 'card.Ability' or 'faction.Passive'
    card: str | None               # the card played to set it up
    file: str
    line: int
    ability: object = None         # the compiled Ability (abilities, passives)
    faction: str | None = None
    uids: list[int] = field(default_factory=list)
    ifs: list[int] = field(default_factory=list)
    raw: list[dict] = field(default_factory=list)   # the step dicts (for shapers)
    requires: dict | None = None
    random: bool = False

    @property
    def name(self) -> str:
        """Readable name for reports."""
        return self.id


def subjects(rules, info: dict, content, cards: list[dict]) -> list[Subject]:
    """Every subject of the content, cards first (in content order), then passives."""
    src = {c["id"]: c["source"] for c in cards}
    out = []
    for c in rules.cards:
        where = src.get(c.id, {"file": "?", "line": 0})
        sub = Subject("card", c.id, c.id, where["file"], where["line"],
                      requires=c.raw.get("requires"))
        sub.uids = assign_paths(info, c.effect, "effect")
        sub.raw = list(c.raw["effect"])
        for ab in c.triggers:
            sub.uids += assign_paths(info, ab.steps, f"trigger[{ab.name}].steps")
            sub.raw += ab.raw.get("steps") or []
        out.append(_finish(sub, info))
        for i, ab in enumerate(c.abilities):
            line = _ability_line(content, c.id, i) or where["line"]
            sub = Subject("ability", f"{c.id}.{ab.name or i}", c.id, where["file"], line,
                          ability=ab, requires=c.raw.get("requires"))
            sub.uids = assign_paths(info, ab.steps, f"ability[{ab.name}].steps")
            sub.raw = list(ab.raw.get("steps") or [])
            out.append(_finish(sub, info))
    fdoc = content.docs.get("factions.yaml") if content is not None else None
    for fid, fac in sorted(rules.factions.items()):
        for i, ab in enumerate(fac.passives):
            line = _line(fdoc, ("factions", fid, "passives", _raw_index(content, fid, i)))
            sub = Subject("passive", f"{fid}.{ab.name or i}", None,
                          fdoc.path if fdoc else "factions.yaml", line, ability=ab,
                          faction=fid)
            sub.uids = assign_paths(info, ab.steps, f"passive[{ab.name}].steps")
            sub.raw = list(ab.raw.get("steps") or [])
            out.append(_finish(sub, info))
    return out


def _ability_line(content, card_id: str, i: int) -> int:
    """Line of a Champion's i-th ability in its card file (0 if unknown)."""
    src = next((c["_src"] for c in (content.cards if content else []) if c["id"] == card_id),
               None)
    if not src or src.get("doc") not in content.docs:
        return 0
    return _line(content.docs[src["doc"]], ("cards", src["index"], "champion", "abilities", i))


def _raw_index(content, fid: str, i: int) -> int:
    """Index in factions.yaml of the i-th passive in play (idea passives are skipped)."""
    if content is None:
        return i
    live = [k for k, a in enumerate(content.factions[fid]["passives"]) if not a.get("idea")]
    return live[i] if i < len(live) else i


def _line(doc, path) -> int:
    if doc is None:
        return 0
    try:
        return doc.locate(path)[0]
    except Exception:  # noqa: BLE001  (a location is a nicety, never a failure)
        return 0


def _finish(sub: Subject, info: dict) -> Subject:
    sub.ifs = [u for u in sub.uids if info[u].kind == "if"]
    sub.random = any(_is_random(info[u].params) for u in sub.uids) or _is_random(
        sub.ability.raw if sub.ability else {})
    return sub


def _is_random(node) -> bool:
    if isinstance(node, dict):
        if node.get("step") in ("roll", "scatter") or node.get("pick") == "random":
            return True
        return any(_is_random(v) for v in node.values())
    if isinstance(node, list):
        return any(_is_random(v) for v in node)
    return False


def plans(sub: Subject, info: dict):
    """Scenarios to try, most telling first: the plain state, each condition both ways,
    each option of a choice, each outcome of a die, the card's counter raised; then the
    same under other choice policies and seeds."""
    need = ((sub.requires, True),) if sub.requires else ()
    base = Spec(shapes=need, faction=sub.faction,
                passives=(sub.ability,) if sub.kind == "passive" else ())
    labels = [o["label"] for u in sub.uids if info[u].kind == "choose_one"
              for o in info[u].params["options"]]
    shapes = [need] + [need + ((info[u].params["condition"], want),)
                       for u in sub.ifs for want in (True, False)]
    variants = [{}] + [{"label": x} for x in labels]
    variants += [{"faces": (o["faces"][0],)} for u in sub.uids if info[u].kind == "roll"
                 for o in info[u].params["outcomes"]]
    if '"card_counter"' in repr(sub.raw).replace("'", '"'):
        variants.append({"counter": 2})
    if sub.random:  # chance in it: the plain state under several seeds comes first
        for seed in range(1, RANDOM_SEEDS):
            yield replace(base, seed=seed)
    policies = [{}, {"policy": "last"}, {"policy": "decline"}, {"policy": "contact"}]
    policies += [{"policy": "random", "seed": k} for k in range(1, 4)]
    for pol in policies:
        for sh in shapes:
            for var in variants:
                yield replace(base, shapes=sh, **pol, **var)
    for seed in range(1, RANDOM_SEEDS + 3):
        yield replace(base, seed=seed)
