"""Text on the faces: glossary renames reach every face, designer text prints as typed,
long text shrinks within bounds or fails naming the card. Read by text extraction."""

from __future__ import annotations

import re
from pathlib import Path

import pypdfium2 as pdfium
import pytest
from cardtest_helpers import RENAMED, copy_content
from click.testing import CliRunner

ROOT = Path(__file__).resolve().parents[2]


def face_texts(face_pdfs) -> dict[str, str]:
    """Extracted text of every face and back page, by page key."""
    out = {}
    for pdf, keys in face_pdfs:
        doc = pdfium.PdfDocument(pdf)
        for i, key in enumerate(keys):
            textpage = doc[i].get_textpage()
            out[key] = textpage.get_text_range()
            textpage.close()
        doc.close()
    return out


def _flat(text: str) -> str:
    # pdfium reports a hyphen that ends a line as U+FFFE; hair spaces are layout only
    text = text.replace("\ufffe", "-").replace("\u200a", "")
    return re.sub(r"\s+", " ", text).strip()


def _uses(card: dict, term: str) -> bool:
    sources = [card["text_source"] or ""] + [t["text_source"] for t in card["triggers"]]
    sources += [a["text_source"] for a in (card["champion"] or {}).get("abilities", [])]
    return any(re.search(rf"\[{term}(:pl|:adj)?\]", s) for s in sources)


def test_renamed_term_reaches_every_face(full_build):
    from tether_build.content.cards import normalized_cards
    from tether_build.content.validate import validate

    cards = normalized_cards(validate(full_build["content"]))
    texts = face_texts(full_build["result"].face_pdfs)
    using = [c for c in cards if _uses(c, "force")]
    assert len(using) > 20
    for card in using:
        for n in range(1, card["copies"] + 1):
            text = _flat(texts[f"{card['id']}-{n}"])
            assert RENAMED["singular"] in text, f"{card['id']}-{n}: {text}"
            assert "Cohort" not in text, f"{card['id']}-{n} still says Cohort"
    assert not any("Cohort" in t for t in texts.values())
    # and the sheets carry the same faces: count the new name on the A4 fronts
    sheet = pdfium.PdfDocument(full_build["out"] / "print" / "cards-a4.pdf")
    on_sheets = 0
    for i in range(0, len(sheet), 2):
        textpage = sheet[i].get_textpage()
        on_sheets += _flat(textpage.get_text_range()).count(RENAMED["singular"])
        textpage.close()
    sheet.close()
    assert on_sheets == sum(_flat(t).count(RENAMED["singular"]) for t in texts.values())


def test_every_face_shows_version_copy_and_glossary_words(full_build):
    from tether_build.content.validate import validate

    content = validate(full_build["content"])
    texts = face_texts(full_build["result"].face_pdfs)
    version = f"v{content.game['version']}"
    entropy = content.terms["burn"]["singular"]
    for key, text in texts.items():
        if key.startswith("back:marker:"):   # pile markers: test_card_sheets.py
            continue
        if key.startswith("back:"):
            assert content.game["title"] in _flat(text)
            continue
        n = key.rsplit("-", 1)[1]
        flat = _flat(text)
        assert version in flat and f"{n}/" in flat, key
    assert entropy in _flat(texts["command_surge-1"])          # the Entropy marker


def test_every_face_prints_its_whole_text(full_build):
    """Nothing clipped or lost: each rules text, ability and trigger is on the face."""
    from tether_build.content.cards import normalized_cards
    from tether_build.content.text import ICON_TOKEN, render_plain
    from tether_build.content.validate import validate

    content = validate(full_build["content"])
    texts = {k: _flat(v) for k, v in face_texts(full_build["result"].face_pdfs).items()}
    for card in normalized_cards(content):
        parts = [card["text_source"]] if card["type"] != "champion" else []
        parts += [a["text_source"] for a in (card["champion"] or {}).get("abilities", [])]
        parts += [t["text_source"] for t in card["triggers"]]
        for n in range(1, card["copies"] + 1):
            face = texts[f"{card['id']}-{n}"]
            assert _flat(render_plain(card["name"], content.terms, content.icons)) in face
            for part in filter(None, parts):   # icons print as pictures, not words
                words = render_plain(ICON_TOKEN.sub("", part), content.terms, content.icons)
                assert _flat(words) in face, f"{card['id']}-{n}: {words!r} not in {face!r}"


def test_designer_text_prints_as_typed(tmp_path):
    from tether_build.commands.printing import build_print
    from tether_build.print.cards.build import PrintOptions

    content_dir = copy_content(tmp_path)
    path = content_dir / "cards" / "starter.yaml"
    typed = "Gain +2 {gold}. <b>bold</b> {{ x }} {% if x %}yes{% endif %} &amp; a < b > c"
    source = path.read_text(encoding="utf-8")
    source = source.replace('text: "Gain +2 {gold}."', f"text: '{typed}'", 1)
    source = source.replace("name: Supply Cache", "name: \"<i>Supply</i> {{ Cache }}\"", 1)
    path.write_text(source, encoding="utf-8")
    result = build_print(content_dir, tmp_path / "build", PrintOptions(
        cards=["supply_cache"], papers=("a4",), png=None, tts=False))
    text = _flat(face_texts(result.face_pdfs)["supply_cache-1"])
    assert "<b>bold</b> {{ x }} {% if x %}yes{% endif %} &amp; a < b > c" in text
    assert "<i>Supply</i> {{ Cache }}" in text


def _long_text_content(tmp_path, repeat: int, shrink: bool = True) -> Path:
    """scout_report with its text `repeat` times; `shrink: true` on it unless told not."""
    content_dir = copy_content(tmp_path)
    path = content_dir / "cards" / "starter.yaml"
    base = ("Look at the top 3 cards of your [draw_pile]. Put 1 into your [hand], "
            "discard the rest. ")
    source = path.read_text(encoding="utf-8")
    old = next(line for line in source.splitlines() if "Look at the top 3 cards" in line)
    flag = "    shrink: true\n" if shrink else ""
    path.write_text(source.replace(old, f'{flag}    text: "{(base * repeat).strip()}"'),
                    encoding="utf-8")
    return content_dir


def test_text_that_needs_shrinking_fails_unless_the_card_opts_in(tmp_path):
    """Issue 42: text under its standard size is the designer's choice (`shrink: true`),
    else a build error naming the card, the field and the flag."""
    from tether_build.commands.printing import build_print
    from tether_build.errors import ContentError
    from tether_build.print.cards.build import PrintOptions

    content_dir = _long_text_content(tmp_path, 7, shrink=False)
    with pytest.raises(ContentError) as err:   # two Starter sets: 2 copies laid out, not 6
        build_print(content_dir, tmp_path / "build", PrintOptions(
            cards=["scout_report"], papers=(), png=None, tts=False, players=2))
    message = err.value.format_message()
    assert "scout_report.text" in message and "standard size" in message, message
    assert "shrink: true" in message


def test_long_text_shrinks_within_bounds(tmp_path):
    from tether_build.commands.printing import build_print
    from tether_build.print.cards.build import PrintOptions
    from tether_build.print.cards.fit import TEXT_SIZES

    content_dir = _long_text_content(tmp_path, 7)
    result = build_print(content_dir, tmp_path / "build", PrintOptions(   # two Starter sets
        cards=["scout_report"], papers=("a4",), png=None, tts=False, players=2))
    fit = result.fits["scout_report"]
    assert TEXT_SIZES[-1] <= fit["text_pt"] < TEXT_SIZES[1]
    text = _flat(face_texts(result.face_pdfs)["scout_report-1"])
    assert text.count("Look at the top 3 cards") == 7          # nothing clipped


def test_text_that_cannot_fit_is_a_build_error_naming_the_card(tmp_path):
    from tether_build.cli import main

    content_dir = _long_text_content(tmp_path, 20)
    # two Starter sets, not game.yaml's six: each of the fit's ten attempts lays out every
    # copy of the two cards (4 faces, not 12; the text fails to fit the same way)
    res = CliRunner().invoke(main, ["print-cards", "--content", str(content_dir), "--cards",
                                    "scout_report,zap", "--players", "2",
                                    "--out", str(tmp_path / "build")])
    assert res.exit_code == 1
    assert "scout_report" in res.output and "does not fit" in res.output
    assert "starter.yaml:" in res.output and "zap" not in res.output
    assert not (tmp_path / "build").exists()                  # nothing half-written


def test_size_bounds_match_the_stylesheet():
    """fit.py's text sizes are the ones cards.css sets; none is below 7 pt."""
    from tether_build.print.cards.fit import TEXT_SIZES
    from tether_build.print.html import TEMPLATES

    css = (TEMPLATES / "cards" / "cards.css").read_text(encoding="utf-8")
    base = re.search(r"\.text-flow \{[^}]*font-size: ([\d.]+)pt", css)
    levels = [float(base.group(1))] + [
        float(re.search(rf"\.text-l{i} \.text-flow \{{[^}}]*font-size: ([\d.]+)pt",
                        css).group(1)) for i in range(1, len(TEXT_SIZES))]
    assert levels == TEXT_SIZES
    assert min(TEXT_SIZES) >= 7


def test_no_network_and_only_bundled_fonts():
    from tether_build.print.html import TEMPLATES

    for path in TEMPLATES.joinpath("cards").glob("*"):
        text = path.read_text(encoding="utf-8")
        assert "http://" not in text and "https://" not in text, path
    fonts = TEMPLATES.joinpath("fonts", "fonts.css").read_text(encoding="utf-8")
    for url in re.findall(r"url\(([^)]+)\)", fonts):
        assert (TEMPLATES / "fonts" / url).exists()
    assert (TEMPLATES / "fonts" / "LICENSE-DejaVu.txt").exists()


@pytest.mark.parametrize("term", ["gold", "mana", "hp", "die", "bounty", "vp", "burn"])
def test_icons_exist_for_every_term_icon(term):
    from tether_build.print.html import TEMPLATES

    assert (TEMPLATES / "icons" / f"{term}.svg").exists()


PIPELINE_WORDS = re.compile(
    r"\b(computed|compiled?|compiler|build|built by|generated|pipeline|engine|schema|yaml|"
    r"json|token|glossary|content file|template|render(ed)?|tether_build)\b", re.IGNORECASE)


def test_no_pipeline_words_on_any_face_back_or_marker(full_build):
    """Player text never speaks of the tool ('computed by the build', 'compiled' ...).
    'Build' as the game's own verb (build a Bridge) is allowed where a glossary term says so."""
    from tether_build.content.validate import validate

    content = validate(full_build["content"])
    allowed = {w.lower() for t in content.terms.values()
               for w in re.findall(r"\w+", t["singular"] + " " + t["plural"])}
    texts = face_texts(full_build["result"].face_pdfs)
    assert any(k.startswith("back:marker:") for k in texts)
    for key, text in texts.items():
        for m in PIPELINE_WORDS.finditer(_flat(text)):
            word = m.group(0)
            if word.lower() in allowed:
                continue   # a word of the game's own glossary ("Build Bridge")
            raise AssertionError(f"{key}: pipeline word {word!r} in {_flat(text)!r}")
