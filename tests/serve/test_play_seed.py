"""The seed of a Play page game with people: drawn by the server, sent to no seat before the
end, shown at the end (the log replays the game); sealed saves that do not reveal it or the
answers, and a changed or foreign save refused. The other seats' Permanent VP at the end."""

from __future__ import annotations

import json
import stat

import pytest

from tether_build.serve.play import Lobby, handle


@pytest.fixture(scope="module")
def lobby(tmp_path_factory):
    from tests.conftest import CONTENT
    return Lobby(CONTENT, key_file=tmp_path_factory.mktemp("key") / "play.key")


def _post(lobby, path, data):
    status, body, _ = handle(lobby, "POST", path, {}, json.dumps(data).encode())
    return status, json.loads(body), body.decode()


def _get(lobby, path, **query):
    status, body, _ = handle(lobby, "GET", path, {k: str(v) for k, v in query.items()}, b"")
    return status, body.decode()


def _state(lobby, gid, **query):
    status, text = _get(lobby, f"/api/play/{gid}/state", **query)
    assert status == 200, text
    return json.loads(text), text


def _start(lobby, seats=("human", "heuristic")):
    status, out, text = _post(lobby, "/api/play/new", {"players": len(seats),
                                                       "seats": list(seats)})
    assert status == 200, out
    return out["game"], out["tokens"]["0"], text


def test_a_typed_seed_is_for_agents_only(lobby):
    status, out, _ = _post(lobby, "/api/play/new", {"players": 2, "seed": 3,
                                                    "seats": ["human", "heuristic"]})
    assert status == 400 and "secret seed drawn by the server" in out["error"]
    status, out, _ = _post(lobby, "/api/play/new", {"players": 2, "seed": 3,
                                                    "seats": ["heuristic", "random"]})
    assert status == 200, out
    st, _ = _state(lobby, out["game"])
    assert st["seed"] == {"secret": False, "value": "3"}
    status, setup = _get(lobby, "/api/play/setup")
    assert json.loads(setup)["open_seeds"] is False


def test_the_seed_is_secret_until_the_end_then_shown_and_replayed(lobby):
    gid, tok, started = _start(lobby)
    table = lobby.games[gid].table
    seed = str(table.seed)
    assert table.seed.bit_length() > 40  # drawn from 2**63, not typed
    assert seed not in started
    seen = []
    for _ in range(400):
        st, text = _state(lobby, gid, seat=0, token=tok)
        _, public = _state(lobby, gid)
        seen += [text, public]
        if st["over"]:
            break
        assert st["seed"] == {"secret": True, "value": None}
        assert _get(lobby, f"/api/play/{gid}/log")[0] == 409
        dec = st["decision"]
        _post(lobby, f"/api/play/{gid}/act", {"seat": 0, "token": tok, "serial": dec["serial"],
                                               "choice": dec["options"][0]["id"]})
    assert st["over"]
    assert not any(seed in text for text in seen[:-2])  # never before the end
    assert st["seed"] == {"secret": True, "value": seed}
    # at the end every seat's Permanent VP and total are shown (§3: the winner by them)
    assert all(p["permanent_vp"] is not None and p["total_vp"] == p["permanent_vp"]
               + p["control_vp"] for p in st["players"])
    # the log holds the seed and opens as a replay that ends as the game did
    status, log = _get(lobby, f"/api/play/{gid}/log")
    assert status == 200 and json.loads(log.splitlines()[0])["seed"] == table.seed
    status, out, _ = _post(lobby, "/api/play/replay", {"log": log})
    assert status == 200, out
    end, _ = _state(lobby, out["game"], at=-1)
    assert end["winner"] == st["winner"]
    assert [p["permanent_vp"] for p in end["players"]] == \
        [p["permanent_vp"] for p in st["players"]]


def _mid_game_save(lobby):
    gid, tok, _ = _start(lobby)
    for _ in range(12):  # a few decisions in: cards drawn, bids made
        st, _ = _state(lobby, gid, seat=0, token=tok)
        dec = st["decision"]
        _post(lobby, f"/api/play/{gid}/act", {"seat": 0, "token": tok, "serial": dec["serial"],
                                               "choice": dec["options"][-1]["id"]})
    status, text = _get(lobby, f"/api/play/{gid}/save", token=tok)
    assert status == 200, text
    return gid, tok, json.loads(text), text


def test_a_sealed_save_reveals_no_seed_no_answer_and_loads_here(lobby):
    gid, _tok, save, text = _mid_game_save(lobby)
    table = lobby.games[gid].table
    assert save["format"] == 3 and "seed" not in save and "actions" not in save
    assert str(table.seed) not in text
    ids = json.dumps([a["id"] for a in table.actions])
    assert ids[1:-1] not in text  # the answers (another seat's bids among them) are sealed
    # what the reader holds: the public setup, the rules every player has (the content's),
    # and ciphertext. Another seat's hand is dealt by the seed and changed by the answers,
    # both sealed: nothing else in the file depends on the game's hidden things
    assert set(save) == {"format", "players", "seats", "factions", "options", "hotseat",
                         "content_version", "rules", "sealed", "tag"}
    assert save["rules"] == {k: v.decode() for k, v in lobby.current().files.items()}
    assert set(save["sealed"]) == {"key", "nonce", "box"}
    hidden = sorted(table.game.s.cards[i].defn.id for i in table.game.s.players[1].hand)
    assert hidden
    # the save loads here: the same game, seat 1's hand the same (kept secret, as before)
    status, loaded, _ = _post(lobby, "/api/play/load", {"save": save})
    assert status == 200, loaded
    again = lobby.games[loaded["game"]].table
    assert again.settle(60) and lobby.games[loaded["game"]].secret
    assert sorted(again.game.s.cards[i].defn.id
                  for i in again.game.s.players[1].hand) == hidden
    st, text2 = _state(lobby, loaded["game"], seat=0, token=loaded["tokens"]["0"])
    assert st["seed"]["value"] is None and str(table.seed) not in text2
    status, resaved = _get(lobby, f"/api/play/{loaded['game']}/save",
                           token=loaded["tokens"]["0"])
    assert json.loads(resaved)["format"] == 3


def test_a_changed_or_foreign_save_is_refused(lobby, tmp_path):
    _, _, save, _ = _mid_game_save(lobby)
    box = save["sealed"]["box"]
    flipped = box[:10] + ("A" if box[10] != "A" else "B") + box[11:]
    cases = [dict(save, sealed={**save["sealed"], "box": flipped}),   # the sealed part
             dict(save, seats=["heuristic", "human"]),               # the public part
             dict(save, tag="0" * 64),
             {k: v for k, v in save.items() if k != "tag"}]
    for bad in cases:
        status, out, _ = _post(lobby, "/api/play/load", {"save": bad})
        assert status == 400 and "cannot load this saved game" in out["error"], out
        assert "changed after it was saved" in out["error"] or "cut or edited" in out["error"]
    from tests.conftest import CONTENT
    other = Lobby(CONTENT, key_file=tmp_path / "other.key")
    status, out, _ = _post(other, "/api/play/load", {"save": save})
    assert status == 400 and "another project's server" in out["error"]
    key = tmp_path / "other.key"
    assert key.stat().st_mode & 0o777 == stat.S_IRUSR | stat.S_IWUSR


def test_an_open_save_still_loads_and_says_its_seed_is_open(lobby):
    from tether_build.serve.play import content_version
    rules = lobby.current()
    old = {"format": 2, "players": 2, "seed": 7, "seats": ["human", "heuristic"],
           "factions": None, "options": {}, "content_version": rules.version,
           "actions": [], "hotseat": False,
           "rules": {k: v.decode() for k, v in rules.files.items()}}
    assert content_version(rules.files) == rules.version
    status, out, _ = _post(lobby, "/api/play/load", {"save": old})
    assert status == 200, out
    assert "seed is open" in out["note"]
    st, _ = _state(lobby, out["game"], seat=0, token=out["tokens"]["0"])
    assert st["seed"] == {"secret": False, "value": "7"}


def test_a_sealed_save_from_another_content_version_names_the_difference(content_copy):
    live = Lobby(content_copy)
    gid, tok, _ = _start(live)
    status, text = _get(live, f"/api/play/{gid}/save", token=tok)
    save = json.loads(text)
    assert save["format"] == 3 and (content_copy.parent / ".tether" / "play.key").is_file()
    path = content_copy / "cards" / "starter.yaml"
    path.write_text(path.read_text().replace("name: Supply Cache", "name: Supply Wagon"))
    status, out, _ = _post(live, "/api/play/load", {"save": save})
    assert status == 200, out
    assert "keeps the rules it was saved with" in out["note"]
    assert "card Supply Cache (now Supply Wagon) changed (name)" in out["note"]
    # its rules are in the sealed save's public part: changing them breaks the seal
    rules = dict(save["rules"], **{"cards.json": save["rules"]["cards.json"].replace(
        "Supply Cache", "Supply Cart")})
    status, out, _ = _post(live, "/api/play/load", {"save": dict(save, rules=rules)})
    assert status == 400 and "changed after it was saved" in out["error"]


def test_a_broken_key_is_a_clear_refusal(tmp_path):
    from tests.conftest import CONTENT
    key = tmp_path / "play.key"
    key.write_bytes(b"short")
    broken = Lobby(CONTENT, key_file=key)
    gid, tok, _ = _start(broken)
    status, text = _get(broken, f"/api/play/{gid}/save", token=tok)
    assert status == 400 and "not a sealing key" in json.loads(text)["error"]
