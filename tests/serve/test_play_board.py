"""The Play page's board as the server sends it: no two words overlap, and no unit covers a
word (a Champion's badge over the Capital's name was the bug), on a crowded board of every
tile and on a played game's; Bridges and units come from the public observation."""

from __future__ import annotations

import json
import time
import xml.etree.ElementTree as ET

import pytest

from tether_build.serve.board import CHAR_EM, board_svg
from tether_build.serve.play import Lobby, handle

NS = "{http://www.w3.org/2000/svg}"
SLACK = 0.05  # mm: boxes that only touch do not overlap


@pytest.fixture(scope="module")
def lobby(tmp_path_factory):
    from tests.conftest import CONTENT
    return Lobby(CONTENT, key_file=tmp_path_factory.mktemp("key") / "play.key")


def _agents_game(lobby, players, seed):
    status, body, _ = handle(lobby, "POST", "/api/play/new", {}, json.dumps(
        {"players": players, "seats": ["heuristic"] * players, "seed": seed}).encode())
    assert status == 200, body
    return lobby.games[json.loads(body)["game"]]


def _boxes(svg: str):
    """(words, units): each word's box (generous: CHAR_EM a character, the font's ascent
    and descent), each unit's disc or badge box with the word it carries."""
    root = ET.fromstring(svg)
    words, units = [], []
    for t in root.iter(NS + "text"):
        text = "".join(t.itertext()).strip()
        if not text:
            continue
        x, y, size = float(t.get("x")), float(t.get("y")), float(t.get("font-size"))
        w = len(text) * CHAR_EM * size
        x0 = {"middle": x - w / 2, "end": x - w}.get(t.get("text-anchor"), x)
        words.append((x0, y - 0.9 * size, x0 + w, y + 0.22 * size, text))
    for g in root.iter(NS + "g"):
        if g.get("class") not in ("force", "champion"):
            continue
        own = "".join(g.find(NS + "text").itertext()).strip()
        c, r = g.find(NS + "circle"), g.find(NS + "rect")
        if c is not None:
            cx, cy, rr = (float(c.get(k)) for k in ("cx", "cy", "r"))
            units.append((cx - rr, cy - rr, cx + rr, cy + rr, own))
        else:
            x, y, w, h = (float(r.get(k)) for k in ("x", "y", "width", "height"))
            units.append((x, y, x + w, y + h, own))
    return words, units


def _meet(a, b) -> bool:
    return (a[0] < b[2] - SLACK and b[0] < a[2] - SLACK
            and a[1] < b[3] - SLACK and b[1] < a[3] - SLACK)


def overlaps(svg: str) -> list:
    words, units = _boxes(svg)
    bad = [(a[4], b[4]) for i, a in enumerate(words) for b in words[i + 1:] if _meet(a, b)]
    bad += [(u[4], w[4]) for u in units for w in words if w[4] != u[4] and _meet(u, w)]
    bad += [(a[4], b[4]) for i, a in enumerate(units) for b in units[i + 1:] if _meet(a, b)]
    return bad


def _crowd(g, every_plain: int = 4) -> dict:
    """Two Champions (the longest names) and two seats' Forces on every tile that is not a
    Plain (Capitals among them) and on every fourth Plain."""
    obs = g.observation(-1)
    names = g.s.topo.names
    longest = max(g.rules.by_id.values(), key=lambda d: len(d.name)).id
    forces, champs = {}, []
    for h, tile in enumerate(g.s.tile):
        capital = any(pl.capital == h for pl in g.s.players)
        if tile != "plain" or capital or h % every_plain == 0:
            forces[names[h]] = [[0, 12], [1, 3]]
            champs += [(0, longest, names[h], 6, 6), (1, "brute", names[h], 5, 6)]
    return {**obs, "forces": forces, "champions": champs}


@pytest.mark.parametrize("players", [2, 6])
def test_no_word_overlaps_on_a_crowded_board(lobby, players):
    game = _agents_game(lobby, players, seed=5)
    assert game.table.wait_started(60)
    time.sleep(0.2)
    with game.table.lock:
        g = game.table.game
        assert g.s.players[0].capital >= 0 or game.table.settle(60)
        obs = _crowd(g)
        svg = board_svg(game.rules.tiles, g, obs, game.rules.words)
    words, units = _boxes(svg)
    capitals = [w for w in words if w[4] == game.rules.words.t("capital")]
    assert capitals and len(units) >= 4 * len(obs["forces"])  # a Champion on each Capital
    assert overlaps(svg) == []
    # a shortened name keeps the whole name in its tooltip
    assert "…" in svg and "<title>" in svg


def test_the_sent_board_of_a_played_game(lobby):
    game = _agents_game(lobby, 2, seed=1)
    for _ in range(600):
        if game.table.over:
            break
        time.sleep(0.1)
    assert game.table.over
    status, svg, kind = handle(lobby, "GET", f"/api/play/{game.gid}/board", {}, b"")
    svg = svg.decode()
    assert status == 200 and kind == "image/svg+xml"
    obs = game.table.game.observation(-1)
    root = ET.fromstring(svg)
    assert len(root.findall(f".//{NS}line[@class='bridge']")) == len(obs["bridges"])
    champions = [g for g in root.iter(NS + "g") if g.get("class") == "champion"]
    assert len(champions) == len(obs["champions"])
    assert overlaps(svg) == []


def test_the_overlap_check_can_fail():
    bad = ("<svg xmlns='http://www.w3.org/2000/svg'><text x='0' y='0' font-size='3'>Capital"
           "</text><g class='champion'><rect x='-2' y='-3' width='20' height='4'/>"
           "<text x='8' y='-1' font-size='2.7'>Brute 6</text></g></svg>")
    assert overlaps(bad)
