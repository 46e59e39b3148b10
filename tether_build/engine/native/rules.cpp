// Queries and rules of the Game: selectors, conditions, hooks, cards, units, movement,
// combat, phases, the Market and declaring. Each function follows its Python twin line by
// line (the same draws from the generators, in the same order, and the same log lines).
#include "game.h"

namespace tn {

// ================================ amounts, players, selectors ================================
int64_t Game::amount(const Amount& a, const Ctx& ctx) const {
  if (a.kind == Amount::CONST) return a.value;
  if (a.kind == Amount::ALL) return ALL_COUNT;
  const Player& pl = players[ctx.p];
  int64_t base = 0;
  switch (a.of) {
    case A_CARDS_IN_HAND: base = (int64_t)pl.hand.size(); break;
    case A_PLAYED_THIS_ROUND: base = pl.played_count; break;
    case A_LAST_COUNT: base = ctx.last_count; break;
    case A_CARD_COUNTER: base = ctx.inst ? ctx.inst->counter : 0; break;
    case A_CHAMPIONS_IN_PLAY: base = (int64_t)pl.champions.size(); break;
  }
  int64_t v = base * a.times + a.plus;
  if (a.has_max) v = std::min(v, a.maxv);
  return std::max<int64_t>(0, v);
}

std::vector<int> Game::players_of(int ref, Ctx& ctx, const Step* key) {
  std::vector<int> out;
  switch (ref) {
    case PR_SELF: out.push_back(ctx.p); break;
    case PR_EACH_OPPONENT:
      for (int q = 0; q < P; ++q)
        if (q != ctx.p) out.push_back(q);
      break;
    case PR_OWNER: out.push_back(ctx.champ ? ctx.champ->owner : ctx.p); break;
    case PR_KILLER: if (ctx.event && ctx.event->killer >= 0) out.push_back(ctx.event->killer); break;
    case PR_VICTIM: if (ctx.event && ctx.event->victim >= 0) out.push_back(ctx.event->victim); break;
    case PR_BATTLE_ENEMY:
      if (ctx.event && ctx.event->battle_enemy >= 0) out.push_back(ctx.event->battle_enemy);
      break;
    case PR_CHOSEN_OPPONENT: {
      int me = ctx.p;
      Val v = choose(ctx, key_of(key), "player", [&]() {
        std::vector<Val> o;
        for (int q = 0; q < P; ++q)
          if (q != me) o.push_back(Val::integer(q));
        return o;
      });
      if (v.is_int()) out.push_back((int)v.i);
      break;
    }
  }
  return out;
}

int Game::ref_hex(const Ctx& ctx, int name) const {
  const Val* v = ctx.refs.find(name);
  if (!v || v->t == V_NULL) return -1;
  if (v->is_int()) return (int)v->i;
  if (v->t == V_CHAMP) return on_board(v->c) ? v->c->hex : -1;
  return -1;
}

void Game::within_sources(const Ctx& ctx, const Within& w, std::vector<int>& out) const {
  const Player& pl = players[ctx.p];
  switch (w.of) {
    case W_YOUR_CAPITAL: out.push_back(pl.capital); break;
    case W_YOUR_CHAMPION:
      for (int cid : pl.champions) out.push_back(by_cid[cid]->hex);
      break;
    case W_YOUR_UNITS: out.insert(out.end(), occ[ctx.p].begin(), occ[ctx.p].end()); break;
    case W_YOUR_FORCES:
      for (int h = 0; h < N; ++h)
        if (f(h, ctx.p)) out.push_back(h);
      break;
    case W_THIS:
      if (ctx.champ && on_board(ctx.champ)) out.push_back(ctx.champ->hex);
      break;
    case W_REF: {
      int h = ref_hex(ctx, w.ref);
      if (h >= 0) out.push_back(h);
      break;
    }
  }
}

std::vector<char> Game::within_area(const Ctx& ctx, const Within& w) const {
  std::vector<int> src;
  within_sources(ctx, w, src);
  std::vector<char> area(N, 0);
  for (int s : src)
    for (int x = 0; x < N; ++x)
      if (topo.d(s, x) <= w.d && topo.d(s, x) >= w.lo) area[x] = 1;
  return area;
}

namespace {
struct HexPreds {  // the predicates of one candidates() call, made once (_hex_preds)
  Game& g;
  const HexSel& sel;
  const Ctx& ctx;
  std::vector<char> this_set, area;
  HexPreds(Game& g_, const HexSel& s, const Ctx& c) : g(g_), sel(s), ctx(c) {
    for (int pr : sel.preds) {
      if (pr == HP_THIS) {
        std::vector<int> src;
        Within w;
        w.of = W_THIS;
        g.within_sources(ctx, w, src);
        this_set.assign(g.N, 0);
        for (int h : src) this_set[h] = 1;
      } else if (pr == HP_WITHIN) {
        area = g.within_area(ctx, sel.within);
      }
    }
  }
  bool ok(int h) const {
    int p = ctx.p;
    for (int pr : sel.preds) {
      switch (pr) {
        case HP_THIS: if (!this_set[h]) return false; break;
        case HP_EVENT_HEX:
          if (!(ctx.event && ctx.event->has_hex && ctx.event->hex == h)) return false;
          break;
        case HP_NOT_CAPITAL: if (g.cap_owner[h] >= 0) return false; break;
        case HP_KIND: if (!(sel.kinds & (1u << g.tile[h]))) return false; break;
        case HP_OCC: {
          unsigned o = g.occupants(h);
          bool r = false;
          switch (sel.occ) {
            case OC_YOU: r = g.occupies(p, h); break;
            case OC_ENEMY: r = (o & ~(1u << p)) != 0; break;
            case OC_NOBODY: r = o == 0; break;
            case OC_ANYONE: r = o != 0; break;
            case OC_NOT_YOU: r = !g.occupies(p, h); break;
          }
          if (!r) return false;
          break;
        }
        case HP_CONTAINS: {
          bool r = false;
          const auto& here = g.champs_at[h];
          switch (sel.contains) {
            case CT_FRIENDLY_CHAMPION:
              for (auto* c : here) r = r || c->owner == p;
              break;
            case CT_ENEMY_CHAMPION:
              for (auto* c : here) r = r || c->owner != p;
              break;
            case CT_CHAMPION: r = !here.empty(); break;
            case CT_FRIENDLY_FORCES: r = g.f(h, p) > 0; break;
          }
          if (!r) return false;
          break;
        }
        case HP_WITHIN: if (!area[h]) return false; break;
        case HP_ADJ_CAPITAL: {
          bool r = false;
          for (int c = 0; c < g.N && !r; ++c)
            if (g.cap_owner[c] >= 0 && g.topo.d(h, c) == 1) r = true;
          if (!r) return false;
          break;
        }
      }
    }
    return true;
  }
};
}  // namespace

static void hex_base(Game& g, const HexSel& sel, const Ctx& ctx, std::vector<int>& base) {
  int p = ctx.p;
  switch (sel.base) {
    case HB_ALL:
      for (int h = 0; h < g.N; ++h) base.push_back(h);
      break;
    case HB_REF: {
      int h = g.ref_hex(ctx, sel.ref);
      if (h >= 0) base.push_back(h);
      break;
    }
    case HB_THIS: {
      Within w;
      w.of = W_THIS;
      g.within_sources(ctx, w, base);
      break;
    }
    case HB_EVENT_HEX:
      if (ctx.event && ctx.event->has_hex) base.push_back(ctx.event->hex);
      break;
    case HB_OWN_CAPITAL: base.push_back(g.players[p].capital); break;
    case HB_DEPLOY_ANCHORS: base = g.deploy_anchors(p); break;
    case HB_ENEMY_CAPITAL:
      for (int h = 0; h < g.N; ++h)
        if (g.cap_owner[h] >= 0 && g.cap_owner[h] != p) base.push_back(h);
      break;
    case HB_OCC_YOU: case HB_OWN_OCCUPIED: base = g.occ[p]; break;
    case HB_OCC_UNION:
      for (int h = 0; h < g.N; ++h)
        for (int q = 0; q < g.P; ++q)
          if ((sel.base_union_mine || q != p) && g.occupies(q, h)) {
            base.push_back(h);
            break;
          }
      break;
    case HB_EMPTY: break;
    case HB_KIND:
      for (int h = 0; h < g.N; ++h)
        if (sel.kinds & (1u << g.tile[h])) base.push_back(h);
      break;
    case HB_WITHIN: {
      auto area = g.within_area(ctx, sel.within);
      for (int h = 0; h < g.N; ++h)
        if (area[h]) base.push_back(h);
      break;
    }
  }
}

std::vector<int> Game::hex_candidates(const HexSel& sel, const Ctx& ctx) {
  std::vector<int> base, out;
  hex_base(*this, sel, ctx, base);
  HexPreds preds(*this, sel, ctx);
  for (int h : base)
    if (preds.ok(h)) out.push_back(h);
  if (!sel.subs.empty()) {
    std::vector<char> seen(N, 0);
    for (int h : out) seen[h] = 1;
    for (auto& sub : sel.subs)
      for (int h : hex_candidates(*sub, ctx))
        if (preds.ok(h)) seen[h] = 1;
    out.clear();
    for (int h = 0; h < N; ++h)
      if (seen[h]) out.push_back(h);
  }
  return out;
}

bool Game::hex_exists(const HexSel& sel, const Ctx& ctx) {
  if (!sel.subs.empty()) return !hex_candidates(sel, ctx).empty();
  std::vector<int> base;
  hex_base(*this, sel, ctx, base);
  HexPreds preds(*this, sel, ctx);
  for (int h : base)
    if (preds.ok(h)) return true;
  return false;
}

std::vector<Champion*> Game::champ_candidates(const ChampSel& sel, const Ctx& ctx) {
  std::vector<Champion*> pool;
  if (!any_champion()) return pool;
  int p = ctx.p;
  if (sel.pool == 1) {
    const Val* v = ctx.refs.find(sel.ref);
    if (v && v->t == V_CHAMP && on_board(v->c)) pool.push_back(v->c);
  } else if (sel.pool == 2) {
    if (ctx.champ && on_board(ctx.champ)) pool.push_back(ctx.champ);
  } else {
    pool = champions_by_cid();
  }
  auto keep = [&](auto pred) {
    std::vector<Champion*> o;
    for (auto* c : pool)
      if (pred(c)) o.push_back(c);
    pool.swap(o);
  };
  if (sel.side == 1) keep([&](Champion* c) { return c->owner == p; });
  else if (sel.side == 2) keep([&](Champion* c) { return c->owner != p; });
  if (sel.exclude_this && ctx.champ) keep([&](Champion* c) { return c != ctx.champ; });
  if (sel.has_within) {
    auto area = within_area(ctx, sel.within);
    keep([&](Champion* c) { return area[c->hex] != 0; });
  }
  if (sel.hexsel) {
    auto hx = hex_candidates(*sel.hexsel, ctx);
    std::vector<char> in(N, 0);
    for (int h : hx) in[h] = 1;
    keep([&](Champion* c) { return in[c->hex] != 0; });
  }
  if (mods[M_UNTARGETABLE].empty()) return pool;
  keep([&](Champion* c) { return !untargetable(c, ctx); });
  return pool;
}

bool Game::champ_exists(const ChampSel& sel, const Ctx& ctx) {
  if (!any_champion()) return false;
  if (sel.pool != 0 || sel.hexsel) return !champ_candidates(sel, ctx).empty();
  int p = ctx.p;
  Champion* skip = sel.exclude_this ? ctx.champ : nullptr;
  std::vector<int> sources;
  if (sel.has_within) {
    within_sources(ctx, sel.within, sources);
    if (sources.empty()) return false;
  }
  bool guarded = !mods[M_UNTARGETABLE].empty();
  for (auto* c : by_cid) {
    if (!c) continue;
    if ((sel.side == 1 && c->owner != p) || (sel.side == 2 && c->owner == p)) continue;
    if (skip && c == skip) continue;
    if (sel.has_within) {
      bool near = false;
      for (int x : sources)
        if (topo.d(c->hex, x) <= sel.within.d && topo.d(c->hex, x) >= sel.within.lo) {
          near = true;
          break;
        }
      if (!near) continue;
    }
    if (!guarded || !untargetable(c, ctx)) return true;
  }
  return false;
}

std::vector<int> Game::bridge_candidates(const BridgeSel& sel, const Ctx& ctx) {
  if (sel.basic) return bridge_options(ctx.p);
  std::vector<int> pool;
  if (sel.has_ref) {
    const Val* v = ctx.refs.find(sel.ref);
    if (v && v->is_int()) pool.push_back((int)v->i);
  } else if (sel.touching) {
    for (int h : hex_candidates(*sel.touching, ctx))
      for (int e : topo.edges_of[h]) pool.push_back(e);
    std::sort(pool.begin(), pool.end());
    pool.erase(std::unique(pool.begin(), pool.end()), pool.end());
  } else {
    pool = topo.edges;
  }
  std::vector<int> out;
  for (int e : pool)
    if (bridged(e) != sel.build) out.push_back(e);
  return out;
}

bool Game::bridge_exists(const BridgeSel& sel, const Ctx& ctx) {
  if (sel.has_ref) return !bridge_candidates(sel, ctx).empty();
  if (sel.basic) return !bridge_options(ctx.p).empty();
  if (!sel.touching) {
    for (int e : topo.edges)
      if (bridged(e) != sel.build) return true;
    return false;
  }
  for (int h : hex_candidates(*sel.touching, ctx))
    for (int e : topo.edges_of[h])
      if (bridged(e) != sel.build) return true;
  return false;
}

// ================================ conditions ================================================
bool Game::cond(const Cond* c, const Ctx& ctx) {
  if (!c) return true;
  for (auto& it : c->items)
    if (!cond_item(it, ctx)) return false;
  return true;
}

static int battle_hex(const Game& g, const Ctx& ctx) {
  if (ctx.battle) return ctx.battle->hex;
  if (ctx.champ && g.on_board(ctx.champ)) return ctx.champ->hex;
  return -1;
}

bool Game::cond_item(const CondItem& it, const Ctx& ctx) {
  const Player& pl = players[ctx.p];
  auto ranged = [&](int64_t v) {
    return (!it.has_lo || v >= it.lo) && (!it.has_hi || v <= it.hi);
  };
  switch (it.key) {
    case C_OCCUPIES:
      for (int h : hex_candidates(*it.hs, ctx))
        if (occupies(ctx.p, h)) return true;
      return false;
    case C_TARGET_IN: {
      int h = ref_hex(ctx, it.name);
      if (h < 0) return false;
      for (int x : hex_candidates(*it.hs, ctx))
        if (x == h) return true;
      return false;
    }
    case C_WON_BATTLE: return pl.won_battle == it.want;
    case C_HAND_SIZE: return ranged((int64_t)pl.hand.size());
    case C_DRAW_PILE_SIZE: return ranged((int64_t)pl.draw.size());
    case C_CHAMPIONS_IN_PLAY: return ranged((int64_t)pl.champions.size());
    case C_MANA: return ranged(pl.mana);
    case C_LAST_COUNT: return ranged(ctx.last_count);
    case C_LAST_DRAWN_TYPE:
      if (it.str_null) return !pl.has_last_drawn;
      return pl.has_last_drawn && pl.last_drawn == it.str;
    case C_CAPITAL_HAS_ENEMY: return capital_has_enemy(ctx.p) == it.want;
    case C_ADJ_OCCUPIED: {
      int h = ref_hex(ctx, it.name);
      if (h < 0) return false;
      int64_t n = 0;
      for (int x : topo.nbrs[h])
        if (occupies(ctx.p, x)) n++;
      return n >= it.need;
    }
    case C_DEFENDING: return (ctx.battle && ctx.battle->defender == ctx.p) == it.want;
    case C_ATTACKING: return (ctx.battle && ctx.battle->attacker == ctx.p) == it.want;
    case C_BATTLE_IN: {
      if (!ctx.battle) return false;
      for (int x : hex_candidates(*it.hs, ctx))
        if (x == ctx.battle->hex) return true;
      return false;
    }
    case C_SIEGE: return (ctx.battle && ctx.battle->siege) == it.want;
    case C_COMBAT_ROUND: return ranged(ctx.battle ? ctx.battle->round : 0);
    case C_ENEMY_CHAMP_PRESENT: {
      int h = battle_hex(*this, ctx);
      bool r = false;
      if (h >= 0)
        for (auto* c : champs_at[h]) r = r || c->owner != ctx.p;
      return r == it.want;
    }
    case C_FRIENDLY_FORCES_PRESENT: {
      int h = battle_hex(*this, ctx);
      return (h >= 0 && f(h, ctx.p) > 0) == it.want;
    }
    case C_MOVING_ALONE: return (ctx.event ? ctx.event->moving_alone : false) == it.want;
    case C_FIRST_MOVE: return (pl.moves_this_round == 0) == it.want;
    case C_ON_BOARD: return (ctx.champ && on_board(ctx.champ)) == it.want;
    case C_ALL:
      for (auto& s : it.subs)
        if (!cond(s.get(), ctx)) return false;
      return true;
    case C_ANY:
      for (auto& s : it.subs)
        if (cond(s.get(), ctx)) return true;
      return false;
    case C_NOT: return !cond(it.subs[0].get(), ctx);
    case C_VICTIM_SIDE: {
      if (!ctx.event || ctx.event->victim < 0) return it.str_null;
      const char* side = ctx.event->victim == ctx.p ? "friendly" : "enemy";
      return !it.str_null && it.str == side;
    }
  }
  return false;
}

// ================================ game.py queries ============================================
std::vector<int> Game::deploy_anchors(int p) {
  std::vector<int> out{players[p].capital};
  for (auto* a : mods[M_DEPLOY_ANCHOR]) {
    if (a->owner != p) continue;
    Ctx ctx = act_ctx(a);
    if (cond(a->mod->when.get(), ctx))
      for (int h : hex_candidates(*a->mod->hexsel, ctx))
        if (std::find(out.begin(), out.end(), h) == out.end()) out.push_back(h);
  }
  return out;
}

bool Game::untargetable(const Champion* ch, const Ctx& ctx) {
  // the source: the played card, or the Champion card whose ability runs (core.source_type)
  const CardDef* from = ctx.inst ? ctx.inst->defn : ctx.champ ? ctx.champ->defn : nullptr;
  if (!from || ctx.p == ch->owner) return false;
  const std::string& src = from->type;
  for (auto* a : mods[M_UNTARGETABLE]) {
    if (a->owner != ch->owner) continue;
    const auto& by = a->mod->by;
    if (std::find(by.begin(), by.end(), src) == by.end()) continue;
    if (unit_matches(a, ch, false)) return true;
  }
  return false;
}

bool Game::unit_matches(const Active* a, const Champion* ch, bool is_force, int side_owner) const {
  int units = a->mod->units == U_NONE ? U_ALL : a->mod->units;
  int owner = ch ? ch->owner : side_owner;
  if (units == U_TARGET) {
    if (is_force) return false;
    const Val* v = a->target >= 0 ? a->refs.find(a->target) : nullptr;
    return v && v->t == V_CHAMP && v->c == ch && ch;
  }
  if (units == U_ENEMY_FORCES || units == U_ENEMY_CHAMPIONS) {
    if (owner == a->owner) return false;
    return (units == U_ENEMY_FORCES) == is_force;
  }
  if (owner != a->owner) return false;
  switch (units) {
    case U_ALL: return true;
    case U_FORCES: return is_force;
    case U_CHAMPIONS: return !is_force;
    case U_THIS: return !is_force && ch == a->champ;
  }
  return false;
}

bool Game::trigger_scope(const Active* a, int event, const Event& info) const {
  int p = a->owner;
  Champion* champ = a->champ;
  if (event == E_ON_DEPLOY || event == E_ON_DEATH) return champ && info.champ == champ;
  const Val* tgt = a->target >= 0 ? a->refs.find(a->target) : nullptr;
  if (tgt && tgt->t != V_NULL) {
    bool match;
    if (tgt->t == V_CHAMP) {
      match = tgt->c == info.champ;
      if (!match && info.champs)
        for (auto* c : *info.champs) match = match || c == tgt->c;
    } else if (info.has_edge) {
      match = tgt->is_int() && tgt->i == info.edge;
    } else {
      match = tgt->is_int() && info.has_hex && tgt->i == info.hex;
    }
    if (!match) return false;
  }
  switch (event) {
    case E_KILL_CHAMPION:
      if (champ) return info.killer_champ == champ;
      return info.killer == p;
    case E_BATTLE_START: case E_BATTLE_WON: case E_BATTLE_END: {
      if (event == E_BATTLE_WON && !(info.has_winner && info.winner == p)) return false;
      if (champ) {
        if (!info.champs) return false;
        for (auto* c : *info.champs)
          if (c == champ) return true;
        return false;
      }
      return info.has_sides && (info.sides[0] == p || info.sides[1] == p);
    }
    case E_OTHERS_BATTLE:
      return !(info.has_sides && (info.sides[0] == p || info.sides[1] == p));
    case E_BATTLE_ENTERED: return info.mover == p;
    case E_ENEMY_ENTERS_CAPITAL: return info.owner == p && info.mover != p;
    case E_ENEMY_CROSSES_BRIDGE: return info.mover != p;
    case E_ROUND_START: case E_ROUND_END: return info.player == p;
  }
  return true;
}

bool Game::would_act(const Active* a, Ctx& ctx) {
  if (a->limit == L_UNLIMITED || !a->steps || a->steps->empty()) return true;
  const Step* first = (*a->steps)[0];
  if (!(first->may_fail && first->has_exists)) return true;
  return step_exists(first, ctx);
}

void Game::fire(int event, const Event& info, int only) {
  if (trigs[event].empty()) return;
  std::vector<Active*> list = trigs[event];
  for (Active* a : list) {
    if (only >= 0 && a->owner != only) continue;
    if (!trigger_scope(a, event, info)) continue;
    Battle* battle = info.battle;
    if (!limit_ok(a, battle, false)) continue;
    Ctx ctx = act_ctx(a, battle, &info);
    if (!cond(a->cond, ctx) || !would_act(a, ctx)) continue;
    mark_used(a, battle);
    if (logging) {
      std::string src = a->ability ? a->ability->name : a->inst ? a->inst->defn->id : "";
      Log(ev, "trigger").s("ev", EV_NAMES[event]).i("p", a->owner).s("src", src);
    }
    run_steps(*a->steps, ctx);
    if (a->limit == L_ONCE && a->duration != D_PERMANENT)
      remove_where([a](Active* x) { return x == a; });
  }
}

// Effects run inside effects (a trigger's steps fire another trigger...). Python stops a
// chain that never ends with a RecursionError at about 1,000 frames, some 120 nested runs;
// here the game is declined well before that (the Python engine then plays it, and raises
// its error), never at a depth Python could not reach, and the C++ stack cannot overflow.
static const int MAX_NESTED_RUNS = 64;

bool Game::run_steps(const std::vector<Step*>& steps, Ctx& ctx) {
  struct Depth {
    int& d;
    explicit Depth(int& x) : d(x) {
      if (++d > MAX_NESTED_RUNS) {
        --d;
        throw Unsupported("effects nested more than 64 deep");
      }
    }
    ~Depth() { --d; }
  } depth(nested_runs);
  try {
    for (const Step* st : steps) run_step(st, ctx);
  } catch (Fizzle& f) {
    if (logging) Log(ev, "fizzle").i("p", ctx.p).s("why", f.why);
    return false;
  } catch (NoTarget&) {
    return false;
  }
  return true;
}

void Game::log_aim(const Ctx& ctx, int64_t key, const char* kind, const Val& value) {
  const Step* st = R.by_uid[key / 1024];
  std::string owners;
  if (!strcmp(kind, "champion") && value.t == V_CHAMP) {
    owners = "[" + std::to_string(value.c->owner) + "]";
  } else if (!strcmp(kind, "hex") && value.is_int()) {
    unsigned o = occupants((int)value.i);
    owners = "[";
    bool first = true;
    for (int q = 0; q < P; ++q)
      if (o & (1u << q)) {
        if (!first) owners += ",";
        owners += std::to_string(q);
        first = false;
      }
    owners += "]";
  } else {
    return;
  }
  Log l(ev, "aim");
  l.i("p", ctx.p).s("step", STEP_NAMES[st->kind]);
  if (ctx.inst) l.s("card", ctx.inst->defn->id); else l.null("card");
  l.raw("owners", owners).s("side", st->aim_side);
}

// core.Ctx._log_target: whose units or seat a target holds as an effect resolves
void Game::log_target(const Ctx& ctx, int64_t key, const char* kind, const Val& value,
                      bool locked) {
  const Step* st = R.by_uid[key / 1024];
  std::string owners;
  if (!strcmp(kind, "champion") && value.t == V_CHAMP) {
    owners = "[" + std::to_string(value.c->owner) + "]";
  } else if (!strcmp(kind, "hex") && value.t == V_INT) {
    unsigned o = occupants((int)value.i);
    owners = "[";
    bool first = true;
    for (int q = 0; q < P; ++q)
      if (o & (1u << q)) {
        if (!first) owners += ",";
        owners += std::to_string(q);
        first = false;
      }
    owners += "]";
  } else if (!strcmp(kind, "player") && value.t == V_INT) {
    owners = "[" + std::to_string(value.i) + "]";
  } else {
    return;
  }
  Log l(ev, "target");
  l.i("p", ctx.p).s("step", STEP_NAMES[st->kind]).i("uid", st->uid);
  if (ctx.inst) l.s("card", ctx.inst->defn->id);
  else if (ctx.champ) l.s("card", ctx.champ->defn->id);
  else l.null("card");
  l.s("kind", kind).raw("owners", owners).b("locked", locked);
}

// ================================ cards.py ===================================================
void Game::reshuffle(int p) {
  Player& pl = players[p];
  rng.shuffle(pl.discard);
  std::vector<int> d = pl.discard;
  d.insert(d.end(), pl.draw.begin(), pl.draw.end());
  pl.draw.swap(d);
  pl.discard.clear();
  if (logging) Log(ev, "reshuffle").i("p", p).i("n", (int64_t)pl.draw.size());
}

int64_t Game::draw(int p, int64_t n) {
  bool stop = opt.hand_limit_draw == "stop";
  int64_t got = 0;
  for (int64_t k = 0; k < n; ++k) {
    Player& pl = players[p];
    if (pl.draw.empty()) {
      if (pl.discard.empty()) break;
      reshuffle(p);
    }
    bool full = (int64_t)players[p].hand.size() >= R.hand_limit;
    if (full && stop) break;
    Player& pp = players[p];
    int iid = pp.draw.back();
    pp.draw.pop_back();
    CardInst* inst = &cards[iid];
    const CardDef* d = inst->defn;
    pp.last_drawn = d->type;
    pp.has_last_drawn = true;
    got++;
    if (full) {
      pp.discard.push_back(iid);
      if (logging) Log(ev, "draw").i("p", p).s("card", d->id).s("to", "discard");
      if (!d->triggers.empty()) card_event(p, inst, E_CARD_DISCARDED);
    } else {
      pp.hand.push_back(iid);
      if (logging) Log(ev, "draw").i("p", p).s("card", d->id);
    }
    if (!d->triggers.empty()) card_event(p, inst, E_CARD_DRAWN);
  }
  return got;
}

void Game::card_event(int p, CardInst* inst, int event) {
  for (const Ability* ab : inst->defn->triggers) {
    if (ab->event != event) continue;
    Ctx ctx(this, p, inst);
    if (cond(ab->cond.get(), ctx)) {
      if (logging) Log(ev, "trigger").s("ev", EV_NAMES[event]).i("p", p).s("src", inst->defn->id);
      run_steps(ab->steps, ctx);
    }
  }
}

static void remove_first(std::vector<int>& v, int x) {
  auto it = std::find(v.begin(), v.end(), x);
  if (it == v.end()) throw std::runtime_error("list.remove(x): x not in list");
  v.erase(it);
}

void Game::discard_card(int p, int iid) {
  Player& pl = players[p];
  remove_first(pl.hand, iid);
  pl.discard.push_back(iid);
  CardInst* inst = &cards[iid];
  if (logging) Log(ev, "discard").i("p", p).s("card", inst->defn->id);
  if (!inst->defn->triggers.empty()) card_event(p, inst, E_CARD_DISCARDED);
}

void Game::scrap_card(int p, int iid) {
  Player& pl = players[p];
  remove_first(pl.hand, iid);
  pl.scrapped.push_back(iid);
  if (logging) Log(ev, "scrap").i("p", p).s("card", cards[iid].defn->id);
}

// one card of `options` (sorted by id, then iid; None offered first when `none_first`), as
// cards.choose_cards and cards.draft pick it: its iid, or -1 for None. Not empty.
int Game::pick_card(int p, const char* kind, std::vector<int> options, bool none_first) {
  sort_cards(options);
  size_t n = options.size() + (none_first ? 1 : 0);
  if (n == 1) return options[0];
  Ask ask;
  if (wants_ask(p)) ask = iid_ask(kind, options, none_first);
  if (waiter)  // (the state API: the card each option names, for its words)
    ask.card = [&options, none_first](size_t i) {
      return none_first ? (i == 0 ? -1 : options[i - 1]) : options[i];
    };
  if (wants_repr(p))
    ask.repr = [&options, none_first](size_t i) {
      if (none_first) return i == 0 ? std::string("None") : std::to_string(options[i - 1]);
      return std::to_string(options[i]);
    };
  int i = decide(p, kind, n, &ask);
  if (none_first) return i == 0 ? -1 : options[i - 1];
  return options[i];
}

std::vector<int> Game::choose_cards(int p, const char* kind, const std::vector<int>& pool_in,
                                    int64_t count, bool up_to) {
  std::vector<int> chosen, pool = pool_in;
  for (int64_t k = 0; k < count; ++k) {
    if (pool.empty()) break;
    int pick = pick_card(p, kind, pool, up_to);
    if (pick < 0) break;
    chosen.push_back(pick);
    remove_first(pool, pick);
  }
  return chosen;
}

void Game::gain_card(int p, int iid, bool to_hand) {
  Player& pl = players[p];
  CardInst& inst = cards[iid];
  if (to_hand) {
    pl.hand.push_back(iid);
  } else {
    if (pl.draw.empty() && !pl.discard.empty()) reshuffle(p);
    Player& pp = players[p];
    int64_t at_ = rng.randint(0, (int64_t)pp.draw.size());
    pp.draw.insert(pp.draw.begin() + at_, iid);
  }
  if (inst.defn->vp) players[p].pvp += inst.defn->vp;
  if (logging)
    Log(ev, "gain").i("p", p).s("card", inst.defn->id).s("to", to_hand ? "hand" : "draw_pile")
        .i("vp", inst.defn->vp);
}

std::vector<int> Game::reveal(const std::string& deck, int64_t n) {
  std::vector<int> got;
  auto it = decks.find(deck);
  if (it == decks.end()) return got;
  auto& pile = it->second;
  int64_t k = std::min<int64_t>(n, (int64_t)pile.size());
  for (int64_t i = 0; i < k; ++i) {
    got.push_back(pile.back());
    pile.pop_back();
  }
  revealed.insert(revealed.end(), got.begin(), got.end());
  shown("reveal", -1, got);
  return got;
}

void Game::to_bottom(const std::string& deck, std::vector<int> iids) {
  rng.shuffle(iids);
  for (int iid : iids) remove_first(revealed, iid);
  auto& pile = decks[deck];
  pile.insert(pile.begin(), iids.begin(), iids.end());
}

int64_t Game::pick_extra(int p) {
  int64_t extra = 0;
  for (auto* a : mods[M_PICK_EXTRA]) {
    if (a->owner != p) continue;
    Ctx ctx = act_ctx(a);
    if (cond(a->mod->when.get(), ctx)) extra += a->mod->raw_amount;
  }
  return extra;
}

int Game::draft(int p, const std::string& deck, int64_t reveal_n, const char* kind,
                bool optional, bool to_hand) {
  std::vector<int> shown = reveal(deck, reveal_n + pick_extra(p));
  if (shown.empty()) return -1;
  int pick = pick_card(p, kind, shown, optional);
  this->shown("pick", p, pick >= 0 ? std::vector<int>{pick} : std::vector<int>{});
  if (pick >= 0) {
    take_revealed(pick);
    gain_card(p, pick, to_hand);
  }
  std::vector<int> rest;
  for (int i : shown)
    if (i != pick) rest.push_back(i);
  to_bottom(deck, rest);
  return pick;
}

// ================================ units.py ===================================================
int64_t Game::deploy(int p, int h, int64_t n) {
  if (n <= 0) return 0;
  if (blocked(p, h)) {
    if (logging) Log(ev, "deploy_fail").i("p", p).s("hex", name(h));
    return 0;
  }
  for (auto* a : mods[M_DEPLOY_BONUS]) {
    if (a->owner != p) continue;
    Ctx ctx = act_ctx(a);
    auto c = hex_candidates(*a->mod->hexsel, ctx);
    if (std::find(c.begin(), c.end(), h) != c.end()) n += amount(a->mod->amount, ctx);
  }
  add_forces(p, h, n);
  dirty[h] = p;
  if (logging) Log(ev, "deploy").i("p", p).s("hex", name(h)).i("n", n);
  return n;
}

Champion* Game::place_champion(int p, int iid, int h) {
  if (blocked(p, h) || !can_field_champion(p)) {
    if (logging) Log(ev, "deploy_fail").i("p", p).s("hex", name(h)).s("card", cards[iid].defn->id);
    return nullptr;
  }
  champ_store.emplace_back();
  Champion* ch = &champ_store.back();
  ch->cid = next_cid++;
  ch->iid = iid;
  ch->owner = p;
  ch->hex = h;
  ch->defn = cards[iid].defn;
  ch->hp = ch->max_hp = ch->defn->hp;
  if ((int)by_cid.size() <= ch->cid) by_cid.resize(ch->cid + 1, nullptr);
  by_cid[ch->cid] = ch;
  put_champ(ch, h);
  players[p].champions.push_back(ch->cid);
  for (const Ability* ab : ch->defn->abilities) install_ability(ab, p, ch);
  dirty[h] = p;
  if (logging)
    Log(ev, "champion").i("p", p).s("card", ch->defn->id).s("hex", name(h)).i("hp", ch->hp);
  if (!trigs[E_ON_DEPLOY].empty()) {
    Event e;
    e.champ = ch;
    e.has_hex = true;
    e.hex = h;
    e.player = p;
    fire(E_ON_DEPLOY, e);
  }
  return ch;
}

void Game::unplace_champion(Champion* ch, bool to_hand) {
  if (!on_board(ch)) return;
  take_champ(ch);
  by_cid[ch->cid] = nullptr;
  Player& pl = players[ch->owner];
  remove_first(pl.champions, ch->cid);
  (to_hand ? pl.hand : pl.burn).push_back(ch->iid);
  remove_where([ch](Active* a) { return a->champ == ch && a->duration == D_PERMANENT; });
  if (logging)
    Log(ev, "champion_off").i("p", ch->owner).s("card", ch->defn->id)
        .s("to", to_hand ? "hand" : "burn_pile");
}

int64_t Game::heal(Champion* ch, int64_t n) {
  int64_t before = ch->hp;
  ch->hp = std::min(ch->max_hp, ch->hp + n);
  if (ch->hp != before && logging)
    Log(ev, "heal").s("card", ch->defn->id).i("p", ch->owner).i("n", ch->hp - before);
  return ch->hp - before;
}

int64_t Game::damage(Champion* ch, int64_t n, int by, Champion* by_champ, Battle* battle) {
  if (!on_board(ch) || n <= 0) return 0;
  n = prevent_for_gold(ch, n);
  if (n <= 0) return 0;
  ch->hp -= n;
  if (logging)
    Log(ev, "damage").s("card", ch->defn->id).i("p", ch->owner).i("n", n)
        .i("hp", std::max<int64_t>(ch->hp, 0));
  if (ch->hp <= 0) {
    ch->hp = 0;
    kill(ch, by, by_champ, battle);
  }
  return n;
}

int64_t Game::prevent_for_gold(Champion* ch, int64_t n) {
  for (auto* a : mods[M_PREVENT_DAMAGE_FOR_GOLD]) {
    if (!unit_matches(a, ch, false)) continue;
    Player& pl = players[a->owner];
    int64_t cost = a->mod->gold;
    while (n > 0 && pl.gold >= cost) {
      pl.gold -= cost;
      n -= 1;
      if (logging) Log(ev, "prevent").i("p", a->owner).s("card", ch->defn->id).i("gold", cost);
    }
  }
  return n;
}

void Game::kill(Champion* ch, int by, Champion* by_champ, Battle* battle) {
  Event info;
  info.champ = ch;
  info.has_hex = true;
  info.hex = ch->hex;
  info.victim = ch->owner;
  info.killer = by;
  info.killer_champ = by_champ;
  info.battle = battle;
  info.owner = ch->owner;
  fire(E_ON_DEATH, info);
  unplace_champion(ch, false);
  int64_t bounty = ch->defn->bounty;
  if (by >= 0 && by != ch->owner && bounty) {
    players[by].gold += bounty;
    if (logging) Log(ev, "bounty").i("p", by).i("gold", bounty).s("card", ch->defn->id);
  }
  if (by >= 0 && by != ch->owner) fire(E_KILL_CHAMPION, info);
  fire(E_CHAMPION_DIES, info);
}

void Game::resolve_contacts(int actor) {
  while (!dirty.empty()) {
    auto it = dirty.begin();
    int h = it->first, entrant = it->second;
    dirty.erase(it);
    if (cap_owner[h] >= 0) continue;
    unsigned o = occupants(h);
    if (popcount(o) == 2) {
      int att;
      if (o & (1u << entrant)) att = entrant;
      else if (actor >= 0 && (o & (1u << actor))) att = actor;
      else att = __builtin_ctz(o);
      int dfn = __builtin_ctz(o & ~(1u << att));
      battle(h, att, dfn, false);
      checkpoint("battle");
    }
  }
}

// ================================ paths.py ===================================================
Game::Links Game::links(int p) {
  Links out;
  if (mods[M_LINK_HEXES].empty() && !(mod_owners({M_MINES_CONNECTED}) & (1u << p))) return out;
  auto add = [&](int a, int b) {
    auto& v = out[a];
    if (std::find(v.begin(), v.end(), b) == v.end()) v.push_back(b);
  };
  for (auto* a : mods[M_LINK_HEXES]) {
    Ctx ctx = act_ctx(a);
    auto as = hex_candidates(*a->mod->a, ctx);
    if (as.empty()) continue;
    auto bs = hex_candidates(*a->mod->b, ctx);
    if (bs.empty()) continue;
    if (as[0] != bs[0]) {
      add(as[0], bs[0]);
      add(bs[0], as[0]);
    }
  }
  if (owned(mods[M_MINES_CONNECTED], p)) {
    std::vector<int> mines;
    for (int h : occ[p])
      if (tile[h] == T_MINE) mines.push_back(h);
    for (int a : mines) {
      out[a];  // setdefault
      for (int m : mines)
        if (m != a) add(a, m);
    }
  }
  return out;
}

std::vector<int> Game::blocked_edges() {
  std::vector<int> out;
  if (mods[M_BLOCK_BRIDGE].empty()) return out;
  for (auto* a : mods[M_BLOCK_BRIDGE]) {
    Ctx ctx = act_ctx(a);
    for (int e : bridge_candidates(*a->mod->bridge, ctx)) out.push_back(e);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

static bool has(const std::vector<int>& v, int x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}
static bool has_sorted(const std::vector<int>& v, int x) {
  return std::binary_search(v.begin(), v.end(), x);
}

bool Game::flies(int p, const std::vector<Champion*>& champs, int64_t n_forces) {
  if (n_forces || champs.empty() || mods[M_IGNORE_BRIDGES].empty()) return false;
  std::vector<Active*> mine;
  for (auto* a : mods[M_IGNORE_BRIDGES])
    if (a->owner == p) mine.push_back(a);
  for (auto* c : champs) {
    bool any = false;
    for (auto* a : mine) any = any || unit_matches(a, c, false);
    if (!any) return false;
  }
  return true;
}

bool Game::step_ok(int a, int b, bool ignore, const Links& lk, const std::vector<int>& blk) const {
  auto it = lk.find(a);
  if (it != lk.end() && has(it->second, b)) return true;
  if (topo.d(a, b) != 1) return false;
  if (ignore) return true;
  int key = Topo::edge_key(a, b);
  return bridged(key) && !has_sorted(blk, key);
}

int64_t Game::extra_move(int p, const std::vector<Champion*>& champs, int64_t n_forces,
                         bool commit) {
  int64_t extra = 0;
  if (mods[M_EXTRA_MOVE].empty()) return 0;
  bool alone = n_forces == 0 && champs.size() == 1;
  std::vector<Active*> list = mods[M_EXTRA_MOVE];
  for (auto* a : list) {
    if (a->owner != p) continue;
    if (a->champ && std::find(champs.begin(), champs.end(), a->champ) == champs.end()) continue;
    Event info;
    info.moving_alone = alone && (!a->champ || champs[0] == a->champ);
    if (!limit_ok(a)) continue;
    Ctx ctx = act_ctx(a, nullptr, &info);
    if (cond(a->mod->when.get(), ctx)) {
      extra += a->mod->raw_amount;
      if (commit) mark_used(a);
    }
  }
  return extra;
}

bool Game::stops_at(int p, int h, bool stop_occ) const {
  if (stop_occ) return nocc[h] != 0;  // occupied = holds units (§4.3), Capitals too
  int others = nocc[h] - (occupies(p, h) ? 1 : 0);
  if (!others) return false;
  if (cap_owner[h] < 0) return true;
  return opt.capital_stops_move;
}

void Game::steps_from(int p, int here, bool ignore, const Links& lk,
                      const std::vector<int>& blk, std::vector<int>& out) const {
  auto free_ = [&](int b) { return nocc[b] < 2 || !blocked(p, b); };
  if (lk.empty()) {
    if (ignore) {
      for (auto& x : topo.adj[here])
        if (free_(x.first)) out.push_back(x.first);
    } else {
      for (auto& x : at[here])
        if (!has_sorted(blk, x.second) && free_(x.first)) out.push_back(x.first);
    }
    return;
  }
  auto it = lk.find(here);
  static const std::vector<int> none;
  const std::vector<int>& linked = it == lk.end() ? none : it->second;
  for (auto& x : topo.adj[here]) {
    int b = x.first, key = x.second;
    if ((has(linked, b) || ignore || (bridged(key) && !has_sorted(blk, key))) && free_(b))
      out.push_back(b);
  }
  for (int b : linked)
    if (!has(topo.nbrs[here], b) && free_(b)) out.push_back(b);
}

void Game::paths(int p, int src, int64_t dist, bool ignore, bool stop_occ, const Links& lk,
                 const std::vector<int>& blk, std::vector<std::vector<int>>& out) {
  bool plain = lk.empty() && !ignore;  // _bridge_paths: along plain Bridges
  if (dist == 1) {
    if (plain) {
      for (auto& x : at[src]) {
        int b = x.first, n = nocc[b];
        if (!has_sorted(blk, x.second) && (n < 2 || (n == 2 && occupies(p, b))))
          out.push_back({b});
      }
      return;
    }
    std::vector<int> first;
    steps_from(p, src, ignore, lk, blk, first);
    if (!lk.empty()) std::sort(first.begin(), first.end());
    for (int b : first) out.push_back({b});
    return;
  }
  std::vector<std::pair<int, std::vector<int>>> frontier{{src, {}}};
  std::vector<int> next;
  for (int64_t depth = 1; depth <= dist; ++depth) {
    std::vector<std::pair<int, std::vector<int>>> grow;
    for (auto& fr : frontier) {
      next.clear();
      if (plain) {
        for (auto& x : at[fr.first]) {
          int b = x.first;
          if (has_sorted(blk, x.second)) continue;
          int n = nocc[b];
          if (n >= 2 && (n >= 3 || !occupies(p, b))) continue;
          next.push_back(b);
        }
      } else {
        steps_from(p, fr.first, ignore, lk, blk, next);
      }
      for (int b : next) {
        if (b == src || has(fr.second, b)) continue;
        std::vector<int> np = fr.second;
        np.push_back(b);
        out.push_back(np);
        if (depth < dist &&
            !((stop_occ || has_forces(b) || !champs_at[b].empty()) && stops_at(p, b, stop_occ)))
          grow.emplace_back(b, np);
      }
    }
    frontier.swap(grow);
  }
  std::sort(out.begin(), out.end());
}

static MoveOpt make_move(int unit, int src, int cid, int64_t nf, const std::vector<int>& path) {
  if (path.size() > (size_t)MAXP) throw Unsupported("a path longer than 15 hexes");
  MoveOpt m;
  m.unit = (int8_t)unit;
  m.src = (int16_t)src;
  m.cid = cid;
  m.nf = (int16_t)nf;
  m.len = (uint8_t)path.size();
  for (size_t k = 0; k < path.size(); ++k) m.path[k] = (int16_t)path[k];
  return m;
}

void Game::move_options(int p, int unit, int64_t dist, bool ignore, bool stop_occ,
                        const std::vector<int>& exclude, std::vector<MoveOpt>& out) {
  if (dist == 1 && !ignore && plain_steps(p, unit)) fast_steps(p, exclude, unit, out);
  else move_options_long(p, unit, dist, ignore, stop_occ, exclude, out);
}

void Game::move_options_long(int p, int unit, int64_t dist, bool ignore, bool stop_occ,
                             const std::vector<int>& exclude, std::vector<MoveOpt>& out) {
  Links lk = links(p);
  std::vector<int> blk = blocked_edges();
  std::vector<Group> groups;
  move_groups(p, unit, exclude, groups);
  std::vector<std::vector<int>> ps;
  for (auto& g : groups) {
    bool fly = ignore || flies(p, g.champs, g.nf);
    int64_t d = dist + extra_move(p, g.champs, g.nf);
    ps.clear();
    paths(p, g.h, d, fly, stop_occ, lk, blk, ps);
    for (auto& path : ps) out.push_back(make_move(unit, g.h, g.cid, g.n_forces, path));
  }
}

std::vector<int> Game::bridge_options(int p) const {
  std::vector<int> got;
  const auto& o = occ[p];
  if (o.size() == 1) {
    for (int e : topo.edges_sorted[o[0]])
      if (!bridged(e)) got.push_back(e);
    return got;
  }
  for (int h : o)
    for (int e : topo.edges_of[h])
      if (!bridged(e)) got.push_back(e);
  std::sort(got.begin(), got.end());
  got.erase(std::unique(got.begin(), got.end()), got.end());
  return got;
}

bool Game::can_move(int p, int unit, bool ignore) {
  if (!ignore && unit != 2) {
    std::vector<MoveOpt> stacks;
    static const std::vector<int> none;
    move_options(p, 0, 1, false, false, none, stacks);
    if (unit == 0) return !stacks.empty();
    for (auto& o : stacks)
      if (f(o.src, p)) return true;
    return false;
  }
  Links lk = links(p);
  std::vector<int> blk = blocked_edges();
  std::vector<Group> groups;
  static const std::vector<int> none;
  move_groups(p, unit, none, groups);
  std::vector<std::vector<int>> ps;
  for (auto& g : groups) {
    bool fly = ignore || flies(p, g.champs, g.nf);
    ps.clear();
    paths(p, g.h, 1, fly, false, lk, blk, ps);
    if (!ps.empty()) return true;
  }
  return false;
}

bool Game::plain_steps(int p, int unit) {
  if (!(unit == 1 || (unit == 0 && !opt.stack_split))) return false;
  if (mod_owners({M_LINK_HEXES, M_BLOCK_BRIDGE})) return false;
  if (!(mod_owners({M_EXTRA_MOVE, M_MINES_CONNECTED, M_IGNORE_BRIDGES}) & (1u << p)))
    return true;
  return !movement_mods(p);
}

bool Game::movement_mods(int p) {
  for (auto* a : mods[M_EXTRA_MOVE]) {
    if (a->owner != p || !limit_ok(a)) continue;
    if (a->champ) return true;
    int tries = a->mod->reads_alone ? 2 : 1;
    for (int k = 0; k < tries; ++k) {
      Event info;
      info.moving_alone = k == 1;
      Ctx ctx = act_ctx(a, nullptr, &info);
      if (cond(a->mod->when.get(), ctx)) return true;
    }
  }
  if (owned(mods[M_MINES_CONNECTED], p)) {
    int n = 0;
    for (int h : occ[p])
      if (tile[h] == T_MINE) n++;
    if (n >= 2) return true;
  }
  if (owned(mods[M_IGNORE_BRIDGES], p))
    for (int cid : players[p].champions)
      if (flies(p, {by_cid[cid]}, 0)) return true;
  return false;
}

static const int ALONE_FORCES = -1;

void Game::move_groups(int p, int unit, const std::vector<int>& exclude, std::vector<Group>& out) {
  for (int h : occ[p]) {
    if (has(exclude, h)) continue;
    int64_t fc = f(h, p);
    std::vector<std::pair<int, int64_t>> groups;
    if (unit == 2) {
      for (auto* c : champs_at[h])
        if (c->owner == p) groups.emplace_back(c->cid, 0);
    } else if (unit == 1) {
      if (fc) groups.emplace_back(0, 1);
    } else {
      groups.emplace_back(0, -1);
      if (opt.stack_split && fc > 1)
        for (int64_t k = 1; k < fc; ++k) groups.emplace_back(0, k);
      bool own = false;
      for (auto* c : champs_at[h]) own = own || c->owner == p;
      if (fc && own) {
        groups.emplace_back(0, 0);
        groups.emplace_back(ALONE_FORCES, -1);
      }
    }
    for (auto& gr : groups) {
      Group g;
      g.h = h;
      g.cid = gr.first;
      g.n_forces = gr.second;
      if (gr.first > 0) {
        g.champs.push_back(by_cid[gr.first]);
      } else if (unit != 1 && !champs_at[h].empty() && gr.first == 0) {
        for (auto* c : champs_at[h])
          if (c->owner == p) g.champs.push_back(c);
      }
      g.nf = gr.second < 0 ? fc : gr.second;
      out.push_back(std::move(g));
    }
  }
}

void Game::fast_steps(int p, const std::vector<int>& exclude, int unit, std::vector<MoveOpt>& out) {
  bool only_forces = unit == 1;
  for (int h : occ[p]) {
    if (has(exclude, h) || (only_forces && !f(h, p))) continue;
    bool split = false;
    if (!only_forces && !champs_at[h].empty() && f(h, p))
      for (auto* c : champs_at[h]) split = split || c->owner == p;
    for (auto& x : at[h]) {
      int b = x.first;
      if (nocc[b] >= 2 && blocked(p, b)) continue;
      MoveOpt m;
      m.unit = (int8_t)unit;
      m.src = (int16_t)h;
      m.cid = 0;
      m.nf = only_forces ? 1 : -1;
      m.len = 1;
      m.path[0] = (int16_t)b;
      out.push_back(m);
      if (split) {
        MoveOpt c = m;
        c.unit = 0;
        c.nf = 0;
        out.push_back(c);
        MoveOpt fo = m;
        fo.unit = 0;
        fo.cid = ALONE_FORCES;
        fo.nf = -1;
        out.push_back(fo);
      }
    }
  }
}

// ================================ movement.py ================================================
std::vector<Champion*> Game::moving_champs(int p, int unit, int src, int cid) {
  std::vector<Champion*> out;
  if (unit == 2) {
    Champion* ch = champion(cid);
    if (!ch || ch->hex != src || ch->owner != p) throw Fizzle{"the Champion is gone"};
    out.push_back(ch);
    return out;
  }
  if (unit == 1 || cid < 0 || champs_at[src].empty()) return out;
  for (auto* c : champs_at[src])
    if (c->owner == p) out.push_back(c);
  return out;
}

bool Game::hops_bridged(const std::vector<std::pair<int, int>>& hops) const {
  for (auto& hp : hops)
    if (topo.d(hp.first, hp.second) != 1 || !bridged(Topo::edge_key(hp.first, hp.second)))
      return false;
  return true;
}

bool Game::hops_ok(int p, const std::vector<std::pair<int, int>>& hops, bool fly) {
  Links lk = links(p);
  std::vector<int> blk = blocked_edges();
  if (!lk.empty() || !blk.empty()) {
    for (auto& hp : hops)
      if (!step_ok(hp.first, hp.second, fly, lk, blk)) return false;
    return true;
  }
  if (fly) {
    for (auto& hp : hops)
      if (topo.d(hp.first, hp.second) != 1) return false;
    return true;
  }
  return hops_bridged(hops);
}

int Game::relocate_group(int p, int a, int b, const std::vector<Champion*>& champs, int64_t nf) {
  if (a == b) return a;
  int64_t moved = remove_forces(p, a, nf);
  add_forces(p, b, moved);
  for (auto* ch : champs)
    if (on_board(ch)) {
      take_champ(ch);
      put_champ(ch, b);
    }
  dirty[b] = p;
  return b;
}

void Game::crossed(int p, int a, int b, int64_t nf) {
  if (!trigs[E_ENEMY_CROSSES_BRIDGE].empty()) {
    Event e;
    e.mover = p;
    e.has_edge = true;
    e.edge = Topo::edge_key(a, b);
    e.has_hex = true;
    e.hex = b;
    e.moving_forces = nf;
    fire(E_ENEMY_CROSSES_BRIDGE, e);
  }
  int owner = cap_owner[b];
  if (owner >= 0 && owner != p && !trigs[E_ENEMY_ENTERS_CAPITAL].empty()) {
    Event e;
    e.mover = p;
    e.has_hex = true;
    e.hex = b;
    e.owner = owner;
    e.moving_forces = nf;
    fire(E_ENEMY_ENTERS_CAPITAL, e);
  }
}

static const char* const UNIT_NAMES[] = {"stack", "force", "champion"};

int Game::do_move(int p, const MoveOpt& opt_, int64_t dist, bool ignore, bool stop_occ) {
  MoveOpt mo = opt_;
  int unit = mo.unit, src = mo.src, cid = mo.cid;
  std::vector<Champion*> champs = moving_champs(p, unit, src, cid);
  int64_t nf = unit == 2 ? 0 : unit == 1 ? 1 : f(src, p);
  if (mo.nf >= 0 && unit == 0) nf = std::min<int64_t>(mo.nf, nf);
  if (champs.empty() && nf == 0) throw Fizzle{"the stack is gone"};
  std::vector<std::pair<int, int>> hops;
  int prev = src;
  for (int k = 0; k < mo.len; ++k) {
    hops.emplace_back(prev, mo.path[k]);
    prev = mo.path[k];
  }
  bool gate_blocked = mod_owners({M_LINK_HEXES, M_BLOCK_BRIDGE}) != 0;
  unsigned gate_owners = mod_owners({M_EXTRA_MOVE, M_MINES_CONNECTED, M_IGNORE_BRIDGES});
  int64_t len = mo.len;
  if (ignore || gate_blocked || (gate_owners & (1u << p))) {
    int64_t extra = extra_move(p, champs, nf);
    if (len > dist + extra || !hops_ok(p, hops, ignore || flies(p, champs, nf)))
      throw Fizzle{"path no longer legal"};
    if (len > dist) extra_move(p, champs, nf, true);
  } else if (len > dist || !hops_bridged(hops)) {
    throw Fizzle{"path no longer legal"};
  }
  int at_ = src;
  for (auto& hp : hops) {
    int a = hp.first, b = hp.second;
    if (blocked(p, b)) {
      if (opt.blocked_move == "cancel") at_ = relocate_group(p, at_, src, champs, nf);
      break;
    }
    bool stop = stops_at(p, b, stop_occ);
    at_ = relocate_group(p, a, b, champs, nf);
    crossed(p, a, b, nf);
    if (stop) break;
  }
  players[p].moves_this_round += 1;
  if (logging)
    Log(ev, "move").i("p", p).s("frm", name(src)).s("to", name(at_)).s("unit", UNIT_NAMES[unit]);
  if (!trigs[E_BATTLE_ENTERED].empty() && cap_owner[at_] < 0 &&
      (occupants(at_) & ~(1u << p))) {
    Event e;
    e.mover = p;
    e.has_hex = true;
    e.hex = at_;
    fire(E_BATTLE_ENTERED, e);
  }
  return at_;
}

bool Game::relocate_champion(Champion* ch, int h) {
  if (blocked(ch->owner, h)) {
    if (logging) Log(ev, "move_fail").i("p", ch->owner).s("card", ch->defn->id);
    return false;
  }
  relocate_group(ch->owner, ch->hex, h, {ch}, 0);
  if (logging) Log(ev, "relocate").i("p", ch->owner).s("card", ch->defn->id).s("to", name(h));
  return true;
}

// ================================ combat.py ==================================================
int Game::battle(int h, int attacker, int defender, bool siege) {
  battle_seq++;
  battle_store.emplace_back();
  Battle* b = &battle_store.back();
  b->bid = battle_seq;
  b->hex = h;
  b->attacker = attacker;
  b->defender = defender;
  b->siege = siege;
  std::vector<Champion*> champs = champs_at[h];
  // mods.bind_battle: unbound next/first-battle effects of the two sides
  auto bind = [&](Active* a) {
    if ((a->duration == D_NEXT_BATTLE || a->duration == D_FIRST_BATTLE) && a->battle < 0) {
      const Val* tgt = a->target >= 0 ? a->refs.find(a->target) : nullptr;
      if (tgt && tgt->t == V_CHAMP) {
        if (std::find(champs.begin(), champs.end(), tgt->c) != champs.end()) a->battle = b->bid;
      } else if (a->owner == attacker || a->owner == defender) {
        a->battle = b->bid;
      }
    }
  };
  for (auto& lst : mods)
    for (auto* a : lst) bind(a);
  for (auto& lst : trigs)
    for (auto* a : lst) bind(a);
  if (logging)
    Log(ev, "battle").s("hex", name(h)).i("att", attacker).i("dfn", defender).b("siege", siege);
  Event info;
  info.battle = b;
  info.has_hex = true;
  info.hex = h;
  info.has_sides = true;
  info.sides[0] = attacker;
  info.sides[1] = defender;
  info.champs = &champs;
  if (!mods[M_RETREAT_FROM_BATTLE].empty() && retreats(b)) {
    end_battle(b, -1, info);
    return -1;
  }
  fire(E_BATTLE_START, info);
  fire(E_OTHERS_BATTLE, info);
  while (occupies(attacker, h) && occupies(defender, h)) {
    b->round += 1;
    if (b->round > 500) break;
    combat_round(b);
  }
  bool a_alive = occupies(attacker, h), d_alive = occupies(defender, h);
  int winner = (a_alive && !d_alive) ? attacker : (d_alive && !a_alive) ? defender : -1;
  last_battle_rounds = b->round;
  end_battle(b, winner, info);
  return winner;
}

void Game::end_battle(Battle* b, int winner, Event& info) {
  info.has_winner = true;
  info.winner = winner;
  if (winner >= 0) {
    players[winner].won_battle = true;
    int loser = winner == b->attacker ? b->defender : b->attacker;
    if (!trigs[E_BATTLE_WON].empty()) {
      Event e = info;
      e.battle_enemy = loser;
      fire(E_BATTLE_WON, e, winner);
    }
  }
  if (logging)
    Log(ev, "battle_end").s("hex", name(b->hex)).opt_i("winner", winner).i("rounds", b->round);
  if (!trigs[E_BATTLE_END].empty()) {
    for (int p : {b->attacker, b->defender}) {
      Event e = info;
      e.battle_enemy = p == b->attacker ? b->defender : b->attacker;
      fire(E_BATTLE_END, e, p);
    }
  }
  int bid = b->bid;
  remove_where([bid](Active* a) { return a->battle == bid; });
}

bool Game::retreats(Battle* b) {
  for (int p : {b->attacker, b->defender}) {
    std::vector<Active*> list = mods[M_RETREAT_FROM_BATTLE];
    for (auto* a : list) {
      if (a->owner != p) continue;
      Ctx ctx = act_ctx(a);
      auto c = hex_candidates(*a->mod->hexsel, ctx);
      if (std::find(c.begin(), c.end(), b->hex) != c.end()) {
        retreat(p, b->hex);
        return true;
      }
    }
  }
  return false;
}

void Game::retreat(int p, int h) {
  std::vector<int> free_;
  for (int n : topo.nbrs[h])
    if (!occupants(n)) free_.push_back(n);
  std::vector<Champion*> champs;
  for (auto* c : champs_at[h])
    if (c->owner == p) champs.push_back(c);
  if (free_.empty()) {
    destroy_forces(p, h, f(h, p));
    for (auto* ch : champs) kill(ch, -1);
    if (logging) Log(ev, "retreat").i("p", p).null("to");
    return;
  }
  int to = rng.choice(free_);
  relocate_group(p, h, to, champs, f(h, p));
  dirty.erase(to);
  if (logging) Log(ev, "retreat").i("p", p).s("to", name(to));
}

std::pair<int64_t, int64_t> Game::unit_stats(Battle* b, int p, Champion* ch) {
  int64_t dice, hit;
  if (!ch) { dice = R.force_dice; hit = R.force_hit; }
  else { dice = ch->defn->dice; hit = ch->defn->hit; }
  if (mods[M_HIT_ON].empty() && mods[M_EXTRA_DICE].empty() && mods[M_SET_DICE].empty())
    return {std::max<int64_t>(0, dice), std::min<int64_t>(hit, 6)};
  int64_t own_hit = hit, cap_hit = 6, extra = 0, setd = 0;
  bool has_set = false;
  for (int kind : {M_HIT_ON, M_EXTRA_DICE, M_SET_DICE}) {
    std::vector<Active*> list = mods[kind];
    for (auto* a : list) {
      if (!battle_applies(a, b) || !unit_matches(a, ch, ch == nullptr, p)) continue;
      Ctx ctx = act_ctx(a, b);
      if (!limit_ok(a, b) || !cond(a->mod->when.get(), ctx)) continue;
      mark_used(a, b);
      if (kind == M_HIT_ON) {
        int64_t v = a->mod->value;
        if (a->owner == p) own_hit = std::max(own_hit, v);
        else cap_hit = std::min(cap_hit, v);
      } else if (kind == M_EXTRA_DICE) {
        extra += amount(a->mod->amount, ctx);
      } else {
        int64_t v = a->mod->value;
        setd = has_set ? std::min(setd, v) : v;
        has_set = true;
      }
    }
  }
  dice = has_set ? setd : dice + extra;
  return {std::max<int64_t>(0, dice), std::min(own_hit, cap_hit)};
}

void Game::roll_side(Battle* b, int p, int64_t& force_hits, std::vector<Champion*>& champ_hits) {
  int64_t nf = f(b->hex, p);
  force_hits = 0;
  if (nf) {
    auto st = unit_stats(b, p, nullptr);
    double hit = (double)st.second;
    for (int64_t k = 0; k < nf * st.first; ++k)
      {
        double r = rng.random();
        if (logging) tally[(int)(r * 6)]++;
        if (r * 6 < hit) force_hits++;
      }
  }
  if (!champs_at[b->hex].empty()) {
    std::vector<Champion*> mine;
    for (auto* c : champs_at[b->hex])
      if (c->owner == p) mine.push_back(c);
    for (auto* ch : mine) {
      auto st = unit_stats(b, p, ch);
      double hit = (double)st.second;
      for (int64_t k = 0; k < st.first; ++k)
      {
        double r = rng.random();
        if (logging) tally[(int)(r * 6)]++;
        if (r * 6 < hit) champ_hits.push_back(ch);
      }
    }
  }
}

void Game::combat_round(Battle* b) {
  int att = b->attacker, dfn = b->defender;
  int64_t af = 0, df = 0;
  std::vector<Champion*> ac, dc;
  std::string dice = "{";
  for (int side = 0; side < 2; ++side) {  // the faces each side rolled, counted (log only)
    for (auto& t : tally) t = 0;
    if (side == 0) roll_side(b, att, af, ac); else roll_side(b, dfn, df, dc);
    if (logging) {
      put_str(dice, std::to_string(side ? dfn : att));
      dice += ":[";
      for (int k = 0; k < 6; ++k) dice += (k ? "," : "") + std::to_string(tally[k]);
      dice += side ? "]}" : "],";
    }
  }
  Hits a_plan = assign(b, att, dfn, af, ac);
  Hits d_plan = assign(b, dfn, att, df, dc);
  if (logging) {
    std::string hits = "{";
    put_str(hits, std::to_string(att));
    hits += ":" + std::to_string(af + (int64_t)ac.size()) + ",";
    put_str(hits, std::to_string(dfn));
    hits += ":" + std::to_string(df + (int64_t)dc.size()) + "}";
    Log(ev, "round").s("hex", name(b->hex)).i("n", b->round).raw("hits", hits)
        .raw("dice", dice);
  }
  for (int side = 0; side < 2; ++side) {
    int p = side ? dfn : att, enemy = side ? att : dfn;
    Hits& plan = side ? d_plan : a_plan;
    if (plan.forces_hit) destroy_forces(enemy, b->hex, plan.forces_hit);
    for (auto& kv : plan.on) damage(kv.first, kv.second.first, p, kv.second.second, b);
  }
}

Game::Hits Game::assign(Battle* b, int p, int enemy, int64_t force_hits,
                        const std::vector<Champion*>& champ_hits) {
  Hits out;
  int64_t nf = f(b->hex, enemy);
  std::vector<Champion*> champs;
  for (auto* c : champs_at[b->hex])
    if (c->owner == enemy) champs.push_back(c);
  int64_t total_hits = force_hits + (int64_t)champ_hits.size();
  int64_t chosen = mods[M_ASSIGN_HITS].empty() ? 0 : chosen_hits(b, p, total_hits);
  if (!nf && champs.empty()) return out;
  std::vector<char> forces_hit(nf, 0);
  int64_t n_hit = 0;
  auto hit_force = [&](int64_t k) {
    if (!forces_hit[k]) { forces_hit[k] = 1; n_hit++; }
  };
  auto on_champ = [&](Champion* ch, Champion* src) {
    for (auto& kv : out.on)
      if (kv.first == ch) { kv.second.first += 1; kv.second.second = src; return; }
    out.on.push_back({ch, {1, src}});
  };
  if (!chosen && opt.hit_assignment == "at_roll") {  // _assign_at_random
    int64_t total = nf + (int64_t)champs.size();
    int k = MT::bit_length((uint64_t)total);
    if (champs.empty()) {
      for (int64_t i = 0; i < total_hits; ++i) {
        uint32_t r = rng.bits(k);
        while ((int64_t)r >= total) r = rng.bits(k);
        hit_force(r);
      }
      out.forces_hit = n_hit;
      return out;
    }
    bool redir = !mods[M_REDIRECT_HIT].empty();
    for (int64_t i = 0; i < total_hits; ++i) {
      Champion* src = i < force_hits ? nullptr : champ_hits[i - force_hits];
      uint32_t r = rng.bits(k);
      while ((int64_t)r >= total) r = rng.bits(k);
      if ((int64_t)r < nf) { hit_force(r); continue; }
      Champion* ch = champs[r - nf];
      if (redir) {
        int64_t to = redirect(b, enemy, ch, nf, forces_hit);
        if (to >= 0) {
          hit_force(to);
          continue;
        }
      }
      on_champ(ch, src);
    }
    out.forces_hit = n_hit;
    return out;
  }
  for (int64_t kk = 0; kk < total_hits; ++kk) {
    Champion* src = kk < force_hits ? nullptr : champ_hits[kk - force_hits];
    int64_t tgt;
    if (kk < chosen) {
      bool force_ok = n_hit < nf;
      size_t n = (force_ok ? 1 : 0) + champs.size();
      if (!n) break;
      Ask ask;  // agents._assign_hit: a Force 1.0, a Champion 5 - its HP
      if (n > 1 && wants_ask(p))
        ask.score = [&champs, force_ok](size_t i, bool) {
          if (force_ok && i == 0) return 1.0;
          return 5.0 - (double)champs[i - (force_ok ? 1 : 0)]->hp;
        };
      if (wants_repr(p))
        ask.repr = [&champs, force_ok](size_t i) {
          if (force_ok && i == 0) return std::string("('force',)");
          return "('champion', " + std::to_string(champs[i - (force_ok ? 1 : 0)]->cid) + ")";
        };
      int idx = n == 1 ? 0 : decide(p, "assign_hit", n, &ask);
      if (force_ok && idx == 0) {
        tgt = 0;
        while (forces_hit[tgt]) tgt++;
      } else {
        tgt = (idx - (force_ok ? 1 : 0)) + nf;
      }
    } else if (opt.hit_assignment == "at_roll") {
      tgt = rng.below(nf + (int64_t)champs.size());
    } else {
      std::vector<int64_t> alive;
      for (int64_t x = 0; x < nf; ++x)
        if (!forces_hit[x]) alive.push_back(x);
      for (size_t i = 0; i < champs.size(); ++i) {
        int64_t got = 0;
        for (auto& kv : out.on)
          if (kv.first == champs[i]) got = kv.second.first;
        if (got < champs[i]->hp) alive.push_back(nf + (int64_t)i);
      }
      if (alive.empty()) break;
      tgt = alive[rng.below((int64_t)alive.size())];
    }
    if (tgt >= nf) {
      Champion* ch = champs[tgt - nf];
      int64_t to = redirect(b, enemy, ch, nf, forces_hit);
      if (to >= 0) {
        hit_force(to);
        continue;
      }
      on_champ(ch, src);
    } else {
      hit_force(tgt);
    }
  }
  out.forces_hit = n_hit;
  return out;
}

int64_t Game::chosen_hits(Battle* b, int p, int64_t n) {
  int64_t best = 0;
  std::vector<Active*> list = mods[M_ASSIGN_HITS];
  for (auto* a : list) {
    if (a->owner != p || !battle_applies(a, b)) continue;
    Ctx ctx = act_ctx(a, b);
    if (limit_ok(a, b) && cond(a->mod->when.get(), ctx)) {
      mark_used(a, b);
      best = std::max(best, a->mod->has_count ? a->mod->count : n);
    }
  }
  return std::min(best, n);
}

// combat._redirect: the Force a hit on `ch` goes to instead (the caller marks it hit), or -1
int64_t Game::redirect(Battle* b, int enemy, Champion* ch, int64_t nf,
                       const std::vector<char>& forces_hit) {
  int64_t first_free = -1;
  for (int64_t i = 0; i < nf; ++i)
    if (!forces_hit[i]) { first_free = i; break; }
  if (first_free < 0) return -1;
  std::vector<Active*> list = mods[M_REDIRECT_HIT];
  for (auto* a : list) {
    if (a->owner != enemy || !battle_applies(a, b)) continue;
    int64_t count = a->mod->has_count ? a->mod->count : 1;
    int64_t used = 0;
    for (auto& kv : b->redirected)
      if (kv.first == a) used = kv.second;
    if (used >= count) continue;
    Ctx ctx = act_ctx(a, b);
    if (!cond(a->mod->when.get(), ctx)) continue;
    if (a->champ && a->champ->hex != b->hex) continue;
    bool found = false;
    for (auto& kv : b->redirected)
      if (kv.first == a) { kv.second += 1; found = true; }
    if (!found) b->redirected.push_back({a, 1});
    if (logging) Log(ev, "redirect").i("p", enemy).s("card", ch->defn->id);
    return first_free;
  }
  return -1;
}

void Game::sieges() {
  for (int h = 0; h < N; ++h) {
    if (cap_owner[h] < 0) continue;
    unsigned o = occupants(h);
    if (popcount(o) != 2) continue;
    int owner = cap_owner[h];
    int dfn = (o & (1u << owner)) ? owner : __builtin_ctz(o);
    int att = __builtin_ctz(o & ~(1u << dfn));
    battle(h, att, dfn, true);
    checkpoint("siege");
  }
}

// ================================ phases.py ==================================================
void Game::reset_phase() {
  for (int p = 0; p < P; ++p) {
    Player& pl = players[p];
    pl.new_round();
    pl.gold += R.base_income;
    pl.mana = R.max_mana;
    draw(p, std::max<int64_t>(0, R.hand_size - (int64_t)players[p].hand.size()));
    int64_t over = (int64_t)players[p].hand.size() - R.hand_limit;
    if (over > 0)
      for (int iid : choose_cards(p, "discard", players[p].hand, over, false)) discard_card(p, iid);
    if (owned(trigs[E_ROUND_START], p)) {
      Event e;
      e.player = p;
      fire(E_ROUND_START, e, p);
    }
  }
  checkpoint("reset");
}

int64_t Game::mine_bonus(int p, int h) {
  int64_t bonus = 0;
  for (auto* a : mods[M_MINE_BONUS]) {
    if (a->owner != p) continue;
    Event e;
    e.has_hex = true;
    e.hex = h;
    Ctx ctx = act_ctx(a, nullptr, &e);
    if (a->mod->hexsel) {
      auto c = hex_candidates(*a->mod->hexsel, ctx);
      if (std::find(c.begin(), c.end(), h) == c.end()) continue;
    }
    if (cond(a->mod->when.get(), ctx)) bonus += amount(a->mod->amount, ctx);
  }
  return bonus;
}

void Game::collection_phase() {
  for (int p : seat_order()) {
    std::vector<int> hexes = occ[p];
    for (int h : hexes) {
      int t = tile[h];
      if (t == T_MINE) {
        int64_t gold = mine_value[h] + mine_bonus(p, h);
        Ask ask;  // agents._mine: Gold, but for a Mine Draft in the last round
        if (wants_ask(p)) {
          bool last = round >= R.round_cap;
          ask.score = [last](size_t i, bool) { return (i == 0) != last ? 2.0 : 1.0; };
        }
        if (wants_repr(p))
          ask.repr = [gold](size_t i) {
            return i == 0 ? "('gold', " + std::to_string(gold) + ")" : std::string("('draft',)");
          };
        if (decide(p, "mine", 2, &ask) == 0) {
          players[p].gold += gold;
          if (logging) Log(ev, "collect").i("p", p).s("tile", "mine").i("gold", gold);
        } else {
          draft(p, deck_for(true, age), R.mine_draft_reveal, "mine_draft", true);
        }
      } else if (t == T_FORGE) {
        size_t n = players[p].hand.empty() ? 1 : 2;
        Ask ask;  // agents._forge: the draft
        if (wants_ask(p)) ask.score = [](size_t i, bool) { return i == 0 ? 2.0 : 1.0; };
        if (wants_repr(p))
          ask.repr = [](size_t i) { return std::string(i == 0 ? "('draft',)" : "('reforge',)"); };
        if (decide(p, "forge", n, &ask) == 1) {
          for (int iid : choose_cards(p, "scrap", players[p].hand, 1, false)) scrap_card(p, iid);
        } else {
          draft(p, deck_for(true, age), R.forge_draft_reveal, "forge_draft");
        }
      } else if (t == T_CENTER) {
        draft(p, deck_for(false, age), R.power_pick_reveal, "power_pick");
      }
      checkpoint("collect");
    }
  }
}

int64_t Game::control_vp(int p) {
  int64_t value[3] = {R.cvp_center, R.cvp_forge, R.cvp_enemy_capital};
  for (auto* a : mods[M_CONTROL_VP])
    if (a->owner == p) value[a->mod->vp_kind] = std::max(value[a->mod->vp_kind], a->mod->raw_amount);
  int64_t vp = 0;
  for (int h : occ[p]) {
    if (tile[h] == T_CENTER) vp += value[0];
    else if (tile[h] == T_FORGE) vp += value[1];
    else if (cap_owner[h] >= 0 && cap_owner[h] != p) vp += value[2];
  }
  for (auto* a : mods[M_VP_WHILE]) {
    if (a->owner != p) continue;
    Ctx ctx = act_ctx(a);
    if (cond(a->mod->when.get(), ctx)) {
      Ctx ctx2 = act_ctx(a);
      vp += amount(a->mod->amount, ctx2);
    }
  }
  return vp;
}

std::vector<int> Game::scoring_phase() {
  std::vector<int> winners;
  for (int p = 0; p < P; ++p) {
    players[p].cvp = control_vp(p);
    if (players[p].pvp + players[p].cvp >= R.vp_to_win && !capital_has_enemy(p))
      winners.push_back(p);
  }
  if (logging) {
    std::string vp = "{";
    for (int p = 0; p < P; ++p) {
      if (p) vp += ",";
      put_str(vp, std::to_string(p));
      vp += ":[" + std::to_string(players[p].pvp) + "," + std::to_string(players[p].cvp) + "]";
    }
    vp += "}";
    Log(ev, "score").raw("vp", vp);
  }
  return winners;
}

std::vector<int> Game::rank(std::vector<int> seats) {
  auto key = [&](int p) {
    std::vector<int64_t> k;
    for (auto& t : R.tie_breakers) {
      const Player& pl = players[p];
      if (t == "total_vp") k.push_back(pl.pvp + pl.cvp);
      else if (t == "permanent_vp") k.push_back(pl.pvp);
      else k.push_back(pl.gold);
    }
    return k;
  };
  std::vector<int64_t> best = key(seats[0]);
  for (int p : seats) best = std::max(best, key(p));
  std::vector<int> top;
  for (int p : seats)
    if (key(p) == best) top.push_back(p);
  if (top.size() > 1 && opt.final_tie == "die") top = {roll_off(top, "final_tie")};
  return top;
}

void Game::cleanup_phase() {
  for (int p = 0; p < P; ++p) {
    std::vector<int> hand = players[p].hand;
    for (int iid : hand) discard_card(p, iid);
  }
  for (int p = 0; p < P; ++p)
    if (owned(trigs[E_ROUND_END], p)) {
      Event e;
      e.player = p;
      fire(E_ROUND_END, e, p);
    }
  bool next = opt.next_battle_expires;
  remove_where([next](Active* a) {
    return a->duration == D_END_OF_ROUND || a->duration == D_FIRST_BATTLE ||
           a->duration == D_THIS_BATTLE || (next && a->duration == D_NEXT_BATTLE);
  });
  std::vector<int> temps = temp_list;
  std::sort(temps.begin(), temps.end());
  for (int e : temps) {
    bridge_discard(e);
    if (logging) Log(ev, "unbridge").i("edge", e).b("temporary", true);
  }
  for (int e : temp_list) temp_on[topo.edge_idx[e]] = 0;
  temp_list.clear();
  checkpoint("cleanup");
}

void Game::advance_round() {
  round += 1;
  const Age* a = R.age_of_round(round);
  if (a) age = a->numeral;
  if (opt.lead == "rotate") lead = (int)((round - 1) % P);
}

// ================================ market.py ==================================================
int Game::roll_off(std::vector<int> seats, const char* why) {
  std::sort(seats.begin(), seats.end());
  while (seats.size() > 1) {
    std::vector<int64_t> rolls;
    for (size_t k = 0; k < seats.size(); ++k) rolls.push_back(rng.randint(1, 6));
    int64_t low = *std::min_element(rolls.begin(), rolls.end());
    if (logging) {
      std::string r = "{";
      for (size_t k = 0; k < seats.size(); ++k) {
        if (k) r += ",";
        put_str(r, std::to_string(seats[k]));
        r += ":" + std::to_string(rolls[k]);
      }
      r += "}";
      Log(ev, "rolloff").s("why", why).raw("rolls", r);
    }
    std::vector<int> keep;
    for (size_t k = 0; k < seats.size(); ++k)
      if (rolls[k] == low) keep.push_back(seats[k]);
    seats.swap(keep);
  }
  return seats[0];
}

std::vector<int> Game::market_row() {
  int64_t n = 0;
  if (const Age* a = R.age_of_round(round)) {
    std::string key = std::to_string(round);
    for (auto& kv : a->preview)
      if (kv.first == key) n = kv.second;
    n = std::max<int64_t>(0, std::min<int64_t>(P, n));
  }
  const Age* nxt = nullptr;
  for (size_t i = 0; i < R.ages.size(); ++i)
    if (R.ages[i].numeral == age) {
      if (i + 1 < R.ages.size()) nxt = &R.ages[i + 1];
      break;
    }
  std::vector<int> row;
  if (n && nxt) row = reveal(nxt->market_deck, n);
  std::vector<int> more = reveal(deck_for(true, age), P - (int64_t)row.size());
  row.insert(row.end(), more.begin(), more.end());
  rng.shuffle(row);
  if (logging) {
    std::string ids = "[";
    for (size_t k = 0; k < row.size(); ++k) {
      if (k) ids += ",";
      put_str(ids, cards[row[k]].defn->id);
    }
    ids += "]";
    Log(ev, "market").i("round", round).raw("cards", ids).i("preview", n);
  }
  return row;
}

int Game::resolve_bids(int iid, const std::vector<int>& eligible) {
  std::vector<std::pair<bool, int64_t>> bids;  // (buy?, gold) per eligible seat
  for (int p : eligible) {
    int64_t gold = players[p].gold;
    int64_t n_pass = std::max<int64_t>(0, gold - R.min_pass_bid + 1);
    int64_t n_buy = std::max<int64_t>(0, gold - R.min_buy_bid + 1);
    Ask ask;  // agents._bid: near the Gold it means to bid (_bid_target)
    if (wants_ask(p)) {
      ask.bid_card = iid;
      ask.buy = [n_pass](size_t i) { return (int64_t)i >= n_pass; };
      if (is_heuristic(p)) {
        double target = bid_target(p, iid);
        int64_t lo_pass = R.min_pass_bid, lo_buy = R.min_buy_bid;
        ask.score = [target, n_pass, lo_pass, lo_buy](size_t i, bool) {
          if ((int64_t)i < n_pass) {
            double x = (double)(lo_pass + (int64_t)i);
            return (target < 1 ? 1.0 : -1.0) - x;
          }
          double x = (double)(lo_buy + ((int64_t)i - n_pass));
          return target >= 1 ? 2.0 - std::abs(x - target) : -2.0;
        };
      }
    }
    if (wants_repr(p)) {
      int64_t lo_pass = R.min_pass_bid, lo_buy = R.min_buy_bid;
      ask.repr = [n_pass, lo_pass, lo_buy](size_t i) {
        if ((int64_t)i < n_pass) return "('pass', " + std::to_string(lo_pass + (int64_t)i) + ")";
        return "('buy', " + std::to_string(lo_buy + ((int64_t)i - n_pass)) + ")";
      };
    }
    size_t n = (size_t)(n_pass + n_buy);
    int i;
    if (!in_sim && searcher.size() > (size_t)p && searcher[p] && scfg->bids && n > 1 &&
        (scfg->limit < 0 || scfg->searched < scfg->limit) && !replay_pending()) {
      i = search_root(p, "bid", n, ask, -1 - (int)mkt_at);  // search.cpp: resumes the market
      i = answered("bid", n, kept(i, p, "bid", &ask));
      decisions++;
      if (logging) Log(ev, "decide").i("p", p).s("kind", "bid").i("n", (int64_t)n).i("i", i);
    } else {
      i = decide(p, "bid", n, &ask);
    }
    if (i < n_pass) bids.push_back({false, R.min_pass_bid + i});
    else bids.push_back({true, R.min_buy_bid + (i - n_pass)});
  }
  if (logging) {
    std::string b = "{", g = "{", need = "{";
    for (size_t k = 0; k < eligible.size(); ++k) {
      int p = eligible[k];
      if (k) { b += ","; g += ","; need += ","; }
      put_str(b, std::to_string(p));
      b += ":[";
      put_str(b, bids[k].first ? "buy" : "pass");
      b += "," + std::to_string(bids[k].second) + "]";
      put_str(g, std::to_string(p));
      g += ":" + std::to_string(players[p].gold);
      int64_t most = 0;
      for (int c : players[p].hand) most = std::max(most, cards[c].gold());
      put_str(need, std::to_string(p));
      need += ":" + std::to_string(most);
    }
    b += "}"; g += "}"; need += "}";
    Log(ev, "bids").s("card", cards[iid].defn->id).raw("bids", b).raw("gold", g).raw("need", need);
  }
  int winner;
  bool any_buy = false;
  int64_t top = 0;
  for (auto& x : bids)
    if (x.first) { top = any_buy ? std::max(top, x.second) : x.second; any_buy = true; }
  if (any_buy) {
    std::vector<int> tied;
    for (size_t k = 0; k < bids.size(); ++k)
      if (bids[k].first && bids[k].second == top) tied.push_back(eligible[k]);
    winner = roll_off(tied, "buy");
    players[winner].gold -= top;
    if (logging) Log(ev, "buy").i("p", winner).i("gold", top);
  } else {
    int64_t low = bids[0].second;
    for (auto& x : bids) low = std::min(low, x.second);
    std::vector<int> tied;
    for (size_t k = 0; k < bids.size(); ++k)
      if (bids[k].second == low) tied.push_back(eligible[k]);
    winner = roll_off(tied, "pass");
    int64_t pot = 0;
    for (size_t k = 0; k < bids.size(); ++k) {
      players[eligible[k]].gold -= bids[k].second;
      pot += bids[k].second;
    }
    players[winner].gold += pot;
    if (logging) Log(ev, "pass_pot").i("p", winner).i("pot", pot);
  }
  take_revealed(iid);
  gain_card(winner, iid, false);
  players[winner].market_won = true;
  return winner;
}

void Game::market_phase() { market_rest(market_row(), 0); }

void Game::market_rest(const std::vector<int>& row, size_t k) {
  mkt_row = row;
  for (size_t at = k; at < row.size(); ++at) {
    int iid = row[at];
    std::vector<int> eligible;
    for (int p = 0; p < P; ++p)
      if (!players[p].market_won) eligible.push_back(p);
    if (eligible.empty()) break;
    mkt_at = at;
    resolve_bids(iid, eligible);
    checkpoint("market");
  }
  for (int iid : row)
    if (std::find(revealed.begin(), revealed.end(), iid) != revealed.end())
      to_bottom(cards[iid].defn->deck, {iid});
}

}  // namespace tn
