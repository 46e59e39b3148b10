"""`tether serve` against hostile or broken requests (issue 17.5 and 17.8)."""

from __future__ import annotations

import http.client
import socket
import threading
import time

import pytest

from tether_build.serve.app import Site, make_server


@pytest.fixture
def site_server(content_copy):
    slow = threading.Event()

    def slow_page(_content_dir):
        slow.wait(20)  # a render that takes long (the rulebook takes ~40 s on a busy machine)
        return "<html><body>slow</body></html>"

    def quick_page(_content_dir):
        return "<html><body>quick</body></html>"

    def broken_page(_content_dir):
        raise ValueError("a problem the preview did not expect")

    pages = {"/quick": ("Quick", quick_page), "/slow": ("Slow", slow_page),
             "/broken": ("Broken", broken_page)}
    srv = make_server(Site(content_copy, pages), port=0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    yield srv.server_address[1], slow
    slow.set()
    srv.shutdown()
    srv.server_close()


def _get(port, path, host=None, timeout=15):
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    conn.request("GET", path, headers={"Host": host or f"127.0.0.1:{port}"})
    resp = conn.getresponse()
    return resp.status, resp.read().decode(errors="replace")


def test_a_foreign_host_header_is_refused(site_server):
    port, _ = site_server
    assert _get(port, "/quick", host="attacker.example:80")[0] == 403
    assert _get(port, "/quick", host=f"localhost:{port}")[0] == 200


def test_a_cached_page_does_not_wait_for_a_slow_render(site_server):
    port, slow = site_server
    assert _get(port, "/quick")[0] == 200
    threading.Thread(target=lambda: _get(port, "/slow", timeout=30), daemon=True).start()
    time.sleep(0.3)
    start = time.perf_counter()
    assert _get(port, "/quick")[0] == 200
    assert time.perf_counter() - start < 5  # bounds a hang; the slow page holds ~20 s
    slow.set()


def test_nul_in_a_static_path_and_an_unexpected_error_are_answered(site_server):
    port, _ = site_server
    assert _get(port, "/templates/%00")[0] == 404
    status, body = _get(port, "/broken")
    assert status == 200 and "a problem the preview did not expect" in body


def test_a_silent_connection_is_closed_after_the_read_timeout(content_copy, monkeypatch):
    from tether_build.serve import app as serve

    monkeypatch.setattr(serve, "READ_TIMEOUT", 1)
    srv = make_server(Site(content_copy, {}), port=0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        sock = socket.create_connection(("127.0.0.1", srv.server_address[1]))
        sock.settimeout(15)
        start = time.perf_counter()
        assert sock.recv(1) == b""  # the server hung up on a client that never spoke
        assert time.perf_counter() - start < 10
        sock.close()
    finally:
        srv.shutdown()
        srv.server_close()


def test_serve_port_out_of_range_and_port_in_use_are_one_line_errors(content_copy):
    from click.testing import CliRunner

    from tether_build.cli import main

    r = CliRunner().invoke(main, ["serve", "--content", str(content_copy), "--port", "70000"])
    assert r.exit_code == 2 and "70000" in r.output
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    try:
        r = CliRunner().invoke(main, ["serve", "--content", str(content_copy), "--port",
                                      str(busy.getsockname()[1])])
        assert r.exit_code == 1 and "port is in use" in r.output
        assert "Traceback" not in r.output
    finally:
        busy.close()


def test_gallery_shows_the_engine_reading_and_drift_under_each_card(content_copy):
    """Issue 18.2/18.8: the preview shows what the engine reads, and drift in red."""
    from tether_build.serve.preview import gallery_page

    path = content_copy / "cards" / "starter.yaml"
    path.write_text(path.read_text().replace('text: "Gain +2 {gold}."',
                                             'text: "Gain +2 {gold} and draw a card."'))
    page = gallery_page(content_copy)
    assert page.count("class='reading'") == page.count("class='card-box'") > 100
    box = page.split("data-card='supply_cache'>")[1].split("</div></div>")[0]
    assert "Engine:</b> Gain 2 Gold." in box
    assert "DRIFT: text says &#x27;draw&#x27; but no step of the effect does it" in box


def test_gallery_shows_a_card_that_does_not_resolve(content_copy):
    from tether_build.serve.preview import gallery_page

    path = content_copy / "cards" / "age1_market.yaml"
    text = path.read_text()
    old = "{step: deploy, count: 4, where: {own_capital: true}}"
    assert old in text
    path.write_text(text.replace(old, old.replace("true}", "true, kind: [mine]}")))
    page = gallery_page(content_copy)
    box = page.split("data-card='paid_volunteers'>")[1].split("</div></div>")[0]
    assert "DOES NOT RESOLVE" in box


def test_card_art_is_served_from_the_project_folder_only(content_copy, tmp_path):
    """The gallery shows a card's art: picture through /art/; nothing outside the project
    folder, and nothing but pictures, is served there."""
    from tether_build.serve.preview import gallery_page

    project = content_copy.parent
    from PIL import Image

    (project / "art").mkdir()
    Image.new("RGB", (4, 2), (200, 30, 30)).save(project / "art" / "zap.png")
    picture = (project / "art" / "zap.png").read_bytes().decode("utf-8", errors="replace")
    path = content_copy / "cards" / "starter.yaml"
    text = path.read_text(encoding="utf-8")
    path.write_text(text.replace("  - id: zap\n", "  - id: zap\n    art: art/zap.png\n", 1),
                    encoding="utf-8")
    (project.parent / "secret.png").write_bytes(b"secret")
    page = gallery_page(content_copy)
    assert 'src="/art/art/zap.png"' in page and "file:" not in page
    srv = make_server(Site(content_copy, {"/q": ("Q", lambda _d: "<html></html>")}), port=0)
    threading.Thread(target=srv.serve_forever, daemon=True).start()
    try:
        port = srv.server_address[1]
        assert _get(port, "/art/art/zap.png") == (200, picture)
        for bad in ("/art/../secret.png", "/art/%2e%2e/secret.png", "/art/content/game.yaml",
                    "/art/art/missing.png", "/art/%00"):
            assert _get(port, bad)[0] == 404, bad
    finally:
        srv.shutdown()
        srv.server_close()


@pytest.mark.parametrize("path", ["/templates/" + "a" * 300, "/art/" + "b" * 256 + ".png",
                                  "/" + "c" * 1000, "/templates/x/" + "%41" * 300])
def test_a_path_segment_over_255_bytes_is_answered(site_server, path):
    """issue 43: a name the file system refuses (ENAMETOOLONG) is a 400, not a dropped
    connection."""
    port, _ = site_server
    status, _ = _get(port, path)
    assert status == 400


def test_a_template_link_out_of_templates_is_not_served(site_server, tmp_path):
    """A static file is read through the guard: resolved inside templates/, never /etc."""
    port, _ = site_server
    assert _get(port, "/templates/../../../../etc/passwd")[0] == 404
    assert _get(port, "/templates/%2e%2e/%2e%2e/pyproject.toml")[0] == 404
