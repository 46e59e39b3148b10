"""Pages of the live preview: the card gallery and the rulebook, as browser HTML."""

from __future__ import annotations

import html
from pathlib import Path
from urllib.parse import quote

from markupsafe import Markup

GALLERY_CSS = """<style>
  html, body { background: #d9d4c7; }
  .deck-title { font: bold 20px sans-serif; margin: 24px 12px 8px; color: #222; }
  .gallery { display: flex; flex-wrap: wrap; gap: 12px; padding: 0 12px 24px; }
  .gallery > .card-box { flex: none; width: 72mm; }
  .card-box > section.face { position: relative; box-shadow: 0 2px 6px #0004; }
  .reading { font: 11px/1.35 sans-serif; color: #222; margin-top: 4px; }
  .reading .drift { color: #b00020; font-weight: bold; }
</style>"""


ART_ROUTE = "/art/"   # a card's art: picture, served from the project folder (serve.py)


def browser_page(document: str, extra_head: str = "") -> str:
    """Make a print document load its CSS, fonts and icons from the preview server."""
    return document.replace("<head>", "<head>\n<base href='/templates/'>" + extra_head, 1)


def gallery_page(content_dir: Path) -> str:
    """Every card face (first copy), grouped by deck, drawn by the print templates."""
    from ..check import run_check
    from ..commands import load
    from ..content.cards import normalized_cards
    from ..print.cards.context import Renderer
    from ..print.html import TEMPLATES, Pages

    content = load(content_dir)
    pages = Pages(Renderer(content, TEMPLATES))
    cards = normalized_cards(content)
    # every card's scenarios in the engine (no sweep: ~0.5 s), shown under the card
    failures: dict[str, list[str]] = {}
    for f in run_check(content, cards, games=0).failures:
        failures.setdefault(f.subject.split("/")[0].split(":")[0], []).append(
            f"{f.step}: {f.why}")
    order = {deck_id: i for i, deck_id in enumerate(content.ages["decks"])}
    sections, deck = [], None
    for card in sorted(cards, key=lambda c: order[c["deck"]]):
        if card["deck"] != deck:
            if deck is not None:
                sections.append("</div>")
            deck = card["deck"]
            sections.append(f"<h2 class='deck-title'>{html.escape(card['deck_name'])}</h2>"
                            "<div class='gallery'>")
        if card.get("art"):   # the browser reads the picture from the server, not file:
            card = {**card, "art": {**card["art"], "url": ART_ROUTE + quote(card["art"]["path"])}}
        sections.append("<div class='card-box'>" + str(pages.face(card, 1)) +
                        _reading(card, failures.get(card["id"], []), content.terms)
                        + "</div>")
    sections.append("</div>")
    return browser_page(pages.document([Markup(s) for s in sections]), GALLERY_CSS)


def _reading(card: dict, failures: list[str], terms: dict) -> str:
    """Under a face: the engine's reading of the card, its drift and check failures in red."""
    from ..content.textcheck import card_drift
    from ..effects.describe import reading

    drift = "".join(f"<div class='drift'>DRIFT: {html.escape(d.message)}</div>"
                    for d in card_drift(card))
    drift += "".join(f"<div class='drift'>DOES NOT RESOLVE: {html.escape(why)}</div>"
                     for why in failures)
    return (f"<div class='reading' data-card='{html.escape(card['id'])}'>"
            f"<b>Engine:</b> {html.escape(reading(card, terms))}{drift}</div>")


def rules_page(content_dir: Path) -> str:
    """The rulebook as HTML, drawn by the rulebook templates."""
    from ..commands import load
    from ..print.rulebook.book import preview_html
    return preview_html(load(content_dir), content_dir)
