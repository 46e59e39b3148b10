"""`tether serve`: a local preview (localhost only) that reloads when content changes.

Pages are rendered in memory from the content on disk, cached per content version. A page
polls `/_version` and reloads itself when any file under content/ or templates/ changes.
Content that does not validate shows its errors in the page instead of crashing the server.
"""

from __future__ import annotations

import html
import json
import mimetypes
import threading
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import unquote, urlparse

from ..errors import ContentError, TetherError
from ..fsutil import tree_version

ROOT = Path(__file__).resolve().parents[2]
TEMPLATES = ROOT / "templates"
RELOAD = """<script>
(function () {
  var seen = %s;
  function poll() {
    fetch('/_version', {cache: 'no-store'}).then(function (r) { return r.json(); })
      .then(function (d) { if (d.version !== seen) { location.reload(); } })
      .catch(function () {}).finally(function () { setTimeout(poll, 400); });
  }
  setTimeout(poll, 400);
})();
</script>"""
NAV = ("<nav class='tether-nav' style='font:14px sans-serif;padding:6px 10px;background:#222;"
       "color:#eee'>{links}</nav>")


def error_page(title: str, lines: list[str]) -> str:
    """An HTML page listing content problems, escaped."""
    items = "".join(f"<li><code>{html.escape(line)}</code></li>" for line in lines)
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}"
            f"</title></head><body style='font:15px sans-serif;margin:2rem'>"
            f"<h1 class='tether-error'>{html.escape(title)}</h1><ul id='problems'>{items}</ul>"
            "<p>Fix the content and save: this page reloads by itself.</p></body></html>")


class Site:
    """The preview's pages, re-rendered whenever content or templates change."""

    def __init__(self, content_dir: Path, pages: dict[str, tuple[str, Callable]],
                 open_seeds: bool = False):
        self.content_dir = Path(content_dir)
        self.open_seeds = open_seeds  # the Play page takes typed seeds for games with people
        self.pages = pages  # route -> (label, render(content_dir) -> html str)
        self._cache: dict[str, tuple[str, str]] = {}
        # one lock per page: a cached page never waits for another page's render
        self._locks = {route: threading.Lock() for route in pages}
        self._lobby = None
        self._lobby_lock = threading.Lock()

    @property
    def lobby(self):
        """The Play page's games (playserve.Lobby), made on first use."""
        with self._lobby_lock:
            if self._lobby is None:
                from .play import Lobby
                self._lobby = Lobby(self.content_dir, open_seeds=self.open_seeds)
            return self._lobby

    def version(self) -> str:
        report = BALANCE / "report.html"
        extra = f"|{report.stat().st_mtime_ns}" if report.is_file() else ""
        return tree_version(self.content_dir, TEMPLATES) + extra

    def render(self, route: str) -> tuple[int, str]:
        """(status, html) of a page; content errors become an error page."""
        version = self.version()
        cached = self._cache.get(route)
        if cached and cached[0] == version:
            return 200, cached[1]
        with self._locks[route]:
            cached = self._cache.get(route)
            if cached and cached[0] == version:
                return 200, cached[1]
            _label, render = self.pages[route]
            try:
                body = render(self.content_dir)
            except ContentError as exc:
                body = error_page(f"{len(exc.problems)} problem(s) in content",
                                  [str(p) for p in exc.problems])
            except TetherError as exc:
                body = error_page("The preview could not be built", [exc.format_message()])
            except Exception as exc:  # noqa: BLE001 - the preview shows it, never dies of it
                body = error_page("The preview could not be built",
                                  [f"{type(exc).__name__}: {exc}"])
            body = self._decorate(body, version)
            self._cache[route] = (version, body)
            return 200, body

    def _decorate(self, body: str, version: str) -> str:
        links = " · ".join(f"<a style='color:#9cf' href='{route}'>{html.escape(label)}</a>"
                           for route, (label, _) in [*self.pages.items(), ("/play", ("Play",
                                                                                    None))])
        nav = NAV.format(links=links)
        script = RELOAD % json.dumps(version)
        if "<body" in body:
            head, _, rest = body.partition("<body")
            tag_end = rest.index(">") + 1
            body = head + "<body" + rest[:tag_end] + nav + rest[tag_end:]
        else:
            body = nav + body
        return body.replace("</body>", script + "</body>") if "</body>" in body \
            else body + script


LOCAL_HOSTS = {"127.0.0.1", "localhost", "[::1]"}
FONT_TYPES = {".ttf", ".otf", ".woff", ".woff2"}
NAME_MAX = 255     # bytes in one path segment (a longer one is a 400, not an OSError)
READ_TIMEOUT = 10  # seconds a connection may stay silent (a slow or stuck client)


def _handler(site: Site):
    class Handler(BaseHTTPRequestHandler):
        timeout = READ_TIMEOUT

        def _host_ok(self) -> bool:
            """DNS rebinding guard: only requests addressed to this machine by name."""
            host = (self.headers.get("Host") or "").strip().lower()
            name = host.rsplit(":", 1)[0] if not host.endswith("]") else host
            return name in LOCAL_HOSTS

        def do_GET(self) -> None:  # http.server calls it by this name
            if not self._host_ok():
                self._send(403, b"forbidden host", "text/plain")
                return
            path = urlparse(self.path).path
            if any(len(seg.encode()) > NAME_MAX for seg in unquote(path).split("/")):
                self._send(400, b"bad request: a path segment over 255 bytes", "text/plain")
                return
            try:
                self._route(path)
            except OSError:   # a name the file system refuses: an answer, never a dropped line
                self._send(404, b"not found", "text/plain")

        def _route(self, path: str) -> None:
            if path == "/":
                self._send(302, b"", "text/plain", {"Location": next(iter(site.pages))})
            elif path == "/_version":
                self._send(200, json.dumps({"version": site.version()}).encode(),
                           "application/json")
            elif path in site.pages:
                status, body = site.render(path)
                self._send(status, body.encode(), "text/html; charset=utf-8")
            elif path == "/play" or path.startswith("/api/play/"):
                self._play("GET", path, b"")
            elif path.startswith("/templates/"):
                self._static(unquote(path[len("/templates/"):]))
            elif path.startswith("/art/"):
                self._art(unquote(path[len("/art/"):]))
            else:
                self._send(404, b"not found", "text/plain")

        def do_POST(self) -> None:  # http.server calls it by this name
            path = urlparse(self.path).path
            origin = (self.headers.get("Origin") or "").lower()
            if not self._host_ok() or (origin and urlparse(origin).hostname not in
                                       {"127.0.0.1", "localhost", "::1"}):
                self._send(403, b"forbidden host or origin", "text/plain")
                return
            if not path.startswith("/api/play/"):
                self._send(404, b"not found", "text/plain")
                return
            try:
                length = int(self.headers.get("Content-Length") or 0)
            except ValueError:
                length = -1
            from .play import MAX_BODY
            if not 0 <= length <= MAX_BODY:
                self._send(413, b"request too large", "text/plain")
                return
            self._play("POST", path, self.rfile.read(length))

        def _play(self, method: str, path: str, body: bytes) -> None:
            from urllib.parse import parse_qs

            from .play import handle
            query = {k: v[0] for k, v in parse_qs(urlparse(self.path).query).items()}
            status, out, kind, *headers = handle(site.lobby, method, path, query, body)
            self._send(status, out, kind, *headers)

        def _static(self, rel: str) -> None:
            if "\0" in rel:
                self._send(404, b"not found", "text/plain")
                return
            from ..content.paths_guard import FILE_MAX, Refused, read_bytes

            try:   # a regular file of templates/ once resolved, of bounded size
                data = read_bytes(TEMPLATES / rel, TEMPLATES, FILE_MAX)
            except Refused:
                self._send(404, b"not found", "text/plain")
                return
            kind = mimetypes.guess_type(rel)[0] or "application/octet-stream"
            # fonts are not content: a browser may keep them (the Play page's card faces
            # would load 2 MB of fonts each)
            keep = {"Cache-Control": "max-age=3600"} if Path(rel).suffix.lower() in FONT_TYPES else None
            self._send(200, data, kind, keep)

        def _art(self, rel: str) -> None:
            """A card's `art:` picture: inside the project folder, a picture type, on disk
            (the same rule as validate's, cards.art_path)."""
            from types import SimpleNamespace

            from ..content.cards import art_path

            target, why = art_path(SimpleNamespace(root=site.content_dir), rel) \
                if "\0" not in rel else (None, "nul")
            if why:
                self._send(404, b"not found", "text/plain")
                return
            kind = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
            self._send(200, target.read_bytes(), kind)

        def _send(self, status: int, body: bytes, kind: str, headers: dict | None = None):
            self.send_response(status)
            self.send_header("Content-Type", kind)
            headers = dict(headers or {})
            self.send_header("Cache-Control", headers.pop("Cache-Control", "no-store"))
            self.send_header("Content-Length", str(len(body)))
            for key, value in headers.items():
                self.send_header(key, value)
            self.end_headers()
            try:
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the browser went away (a reload): nothing to tell anyone

        def log_message(self, *args) -> None:  # quiet by default
            pass

    return Handler


def make_server(site: Site, port: int = 8000) -> ThreadingHTTPServer:
    """An HTTP server on 127.0.0.1 only (port 0 picks a free port)."""
    server = ThreadingHTTPServer(("127.0.0.1", port), _handler(site))
    server.daemon_threads = True
    return server


def notes_page(content_dir: Path) -> str:
    """The designer report."""
    from ..commands import load
    from ..content.report import render_html
    return render_html(load(content_dir), content_dir / "rules").decode()


def effects_page(_content_dir: Path) -> str:
    """The effect-language reference (docs/effects.md, generated from the language)."""
    from markdown_it import MarkdownIt

    from ..effects.reference import render
    body = MarkdownIt("commonmark", {"html": False}).enable("table").render(render())
    return ("<!doctype html><html><head><meta charset='utf-8'><title>Effect language</title>"
            "<style>body{font:15px sans-serif;margin:2rem;max-width:60rem}"
            "table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:2px 6px}"
            "pre{background:#f4f4f4;padding:6px}</style></head><body>" + body +
            "</body></html>")


def changes_page(content_dir: Path) -> str:
    """What changed since the last tag (or HEAD): `tether diff` as a page."""
    from ..cli.versions import changes_html

    return changes_html(content_dir, None, None, "/templates/")[1]


BALANCE = Path("build/balance")  # where `tether balance` writes its report by default


def balance_page(_content_dir: Path) -> str:
    """The last `tether balance` report (build/balance/report.html), or how to make one."""
    report = BALANCE / "report.html"
    if report.is_file():
        return report.read_text(encoding="utf-8")
    return error_page("No balance report yet",
                      ["Run: tether balance --games 1000 --players 4",
                       "It writes build/balance/report.html; this page then shows it."])


def default_pages() -> dict[str, tuple[str, Callable]]:
    """The preview's pages: card gallery, rulebook, designer report, effect reference."""
    from . import preview
    return {"/cards": ("Cards", preview.gallery_page),
            "/rules": ("Rulebook", preview.rules_page),
            "/notes": ("Designer notes", notes_page),
            "/effects": ("Effect language", effects_page),
            "/changes": ("Changes", changes_page),
            "/balance": ("Balance", balance_page)}
