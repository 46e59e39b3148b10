"""The whole Tabletop Simulator table (tts/table.json): the save format's rules, every
component of the print in it, pictures that exist, and decks that never share a key."""

from __future__ import annotations

import copy
import io
import json
from collections import Counter

import pytest
from PIL import Image
from tether_cli import run_cli

URL = "https://x.test/tts"


@pytest.fixture(scope="module")
def table(content):
    from tether_build.content.cards import normalized_cards
    from tether_build.print.tts import table as ttstable

    cards = normalized_cards(content)
    built = ttstable.build_table(content, cards, 4, 1, URL)
    return {"table": built, "doc": ttstable.save_doc(content, built), "cards": cards}


@pytest.fixture(scope="module")
def built(small_cards_build, tmp_path_factory):
    """`tether build --only cards --only table` of the cut-down content, with --tts-url, in a
    copy of the run's shared small build (tests/conftest.py small_cards_build: the same
    content, its cards stage built without --tts-url): the cards stage builds again for the
    address, its faces and PNGs from the render cache."""
    import shutil

    base = tmp_path_factory.mktemp("tts")
    for name in ("content", "schemas", "build"):
        shutil.copytree(small_cards_build / name, base / name, symlinks=True)
    out = base / "build"
    result = run_cli("build", "--content", str(base / "content"), "--out", str(out),
                     "--paper", "a4", "--only", "cards", "--only", "table", "--tts-url", URL,
                     "--json")
    assert result.exit_code == 0, result.output
    stages = json.loads(result.output)["stages"]
    assert stages["cards"]["status"] == stages["table"]["status"] == "built"
    return out


def _walk(objects):
    for obj in objects:
        yield obj
        yield from _walk(obj.get("ContainedObjects", []))


def test_the_built_table_keeps_the_format_and_names_only_files_of_the_build(built):
    from tether_build.print.tts.table import KNOWN_OBJECTS, check_save

    doc = json.loads((built / "tts" / "table.json").read_text(encoding="utf-8"))
    files = {p.relative_to(built).as_posix() for p in (built / "tts").rglob("*.png")}
    assert check_save(doc, files, URL, extra=None) == []
    names = Counter(o["Name"] for o in doc["ObjectStates"])
    assert set(names) <= KNOWN_OBJECTS
    assert {"Custom_Token", "Bag", "DeckCustom", "Die_6"} <= set(names)
    # every deck of the build is on the table, each with keys of its own
    decks = [o for o in doc["ObjectStates"] if o["Name"] in ("DeckCustom", "Card")]
    per_deck = [set(o["CustomDeck"]) for o in decks]
    assert len(set().union(*per_deck)) == sum(len(k) for k in per_deck)
    for path in (built / "tts" / "table").glob("*.png"):   # pictures cut to their shape
        with Image.open(path) as image:
            assert image.mode == "RGBA", path.name
            if not path.name.startswith(("hp_track", "mana_track", "round_track", "vp_track",
                                         "bridge", "hp_marker", "mana_marker")):
                assert image.getpixel((0, 0))[3] == 0, path.name   # transparent corner


def test_the_decks_on_the_table_are_the_deck_files(built):
    """tts/<deck>.json and the table's deck agree on keys, CardIDs and pictures."""
    doc = json.loads((built / "tts" / "table.json").read_text(encoding="utf-8"))
    on_table = {o["Nickname"]: o for o in doc["ObjectStates"] if o["Name"] == "DeckCustom"}
    for path in (built / "tts").glob("*.json"):
        if path.name == "table.json":
            continue
        state = json.loads(path.read_text(encoding="utf-8"))["ObjectStates"][0]
        if state["Name"] != "DeckCustom":
            continue
        mine = on_table[state["Nickname"]]
        assert mine["CustomDeck"] == state["CustomDeck"]
        assert mine["DeckIDs"] == state["DeckIDs"]


def test_every_printed_token_and_special_tile_is_on_the_table(table, content):
    from tether_build.print.tiles import tiles, tokens

    doc, cards = table["doc"], table["cards"]
    objects = list(_walk(doc["ObjectStates"]))
    printed = tokens.token_set(content, cards)
    for token in printed:
        named = [o for o in objects if o["Name"] == "Custom_Token"
                 and o["Nickname"].startswith(token.name)
                 and (not token.faction or o["Nickname"].endswith(f"({token.faction})"))]
        assert len(named) >= token.count, token.name
    caps = [s for s in tiles.tile_set(content) if s.kind == "capital"]
    assert sum(1 for o in objects if o["Nickname"].startswith(caps[0].name + " (")) == len(caps)
    layout = __import__("tether_build.print.tiles.boardmap", fromlist=["layout"]).layout(
        4, 1, content.game)
    special = [h for h in layout["hexes"] if h["tile"] in ("center", "forge", "mine")]
    placed = [o for o in doc["ObjectStates"] if o.get("Description", "").count(",") == 1
              and o["Name"] == "Custom_Token"]
    assert sorted(o["Description"] for o in placed) == sorted(
        f"{h['q']},{h['r']}" for h in special)


def test_pieces_are_their_printed_size_and_stand_on_their_hexes(table, content):
    from tether_build.print.tiles import common, tokens
    from tether_build.print.tts.table import UNIT_MM, scale_mm

    doc = table["doc"]
    objects = list(_walk(doc["ObjectStates"]))
    force = common.term(content, "force")
    cohort = next(o for o in objects if o["Nickname"].startswith(f"{force} 1 ("))
    assert scale_mm(cohort) == pytest.approx(tokens.COHORT_MM, abs=0.01)
    flat = common.DEFAULT_TILE_MM
    for obj in doc["ObjectStates"]:
        if obj["Name"] == "Custom_Token" and obj.get("Description", "").count(",") == 1:
            q, r = map(int, obj["Description"].split(","))
            x, y = common.axial_mm(q, r, flat)
            t = obj["Transform"]
            assert (t["posX"] * UNIT_MM, -t["posZ"] * UNIT_MM) == (
                pytest.approx(x, abs=0.01), pytest.approx(y, abs=0.01))
            assert scale_mm(obj) == pytest.approx(2 * common.hex_radius(flat), abs=0.01)


@pytest.mark.parametrize("fault", ["guid", "type", "shared key", "card id", "deck ids",
                                   "image", "address"])
def test_check_save_names_each_broken_rule(table, fault):
    from tether_build.print.tts.table import check_save

    doc = copy.deepcopy(table["doc"])
    objs = doc["ObjectStates"]
    decks = [o for o in objs if o["Name"] == "DeckCustom"]
    files = {f"tts/table/{n}" for n in table["table"].images}
    extra = set(table["table"].deck_files)
    if fault == "guid":
        objs[1]["GUID"] = objs[0]["GUID"]
    elif fault == "type":
        objs[0]["Name"] = "Custom_Thing"
    elif fault == "shared key":   # the classic: two decks on key 1
        for deck in decks[:2]:
            for card in deck["ContainedObjects"]:
                card["CardID"] = 100 + card["CardID"] % 100
                card["CustomDeck"] = {"1": next(iter(card["CustomDeck"].values()))}
            deck["CustomDeck"] = {"1": next(iter(deck["CustomDeck"].values()))}
            deck["DeckIDs"] = [c["CardID"] for c in deck["ContainedObjects"]]
    elif fault == "card id":
        decks[0]["ContainedObjects"][0]["CardID"] += 100
    elif fault == "deck ids":
        decks[0]["DeckIDs"] = decks[0]["DeckIDs"][1:]
    elif fault == "image":
        files.discard(min(files))
    elif fault == "address":
        objs[0]["CustomImage"]["ImageURL"] = "file:///home/me/board.png"
    problems = check_save(doc, files, URL, extra)
    assert problems, fault
    assert check_save(copy.deepcopy(table["doc"]), {f"tts/table/{n}" for n in
                                                    table["table"].images}, URL, extra) == []


def test_a_token_picture_is_the_printed_piece_cut_round(table, content):
    """One picture drawn: the Cohort, its printed size at 240 DPI, transparent outside."""
    from tether_build.print.tiles import tokens
    from tether_build.print.tts.table import DPI

    images = table["table"].images
    name = next(n for n in sorted(images) if n.startswith("cohort-"))
    with Image.open(io.BytesIO(images[name]().png())) as image:
        side = round(tokens.COHORT_MM * DPI["token"] / 25.4)
        assert abs(image.width - side) <= 1 and abs(image.height - side) <= 1
        assert image.getpixel((0, 0))[3] == 0
        assert image.getpixel((image.width // 2, image.height // 2))[3] == 255


def test_nothing_is_dropped_on_the_board_but_its_tiles(table, content):
    """Bags, decks, dice, Capitals and tracks stand off the board; only the special tiles and
    their Mine Values stand on it."""
    from tether_build.print.tiles import boardmap, common
    from tether_build.print.tts.table import NATIVE_UNITS, UNIT_MM

    objs = table["doc"]["ObjectStates"]
    radius = boardmap.layout(4, 1, content.game)["radius"]
    w, h = boardmap.map_size(radius, common.DEFAULT_TILE_MM)
    half_x, half_z = w / 2 / UNIT_MM, h / 2 / UNIT_MM
    assert objs[0]["Transform"]["scaleX"] * NATIVE_UNITS == pytest.approx(2 * half_x, abs=1e-3)
    for obj in objs[1:]:
        t = obj["Transform"]
        reach = 1.0 if obj["Name"] in ("Bag", "DeckCustom", "Die_6") else \
            t["scaleX"] * NATIVE_UNITS / 2
        on_board = abs(t["posX"]) < half_x + reach and abs(t["posZ"]) < half_z + reach
        placed = obj.get("Description", "").count(",") == 1 or obj["Nickname"].startswith(
            tuple(o["Nickname"] for o in objs if o.get("Description", "").count(",") == 1
                  and "Mine" in o["Nickname"])) or "Mine Value" in obj["Nickname"]
        assert not on_board or placed, (obj["Name"], obj["Nickname"], t["posX"], t["posZ"])
    assert UNIT_MM == 25.4


def test_a_picture_is_drawn_once_and_then_comes_from_the_cache_byte_for_byte(table, content,
                                                                             tmp_path):
    """A card's text edit rebuilds the table's JSON; its pictures (tokens, tiles, board) are
    then read from the render cache, keyed by the PDF they are cut from: the same bytes as
    drawn without any cache."""
    from tether_build.print.tiles import common

    images = table["table"].images
    names = [next(n for n in sorted(images) if n.startswith(p)) for p in ("cohort-", "tile-")]
    plain = {n: images[n]().png() for n in names}
    with common.cached(tmp_path):
        first = {n: images[n]().png() for n in names}
    stored = sorted(p.name for p in (tmp_path / "tts-pictures").iterdir())
    assert len(stored) == len(names)
    with common.cached(tmp_path):
        cache = common.current_cache()
        again = {n: images[n]().png() for n in names}
        assert cache.hits >= len(names) and cache.misses == 0
    assert plain == first == again


def test_a_pictures_key_follows_its_documents_bytes_and_its_cut():
    """Picture.key: the pictures of one document (its hash worked out once) differ by their
    cut; an equal document (another object) gives the same key, another document another."""
    from tether_build.print.tts.table import Picture

    doc = b"%PDF-1.7 " + b"x" * 1000
    one = Picture(doc, 1.0, 20.0, 20.0, 150, "circle", 3)
    assert one.key() == Picture(bytes(bytearray(doc)), 1.0, 20.0, 20.0, 150, "circle", 3).key()
    assert one.key() != Picture(doc, 1.0, 20.0, 20.0, 150, "circle", 4).key()
    assert one.key() != Picture(doc[:-1] + b"y", 1.0, 20.0, 20.0, 150, "circle", 3).key()


def test_pictures_rasterized_side_by_side_are_the_same_bytes(table, monkeypatch):
    """The pictures a build has to draw are rasterized over forked processes when there are
    many: the same PNG bytes as one after another, in the same order, each picture's own."""
    from tether_build.print.tts import table as ttstable

    images = table["table"].images
    names = [n for n in sorted(images) if n.startswith(("cohort-", "tile-"))][:6]
    pictures = {n: images[n]() for n in names}
    alone = ttstable.pngs(pictures, workers=1)
    monkeypatch.setattr(ttstable, "MIN_PER_WORKER", 2)
    forked = []
    from tether_build import forking

    original = forking.fork_pool

    def counting(*args, **kwargs):
        forked.append(args)
        return original(*args, **kwargs)
    monkeypatch.setattr(forking, "fork_pool", counting)
    side_by_side = ttstable.pngs(pictures, workers=2)
    assert forked, "two workers and six pictures: rasterized in forked processes"
    assert side_by_side == alone
    assert len(set(alone.values())) == len(names)   # each its own picture
