"""The print-and-assemble page (print/rulebook/printguide.py): numbers from content and from the
print stages' own pagination. The PDFs (print/README.pdf, the book's guide, anatomy and card
reference) are read in test_rulebook_pdf.py, which builds the book once."""

from __future__ import annotations

import math

from tether_build.content.cards import normalized_cards
from tether_build.print.rulebook import printguide
from tether_build.print.tiles import boardmap, common


def test_card_pages_follow_the_players(content):
    cards = normalized_cards(content)
    starter = sum(c["copies"] for c in cards if c["deck_kind"] == "starter")
    other = sum(c["copies"] for c in cards if c["deck_kind"] != "starter")
    # one pile marker per Archive and Power draw pile, printed among the fronts
    markers = sum(1 for d in content.ages["decks"].values() if d["kind"] in ("market", "power"))
    assert markers
    per_page = {"a4": 9, "letter": 8}  # 3 x 3 portrait; 4 x 2 landscape
    for paper, n in per_page.items():
        for players in (2, 4, 6):
            fronts = starter * players + other + markers
            assert printguide.card_pages(content, cards, paper, players) == \
                2 * math.ceil(fronts / n)
        top = content.game["players"]["max"]
        assert printguide.card_pages(content, cards, paper) == \
            printguide.card_pages(content, cards, paper, top)
    edges = {s["paper"]: s["duplex"] for s in printguide.card_sheets(("a4", "letter"))}
    assert edges == {"A4": "long edge", "US Letter": "short edge"}


def test_map_pages_are_the_maps_page_grid(content):
    for players in (2, 4, 6):
        radius = content.game["board"]["radius_by_players"][players]
        for paper in ("a4", "letter"):
            grid = boardmap.map_split(content, boardmap.layout(players, 1, content.game),
                                      paper)
            m = printguide.map_pages(content, players, paper)
            plain = boardmap.split(*boardmap.map_size(radius, common.DEFAULT_TILE_MM), paper)
            assert len(grid["windows"]) <= len(plain["windows"]) + max(plain["cols"],
                                                                        plain["rows"])
            assert m["pages"] == grid["cols"] * grid["rows"] == len(grid["windows"])
            assert m["first"] == "A1" and m["last"] == grid["windows"][-1]["name"]
