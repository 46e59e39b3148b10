// Reading the compiled ruleset into the definitions of defs.h (ruleset.py, the step
// factories of steps_*.py, select.py, conds.py, mods.py). Anything this reader does not know
// raises Unsupported: the caller then plays the game with the Python engine.
#pragma once
#include "defs.h"

namespace tn {

struct Loader {
  Rules& R;
  int uid = 0;

  [[noreturn]] static void unsupported(const std::string& what) { throw Unsupported(what); }

  static bool truthy(const J* v) { return v && v->truthy(); }
  static const J* nonnull(const J& d, const char* k) {
    const J* v = d.get(k);
    return (v && !v->is_null()) ? v : nullptr;
  }
  static bool get_bool(const J& d, const char* k, bool dflt) {
    const J* v = nonnull(d, k);
    return v ? v->truthy() : dflt;
  }
  static int64_t get_int(const J& d, const char* k, int64_t dflt) {
    const J* v = nonnull(d, k);
    return v ? v->num() : dflt;
  }
  static std::string get_str(const J& d, const char* k, const std::string& dflt) {
    const J* v = nonnull(d, k);
    return v ? v->s : dflt;
  }

  Amount amount(const J& spec) {
    Amount a;
    if (spec.t == J::BOOL) unsupported("bad amount");
    if (spec.t == J::INT) { a.kind = Amount::CONST; a.value = spec.i; return a; }
    if (spec.t == J::STR && spec.s == "all") { a.kind = Amount::ALL; return a; }
    if (!spec.is_obj()) unsupported("bad amount");
    static const char* const OF[] = {"cards_in_hand", "cards_played_this_round", "last_count",
                                     "card_counter", "champions_in_play"};
    a.kind = Amount::OF;
    a.of = find_name(OF, 5, spec.at("of").s);
    if (a.of < 0) unsupported("amount of " + spec.at("of").s);
    a.times = get_int(spec, "times", 1);
    a.plus = get_int(spec, "plus", 0);
    if (nonnull(spec, "max")) { a.has_max = true; a.maxv = spec.at("max").num(); }
    return a;
  }

  static unsigned kind_bits(const J& list) {
    static const char* const KINDS[] = {"capital", "center", "forge", "mine", "plain"};
    unsigned bits = 0;
    for (auto& k : list.a) {
      int i = find_name(KINDS, 5, k.s);
      if (i < 0) unsupported("tile kind " + k.s);
      bits |= 1u << i;
    }
    return bits;
  }

  Within within(const J& spec) {
    static const char* const OF[] = {"your_capital", "your_champion", "your_units",
                                     "your_forces", "this", "ref"};
    Within w;
    w.d = spec.at("distance").num();
    const J* lo = nonnull(spec, "min_distance");
    w.lo = lo ? lo->num() : 0;
    w.of = find_name(OF, 6, spec.at("of").s);
    if (w.of < 0) unsupported("within.of " + spec.at("of").s);
    const J* r = nonnull(spec, "ref");
    w.ref = r ? R.intern(r->s) : -1;
    return w;
  }

  static int pick_of(const J& spec) {
    std::string pk = get_str(spec, "pick", "choose");
    if (pk == "choose") return PK_CHOOSE;
    if (pk == "all") return PK_ALL;
    if (pk == "random") return PK_RANDOM;
    unsupported("pick " + pk);
  }

  std::unique_ptr<HexSel> hexsel(const J& spec, bool deploy = false) {
    static const char* const KEYS[] = {"ref", "this", "own_capital", "enemy_capital",
                                       "not_capital", "anywhere", "kind", "occupied_by",
                                       "contains", "within", "adjacent_to_capital", "pick",
                                       "any_of", "event_hex"};
    if (!spec.is_obj()) unsupported("hex selector");
    for (auto& kv : spec.o)
      if (find_name(KEYS, 14, kv.first) < 0) unsupported("hex key " + kv.first);
    auto h = std::make_unique<HexSel>();
    h->pick = pick_of(spec);
    if (const J* anys = spec.get("any_of"))
      for (auto& x : anys->a) h->subs.push_back(hexsel(x, deploy));
    // _hex_base: (base, the key it already enforces)
    std::string used;
    const J* occ = nonnull(spec, "occupied_by");
    const J* contains = nonnull(spec, "contains");
    if (spec.has("ref")) {
      h->base = HB_REF;
      h->ref = R.intern(spec.at("ref").s);
    } else if (truthy(spec.get("this"))) {
      h->base = HB_THIS; used = "this";
    } else if (truthy(spec.get("event_hex"))) {
      h->base = HB_EVENT_HEX; used = "event_hex";
    } else if (truthy(spec.get("own_capital"))) {
      h->base = deploy ? HB_DEPLOY_ANCHORS : HB_OWN_CAPITAL;
    } else if (truthy(spec.get("enemy_capital"))) {
      h->base = HB_ENEMY_CAPITAL;
    } else if (occ && occ->s == "you") {
      h->base = HB_OCC_YOU; used = "occupied_by";
    } else if (occ && (occ->s == "enemy" || occ->s == "anyone")) {
      h->base = HB_OCC_UNION; h->base_union_mine = occ->s == "anyone"; used = "occupied_by";
    } else if (truthy(spec.get("any_of"))) {
      h->base = HB_EMPTY;
    } else if (spec.has("kind")) {
      h->base = HB_KIND; h->kinds = kind_bits(spec.at("kind")); used = "kind";
    } else if (spec.has("within")) {
      h->base = HB_WITHIN; h->within = within(spec.at("within")); used = "within";
    } else if (contains && (contains->s == "friendly_forces" || contains->s == "friendly_champion")) {
      h->base = HB_OWN_OCCUPIED;
    } else {
      h->base = HB_ALL;
    }
    if (!h->subs.empty()) used.clear();
    // _hex_preds over the keys but `used`
    auto keep = [&](const char* k) { return used != k; };
    if (keep("this") && truthy(spec.get("this"))) h->preds.push_back(HP_THIS);
    if (keep("event_hex") && truthy(spec.get("event_hex"))) h->preds.push_back(HP_EVENT_HEX);
    if (truthy(spec.get("not_capital"))) h->preds.push_back(HP_NOT_CAPITAL);
    if (keep("kind") && spec.has("kind")) {
      h->preds.push_back(HP_KIND);
      h->kinds = kind_bits(spec.at("kind"));
    }
    if (keep("occupied_by") && spec.has("occupied_by")) {
      static const char* const OCC[] = {"you", "enemy", "nobody", "anyone", "not_you"};
      h->occ = find_name(OCC, 5, spec.at("occupied_by").s);
      if (h->occ < 0) unsupported("occupied_by");
      h->preds.push_back(HP_OCC);
    }
    if (spec.has("contains")) {
      static const char* const CT[] = {"friendly_champion", "enemy_champion", "champion",
                                       "friendly_forces"};
      h->contains = find_name(CT, 4, spec.at("contains").s);
      if (h->contains < 0) unsupported("contains");
      h->preds.push_back(HP_CONTAINS);
    }
    if (keep("within") && spec.has("within")) {
      h->within = within(spec.at("within"));
      h->preds.push_back(HP_WITHIN);
    }
    if (truthy(spec.get("adjacent_to_capital"))) h->preds.push_back(HP_ADJ_CAPITAL);
    // never_empty: your Capital (or a deploy anchor) always exists
    size_t keys = 0;
    bool only_cap = true, only_any = true;
    for (auto& kv : spec.o) {
      if (kv.first == "pick") continue;
      keys++;
      if (kv.first != "own_capital") only_cap = false;
      if (kv.first != "any_of") only_any = false;
    }
    bool any_sub = false;
    for (auto& s : h->subs) any_sub = any_sub || s->never_empty;
    h->never_empty = (keys == 1 && only_cap && truthy(spec.get("own_capital"))) ||
                     (keys == 1 && only_any && any_sub);
    return h;
  }

  std::unique_ptr<ChampSel> champsel(const J& spec) {
    static const char* const KEYS[] = {"ref", "this", "side", "within", "in", "pick",
                                       "exclude_this"};
    if (!spec.is_obj()) unsupported("champion selector");
    for (auto& kv : spec.o)
      if (find_name(KEYS, 7, kv.first) < 0) unsupported("champion key " + kv.first);
    auto c = std::make_unique<ChampSel>();
    c->pick = pick_of(spec);
    if (spec.has("in")) c->hexsel = hexsel(spec.at("in"));
    if (spec.has("within")) { c->has_within = true; c->within = within(spec.at("within")); }
    std::string side = get_str(spec, "side", "any");
    c->side = side == "friendly" ? 1 : side == "enemy" ? 2 : 0;
    c->exclude_this = truthy(spec.get("exclude_this"));
    if (spec.has("ref")) { c->pool = 1; c->ref = R.intern(spec.at("ref").s); }
    else if (truthy(spec.get("this"))) c->pool = 2;
    return c;
  }

  std::unique_ptr<BridgeSel> bridgesel(const J& spec, bool build) {
    static const char* const KEYS[] = {"ref", "touching", "anywhere"};
    if (!spec.is_obj()) unsupported("bridge selector");
    for (auto& kv : spec.o)
      if (find_name(KEYS, 3, kv.first) < 0) unsupported("bridge key " + kv.first);
    auto b = std::make_unique<BridgeSel>();
    b->build = build;
    if (spec.has("touching")) b->touching = hexsel(spec.at("touching"));
    if (spec.has("ref")) { b->has_ref = true; b->ref = R.intern(spec.at("ref").s); }
    // a free edge touching a hex you occupy: exactly {"touching": {"occupied_by": "you"}}
    if (build && spec.o.size() == 1 && spec.o[0].first == "touching") {
      const J& t = spec.o[0].second;
      b->basic = t.is_obj() && t.o.size() == 1 && t.o[0].first == "occupied_by" &&
                 t.o[0].second.is_str() && t.o[0].second.s == "you";
    }
    return b;
  }

  static void range(CondItem& it, const J& spec) {
    const J* lo = nonnull(spec, "min");
    const J* hi = nonnull(spec, "max");
    if (lo) { it.has_lo = true; it.lo = lo->num(); }
    if (hi) { it.has_hi = true; it.hi = hi->num(); }
  }

  std::unique_ptr<Cond> cond(const J* spec) {
    auto c = std::make_unique<Cond>();
    if (!spec || !spec->truthy()) return c;  // condition(None) / {}: always true
    if (!spec->is_obj()) unsupported("condition");
    for (auto& kv : spec->o) {
      CondItem it;
      it.key = find_name(COND_NAMES, C_COUNT, kv.first);
      const J& v = kv.second;
      switch (it.key) {
        case C_OCCUPIES: case C_BATTLE_IN: it.hs = hexsel(v); break;
        case C_TARGET_IN:
          it.name = R.intern(v.at("target").s);
          it.hs = hexsel(v.at("hex"));
          break;
        case C_ADJ_OCCUPIED:
          it.name = R.intern(v.at("target").s);
          it.need = v.at("min").num();
          break;
        case C_HAND_SIZE: case C_DRAW_PILE_SIZE: case C_CHAMPIONS_IN_PLAY: case C_MANA:
        case C_LAST_COUNT: case C_COMBAT_ROUND:
          range(it, v);
          break;
        case C_LAST_DRAWN_TYPE: case C_VICTIM_SIDE:
          if (v.is_null()) it.str_null = true;
          else if (v.is_str()) it.str = v.s;
          else unsupported("condition value");
          break;
        case C_ALL: case C_ANY:
          for (auto& x : v.a) it.subs.push_back(cond(&x));
          break;
        case C_NOT: it.subs.push_back(cond(&v)); break;
        case -1: unsupported("condition " + kv.first);
        default: it.want = v.truthy(); break;
      }
      c->items.push_back(std::move(it));
    }
    return c;
  }

  static bool mentions(const J& v, const std::string& word) {
    std::string text;
    put_json(text, v);
    return text.find(word) != std::string::npos;
  }

  CardFilter filter(const J& f) {
    CardFilter cf;
    if (nonnull(f, "type")) { cf.has_type = true; cf.type = f.at("type").s; }
    if (nonnull(f, "mana")) { cf.has_mana = true; cf.mana = f.at("mana").num(); }
    if (nonnull(f, "deck")) { cf.has_deck = true; cf.deck = f.at("deck").s; }
    cf.exclude_this = truthy(f.get("exclude_this"));
    return cf;
  }

  std::unique_ptr<ModDef> moddef(const J& spec) {
    auto m = std::make_unique<ModDef>();
    m->kind = find_name(MOD_NAMES, M_COUNT, spec.at("modifier").s);
    if (m->kind < 0) unsupported("modifier " + spec.at("modifier").s);
    static const char* const UNITS[] = {"", "all", "forces", "champions", "this", "target",
                                        "enemy_forces", "enemy_champions"};
    const J* u = nonnull(spec, "units");
    if (u) {
      m->units = find_name(UNITS, 8, u->s);
      if (m->units <= 0) m->units = u->s.empty() ? U_NONE : U_OTHER;
    }
    m->when = cond(spec.get("when"));
    const J* when = spec.get("when");
    m->reads_alone = when && mentions(*when, "moving_alone");
    const J* sel = nonnull(spec, "hex");
    if (!sel || !sel->truthy()) sel = nonnull(spec, "where");
    if (sel && sel->is_obj()) m->hexsel = hexsel(*sel);
    if (spec.has("amount")) {
      m->has_amount = true;
      m->amount = amount(spec.at("amount"));
      if (spec.at("amount").is_int()) m->raw_amount = spec.at("amount").i;
    }
    if (spec.has("bridge")) m->bridge = bridgesel(spec.at("bridge"), false);
    if (spec.has("a")) m->a = hexsel(spec.at("a"));
    if (spec.has("b")) m->b = hexsel(spec.at("b"));
    m->value = get_int(spec, "value", 0);
    if (const J* by = spec.get("by"))
      for (auto& x : by->a) m->by.push_back(x.s);
    m->gold = get_int(spec, "gold", 0);
    if (nonnull(spec, "count")) { m->has_count = true; m->count = spec.at("count").num(); }
    if (m->kind == M_CONTROL_VP) {
      std::string k = spec.at("kind").s;
      m->vp_kind = k == "center" ? 0 : k == "forge" ? 1 : k == "enemy_capital" ? 2 : -1;
      if (m->vp_kind < 0) unsupported("control_vp kind " + k);
    }
    if (spec.has("applies_to")) m->applies_to = filter(spec.at("applies_to"));
    if (nonnull(spec, "mana")) { m->has_mana = true; m->mana = spec.at("mana").num(); }
    if (nonnull(spec, "gold") && m->kind == M_COST_OVERRIDE) {
      m->has_gold = true;
      m->gold_cost = spec.at("gold").num();
    }
    m->uses = get_int(spec, "uses", 1);
    return m;
  }

  static int limit_of(const std::string& s) {
    if (s.empty() || s == "unlimited") return L_UNLIMITED;
    if (s == "once_per_round") return L_ONCE_PER_ROUND;
    if (s == "once_per_battle") return L_ONCE_PER_BATTLE;
    if (s == "once") return L_ONCE;
    unsupported("limit " + s);
  }

  Ability* ability(const J& spec) {
    auto a = std::make_unique<Ability>();
    a->name = get_str(spec, "name", "");
    a->limit = limit_of(get_str(spec, "limit", ""));
    const J* mod = spec.get("modifier");
    if (mod && mod->truthy()) a->mod = moddef(*mod);
    const J* ev = nonnull(spec, "trigger");
    if (ev) {
      a->event = find_name(EV_NAMES, E_COUNT, ev->s);
      if (a->event < 0) unsupported("event " + ev->s);
    }
    a->cond = cond(spec.get("condition"));
    const J* st = nonnull(spec, "steps");
    if (st) a->steps = steps(*st);
    Ability* out = a.get();
    R.abilities_own.push_back(std::move(a));
    return out;
  }

  std::vector<Step*> steps(const J& raw) {
    std::vector<Step*> out;
    if (raw.is_null()) return out;
    for (auto& d : raw.a) {
      Step* s = step(d);
      s->uid = ++uid;
      if ((int)R.by_uid.size() <= s->uid) R.by_uid.resize(s->uid + 1, nullptr);
      R.by_uid[s->uid] = s;
      out.push_back(s);
    }
    return out;
  }

  static int player_of(const std::string& s) {
    static const char* const P[] = {"self", "chosen_opponent", "each_opponent", "owner",
                                    "killer", "battle_enemy", "victim"};
    int k = find_name(P, 7, s);
    if (k < 0) unsupported("player " + s);
    return k;
  }

  // _targeted: a step that picks targets with one selector, then applies to each
  void targeted(Step* s, const J& d, bool champ_sel) {
    s->optional = get_bool(d, "optional", false);
    s->has_select = true;
    int pick = champ_sel ? s->cs->pick : s->hs->pick;
    s->has_targets = pick == PK_CHOOSE;
    s->targets_champs = champ_sel;
    bool never_empty = champ_sel ? false : s->hs->never_empty;
    s->may_fail = !s->optional && pick == PK_CHOOSE && !never_empty;
    s->has_exists = s->may_fail;
  }

  // intent.step_intent: +1 if a step of this kind helps its target, -1 if it harms it
  static int8_t step_intent(const J& d) {
    static const char* const HOSTILE[] = {"damage", "destroy_forces", "remove_champion",
                                          "steal_gold", "lose_gold", "destroy_bridge", "scatter",
                                          "discard"};
    static const char* const FRIENDLY[] = {"heal", "multiply_hp", "gain_gold", "gain_mana",
                                           "deploy", "draw", "deploy_champion", "build_bridge",
                                           "mine_value", "relocate"};
    static const char* const HOSTILE_MODS[] = {"set_dice", "block_bridge", "retreat_from_battle"};
    static const char* const FRIENDLY_MODS[] = {"extra_dice", "untargetable",
                                                "prevent_damage_for_gold", "extra_move",
                                                "ignore_bridges"};
    const J* k = d.get("step");
    std::string kind = k && k->is_str() ? k->s : "";
    if (find_name(HOSTILE, 8, kind) >= 0) return -1;
    if (find_name(FRIENDLY, 10, kind) >= 0) return 1;
    if (kind == "add_modifier") {
      const J* m = d.get("modifier");
      const J* name = m && m->is_obj() ? m->get("modifier") : nullptr;
      std::string mod = name && name->is_str() ? name->s : "";
      if (find_name(HOSTILE_MODS, 3, mod) >= 0) return -1;
      if (find_name(FRIENDLY_MODS, 5, mod) >= 0) return 1;
    }
    return 0;
  }
  // intent.uses: the ref names a raw node uses ({"ref": name}), not under a 'steps' key
  void uses(const J& node, std::vector<int>& out) {
    if (node.is_obj()) {
      const J* r = node.get("ref");
      if (r && r->is_str()) out.push_back(R.intern(r->s));
      for (auto& kv : node.o)
        if (kv.first != "steps") uses(kv.second, out);
    } else if (node.t == J::ARR) {
      for (auto& v : node.a) uses(v, out);
    }
  }
  // intent.steps: every raw step dict of a tree (nested ones too), with its vote
  void votes(const J& node, Votes& out) {
    if (node.is_obj()) {
      if (node.has("step")) {
        std::vector<int> names;
        uses(node, names);
        out.v.emplace_back(step_intent(node), names);
      }
      for (auto& kv : node.o) votes(kv.second, out);
    } else if (node.t == J::ARR) {
      for (auto& v : node.a) votes(v, out);
    }
  }

  Step* step(const J& d) {
    auto owned = std::make_unique<Step>();
    Step* s = owned.get();
    R.steps_own.push_back(std::move(owned));
    std::string kind = d.at("step").s;
    s->kind = find_name(STEP_NAMES, S_COUNT, kind);
    if (s->kind < 0) unsupported("step " + kind);
    s->intent = step_intent(d);
    s->champion_param = d.has("champion");
    // the side an 'aim' log line names: (params.champion or params.hex or {}).side
    const J* aim = d.get("champion");
    if (!truthy(aim)) aim = d.get("hex");
    if (truthy(aim) && aim->is_obj()) s->aim_side = get_str(*aim, "side", "any");
    switch (s->kind) {
      case S_NOOP: break;
      case S_GAIN_GOLD: case S_LOSE_GOLD: case S_SET_MANA:
        s->amt = amount(d.at("amount"));
        s->player = player_of(get_str(d, "player", "self"));
        s->has_select = true;
        s->may_fail = false;
        break;
      case S_STEAL_GOLD:
        s->amt = amount(d.at("amount"));
        s->player = player_of(d.at("from").s);
        s->has_select = true;
        s->may_fail = false;
        break;
      case S_GAIN_MANA: case S_GAIN_VP: s->amt = amount(d.at("amount")); break;
      case S_DRAW:
        s->amt = amount(d.at("count"));
        s->others = get_str(d, "player", "self") == "others";
        break;
      case S_DISCARD: case S_SCRAP: case S_PUT_ON_TOP:
        s->amt = amount(d.at("count"));
        s->up_to = get_bool(d, "up_to", false);
        break;
      case S_LOOK: {
        s->count = d.at("count").num();
        s->take = get_int(d, "take", 0);
        std::string rest = get_str(d, "rest", "top");
        s->rest = rest == "discard" ? 1 : rest == "bottom" ? 2 : rest == "choose_bottom" ? 3 : 0;
        break;
      }
      case S_DEPLOY:
        s->amt = amount(d.at("count"));
        s->hs = hexsel(d.at("where"), true);
        s->tkind = TK_HEX;
        targeted(s, d, false);
        break;
      case S_DEPLOY_CHAMPION:
        s->hs = hexsel(d.at("where"), true);
        s->tkind = TK_HEX;
        targeted(s, d, false);
        break;
      case S_SUMMON:
        s->filter = filter(d.at("pool"));
        s->hs = hexsel(d.at("where"), true);
        s->pick_random = get_str(d, "pick", "random") == "random";
        s->has_select = true;
        s->may_fail = !s->hs->never_empty;
        break;
      case S_MOVE: {
        s->stacks = get_int(d, "stacks", 1);
        s->dist = d.at("distance").num();
        std::string unit = get_str(d, "unit", "stack");
        s->unit = unit == "stack" ? 0 : unit == "force" ? 1 : unit == "champion" ? 2 : -1;
        if (s->unit < 0) unsupported("move unit " + unit);
        s->ign = get_bool(d, "ignore_bridges", false);
        s->stop = get_bool(d, "stop_on_occupied", false);
        const J* as = nonnull(d, "as");
        s->as_name = (as && as->truthy()) ? R.intern(as->s) : -1;
        s->optional = get_bool(d, "optional", false);
        s->has_select = true;
        s->may_fail = !s->optional;
        s->has_exists = true;
        break;
      }
      case S_RELOCATE:
        s->cs = champsel(d.at("champion"));
        s->hs2 = hexsel(d.at("to"));
        s->optional = get_bool(d, "optional", false);
        s->has_select = true;
        s->may_fail = !s->optional;
        break;
      case S_BUILD_BRIDGE: case S_DESTROY_BRIDGE:
        s->bs = bridgesel(d.at("where"), s->kind == S_BUILD_BRIDGE);
        s->count = get_int(d, "count", 1);
        s->temporary = get_bool(d, "temporary", false);
        s->optional = get_bool(d, "optional", false);
        s->has_select = true;
        s->may_fail = !s->optional;
        s->has_exists = true;
        break;
      case S_HEAL: case S_DAMAGE:
        s->amt = amount(d.at("amount"));
        s->cs = champsel(d.at("champion"));
        s->tkind = TK_CHAMPION;
        targeted(s, d, true);
        break;
      case S_DESTROY_FORCES: {
        s->amt = amount(d.at("count"));
        std::string side = get_str(d, "side", "enemy");
        s->side = side == "enemy" ? 0 : side == "any" ? 1 : side == "friendly" ? 2
                  : side == "mover" ? 3 : -1;
        if (s->side < 0) unsupported("destroy_forces side " + side);
        s->hs = hexsel(d.at("hex"));
        s->tkind = TK_HEX;
        targeted(s, d, false);
        break;
      }
      case S_REMOVE_CHAMPION:
        s->to_hand = get_str(d, "to", "burn_pile") == "hand";
        s->cs = champsel(d.at("champion"));
        s->tkind = TK_CHAMPION;
        targeted(s, d, true);
        break;
      case S_MULTIPLY_HP:
        s->factor = d.at("factor").num();
        s->cs = champsel(d.at("champion"));
        s->tkind = TK_CHAMPION;
        targeted(s, d, true);
        break;
      case S_MINE_VALUE:
        s->mine_n = d.at("amount").num();
        s->mine_max = get_int(d, "max", 7);
        s->hs = hexsel(d.at("hex"));
        s->tkind = TK_HEX;
        targeted(s, d, false);
        break;
      case S_FORGE_DRAFT:
        s->reveal = get_int(d, "reveal", 3);
        s->age = get_str(d, "age", "current");
        break;
      case S_GAIN_CARD: {
        s->source_power = d.at("source").s == "power";
        s->age = get_str(d, "age", "current");
        s->count = get_int(d, "count", 1);
        s->pick_random = get_str(d, "pick", "random") == "random";
        s->to_hand = get_str(d, "to", "hand") == "hand";
        if (const J* ov = nonnull(d, "overrides")) {
          for (auto& kv : ov->o) {
            if (kv.first == "burn") { s->over.has_burn = true; s->over.burn = kv.second.truthy(); }
            else if (kv.first == "mana") { s->over.has_mana = true; s->over.mana = kv.second.num(); }
            else if (kv.first == "gold") { s->over.has_gold = true; s->over.gold = kv.second.num(); }
            else if (kv.first == "initiative") {
              s->over.has_initiative = true;
              s->over.initiative = kv.second.num();
            } else unsupported("override " + kv.first);
          }
        }
        break;
      }
      case S_CHOOSE_TARGET: {
        s->as_name = R.intern(d.at("as").s);
        int pick = PK_CHOOSE;
        bool has_sel = true;
        if (nonnull(d, "hex")) {
          s->hs = hexsel(d.at("hex")); s->tkind = TK_HEX; pick = s->hs->pick;
        } else if (nonnull(d, "champion")) {
          s->cs = champsel(d.at("champion")); s->tkind = TK_CHAMPION; pick = s->cs->pick;
        } else if (nonnull(d, "bridge")) {
          s->bs = bridgesel(d.at("bridge"), false); s->tkind = TK_BRIDGE; pick = s->bs->pick;
        } else {
          has_sel = false;
          s->tkind = TK_PLAYER;
          s->player = player_of(get_str(d, "player", "chosen_opponent"));
        }
        s->has_select = true;
        s->has_options = has_sel && pick == PK_CHOOSE;
        s->has_targets = s->has_options;
        s->targets_champs = s->tkind == TK_CHAMPION;
        s->may_fail = s->has_options || (has_sel && pick == PK_ALL);
        s->has_exists = s->may_fail;
        s->pick_random = has_sel && pick == PK_RANDOM;
        break;
      }
      case S_CHOOSE_ONE:
        for (auto& o : d.at("options").a) {
          R.intern(o.at("label").s);
          s->options.emplace_back(o.at("label").s, steps(o.at("steps")));
        }
        s->has_select = true;
        break;
      case S_IF:
        s->cond = cond(d.get("condition"));
        s->then_ = steps(d.at("then"));
        if (const J* e = nonnull(d, "else")) s->else_ = steps(*e);
        break;
      case S_ROLL:
        for (auto& o : d.at("outcomes").a) {
          const J& f = o.at("faces");
          s->outcomes.push_back({f.a.at(0).num(), f.a.at(1).num(), steps(o.at("steps"))});
        }
        break;
      case S_REPEAT:
        s->amt = amount(d.at("times"));
        s->sub = steps(d.at("steps"));
        break;
      case S_ADD_MODIFIER: case S_ADD_TRIGGER: {
        s->duration = find_name(DURATION_NAMES, 5, d.at("duration").s);
        if (s->duration < 0) unsupported("duration " + d.at("duration").s);
        const J* t = nonnull(d, "target");
        s->target = (t && t->truthy()) ? R.intern(t->s) : -1;
        if (s->kind == S_ADD_MODIFIER) {
          s->mod = moddef(d.at("modifier"));
        } else {
          s->cond = cond(d.get("condition"));
          s->sub = steps(d.at("steps"));
          s->event = find_name(EV_NAMES, E_COUNT, d.at("trigger").s);
          if (s->event < 0) unsupported("event " + d.at("trigger").s);
          s->limit = limit_of(d.at("limit").s);
        }
        break;
      }
      case S_CARD_COUNTER:
        s->add = d.at("add").num();
        if (nonnull(d, "max")) { s->has_max = true; s->maxv = d.at("max").num(); }
        break;
      case S_SCATTER:
        s->hs = hexsel(d.at("hex"));
        s->chance = nonnull(d, "center_chance") ? d.at("center_chance").dbl() : 0.5;
        s->as_name = R.intern(d.at("as").s);
        s->has_select = true;
        s->may_fail = s->hs->pick == PK_CHOOSE && !s->hs->never_empty;
        break;
      case S_TAKE_CARD: {
        s->killed_champion = d.at("card").s == "killed_champion";
        std::string src = get_str(d, "from", "victim");
        s->from_key = src == "killer" ? 1 : src == "battle_enemy" ? 2 : 0;
        s->to_hand = get_str(d, "to", "draw_pile") == "hand";
        break;
      }
      default: unsupported("step " + kind);
    }
    return s;
  }

  void load(const J& cards, const J& game, const J& factions) {
    const J& consts = game.at("constants");
    R.game = consts;
    for (auto& c : cards.at("cards").a) {
      auto d = std::make_unique<CardDef>();
      d->idx = (int)R.cards.size();
      d->id = c.at("id").s;
      d->name = get_str(c, "name", d->id);
      d->deck = get_str(c, "deck", "");
      d->age = get_str(c, "age", "");
      d->type = c.at("type").s;
      d->category = get_str(c, "category", "");
      if (const J* ef = nonnull(c, "effect")) votes(*ef, d->effect_votes);
      d->mana = get_int(c, "mana", 0);
      d->gold = get_int(c, "gold", 0);
      d->copies = get_int(c, "copies", 1);
      d->vp = get_int(c, "vp", 0);
      d->burn = get_bool(c, "burn", false);
      d->init[0] = c.at("initiative").a.at(0).num();
      d->init[1] = c.at("initiative").a.at(1).num();
      d->is_champion = d->type == "champion";
      const J* req = nonnull(c, "requires");
      bool has_req = req && req->truthy();
      d->simple = !d->is_champion && !has_req;
      if (has_req) d->requires = cond(req);
      d->effect = steps(c.at("effect"));
      if (const J* tr = nonnull(c, "triggers"))
        for (auto& a : tr->a) d->triggers.push_back(ability(a));
      const J* ch = nonnull(c, "champion");
      if (ch && ch->truthy()) {
        if (const J* ab = nonnull(*ch, "abilities"))
          for (auto& a : ab->a) {
            d->abilities.push_back(ability(a));
            if (const J* st = a.get("steps")) votes(*st, d->ability_votes);
          }
        d->bounty = get_int(*ch, "bounty", 0);
        d->dice = ch->at("dice").num();
        d->hit = ch->at("hit").num();
        d->hp = ch->at("hp").num();
        for (auto& g : ch->at("gold").a) d->champ_gold.push_back(g.num());
      } else if (d->is_champion) {
        unsupported("champion card without champion data");
      }
      R.by_id[d->id] = d.get();
      R.cards.push_back(std::move(d));
    }
    int rank = 0;  // (by_id is a std::map: by card id, as Python sorts the ids)
    for (auto& kv : R.by_id) kv.second->id_rank = rank++;
    for (auto& kv : factions.at("factions").o) {
      auto f = std::make_unique<Faction>();
      f->id = kv.first;
      f->name = get_str(kv.second, "name", kv.first);
      if (const J* ps = nonnull(kv.second, "passives"))
        for (auto& a : ps->a)
          if (!truthy(a.get("idea"))) f->passives.push_back(ability(a));
      f->spell = kv.second.at("spell").s;
      f->champion = kv.second.at("champion").s;
      R.factions[f->id] = f.get();
      R.factions_own.push_back(std::move(f));
    }
    R.default_faction = factions.at("default").s;
    for (auto& a : game.at("ages").a) {
      Age age;
      age.numeral = a.at("numeral").s;
      age.market_deck = a.at("market_deck").s;
      age.power_deck = a.at("power_deck").s;
      for (auto& r : a.at("rounds").a) age.rounds.push_back(r.num());
      if (const J* pv = nonnull(a, "preview"))
        for (auto& kv : pv->o) age.preview.emplace_back(kv.first, kv.second.num());
      R.ages.push_back(age);
    }
    for (auto& kv : game.at("decks").o) R.deck_kind[kv.first] = kv.second.at("kind").s;
    for (auto& c : R.cards)
      for (int64_t k = 0; k < c->copies; ++k) R.deck_copies[c->deck].push_back(c.get());
    for (auto& c : R.cards) finish_card(*c);
    // constants (Ruleset._constants and the numbers the phases read)
    const J& ba = consts.at("basic_actions");
    R.hand_size = consts.at("hand").at("size").num();
    R.hand_limit = consts.at("hand").at("limit").num();
    R.champion_limit = consts.at("champions").at("limit").num();
    R.bridge_mana = ba.at("build_bridge").at("mana").num();
    R.march_mana = ba.at("march").at("mana").num();
    R.bridge_gold = get_int(ba.at("build_bridge"), "gold", 0);
    R.march_gold = get_int(ba.at("march"), "gold", 0);
    R.march_distance = ba.at("march").at("distance").num();
    const J& rf = ba.at("capital_reinforce");
    R.reinforce_mana = rf.at("mana").num();
    R.reinforce_gold = get_int(rf, "gold", 0);
    R.reinforce_forces = rf.at("forces").num();
    const J& res = consts.at("resources");
    R.base_income = res.at("base_income").num();
    R.max_mana = res.at("max_mana").num();
    R.start_gold = res.at("start_gold").num();
    const J& st = consts.at("starting");
    R.start_forces = st.at("forces").num();
    R.bridge_reach = st.at("bridge_reach").num();
    R.start_bridges = st.at("bridges").num();
    R.free_card_reveal = st.at("free_card_reveal").num();
    const J& vic = consts.at("victory");
    R.vp_to_win = vic.at("vp_to_win").num();
    R.round_cap = vic.at("round_cap").num();
    for (auto& t : vic.at("tie_breakers").a) {
      if (t.s != "total_vp" && t.s != "permanent_vp" && t.s != "gold")
        unsupported("tie breaker " + t.s);
      R.tie_breakers.push_back(t.s);
    }
    const J& force = consts.at("units").at("force");
    R.force_dice = force.at("dice").num();
    R.force_hit = force.at("hit").num();
    const J& mk = consts.at("market");
    R.min_pass_bid = mk.at("min_pass_bid").num();
    R.min_buy_bid = mk.at("min_buy_bid").num();
    R.mine_draft_reveal = mk.at("mine_draft_reveal").num();
    R.forge_draft_reveal = mk.at("forge_draft_reveal").num();
    R.power_pick_reveal = mk.at("power_pick_reveal").num();
    const J& cvp = consts.at("scoring").at("control_vp");
    R.cvp_center = cvp.at("center").num();
    R.cvp_forge = cvp.at("forge").num();
    R.cvp_enemy_capital = cvp.at("enemy_capital").num();
  }

  // target_check and quick_check of a card's effect, worked out once (declare.py)
  void finish_card(CardDef& c);
};

inline void Loader::finish_card(CardDef& c) {
  c.check = target_check(c.effect);
  // quick_check: the first step's exists decides a CHEAP look-ahead alone
  const auto& st = c.effect;
  c.quick = false;
  if (st.empty() || !st[0]->has_exists || target_check(st) != 1) return;
  if (st[0]->kind == S_CHOOSE_TARGET && target_check(st, 1) != 0) return;
  if (st[0]->kind != S_CHOOSE_TARGET && !st[0]->may_fail) return;
  c.quick = true;
}

}  // namespace tn
