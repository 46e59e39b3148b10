"""A kitchen-sink ruleset for the native engine's tests: the fixture content with extra starter
cards and Champions that use every step, selector, condition, modifier, trigger event, player
and duration of the effect language, so random games reach the rules that ordinary decks play
rarely (summons, retreats, redirected hits, stolen cards, linked hexes...). Test data only."""

from __future__ import annotations

import copy
import json


def _card(cid: str, effect: list, *, type_: str = "order", mana: int = 1, gold: int = 0,
          requires=None, champion=None, triggers=(), vp: int = 0, burn: bool = False,
          copies: int = 1) -> dict:
    return {"id": cid, "name": cid, "deck": "starter", "age": None, "faction": None,
            "category": "synergy", "type": type_, "mana": mana, "gold": gold,
            "initiative": [10 + len(cid), 90 - len(cid)], "copies": copies, "burn": burn,
            "vp": vp, "requires": requires, "champion": champion, "effect": effect,
            "triggers": list(triggers), "text": cid, "source": None}


def _mod(duration: str, modifier: dict, **kw) -> dict:
    return {"step": "add_modifier", "duration": duration, "modifier": modifier, **kw}


def _trig(trigger: str, steps: list, duration: str = "end_of_round", **kw) -> dict:
    return {"step": "add_trigger", "trigger": trigger, "duration": duration, "steps": steps,
            **kw}


MINE, PLAIN, CENTER = ["mine"], ["plain"], ["center"]
ME = {"occupied_by": "you"}

CARDS = [
    _card("ks_mana", [{"step": "set_mana", "amount": 3, "player": "chosen_opponent"},
                      {"step": "gain_vp", "amount": 1}]),
    _card("ks_gold", [{"step": "lose_gold", "amount": 1, "player": "each_opponent"},
                      {"step": "steal_gold", "amount": 2, "from": "chosen_opponent"},
                      {"step": "gain_gold",
                       "amount": {"of": "last_count", "times": 2, "plus": 1, "max": 5}}]),
    _card("ks_hand", [{"step": "discard", "count": 2, "up_to": True},
                      {"step": "draw", "count": {"of": "last_count"}},
                      {"step": "put_on_top", "count": 1},
                      {"step": "scrap", "count": 1, "up_to": True},
                      {"step": "draw", "count": 1, "player": "others"}]),
    _card("ks_look", [{"step": "look", "count": 3, "take": 1, "rest": "choose_bottom"},
                      {"step": "look", "count": 2, "rest": "discard"},
                      {"step": "look", "count": 2, "take": 1, "rest": "bottom"},
                      {"step": "look", "count": 1}]),
    _card("ks_deploy", [
        {"step": "deploy", "count": 2, "where": {
            "within": {"distance": 2, "of": "your_units"}, "not_capital": True,
            "occupied_by": "nobody"}},
        {"step": "deploy", "count": 1, "optional": True,
         "where": {"kind": ["mine", "forge"], "pick": "random"}},
        {"step": "deploy", "count": {"of": "cards_played_this_round"},
         "where": {"occupied_by": "you", "pick": "all", "adjacent_to_capital": True}}]),
    _card("ks_deploy2", [
        {"step": "deploy", "count": 1, "where": {"within": {"distance": 1, "of": "your_forces"},
                                                 "occupied_by": "not_you"}},
        {"step": "deploy", "count": 1, "where": {"any_of": [
            {"contains": "friendly_champion"}, {"kind": CENTER, "occupied_by": "anyone"}]}},
        {"step": "deploy", "count": 1, "optional": True, "where": {
            "within": {"distance": 2, "of": "your_champion"}, "contains": "enemy_champion"}}]),
    _card("ks_summon", [{"step": "summon_champion", "pool": {"type": "champion"},
                         "pick": "choose", "where": {"own_capital": True}}], gold=1),
    _card("ks_summon2", [{"step": "summon_champion",
                          "pool": {"type": "champion", "mana": 2, "exclude_this": True},
                          "where": {"contains": "friendly_forces"}}], mana=2),
    _card("ks_move", [{"step": "move", "stacks": 2, "distance": 2, "as": "dest"},
                      {"step": "deploy", "count": 1, "where": {"ref": "dest"}}]),
    _card("ks_move2", [{"step": "move", "unit": "force", "distance": 3,
                        "stop_on_occupied": True, "optional": True},
                       {"step": "move", "unit": "champion", "distance": 2,
                        "ignore_bridges": True, "optional": True}]),
    _card("ks_relocate", [{"step": "relocate", "champion": {"side": "friendly"},
                           "to": {"within": {"distance": 1, "of": "your_capital"}}},
                          {"step": "relocate", "optional": True,
                           "champion": {"side": "enemy", "pick": "random"},
                           "to": {"kind": PLAIN, "occupied_by": "nobody", "pick": "random"}}]),
    _card("ks_bridges", [{"step": "build_bridge", "count": 2, "where": {"touching": ME},
                          "temporary": True},
                         {"step": "destroy_bridge", "optional": True,
                          "where": {"touching": {"occupied_by": "enemy"}}},
                         {"step": "build_bridge", "where": {"anywhere": True}}]),
    _card("ks_hurt", [{"step": "damage", "amount": 2, "champion": {
                          "side": "enemy", "within": {"distance": 3, "of": "your_units"}}},
                      {"step": "heal", "amount": 1,
                       "champion": {"side": "friendly", "pick": "all"}},
                      {"step": "multiply_hp", "factor": 2, "optional": True,
                       "champion": {"side": "friendly"}}]),
    _card("ks_destroy", [{"step": "destroy_forces", "count": "all", "hex": {
                              "occupied_by": "enemy",
                              "within": {"distance": 2, "of": "your_units"}}},
                         {"step": "destroy_forces", "count": 1, "side": "any",
                          "hex": {"contains": "champion", "pick": "random"}},
                         {"step": "destroy_forces", "count": 1, "side": "friendly",
                          "optional": True, "hex": ME}], mana=2),
    _card("ks_remove", [{"step": "remove_champion", "champion": {"side": "friendly"},
                         "to": "hand"},
                        {"step": "mine_value", "amount": 1, "hex": {"kind": MINE, **ME}}]),
    _card("ks_cards", [{"step": "forge_draft", "reveal": 2, "age": "II"},
                       {"step": "gain_card", "source": "market", "pick": "choose",
                        "to": "draw_pile",
                        "overrides": {"burn": True, "mana": 0, "gold": 1, "initiative": 5}},
                       {"step": "gain_card", "source": "power", "count": 2}], burn=True),
    _card("ks_targets", [{"step": "choose_target", "as": "t", "hex": {"occupied_by": "enemy"}},
                         {"step": "destroy_forces", "count": 1, "hex": {"ref": "t"}},
                         {"step": "choose_target", "as": "c",
                          "champion": {"side": "any", "pick": "random"}},
                         {"step": "damage", "amount": 1, "champion": {"ref": "c"}}]),
    _card("ks_targets2", [{"step": "choose_target", "as": "b", "bridge": {"touching": ME}},
                          {"step": "destroy_bridge", "where": {"ref": "b"}},
                          {"step": "choose_target", "as": "foe", "player": "chosen_opponent"},
                          {"step": "choose_target", "as": "all", "hex": {"kind": MINE,
                                                                          "pick": "all"}},
                          {"step": "deploy", "count": 1, "where": {"ref": "all"}}]),
    _card("ks_choose", [{"step": "choose_one", "options": [
        {"label": "hit", "steps": [{"step": "damage", "amount": 1,
                                    "champion": {"side": "enemy"}}]},
        {"label": "grow", "steps": [{"step": "deploy", "count": 1,
                                     "where": {"own_capital": True}}]},
        {"label": "build", "steps": [{"step": "build_bridge", "where": {"touching": ME}}]}]}]),
    _card("ks_if", [{"step": "if", "condition": {
                         "all": [{"hand_size": {"min": 1}}, {"not": {"mana": {"max": 0}}}],
                         "any": [{"draw_pile_size": {"min": 2}},
                                 {"champions_in_play": {"min": 1}}]},
                     "then": [{"step": "gain_gold", "amount": 1}],
                     "else": [{"step": "draw", "count": 1}]},
                    {"step": "if", "condition": {
                        "last_drawn_type": "order", "capital_has_enemy": False,
                        "won_battle_this_round": False, "first_move_this_round": True,
                        "occupies": {"kind": MINE}, "last_count": {"max": 3}},
                     "then": [{"step": "gain_vp", "amount": 1}]}]),
    _card("ks_adjacent", [{"step": "choose_target", "as": "h", "hex": ME},
                          {"step": "if", "condition": {
                              "adjacent_occupied": {"target": "h", "min": 2},
                              "target_in": {"target": "h", "hex": {"kind": PLAIN}}},
                           "then": [{"step": "deploy", "count": 1, "where": {"ref": "h"}}]}]),
    _card("ks_dice", [{"step": "roll", "outcomes": [
                           {"faces": [1, 3], "steps": [{"step": "gain_gold", "amount": 1}]},
                           {"faces": [4, 6], "steps": [{"step": "draw", "count": 1}]}]},
                      {"step": "repeat", "times": {"of": "cards_in_hand", "max": 2},
                       "steps": [{"step": "gain_mana", "amount": 1}]},
                      {"step": "card_counter", "add": 1, "max": 3},
                      {"step": "gain_gold", "amount": {"of": "card_counter"}}]),
    _card("ks_scatter", [{"step": "scatter", "hex": {"occupied_by": "enemy"},
                          "center_chance": 0.5, "as": "hit"},
                         {"step": "destroy_forces", "count": 2, "side": "any",
                          "hex": {"ref": "hit"}}]),
    _card("ks_battle_mods", [
        _mod("next_battle", {"modifier": "hit_on", "units": "forces", "value": 4}),
        _mod("first_battle", {"modifier": "extra_dice", "units": "champions", "amount": 1,
                              "when": {"attacking": True}}),
        _mod("end_of_round", {"modifier": "set_dice", "units": "enemy_forces", "value": 1,
                              "when": {"siege": False}}),
        _mod("end_of_round", {"modifier": "assign_hits", "count": 1})]),
    _card("ks_guard_mods", [
        _mod("permanent", {"modifier": "redirect_hit", "count": 1}),
        _mod("end_of_round", {"modifier": "prevent_damage_for_gold", "units": "champions",
                              "gold": 1}),
        _mod("end_of_round", {"modifier": "untargetable", "units": "all",
                              "by": ["order", "spell", "champion"]}),
        _mod("end_of_round", {"modifier": "assign_hits"})]),
    _card("ks_move_mods", [
        _mod("end_of_round", {"modifier": "extra_move", "amount": 1,
                              "when": {"moving_alone": False}}),
        _mod("end_of_round", {"modifier": "ignore_bridges", "units": "champions"}),
        _mod("end_of_round", {"modifier": "mines_connected"})]),
    _card("ks_board_mods", [
        _mod("end_of_round", {"modifier": "block_bridge",
                              "bridge": {"touching": {"occupied_by": "enemy"}}}),
        _mod("end_of_round", {"modifier": "link_hexes", "a": {"own_capital": True},
                              "b": {"kind": CENTER}}),
        _mod("end_of_round", {"modifier": "deploy_anchor", "hex": {"kind": CENTER},
                              "when": {"occupies": {"kind": CENTER}}})]),
    _card("ks_eco_mods", [
        _mod("end_of_round", {"modifier": "mine_bonus", "amount": 2, "where": {"kind": MINE}}),
        _mod("permanent", {"modifier": "control_vp", "kind": "forge", "amount": 2}),
        _mod("end_of_round", {"modifier": "vp_while", "amount": 1,
                              "when": {"occupies": {"kind": CENTER}}}),
        _mod("end_of_round", {"modifier": "deploy_bonus", "amount": 1,
                              "where": {"own_capital": True}}),
        _mod("end_of_round", {"modifier": "pick_extra", "amount": 1}),
        _mod("end_of_round", {"modifier": "cost_override", "applies_to": {"type": "order"},
                              "mana": 1, "uses": 2})]),
    _card("ks_retreat", [_mod("end_of_round", {"modifier": "retreat_from_battle",
                                               "hex": {"kind": PLAIN}})]),
    _card("ks_battle_trigs", [
        _trig("battle_start", [{"step": "gain_gold", "amount": 1}], limit="once_per_battle",
              condition={"defending": True}),
        _trig("battle_won", [{"step": "gain_vp", "amount": 1}], "permanent",
              limit="once_per_round"),
        _trig("battle_end", [{"step": "draw", "count": 1}], "next_battle"),
        _trig("others_battle", [{"step": "gain_gold", "amount": 1}], limit="once"),
        _trig("battle_start", [{"step": "gain_gold", "amount": 2}],
              condition={"battle_in": {"kind": ["capital"]}, "siege": True,
                         "combat_round": {"max": 1}})]),
    _card("ks_death_trigs", [
        _trig("champion_dies", [{"step": "take_card", "card": "faction_spell",
                                 "from": "victim"}], "permanent",
              condition={"victim_side": "enemy"}),
        _trig("kill_champion", [{"step": "take_card", "card": "killed_champion",
                                 "from": "victim", "to": "hand"},
                                {"step": "gain_gold", "amount": 1, "player": "killer"}])]),
    _card("ks_move_trigs", [
        _trig("battle_entered", [{"step": "deploy", "count": 1,
                                  "where": {"event_hex": True}}]),
        _trig("enemy_enters_capital", [{"step": "destroy_forces", "count": 1, "side": "mover",
                                        "hex": {"event_hex": True}}], "permanent",
              limit="once_per_round"),
        {"step": "choose_target", "as": "br", "bridge": {"anywhere": True}},
        _trig("enemy_crosses_bridge", [{"step": "destroy_forces", "count": 1, "side": "mover",
                                        "hex": {"event_hex": True}}], target="br")]),
    _card("ks_round_trigs", [
        _trig("round_start", [{"step": "draw", "count": 1}], "permanent", limit="once"),
        _trig("round_end", [{"step": "lose_gold", "amount": 1}], "permanent")]),
    _card("ks_requires", [{"step": "gain_gold", "amount": 2}],
          requires={"mana": {"min": 3}}),
    _card("ks_drawn", [{"step": "noop"}], triggers=[
        {"trigger": "card_drawn", "steps": [{"step": "gain_gold", "amount": 1}]},
        {"trigger": "card_discarded", "condition": {"hand_size": {"max": 8}},
         "steps": [{"step": "draw", "count": 1}]}]),
    _card("ks_victory", [{"step": "gain_vp", "amount": 1}], type_="victory", gold=2, vp=1),
    _card("ks_champ_a", [{"step": "deploy_champion", "where": {"any_of": [
        {"own_capital": True}, {"contains": "friendly_forces"}]}}], type_="champion",
        mana=1, champion={"hp": 3, "dice": 2, "hit": 3, "bounty": 2, "gold": [0, 1, 2],
                          "abilities": [
        {"name": "Zap", "trigger": "activated", "limit": "once_per_round", "steps": [
            {"step": "damage", "amount": 1,
             "champion": {"side": "enemy", "within": {"distance": 2, "of": "this"}}}]},
        {"name": "Storm", "trigger": "activated", "limit": "once_per_round", "steps": [
            {"step": "damage", "amount": 1, "champion": {
                "side": "any", "pick": "all",
                "within": {"distance": 1, "min_distance": 1, "of": "this"}}}]},
        {"name": "Arrive", "trigger": "on_deploy",
         "steps": [{"step": "deploy", "count": 1, "where": {"this": True}}]},
        {"name": "Last", "trigger": "on_death",
         "steps": [{"step": "gain_gold", "amount": 1, "player": "owner"}]},
        {"name": "Hunter", "trigger": "kill_champion",
         "steps": [{"step": "heal", "amount": 1, "champion": {"this": True}}]},
        {"name": "Ward", "modifier": {"modifier": "untargetable", "units": "this",
                                      "by": ["spell"]}},
        {"name": "Guard", "modifier": {"modifier": "redirect_hit", "count": 1,
                                       "when": {"enemy_champion_present": True}}}]}),
    _card("ks_champ_b", [{"step": "deploy_champion", "where": {"own_capital": True}}],
          type_="champion", mana=1, champion={
              "hp": 2, "dice": 1, "hit": 4, "bounty": 1, "gold": [0],
              "abilities": [
        {"name": "Fly", "modifier": {"modifier": "ignore_bridges", "units": "this"}},
        {"name": "Swift", "modifier": {"modifier": "extra_move", "amount": 1,
                                       "when": {"moving_alone": True}}},
        {"name": "Tough", "modifier": {"modifier": "prevent_damage_for_gold", "units": "this",
                                       "gold": 2}},
        {"name": "Rally", "trigger": "battle_start",
         "condition": {"friendly_forces_present": True, "on_board": True},
         "steps": [_mod("this_battle", {"modifier": "hit_on", "units": "forces", "value": 3})]},
        {"name": "Slow", "trigger": "activated", "steps": [
            {"step": "choose_target", "as": "x", "champion": {"side": "enemy"}},
            _mod("next_battle", {"modifier": "set_dice", "units": "target", "value": 1},
                 target="x")]},
        {"name": "Hide", "modifier": {"modifier": "retreat_from_battle",
                                      "hex": {"kind": MINE}}}]}),
]


def kitchen_sink(compiled: dict) -> dict:
    """The fixture's compiled data (build/engine/*.json in memory) with CARDS added to every
    starting deck: the same rules, far more of the rare ones in each game."""
    from tether_build.effects.compile import compile_card

    cards = json.loads(compiled["cards.json"])
    cards["cards"] += [compile_card(copy.deepcopy(c)) for c in CARDS]
    return {**compiled, "cards.json": json.dumps(cards)}
