"""The components manifest lists every card copy, tile and token with its count."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tether_print_helpers import print_build as _print_build

from tether_build.print.tiles import components, tiles, tokens

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def content():
    from tether_build.content.validate import validate
    return validate(ROOT / "tests" / "fixtures" / "content")


@pytest.fixture(scope="module")
def data(content):
    return components.components(content)


def test_every_card_is_listed(content, data):
    from tether_build.content.cards import normalized_cards

    cards = normalized_cards(content)
    listed = {c["id"]: c for deck in data["decks"] for c in deck["cards"]}
    assert set(listed) == {c["id"] for c in cards}
    players = content.game["players"]["max"]
    for card in cards:
        per_player = card["deck_kind"] == "starter"
        assert listed[card["id"]]["count"] == card["copies"] * (players if per_player else 1)
    assert data["totals"]["cards"] == sum(d["count"] for d in data["decks"])


def test_tiles_cover_every_board(content, data):
    game = content.game
    counts = {row["kind"]: 0 for row in data["tiles"]}
    for row in data["tiles"]:
        counts[row["kind"]] += row["count"]
    assert counts["capital"] == len(content.factions) >= game["players"]["max"]
    for players, need in game["board"]["tile_counts"].items():
        for kind in ("center", "forge", "mine"):
            assert counts[kind] >= need[kind], (players, kind)
    assert counts["plain"] == max(tiles.plain_need(game).values()) == 79
    assert data["totals"]["tiles"] == sum(counts.values()) == 96


def test_tokens_enough_for_six_players(content, data):
    rows = {(r["group"], r["name"]): r for r in data["tokens"]}
    colours = len(content.factions)
    by_group = {}
    for (group, _), row in rows.items():
        by_group[group] = by_group.get(group, 0) + row["count"]
    assert by_group["champion"] == colours * content.game["champions"]["limit"]
    assert by_group["hp_track"] == by_group["hp_marker"] == by_group["champion"]
    assert by_group["mine_value"] == 4 * 7  # values 4-7, 7 Mines at most
    assert by_group["bridge"] == 90
    assert by_group["round_track"] == by_group["vp_track"] == by_group["lead"] == 1
    assert by_group["vp_marker"] == 2 * colours
    cohorts = sum(r["count"] * int(r["name"].split()[-1]) for r in data["tokens"]
                  if r["group"] == "cohort")
    assert cohorts == 50 * colours
    assert data["totals"]["tokens"] == sum(t.count for t in tokens.token_set(content))


def test_manifest_files(data, tmp_path_factory):
    print_build = _print_build(tmp_path_factory)
    text = (print_build / "components.txt").read_text()
    assert text == components.manifest_text(data)
    for deck in data["decks"]:
        assert deck["name"] in text
    assert f"TILES  {data['totals']['tiles']}" in text
    assert json.loads((print_build / "components.json").read_text())["totals"] == data["totals"]


def test_dice_and_pile_markers_are_counted_from_content(content, data):
    """Components gives every count: the dice (the most any Champion rolls, read from the
    cards) and one pile marker per Archive and Power draw pile (as the card sheets print)."""
    import yaml

    from tether_build.print.cards.build import PrintOptions, pile_markers

    rolled = [int(card["champion"]["dice"])
              for path in sorted((ROOT / "tests/fixtures/content/cards").glob("*.yaml"))
              for card in yaml.safe_load(path.read_text())["cards"]
              if isinstance(card.get("champion"), dict) and "dice" in card["champion"]]
    assert rolled and data["dice"]["count"] == max(rolled)
    assert data["dice"]["sides"] == content.game["combat"]["die_sides"]
    piles = [d for d, deck in content.ages["decks"].items()
             if deck["kind"] in ("market", "power")]
    assert piles and [m["deck"] for m in data["markers"]] == piles
    decks = list(content.ages["decks"])
    assert len(pile_markers(content, decks, PrintOptions())) == data["totals"]["markers"]
    text = components.manifest_text(data)
    assert f"PILE MARKERS  {len(piles)}" in text and f"DICE  {max(rolled)}" in text


def test_dice_count_follows_the_cards(content):
    from tether_build.content.cards import normalized_cards

    cards = [dict(c) for c in normalized_cards(content)]
    champ = next(c for c in cards if c.get("champion"))
    champ["champion"] = dict(champ["champion"], dice=9)
    assert components.components(content, cards)["dice"]["count"] == 9


def test_rulebook_components_chapter_gives_dice_and_markers(content, data):
    from tether_build.print.rulebook.directives import Ctx
    from tether_build.print.rulebook.directives import components as chapter
    from tether_build.print.rulebook.words import Words

    html = str(chapter(Ctx(content, Words(content), lambda: data)))
    assert f"{data['totals']['markers']} pile markers" in html
    assert f"{data['dice']['count']} {data['dice']['name']}" in html
    for marker in data["markers"]:
        assert marker["name"] in html
