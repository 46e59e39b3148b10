"""Templates: card and back contexts -> one HTML document (one page per face or back)."""

from __future__ import annotations

import os
from pathlib import Path

import jinja2
from markupsafe import Markup

from ..errors import TetherError
from .cards.context import MARKER

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
FACE_TEMPLATES = ("cards", "backs", "fonts", "icons")   # what a face or back may load
DECK_ICONS = {"starter": "capital", "market": "market", "power": "power"}


class Pages:
    """Renders faces and backs with the Jinja2 templates under `templates/`."""

    def __init__(self, renderer, templates: Path = TEMPLATES, modes: tuple[str, ...] = (),
                 cache=None):
        from .modes import GRAYSCALE, INK_SAVER, INK_SAVER_CSS, normalize
        from .templatecode import bytecode_cache

        self.renderer = renderer
        self.templates = Path(templates)
        from ..content.paths_guard import allow_reads

        allow_reads(self.templates)   # the pages' own templates (a copy, in tests)
        self.modes = normalize(modes)   # print modes (print/modes.py)
        self.grayscale = GRAYSCALE in self.modes
        self.extra_css = [INK_SAVER_CSS] if INK_SAVER in self.modes else []
        self.env = jinja2.Environment(
            loader=jinja2.FileSystemLoader(str(self.templates)),
            autoescape=True, undefined=jinja2.StrictUndefined,
            trim_blocks=False, lstrip_blocks=False, bytecode_cache=bytecode_cache(cache))
        self.env.globals["icon"] = lambda name, cls="icon": Markup(
            renderer.icon_html(name, cls))
        self._salt: str | None = None

    def _template(self, *names: str) -> jinja2.Template:
        try:
            return self.env.select_template(list(names))
        except jinja2.TemplateNotFound as exc:
            raise TetherError(f"missing template: {exc.message} under {self.templates}") \
                from None

    def face_context(self, card: dict, copy: int, fit: dict | None = None) -> dict:
        """The template context of one face (what face() shows)."""
        ctx = self.renderer.card(card, copy, fit)
        ctx["deck_icon"] = (ctx["faction"] or {}).get("emblem") if card["deck_kind"] == \
            "faction" else DECK_ICONS.get(card["deck_kind"], "market")
        ctx["deck_icon"] = ctx["deck_icon"] or "champion"
        return ctx

    def face(self, card: dict, copy: int, fit: dict | None = None) -> str:
        """HTML of one face: templates/cards/<type>.html."""
        ctx = self.face_context(card, copy, fit)
        return self._template(f"cards/{card['type']}.html").render(c=ctx)

    def back(self, deck: str) -> str:
        """HTML of a deck's back: templates/backs/<back id>.html or backs/back.html; for
        `marker:<deck>`, the pile marker of that deck (backs/marker.html)."""
        if deck.startswith(MARKER):
            ctx = self.renderer.marker(deck.removeprefix(MARKER))
            return self._template("backs/marker.html").render(m=ctx)
        ctx = self.renderer.back(deck)
        return self._template(f"backs/{ctx['back']}.html", "backs/back.html").render(b=ctx)

    # ---- cache keys (print/cache.py): everything that affects a face's PDF bytes ----------
    def salt(self) -> str:
        """What every face shares: templates, CSS, fonts, icons, layout code and libraries,
        the document wrapper (title) and the glossary the icon helper reads."""
        if self._salt is None:
            from . import cache

            self._salt = cache.digest(
                "faces/1", list(self.modes), cache.files_digest(self.templates, FACE_TEMPLATES),
                cache.code_digest("print/*.py", "print/cards/*.py", "print/cards/*.jpg", "print/layout/*.py", "print/pdfparts/*.py", "print/tts/*.py"), cache.versions(*cache.LAYOUT_PACKAGES),
                self.base_url, os.environ.get("SOURCE_DATE_EPOCH", "0"),
                self.document([]), self.renderer.terms, self.renderer.icons)
        return self._salt

    def face_key(self, card: dict) -> str:
        """Cache key of every copy of a card, fitted: its template and contexts. The HTML is
        not rendered for the key: it comes from those alone, with the template files, the
        icons and the Jinja2 version in the salt (rendering it was about half the key's
        time, on every card of every build)."""
        from .cache import digest

        contexts = [self.face_context(card, n) for n in range(1, card["copies"] + 1)]
        return digest(self.salt(), self._template(f"cards/{card['type']}.html").name,
                      contexts)

    def back_key(self, deck: str) -> str:
        """Cache key of a deck's back."""
        from .cache import digest

        ctx = self.renderer.marker(deck.removeprefix(MARKER)) if deck.startswith(MARKER) \
            else self.renderer.back(deck)
        return digest(self.salt(), "back", ctx, self.back(deck))

    def document(self, sections: list[str]) -> str:
        """A complete HTML document: one section per page."""
        body = Markup("\n".join(sections))
        return self._template("cards/document.html").render(
            title=self.renderer.title, body=body, extra_css=self.extra_css)

    @property
    def base_url(self) -> str:
        """Where relative URLs in the templates (fonts, icons, CSS) resolve."""
        return self.templates.as_uri() + "/"
