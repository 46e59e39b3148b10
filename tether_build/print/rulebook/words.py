"""Glossary words for the rulebook: token text -> safe HTML or plain text, current names."""

from __future__ import annotations

import html

from markupsafe import Markup

from ...content import text as textmod


class Words:
    """Renders designer text with tokens (`[force:pl]`, `{gold}`) using the glossary."""

    def __init__(self, content):
        self.content = content
        self.terms, self.icons = content.terms, content.icons

    def icon_html(self, icon: str) -> str:
        """An inline icon; its alt text is the glossary name of the icon's term."""
        alt = self.plain(f"{{{icon}}}") if icon in self.icons else icon
        return (f'<img class="icon" src="icons/{html.escape(icon)}.svg" '
                f'alt="{html.escape(alt)}">')

    def icon_word(self, icon: str) -> str:
        """An icon followed by its term's name: how prose shows `{gold}`."""
        name = self.plain(f"{{{icon}}}") if icon in self.icons else icon
        return (f'<span class="term icon-word">{self.icon_html(icon)}'
                f"{html.escape(name)}</span>")

    def html(self, source: str, icons_only: bool = False) -> Markup:
        """Token text as escaped HTML: term spans, and icons with their names (or alone)."""
        icon = self.icon_html if icons_only else self.icon_word
        return Markup(textmod.render_html(source, self.terms, self.icons, icon))

    def plain(self, source: str) -> str:
        """Token text as plain text with current glossary names."""
        return textmod.render_plain(source, self.terms, self.icons)

    def term(self, tid: str, form: str | None = None) -> str:
        """The current name of a term ('pl' or 'adj' for the other forms)."""
        return textmod.term_form(self.terms[tid], form)
