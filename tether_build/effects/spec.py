"""The effect language: every step kind, selector, condition, modifier and trigger, declared once.

The JSON Schema in schemas/effects.schema.json is generated from these tables
(`tether schemas`), and the engine registers exactly one handler per STEPS key.
Parameter types are short strings resolved by `schemas.param_schema`:
  int, posint, bool, number, name, amount, hex, champion, bridge, player, steps,
  condition, modifier, event, range, card_filter, card_overrides, duration, limit,
  enum:a|b|c, list:<type>, outcomes, options.
A trailing '!' marks a required parameter; a '=value' suffix is the default the
compiler fills in.
"""

# ---- steps -----------------------------------------------------------------------------
# "You may ..." on a card: a targeted step with `optional: true` offers the player a skip
# (None) next to its targets, and it never makes the card unplayable for want of a target.
OPTIONAL = {"optional": "bool=false"}

# name -> (one-line doc, {param: type})
STEPS: dict[str, tuple[str, dict[str, str]]] = {
    "noop": ("Do nothing (an explicit empty effect, e.g. Stall).", {}),
    "gain_gold": ("A player gains gold.", {"amount": "amount!", "player": "player=self"}),
    "lose_gold": ("A player loses up to this much gold (never below 0).",
                  {"amount": "amount!", "player": "player=self"}),
    "steal_gold": ("Take up to this much gold from another player.",
                   {"amount": "amount!", "from": "player!"}),
    "gain_mana": ("Gain mana this round (may exceed the maximum).", {"amount": "amount!"}),
    "set_mana": ("Set a player's mana to a value.", {"amount": "amount!", "player": "player=self"}),
    "gain_vp": ("Gain Permanence (permanent unless said otherwise).", {"amount": "amount!"}),
    "draw": ("Draw cards (player 'others' = every other player).",
             {"count": "amount!", "player": "enum:self|others=self"}),
    "discard": ("Discard cards from hand (chosen); the number discarded is remembered.",
                {"count": "amount!", "up_to": "bool=false"}),
    "scrap": ("Remove cards from your hand from the game (Reforge, 'burn a card from hand').",
              {"count": "amount!", "up_to": "bool=false"}),
    "put_on_top": ("Put cards from your hand on top of your draw pile.",
                   {"count": "amount!", "up_to": "bool=false"}),
    "look": ("Look at the top cards of your draw pile, take some to hand, the rest go to 'rest'.",
             {"count": "posint!", "take": "int=0",
              "rest": "enum:discard|top|bottom|choose_bottom=top"}),
    "deploy": ("Deploy Forces (Cohorts) into a hex.",
               {"count": "amount!", "where": "hex!", **OPTIONAL}),
    "deploy_champion": ("Deploy this Champion card into a hex (§20.1).", {"where": "hex!"}),
    "summon_champion": (("Deploy a Champion, without paying its costs, chosen from every "
                         "Champion card of the game that matches the pool filter."),
                        {"pool": "card_filter!", "pick": "enum:random|choose=random",
                         "where": "hex!"}),
    "move": ("Move stacks (or single units) along a declared path.",
             {"stacks": "posint=1", "distance": "posint!", "unit": "enum:stack|force|champion=stack",
              "ignore_bridges": "bool=false", "stop_on_occupied": "bool=false",
              "as": "name", **OPTIONAL}),
    "relocate": ("Move a Champion directly to a hex (no path).",
                 {"champion": "champion!", "to": "hex!", **OPTIONAL}),
    "build_bridge": ("Build Bridges.", {"count": "posint=1", "where": "bridge!",
                                        "temporary": "bool=false", **OPTIONAL}),
    "destroy_bridge": ("Destroy Bridges.",
                       {"count": "posint=1", "where": "bridge!", **OPTIONAL}),
    "heal": ("Heal Champions (not above their max HP).",
             {"amount": "amount!", "champion": "champion!", **OPTIONAL}),
    "damage": ("Deal damage to Champions.",
               {"amount": "amount!", "champion": "champion!", **OPTIONAL}),
    "destroy_forces": ("Destroy Forces in a hex ('count: all' for every one).",
                       {"count": "amount!", "hex": "hex!", "side": "enum:enemy|any|friendly|mover=enemy",
                        "up_to": "bool=true", **OPTIONAL}),
    "remove_champion": ("Take Champions off the board to the burn pile or to the hand.",
                        {"champion": "champion!", "to": "enum:burn_pile|hand=burn_pile",
                         **OPTIONAL}),
    "multiply_hp": ("Multiply a Champion's current HP, raising its max HP if needed.",
                    {"champion": "champion!", "factor": "posint!", **OPTIONAL}),
    "mine_value": ("Raise the Mine Value of a Mine, up to a maximum.",
                   {"amount": "int!", "hex": "hex!", "max": "posint=7", **OPTIONAL}),
    "forge_draft": ("Reveal Archive cards, gain one, the rest to the bottom (§16.2).",
                    {"reveal": "posint=3", "age": "enum:current|I|II|III=current"}),
    "gain_card": ("Gain cards from a deck into your hand or draw pile.",
                  {"source": "enum:market|power!", "age": "enum:current|I|II|III=current",
                   "count": "posint=1", "pick": "enum:random|choose=random",
                   "to": "enum:hand|draw_pile=hand", "overrides": "card_overrides"}),
    "choose_target": ("Choose and lock a target now; later steps use it as {ref: name}.",
                      {"as": "name!", "hex": "hex", "champion": "champion",
                       "bridge": "bridge", "player": "player"}),
    "choose_one": ("The player chooses one option.", {"options": "options!"}),
    "if": ("Do 'then' if the condition holds, else 'else'.",
           {"condition": "condition!", "then": "steps!", "else": "steps"}),
    "roll": ("Roll one die; do the steps of the matching outcome.", {"outcomes": "outcomes!"}),
    "repeat": ("Do the steps a number of times.", {"times": "amount!", "steps": "steps!"}),
    "add_modifier": ("Add a modifier for a duration.",
                     {"modifier": "modifier!", "duration": "duration!", "target": "name"}),
    "add_trigger": ("Add a triggered effect for a duration.",
                    {"trigger": "event!", "condition": "condition", "steps": "steps!",
                     "duration": "duration!", "limit": "limit=unlimited", "target": "name"}),
    "card_counter": ("Change this card's own counter (kept while the card is in the game).",
                     {"add": "int!", "max": "int"}),
    "scatter": (("Pick the hex actually hit: the target with 'center_chance', else a random "
                 "neighbour."), {"hex": "hex!", "center_chance": "number=0.5",
                                              "as": "name!"}),
    "take_card": (("Take another player's card into your deck: the card of the Champion just "
                   "killed (from its owner's burn pile) or that player's faction spell."),
                  {"card": "enum:killed_champion|faction_spell!", "from": "player=victim",
                   "to": "enum:hand|draw_pile=draw_pile"}),
}

# ---- selectors -------------------------------------------------------------------------
# Hex selector: all given keys must hold. 'pick' says who picks among the matches.
HEX_SELECTOR = {
    "ref": "name", "this": "bool", "own_capital": "bool", "enemy_capital": "bool",
    "not_capital": "bool", "anywhere": "bool",
    "kind": "list:enum:capital|center|forge|mine|plain",
    "occupied_by": "enum:you|enemy|nobody|anyone|not_you",
    "contains": "enum:friendly_champion|enemy_champion|champion|friendly_forces",
    "within": "within", "adjacent_to_capital": "bool",
    "pick": "enum:choose|all|random",
    "any_of": "list:hex",
    "event_hex": "bool",  # in a trigger: the hex where the event happened (e.g. a stack arrived)
}
CHAMPION_SELECTOR = {
    "ref": "name", "this": "bool", "side": "enum:friendly|enemy|any",
    "within": "within", "in": "hex", "pick": "enum:choose|all|random",
    "exclude_this": "bool",
}
BRIDGE_SELECTOR = {"ref": "name", "touching": "hex", "anywhere": "bool"}
# 'min_distance' leaves out the nearer hexes: {distance: 1, min_distance: 1} is the hexes
# adjacent to a source, not the source's own hex (§2.1: "Distance 1" = adjacent)
WITHIN = {"distance": "int!", "min_distance": "int",
          "of": "enum:your_capital|your_champion|your_units|your_forces|this|ref!",
          "ref": "name"}
PLAYERS = ["self", "chosen_opponent", "each_opponent", "owner", "killer", "battle_enemy",
           "victim"]

# ---- conditions (all keys given must hold) ------------------------------------------------
CONDITIONS = {
    "occupies": "hex", "target_in": "target_in", "won_battle_this_round": "bool",
    "hand_size": "range", "draw_pile_size": "range", "champions_in_play": "range",
    "mana": "range", "last_count": "range", "last_drawn_type": "enum:order|spell|victory|champion",
    "capital_has_enemy": "bool", "adjacent_occupied": "adjacent_occupied",
    "defending": "bool", "attacking": "bool", "battle_in": "hex", "siege": "bool",
    "combat_round": "range", "enemy_champion_present": "bool",
    "friendly_forces_present": "bool", "moving_alone": "bool", "first_move_this_round": "bool",
    "on_board": "bool", "all": "list:condition", "any": "list:condition", "not": "condition",
    "victim_side": "enum:friendly|enemy",  # champion_dies: whose Champion died
}

# ---- modifiers: name -> params ------------------------------------------------------------
MODIFIERS: dict[str, tuple[str, dict[str, str]]] = {
    "hit_on": ("Units hit on 1..value.", {"units": "units!", "value": "posint!",
                                          "when": "condition"}),
    "extra_dice": ("Units roll extra dice.", {"units": "units!", "amount": "amount!",
                                              "when": "condition"}),
    "set_dice": ("Units roll exactly this many dice.", {"units": "units!", "value": "posint!",
                                                        "when": "condition"}),
    "assign_hits": ("You assign some of your hits instead of random (count omitted = all).",
                    {"count": "posint", "when": "condition"}),
    "redirect_hit": ("The first hit(s) on a friendly Champion go to a friendly Force instead.",
                     {"count": "posint=1", "when": "condition"}),
    "ignore_bridges": ("Units may move to adjacent hexes without Bridges.", {"units": "units!"}),
    "extra_move": ("A move may go further.", {"amount": "posint!", "when": "condition",
                                              "limit": "limit=unlimited"}),
    "deploy_anchor": ("You may deploy into this hex as if it were your Capital.",
                      {"hex": "hex!", "when": "condition"}),
    "untargetable": ("Champions cannot be targeted by enemy cards of these types.",
                     {"units": "units!", "by": "list:enum:order|spell|victory|champion"}),
    "prevent_damage_for_gold": ("Each damage is prevented by paying gold.",
                                {"units": "units!", "gold": "posint!"}),
    "block_bridge": ("A Bridge cannot be crossed.", {"bridge": "bridge!"}),
    "link_hexes": ("Two hexes count as adjacent and joined by a Bridge.",
                   {"a": "hex!", "b": "hex!"}),
    "mine_bonus": ("Collecting a Mine gives extra gold ('where' narrows which Mines).",
                   {"amount": "posint!", "when": "condition", "where": "hex"}),
    "control_vp": ("Held Permanence for a kind of hex you occupy.",
                   {"kind": "enum:center|forge|enemy_capital!", "amount": "int!"}),
    "vp_while": ("Counts as Permanence while the condition holds.",
                 {"amount": "posint!", "when": "condition"}),
    "deploy_bonus": ("Each deploy into the hex deploys extra Forces.",
                     {"amount": "posint!", "where": "hex!"}),
    "pick_extra": ("When you pick from n cards, pick from n + amount.", {"amount": "posint!"}),
    "cost_override": ("Your next cards of a kind cost this much.",
                      {"applies_to": "card_filter!", "mana": "int", "gold": "int",
                       "uses": "posint=1"}),
    "mines_connected": ("All Mines you occupy count as adjacent and joined by Bridges.", {}),
    "retreat_from_battle": (("If a battle would start in the hex, your units retreat to a "
                             "random unoccupied adjacent hex (die if none)."), {"hex": "hex!"}),
}
UNITS = "enum:forces|champions|this|target|all|enemy_forces|enemy_champions"

# ---- triggers ----------------------------------------------------------------------------
EVENTS = {
    "on_deploy": "this Champion enters the board",
    "on_death": "this Champion dies",
    "kill_champion": "you (or this Champion) kill an enemy Champion",
    "champion_dies": "a Champion dies (narrowed by 'condition' or the target)",
    "battle_start": "before combat round 1 of a battle",
    "battle_won": "you (or this Champion) win a battle",
    "battle_end": "a battle you fought ends",
    "battle_entered": "a move ends in a battle",
    "others_battle": "two other players fight a battle",
    "enemy_enters_capital": "an enemy stack enters your Capital",
    "enemy_crosses_bridge": "an enemy stack crosses the target Bridge",
    "round_start": "after you draw in the Reset phase",
    "round_end": "at Cleanup",
    "card_drawn": "this card is drawn",
    "card_discarded": "this card is discarded",
    "activated": "you use this ability as an action (once per round limit applies)",
}
DURATIONS = ["this_battle", "next_battle", "first_battle", "end_of_round", "permanent"]
LIMITS = ["unlimited", "once_per_round", "once_per_battle", "once"]
AMOUNT_OF = ["cards_in_hand", "cards_played_this_round", "last_count", "card_counter",
             "champions_in_play"]
CARD_TYPES = ["order", "spell", "victory", "champion"]
CATEGORIES = ["movement", "recruitment", "economy", "deckcraft", "combat", "bridges",
              "synergy", "victory", "champion", "power"]
TILE_KINDS = ["capital", "center", "forge", "mine", "plain"]


def parse_type(t: str) -> tuple[str, bool, str | None]:
    """Split 'type!' / 'type=default' into (type, required, default-text)."""
    default = None
    if "=" in t:
        t, default = t.split("=", 1)
    required = t.endswith("!")
    return t.rstrip("!"), required, default


def default_value(kind: str, text: str):
    """The typed value of a default written after '=' in a parameter type."""
    if kind in ("int", "posint"):
        return int(text)
    if kind == "number":
        return float(text)
    if kind == "bool":
        return text == "true"
    return text
