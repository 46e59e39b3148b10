"""The print-and-assemble page: what to print, how many times, on which sides, and how to
cut and assemble it. In the rulebook and as build/print/README.pdf.

Every number comes from content or from the same pagination the print stages use: card
sheets (render.geometry: 9 per sheet, each front sheet followed by its backs), tile sheets
(printing.tiles), token sheets (printing.tokens), the map's page windows
(printing.boardmap.split). Nothing is laid out here, so the page costs no rendering.
"""

from __future__ import annotations

from markupsafe import Markup

SCALE_SQUARE_MM = 50   # the printed square to measure
RULER_MM = 100         # the printed ruler line, ticked every millimetre
AID_PAGES = 2          # the player aid: one sheet, one page each side
PAPER_NAMES = {"a4": "A4", "letter": "US Letter"}
LONG_EDGE = "Both sides, flip on long edge"
ONE_SIDE = "One side"


def card_pages(content, cards: list[dict], paper: str, players: int | None = None) -> int:
    """Pages of print/cards-<paper>.pdf: sheets of fronts, each followed by its backs. The
    fronts are the card copies and the pile markers, as render.build lays them out (the
    markers were once left out: the guide said 52 pages of a file of 54)."""
    from ..cards.build import PrintOptions, pile_markers, select_cards
    from ..cards.sheets import page_count
    from ..geometry import sheet_for

    opts = PrintOptions(players=players)
    chosen = select_cards(content, cards, opts)
    decks = list(dict.fromkeys(c["deck"] for c in chosen))
    fronts = sum(c["copies"] for c in chosen) + len(pile_markers(content, decks, opts))
    return page_count(sheet_for(paper), fronts)


def card_sheets(papers) -> list[dict]:
    """Per paper: cards per sheet, grid and the duplex edge that lays backs on fronts."""
    from ..geometry import sheet_for

    out = []
    for p in papers:
        sheet = sheet_for(p)
        out.append({"paper": PAPER_NAMES[p], "per_page": sheet.per_page, "cols": sheet.cols,
                    "rows": sheet.rows, "duplex": sheet.duplex,
                    "landscape": sheet.width > sheet.height})
    return out


def _card_sides(papers) -> str:
    edges = {s["paper"]: s["duplex"] for s in card_sheets(papers)}
    if len(set(edges.values())) == 1:
        return f"Both sides, flip on {next(iter(edges.values()))}"
    return "Both sides, flip on " + ", ".join(f"{e} ({p})" for p, e in edges.items())


def map_pages(content, players: int, paper: str, seed: int = 1) -> dict:
    """The real-size map's page grid for `players` and `seed` (as the board stage prints
    it: its page joins kept off the words on the hexes)."""
    from ..tiles import boardmap

    pages = boardmap.map_split(content, boardmap.layout(players, seed, content.game), paper)
    names = [w["name"] for w in pages["windows"]]
    return {"pages": len(names), "cols": pages["cols"], "rows": pages["rows"],
            "first": names[0], "last": names[-1], "overlap": pages["overlap"],
            "landscape": pages["landscape"]}


def _pages(papers, count) -> dict[str, int]:
    return {p: count(p) for p in papers}


def _items(content, cards, papers, board: tuple[int, int], words) -> list[dict]:
    from ..tiles import tiles, tokens

    players_max = int(content.game["players"]["max"])
    bp, seed = board
    items = [
        {"file": "print/cards-{paper}.pdf", "what": words.html("Every card of the game"),
         "pages": _pages(papers, lambda p: card_pages(content, cards, p)), "copies": 1,
         "sides": _card_sides(papers),
         "stock": "Card stock"},
        {"file": "print/player-aid-{paper}.pdf", "what": words.html("Player aid"),
         "pages": _pages(papers, lambda p: AID_PAGES), "copies": players_max,
         "sides": LONG_EDGE, "stock": "Card stock or paper"},
        {"file": "print/tiles-{paper}.pdf", "what": words.html("[hex:pl] (tiles)"),
         "pages": _pages(papers, lambda p: tiles.sheet_count(content, p)), "copies": 1,
         "sides": ONE_SIDE, "stock": "Card stock"},
        {"file": "print/tokens-{paper}.pdf", "what": words.html("Tokens and tracks"),
         "pages": _pages(papers, lambda p: tokens.sheet_count(content, p, cards)),
         "copies": 1, "sides": ONE_SIDE, "stock": "Card stock"},
        {"file": f"board/board-{bp}-{seed}-map-{{paper}}.pdf",
         "what": words.html(f"Real-size map for {bp} players"),
         "pages": _pages(papers, lambda p: map_pages(content, bp, p, seed)["pages"]), "copies": 1,
         "sides": ONE_SIDE, "stock": "Paper"},
        {"file": "rulebook-{paper}.pdf", "what": words.html("This rulebook"),
         "pages": {}, "copies": 1, "sides": LONG_EDGE, "stock": "Paper"},
    ]
    for item in items:
        item["files"] = [item["file"].format(paper=p) for p in papers]
    return items


def with_book_pages(guide: dict, pages: dict[str, int]) -> dict:
    """The guide with the rulebook's own page counts (paper -> pages) in its list of files,
    which only the book's layout knows: the print guide and the guide in every paper's book
    (the book's pages are the same on every paper, so is its guide; a paper not built prints
    a dash)."""
    return dict(guide, prints=[dict(it, pages=pages) if it["file"].startswith("rulebook")
                               else it for it in guide["prints"]])


def _decks(components: dict) -> list[dict]:
    return [{"name": d["name"], "count": d["count"],
             "note": f"{d['sets']} sets of {d['count'] // max(1, d['sets'])}, one per player"
             if d["per_player"] else ""} for d in components["decks"]]


def guide(content, cards: list[dict], words, components: dict, papers=("a4", "letter"),
          board: tuple[int, int] = (4, 1)) -> dict:
    """Everything the print-and-assemble page shows (numbers from content and pagination)."""
    from ..geometry import CARD_H, CARD_W
    from ..tiles import tokens

    game = content.game
    players = game["players"]
    papers = tuple(papers)
    return {
        "papers": [{"id": p, "name": PAPER_NAMES[p]} for p in papers],
        "players": {"min": players["min"], "max": players["max"]},
        "prints": _items(content, cards, papers, board, words),
        "decks": _decks(components),
        "card_total": components["totals"]["cards"],
        "markers": components["totals"].get("markers", 0),
        "card_mm": (CARD_W, CARD_H),
        "card_sheets": card_sheets(papers),
        "tile_mm": components["tile_mm"],
        "tiles": components["totals"]["tiles"],
        "tokens": components["totals"]["tokens"],
        "token_gutter": tokens.GUTTER_MM,
        "map": {p: map_pages(content, board[0], p, board[1]) for p in papers},
        "board": {"players": board[0], "seed": board[1]},
        "scale": {"square": SCALE_SQUARE_MM, "ruler": RULER_MM,
                  "ticks": list(range(RULER_MM + 1))},
    }


RULER_PAD_MM = 3.0      # each side of the ruler line: room for half its widest label ("10")


def ruler_svg(scale: dict) -> Markup:
    """A ruler line of scale['ruler'] mm with a tick every mm (longer every 5 and 10); its
    labels (cm) stand inside the drawing, the last one too (it was clipped at the edge)."""
    length, pad = scale["ruler"], RULER_PAD_MM
    ticks = []
    for mm in scale["ticks"]:
        h = 4.0 if mm % 10 == 0 else 2.6 if mm % 5 == 0 else 1.5
        ticks.append(f'<line x1="{mm + pad:g}" y1="1" x2="{mm + pad:g}" y2="{1 + h}"/>')
    labels = "".join(f'<text x="{mm + pad:g}" y="8.4">{mm // 10}</text>'
                     for mm in scale["ticks"] if mm % 10 == 0)
    width = length + 2 * pad
    return Markup(
        f'<svg class="rb-ruler" xmlns="http://www.w3.org/2000/svg" width="{width:g}mm" '
        f'height="10mm" viewBox="0 0 {width:g} 10">'
        f'<g stroke="#000" stroke-width="0.2"><line x1="{pad:g}" y1="1" '
        f'x2="{length + pad:g}" y2="1"/>'
        f'{"".join(ticks)}</g><g font-size="2.6" text-anchor="middle" '
        f'font-family="Tether Sans" fill="#000">{labels}</g></svg>')
