"""`tether serve` in a real headless browser (Debian's Chromium + chromedriver, Selenium).

The page reloads by itself after a content file changes, and shows validation errors
instead of crashing when the content is broken.
"""

from __future__ import annotations

import shutil
import threading

import pytest

CHROMIUM = shutil.which("chromium")
DRIVER = shutil.which("chromedriver")
pytestmark = pytest.mark.skipif(
    not (CHROMIUM and DRIVER),
    reason="needs Debian's chromium and chromium-driver (installed by scripts/setup.sh --test)")


@pytest.fixture
def server(content_copy):
    from tether_build.serve.app import Site, default_pages, make_server

    srv = make_server(Site(content_copy, default_pages()), port=0)
    thread = threading.Thread(target=srv.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{srv.server_address[1]}", content_copy
    srv.shutdown()
    srv.server_close()


@pytest.fixture
def browser(tmp_path):
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync",
                 f"--user-data-dir={tmp_path / 'chromium'}", "--window-size=1200,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    yield driver
    driver.quit()


def _wait_for(driver, predicate, seconds=20):
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, seconds, poll_frequency=0.2).until(lambda d: predicate(d))


def _body(driver) -> str:
    # one script call reads the text atomically, even while the page is reloading
    return driver.execute_script("return document.body ? document.body.innerText : '';")


def test_gallery_reloads_after_a_content_change(server, browser):
    url, content = server
    browser.get(url + "/cards")
    assert "Supply Cache" in _body(browser)
    path = content / "cards" / "starter.yaml"
    path.write_text(path.read_text().replace("name: Supply Cache", "name: Supply Wagon"))
    _wait_for(browser, lambda d: "Supply Wagon" in _body(d))
    assert "Supply Cache" not in _body(browser)


def test_broken_content_shows_errors_in_the_page_then_recovers(server, browser):
    url, content = server
    browser.get(url + "/cards")
    path = content / "cards" / "starter.yaml"
    good = path.read_text()
    path.write_text(good.replace("Gain +2 {gold}.", "Gain +2 Gold."))
    _wait_for(browser, lambda d: "typed literally" in _body(d))
    assert "starter.yaml" in _body(browser)
    path.write_text(good)
    _wait_for(browser, lambda d: "Supply Cache" in _body(d))


def test_server_listens_on_localhost_only(server):
    url, _ = server
    assert url.startswith("http://127.0.0.1:")
