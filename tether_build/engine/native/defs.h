// The compiled definitions the native engine plays: cards, factions, abilities, modifiers,
// selectors, conditions, amounts and effect steps, read once from the compiled ruleset.
// Each mirrors its Python twin in tether_build/engine (named in the comments); the Python
// engine is the reference and tests/engine/test_native.py holds the two to the same logs.
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "json.h"

namespace tn {

struct Unsupported : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Effect steps one game may run (engine/core.py STEP_BUDGET, sent with each request): a game
// past it ends with this error, worded as core.StepBudget's, naming the card (issue 43).
static const int64_t STEP_BUDGET = 1000000;
struct StepBudget : std::runtime_error {
  std::string card;   // the card running then ("" for a faction passive)
  StepBudget(const std::string& why, const std::string& card_)
      : std::runtime_error(why), card(card_) {}
};

// ---- enums --------------------------------------------------------------------------------
enum ModKind {
  M_HIT_ON, M_EXTRA_DICE, M_SET_DICE, M_ASSIGN_HITS, M_REDIRECT_HIT, M_IGNORE_BRIDGES,
  M_EXTRA_MOVE, M_DEPLOY_ANCHOR, M_UNTARGETABLE, M_PREVENT_DAMAGE_FOR_GOLD, M_BLOCK_BRIDGE,
  M_LINK_HEXES, M_MINE_BONUS, M_CONTROL_VP, M_VP_WHILE, M_DEPLOY_BONUS, M_PICK_EXTRA,
  M_COST_OVERRIDE, M_MINES_CONNECTED, M_RETREAT_FROM_BATTLE, M_COUNT
};
static const char* const MOD_NAMES[M_COUNT] = {
  "hit_on", "extra_dice", "set_dice", "assign_hits", "redirect_hit", "ignore_bridges",
  "extra_move", "deploy_anchor", "untargetable", "prevent_damage_for_gold", "block_bridge",
  "link_hexes", "mine_bonus", "control_vp", "vp_while", "deploy_bonus", "pick_extra",
  "cost_override", "mines_connected", "retreat_from_battle"};

enum EvKind {
  E_ON_DEPLOY, E_ON_DEATH, E_KILL_CHAMPION, E_CHAMPION_DIES, E_BATTLE_START, E_BATTLE_WON,
  E_BATTLE_END, E_BATTLE_ENTERED, E_OTHERS_BATTLE, E_ENEMY_ENTERS_CAPITAL,
  E_ENEMY_CROSSES_BRIDGE, E_ROUND_START, E_ROUND_END, E_CARD_DRAWN, E_CARD_DISCARDED,
  E_ACTIVATED, E_COUNT
};
static const char* const EV_NAMES[E_COUNT] = {
  "on_deploy", "on_death", "kill_champion", "champion_dies", "battle_start", "battle_won",
  "battle_end", "battle_entered", "others_battle", "enemy_enters_capital",
  "enemy_crosses_bridge", "round_start", "round_end", "card_drawn", "card_discarded",
  "activated"};

enum Duration { D_THIS_BATTLE, D_NEXT_BATTLE, D_FIRST_BATTLE, D_END_OF_ROUND, D_PERMANENT };
static const char* const DURATION_NAMES[] = {"this_battle", "next_battle", "first_battle",
                                             "end_of_round", "permanent"};
enum Limit { L_UNLIMITED, L_ONCE_PER_ROUND, L_ONCE_PER_BATTLE, L_ONCE };

enum Units { U_NONE, U_ALL, U_FORCES, U_CHAMPIONS, U_THIS, U_TARGET, U_ENEMY_FORCES,
             U_ENEMY_CHAMPIONS, U_OTHER };

inline int find_name(const char* const* names, int n, const std::string& s) {
  for (int k = 0; k < n; ++k)
    if (s == names[k]) return k;
  return -1;
}

// ---- amounts (select.amount) ---------------------------------------------------------------
enum AmountOf { A_CARDS_IN_HAND, A_PLAYED_THIS_ROUND, A_LAST_COUNT, A_CARD_COUNTER,
                A_CHAMPIONS_IN_PLAY };
struct Amount {
  enum { CONST, ALL, OF } kind = CONST;
  int64_t value = 0;
  int of = 0;
  int64_t times = 1, plus = 0, maxv = 0;
  bool has_max = false;
};
static const int64_t ALL_COUNT = 1000000;

// ---- selectors (select.py) -------------------------------------------------------------------
struct Within {  // select.Within
  int64_t d = 0, lo = 0;  // lo: min_distance (1: the adjacent hexes, not the source's own)
  int of = 0;  // WITHIN_OF index
  int ref = -1;  // interned name
};
enum WithinOf { W_YOUR_CAPITAL, W_YOUR_CHAMPION, W_YOUR_UNITS, W_YOUR_FORCES, W_THIS, W_REF };

enum HexBase { HB_ALL, HB_REF, HB_THIS, HB_EVENT_HEX, HB_OWN_CAPITAL, HB_DEPLOY_ANCHORS,
               HB_ENEMY_CAPITAL, HB_OCC_YOU, HB_OCC_UNION, HB_EMPTY, HB_KIND, HB_WITHIN,
               HB_OWN_OCCUPIED };
enum HexPred { HP_THIS, HP_EVENT_HEX, HP_NOT_CAPITAL, HP_KIND, HP_OCC, HP_CONTAINS, HP_WITHIN,
               HP_ADJ_CAPITAL };
enum Occ { OC_YOU, OC_ENEMY, OC_NOBODY, OC_ANYONE, OC_NOT_YOU };
enum Contains { CT_FRIENDLY_CHAMPION, CT_ENEMY_CHAMPION, CT_CHAMPION, CT_FRIENDLY_FORCES };
enum Pick { PK_CHOOSE, PK_ALL, PK_RANDOM };

struct HexSel {  // select.HexSel
  int pick = PK_CHOOSE;
  std::vector<std::unique_ptr<HexSel>> subs;
  int base = HB_ALL;
  int ref = -1;
  bool base_union_mine = false;  // HB_OCC_UNION: 'anyone' (every player) or 'enemy'
  unsigned kinds = 0;            // tile kind bits (HB_KIND / HP_KIND)
  Within within;                 // HB_WITHIN / HP_WITHIN
  std::vector<int> preds;
  int occ = 0, contains = 0;
  bool never_empty = false;
};

struct ChampSel {  // select.ChampSel
  int pick = PK_CHOOSE;
  std::unique_ptr<HexSel> hexsel;
  bool has_within = false;
  Within within;
  int side = 0;  // 0 any, 1 friendly, 2 enemy
  bool exclude_this = false;
  int pool = 0;  // 0 every Champion, 1 ref, 2 this
  int ref = -1;
};

struct BridgeSel {  // select.BridgeSel
  bool build = false, basic = false;
  int pick = PK_CHOOSE;
  bool has_ref = false;
  int ref = -1;
  std::unique_ptr<HexSel> touching;
};

// ---- conditions (conds.py) -------------------------------------------------------------------
enum CondKey {
  C_OCCUPIES, C_TARGET_IN, C_WON_BATTLE, C_HAND_SIZE, C_DRAW_PILE_SIZE, C_CHAMPIONS_IN_PLAY,
  C_MANA, C_LAST_COUNT, C_LAST_DRAWN_TYPE, C_CAPITAL_HAS_ENEMY, C_ADJ_OCCUPIED, C_DEFENDING,
  C_ATTACKING, C_BATTLE_IN, C_SIEGE, C_COMBAT_ROUND, C_ENEMY_CHAMP_PRESENT,
  C_FRIENDLY_FORCES_PRESENT, C_MOVING_ALONE, C_FIRST_MOVE, C_ON_BOARD, C_ALL, C_ANY, C_NOT,
  C_VICTIM_SIDE, C_COUNT
};
static const char* const COND_NAMES[C_COUNT] = {
  "occupies", "target_in", "won_battle_this_round", "hand_size", "draw_pile_size",
  "champions_in_play", "mana", "last_count", "last_drawn_type", "capital_has_enemy",
  "adjacent_occupied", "defending", "attacking", "battle_in", "siege", "combat_round",
  "enemy_champion_present", "friendly_forces_present", "moving_alone",
  "first_move_this_round", "on_board", "all", "any", "not", "victim_side"};

struct Cond;
struct CondItem {
  int key = 0;
  bool want = true;
  bool has_lo = false, has_hi = false;
  int64_t lo = 0, hi = 0;
  std::unique_ptr<HexSel> hs;
  int name = -1;
  int64_t need = 0;
  std::string str;  // last_drawn_type / victim_side value
  bool str_null = false;
  std::vector<std::unique_ptr<Cond>> subs;
};
struct Cond {  // empty: always true (condition(None))
  std::vector<CondItem> items;
};

// ---- modifiers and abilities (mods.py) ---------------------------------------------------------
struct CardFilter {
  bool has_type = false, has_mana = false, has_deck = false, exclude_this = false;
  std::string type, deck;
  int64_t mana = 0;
};

struct ModDef {  // mods.ModDef
  int kind = 0;
  int units = U_NONE;
  std::unique_ptr<Cond> when;
  bool reads_alone = false;
  std::unique_ptr<HexSel> hexsel;
  bool has_amount = false;
  Amount amount;
  int64_t raw_amount = 0;  // params["amount"] read as a number (control_vp, pick_extra, ...)
  std::unique_ptr<BridgeSel> bridge;
  std::unique_ptr<HexSel> a, b;
  int64_t value = 0;           // hit_on / set_dice
  std::vector<std::string> by;  // untargetable
  int64_t gold = 0;            // prevent_damage_for_gold
  bool has_count = false;
  int64_t count = 1;           // assign_hits (None = all) / redirect_hit (default 1)
  int vp_kind = 0;             // control_vp: 0 center, 1 forge, 2 enemy_capital
  CardFilter applies_to;       // cost_override
  bool has_mana = false, has_gold = false;
  int64_t mana = 0, gold_cost = 0, uses = 1;
};

struct Step;
struct Ability {  // mods.Ability
  std::string name;
  int limit = L_UNLIMITED;
  std::unique_ptr<ModDef> mod;
  int event = -1;
  std::unique_ptr<Cond> cond;
  std::vector<Step*> steps;
};

// ---- steps (steps_*.py) -----------------------------------------------------------------------
enum StepKind {
  S_NOOP, S_GAIN_GOLD, S_LOSE_GOLD, S_STEAL_GOLD, S_GAIN_MANA, S_SET_MANA, S_GAIN_VP, S_DRAW,
  S_DISCARD, S_SCRAP, S_PUT_ON_TOP, S_LOOK, S_DEPLOY, S_DEPLOY_CHAMPION, S_SUMMON, S_MOVE,
  S_RELOCATE, S_BUILD_BRIDGE, S_DESTROY_BRIDGE, S_HEAL, S_DAMAGE, S_DESTROY_FORCES,
  S_REMOVE_CHAMPION, S_MULTIPLY_HP, S_MINE_VALUE, S_FORGE_DRAFT, S_GAIN_CARD,
  S_CHOOSE_TARGET, S_CHOOSE_ONE, S_IF, S_ROLL, S_REPEAT, S_ADD_MODIFIER, S_ADD_TRIGGER,
  S_CARD_COUNTER, S_SCATTER, S_TAKE_CARD, S_COUNT
};
static const char* const STEP_NAMES[S_COUNT] = {
  "noop", "gain_gold", "lose_gold", "steal_gold", "gain_mana", "set_mana", "gain_vp", "draw",
  "discard", "scrap", "put_on_top", "look", "deploy", "deploy_champion", "summon_champion",
  "move", "relocate", "build_bridge", "destroy_bridge", "heal", "damage", "destroy_forces",
  "remove_champion", "multiply_hp", "mine_value", "forge_draft", "gain_card", "choose_target",
  "choose_one", "if", "roll", "repeat", "add_modifier", "add_trigger", "card_counter",
  "scatter", "take_card"};

enum PlayerRef { PR_SELF, PR_CHOSEN_OPPONENT, PR_EACH_OPPONENT, PR_OWNER, PR_KILLER,
                 PR_BATTLE_ENEMY, PR_VICTIM };
enum TargetKind { TK_HEX, TK_CHAMPION, TK_BRIDGE, TK_PLAYER };

struct Overrides {  // CardInst.over: the card_overrides a gained card carries
  bool has_burn = false, has_mana = false, has_gold = false, has_initiative = false;
  bool burn = false;
  int64_t mana = 0, gold = 0, initiative = 0;
  bool any() const { return has_burn || has_mana || has_gold || has_initiative; }
};

struct Step {  // core.Step and the handler's compiled parameters
  int kind = 0;
  int uid = 0;
  int8_t intent = 0;  // intent.step_intent of its kind (and modifier): +1 helps, -1 harms
  bool has_targets = false;      // Step.targets: a chosen target's candidates (agents' preview)
  bool targets_champs = false;   // ... and they are Champions
  bool champion_param = false;   // its raw parameters name a 'champion'
  bool has_select = false;
  bool may_fail = true;
  bool has_exists = false;
  bool has_options = false;  // choose_target with pick 'choose' (Step.options)
  std::string aim_side = "any";
  // parameters
  Amount amt;
  int player = PR_SELF;
  bool others = false, up_to = false, optional = false;
  int64_t count = 1, take = 0;
  int rest = 0;  // look: 0 top, 1 discard, 2 bottom, 3 choose_bottom
  std::unique_ptr<HexSel> hs;
  std::unique_ptr<ChampSel> cs;
  std::unique_ptr<BridgeSel> bs;
  std::unique_ptr<HexSel> hs2;
  int tkind = TK_HEX;   // _targeted's decision kind / choose_target's kind
  int64_t stacks = 1, dist = 1;
  int unit = 0;         // move: 0 stack, 1 force, 2 champion
  bool ign = false, stop = false;
  int as_name = -1;
  bool temporary = false;
  int side = 0;         // destroy_forces: 0 enemy, 1 any, 2 friendly, 3 mover
  bool to_hand = false;  // remove_champion / gain_card / take_card
  int64_t factor = 1, mine_n = 0, mine_max = 7, reveal = 3;
  std::string age = "current";
  bool source_power = false;
  bool pick_random = false;
  Overrides over;
  std::vector<std::pair<std::string, std::vector<Step*>>> options;  // choose_one
  std::unique_ptr<Cond> cond;
  std::vector<Step*> then_, else_, sub;
  struct Outcome {
    int64_t lo, hi;
    std::vector<Step*> steps;
  };
  std::vector<Outcome> outcomes;
  std::unique_ptr<ModDef> mod;
  int duration = 0, limit = L_UNLIMITED, event = -1, target = -1;
  int64_t add = 0, maxv = 0;
  bool has_max = false;
  double chance = 0.5;
  bool killed_champion = false;
  int from_key = 0;  // take_card: which event key names the player (0 victim 1 killer 2 enemy)
  CardFilter filter;
};

// declare.target_check: 0 None (no look-ahead), 1 CHEAP, 2 PROBE
inline int target_check(const std::vector<Step*>& steps, size_t from = 0) {
  for (size_t idx = from; idx < steps.size(); ++idx) {
    const Step* st = steps[idx];
    if (st->kind == S_CHOOSE_TARGET) {
      if (st->has_options) return target_check(steps, idx + 1) ? 2 : 1;
      if (st->may_fail) return 1;
      continue;
    }
    if (st->kind == S_CHOOSE_ONE) {
      bool any_none = false, any_probe = false;
      for (auto& o : st->options) {
        int k = target_check(o.second);
        any_none = any_none || k == 0;
        any_probe = any_probe || k == 2;
      }
      if (any_none) return 0;
      return any_probe ? 2 : 1;
    }
    return (st->has_select && st->may_fail) ? 1 : 0;
  }
  return 0;
}

// ---- cards, factions, ruleset (ruleset.py) ---------------------------------------------------
// intent.target_intent's votes: each raw step of an effect (at any depth) as (its
// step_intent, the ref names it uses outside nested 'steps'), in the raw tree's order
struct Votes {
  std::vector<std::pair<int8_t, std::vector<int>>> v;
};

struct CardDef {
  int idx = 0;
  int id_rank = 0;  // its place among the definitions sorted by card id (the deals' order)
  std::string id, name, deck, age, type, category;
  Votes effect_votes, ability_votes;  // raw effect; the Champion's abilities' steps
  int64_t mana = 0, gold = 0, copies = 1, vp = 0;
  bool burn = false;
  int64_t init[2] = {0, 0};
  bool is_champion = false, simple = false;
  std::unique_ptr<Cond> requires;
  std::vector<Step*> effect;
  int check = 0;       // target_check: 0 None, 1 CHEAP, 2 PROBE
  bool quick = false;  // quick_check: effect[0].exists decides the look-ahead
  std::vector<Ability*> triggers;
  std::vector<Ability*> abilities;
  // champion
  int64_t bounty = 0, dice = 0, hit = 0, hp = 0;
  std::vector<int64_t> champ_gold;
};

struct Faction {
  std::string id, name, spell, champion;
  std::vector<Ability*> passives;
};

struct Age {
  std::string numeral, market_deck, power_deck;
  std::vector<int64_t> rounds;
  std::vector<std::pair<std::string, int64_t>> preview;
};

struct Rules {
  std::vector<std::unique_ptr<CardDef>> cards;
  std::map<std::string, CardDef*> by_id;
  std::vector<std::unique_ptr<Faction>> factions_own;
  std::map<std::string, Faction*> factions;
  std::string default_faction;
  J game;  // the constants
  std::vector<Age> ages;
  std::map<std::string, std::string> deck_kind;  // deck id -> kind
  std::vector<std::unique_ptr<Step>> steps_own;
  std::vector<Step*> by_uid;  // uid -> step (uid 0 unused)
  std::vector<std::unique_ptr<Ability>> abilities_own;
  std::vector<std::string> names;  // interned ref names
  std::map<std::string, int> name_ids;
  // constants read all the time (Ruleset._constants)
  int64_t bridge_gold = 0, march_gold = 0;
  int64_t hand_size = 0, hand_limit = 0, champion_limit = 0, bridge_mana = 0, march_mana = 0,
          march_distance = 0, reinforce_mana = 0, reinforce_gold = 0, reinforce_forces = 0;
  int64_t base_income = 0, max_mana = 0, start_gold = 0, start_forces = 0, bridge_reach = 0,
          start_bridges = 0, free_card_reveal = 0, vp_to_win = 0, round_cap = 0;
  int64_t force_dice = 0, force_hit = 0;
  int64_t min_pass_bid = 0, min_buy_bid = 0, mine_draft_reveal = 0, forge_draft_reveal = 0,
          power_pick_reveal = 0;
  int64_t cvp_center = 0, cvp_forge = 0, cvp_enemy_capital = 0;
  std::vector<std::string> tie_breakers;
  std::map<std::string, std::vector<CardDef*>> deck_copies;

  int intern(const std::string& s) {
    auto it = name_ids.find(s);
    if (it != name_ids.end()) return it->second;
    int k = (int)names.size();
    names.push_back(s);
    name_ids[s] = k;
    return k;
  }
  const Age& age_info(const std::string& numeral) const {
    for (auto& a : ages)
      if (a.numeral == numeral) return a;
    throw std::runtime_error("unknown age " + numeral);
  }
  const Age* age_of_round(int64_t r) const {  // {round: numeral}: a later Age wins
    const Age* got = nullptr;
    for (auto& a : ages)
      for (auto x : a.rounds)
        if (x == r) got = &a;
    return got;
  }
};

}  // namespace tn
