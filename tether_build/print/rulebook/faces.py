"""Card faces inside the rulebook, drawn by the card helper (templates/cards, render/).

The faces are the print faces themselves: same HTML, same CSS, same shrink-to-fit levels.
`fit()` runs the card helper's fitting (`render.fit.render_faces`), which lays out every face
once and keeps the PDF pages; the book leaves an empty slot of the right size for each face
(`data-card-slot`) and `stamp.py` draws the face page into it. The HTML preview inlines the
face HTML instead, scaled with a CSS transform and cropped to the trim.
"""

from __future__ import annotations

from markupsafe import Markup, escape

from ...content.cards import normalized_cards
from ..geometry import ART_BLEED, CARD_H, CARD_W

WORKERS = 2  # fitting lays out every face once, in two processes (render.fit)


class Faces:
    """Every card of the content, ready to place as a scaled face."""

    def __init__(self, content, cache=None):
        from ..cards.context import Renderer
        from ..html import TEMPLATES, Pages

        self.content = content
        self.cards = normalized_cards(content)
        self.by_id = {c["id"]: c for c in self.cards}
        self.pages = Pages(Renderer(content, TEMPLATES), cache=cache)
        self.base_url = self.pages.base_url
        self.fits: dict[str, dict] = {}
        self.parts: list[tuple[bytes, list[str]]] = []  # face PDFs, page keys "<card>-1"
        self.forms: dict[str, bytes] = {}  # page key -> fragment the layout workers read
        self.cache = cache  # render.cache.Cache of laid-out faces, or None

    def fit(self, only: list[str] | None = None) -> None:
        """Fit every face (or the cards `only` names) as on the printed cards and keep its
        laid-out PDF page (those of this call only). Faces the card stage laid out come from
        the render cache."""
        from ..cards.fit import TEXT_SIZES, render_faces

        cards = [c for c in self.cards if only is None or c["id"] in only]
        done = render_faces(self.pages, [dict(c, copies=1) for c in cards], [],
                            workers=WORKERS if only is None else 1, cache=self.cache)
        self.fits.update({cid: {"name": f["name_level"], "text": TEXT_SIZES.index(f["text_pt"]),
                                "reminders": f["reminders"], "no_art": not f.get("art", True)}
                          for cid, f in done.fits.items()})
        self.parts, self.forms = done.parts, done.forms

    def fragments(self) -> dict:
        """card id -> its face page as a pdfasm.Fragment, ready to stamp (cached)."""
        from ..pdfparts.pdfasm import fragments

        return {key.rsplit("-", 1)[0]: frag
                for key, frag in fragments(self.parts, self.cache, self.forms).items()}

    def face(self, cid: str, scale: float, inline: bool = True) -> Markup:
        """One face cropped to its trim and scaled: inline HTML, or an empty slot for stamping."""
        w, h, b = CARD_W * scale, CARD_H * scale, ART_BLEED * scale
        size = f"width:{w:.2f}mm;height:{h:.2f}mm"
        if not inline:
            return Markup(f'<div class="rb-card" data-card-slot="{escape(cid)}" '
                          f'style="{size}"></div>')
        inner = self.pages.face(self.by_id[cid], 1, self.fits.get(cid, {}))
        return Markup(f'<div class="rb-card" style="{size}">'
                      f'<div class="rb-card-art" style="left:{-b:.3f}mm;top:{-b:.3f}mm;'
                      f'transform:scale({scale})">{inner}</div></div>')

    def decks(self) -> list[dict]:
        """Cards grouped by deck, in the order of ages.yaml decks."""
        out = []
        for deck_id, deck in self.content.ages["decks"].items():
            cards = [c for c in self.cards if c["deck"] == deck_id]
            if cards:
                out.append({"id": deck_id, "name_source": deck["name"], "cards": cards,
                            "copies": sum(c["copies"] for c in cards)})
        return out
