"""What the Play page sends one seat: built from that seat's observation, by construction.

`seat_state(table, words, viewer)` starts from `game.observation(viewer)` (engine/views.py:
the public board, every seat's Gold and Mana, the viewer's own hand and Permanent VP) and
adds only public things: the decision waiting for the viewer (its legal options, in words),
which seat decides now, and the event log written for the viewer (playwords.Words.event).
A spectator (viewer None) gets the observation of no seat. The board is the printed map's
hexes with the units, drawn as SVG by playboard.py.
"""

from __future__ import annotations

import re
from types import SimpleNamespace

from ..engine.topo import edge_ends

HEX_NAME = re.compile(r"\(-?\d+,-?\d+\)")  # a hex as the observation names it: (q,r)


def tile_content(content) -> SimpleNamespace:
    """The parts of the content the board drawing reads (kept with a running game)."""
    return SimpleNamespace(tiles=content.tiles, terms=content.terms, icons=content.icons)


def _option(words, g, kind: str, action: int, opt) -> dict:
    """One legal option: its action id (the state API's: what the page posts back), its words
    and what it points at (a card, hexes, a Bridge)."""
    s = g.s
    text = words.option(g, kind, opt)
    out = {"id": action, "text": text[:1].upper() + text[1:]}  # ("The Plain at 0,2")
    if kind == "move" and isinstance(opt, tuple):
        out["hexes"] = [opt[1], opt[4][-1]]
    elif isinstance(opt, tuple) and opt and isinstance(opt[0], str):
        head = opt[0]
        if head == "card":
            out["card"] = s.cards[opt[1]].defn.id
        elif head == "march":
            out["hexes"] = [opt[1][1], opt[1][4][-1]]
        elif head == "bridge":
            out["edge"] = list(edge_ends(opt[1]))
        elif head == "reinforce":
            out["hexes"] = [opt[1]]
        elif head in ("pass", "buy"):
            out["bid"] = [head, opt[1]]
    elif kind in ("hex",) and isinstance(opt, int):
        out["hexes"] = [opt]
    elif kind == "capital":  # a Capital slot: its hex, clicked on the board
        where = words.slot_hex(g, opt)
        if where in s.topo.index:
            out["hexes"] = [s.topo.index[where]]
    elif kind in ("bridge", "start_bridge") and isinstance(opt, int):
        out["edge"] = list(edge_ends(opt))
    elif hasattr(opt, "cid"):
        out["hexes"] = [opt.hex]
    elif kind not in ("player", "capital", "option", "may") and isinstance(opt, int) \
            and 0 <= opt < len(s.cards):
        out["card"] = s.cards[opt].defn.id
    return out


def board_state(obs: dict, words, g, viewer: int | None) -> dict:
    """The board, the seats and the viewer's hand, from an observation (engine/views.py)."""
    s = g.s
    name = s.topo.name
    by_name = {name(h): h for h in range(s.topo.n)}
    players = []
    for pl in obs["players"]:
        faction = words.rules.factions.get(pl["faction"])
        players.append({
            "seat": pl["seat"], "faction": faction.name if faction else pl["faction"],
            "gold": pl["gold"], "mana": pl["mana"], "control_vp": pl["control_vp"],
            "permanent_vp": pl["permanent_vp"], "hand_size": pl["hand_size"],
            "draw_size": pl["draw_size"], "capital": by_name.get(pl["capital"]),
            "discard": [words.card(c) for c in pl["discard"]],
            "played": [words.card(c) for c in pl["played"]]})
    me = obs["players"][viewer] if viewer is not None else None
    return {
        "round": obs["round"], "age": obs["age"], "lead": obs["lead"], "players": players,
        "hand": [{"id": c, "name": words.card(c)} for c in (me["hand"] or [])] if me else None,
        "mines": {str(by_name[k]): v for k, v in obs["mines"].items()},
        "forces": {str(by_name[k]): v for k, v in obs["forces"].items()},
        "champions": [{"seat": o, "id": cid, "name": words.card(cid), "hex": by_name[w],
                       "hp": hp, "max_hp": mx} for o, cid, w, hp, mx in obs["champions"]],
        "bridges": [[by_name[x] for x in HEX_NAME.findall(b)] for b in obs["bridges"]],
        "market": [{"id": c, "name": words.card(c)} for c in obs["revealed"]],
        "terms": {k: words.t(k) for k in ("gold", "mana", "control_vp", "permanent_vp", "hand",
                                          "round", "age", "lead", "force", "champion",
                                          "market", "draw_pile", "discard_pile", "vp",
                                          "bridge", "mine", "forge", "center")}
        | {k + "s": words.t(k, True) for k in ("force", "mine", "bridge", "champion")},
    }


def log_lines(events: list[dict], words, g, viewer: int | None) -> list[str]:
    """The event log as `viewer` may read it."""
    lines, prev = [], None
    for ev in events:
        if ev["e"] == "gain" and prev in ("buy", "pass_pot"):
            ev = {**ev, "public": True}
        text = words.event(g, ev, viewer)
        if text:
            lines.append(text)
        prev = ev["e"]
    return lines


def seat_state(table, words, viewer: int | None) -> dict:
    """The JSON for one seat (or a spectator): its observation plus public facts."""
    g = table.game
    out = {"over": table.over, "error": table.error, "viewer": viewer,
           "seats": table.seats, "delay": table.delay}
    if g is None:
        out["starting"] = True
        return out
    out.update(board_state(g.observation(-1 if viewer is None else viewer), words, g, viewer))
    s = g.s
    out["winner"] = list(s.winner) if table.over and s.winner else None
    if table.over:
        reveal_at_end(out, g)
    out["actions"] = len(table.actions)
    pend = table.pending
    if pend is not None and not table.over:
        out["deciding"] = pend.p
        if pend.p == viewer:
            mine = words.for_seat(viewer)  # "your Capital"
            out["decision"] = {
                "serial": pend.serial, "kind": pend.kind,
                "prompt": words.prompt(g, pend.kind, pend.ctx),
                "options": [_option(mine, g, pend.kind, a, o)
                            for a, o in zip(pend.ids, pend.options, strict=True)]}
            if isinstance(pend.ctx, dict) and "card" in pend.ctx:
                out["decision"]["up"] = s.cards[pend.ctx["card"]].defn.id
    out["log"] = log_lines(table.events, words, g, viewer)
    if viewer is None and "human" not in table.seats:  # watching agents: their reasons
        out["why"] = [{"seat": a["p"], "kind": a["kind"], "top": a["why"]}
                      for a in table.actions[-6:] if a.get("why")]
    return out


def replay_state(game, k: int) -> dict:
    """A replay at decision k of its timeline: the public board then, the log up to then."""
    table, words = game.table, game.rules.words
    hist = game.history
    k = max(0, min(k, len(hist) - 1)) if hist else 0
    out = {"over": True, "error": table.error, "viewer": None, "seats": table.seats,
           "replay": {"at": k, "length": len(hist)}, "delay": 0}
    if not hist:
        return out
    out.update(board_state(hist[k]["obs"], words, table.game, None))
    out["log"] = log_lines(table.events[:hist[k]["events"]], words, table.game, None)
    out["winner"] = list(table.game.s.winner) if k == len(hist) - 1 else None
    if k == len(hist) - 1:
        reveal_at_end(out, table.game)
    return out


def reveal_at_end(out: dict, g) -> None:
    """At the end every seat's Permanent VP and total are shown: §15.4 keeps each seat's
    VP its own during the game, and §3 decides the winner by Total VP (then Permanent VP,
    then Gold), which the table can check only with them shown."""
    for row, pl in zip(out["players"], g.s.players, strict=True):
        row["permanent_vp"] = pl.pvp
        row["total_vp"] = pl.pvp + pl.cvp
