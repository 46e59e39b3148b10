"""The render cache behind `tether build` (issue 8) never serves stale bytes.

After a card edit, the incremental build's outputs equal a clean build's into a fresh folder,
byte for byte; a template change misses the cache; a failed build leaves the outputs as they
were (cache entries may stay: they are content-addressed); the tiles stage ignores card text.
The builds use a cut-down copy of the content (one card per age deck) and A4 only.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from tether_cli import run_cli

ROOT = Path(__file__).resolve().parent.parent
EDIT = ("Gain +2 {gold}.", "Gain +2 {gold} now.")   # supply_cache, in the starter deck


def _build(content: Path, out: Path, *stages: str) -> dict:
    only = [arg for stage in stages for arg in ("--only", stage)]
    result = run_cli("build", "--content", str(content), "--out", str(out), "--paper", "a4",
                     "--json", *only)
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def _edit_card(content: Path) -> None:
    path = content / "cards" / "starter.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace(*EDIT), encoding="utf-8")


def _outputs(out: Path) -> dict[str, bytes]:
    """The user-facing files (no cache, no manifest); TTS decks name their folder: neutral."""
    files = {}
    for path in sorted(out.rglob("*")):
        rel = path.relative_to(out).as_posix()
        if path.is_file() and not rel.startswith(".cache/") and rel != ".tether-build.json":
            data = path.read_bytes()
            if rel.startswith("tts/") and rel.endswith(".json"):
                data = data.replace((out / "tts").resolve().as_uri().encode(), b"<out>/tts")
            files[rel] = data
    return files


def _snapshot(out: Path) -> dict:
    return {p.relative_to(out).as_posix(): (p.read_bytes(), p.stat().st_mtime_ns)
            for p in sorted(out.rglob("*"))
            if p.is_file() and not p.relative_to(out).as_posix().startswith(".cache/")}


def test_card_edit_rebuilds_like_a_clean_build_cards(small_cards_copy, tmp_path):
    small_content, out = small_cards_copy   # built: `--only cards`
    _edit_card(small_content)
    written = set(_build(small_content, out, "cards")["written"])
    assert {"print/cards-a4.pdf", "png/starter/supply_cache-1.png", "tts/starter.png",
            "tts/starter.json"} <= written
    assert not any(w.startswith("png/") and "supply_cache" not in w for w in written)
    fresh = tmp_path / "fresh"
    _build(small_content, fresh, "cards")
    assert _outputs(out) == _outputs(fresh)


def test_card_edit_rebuilds_like_a_clean_build_rulebook(small_content, tmp_path):
    out = tmp_path / "build"
    _build(small_content, out, "rulebook")
    layouts = sorted((out / ".cache" / "book").iterdir())
    refs = sorted((out / ".cache" / "bookref").iterdir())
    _edit_card(small_content)
    assert "rulebook-a4.pdf" in _build(small_content, out, "rulebook")["written"]
    # card text is in the card reference alone, laid out as one document a deck: only the
    # edited card's deck is laid out again (one new entry of several); the book's own layout
    # is reused and the new reference stamped into it
    assert sorted((out / ".cache" / "book").iterdir()) == layouts
    after = sorted((out / ".cache" / "bookref").iterdir())
    assert len(refs) >= 3 and set(refs) < set(after) and len(after) == len(refs) + 1
    fresh = tmp_path / "fresh"
    _build(small_content, fresh, "rulebook")
    assert _outputs(out) == _outputs(fresh)


def test_failed_build_keeps_outputs_cache_entries_may_stay(small_cards_copy, monkeypatch):
    from tether_build.commands import build

    small_content, out = small_cards_copy   # built: `--only cards`
    before, faces = _snapshot(out), set((out / ".cache" / "faces").iterdir())
    _edit_card(small_content)

    def crash(ctx):
        raise KeyboardInterrupt  # Ctrl-C in the stage after the cards were rendered

    monkeypatch.setattr(build, "rulebook_stage", crash)
    result = run_cli("build", "--content", str(small_content), "--out", str(out), "--paper",
                     "a4", "--only", "cards", "--only", "rulebook")
    assert result.exit_code == 1
    assert _snapshot(out) == before
    assert set((out / ".cache" / "faces").iterdir()) > faces   # the edited face, cached


def _pages(content, templates: Path):
    from tether_build.print.cards.context import Renderer
    from tether_build.print.html import Pages

    return Pages(Renderer(content, templates), templates)


def test_template_change_misses_the_face_cache(content, tmp_path):
    from tether_build.content.cards import normalized_cards
    from tether_build.print.cache import Cache
    from tether_build.print.cards.fit import render_faces

    templates = tmp_path / "templates"
    for folder in ("cards", "backs", "fonts", "icons"):
        shutil.copytree(ROOT / "templates" / folder, templates / folder)
    card = [c for c in normalized_cards(content) if c["id"] == "supply_cache"]
    cache = Cache(tmp_path / "cache")
    first = render_faces(_pages(content, templates), card, ["starter"], cache=cache)
    assert (cache.hits, cache.misses) == (0, 2)
    again = render_faces(_pages(content, templates), card, ["starter"], cache=cache)
    assert cache.hits == 2 and again.parts == first.parts
    css = templates / "cards" / "cards.css"
    css.write_text(css.read_text(encoding="utf-8") + "\n.rules { color: #123456; }\n",
                   encoding="utf-8")
    changed = render_faces(_pages(content, templates), card, ["starter"], cache=cache)
    assert cache.misses == 4
    assert changed.parts[0][0] != first.parts[0][0]
    uncached = render_faces(_pages(content, templates), card, ["starter"])
    assert changed.parts == uncached.parts


def test_code_digest_is_read_once_a_stage(monkeypatch, tmp_path):
    """Inside one_reading() (a stage) the code's digest is worked out once, as the files it
    reads were when the stage first asked; outside it, every time; the layout mode is in it."""
    from tether_build.print import cache
    from tether_build.print.layout import patches

    reads = []
    real = cache._code_digest
    monkeypatch.setattr(cache, "_code_digest", lambda *a: reads.append(a) or real(*a))
    outside = cache.code_digest("print/raster.py")
    with cache.one_reading():
        assert cache.code_digest("print/raster.py") == outside
        assert cache.code_digest("print/raster.py") == outside
        monkeypatch.setattr(patches, "mode", lambda: "stock")
        assert cache.code_digest("print/raster.py") != outside
    assert len(reads) == 3


def test_a_damaged_cache_entry_is_a_miss(content, tmp_path):
    from tether_build.content.cards import normalized_cards
    from tether_build.print.cache import Cache
    from tether_build.print.cards.fit import render_faces
    from tether_build.print.html import TEMPLATES

    card = [c for c in normalized_cards(content) if c["id"] == "supply_cache"]
    first = render_faces(_pages(content, TEMPLATES), card, [], cache=Cache(tmp_path))
    entry = next((tmp_path / "faces").iterdir())
    whole = entry.read_bytes()
    entry.write_bytes(whole[:-10])   # e.g. a disk that filled up under another tool
    again = render_faces(_pages(content, TEMPLATES), card, [], cache=Cache(tmp_path))
    assert again.parts == first.parts and entry.read_bytes() == whole


def test_template_and_code_change_miss_the_book_layout(monkeypatch, tmp_path):
    from tether_build.print import cache
    from tether_build.print.rulebook import pagebase as book

    templates = tmp_path / "templates"
    for folder in book.BOOK_TEMPLATES:
        shutil.copytree(ROOT / "templates" / folder, templates / folder)
    monkeypatch.setattr(book, "TEMPLATES", templates)
    key = book.layout_key("<p>book</p>", "file:///t/")
    assert key == book.layout_key("<p>book</p>", "file:///t/")
    assert key != book.layout_key("<p>book!</p>", "file:///t/")
    css = templates / "rulebook" / "book.css"
    css.write_text(css.read_text(encoding="utf-8") + "\nh1 { color: red; }\n",
                   encoding="utf-8")
    changed = book.layout_key("<p>book</p>", "file:///t/")
    assert changed != key
    monkeypatch.setattr(cache, "code_digest", lambda *names: "other code")
    assert book.layout_key("<p>book</p>", "file:///t/") != changed


def test_a_stage_reads_the_templates_once_the_next_build_sees_an_edit(monkeypatch, tmp_path):
    """Within one stage the book's template digest is read once (one_reading); an edit made
    meanwhile reaches the next stage render, as in `tether build --watch`."""
    from tether_build.print import cache
    from tether_build.print.rulebook import pagebase as book

    templates = tmp_path / "templates"
    for folder in book.BOOK_TEMPLATES:
        shutil.copytree(ROOT / "templates" / folder, templates / folder)
    monkeypatch.setattr(book, "TEMPLATES", templates)
    css = templates / "rulebook" / "book.css"
    with cache.one_reading():
        key = book.layout_key("<p>book</p>", "file:///t/")
        css.write_text(css.read_text(encoding="utf-8") + "\nh1 { color: red; }\n",
                       encoding="utf-8")
        assert book.layout_key("<p>book</p>", "file:///t/") == key
    with cache.one_reading():
        assert book.layout_key("<p>book</p>", "file:///t/") != key


def test_a_face_pdf_does_not_depend_on_what_shared_its_layout(content):
    """The premise of the per-card cache: a card laid out with others (in a worker's batch,
    shrunk or not) gives the same PDF bytes as that card laid out alone."""
    from tether_build.content.cards import normalized_cards
    from tether_build.print.cards.fit import TEXT_SIZES, render_faces
    from tether_build.print.html import TEMPLATES

    cards = {c["id"]: c for c in normalized_cards(content)}
    sentence = "Look at the top 3 cards of your [draw_pile]. Put 1 into your [hand]."
    long_text = " ".join([sentence] * 10)
    long = dict(cards["scout_report"], text_source=long_text, text=long_text, shrink=True)
    picked = [cards["recruit"], long, cards["zap"]]
    pages = _pages(content, TEMPLATES)
    batch = render_faces(pages, picked, ["starter"])
    assert batch.fits["scout_report"]["text_pt"] < TEXT_SIZES[1]   # it had to shrink
    for card, part in zip(picked, batch.parts):
        assert render_faces(pages, [card], []).parts == [part], card["id"]
    assert render_faces(pages, [], ["starter"]).parts == batch.parts[-1:]


def test_tiles_stage_ignores_card_text_not_champion_hp(content_copy, tmp_path):
    out = tmp_path / "build"
    assert _build(content_copy, out, "tiles")["stages"]["tiles"]["status"] == "built"
    _edit_card(content_copy)
    again = _build(content_copy, out, "tiles")
    assert again["stages"]["tiles"]["status"] == "up to date" and again["written"] == []
    path = content_copy / "cards" / "age1_market.yaml"
    source = path.read_text(encoding="utf-8")
    path.write_text(source.replace("      hp: 4\n", "      hp: 40\n", 1), encoding="utf-8")
    third = _build(content_copy, out, "tiles")
    assert third["stages"]["tiles"]["status"] == "built"
    assert "print/tokens-a4.pdf" in third["written"]   # the HP tracks grew


def test_the_tiles_view_refuses_fields_it_does_not_declare(content):
    from tether_build.commands.build import Context, tiles_cards

    ctx = Context(ROOT / "tests" / "fixtures" / "content", Path("unused"))
    ctx._content = content
    card = tiles_cards(ctx)[0]
    assert card.get("name")
    with pytest.raises(KeyError, match="not in this stage's view"):
        card.get("text")


def test_an_entry_altered_in_place_or_from_an_older_tool_is_never_served(tmp_path):
    """Entries are not synced to disk (they only save time), so each carries the digest of
    its payload: a byte changed at the same length, a cut, or an entry in an older tool's
    format (no mark) is a miss, whatever kind of payload it holds (raw PNG or PDF bytes
    included, which have no header of their own to check)."""
    from tether_build.print.cache import Cache

    cache = Cache(tmp_path)
    cache.put("png", "k", b"\x89PNG payload" * 50)
    entry = tmp_path / "png" / "k.bin"
    whole = entry.read_bytes()
    assert cache.get("png", "k") == b"\x89PNG payload" * 50
    entry.write_bytes(whole[:-1] + bytes([whole[-1] ^ 1]))
    assert cache.get("png", "k") is None
    entry.write_bytes(whole[:100])
    assert cache.get("png", "k") is None
    entry.write_bytes(b"\x89PNG payload" * 50)   # a bare payload, as entries once were
    assert cache.get("png", "k") is None
    assert cache.hits == 1 and cache.misses == 3


def test_prune_drops_least_recently_used_entries(tmp_path):
    import os

    from tether_build.print.cache import Cache, prune

    cache = Cache(tmp_path)
    for n, name in enumerate(("old", "used", "new")):
        cache.put("faces", name, b"x" * 100)
        os.utime(tmp_path / "faces" / f"{name}.bin", ns=(n * 10**9, n * 10**9))
    assert cache.get("faces", "used") is not None   # a hit counts as a recent use
    size = (tmp_path / "faces" / "old.bin").stat().st_size   # the payload and its check
    assert prune(tmp_path, max_bytes=2 * size + size // 2) == 1
    assert sorted(p.stem for p in (tmp_path / "faces").iterdir()) == ["new", "used"]


def test_a_constant_no_card_prints_leaves_the_cards_stage_up_to_date(small_cards_copy):
    """Issue 18.7: the cards stage is keyed on what it reads, not on every content file."""
    small_content, out = small_cards_copy   # built: `--only cards`
    game = small_content / "game.yaml"
    text = game.read_text()
    assert "round_cap: 10" in text
    game.write_text(text.replace("round_cap: 10", "round_cap: 9"))
    again = _build(small_content, out, "cards")
    assert again["stages"]["cards"]["status"] == "up to date" and again["written"] == []
    _edit_card(small_content)
    third = _build(small_content, out, "cards")
    assert third["stages"]["cards"]["status"] == "built" and third["written"]


def test_a_constant_only_the_tokens_print_lays_out_the_tokens_alone(small_content, tmp_path):
    """The tiles stage keeps each page of its tile sheets, and the document of its distinct
    tokens (every paper's sheets draw from the same one) and each paper's head lines, in the
    render cache under their HTML: the round cap (the cells of the Round tracker, the number
    of Bridge pieces, which moves every token after them) lays out the tokens' documents
    again and no tile sheet, and the outputs equal a clean build's."""
    from pypdf import PdfReader

    out = tmp_path / "build"
    _build(small_content, out, "tiles")
    sheets = sorted((out / ".cache" / "sheets").iterdir())
    tile_pages = len(PdfReader(out / "print" / "tiles-a4.pdf").pages)
    # the tile sheets' pages (both papers), the tokens' pieces (one document for both
    # papers) and each paper's heads (tokens.with_heads)
    assert 3 <= len(sheets) <= 3 + 2 * tile_pages
    game = small_content / "game.yaml"
    game.write_text(game.read_text().replace("round_cap: 10", "round_cap: 9"))
    again = _build(small_content, out, "tiles")
    assert again["stages"]["tiles"]["status"] == "built"
    assert "print/tokens-a4.pdf" in again["written"]
    assert not any(w.endswith("tiles-a4.pdf") for w in again["written"])
    after = sorted((out / ".cache" / "sheets").iterdir())
    assert set(sheets) < set(after) and 1 <= len(after) - len(sheets) <= 3   # tokens, heads
    fresh = tmp_path / "fresh"
    _build(small_content, fresh, "tiles")
    assert _outputs(out) == _outputs(fresh)


def test_a_copied_build_folder_writes_its_own_address(small_cards_build, small_cards_copy):
    """The TTS deck files name the build folder's file:// address (no --tts-url): a build
    folder copied elsewhere and built there names the new folder, as a clean build there
    does, not the folder it was copied from (the address is in the cards stage's key)."""
    content, out = small_cards_copy          # copied, then built once here
    decks = [p for p in out.rglob("*.json") if "tts" in p.parts and ".cache" not in p.parts]
    texts = [p.read_text() for p in decks]
    assert texts and any(out.resolve().as_uri() in t for t in texts)
    old = (small_cards_build / "build").resolve().as_uri()
    assert not any(old in t for t in texts)
    again = _build(content, out, "cards")
    assert again["stages"]["cards"]["status"] == "up to date"
