"""Templates: card and back contexts -> one HTML document (one page per face or back)."""

from __future__ import annotations

from pathlib import Path

import jinja2
from markupsafe import Markup

from ..errors import TetherError

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
DECK_ICONS = {"starter": "capital", "market": "market", "power": "power"}


class Pages:
    """Renders faces and backs with the Jinja2 templates under `templates/`."""

    def __init__(self, renderer, templates: Path = TEMPLATES):
        self.renderer = renderer
        self.templates = Path(templates)
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(self.templates)),
            autoescape=True, undefined=jinja2.StrictUndefined,
            trim_blocks=False, lstrip_blocks=False)
        self.env.globals["icon"] = lambda name, cls="icon": Markup(
            renderer.icon_html(name, cls))

    def _template(self, *names: str) -> jinja2.Template:
        try:
            return self.env.select_template(list(names))
        except jinja2.TemplateNotFound as exc:
            raise TetherError(f"missing template: {exc.message} under {self.templates}") \
                from None

    def face(self, card: dict, copy: int, fit: dict | None = None) -> str:
        """HTML of one face: templates/cards/<type>.html."""
        ctx = self.renderer.card(card, copy, fit)
        ctx["deck_icon"] = (ctx["faction"] or {}).get("emblem") if card["deck_kind"] == \
            "faction" else DECK_ICONS.get(card["deck_kind"], "market")
        ctx["deck_icon"] = ctx["deck_icon"] or "champion"
        return self._template(f"cards/{card['type']}.html").render(c=ctx)

    def back(self, deck: str) -> str:
        """HTML of a deck's back: templates/backs/<back id>.html or backs/back.html."""
        ctx = self.renderer.back(deck)
        return self._template(f"backs/{ctx['back']}.html", "backs/back.html").render(b=ctx)

    def document(self, sections: list[str]) -> str:
        """A complete HTML document: one section per page."""
        body = Markup("\n".join(sections))
        return self._template("cards/document.html").render(
            title=self.renderer.title, body=body)

    @property
    def base_url(self) -> str:
        """Where relative URLs in the templates (fonts, icons, CSS) resolve."""
        return self.templates.as_uri() + "/"
