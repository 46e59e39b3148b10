"""The Play page of `tether serve`: games at a table in the browser, against agents or friends.

A `Lobby` holds the running games (each a `engine.table.Table` with the rules it started
with) and answers the page's JSON requests (`handle`). A seat is named by its number and a
secret token given when the game starts, or, at a hot-seat screen, by the screen's one table
token and the server's cover (playseats.py); the server answers a seat with that seat's state
only (playstate.seat_state, built from its observation). A seat answers a decision with one
of its legal action ids (the state API's) and the decision's serial number; an answer that is
forged, stale, out of turn or not a legal action is refused, changing nothing. A game that
fails shows its error; the other games go on.

The seed: a game with people gets a secret seed drawn by the server (playseal.py), sent to
no seat until the game is over (then shown, and the game's log replays it); its saves are
sealed. A typed seed is taken for a game of agents only, or, for tests and card checks, by
a server started with `open_seeds` (`tether serve --open-seeds`), whose games say so.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import threading
import time
from pathlib import Path

from ..engine.table import HUMAN, Refused, Table
from . import seal as playseal
from . import seats as playseats
from .seats import Answer

MAX_GAMES = 64          # running games kept; the oldest finished ones go first
MAX_BODY = 4_000_000    # bytes of a request (a saved game with its rules fits)
SAVE_FORMAT = 2         # 2: the answers as action ids; 1 (still loaded): option indices
SEALED_FORMAT = 3       # 3: format 2 with the seed and the answers sealed (playseal.py)
OPEN_SEED_NOTE = ("This game's seed is open (typed, or saved in the open): anyone with the "
                  "seed and the answers can work out every hand.")
PAGE = Path(__file__).resolve().parents[2] / "templates" / "play" / "play.html"


class Rules:
    """One version of the content, compiled: the engine rules, glossary words, card faces."""

    def __init__(self, content, files: dict[str, bytes], version: str):
        from ..engine.ruleset import Ruleset
        from .playstate import tile_content
        from .words import Words

        self.content, self.files, self.version = content, files, version
        self.rules = Ruleset.from_compiled(files)
        self.words = Words(content.terms, self.rules)
        self.tiles = tile_content(content)
        self._faces: dict[str, str] = {}
        self._cards = None
        self._pages = self._normal = None
        self._lock = threading.Lock()

    @classmethod
    def load(cls, content_dir: Path) -> Rules:
        from ..commands import load
        from ..content.cards import normalized_cards
        from ..effects.compile import compile_engine

        content = load(content_dir)
        files = compile_engine(normalized_cards(content), content)
        return cls(content, files, content_version(files))

    def cards(self) -> dict[str, dict]:
        """Every card's name and the engine's reading of it (public: all cards are printed)."""
        from ..content.cards import normalized_cards
        from ..effects.describe import reading

        with self._lock:
            if self._cards is None:
                self._cards = {c["id"]: {"name": c["name"], "reading":
                                         reading(c, self.content.terms)}
                               for c in normalized_cards(self.content)}
            return self._cards

    def face(self, card_id: str) -> str | None:
        """A card's face as the print draws it, as a page of its own (None: no such card)."""
        from markupsafe import Markup

        from ..content.cards import normalized_cards
        from ..print.cards.context import Renderer
        from ..print.html import TEMPLATES, Pages
        from .preview import ART_ROUTE, GALLERY_CSS, browser_page

        with self._lock:
            if card_id in self._faces:
                return self._faces[card_id]
            if self._normal is None:
                self._normal = {c["id"]: c for c in normalized_cards(self.content)}
                self._pages = Pages(Renderer(self.content, TEMPLATES))
            card, pages = self._normal.get(card_id), self._pages
            if card is None:
                return None
            if card.get("art"):
                from urllib.parse import quote
                card = {**card, "art": {**card["art"],
                                        "url": ART_ROUTE + quote(card["art"]["path"])}}
            body = "<div class='card-box'>" + str(pages.face(card, 1)) + "</div>"
            doc = browser_page(pages.document([Markup(body)]), GALLERY_CSS +
                           "<style>html,body{background:transparent;margin:0}"
                           ".card-box{margin:0}</style>")
            self._faces[card_id] = doc
            return doc


def content_version(files: dict[str, bytes]) -> str:
    """A short digest of the compiled rules: equal digests, equal rules."""
    h = hashlib.sha256()
    for name in sorted(files):
        h.update(name.encode() + b"\0" + files[name] + b"\0")
    return h.hexdigest()[:12]


def rules_difference(old: dict[str, bytes], new: dict[str, bytes]) -> list[str]:
    """What differs between two compiled rule sets, by card name and game setting."""
    out = []
    try:
        a = {c["id"]: c for c in json.loads(old["cards.json"])["cards"]}
        b = {c["id"]: c for c in json.loads(new["cards.json"])["cards"]}
    except (KeyError, ValueError, TypeError):
        return ["the saved rules cannot be read"]
    for cid in sorted(set(a) | set(b)):
        if cid not in b:
            out.append(f"card {a[cid].get('name', cid)} is no longer in the content")
        elif cid not in a:
            out.append(f"card {b[cid].get('name', cid)} is new")
        elif a[cid] != b[cid]:
            keys = sorted(k for k in set(a[cid]) | set(b[cid]) if a[cid].get(k) != b[cid].get(k))
            was, now = a[cid].get("name", cid), b[cid].get("name", cid)
            named = f"card {was}" + (f" (now {now})" if was != now else "")
            out.append(f"{named} changed ({', '.join(keys)})")
    for name in sorted(set(old) | set(new)):
        if name != "cards.json" and old.get(name) != new.get(name):
            out.append(f"{name.removesuffix('.json')} settings changed")
    return out


class Game:
    """One game in the lobby: its table, its rules, its seats' tokens (or a hot-seat
    screen's table token and the seat it shows now: playseats.py)."""

    def __init__(self, gid: str, table: Table, rules: Rules, tokens: dict[int, str], note="",
                 screen: str | None = None, secret: bool = False):
        self.gid, self.table, self.rules, self.tokens = gid, table, rules, tokens
        self.screen, self.shown = screen, None
        self.secret = secret  # the seed was drawn by the server: no seat sees it before the end
        self.note = note
        self.started = time.time()
        self.history: list[dict] | None = None  # a replay's observation after each decision


def _agents() -> dict:
    from ..engine.simulate import AGENTS
    # nsearch plays whole games in the native engine only: not at a table
    return {k: v for k, v in AGENTS.items() if k != "nsearch"}


def explain(agent, view, p, kind, options, ctx) -> list | None:
    """Why an agent chose: the heuristic's top scores, or the search's visit counts."""
    from ..engine.search import SearchAgent

    rows = agent.why(kind, options) if isinstance(agent, SearchAgent) else None
    if rows:   # the search's visits per option at this decision (any kind it searched)
        return [{"i": i, "visits": n} for n, i in rows[:5]]
    scorer = getattr(agent, "heuristic", agent)
    fn = getattr(scorer, "_" + kind, None) or getattr(scorer, "_default", None)
    if fn is None or len(options) < 2 or len(options) > 80:
        return None
    rows = []
    for i, opt in enumerate(options):
        try:
            rows.append((float(fn(view, p, opt, ctx)) if opt is not None else 0.0, i))
        except Exception:  # noqa: BLE001, S112 - a reason we cannot compute is left out
            continue
    rows.sort(reverse=True)
    return [{"i": i, "score": round(v, 2)} for v, i in rows[:5]]


class Lobby:
    """The running games of one server, and the content they start from."""

    def __init__(self, content_dir: Path, open_seeds: bool = False,
                 key_file: Path | None = None):
        self.content_dir = Path(content_dir)
        self.open_seeds = open_seeds  # a typed seed for games with people too (tests)
        self.key_file = Path(key_file) if key_file else playseal.default_key_file(content_dir)
        self.games: dict[str, Game] = {}
        self._rules: tuple[str, Rules] | None = None
        self._lock = threading.Lock()

    def current(self) -> Rules:
        """The rules of the content on disk now (compiled again after an edit)."""
        from ..fsutil import tree_version

        stamp = tree_version(self.content_dir, PAGE.parent.parent)  # content and templates/
        with self._lock:
            if self._rules is None or self._rules[0] != stamp:
                self._rules = (stamp, Rules.load(self.content_dir))
            return self._rules[1]

    def rules_of(self, version: str) -> Rules | None:
        """The rules of a content version a game here plays (or the current content's)."""
        now = self.current()
        if now.version == version:
            return now
        return next((g.rules for g in list(self.games.values())
                     if g.rules.version == version), None)

    def _add(self, table: Table, rules: Rules, note: str = "", hotseat: bool = True,
             secret: bool = False) -> Game:
        gid = secrets.token_hex(6)
        tokens, screen = playseats.new_tokens(table.seats, hotseat)
        if HUMAN in table.seats and not secret:
            note = (note + " " if note else "") + OPEN_SEED_NOTE
        game = Game(gid, table, rules, tokens, note, screen, secret)
        if HUMAN not in table.seats:  # the reasons are shown only when no person plays
            table.explain, table.describe = explain, rules.words.option
        with self._lock:
            while len(self.games) >= MAX_GAMES:
                old = min(self.games.values(), key=lambda x: (not x.table.over, x.started))
                old.table.close()
                del self.games[old.gid]
            self.games[gid] = game
        table.start()
        if HUMAN in table.seats:
            table.settle(30)  # the page opens at the first decision
        else:
            table.wait_started(30)  # a game of agents is watched as it goes
        return game

    def new(self, spec: dict) -> Game:
        """Start a game from the page's form: players, seats, factions, seed, delay, and
        whether the people share one screen (`hotseat`, the default: one table token and
        the server's cover) or each has a seat token of their own."""
        rules = self.current()
        game_cfg = rules.rules.game["players"]
        players = _int(spec.get("players", 2), game_cfg["min"], game_cfg["max"], "players")
        seats = spec.get("seats") or [HUMAN] + ["heuristic"] * (players - 1)
        known = {HUMAN, *_agents()}
        if not isinstance(seats, list) or len(seats) != players or any(
                s not in known for s in seats):
            raise Refused(f"seats must be {players} of: {', '.join(sorted(known))}")
        factions = spec.get("factions") or None
        if factions is not None and (not isinstance(factions, list) or len(factions) != players
                                     or any(f not in rules.rules.factions for f in factions)):
            raise Refused(f"factions must be {players} of: "
                              f"{', '.join(sorted(rules.rules.factions))}")
        typed = spec.get("seed")
        secret = HUMAN in seats and not self.open_seeds
        if typed in (None, ""):
            seed = playseal.draw_seed()
        elif secret:
            raise Refused("a game with people gets a secret seed drawn by the server (with a "
                          "typed seed anyone could work out every hand): type a seed for a "
                          "game of agents only")
        else:
            seed = _int(typed, 0, 2**63 - 1, "seed")
        delay = _delay(spec.get("delay", 0))
        hotseat = spec.get("hotseat", True)
        if not isinstance(hotseat, bool):
            raise Refused(f"hotseat must be true or false, not {hotseat!r}")
        table = Table(rules.rules, players, seed, seats, factions, None, (), delay, _agents())
        return self._add(table, rules, hotseat=hotseat, secret=secret)

    def save(self, game: Game) -> dict:
        """A game as a file: its setup and answers (sealed for a game with a secret seed)."""
        t = game.table
        public = {"players": t.players, "seats": t.seats, "factions": t.factions,
                  "options": t.game.opt.to_dict() if t.game else {},
                  "content_version": game.rules.version, "hotseat": game.screen is not None,
                  "rules": {k: v.decode() for k, v in game.rules.files.items()}}
        secret = {"seed": t.seed, "actions": [a["id"] for a in t.actions]}
        if game.secret:
            try:
                key = playseal.load_key(self.key_file)
            except (playseal.SealError, OSError) as exc:
                raise Refused(f"cannot seal the save: {exc}") from None
            return playseal.seal(key, {"format": SEALED_FORMAT, **public}, secret)
        return {"format": SAVE_FORMAT, **public, **secret}

    def load(self, data) -> Game:
        """A saved game, replayed; with the rules it was saved with, the difference named."""
        from ..engine.options import Options

        if not isinstance(data, dict) or data.get("format") not in (1, SAVE_FORMAT,
                                                                     SEALED_FORMAT):
            raise Refused(f"not a saved game of this page (format 1, {SAVE_FORMAT} or "
                          f"{SEALED_FORMAT})")
        secret = data["format"] == SEALED_FORMAT
        if secret:
            try:
                data = {**data, **playseal.unseal(playseal.load_key(self.key_file), data)}
            except (playseal.SealError, OSError) as exc:
                raise Refused(f"cannot load this saved game: {exc}") from None
        now = self.current()
        saved = data.get("rules")
        note = ""
        if data.get("content_version") == now.version:
            rules = now
        elif isinstance(saved, dict) and all(isinstance(v, str) for v in saved.values()):
            files = {k: v.encode() for k, v in saved.items()}
            if content_version(files) != data.get("content_version"):
                raise Refused("the saved rules do not match their content version (edited?)")
            diff = rules_difference(files, now.files)
            rules = Rules(now.content, files, data["content_version"])
            note = (f"This game keeps the rules it was saved with (content version "
                    f"{rules.version}); the content now is {now.version}: "
                    + "; ".join(diff[:8]) + (f"; and {len(diff) - 8} more" if len(diff) > 8
                                             else ""))
        else:
            raise Refused(f"saved with content version {data.get('content_version')!r}, the "
                          f"content now is {now.version}, and the save holds no rules")
        players = _int(data.get("players"), 2, 6, "players")
        seats = data.get("seats")
        if not isinstance(seats, list) or len(seats) != players or any(
                s not in {HUMAN, *_agents()} for s in seats):
            raise Refused("the save's seats are not valid")
        actions = data.get("actions")
        if not isinstance(actions, list) or not all(isinstance(i, int) for i in actions):
            raise Refused("the save's actions must be a list of whole numbers")
        try:
            opts = Options.from_dict(data.get("options") or {})
        except (TypeError, ValueError, KeyError) as exc:
            raise Refused(f"bad rules option in the save: {exc}") from None
        table = Table(rules.rules, players, _int(data.get("seed"), 0, 2**63 - 1, "seed"),
                      seats, data.get("factions"), opts, actions, 0.0, _agents(),
                      script_ids=data["format"] != 1)
        game = self._add(table, rules, note, data.get("hotseat") is not False, secret)
        if table.error:
            raise Refused(f"the saved game does not replay: {table.error}")
        return game

    def replay(self, text: str) -> Game:
        """A `simulate --log-dir` log (or a game's own log) as a replay with a timeline."""
        from ..engine.options import Options
        from ..engine.play import ReplayError, parse_log

        try:
            events = parse_log(text)
        except ReplayError as exc:
            raise Refused(f"not a game log: {exc}") from None
        head = next((e for e in events if e["e"] == "setup"), None)
        if head is None:
            raise Refused("the log has no setup event")
        rules = self.current()
        players = _int(head.get("players"), 2, 6, "players")
        try:
            opts = Options.from_dict(head.get("options") or {})
        except (TypeError, ValueError, KeyError) as exc:
            raise Refused(f"bad rules option in the log: {exc}") from None
        script = [e.get("i") for e in events if e["e"] == "decide"]
        whole = head.get("whole_plays") or [False] * players
        table = Table(rules.rules, players, _int(head.get("seed"), -(2**63), 2**63 - 1, "seed"),
                      [HUMAN] * players, head.get("factions"), opts, script, 0.0, _agents(),
                      whole_plays=whole, script_ids=False)
        game = Game(secrets.token_hex(6), table, rules, {}, "A replay of a logged game.")
        game.history = []
        table.on_record = _historian(game)
        table.start()
        table.settle(120)
        if table.pending is not None:
            table.close()
        if table.error:
            raise Refused(f"the log does not replay with the content now: {table.error}")
        with self._lock:
            self.games[game.gid] = game
        return game


def _historian(game: Game):
    def keep(table, action, options, ctx):
        game.history.append({"obs": table.game.observation(-1), "events": len(table.events)})
    return keep


def _int(value, low: int, high: int, what: str) -> int:
    if isinstance(value, str) and value.strip().lstrip("-").isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused(f"{what} must be a whole number from {low} to {high}, not {value!r}")
    return value


def _delay(value) -> float:
    try:
        d = float(value)
    except (TypeError, ValueError):
        raise Refused(f"delay must be seconds (0-5), not {value!r}") from None
    if not 0 <= d <= 5:
        raise Refused(f"delay must be 0-5 seconds, not {d}")
    return d


# ---- requests ----------------------------------------------------------------------------
def handle(lobby: Lobby, method: str, path: str, query: dict, body: bytes
           ) -> tuple[int, bytes, str]:
    """One request under /play or /api/play/: (status, body, content type)."""
    try:
        return _route(lobby, method, path, query, body)
    except Answer as exc:
        return exc.status, _json({"error": str(exc)}), "application/json"
    except Refused as exc:
        return 400, _json({"error": str(exc)}), "application/json"
    except Exception as exc:  # noqa: BLE001 - one game's failure is not the server's
        from ..errors import ContentError
        if isinstance(exc, ContentError):
            lines = [str(p) for p in exc.problems][:20]
            return 409, _json({"error": "the content does not validate: "
                               + "; ".join(lines)}), "application/json"
        return 500, _json({"error": f"{type(exc).__name__}: {exc}"}), "application/json"


def _json(data) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode()


def _ok(data) -> tuple[int, bytes, str]:
    return 200, _json(data), "application/json"


def _route(lobby, method, path, query, body):
    if path == "/play":
        return 200, PAGE.read_bytes(), "text/html; charset=utf-8"
    parts = path.removeprefix("/api/play/").split("/")
    data = {}
    if method == "POST":
        if len(body) > MAX_BODY:
            raise Answer(413, "request too large")
        try:
            data = json.loads(body or b"{}")
        except ValueError:
            raise Answer(400, "the request is not JSON") from None
        if not isinstance(data, dict):
            raise Answer(400, "the request must be a JSON object")
    head = parts[0]
    if head == "setup" and method == "GET":
        rules = lobby.current()
        cfg = rules.rules.game["players"]
        return _ok({"version": rules.version, "min": cfg["min"], "max": cfg["max"],
                    "open_seeds": lobby.open_seeds,
                    "agents": sorted(_agents()),
                    "factions": [{"id": k, "name": f.name}
                                 for k, f in sorted(rules.rules.factions.items())],
                    "default_faction": rules.rules.default_faction})
    if head == "new" and method == "POST":
        return _ok(_started(lobby.new(data)))
    if head == "load" and method == "POST":
        return _ok(_started(lobby.load(data.get("save"))))
    if head == "replay" and method == "POST":
        text = data.get("log")
        if not isinstance(text, str):
            raise Refused("send the log's text as 'log'")
        return _ok(_started(lobby.replay(text)))
    if head == "face" and method == "GET" and len(parts) == 3:
        # a card face by content version: the same for every game of that version, so the
        # browser may keep it
        rules = lobby.rules_of(parts[1])
        doc = rules.face(parts[2]) if rules is not None else None
        if doc is None:
            raise Answer(404, f"no card {parts[2]!r} in content version {parts[1]!r}")
        return 200, doc.encode(), "text/html; charset=utf-8", {"Cache-Control": "max-age=3600"}
    game = lobby.games.get(head)
    if game is None:
        raise Answer(404, "no such game (the server was restarted, or the game was closed)")
    what = parts[1] if len(parts) > 1 else "state"
    if what == "state" and method == "GET":
        return _ok(_state(lobby, game, query))
    if what == "board" and method == "GET":
        return 200, _board(game, query).encode(), "image/svg+xml"
    if what == "cards" and method == "GET":
        return _ok(game.rules.cards())
    if what == "act" and method == "POST":
        seat = playseats.speaker(game, data)
        game.table.act(seat, data.get("serial"), data.get("choice"))
        game.table.settle(60)
        return _ok(_view(lobby, game, playseats.viewer(game, {**data, "seat": None})
                         if game.screen else seat))
    if what == "reveal" and method == "POST":
        return _ok(_view(lobby, game, playseats.reveal(game, data)))
    if what == "undo" and method == "POST":
        seat = playseats.undoer(game, data)
        game.table.undo(seat)
        game.shown = None if game.screen else game.shown
        game.table.settle(60)
        return _ok(_view(lobby, game, None if game.screen else seat))
    if what == "speed" and method == "POST":
        game.table.delay = _delay(data.get("delay"))
        return _ok({"delay": game.table.delay})
    if what == "save" and method == "GET":
        playseats.may_save(game, query)
        with game.table.lock:
            saved = lobby.save(game)
        return 200, _json(saved), "application/json"
    if what == "log" and method == "GET":
        if not game.table.over:
            raise Answer(409, "the log is given when the game is over (it shows every hand)")
        text = "".join(json.dumps(e, sort_keys=True, default=str) + "\n"
                       for e in game.table.events)
        return 200, text.encode(), "application/x-ndjson"
    raise Answer(404, f"unknown request {method} {path}")


def _board(game: Game, query: dict) -> str:
    """The board with its public units: now, or a replay's at decision `at`."""
    from .board import board_svg
    table = game.table
    if table.game is None:
        raise Answer(409, "the game is still setting up")
    if game.history is not None:
        if not game.history:
            raise Answer(409, "the replay has no decision")
        k = query.get("at", "-1")
        k = int(k) if k.lstrip("-").isdigit() else -1
        k = k if 0 <= k < len(game.history) else len(game.history) - 1
        obs = game.history[k]["obs"]
        return board_svg(game.rules.tiles, table.game, obs, game.rules.words)
    with table.lock:  # the public observation: what every seat sees of the board
        return board_svg(game.rules.tiles, table.game, table.game.observation(-1),
                         game.rules.words)


def _started(game: Game) -> dict:
    out = {"game": game.gid, "tokens": {str(k): v for k, v in game.tokens.items()},
           "seats": game.table.seats, "note": game.note, "version": game.rules.version,
           "replay": game.history is not None, "hotseat": game.screen is not None}
    if game.screen is not None:
        out["token"] = game.screen
    return out


def _state(lobby: Lobby, game: Game, query: dict) -> dict:
    from .playstate import replay_state
    if game.history is not None:
        k = query.get("at", "-1")
        k = int(k) if k.lstrip("-").isdigit() else -1
        out = replay_state(game, k if k >= 0 else len(game.history) - 1)
    else:
        return _view(lobby, game, playseats.viewer(game, query))
    return _annotate(lobby, game, out)


def _view(lobby: Lobby, game: Game, seat: int | None) -> dict:
    from .playstate import seat_state
    table = game.table
    with table.lock:  # the game between two steps
        out = seat_state(table, game.rules.words, seat)
        if game.screen is not None:
            out["hotseat"] = True
            pend = table.pending
            if seat is None and pend is not None and table.seats[pend.p] == HUMAN:
                out["cover"] = {"seat": pend.p}  # 'I am seat N, show my hand' lifts it
    return _annotate(lobby, game, out)


def _annotate(lobby: Lobby, game: Game, out: dict) -> dict:
    out["game"], out["version"], out["note"] = game.gid, game.rules.version, game.note
    # a secret seed is shown at the end only (then the log replays the game); a string,
    # since a browser reads numbers past 2**53 wrongly
    shown = not game.secret or game.table.over
    out["seed"] = {"secret": game.secret, "value": str(game.table.seed) if shown else None}
    try:
        now = lobby.current().version
    except Exception:  # noqa: BLE001 - content being edited: the game goes on
        now = None
    if now is not None and now != game.rules.version:
        out["content_note"] = (f"The content changed since this game started (now {now}); "
                               f"this game keeps the rules it started with ({game.rules.version})."
                               " A new game uses the new content.")
    return out
