"""Context builder: a normalized card (or a deck back) -> the plain dict a template shows.

Every player-facing word comes from content: glossary names via text tokens, keyword names
and reminders from keywords.yaml, deck names from ages.yaml, the version from game.yaml.
Designer text is escaped by `text.render_html`; only its tokens become markup.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from markupsafe import Markup

from ...content import text as textmod
from ...errors import TetherError

ICON_DIR = "icons"
# Keywords that are ability limits print as a label after the ability's name.
LIMIT_KEYWORDS = {"once_per_round"}



def initiative_shown(pair, rule: str | None = None) -> dict:
    """The initiative number the rules use (the engine's `initiative` option, or `rule`:
    first, second, lower or higher of the two printed numbers) and the other one. Both are
    printed, the one in play large."""
    from ...engine.options import Options

    rule = rule or Options().initiative
    a, b = pair
    main = {"first": a, "second": b, "lower": min(a, b), "higher": max(a, b)}[rule]
    other = b if main == a else a
    return {"main": main, "other": other, "rule": rule, "other_label": str(other)}


# The type line's icon per card type (templates/icons/): Orders and Spells are told apart
# by icon and frame, not by colour or italics alone.
TYPE_ICONS = {"order": "types/order", "spell": "types/spell", "champion": "champion",
              "victory": "vp"}

DARK_INK, LIGHT_INK = "#1d1a16", "#ffffff"


def ink_on(colour: str) -> str:
    """The text colour (dark or white) with the higher WCAG contrast on `colour` (#rrggbb):
    a light faction colour gets dark type-line text."""
    def lum(hex_colour: str) -> float:
        rgb = [int(hex_colour.lstrip("#")[i:i + 2], 16) / 255 for i in (0, 2, 4)]
        lin = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in rgb]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    bg = lum(colour)
    dark, light = (bg + 0.05) / (lum(DARK_INK) + 0.05), (lum(LIGHT_INK) + 0.05) / (bg + 0.05)
    return DARK_INK if dark > light else LIGHT_INK


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th ... 11th, 12th, 13th, 21st: the Nth-Champion columns (§20.2)."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


# The art box's pictogram per category (icons under templates/icons/), when a card has no
# `art:` of its own.
CATEGORY_ART = {"movement": "categories/movement", "recruitment": "force", "economy": "gold",
                "deckcraft": "categories/deckcraft", "combat": "battle", "bridges": "bridge",
                "synergy": "categories/synergy", "victory": "vp", "champion": "champion",
                "power": "power"}

PLAYER_BACK = "player"
MARKER = "marker:"   # id prefix of a pile marker among the backs: marker:<deck id>
# Pile markers: the draw piles that need one (every card a player gains has one back), the
# glossary term that names the pile's kind, and its icon.
MARKER_TERMS = {"market": "market", "power": "power_deck"}
MARKER_ICONS = {"market": "market", "power": "power"}  # ages.yaml decks.<id>.back: the one back of every player-deck card

class Renderer:
    """Turns content into template contexts; holds the glossary and icon lookups."""

    def __init__(self, content, templates: Path, initiative: str | None = None):
        self.content = content
        self.initiative = initiative   # the rules option printed large (None: the default)
        self.templates = Path(templates)
        self.terms, self.icons = content.terms, content.icons
        self.keywords = content.keywords
        self.version = str(content.game.get("version", ""))
        self.title = content.game.get("title", "")
        self._stamps: dict[str, str] | None = None
        self._check_art()

    def stamp(self, card: dict) -> str:
        """The version printed on a card's face (content/versions/stamp.py)."""
        if self._stamps is None:
            # a stage's view of the content (build.cards_view) holds them, worked out from
            # the content folder's git state before the stage ran
            self._stamps = getattr(self.content, "card_stamps", None)
        if self._stamps is None:
            from ...content.cards import normalized_cards
            from ...content.versions.stamp import stamps

            self._stamps = stamps(Path(self.content.root), self.version,
                                  normalized_cards(self.content))
        return self._stamps.get(card["id"], f"v{self.version}")

    # ---- text -------------------------------------------------------------------------
    def icon_html(self, icon: str, cls: str = "icon") -> str:
        """An inline icon; its alt text is the glossary name of the icon's term."""
        alt = self.plain(f"{{{icon}}}") if icon in self.icons else icon
        return (f'<img class="{cls}" src="{ICON_DIR}/{html.escape(icon)}.svg" '
                f'alt="{html.escape(alt)}">')

    def html(self, source: str) -> Markup:
        """Designer text (with tokens) as safe HTML."""
        return Markup(textmod.render_html(source, self.terms, self.icons, self.icon_html))

    def plain(self, source: str) -> str:
        """Designer text (with tokens) as plain text."""
        return textmod.render_plain(source, self.terms, self.icons)

    def term(self, tid: str, form: str | None = None) -> str:
        """The current glossary name of a term."""
        return textmod.term_form(self.terms[tid], form)

    def keyword_name(self, kid: str) -> str:
        """A keyword's printed name (from the glossary when the keyword is a term)."""
        kw = self.keywords[kid]
        return self.term(kw["term"]) if kw.get("term") else self.plain(kw["name"])

    # ---- checks -------------------------------------------------------------------------
    def _check_art(self) -> None:
        missing = [f"templates/{ICON_DIR}/{i}.svg (icon {i!r} in terms.yaml)"
                   for i in self.icons if not self._icon_file(i).exists()]
        for fid, faction in self.content.factions.items():
            emblem = faction.get("emblem")
            if emblem and not self._icon_file(emblem).exists():
                missing.append(f"templates/{ICON_DIR}/{emblem}.svg "
                               f"(emblem of faction {fid!r})")
        if missing:
            raise TetherError("missing card art: " + "; ".join(missing)
                              + " (draw the SVG or fix the id)")

    def _icon_file(self, icon: str) -> Path:
        return self.templates / ICON_DIR / f"{icon}.svg"

    # ---- cards --------------------------------------------------------------------------
    def category(self, cid: str) -> str:
        """Category label: the glossary term of that id if there is one, else the id."""
        if cid in self.terms:
            return self.term(cid)
        return cid.replace("_", " ").title()

    def faction(self, fid: str | None) -> dict | None:
        if fid is None:
            return None
        faction = self.content.factions[fid]
        return {"id": fid, "name": self.html(faction["name"]), "colour": faction["colour"],
                "ink": ink_on(faction["colour"]), "emblem": faction.get("emblem")}

    def _mentioned_keywords(self, card: dict, own: set[str]) -> list[str]:
        """Keywords named in a card's text that the card does not define itself."""
        found = []
        for kid, kw in self.keywords.items():
            if kid in own or kid in LIMIT_KEYWORDS or kw.get("term"):
                continue
            name = self.keyword_name(kid)
            if re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", card["text"]):
                found.append(kid)
        return found

    def _ability(self, ability: dict) -> dict:
        kid = ability.get("keyword")
        reminder = None
        if kid and kid in self.keywords and self.keyword_name(kid) != ability["name"]:
            reminder = self.html(self.keywords[kid]["reminder"])
        limit = ability.get("limit", "unlimited")
        return {
            "name": self.html(ability["name"]),
            "limit": self.keyword_name(limit) if limit in self.keywords else None,
            "text": self.html(ability["text_source"]),
            "keyword": self.keyword_name(kid) if kid and reminder is not None else None,
            "reminder": reminder,
        }

    def card(self, card: dict, copy: int, fit: dict | None = None) -> dict:
        """The template context of one face (copy `copy` of `card['copies']`)."""
        fit = fit or {}
        abilities = [self._ability(a) for a in (card["champion"] or {}).get("abilities", [])]
        triggers = [self._ability(t) for t in card["triggers"]]
        named = (card["champion"] or {}).get("abilities", []) + card["triggers"]
        # an ability named like a keyword is that keyword's definition: no reminder for it
        own = {a.get("keyword") for a in named} | {
            kid for kid in self.keywords for a in named
            if self.keyword_name(kid) == self.plain(a["name"])}
        mentioned = [{"name": self.keyword_name(k),
                      "reminder": self.html(self.keywords[k]["reminder"])}
                     for k in self._mentioned_keywords(card, own)]
        burn = None
        if card["burn"]:
            kw = next((k for k, v in self.keywords.items() if v.get("term") == "burn"), None)
            burn = {"name": self.term("burn"), "icon": Markup(self.icon_html("burn", "icon")),
                    "reminder": self.html(self.keywords[kw]["reminder"]) if kw else None}
        champion = None
        if card["champion"]:
            ch = card["champion"]
            champion = {"hp": ch["hp"], "dice": ch["dice"], "hit": ch["hit"],
                        "bounty": ch["bounty"],
                        "gold": [{"nth": ordinal(n), "gold": g}
                                 for n, g in enumerate(ch["gold"], 1)]}
        deck = self.content.ages["decks"][card["deck"]]
        return {
            "id": card["id"], "face": f"{card['id']}-{copy}",
            "name": self.html(card["name"]),
            "type": card["type"], "type_name": card["type_name"],
            "category": None if card["category"] == card["type"]
            else self.category(card["category"]),
            "deck": card["deck"], "deck_kind": card["deck_kind"],
            "deck_name": self.html(deck["name"]), "age": card["age"],
            "faction": self.faction(card["faction"]),
            "mana": card["mana"], "gold": card["gold"],
            "initiative": card["initiative"],
            "init": initiative_shown(card["initiative"], self.initiative),
            "type_icon": TYPE_ICONS.get(card["type"], "types/order"),
            "flavor": self.html(card["flavor"]) if card.get("flavor") else None,
            "shrink": bool(card.get("shrink")),   # fit.py: may shrink (and the cache key)
            "text": self.html(card["text_source"]) if card["text_source"] and
            card["type"] != "champion" else None,
            "abilities": abilities, "triggers": triggers, "mentioned": mentioned,
            "burn": burn, "champion": champion,
            "vp": {"amount": card["vp"], "name": self.term("vp")} if card["vp"] else None,
            "art": card.get("art"), "pictogram": CATEGORY_ART[card["category"]],
            "copy_n": copy, "copies": card["copies"], "version": self.stamp(card),
            # fit.py's faces of a card's copies: the number kept at its widest ("N/N") but
            # blank, on the face laid out once; the number alone, on the copy's own page
            "copy_shown": card["copies"] if fit.get("blank") else copy,
            "copy_blank": bool(fit.get("blank")), "copy_only": bool(fit.get("copy_only")),
            "labels": {k: self.term(k) for k in ("mana", "gold", "initiative", "hp", "die",
                                                  "bounty", "champion")},
            "name_level": fit.get("name", 0), "text_level": fit.get("text", 0),
            "reminders": fit.get("reminders", True), "show_art": not fit.get("no_art"),
            # fit.py's first layout: the body as blocks (cards.css .fixed-art)
            "art_fixed": bool(fit.get("block")),
        }

    def back(self, deck_id: str) -> dict:
        """The template context of a deck's back. By default (`back: player`) every deck
        gets the same back, as every card can end up in a player's draw pile (§15.3) and a
        back must not tell where the top card came from; the deck shows on the front."""
        deck = self.content.ages["decks"][deck_id]
        emblems = [f["emblem"] for f in self.content.factions.values() if f.get("emblem")]
        if deck.get("back", PLAYER_BACK) == PLAYER_BACK:
            return {"deck": PLAYER_BACK, "kind": PLAYER_BACK, "name": "", "age": None,
                    "title": self.title, "icon": None, "emblems": emblems,
                    "back": PLAYER_BACK}
        icon = {"starter": "capital", "faction": None, "market": "market",
                "power": "power"}[deck["kind"]]
        return {"deck": deck_id, "kind": deck["kind"], "name": self.html(deck["name"]),
                "age": deck.get("age"), "title": self.title, "icon": icon,
                "emblems": emblems if deck["kind"] == "faction" else [],
                "back": deck.get("back", deck_id)}

    def marker(self, deck_id: str) -> dict:
        """The template context of a draw pile's marker card (Archive and Power decks): the
        pile's kind, Age, name, the Age's name and Rounds, and ages.yaml pile_marker.text."""
        deck = self.content.ages["decks"][deck_id]
        age = next((a for a in self.content.ages["ages"].values()
                    if deck_id in (a.get("market_deck"), a.get("power_deck"))), None)
        rounds = (age or {}).get("rounds") or []
        span = (f"{rounds[0]}" if len(rounds) == 1 else f"{rounds[0]}–{rounds[-1]}") \
            if rounds else ""
        text = (self.content.ages.get("pile_marker") or {}).get("text")
        return {"deck": deck_id, "kind": deck["kind"], "name": self.html(deck["name"]),
                "kind_name": self.term(MARKER_TERMS[deck["kind"]]),
                "icon": MARKER_ICONS[deck["kind"]], "age": deck.get("age") or "",
                "age_name": self.html(age["name"]) if age else None,
                "rounds": f"{self.term('round', 'pl' if len(rounds) > 1 else None)} {span}"
                if rounds else None,
                "text": self.html(text) if text else None, "back": "marker"}
