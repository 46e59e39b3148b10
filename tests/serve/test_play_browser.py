"""The Play page of `tether serve` in a real headless browser (Debian's Chromium, Selenium).

A person plays a whole 2-player game against the heuristic by clicks; hot-seat hides each
seat's hand between turns; undo; a bid shows the card up; a game of agents is watched, shows
its battle reports and opens again as a replay with a timeline.
"""

from __future__ import annotations

import json
import shutil
import threading
import urllib.request

import pytest

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER),
    reason="needs Debian's chromium and chromium-driver (installed by scripts/setup.sh --test)")


def _serve(**kw):
    from tests.conftest import CONTENT
    from tether_build.serve.app import Site, default_pages, make_server

    srv = make_server(Site(CONTENT, default_pages(), **kw), port=0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    return srv


@pytest.fixture(scope="module")
def server():
    """Typed seeds for games with people too (`--open-seeds`): the same games each run."""
    srv = _serve(open_seeds=True)
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="module")
def secure_server():
    """As `tether serve` runs: a game with people gets a secret seed (nothing is saved, so
    the project's key is not made)."""
    srv = _serve()
    yield f"http://127.0.0.1:{srv.server_address[1]}"
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium')}",
                 "--window-size=1400,1000"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def _wait(driver, predicate, seconds=30):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, seconds, poll_frequency=0.1).until(lambda d: predicate(d))


def _js(driver, script: str):
    return driver.execute_script(script)


def _start(driver, url, seats, seed, delay=0):
    """Open the Play page and start a game by the form."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    driver.get(url + "/play")
    _wait(driver, lambda d: d.find_elements(By.ID, "seat-0"))
    Select(driver.find_element(By.ID, "players")).select_by_value(str(len(seats)))
    for p, kind in enumerate(seats):
        Select(driver.find_element(By.ID, f"seat-{p}")).select_by_value(kind)
    for field, value in (("seed", seed), ("delay", delay)):
        box = driver.find_element(By.ID, field)
        box.clear()
        if value is not None:  # (no seed: the server draws one)
            box.send_keys(str(value))
    driver.find_element(By.ID, "start").click()
    _wait(driver, lambda d: _js(d, "return !!(state && !state.starting)"))


# every word on the board as the browser lays it out (getBBox), and every unit's disc or
# badge: the pairs that overlap (a unit and its own number excepted)
OVERLAPS = """
const svg = document.querySelector('#board svg');
const box = (e) => { const b = e.getBBox(); return [b.x, b.y, b.x + b.width, b.y + b.height]; };
const words = [...svg.querySelectorAll('text')].filter((t) => t.textContent.trim())
  .map((t) => [box(t), t.textContent.trim(), t.parentNode]);
const units = [...svg.querySelectorAll('.units circle, .units rect')]
  .map((e) => [box(e), e.parentNode.textContent.trim(), e.parentNode]);
const meet = (a, b) => a[0] < b[2] - .05 && b[0] < a[2] - .05 && a[1] < b[3] - .05 && b[1] < a[3] - .05;
const bad = [];
words.forEach((a, i) => words.slice(i + 1).forEach((b) => { if (meet(a[0], b[0])) bad.push([a[1], b[1]]); }));
units.forEach((u) => words.forEach((w) => { if (w[2] !== u[2] && meet(u[0], w[0])) bad.push([u[1], w[1]]); }));
units.forEach((a, i) => units.slice(i + 1).forEach((b) => { if (meet(a[0], b[0])) bad.push([a[1], b[1]]); }));
return [words.length, units.length, bad];"""


def _ready(driver):
    """'over', 'decide' (a decision for the seat on screen) or None (wait)."""
    return _js(driver, """
        if (!state) return null;
        if (state.over) return 'over';
        if (document.getElementById('handoff').className === 'on') return 'handoff';
        if (state.decision && document.querySelectorAll('#options .opt').length) return 'decide';
        return null;""")


PICK = """
const kind = state.decision.kind, step = arguments[0];
if (kind === 'action' && step % 4 !== 3) {
  const card = document.querySelector('#hand .card.playable');
  if (card) return [card, 'card'];
  const hex = document.querySelector('#board .hit.target');
  if (hex) return [hex, 'board'];
}
const shown = [...document.querySelectorAll('#options .opt')].filter(b => !b.classList.contains('dim'));
return [kind === 'action' ? shown[0] : shown[shown.length - 1], 'button'];"""


def _click_one(driver, step: int) -> str:
    """Answer the decision on screen with the mouse: a card in the hand, a target on the
    board, or an option button. The person plays cards and marches, every fourth Action
    Step is Done, a bid is the highest offered."""
    element, how = driver.execute_script(PICK, step)
    if how == "board":  # an SVG polygon: dispatch the click the mouse would make
        driver.execute_script(
            "arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", element)
    else:
        element.click()
    return how


def _play_to_end(driver, limit=400) -> dict:
    seen = {"card": 0, "board": 0, "button": 0, "bid_up": 0, "kinds": set(), "faces": []}
    for step in range(limit):
        what = _wait(driver, _ready, 60)
        if what == "over":
            return seen
        if what == "handoff":
            driver.find_element("id", "reveal").click()
            continue
        serial, kind, before, up = _js(driver, """return [state.decision.serial,
            state.decision.kind, state.decision.options.length,
            !!document.querySelector('#up .card')]""")
        seen["kinds"].add(kind)
        if not seen["faces"]:  # a card in the hand: its printed face, the engine's reading
            seen["faces"] = _js(driver, """const c = document.querySelector('#hand .card');
                return c && cards[c.dataset.card] ? [c.querySelector('iframe').src, c.title]
                                                  : []""")
        seen["bid_up"] += kind == "bid" and up
        seen[_click_one(driver, step)] += 1
        # a click that only narrowed the options (several plays of one card) clicks again
        narrowed = _wait(driver, lambda d, s=serial, b=before: _js(
            d, f"""if (!state.decision || state.decision.serial !== {s}) return 'next';
                if (document.getElementById('error').textContent) return 'error';
                const left = document.querySelectorAll('#options .opt:not(.dim)');
                return left.length < {b} ? 'narrowed' : null;"""))
        assert narrowed != "error", driver.find_element("id", "error").text
        if narrowed == "narrowed":
            driver.execute_script(PICK, 3)[0].click()
    raise AssertionError("the game did not end")


def test_a_whole_game_against_the_heuristic_by_clicks(secure_server, browser):
    """As a person plays it with `tether serve`: no seed typed, a secret one drawn."""
    _start(browser, secure_server, ["human", "heuristic"], seed=None)
    text = _js(browser, "return document.body.innerText")
    assert "stack 26" not in text and "None" not in text
    assert "secret until the game is over" in browser.find_element("id", "seed-shown").text
    seen = _play_to_end(browser)
    result = browser.find_element("id", "result").text
    assert result.startswith("Game over. Winner:")
    assert seen["card"] and seen["button"], seen
    assert seen["bid_up"] >= 1  # every bid showed the card up for bidding
    face, hover = seen["faces"]
    assert "/api/play/face/" in face and "\nEngine: " in hover, seen["faces"]
    log = browser.find_element("id", "log").text
    assert "Bid-Draft for" in log and "Game over in Round" in log
    # the glossary's words, never the engine's
    assert "Permanence" in browser.find_element("id", "seats").text
    assert "start_bridge" not in log and "power_pick" not in log
    # at the end: every seat's Permanent VP (the opponent's too) and the seed
    pvp = _js(browser, "return [...document.querySelectorAll('#seats .pvp')].map(t => t.textContent)")
    assert len(pvp) == 2 and "?" not in "".join(pvp) and all("total" in t for t in pvp), pvp
    shown = browser.find_element("id", "seed-shown").text
    assert shown.startswith("Seed ") and "drawn by the server" in shown, shown
    # the board as the browser draws it: no word under another or under a unit
    _wait(browser, lambda d: _js(d, "return !!document.querySelector('#board svg .units')"))
    words, units, bad = _js(browser, OVERLAPS)
    assert words > 60 and units and bad == [], bad


FORGE = """
const done = arguments[arguments.length - 1], url = '/api/play/' + G.game;
const to = state.cover.seat, other = 1 - to, tok = encodeURIComponent(G.token);
const get = (q) => fetch(url + '/state?' + q).then(async (r) => [r.status, await r.text()]);
const post = (what, body) => fetch(url + '/' + what, {method: 'POST', body: JSON.stringify(body)})
  .then(async (r) => [r.status, await r.text()]);
Promise.all([get('token=' + tok + '&seat=' + to), get('token=' + tok + '&seat=' + other),
             get('token=' + tok), post('reveal', {token: G.token, seat: other}),
             post('act', {token: G.token, seat: to, serial: 1, choice: 0})]).then(done);"""


def test_hot_seat_hides_each_hand_between_turns(server, browser):
    """The screen holds one table token; while the cover is up the server itself refuses
    every seat's hand (forged requests from the page), and the state it sends has none."""
    _start(browser, server, ["human", "human"], seed=2)
    assert _js(browser, "return [G.hotseat, Object.keys(G.tokens).length]") == [True, 0]
    seats_seen, handoffs = set(), 0
    for _ in range(40):
        what = _wait(browser, _ready)
        if what == "handoff":
            handoffs += 1
            # one script reads the screen at once (the page may redraw between two reads)
            cover, cards, options, hand, last = _js(browser, """return [
                getComputedStyle(document.getElementById('handoff')).display !== 'none',
                document.querySelectorAll('#hand .card').length,
                document.querySelectorAll('#options .opt').length, state.hand,
                document.getElementById('last').textContent]""")
            # no hand, no options, not even the last seat's (secret) answer
            assert cover and cards == 0 and options == 0 and hand is None and last == ""
            mine, theirs, covered, reveal, act = browser.execute_async_script(FORGE)
            assert mine[0] == theirs[0] == 403 and reveal[0] == 403 and act[0] == 403
            assert covered[0] == 200 and json.loads(covered[1])["hand"] is None
            browser.find_element("id", "reveal").click()
            continue
        seat = _js(browser, "return viewer")
        seats_seen.add(seat)
        hand, shown = _js(browser, """return [(state.hand || []).map(c => c.id),
            [...document.querySelectorAll('#hand .card')].map(c => c.dataset.card)]""")
        assert shown == hand
        if len(seats_seen) == 2 and handoffs >= 3 and hand:
            break
        browser.find_elements("css selector", "#options .opt")[0].click()
        _wait(browser, lambda d: _ready(d) != "decide" or _js(d, "return state.actions") > 0)
    assert seats_seen == {0, 1} and handoffs >= 3


def test_undo_my_last_decision(server, browser):
    _start(browser, server, ["human", "heuristic"], seed=3)
    _wait(browser, lambda d: _ready(d) == "decide")
    prompt = _js(browser, "return state.decision.prompt")
    done = _js(browser, "return state.actions")
    browser.find_elements("css selector", "#options .opt")[-1].click()
    _wait(browser, lambda d: _ready(d) == "decide" and _js(d, "return state.actions") > done)
    browser.find_element("id", "undo").click()
    _wait(browser, lambda d: _js(d, "return state.actions") == done
          or d.find_element("id", "error").text)
    assert not browser.find_element("id", "error").text
    assert _js(browser, "return state.decision.prompt") == prompt
    # Save game downloads the game; loading that file opens the same decision again
    before = _js(browser, "return [G.game, state.decision.prompt, state.hand]")
    browser.find_element("id", "save").click()
    _wait(browser, lambda d: d.find_elements("id", "save-link"))
    browser.execute_async_script("""const done = arguments[arguments.length - 1];
        fetch(document.getElementById('save-link').href).then((r) => r.json())
          .then((save) => call('POST', '/api/play/load', {save})).then(begin).then(done);""")
    _wait(browser, lambda d: _js(d, "return G.game") != before[0] and _ready(d) == "decide")
    assert _js(browser, "return [G.game, state.decision.prompt, state.hand]")[1:] == before[1:]


def test_watch_agents_see_battles_then_replay(server, browser):
    _start(browser, server, ["heuristic", "heuristic"], seed=1, delay=0)
    _wait(browser, lambda d: _js(d, "return !!(state && state.over)"), 120)
    log = browser.find_element("id", "log").text
    assert "Battle at" in log or "Siege at" in log
    assert "Combat Round" in log and "hit" in log
    assert any(face in log for face in "⚀⚁⚂⚃⚄⚅")  # the dice rolled
    assert browser.find_element("id", "why-box").is_displayed()
    words, units, bad = _js(browser, OVERLAPS)
    assert words > 60
    assert units and bad == [], bad
    gid = _js(browser, "return G.game")
    with urllib.request.urlopen(f"{server}/api/play/{gid}/log") as r:
        text = r.read().decode()
    path = browser.execute_script("return 0")  # noqa: F841 - keep the page
    start = _js(browser, f"""
        return fetch('/api/play/replay', {{method: 'POST', headers: {{'Content-Type':
            'application/json'}}, body: JSON.stringify({{log: {json.dumps(text)}}})}})
          .then(r => r.json()).then(g => {{ begin(g); return g.replay; }});""")
    assert start is True
    _wait(browser, lambda d: _js(d, "return !!(state && state.replay)"))
    length = _js(browser, "return state.replay.length")
    assert length > 20
    _js(browser, "refresh(5)")
    _wait(browser, lambda d: _js(d, "return state.replay.at") == 5)
    early = browser.find_element("id", "log").text
    assert len(early) < len(log)
    browser.find_element("id", "next").click()
    _wait(browser, lambda d: _js(d, "return state.replay.at") == 6)
