"""The Play page's server side: a seat gets its own observation only; forged, stale,
out-of-turn and illegal answers are refused and change nothing; undo, save and load; a game
that fails does not stop the others."""

from __future__ import annotations

import json

import pytest

from tether_build.serve.play import Lobby, content_version, handle


@pytest.fixture(scope="module")
def lobby(tmp_path_factory):
    """A lobby that takes typed seeds for games with people too (`--open-seeds`): the tests
    replay the same games; test_play_seed.py checks the secret seeds of the default."""
    from tests.conftest import CONTENT
    return Lobby(CONTENT, open_seeds=True,
                 key_file=tmp_path_factory.mktemp("key") / "play.key")


def _post(lobby, path, data):
    status, body, _ = handle(lobby, "POST", path, {}, json.dumps(data).encode())
    return status, json.loads(body)


def _get(lobby, path, **query):
    status, body, _ = handle(lobby, "GET", path, {k: str(v) for k, v in query.items()}, b"")
    return status, json.loads(body)


def _new(lobby, seats, seed=3, hotseat=False):
    status, out = _post(lobby, "/api/play/new", {"players": len(seats), "seats": seats,
                                                 "seed": seed, "hotseat": hotseat})
    assert status == 200, out
    return out["game"], {int(k): v for k, v in out["tokens"].items()}


def _state(lobby, gid, seat, token):
    status, out = _get(lobby, f"/api/play/{gid}/state", seat=seat, token=token)
    assert status == 200, out
    return out


def _answer(lobby, gid, seat, token, k=0):
    """Answer seat's decision with its k-th option (by that option's action id)."""
    dec = _state(lobby, gid, seat, token)["decision"]
    return _post(lobby, f"/api/play/{gid}/act", {"seat": seat, "token": token,
                                                 "serial": dec["serial"],
                                                 "choice": dec["options"][k]["id"]})


def _advance_to(lobby, gid, tokens, kind, limit=60):
    """Answer (first option) until seat 0 is asked a decision of `kind`."""
    for _ in range(limit):
        st = _state(lobby, gid, 0, tokens[0])
        if st["decision"]["kind"] == kind:
            return st
        _answer(lobby, gid, 0, tokens[0])
    raise AssertionError(f"no {kind} decision")


def test_a_seat_gets_only_its_observation(lobby):
    """Two games that differ only in what seat 0 cannot see (seat 1's hand, draw order,
    drawn and drafted cards, Permanent VP) give seat 0 the same JSON."""
    gid, tokens = _new(lobby, ["human", "heuristic"])
    _advance_to(lobby, gid, tokens, "action")
    before = _state(lobby, gid, 0, tokens[0])
    board = handle(lobby, "GET", f"/api/play/{gid}/board", {}, b"")[1]  # (public: anyone's)
    assert before["hand"] and before["players"][1]["permanent_vp"] is None
    table = lobby.games[gid].table
    g = table.game  # the game thread waits for seat 0: the world may be changed under it
    other = g.s.players[1]
    assert other.hand and other.draw
    other.hand[0], other.draw[-1] = other.draw[-1], other.hand[0]
    other.pvp += 7
    prev = None
    for ev in table.events:  # what seat 1 drew and drafted (a Market card won is public)
        if ev.get("p") == 1 and (ev["e"] == "draw" and ev.get("to") != "discard" or
                                 ev["e"] == "gain" and prev not in ("buy", "pass_pot")):
            ev["card"] = "no_such_card_hidden"
        prev = ev["e"]
    after = _state(lobby, gid, 0, tokens[0])
    assert before == after
    assert handle(lobby, "GET", f"/api/play/{gid}/board", {}, b"")[1] == board
    assert "no_such_card_hidden" not in json.dumps(after)


def test_forged_stale_out_of_turn_and_illegal_answers_change_nothing(lobby):
    gid, tokens = _new(lobby, ["human", "human"], seed=5)
    st = _state(lobby, gid, 0, tokens[0])
    decider = st.get("deciding")
    other = 1 - decider
    dec = _state(lobby, gid, decider, tokens[decider])["decision"]
    table = lobby.games[gid].table
    n = len(table.actions)
    ids = [o["id"] for o in dec["options"]]
    legal = ids[0]
    not_legal = next(a for a in range(1000, 2000) if a not in ids)
    tries = [
        ({"seat": decider, "token": "forged", "serial": dec["serial"], "choice": legal}, 403),
        ({"seat": decider, "token": tokens[other], "serial": dec["serial"], "choice": legal},
         403),
        ({"seat": other, "token": tokens[other], "serial": dec["serial"], "choice": legal}, 400),
        ({"seat": decider, "token": tokens[decider], "serial": dec["serial"] - 1,
          "choice": legal}, 400),
        ({"seat": decider, "token": tokens[decider], "serial": dec["serial"],
          "choice": not_legal}, 400),
        ({"seat": decider, "token": tokens[decider], "serial": dec["serial"], "choice": -1},
         400),
        ({"seat": decider, "token": tokens[decider], "serial": dec["serial"], "choice": True},
         400),
        ({"seat": decider, "token": tokens[decider], "serial": dec["serial"],
          "choice": str(legal)}, 400),
        ({"seat": decider, "token": tokens[decider], "serial": dec["serial"], "choice": 0},
         400),
    ]
    for data, want in tries:
        status, out = _post(lobby, f"/api/play/{gid}/act", data)
        assert status == want, (data, out)
        assert out["error"]
    assert len(table.actions) == n and table.pending.serial == dec["serial"]
    status, out = _get(lobby, f"/api/play/{gid}/state", seat=other, token="nope")
    assert status == 403
    status, out = _post(lobby, f"/api/play/{gid}/act", dict(tries[0][0], token=tokens[decider]))
    assert status == 200 and len(table.actions) == n + 1
    assert table.actions[-1]["id"] == legal and table.actions[-1]["p"] == decider


def test_undo_where_nothing_hidden_was_shown(lobby):
    gid, tokens = _new(lobby, ["human", "heuristic"])
    st = _state(lobby, gid, 0, tokens[0])
    assert st["decision"]["kind"] == "start_bridge"
    first = st["decision"]
    status, _ = _answer(lobby, gid, 0, tokens[0], 1)
    assert status == 200
    status, back = _post(lobby, f"/api/play/{gid}/undo", {"seat": 0, "token": tokens[0]})
    assert status == 200, back
    assert back["decision"]["kind"] == first["kind"]
    assert [o["text"] for o in back["decision"]["options"]] == \
        [o["text"] for o in first["options"]]
    assert back["actions"] == st["actions"]
    # a bid shows the Market and its result: no undo past it
    _advance_to(lobby, gid, tokens, "bid")
    _answer(lobby, gid, 0, tokens[0])
    status, out = _post(lobby, f"/api/play/{gid}/undo", {"seat": 0, "token": tokens[0]})
    assert status == 400 and "cannot undo" in out["error"]


def test_save_load_and_another_content_version(lobby):
    gid, tokens = _new(lobby, ["human", "heuristic"], seed=4)
    st = _advance_to(lobby, gid, tokens, "action")
    status, saved = _get(lobby, f"/api/play/{gid}/save", token=tokens[0])
    assert status == 200 and saved["actions"]
    status, out = _get(lobby, f"/api/play/{gid}/save", token="wrong")
    assert status == 403
    status, loaded = _post(lobby, "/api/play/load", {"save": saved})
    assert status == 200, loaded
    again = _state(lobby, loaded["game"], 0, loaded["tokens"]["0"])
    assert again["decision"]["prompt"] == st["decision"]["prompt"]
    assert again["hand"] == st["hand"] and again["players"] == st["players"]
    assert again["decision"]["options"] == st["decision"]["options"]
    # the answers are action ids; a format 1 save (option numbers) still loads
    actions = lobby.games[gid].table.actions
    assert saved["format"] == 2 and saved["actions"] == [a["id"] for a in actions]
    old = dict(saved, format=1, actions=[a["i"] for a in actions])
    status, loaded1 = _post(lobby, "/api/play/load", {"save": old})
    assert status == 200, loaded1
    assert _state(lobby, loaded1["game"], 0, loaded1["tokens"]["0"])["hand"] == st["hand"]
    bad = dict(saved, actions=[*saved["actions"][:-1], -5])
    status, out = _post(lobby, "/api/play/load", {"save": bad})
    assert status == 400 and f"decision {len(actions)}" in out["error"]
    # saved with other rules: it keeps them, and names the difference
    rules = dict(saved["rules"])
    cards = json.loads(rules["cards.json"])
    cards["cards"][0]["name"] = "Renamed In The Save"
    rules["cards.json"] = json.dumps(cards)
    other = dict(saved, rules=rules,
                 content_version=content_version({k: v.encode() for k, v in rules.items()}))
    status, loaded = _post(lobby, "/api/play/load", {"save": other})
    assert status == 200, loaded
    assert "keeps the rules it was saved with" in loaded["note"]
    assert "changed (name)" in loaded["note"]
    # a save whose rules were edited without their version is refused
    status, out = _post(lobby, "/api/play/load", {"save": dict(other, content_version="x")})
    assert status == 400 and "do not match" in out["error"]
    status, out = _post(lobby, "/api/play/load", {"save": {"format": 99}})
    assert status == 400


class Broken:
    """An agent that fails at its first decision."""

    def choose(self, *a, **k):
        raise RuntimeError("this agent is broken")


def test_a_failing_game_does_not_stop_the_others(lobby, monkeypatch):
    from tether_build.engine.simulate import AGENTS
    from tether_build.serve import play as playserve

    gid, tokens = _new(lobby, ["human", "heuristic"], seed=6)
    monkeypatch.setattr(playserve, "_agents", lambda: {**AGENTS, "broken": Broken})
    bad, bad_tokens = _new(lobby, ["broken", "human"], seed=6)
    for _ in range(10):
        st = _state(lobby, bad, 1, bad_tokens[1])
        if st["over"]:
            break
        _answer(lobby, bad, 1, bad_tokens[1])
    assert st["over"] and "this agent is broken" in st["error"]
    status, out = _answer(lobby, gid, 0, tokens[0])
    assert status == 200 and not out["error"]


def test_every_decision_in_words_not_internals(lobby):
    """A whole game where seat 0 plays cards and marches: every prompt and option is words."""
    import re
    gid, tokens = _new(lobby, ["human", "heuristic"], seed=2)
    texts, kinds = [], set()
    for step in range(300):
        st = _state(lobby, gid, 0, tokens[0])
        if st["over"]:
            break
        dec = st["decision"]
        kinds.add(dec["kind"])
        texts += [dec["prompt"]] + [o["text"] for o in dec["options"]]
        movers = [k for k, o in enumerate(dec["options"])
                  if o.get("card") in ("quick_move", "march_orders")]
        pick = movers[0] if movers else 0 if step % 4 == 3 or len(dec["options"]) == 1 else 1
        _post(lobby, f"/api/play/{gid}/act", {"seat": 0, "token": tokens[0],
                                               "serial": dec["serial"],
                                               "choice": dec["options"][pick]["id"]})
    assert st["over"] and {"action", "bid", "move"} <= kinds, kinds
    raw = re.compile(r"\bNone\b|\bTrue\b|_|^(stack|force|champion|card|march) |\(\d+,\)")
    assert [t for t in texts if raw.search(t)] == []
    assert any(t.startswith("Move ") and " to " in t for t in texts)


def test_a_new_game_uses_the_content_now_a_running_game_keeps_its_rules(content_copy):
    live = Lobby(content_copy, open_seeds=True)
    old, tokens = _new(live, ["human", "heuristic"])
    assert "content_note" not in _state(live, old, 0, tokens[0])
    path = content_copy / "cards" / "starter.yaml"
    path.write_text(path.read_text().replace("name: Supply Cache", "name: Supply Wagon"))
    note = _state(live, old, 0, tokens[0])["content_note"]
    assert "keeps the rules it started with" in note
    new, _ = _new(live, ["human", "heuristic"])
    names = {c["name"] for c in _get(live, f"/api/play/{new}/cards")[1].values()}
    kept = {c["name"] for c in _get(live, f"/api/play/{old}/cards")[1].values()}
    assert "Supply Wagon" in names and "Supply Cache" not in names
    assert "Supply Cache" in kept and "Supply Wagon" not in kept


def test_four_agents_watched_at_a_chosen_speed(lobby):
    import time
    start = time.monotonic()
    status, out = _post(lobby, "/api/play/new", {"players": 4, "seats": ["heuristic"] * 4,
                                                 "seed": 2, "delay": 0.05})
    assert status == 200 and out["tokens"] == {}
    gid = out["game"]
    time.sleep(0.6)
    first = _get(lobby, f"/api/play/{gid}/state")[1]
    while first["actions"] < 2 and time.monotonic() - start < 30:   # a loaded machine
        time.sleep(0.1)
        first = _get(lobby, f"/api/play/{gid}/state")[1]
    elapsed = time.monotonic() - start
    assert not first["over"] and first["hand"] is None  # a spectator sees no hand
    # about one decision per 0.05 s: two or more made, and none faster than the delay,
    # counted against the time that passed (a loaded machine may wake this thread late
    # from its 0.6 s sleep: the bound was 14 decisions whatever the time)
    assert 2 <= first["actions"] <= elapsed / 0.05 + 2
    status, _ = _post(lobby, f"/api/play/{gid}/speed", {"delay": 0})
    assert status == 200
    assert lobby.games[gid].table.settle(120)
    end = _get(lobby, f"/api/play/{gid}/state")[1]
    assert end["over"] and end["winner"] and end["why"]
    assert all(row["top"][0]["text"] for row in end["why"])
    status, out = _post(lobby, f"/api/play/{gid}/speed", {"delay": 99})
    assert status == 400


def test_a_simulate_log_opens_as_a_replay(lobby, tmp_path):
    from tether_build.engine.agents import HeuristicAgent
    from tether_build.engine.play import play_game, write_log

    rules = lobby.current()
    g = play_game(rules.rules, 2, 11, [HeuristicAgent(), HeuristicAgent()], log=True)
    write_log(g.events, tmp_path / "game.jsonl")
    status, out = _post(lobby, "/api/play/replay",
                        {"log": (tmp_path / "game.jsonl").read_text()})
    assert status == 200 and out["replay"], out
    gid = out["game"]
    end = _get(lobby, f"/api/play/{gid}/state")[1]
    assert end["replay"]["length"] == g.decisions
    assert end["winner"] == g.s.winner
    start = _get(lobby, f"/api/play/{gid}/state", at=0)[1]
    assert start["replay"]["at"] == 0 and len(start["log"]) < len(end["log"])
    status, out = _post(lobby, "/api/play/replay", {"log": "not json\n"})
    assert status == 400 and "not a game log" in out["error"]


def test_an_id_legal_for_another_seat_only_is_refused(lobby):
    """The state API's ids name options, not seats: an id the other seat may send at its
    next decision is refused from the seat to act, and from the other seat out of turn."""
    gid, tokens = _new(lobby, ["human", "human"], seed=5)
    table = lobby.games[gid].table
    decider = _state(lobby, gid, 0, tokens[0])["deciding"]
    other = 1 - decider
    dec = _state(lobby, gid, decider, tokens[decider])["decision"]
    mine = [o["id"] for o in dec["options"]]
    with table.lock:  # a copy of the game, played on to the other seat's decision
        copy = table.state.clone()
    for _ in range(50):
        if copy.current_player() == other:
            break
        copy.apply_action(copy.legal_actions()[0])
    theirs = [a for a in copy.legal_actions(other) if a not in mine]
    assert theirs, "the other seat's decision has ids of its own"
    n = len(table.actions)
    for seat in (decider, other):
        status, out = _post(lobby, f"/api/play/{gid}/act",
                            {"seat": seat, "token": tokens[seat], "serial": dec["serial"],
                             "choice": theirs[0]})
        assert status == 400 and out["error"], out
    assert len(table.actions) == n and table.pending.serial == dec["serial"]
    assert table.pending.p == decider


def _covered(lobby, gid, token):
    status, out = _get(lobby, f"/api/play/{gid}/state", token=token)
    assert status == 200, out
    return out


def test_hot_seat_the_server_keeps_the_cover(lobby):
    """One table token for the screen; a seat's hand only after its 'show my hand', only
    while it is to act; forged requests for a hand while the cover is up are refused."""
    status, out = _post(lobby, "/api/play/new", {"players": 2, "seats": ["human", "human"],
                                                 "seed": 3})
    assert status == 200 and out["hotseat"] and out["tokens"] == {}
    gid, token = out["game"], out["token"]
    table = lobby.games[gid].table
    spectator = _get(lobby, f"/api/play/{gid}/state")[1]
    seen = set()
    for _ in range(12):
        cov = _covered(lobby, gid, token)
        d = cov["cover"]["seat"]
        e = 1 - d
        # the covered screen gets what a spectator gets: public things only
        assert cov["hand"] is None and "decision" not in cov and cov["viewer"] is None
        if not seen:
            assert cov == spectator
        n = len(table.actions)
        forged = [
            ("GET", "state", {"token": token, "seat": d}, 403),
            ("GET", "state", {"token": token, "seat": e}, 403),
            ("GET", "state", {"token": "forged", "seat": d}, 403),
            ("POST", "reveal", {"token": token, "seat": e}, 403),
            ("POST", "reveal", {"token": "forged", "seat": d}, 403),
            ("POST", "reveal", {"token": token}, 403),
            ("POST", "act", {"token": token, "seat": d, "serial": table.pending.serial,
                             "choice": table.pending.ids[0]}, 403),
        ]
        for method, what, data, want in forged:
            if method == "GET":
                status, body = _get(lobby, f"/api/play/{gid}/{what}", **data)
            else:
                status, body = _post(lobby, f"/api/play/{gid}/{what}", data)
            assert status == want, (what, data, body)
            assert "hand" not in body
        assert len(table.actions) == n and lobby.games[gid].shown is None
        status, mine = _post(lobby, f"/api/play/{gid}/reveal", {"token": token, "seat": d})
        assert status == 200 and mine["viewer"] == d and mine["hand"] is not None
        assert mine["decision"] and "cover" not in mine
        assert _get(lobby, f"/api/play/{gid}/state", token=token, seat=e)[0] == 403
        assert _covered(lobby, gid, token)["viewer"] == d  # shown until another seat acts
        seen.add(d)
        while True:  # answer until the other seat is to act: then the cover is up again
            dec = _covered(lobby, gid, token)["decision"]
            status, after = _post(lobby, f"/api/play/{gid}/act",
                                  {"token": token, "seat": d, "serial": dec["serial"],
                                   "choice": dec["options"][-1]["id"]})
            assert status == 200, after
            if after.get("cover"):
                break
            assert after["viewer"] == d
        assert after["cover"]["seat"] == e and after["hand"] is None
        if seen == {0, 1} and len(table.actions) > 6:
            break
    assert seen == {0, 1}


def test_hot_seat_undo_puts_the_cover_up(lobby):
    """Undo at a hot-seat screen takes back the last person's decision and covers the
    screen: that seat shows its hand again to decide again."""
    status, out = _post(lobby, "/api/play/new", {"players": 2, "seats": ["human", "human"],
                                                 "seed": 3})
    gid, token = out["game"], out["token"]
    table = lobby.games[gid].table
    for _ in range(6):
        d = _covered(lobby, gid, token)["cover"]["seat"]
        status, mine = _post(lobby, f"/api/play/{gid}/reveal", {"token": token, "seat": d})
        first, done = mine["decision"], mine["actions"]
        status, _ = _post(lobby, f"/api/play/{gid}/act",
                          {"token": token, "seat": d, "serial": first["serial"],
                           "choice": first["options"][-1]["id"]})
        assert status == 200
        assert _post(lobby, f"/api/play/{gid}/undo", {"token": "forged"})[0] == 403
        status, back = _post(lobby, f"/api/play/{gid}/undo", {"token": token})
        if status == 200:
            break
        assert "cannot undo" in back["error"]  # a capital's choice deals the hands
    assert status == 200, back
    assert back["cover"] == {"seat": d} and back["hand"] is None and back["actions"] == done
    assert len(table.actions) == done
    status, again = _post(lobby, f"/api/play/{gid}/reveal", {"token": token, "seat": d})
    assert again["decision"]["kind"] == first["kind"]
    assert [o["id"] for o in again["decision"]["options"]] == \
        [o["id"] for o in first["options"]]
