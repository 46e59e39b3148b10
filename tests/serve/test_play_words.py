"""Hexes in the Play page's words as a player reads the board: the Capital slots and the
starting Bridges name "your Capital", tiles by the glossary and the coordinates the board
prints on each hex, never the engine's "(q,r)"."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import pytest

from tether_build.serve.play import Lobby, handle

NS = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def lobby(tmp_path_factory):
    from tests.conftest import CONTENT
    return Lobby(CONTENT, open_seeds=True, key_file=tmp_path_factory.mktemp("k") / "play.key")


def _call(lobby, method, path, data=None, **query):
    status, body, _ = handle(lobby, method, path, {k: str(v) for k, v in query.items()},
                             json.dumps(data or {}).encode())
    return status, body.decode()


def test_capital_slots_and_starting_bridges_read_as_the_board(lobby):
    status, out = _call(lobby, "POST", "/api/play/new",
                        {"players": 2, "seats": ["heuristic", "human"], "seed": 3})
    assert status == 200, out
    out = json.loads(out)
    gid, tok = out["game"], out["tokens"]["1"]
    terms = lobby.current().content.terms
    capital, plain = terms["capital"]["singular"], terms["plain"]["singular"]
    texts = {}
    for _ in range(12):
        st = json.loads(_call(lobby, "GET", f"/api/play/{gid}/state", seat=1, token=tok)[1])
        dec = st["decision"]
        if dec["kind"] not in ("capital", "start_bridge"):
            break
        texts.setdefault(dec["kind"], []).extend(dec["options"])
        _call(lobby, "POST", f"/api/play/{gid}/act",
              {"seat": 1, "token": tok, "serial": dec["serial"],
               "choice": dec["options"][0]["id"]})
    assert set(texts) == {"capital", "start_bridge"}
    board = ET.fromstring(_call(lobby, "GET", f"/api/play/{gid}/board")[1])
    printed = {"".join(t.itertext()).strip() for t in board.iter(NS + "text")}
    names = {h.get("data-hex"): h.get("data-name") for h in board.iter(NS + "polygon")
             if h.get("class") == "hit"}
    for o in texts["capital"]:  # "The Capital slot at 4,0", that hex lit on the board
        m = re.fullmatch(rf"The {capital} slot at (-?\d+,-?\d+)", o["text"])
        assert m and names[str(o["hexes"][0])] == f"({m[1]})", o
    bridges = [o["text"] for o in texts["start_bridge"]]
    assert any(t.startswith(f"Bridge from your {capital} to ") for t in bridges), bridges
    for text in bridges:
        assert not re.search(r"\(-?\d+,-?\d+\)", text), text  # not the engine's "(q,r)"
        assert re.fullmatch(r"Bridge from .+ to .+", text), text
        for coord in re.findall(r"-?\d+,-?\d+", text):
            assert coord in printed  # the coordinates the board prints on that hex
    assert any(f"the {plain} at " in t for t in bridges)
    log = json.loads(_call(lobby, "GET", f"/api/play/{gid}/state", seat=1, token=tok)[1])["log"]
    assert any(re.fullmatch(rf"You placed the {capital} at -?\d+,-?\d+\.", line) for line in log)
