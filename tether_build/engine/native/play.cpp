// Effect steps (steps_*.py), choosing (core.Ctx.choose), declaring a card (declare.py), the
// Action Phase (actions.py), setup (setup.py, board.py) and the game loop (play.py).
#include "game.h"

namespace tn {

static const char* const TKIND_NAMES[] = {"hex", "champion", "bridge", "player"};

// ================================ step targets ===============================================
struct Game::Target {
  std::vector<int> seats;
  std::vector<Val> vals;
  std::vector<MoveOpt> moves;
  std::vector<int> edges;
  std::vector<std::pair<Champion*, int>> pairs;
  Val one;
};

static std::vector<Val> hex_vals(const std::vector<int>& hs) {
  std::vector<Val> o;
  o.reserve(hs.size());
  for (int h : hs) o.push_back(Val::integer(h));
  return o;
}
static std::vector<Val> champ_vals(const std::vector<Champion*>& cs) {
  std::vector<Val> o;
  o.reserve(cs.size());
  for (auto* c : cs) o.push_back(Val::champ(c));
  return o;
}

// steps_board.pick: targets by the selector's pick mode: all, one at random, or one chosen
std::vector<Val> Game::pick(Ctx& ctx, int64_t key, int kind, const Step* st, bool optional) {
  bool champ = kind == TK_CHAMPION;
  const HexSel* hs = key % 1024 == SUB_H ? st->hs2.get() : st->hs.get();
  int mode = champ ? st->cs->pick : hs->pick;
  auto cands = [&]() { return champ ? champ_vals(champ_candidates(*st->cs, ctx))
                                    : hex_vals(hex_candidates(*hs, ctx)); };
  if (mode != PK_CHOOSE) {
    if (optional) {
      Val m = choose(ctx, key, "may", []() { return std::vector<Val>{Val::yes()}; }, false, true);
      if (m.t == V_NULL) return {};
    }
    std::vector<Val> c = cands();
    if (mode == PK_ALL || c.empty() || ctx.declaring) return c;
    return {rng.choice(c)};
  }
  Val v = choose(ctx, key, TKIND_NAMES[kind], cands, false, optional);
  if (v.t == V_NONE || v.t == V_NULL) return {};
  return {v};
}

bool Game::step_exists(const Step* st, Ctx& ctx) {
  switch (st->kind) {
    case S_CHOOSE_TARGET:
      if (st->hs) return hex_exists(*st->hs, ctx);
      if (st->cs) return champ_exists(*st->cs, ctx);
      if (st->bs) return bridge_exists(*st->bs, ctx);
      return true;
    case S_MOVE: return can_move(ctx.p, st->unit, st->ign);
    case S_BUILD_BRIDGE: case S_DESTROY_BRIDGE: return bridge_exists(*st->bs, ctx);
    default:
      if (st->cs) return champ_exists(*st->cs, ctx);
      if (st->hs) return hex_exists(*st->hs, ctx);
      return true;
  }
}

static bool filter_ok(const CardFilter& f, const Ctx& ctx, const CardDef& d) {
  if (f.has_type && d.type != f.type) return false;
  if (f.has_mana && d.mana != f.mana) return false;
  if (f.has_deck && d.deck != f.deck) return false;
  return !(f.exclude_this && ctx.inst && &d == ctx.inst->defn);
}

// the select half of a step (Step.select): its targets; the agent is asked here
static void select_step(Game& g, const Step* st, Ctx& ctx, Game::Target& t) {
  switch (st->kind) {
    case S_GAIN_GOLD: case S_LOSE_GOLD: case S_STEAL_GOLD: case S_SET_MANA:
      t.seats = g.players_of(st->player, ctx, st);
      break;
    case S_DEPLOY: case S_DEPLOY_CHAMPION: case S_DESTROY_FORCES: case S_MINE_VALUE:
      t.vals = g.pick(ctx, key_of(st), TK_HEX, st, st->optional);
      break;
    case S_HEAL: case S_DAMAGE: case S_REMOVE_CHAMPION: case S_MULTIPLY_HP:
      t.vals = g.pick(ctx, key_of(st), TK_CHAMPION, st, st->optional);
      break;
    case S_SUMMON: case S_SCATTER:
      t.vals = g.pick(ctx, key_of(st), TK_HEX, st, false);
      break;
    case S_MOVE: {
      if (ctx.dry) {
        if (!st->optional && !g.can_move(ctx.p, st->unit, st->ign)) throw NoTarget{};
        break;
      }
      for (int64_t i = 0; i < st->stacks; ++i) {
        std::vector<int> used;
        for (auto& c : t.moves) {
          used.push_back(c.src);
          used.push_back(c.last());
        }
        auto options = [&]() {
          std::vector<MoveOpt> opts;
          g.move_options(ctx.p, st->unit, st->dist, st->ign, st->stop, used, opts);
          std::vector<Val> o;
          if (i > 0 && !opts.empty()) o.push_back(Val::null());
          for (auto& m : opts) o.push_back(Val::move(m));
          return o;
        };
        Val v = g.choose(ctx, key_of(st, 1 + (int)i), "move", options, true,
                         st->optional && i == 0, i == 0);
        if (v.t == V_NONE || v.t == V_NULL) break;
        t.moves.push_back(v.m);
      }
      break;
    }
    case S_RELOCATE: {
      std::vector<Val> champs = g.pick(ctx, key_of(st, SUB_C), TK_CHAMPION, st, st->optional);
      std::vector<Val> hexes;
      if (!champs.empty()) hexes = g.pick(ctx, key_of(st, SUB_H), TK_HEX, st, false);
      for (size_t k = 0; k < champs.size() && k < hexes.size(); ++k)
        t.pairs.push_back({champs[k].c, (int)hexes[k].i});
      break;
    }
    case S_BUILD_BRIDGE: case S_DESTROY_BRIDGE:
      for (int64_t i = 0; i < st->count; ++i) {
        auto options = [&]() {
          std::vector<Val> o;
          for (int e : g.bridge_candidates(*st->bs, ctx))
            if (std::find(t.edges.begin(), t.edges.end(), e) == t.edges.end())
              o.push_back(Val::integer(e));
          return o;
        };
        Val v = g.choose(ctx, key_of(st, 1 + (int)i), "bridge", options, false, st->optional,
                         i == 0);
        if (v.t == V_NONE || v.t == V_NULL) break;
        t.edges.push_back((int)v.i);
      }
      break;
    case S_CHOOSE_TARGET: {
      if (!st->hs && !st->cs && !st->bs) {
        std::vector<int> seats = g.players_of(st->player, ctx, st);
        t.one = seats.empty() ? Val::none() : Val::integer(seats[0]);
        break;
      }
      auto cands = [&]() {
        if (st->hs) return hex_vals(g.hex_candidates(*st->hs, ctx));
        if (st->cs) return champ_vals(g.champ_candidates(*st->cs, ctx));
        return hex_vals(g.bridge_candidates(*st->bs, ctx));
      };
      if (st->pick_random) {
        std::vector<Val> c = cands();
        t.one = c.empty() ? Val::none() : g.rng.choice(c);
        break;
      }
      t.one = g.choose(ctx, key_of(st), TKIND_NAMES[st->tkind], cands);
      break;
    }
    case S_CHOOSE_ONE: {
      auto labels = [&]() {
        std::vector<Val> o;
        for (auto& opt : st->options) o.push_back(Val::label(g.R.name_ids.at(opt.first)));
        return o;
      };
      t.one = g.choose(ctx, key_of(st), "option", labels);
      break;
    }
    default: break;
  }
}

void Game::step_select_only(const Step* st, Ctx& ctx) {
  Target t;
  select_step(*this, st, ctx, t);
}

static void hand_choice(Game& g, const Step* st, Ctx& ctx, const char* kind) {
  const auto& hand = g.players[ctx.p].hand;
  int64_t n = std::min<int64_t>(g.amount(st->amt, ctx), (int64_t)hand.size());
  std::vector<int> picks = g.choose_cards(ctx.p, kind, hand, n, st->up_to);
  for (int iid : picks) {
    if (st->kind == S_DISCARD) {
      g.discard_card(ctx.p, iid);
    } else if (st->kind == S_SCRAP) {
      g.scrap_card(ctx.p, iid);
    } else {
      Player& pl = g.players[ctx.p];
      pl.hand.erase(std::find(pl.hand.begin(), pl.hand.end(), iid));
      pl.draw.push_back(iid);
      if (g.logging) Log(g.ev, "to_top").i("p", ctx.p);
    }
  }
  ctx.last_count = (int64_t)picks.size();
}

static int summoned_card(Game& g, const std::string& card_id) {
  for (auto& kv : g.decks) {
    auto& pile = kv.second;
    for (int k = (int)pile.size() - 1; k >= 0; --k)
      if (g.cards[pile[k]].defn->id == card_id) {
        if (g.logging) Log(g.ev, "summon").s("card", card_id).s("source", kv.first);
        int iid = pile[k];
        pile.erase(pile.begin() + k);
        return iid;
      }
  }
  int iid = (int)g.cards.size();
  g.cards.emplace_back();
  g.cards.back().iid = iid;
  g.cards.back().defn = g.R.by_id.at(card_id);
  if (g.logging) Log(g.ev, "summon").s("card", card_id).s("source", "new copy");
  return iid;
}

static void run_list(Game& g, const std::vector<Step*>& steps, Ctx& ctx) {
  for (const Step* s : steps) g.run_step(s, ctx);
}

// core.StepBudget.at: the card running when a game passes its step budget, in its words
static StepBudget step_budget_error(const Game& g, const Step* st, const Ctx& ctx) {
  const CardDef* src = ctx.inst ? ctx.inst->defn : ctx.champ ? ctx.champ->defn : nullptr;
  std::string who = src ? "card " + src->id : "a faction passive";
  return StepBudget(who + ": its effect ran past the step budget (" +
                        std::to_string(g.step_budget) + " steps in one game, at a " +
                        STEP_NAMES[st->kind] + " step): a repeat or a trigger without end?",
                    src ? src->id : "");
}

void Game::run_step(const Step* st, Ctx& ctx) {
  if (--steps_left < 0) throw step_budget_error(*this, st, ctx);  // as core.Step.run
  Target t;
  if (st->has_select) select_step(*this, st, ctx, t);
  Player& me = players[ctx.p];
  switch (st->kind) {
    case S_NOOP: break;
    case S_GAIN_GOLD: {
      int64_t n = amount(st->amt, ctx);
      for (int q : t.seats) {
        players[q].gold += n;
        if (logging) Log(ev, "gold").i("p", q).i("n", n);
      }
      ctx.last_count = n;
      break;
    }
    case S_LOSE_GOLD: {
      int64_t total = 0;
      for (int q : t.seats) {
        int64_t n = std::min(players[q].gold, amount(st->amt, ctx));
        players[q].gold -= n;
        total += n;
        if (logging) Log(ev, "gold").i("p", q).i("n", -n);
      }
      ctx.last_count = total;
      break;
    }
    case S_STEAL_GOLD: {
      int64_t total = 0;
      for (int q : t.seats) {
        if (q == ctx.p) continue;
        int64_t n = std::min(players[q].gold, amount(st->amt, ctx));
        players[q].gold -= n;
        me.gold += n;
        total += n;
        if (logging) Log(ev, "steal").i("p", ctx.p).i("frm", q).i("n", n);
      }
      ctx.last_count = total;
      break;
    }
    case S_GAIN_MANA: me.mana += amount(st->amt, ctx); break;
    case S_SET_MANA:
      for (int q : t.seats) {
        players[q].mana = amount(st->amt, ctx);
        if (logging) Log(ev, "mana").i("p", q).i("set", amount(st->amt, ctx));
      }
      break;
    case S_GAIN_VP: {
      int64_t n = amount(st->amt, ctx);
      me.pvp += n;
      if (logging) Log(ev, "vp").i("p", ctx.p).i("n", n);
      break;
    }
    case S_DRAW: {
      int64_t n = amount(st->amt, ctx);
      if (st->others) {
        for (int q = 0; q < P; ++q)
          if (q != ctx.p) draw(q, n);
      } else {
        ctx.last_count = draw(ctx.p, n);
      }
      break;
    }
    case S_DISCARD: hand_choice(*this, st, ctx, "discard"); break;
    case S_SCRAP: hand_choice(*this, st, ctx, "scrap"); break;
    case S_PUT_ON_TOP: hand_choice(*this, st, ctx, "put_on_top"); break;
    case S_LOOK: {
      int64_t extra = st->take ? pick_extra(ctx.p) : 0;
      Player& pl = players[ctx.p];
      std::vector<int> seen;
      int64_t k = std::min<int64_t>(st->count + extra, (int64_t)pl.draw.size());
      for (int64_t i = 0; i < k; ++i) {
        seen.push_back(pl.draw.back());
        pl.draw.pop_back();
      }
      std::vector<int> taken = choose_cards(ctx.p, "look_take", seen,
                                            std::min<int64_t>(st->take, (int64_t)seen.size()), false);
      for (int iid : taken) {
        seen.erase(std::find(seen.begin(), seen.end(), iid));
        players[ctx.p].hand.push_back(iid);
      }
      Player& pp = players[ctx.p];
      if (st->rest == 1) {
        pp.discard.insert(pp.discard.end(), seen.begin(), seen.end());
        for (int iid : seen) card_event(ctx.p, &cards[iid], E_CARD_DISCARDED);
      } else if (st->rest == 2) {
        pp.draw.insert(pp.draw.begin(), seen.begin(), seen.end());
      } else if (st->rest == 3) {
        std::vector<int> low = choose_cards(ctx.p, "look_bottom", seen, (int64_t)seen.size(), true);
        Player& p3 = players[ctx.p];
        p3.draw.insert(p3.draw.begin(), low.begin(), low.end());
        std::vector<int> rest;
        for (int iid : seen)
          if (std::find(low.begin(), low.end(), iid) == low.end()) rest.push_back(iid);
        p3.draw.insert(p3.draw.end(), rest.rbegin(), rest.rend());
      } else {
        pp.draw.insert(pp.draw.end(), seen.rbegin(), seen.rend());
      }
      if (logging)
        Log(ev, "look").i("p", ctx.p).i("n", (int64_t)(seen.size() + taken.size()))
            .i("took", (int64_t)taken.size());
      ctx.last_count = (int64_t)taken.size();
      break;
    }
    case S_DEPLOY:
      for (auto& v : t.vals) deploy(ctx.p, (int)v.i, amount(st->amt, ctx));
      break;
    case S_DEPLOY_CHAMPION:
      for (auto& v : t.vals) {
        if (!ctx.inst) throw Unsupported("deploy_champion without a card");
        Champion* ch = place_champion(ctx.p, ctx.inst->iid, (int)v.i);
        if (ch) ctx.champ = ch;
      }
      break;
    case S_SUMMON: {
      std::vector<const CardDef*> pool;
      for (auto& c : R.cards)
        if (c->is_champion && filter_ok(st->filter, ctx, *c)) pool.push_back(c.get());
      if (pool.empty() || t.vals.empty() || !can_field_champion(ctx.p)) break;
      int h0 = (int)t.vals[0].i;
      if (blocked(ctx.p, h0)) {
        if (logging) Log(ev, "deploy_fail").i("p", ctx.p).s("hex", name(h0));
        break;
      }
      Ask ask;
      if (wants_ask(ctx.p))
        ask.score = [&pool](size_t i, bool) { return (double)pool[i]->hp; };
      if (wants_repr(ctx.p)) ask.repr = [&pool](size_t i) { return py_str(pool[i]->id); };
      const CardDef* card = st->pick_random ? rng.choice(pool)
                                            : pool[decide(ctx.p, "summon", pool.size(), &ask)];
      place_champion(ctx.p, summoned_card(*this, card->id), h0);
      break;
    }
    case S_MOVE:
      for (auto& m : t.moves) {
        int at_ = do_move(ctx.p, m, st->dist, st->ign, st->stop);
        if (st->as_name >= 0) ctx.refs.set(st->as_name, Val::integer(at_));
      }
      break;
    case S_RELOCATE:
      for (auto& pr : t.pairs) {
        if (!on_board(pr.first)) throw Fizzle{"Champion gone"};
        relocate_champion(pr.first, pr.second);
      }
      break;
    case S_BUILD_BRIDGE: case S_DESTROY_BRIDGE: {
      bool build = st->kind == S_BUILD_BRIDGE;
      for (int e : t.edges) {
        if (build && !bridged(e)) {
          if (e < 0 || e >= 65536 || topo.edge_idx[e] < 0) throw Unsupported("a Bridge off the board");
          bridge_add(e);
          if (st->temporary) {
            int k = topo.edge_idx[e];
            if (!temp_on[k]) { temp_on[k] = 1; temp_list.push_back(e); }
          }
          if (logging) Log(ev, "bridge").i("p", ctx.p).i("edge", e).b("temporary", st->temporary);
        } else if (!build && bridged(e)) {
          bridge_discard(e);
          temp_discard(e);
          if (logging) Log(ev, "unbridge").i("p", ctx.p).i("edge", e);
        }
      }
      break;
    }
    case S_HEAL:
      for (auto& v : t.vals) heal(v.c, amount(st->amt, ctx));
      break;
    case S_DAMAGE:
      for (auto& v : t.vals) damage(v.c, amount(st->amt, ctx), ctx.p, nullptr, ctx.battle);
      break;
    case S_DESTROY_FORCES:
      for (auto& v : t.vals) {
        int h = (int)v.i;
        int64_t want = amount(st->amt, ctx), left = want;
        std::vector<int> owners;
        if (st->side == 3) {
          int q = ctx.event ? ctx.event->mover : -1;
          left = std::min<int64_t>(left, ctx.event ? ctx.event->moving_forces : 0);
          if (q >= 0 && f(h, q) > 0 && left > 0) owners.push_back(q);
          want = left;
        } else {
          for (int q = 0; q < P; ++q)
            if (f(h, q) > 0 && (st->side == 1 || (st->side == 0) == (q != ctx.p)))
              owners.push_back(q);
        }
        while (left > 0) {
          int64_t total = 0;
          for (int q : owners) total += f(h, q);
          if (!total) break;
          int q;
          int64_t k;
          if (owners.size() > 1) {
            int64_t r = rng.below(total);
            q = owners[0];
            for (int o : owners) {
              if (r < f(h, o)) { q = o; break; }
              r -= f(h, o);
            }
            k = 1;
          } else {
            q = owners[0];
            k = left;
          }
          left -= destroy_forces(q, h, k);
        }
        ctx.last_count = want - std::max<int64_t>(left, 0);
      }
      break;
    case S_REMOVE_CHAMPION:
      for (auto& v : t.vals) unplace_champion(v.c, st->to_hand);
      break;
    case S_MULTIPLY_HP:
      for (auto& v : t.vals) {
        Champion* ch = v.c;
        ch->hp *= st->factor;
        ch->max_hp = std::max(ch->max_hp, ch->hp);
        if (logging) Log(ev, "hp").s("card", ch->defn->id).i("hp", ch->hp);
      }
      break;
    case S_MINE_VALUE:
      for (auto& v : t.vals) {
        int h = (int)v.i;
        if (tile[h] == T_MINE) {
          mine_value[h] = std::max<int64_t>(0, std::min(st->mine_max, mine_value[h] + st->mine_n));
          if (logging) Log(ev, "mine_value").s("hex", name(h)).i("value", mine_value[h]);
        }
      }
      break;
    case S_FORGE_DRAFT: {
      const std::string& a = st->age == "current" ? age : st->age;
      int got = draft(ctx.p, deck_for(true, a), st->reveal, "forge_draft");
      ctx.last_count = got < 0 ? 0 : 1;
      break;
    }
    case S_GAIN_CARD: {
      const std::string& a = st->age == "current" ? age : st->age;
      const std::string& deck = deck_for(!st->source_power, a);
      auto it = decks.find(deck);
      int64_t got = 0;
      for (int64_t k = 0; k < st->count; ++k) {
        if (it == decks.end() || it->second.empty()) break;
        auto& pile = it->second;
        int iid;
        if (st->pick_random) {
          int64_t i = rng.below((int64_t)pile.size());
          iid = pile[i];
          pile.erase(pile.begin() + i);
        } else {
          std::vector<int> options = pile;
          std::sort(options.begin(), options.end());
          options.erase(std::unique(options.begin(), options.end()), options.end());
          iid = pick_card(ctx.p, "gain_card", options, false);
          pile.erase(std::find(pile.begin(), pile.end(), iid));
        }
        Overrides& o = cards[iid].over;
        const Overrides& add = st->over;
        if (add.has_burn) { o.has_burn = true; o.burn = add.burn; }
        if (add.has_mana) { o.has_mana = true; o.mana = add.mana; }
        if (add.has_gold) { o.has_gold = true; o.gold = add.gold; }
        if (add.has_initiative) { o.has_initiative = true; o.initiative = add.initiative; }
        gain_card(ctx.p, iid, st->to_hand);
        unseen[iid] = {ctx.p, deck};  // the other seats do not see which card it is
        got++;
      }
      ctx.last_count = got;
      break;
    }
    case S_CHOOSE_TARGET:
      if (t.one.t != V_NONE) ctx.refs.set(st->as_name, t.one);
      break;
    case S_CHOOSE_ONE:
      for (auto& opt_ : st->options)
        if (t.one.t == V_LABEL && R.name_ids.at(opt_.first) == t.one.i) run_list(*this, opt_.second, ctx);
      break;
    case S_IF:
      run_list(*this, cond(st->cond.get(), ctx) ? st->then_ : st->else_, ctx);
      break;
    case S_ROLL: {
      int64_t face = rng.randint(1, 6);
      if (logging) Log(ev, "roll").i("p", ctx.p).i("face", face);
      for (auto& o : st->outcomes)
        if (o.lo <= face && face <= o.hi) {
          run_list(*this, o.steps, ctx);
          break;
        }
      break;
    }
    case S_REPEAT: {
      int64_t times = amount(st->amt, ctx);
      for (int64_t k = 0; k < times; ++k) run_list(*this, st->sub, ctx);
      break;
    }
    case S_ADD_MODIFIER: case S_ADD_TRIGGER: {
      int limit = st->kind == S_ADD_TRIGGER ? st->limit : L_UNLIMITED;
      Active* a = new_active(ctx.p, st->duration, limit, ctx.champ, ctx.inst, &ctx.refs, st->target);
      if (st->duration == D_THIS_BATTLE && ctx.battle) a->battle = ctx.battle->bid;
      if (st->kind == S_ADD_MODIFIER) {
        if (st->mod->kind == M_COST_OVERRIDE) { a->has_uses = true; a->uses = st->mod->uses; }
        add_mod(a, st->mod.get());
        if (logging)
          Log(ev, "modifier").i("p", ctx.p).s("kind", MOD_NAMES[st->mod->kind])
              .s("duration", DURATION_NAMES[st->duration]);
      } else {
        add_trig(a, st->event, st->cond.get(), &st->sub);
        if (logging)
          Log(ev, "add_trigger").i("p", ctx.p).s("ev", EV_NAMES[st->event])
              .s("duration", DURATION_NAMES[st->duration]);
      }
      break;
    }
    case S_CARD_COUNTER: {
      CardInst* inst = ctx.inst;
      if (!inst) break;
      int64_t v = inst->counter + st->add;
      inst->counter = st->has_max ? std::min(st->maxv, v) : v;
      if (logging) Log(ev, "counter").s("card", inst->defn->id).i("value", inst->counter);
      break;
    }
    case S_SCATTER:
      for (auto& v : t.vals) {
        int h = (int)v.i;
        int hit = rng.random() < st->chance ? h : rng.choice(topo.nbrs[h]);
        ctx.refs.set(st->as_name, Val::integer(hit));
        if (logging) Log(ev, "scatter").s("aim", name(h)).s("hit", name(hit));
      }
      break;
    case S_TAKE_CARD: {
      const Event* e = ctx.event;
      int q = -1;
      if (e) q = st->from_key == 1 ? e->killer : st->from_key == 2 ? e->battle_enemy : e->victim;
      if (q < 0 || q == ctx.p) break;
      Player& pl = players[q];
      int iid = -1;
      if (st->killed_champion) {
        if (e && e->champ) iid = e->champ->iid;
      } else {
        const std::string& spell = R.factions.at(pl.faction)->spell;
        for (auto* zone : {&pl.burn, &pl.discard, &pl.draw, &pl.hand}) {
          for (int i : *zone)
            if (cards[i].defn->id == spell) { iid = i; break; }
          if (iid >= 0) break;
        }
      }
      if (iid < 0) break;
      std::vector<int>* zone = nullptr;
      for (auto* z : {&pl.burn, &pl.discard, &pl.draw, &pl.hand})
        if (std::find(z->begin(), z->end(), iid) != z->end()) { zone = z; break; }
      if (!zone) break;
      zone->erase(std::find(zone->begin(), zone->end(), iid));
      gain_card(ctx.p, iid, st->to_hand);
      ctx.last_count = 1;
      break;
    }
  }
}

// ================================ declare.py =================================================
Ctx& Game::probe(int p, CardInst* inst) {
  if (!has_probe) {
    probe_ctx = Ctx(this, p, inst);
    probe_ctx.locks = &probe_locks;
    probe_ctx.declaring = probe_ctx.dry = probe_ctx.quick = true;
    has_probe = true;
  }
  probe_ctx.p = p;
  probe_ctx.inst = inst;
  return probe_ctx;
}

void Game::lock_prefix(Ctx& ctx, const std::vector<Step*>& steps, size_t from) {
  for (size_t idx = from; idx < steps.size(); ++idx) {
    const Step* st = steps[idx];
    if (st->kind == S_CHOOSE_TARGET) {
      if (st->has_options) {
        lock_target(ctx, st, steps, idx + 1);
      } else {
        Target t;
        select_step(*this, st, ctx, t);
        if (t.one.t != V_NONE) ctx.refs.set(st->as_name, t.one);
      }
      continue;
    }
    if (st->kind == S_CHOOSE_ONE) {
      // dict(options): each label once, in first order, with its last steps
      std::vector<std::pair<int, const std::vector<Step*>*>> subs;
      for (auto& o : st->options) {
        int id = R.name_ids.at(o.first);
        bool found = false;
        for (auto& s : subs)
          if (s.first == id) { s.second = &o.second; found = true; }
        if (!found) subs.push_back({id, &o.second});
      }
      if (ctx.dry) {
        bool any = false;
        for (auto& s : subs)
          if (viable(ctx, *s.second)) { any = true; break; }
        if (!any) throw NoTarget{};
        return;
      }
      std::vector<Val> ok;
      for (auto& s : subs)
        if (viable(ctx, *s.second)) ok.push_back(Val::label(s.first));
      Val label = choose(ctx, key_of(st), "option", [&]() { return ok; });
      for (auto& s : subs)
        if (label.t == V_LABEL && s.first == label.i) {
          lock_prefix(ctx, *s.second);
          break;
        }
      return;
    }
    if (!st->has_select) return;
    if (ctx.dry && ctx.quick && st->has_exists) {
      if (!step_exists(st, ctx)) throw NoTarget{};
      return;
    }
    step_select_only(st, ctx);
    return;
  }
}

void Game::lock_target(Ctx& ctx, const Step* st, const std::vector<Step*>& steps, size_t rest) {
  int name_id = st->as_name;
  auto works = [&](const Val& v) {
    Refs refs = ctx.refs;
    refs.set(name_id, v);
    return dry_walk(ctx, refs, steps, rest);
  };
  auto options = [&]() {
    std::vector<Val> cands;
    if (st->hs) cands = hex_vals(hex_candidates(*st->hs, ctx));
    else if (st->cs) cands = champ_vals(champ_candidates(*st->cs, ctx));
    else cands = hex_vals(bridge_candidates(*st->bs, ctx));
    if (target_check(steps, rest) == 0) {
      if (ctx.dry && cands.size() > 1) cands.resize(1);
      return cands;
    }
    std::vector<Val> out;
    for (auto& v : cands)
      if (works(v)) {
        out.push_back(v);
        if (ctx.dry) break;
      }
    return out;
  };
  Val v = choose(ctx, key_of(st), TKIND_NAMES[st->tkind], options);
  ctx.refs.set(name_id, v);
}

// a fresh dry, declaring context with these refs walks steps[from:] (declare._lock_target's
// works and declare._viable): does every leading target still have a legal choice
bool Game::dry_walk(const Ctx& ctx, const Refs& refs, const std::vector<Step*>& steps,
                    size_t from) {
  Ctx probe_(this, ctx.p, ctx.inst);
  Locks pl;
  probe_.locks = &pl;
  probe_.declaring = probe_.dry = true;
  probe_.refs = refs;
  probe_.quick = ctx.quick;
  try {
    lock_prefix(probe_, steps, from);
  } catch (NoTarget&) {
    return false;
  }
  return true;
}

bool Game::viable(Ctx& ctx, const std::vector<Step*>& steps) {
  return target_check(steps) == 0 || dry_walk(ctx, ctx.refs, steps, 0);
}

bool Game::look_ahead(Ctx& ctx, const CardDef& d) {
  if (d.quick) return step_exists(d.effect[0], ctx);
  ctx.refs = Refs();
  probe_locks.v.clear();
  if (ctx.locks != &probe_locks) throw Unsupported("look-ahead outside the probe");
  try {
    lock_prefix(ctx, d.effect);
  } catch (NoTarget&) {
    return false;
  }
  return true;
}

Game::Cost Game::card_cost(int p, const CardInst& inst) {
  const CardDef& d = *inst.defn;
  int64_t mana = d.mana, gold = d.gold;
  if (inst.over.any()) {
    if (inst.over.has_mana) mana = inst.over.mana;
    if (inst.over.has_gold) gold = inst.over.gold;
  }
  if (d.is_champion && !(inst.over.any() && inst.over.has_gold)) gold += champion_gold(p, d);
  if (mods[M_COST_OVERRIDE].empty()) return {mana, gold, nullptr};
  for (auto* a : mods[M_COST_OVERRIDE]) {
    if (a->owner != p || (a->has_uses && a->uses <= 0)) continue;
    const CardFilter& f = a->mod->applies_to;
    if (f.has_type && f.type != d.type) continue;
    if (f.has_mana && f.mana != d.mana) continue;
    if (f.has_deck && f.deck != d.deck) continue;
    return {a->mod->has_mana ? a->mod->mana : mana, a->mod->has_gold ? a->mod->gold_cost : gold, a};
  }
  return {mana, gold, nullptr};
}

bool Game::affordable(int p, int iid) {
  CardInst& inst = cards[iid];
  Player& pl = players[p];
  if (pl.mana < 1) return false;
  Cost c = card_cost(p, inst);
  if (pl.mana < c.mana || pl.gold < c.gold) return false;
  const CardDef& d = *inst.defn;
  if (d.is_champion && !can_field_champion(p)) return false;
  if (!d.requires) return true;
  Ctx ctx(this, p, &inst);
  return cond(d.requires.get(), ctx);
}

void Game::card_options(int p, bool exact, std::vector<Action>& out) {
  Player& pl = players[p];
  int64_t mana = pl.mana, gold = pl.gold;
  if (mana < 1) return;
  bool plain = mods[M_COST_OVERRIDE].empty();
  bool look = opt.target_lock == "declare";
  std::vector<int> hand = pl.hand;
  std::sort(hand.begin(), hand.end());
  bool made = false;
  for (int iid : hand) {
    CardInst& inst = cards[iid];
    const CardDef& d = *inst.defn;
    if (plain && d.simple && !inst.over.any()) {
      if (d.mana > mana || d.gold > gold) continue;
    } else if (!affordable(p, iid)) {
      continue;
    }
    if (d.check && look && (exact || d.check == 1)) {
      if (!made) { probe(p, &inst); made = true; }
      probe_ctx.inst = &inst;
      bool ok = d.quick ? step_exists(d.effect[0], probe_ctx) : look_ahead(probe_ctx, d);
      if (!ok) continue;
    }
    Action a;
    a.kind = A_CARD;
    a.a = iid;
    out.push_back(a);
  }
}

bool Game::declare_card(int p, CardInst* inst, Locks& locks, Refs& refs, Preset* preset) {
  Ctx ctx(this, p, inst);
  ctx.locks = &locks;
  ctx.declaring = true;
  ctx.dry = false;
  ctx.quick = true;
  ctx.preset = preset;
  try {
    lock_prefix(ctx, inst->defn->effect);
  } catch (NoTarget&) {
    return false;
  }
  refs = ctx.refs;
  return true;
}

// ================================ actions.py =================================================
void Game::ability_options(int p, std::vector<Action>& out) {
  if (players[p].mana < std::max<int64_t>(1, opt.activation_mana)) return;
  for (auto* a : trigs[E_ACTIVATED]) {
    if (a->owner != p || !limit_ok(a)) continue;
    Ctx ctx = act_ctx(a);
    if (!cond(a->cond, ctx)) continue;
    if (!a->ability) throw Unsupported("an activated trigger without an ability");
    Action x;
    x.kind = A_ABILITY;
    x.a = a->champ ? a->champ->cid : 0;
    x.ability = &a->ability->name;
    out.push_back(x);
  }
}

void Game::legal_actions(int p, bool exact, std::vector<Action>& out) {
  Player& pl = players[p];
  int64_t mana = pl.mana;
  std::vector<int> bridges;
  if (mana >= R.bridge_mana) bridges = bridge_options(p);
  std::vector<MoveOpt> marches;
  static const std::vector<int> none;
  if (mana >= R.march_mana) move_options(p, 0, R.march_distance, false, false, none, marches);
  out.clear();
  out.emplace_back();
  if (!pl.hand.empty()) card_options(p, exact, out);
  for (int e : bridges) {
    Action a;
    a.kind = A_BRIDGE;
    a.a = e;
    out.push_back(a);
  }
  for (auto& m : marches) {
    Action a;
    a.kind = A_MARCH;
    a.m = m;
    out.push_back(a);
  }
  if (players[p].gold >= R.reinforce_gold && players[p].mana >= R.reinforce_mana) {
    if (!mods[M_DEPLOY_ANCHOR].empty()) {
      for (int h : deploy_anchors(p)) {
        Action a;
        a.kind = A_REINFORCE;
        a.a = h;
        out.push_back(a);
      }
    } else {
      Action a;
      a.kind = A_REINFORCE;
      a.a = players[p].capital;
      out.push_back(a);
    }
  }
  if (!trigs[E_ACTIVATED].empty()) ability_options(p, out);
}

Plan Game::choose_action(int p) {
  Plan plan;
  plan.p = p;
  std::vector<Action> options;
  legal_actions(p, false, options);
  // an agent with whole_plays (the heuristic) is offered each card once per way to target
  // it and chooses card and targets in this one decision (actions.expand_plays)
  bool whole = ((is_heuristic(p) && heuristic[p] == 1) || waiter) && opt.target_lock == "declare";
  std::vector<Play> plays;
  if (whole) {
    std::vector<Action> out;
    for (auto& o : options) {
      if (o.kind != A_CARD) {
        out.push_back(o);
        continue;
      }
      for (auto& pl : card_plays(p, o.a)) {
        Action a = o;
        a.play = (int)plays.size();
        plays.push_back(pl);
        out.push_back(a);
      }
    }
    options.swap(out);
  }
  // the searching seat's answers of this choice are kept: a later choice (after a failed
  // declaration) is searched too, its copies giving them again first (search.cpp)
  bool searching = !in_sim && searcher.size() > (size_t)p && searcher[p];
  if (searching) {
    step_mine.clear();
    step_rec = true;
    step_seat = p;
  }
  while (true) {
    Ask ask;
    if (wants_ask(p) || waiter)  // (the state API names the cards in an option's words)
      ask.card = [&options](size_t i) { return options[i].kind == A_CARD ? options[i].a : -1; };
    if (wants_ask(p)) {
      ask.score = [this, p, &options, &plays](size_t i, bool bounding) {
        return action_score(p, options[i], plays, bounding);
      };
    }
    if (wants_repr(p))
      ask.repr = [this, &options, &plays](size_t i) { return action_repr(options[i], plays); };
    int pick;
    if (searching && options.size() > 1 && (scfg->limit < 0 || scfg->searched < scfg->limit) &&
        !replay_pending()) {
      pick = answered("action", options.size(),
                      kept(search_root(p, "action", options.size(), ask, action_step), p,
                           "action", &ask));
      decisions++;
      if (logging)
        Log(ev, "decide").i("p", p).s("kind", "action").i("n", (int64_t)options.size()).i("i", pick);
    } else {
      pick = decide(p, "action", options.size(), &ask);
    }
    Action choice = options[pick];
    if (choice.kind == A_CARD && opt.target_lock == "declare") {
      Locks locks;
      Refs refs;
      Preset pre;
      if (whole) pre.values = &plays[choice.play];
      if (!declare_card(p, &cards[choice.a], locks, refs, whole ? &pre : nullptr)) {
        const CardDef* d = cards[choice.a].defn;
        std::vector<Action> keep;
        for (auto& o : options)
          if (o.kind != A_CARD || cards[o.a].defn != d) keep.push_back(o);
        options.swap(keep);
        continue;
      }
      plan.choice = choice;
      plan.locks = locks;
      plan.refs = refs;
      break;
    }
    plan.choice = choice;
    break;
  }
  if (searching) {
    step_rec = false;
    step_mine.clear();
  }
  if (plan.choice.kind == A_CARD) pending.push_back(plan.choice.a);
  return plan;
}

int64_t Game::initiative(const CardInst& inst) const {
  if (inst.over.has_initiative) return inst.over.initiative;
  const int64_t a = inst.defn->init[0], b = inst.defn->init[1];
  if (opt.initiative == "first") return a;
  if (opt.initiative == "second") return b;
  if (opt.initiative == "lower") return std::min(a, b);
  return std::max(a, b);
}

void Game::pay_card(Plan& plan) {
  int p = plan.p;
  CardInst& inst = cards[plan.choice.a];
  Player& pl = players[p];
  Cost c = card_cost(p, inst);
  pl.mana -= c.mana;
  pl.gold -= c.gold;
  if (c.over && c.over->has_uses) c.over->uses -= 1;
  pl.hand.erase(std::find(pl.hand.begin(), pl.hand.end(), inst.iid));
  pl.played.push_back(inst.iid);
  pl.played_count += 1;
  plan.inst = &inst;
  plan.init = initiative(inst);
  st_played[inst.defn->idx]++;
  if (logging) Log(ev, "play").i("p", p).s("card", inst.defn->id).i("mana", c.mana).i("gold", c.gold);
}

void Game::reveal_action(Plan& plan) {
  int p = plan.p;
  Player& pl = players[p];
  switch (plan.choice.kind) {
    case A_DONE: pl.done = true; break;
    case A_CARD:
      pending.erase(std::find(pending.begin(), pending.end(), plan.choice.a));
      pay_card(plan);  // (a card declared at resolution has no locks: they stay empty)
      break;
    case A_ABILITY: pl.mana -= opt.activation_mana; break;
    case A_BRIDGE: pl.mana -= R.bridge_mana; pl.gold -= R.bridge_gold; break;
    case A_MARCH: pl.mana -= R.march_mana; pl.gold -= R.march_gold; break;
    case A_REINFORCE: pl.mana -= R.reinforce_mana; pl.gold -= R.reinforce_gold; break;
  }
}

void Game::resolve_card(Plan& plan) {
  int p = plan.p;
  CardInst* inst = plan.inst;
  Ctx ctx(this, p, inst);
  ctx.locks = &plan.locks;
  ctx.refs.update(plan.refs);
  const CardDef& d = *inst->defn;
  bool ok = run_steps(d.effect, ctx);
  (ok ? st_resolved : st_fizzled)[d.idx]++;
  if (logging) Log(ev, ok ? "resolved" : "fizzled").i("p", p).s("card", d.id);
  Player& pl = players[p];
  pl.played.erase(std::find(pl.played.begin(), pl.played.end(), inst->iid));
  bool on = false;
  if (d.is_champion)
    for (auto* c : by_cid)
      if (c && c->iid == inst->iid) on = true;
  if (!on) {
    if (d.is_champion || inst->burn()) players[p].burn.push_back(inst->iid);
    else players[p].discard.push_back(inst->iid);
  }
  resolve_contacts(p);
  checkpoint("card");
}

static const char* const ACT_NAMES[] = {"done", "card", "bridge", "march", "reinforce", "ability"};

void Game::activate(int p, const Action& choice) {
  std::vector<Active*> list = trigs[E_ACTIVATED];
  for (auto* a : list) {
    int cid = a->champ ? a->champ->cid : 0;
    if (a->owner == p && cid == choice.a && a->ability && a->ability->name == *choice.ability) {
      if (a->champ && !on_board(a->champ)) throw Fizzle{"Champion gone"};
      if (!limit_ok(a)) throw Fizzle{"already used"};
      mark_used(a);
      if (logging) Log(ev, "activate").i("p", p).s("ability", *choice.ability);
      Ctx ctx = act_ctx(a);
      run_steps(*a->steps, ctx);
      return;
    }
  }
  throw Fizzle{"ability gone"};
}

void Game::resolve_basic(Plan& plan) {
  int p = plan.p;
  const Action& c = plan.choice;
  try {
    if (c.kind == A_BRIDGE) {
      int e = c.a, a = e >> 8, b = e & 255;
      if (bridged(e) || !(occupies(p, a) || occupies(p, b))) throw Fizzle{"bridge no longer legal"};
      bridge_add(e);
      if (logging) Log(ev, "bridge").i("p", p).i("edge", e).b("basic", true);
    } else if (c.kind == A_MARCH) {
      do_move(p, c.m, R.march_distance, false, false);
    } else if (c.kind == A_REINFORCE) {
      std::vector<int> anchors = deploy_anchors(p);
      if (std::find(anchors.begin(), anchors.end(), c.a) == anchors.end())
        throw Fizzle{"reinforce hex no longer legal"};
      deploy(p, c.a, R.reinforce_forces);
    } else if (c.kind == A_ABILITY) {
      activate(p, c);
    }
  } catch (Fizzle& f) {
    if (logging) Log(ev, "fizzle").i("p", p).s("action", ACT_NAMES[c.kind]).s("why", f.why);
  }
  resolve_contacts(p);
  checkpoint("basic");
}

void Game::resolve_step(std::vector<Plan>& plans) {
  std::vector<int> order = seat_order();
  std::vector<int> rank_(P);
  for (int i = 0; i < P; ++i) rank_[order[i]] = i;
  std::vector<Plan*> cs, basics;
  for (auto& x : plans) {
    if (x.choice.kind == A_CARD) cs.push_back(&x);
    else if (x.choice.kind != A_DONE) basics.push_back(&x);
  }
  if (opt.initiative_ties == "die") {
    std::vector<std::pair<int, double>> tie;
    for (auto* x : cs) tie.push_back({x->p, rng.random()});
    auto tie_of = [&](int p) {
      double v = 0;
      for (auto& t : tie)
        if (t.first == p) v = t.second;  // a later seat's draw replaces an earlier (a dict)
      return v;
    };
    std::stable_sort(cs.begin(), cs.end(), [&](Plan* a, Plan* b) {
      if (a->init != b->init) return a->init < b->init;
      return tie_of(a->p) < tie_of(b->p);
    });
  } else if (cs.size() > 1) {
    std::stable_sort(cs.begin(), cs.end(), [&](Plan* a, Plan* b) {
      if (a->init != b->init) return a->init < b->init;
      return rank_[a->p] < rank_[b->p];
    });
  }
  for (auto* x : cs) resolve_card(*x);
  if (basics.size() > 1)
    std::stable_sort(basics.begin(), basics.end(),
                     [&](Plan* a, Plan* b) { return rank_[a->p] < rank_[b->p]; });
  for (auto* x : basics) resolve_basic(*x);
}

void Game::action_phase(int from_step) {
  for (int step = from_step; step < 60; ++step) {
    action_step = step;
    if (waiter) waiter->on_step(*this);  // the state API: a world dealt as the step starts
    if (scfg && !in_sim && scfg->perturb_round == round && scfg->perturb_step == step) {
      for (int q = 0; q < P; ++q)  // the leak test (search.cpp): the first searching seat's
        if (searcher.size() > (size_t)q && searcher[(size_t)q]) {
          perturb_before(q);
          break;
        }
    }
    if (!in_sim && !waiter && scfg && scfg->nested) keep_round(step);  // search.cpp
    if (verify_forks && !in_sim) fork_to_end(step);
    std::vector<Plan> plans;
    for (int p : seat_order())
      if (!players[p].done && players[p].mana >= 1) plans.push_back(choose_action(p));
    if (plans.empty()) return;
    for (auto& plan : plans) reveal_action(plan);
    checkpoint("declare");
    resolve_step(plans);
  }
  if (logging) Log(ev, "action_cap").i("steps", 60);
}

// ================================ board.py ===================================================
namespace {
const J* by_players(const J& table, int players) {
  return table.get(std::to_string(players));
}

struct Slots {
  std::vector<std::pair<std::string, std::pair<int, int>>> v;  // name -> (q, r), in order
};

Slots capital_slots(int players, const J& game, int radius) {
  const J& board = game.at("board");
  Slots out;
  const J* fixed_table = board.get("fixed_slots");
  const J* fixed = fixed_table ? by_players(*fixed_table, players) : nullptr;
  if (fixed && fixed->truthy()) {
    for (auto& kv : fixed->o)
      out.v.push_back({kv.first, {(int)kv.second.a.at(0).num(), (int)kv.second.a.at(1).num()}});
    return out;
  }
  const J* names = by_players(board.at("capital_slots"), players);
  if (!names || !names->truthy()) throw std::runtime_error("no capital slots");
  const J& corners = board.at("corner_slots");
  for (auto& n : names->a) {
    const J& c = corners.at(n.s);
    out.v.push_back({n.s, {(int)c.a.at(0).num() * radius, (int)c.a.at(1).num() * radius}});
  }
  return out;
}


struct BoardGen {
  const Topo& T;
  MT& rng;
  std::vector<int> key;  // sorted capital indices
  int min_cap = 0;

  bool far_from(int h) const {
    if (h == T.center) return false;
    for (int c : key)
      if (T.d(h, c) < min_cap) return false;
    return true;
  }
  std::vector<int> ring(const std::vector<int64_t>& dists) const {
    std::vector<int> out;
    for (int h = 0; h < T.n; ++h)
      if (far_from(h) && std::find(dists.begin(), dists.end(), (int64_t)T.d(T.center, h)) != dists.end())
        out.push_back(h);
    return out;
  }
  std::vector<int> home_ring(int cap, int64_t home_d) const {
    std::vector<int> out;
    for (int h = 0; h < T.n; ++h) {
      if (!far_from(h) || T.d(h, cap) != home_d) continue;
      bool ok = true;
      for (int o : key)
        if (o != cap && T.d(h, o) < min_cap) ok = false;
      if (ok) out.push_back(h);
    }
    return out;
  }
  template <class K>
  int best(const std::vector<int>& cands, K score) {
    std::vector<decltype(score(0))> scored;
    for (int c : cands) scored.push_back(score(c));
    auto top = *std::max_element(scored.begin(), scored.end());
    std::vector<int> at_top;
    for (size_t k = 0; k < cands.size(); ++k)
      if (scored[k] == top) at_top.push_back(cands[k]);
    return rng.choice(at_top);
  }
  int spread(int h, const std::vector<int>& others) const {
    int m = 99;
    bool any = false;
    for (int o : others) {
      int d = T.d(h, o);
      m = any ? std::min(m, d) : d;
      any = true;
    }
    return any ? m : 99;
  }
};
}  // namespace

// board.generate_board(players, seed, game): Capitals, Forges, Mines and their values
Game::BoardOut Game::generate_board(int players_n, int64_t seed) {
  const J& game = R.game;
  int radius = topo.radius;
  Slots caps = capital_slots(players_n, game, radius);
  for (auto& c : caps.v)
    if (hex_distance(c.second.first, c.second.second, 0, 0) > radius)
      throw std::runtime_error("capital slot off the board");
  MT brng;
  brng.seed(seed);
  const J& board_cfg = game.at("board");
  const J* counts = by_players(board_cfg.at("tile_counts"), players_n);
  if (!counts) throw std::runtime_error("no tile counts");
  const J& place = board_cfg.at("placement");
  int64_t spread_max = place.at("fairness_max_spread").num();
  // forge_fairness_max_spread (optional): the same check over Capital-to-nearest-Forge
  int64_t forge_max = place.has("forge_fairness_max_spread")
                          ? place.at("forge_fairness_max_spread").num() : -1;
  BoardGen bg{topo, brng, {}, (int)place.at("min_capital_distance").num()};
  std::vector<int> capitals;
  for (auto& c : caps.v) capitals.push_back(topo.index_of(c.second.first, c.second.second));
  bg.key = capitals;
  std::sort(bg.key.begin(), bg.key.end());
  std::vector<int> forges, mines;
  std::vector<int64_t> values;
  int rerolls = -1;
  for (int attempt = 0; attempt < 1000 && rerolls < 0; ++attempt) {
    // _place_forges
    std::vector<int64_t> ring_d;
    for (auto& d : place.at("forge_center_distance").a) ring_d.push_back(d.num());
    std::sort(ring_d.begin(), ring_d.end());
    ring_d.erase(std::unique(ring_d.begin(), ring_d.end()), ring_d.end());
    std::vector<int> cands;
    for (int h : bg.ring(ring_d))
      if (std::find(capitals.begin(), capitals.end(), h) == capitals.end()) cands.push_back(h);
    std::map<int, int> nearest_cap;
    for (int h : cands) {
      int bi = 0;
      for (int i = 1; i < (int)capitals.size(); ++i)
        if (topo.d(h, capitals[i]) < topo.d(h, capitals[bi])) bi = i;
      nearest_cap[h] = bi;
    }
    std::map<int, int> spread;
    for (int h : cands) spread[h] = 99;
    forges.clear();
    bool failed = false;
    int64_t n_forge = counts->at("forge").num();
    for (int64_t k = 0; k < n_forge; ++k) {
      std::vector<int> free_;
      for (int c : cands)
        if (std::find(forges.begin(), forges.end(), c) == forges.end()) free_.push_back(c);
      if (free_.empty()) { failed = true; break; }
      std::vector<int> used;
      for (int f_ : forges) used.push_back(nearest_cap[f_]);
      int pk = bg.best(free_, [&](int h) {
        bool unused = std::find(used.begin(), used.end(), nearest_cap[h]) == used.end();
        return std::make_pair(spread[h], unused ? 1 : 0);
      });
      forges.push_back(pk);
      for (auto& kv : spread)
        if (topo.d(pk, kv.first) < kv.second) kv.second = topo.d(pk, kv.first);
    }
    if (failed) continue;
    // _place_home_mines
    std::vector<std::string> names;
    for (auto& c : caps.v) names.push_back(c.first);
    std::sort(names.begin(), names.end());
    brng.shuffle(names);
    mines.clear();
    std::vector<int> taken = capitals;
    taken.insert(taken.end(), forges.begin(), forges.end());
    int64_t home_d = place.at("home_mine_capital_distance").num();
    for (auto& nm : names) {
      int cap = -1;
      for (size_t i = 0; i < caps.v.size(); ++i)
        if (caps.v[i].first == nm) cap = capitals[i];
      std::vector<int> hc;
      for (int h : bg.home_ring(cap, home_d))
        if (std::find(taken.begin(), taken.end(), h) == taken.end() &&
            std::find(mines.begin(), mines.end(), h) == mines.end())
          hc.push_back(h);
      if (hc.empty()) { failed = true; break; }
      std::vector<int> special = mines;
      special.insert(special.end(), forges.begin(), forges.end());
      mines.push_back(bg.best(hc, [&](int h) { return bg.spread(h, special); }));
    }
    if (failed) continue;
    for (int m : mines) taken.push_back(m);
    std::vector<int64_t> dists;
    for (auto& d : place.at("other_mine_center_distance").a) dists.push_back(d.num());
    int64_t more = counts->at("mine").num() - (int64_t)mines.size();
    for (int64_t k = 0; k < more; ++k) {
      std::vector<int> mc;
      while (true) {
        mc.clear();
        for (int h : bg.ring(dists))
          if (std::find(taken.begin(), taken.end(), h) == taken.end()) mc.push_back(h);
        int64_t mx = *std::max_element(dists.begin(), dists.end());
        if (!mc.empty() || mx >= radius) break;
        dists.push_back(mx + 1);
      }
      if (mc.empty()) { failed = true; break; }
      std::vector<std::pair<int, int>> near;  // (nearest Mine distance, capital)
      for (int c : capitals) {
        int m = 99;
        bool any = false;
        for (int x : mines) { m = any ? std::min(m, topo.d(c, x)) : topo.d(c, x); any = true; }
        near.push_back({m, c});
      }
      int pk = bg.best(mc, [&](int h) {
        int lo = 0, hi = 0;
        bool any = false;
        for (auto& nr : near) {
          int r = std::min(topo.d(nr.second, h), nr.first);
          lo = any ? std::min(lo, r) : r;
          hi = any ? std::max(hi, r) : r;
          any = true;
        }
        return std::make_pair(bg.spread(h, mines), lo - hi);
      });
      mines.push_back(pk);
      taken.push_back(pk);
    }
    if (failed) continue;
    // access_spread: max - min over Capitals of the distance to the nearest Mine
    int lo = 0, hi = 0;
    for (size_t i = 0; i < capitals.size(); ++i) {
      int m = 1 << 30;
      for (int x : mines) m = std::min(m, topo.d(capitals[i], x));
      lo = i ? std::min(lo, m) : m;
      hi = i ? std::max(hi, m) : m;
    }
    bool forges_fair = true;
    if (forge_max >= 0) {
      int flo = 0, fhi = 0;
      for (size_t i = 0; i < capitals.size(); ++i) {
        int m = 1 << 30;
        for (int x : forges) m = std::min(m, topo.d(capitals[i], x));
        flo = i ? std::min(flo, m) : m;
        fhi = i ? std::max(fhi, m) : m;
      }
      forges_fair = fhi - flo <= forge_max;
    }
    if (hi - lo <= spread_max && forges_fair) {
      // assign_mine_values: rng.choices(values, cum_weights=cum, k=n)
      const J& weights = board_cfg.at("mine_values");
      std::vector<std::pair<int64_t, int64_t>> vw;
      for (auto& kv : weights.o) vw.push_back({std::strtoll(kv.first.c_str(), nullptr, 10), kv.second.num()});
      std::sort(vw.begin(), vw.end());
      std::vector<int64_t> cum;
      int64_t acc = 0;
      for (auto& x : vw) cum.push_back(acc += x.second);
      double total = (double)cum.back() + 0.0;
      values.clear();
      for (size_t k = 0; k < mines.size(); ++k) {
        double x = brng.random() * total;
        size_t lo_ = 0, hi_ = cum.size() - 1;  // bisect_right(cum, x, 0, hi)
        while (lo_ < hi_) {
          size_t mid = (lo_ + hi_) / 2;
          if (x < (double)cum[mid]) hi_ = mid; else lo_ = mid + 1;
        }
        values.push_back(vw[lo_].first);
      }
      rerolls = attempt;
    }
  }
  if (rerolls < 0) throw std::runtime_error("no fair board after 1000 rerolls");
  BoardOut out;
  out.caps = caps.v;
  out.capitals = capitals;
  out.forges = forges;
  out.mines = mines;
  out.values = values;
  out.rerolls = rerolls;
  return out;
}

// an empty state for P players (State.__init__)
void Game::init_state(const std::vector<std::string>& factions) {
  N = topo.n;
  tile.assign(N, T_PLAIN);
  mine_value.assign(N, 0);
  cap_owner.assign(N, -1);
  forces.assign(N * P, 0);
  champs_at.assign(N, {});
  bridge_on.assign(topo.edges.size(), 0);
  temp_on.assign(topo.edges.size(), 0);
  at.assign(N, {});
  occ.assign(P, {});
  ucount.assign(P * N, 0);
  nocc.assign(N, 0);
  players.assign(P, Player());
  for (int p = 0; p < P; ++p) {
    players[p].seat = p;
    players[p].faction = factions[p];
  }
  st_played.assign(R.cards.size(), 0);
  st_fizzled.assign(R.cards.size(), 0);
  st_resolved.assign(R.cards.size(), 0);
}

void Game::setup(int players_n, int64_t seed, const std::vector<std::string>& factions,
                 const std::string& options_json) {
  P = players_n;
  rng.seed(seed);
  BoardOut board = generate_board(P, seed);
  int rerolls = board.rerolls;
  const auto& capitals = board.capitals;
  const auto& forges = board.forges;
  const auto& mines = board.mines;
  const auto& values = board.values;
  Slots caps;
  caps.v = board.caps;
  init_state(factions);
  agents.assign(P, MT());
  for (int p = 0; p < P; ++p) agents[p].seed_mag(rng.bits64());
  if (logging) {
    std::string facs = "[", wp = "[";
    for (int p = 0; p < P; ++p) {
      if (p) { facs += ","; wp += ","; }
      put_str(facs, factions[p]);
      wp += waiter || (is_heuristic(p) && heuristic[p] == 1) ? "true" : "false";
    }
    facs += "]";
    wp += "]";
    Log(ev, "setup").i("players", P).i("seed", seed).raw("factions", facs)
        .raw("options", options_json).i("rerolls", rerolls).raw("whole_plays", wp);
  }
  // §8 the Capital draft, in reverse seating order
  std::vector<std::string> free_;
  for (auto& c : caps.v) free_.push_back(c.first);
  std::sort(free_.begin(), free_.end());
  for (int p = P - 1; p >= 0; --p) {
    Ask ask;
    if (wants_ask(p)) ask.score = [](size_t, bool) { return 0.0; };
    if (wants_repr(p)) ask.repr = [&free_](size_t i) { return py_str(free_[i]); };
    std::string nm =
        free_.size() == 1 ? free_[0] : free_[decide(p, "capital", free_.size(), &ask)];
    free_.erase(std::find(free_.begin(), free_.end(), nm));
    int h = -1;
    for (auto& c : caps.v)
      if (c.first == nm) h = topo.index_of(c.second.first, c.second.second);
    players[p].capital = h;
    players[p].slot = nm;
    cap_owner[h] = p;
    add_forces(p, h, R.start_forces);
    players[p].gold = R.start_gold;
    if (logging) Log(ev, "capital").i("p", p).s("slot", nm);
  }
  // the board's tiles
  tile[topo.center] = T_CENTER;
  for (int c : capitals) tile[c] = T_CAPITAL;
  for (int x : forges) tile[x] = T_FORGE;
  for (size_t k = 0; k < mines.size(); ++k) {
    tile[mines[k]] = T_MINE;
    mine_value[mines[k]] = values[k];
  }
  // decks
  auto new_insts = [&](const std::vector<CardDef*>& defs) {
    std::vector<int> iids;
    for (auto* d : defs) {
      int iid = (int)cards.size();
      cards.emplace_back();
      cards.back().iid = iid;
      cards.back().defn = d;
      iids.push_back(iid);
    }
    return iids;
  };
  static const std::vector<CardDef*> no_cards;
  auto copies = [&](const std::string& deck) -> const std::vector<CardDef*>& {
    auto it = R.deck_copies.find(deck);
    return it == R.deck_copies.end() ? no_cards : it->second;
  };
  for (auto& kv : R.deck_kind) {
    if (kv.second != "market" && kv.second != "power") continue;
    std::vector<int> pile = new_insts(copies(kv.first));
    rng.shuffle(pile);
    decks[kv.first] = pile;
  }
  for (int p = 0; p < P; ++p) {
    const Faction* fac = R.factions.at(players[p].faction);
    std::vector<CardDef*> defs = copies("starter");
    defs.push_back(R.by_id.at(fac->spell));
    std::vector<int> cs = new_insts(defs);
    int champ = new_insts({R.by_id.at(fac->champion)})[0];
    rng.shuffle(cs);
    players[p].draw = cs;
    players[p].hand.push_back(champ);
    draw(p, R.hand_size - 1);
  }
  for (int p = 0; p < P; ++p)
    for (const Ability* ab : R.factions.at(players[p].faction)->passives) install_ability(ab, p);
  // §8 starting Bridges, chosen simultaneously
  std::vector<int> chosen;
  for (int p = 0; p < P; ++p) {
    std::vector<int> near;
    topo.ball(players[p].capital, R.bridge_reach, near);
    std::vector<int> options;
    for (int h : near)
      for (int e : topo.edges_of[h]) options.push_back(e);
    std::sort(options.begin(), options.end());
    options.erase(std::unique(options.begin(), options.end()), options.end());
    for (int64_t k = 0; k < R.start_bridges; ++k) {
      Ask ask;  // agents._start_bridge: touching the Capital, toward an objective
      if (wants_ask(p))
        ask.score = [this, p, &options](size_t i, bool) {
          int cap = players[p].capital, e = options[i], a = e >> 8, b = e & 255;
          int far = a == cap ? b : a;
          return ((a == cap || b == cap) ? 2.0 : 0.0) + 0.5 * near_objective(p, far);
        };
      if (wants_repr(p)) ask.repr = [&options](size_t i) { return std::to_string(options[i]); };
      int e = options[decide(p, "start_bridge", options.size(), &ask)];
      options.erase(std::remove(options.begin(), options.end(), e), options.end());
      chosen.push_back(e);
    }
  }
  for (int e : chosen) bridge_add(e);
  if (logging) {
    std::vector<int> u = chosen;
    std::sort(u.begin(), u.end());
    u.erase(std::unique(u.begin(), u.end()), u.end());
    Log(ev, "start_bridges").i("n", (int64_t)u.size());
  }
  // §8 the free starting card
  const std::string& deck = deck_for(true, R.ages.at(0).numeral);
  for (int p = 0; p < P; ++p) draft(p, deck, R.free_card_reveal, "free_card");
  round = 1;
  lead = 0;
  const Age* a1 = R.age_of_round(1);
  age = a1 ? a1->numeral : "I";
  checkpoint("setup");
}

std::vector<int> Game::play_round() {
  reset_phase();
  market_phase();
  return rest_of_round(0);
}

std::vector<int> Game::rest_of_round(int from_step) {
  action_phase(from_step);
  sieges();
  collection_phase();
  std::vector<int> winners = scoring_phase();
  if (!winners.empty()) return winners;
  cleanup_phase();
  return {};
}

void Game::run(int from_step) {
  while (true) {
    if (waiter && from_step < 0) waiter->on_round(*this);  // the state API's snapshot
    if (from_step < 0 && !in_sim && !waiter && scfg && scfg->nested) keep_round(-1);
    std::vector<int> w = from_step < 0 ? play_round() : rest_of_round(from_step);
    from_step = -1;
    if (!w.empty()) {
      if (w.size() > 1 && opt.simultaneous_win == "tie_breakers") w = rank(w);
      std::sort(w.begin(), w.end());
      winner = w;
      end_reason = "vp";
      return;
    }
    if (round >= R.round_cap) {
      std::vector<int> all;
      for (int p = 0; p < P; ++p) all.push_back(p);
      w = rank(all);
      std::sort(w.begin(), w.end());
      winner = w;
      end_reason = "round_cap";
      return;
    }
    if (stop_round && round >= stop_round) return;  // a simulation's horizon
    advance_round();
  }
}

// odds.battle_odds: a bare 2-player game (scenario.scenario(rules, 2, 0, factions)), the
// battle hex, then `trials` battles each from the same units (odds._reset), drawing from a
// Random(seed) that replaced the scenario's generator. Returns the tallies as JSON.
std::string Game::odds(const OddsSide& att, const OddsSide& dfn, const std::string& where,
                       int64_t trials, int64_t seed, const std::vector<std::string>& facs) {
  P = 2;
  BoardOut board;
  if (boards && boards->count({2, 0})) {
    board = boards->at({2, 0});
  } else {
    board = generate_board(2, 0);
    if (boards) (*boards)[{2, 0}] = board;
  }
  init_state(facs);
  MT srng;
  srng.seed(0);
  agents.assign(2, MT());
  for (int p = 0; p < 2; ++p) agents[p].seed_mag(srng.bits64());
  tile[topo.center] = T_CENTER;
  for (int c : board.capitals) tile[c] = T_CAPITAL;
  for (int x : board.forges) tile[x] = T_FORGE;
  for (size_t k = 0; k < board.mines.size(); ++k) {
    tile[board.mines[k]] = T_MINE;
    mine_value[board.mines[k]] = board.values[k];
  }
  std::vector<std::pair<std::string, std::pair<int, int>>> slots = board.caps;
  std::sort(slots.begin(), slots.end());
  for (int p = 0; p < 2; ++p) {
    int h = topo.index_of(slots[p].second.first, slots[p].second.second);
    players[p].capital = h;
    players[p].slot = slots[p].first;
    cap_owner[h] = p;
  }
  for (auto& kv : R.deck_kind) {
    if (kv.second != "market" && kv.second != "power") continue;
    auto it = R.deck_copies.find(kv.first);
    std::vector<int> pile;
    if (it != R.deck_copies.end())
      for (CardDef* d : it->second) {
        int iid = (int)cards.size();
        cards.emplace_back();
        cards.back().iid = iid;
        cards.back().defn = d;
        pile.push_back(iid);
      }
    decks[kv.first] = pile;
  }
  for (int p = 0; p < 2; ++p) {
    auto f_ = R.factions.find(players[p].faction);
    if (f_ != R.factions.end())
      for (const Ability* ab : f_->second->passives) install_ability(ab, p);
  }
  round = 1;
  const Age* a1 = R.age_of_round(1);
  age = a1 ? a1->numeral : "I";
  rng.seed(seed);
  // odds._setup: the battle hex and one card per Champion
  int h = -1;
  if (where == "capital") {
    h = players[1].capital;
  } else {
    static const char* const KINDS[] = {"capital", "center", "forge", "mine", "plain"};
    int kind = find_name(KINDS, 5, where);
    for (int x = 0; x < N && h < 0; ++x)
      if (kind >= 0 && tile[x] == kind && cap_owner[x] < 0) h = x;
    if (h < 0) throw std::runtime_error("no " + where + " hex");
  }
  std::vector<int> iids[2];
  const OddsSide* sides[2] = {&att, &dfn};
  for (int p = 0; p < 2; ++p)
    for (auto& cid : sides[p]->champions) {
      int iid = (int)cards.size();
      cards.emplace_back();
      cards.back().iid = iid;
      cards.back().defn = R.by_id.at(cid);
      iids[p].push_back(iid);
    }
  int64_t tally[3] = {0, 0, 0}, surv[2][2] = {{0, 0}, {0, 0}}, rounds = 0;
  for (int64_t t = 0; t < trials; ++t) {
    std::vector<Champion*> here = champs_at[h];
    for (Champion* ch : here) unplace_champion(ch, false);
    for (auto& pl : players) {
      pl.burn.clear();
      pl.gold = 0;
    }
    for (int p = 0; p < 2; ++p) remove_forces(p, h, f(h, p));
    for (int p : {1, 0}) {
      add_forces(p, h, sides[p]->forces);
      for (int iid : iids[p]) place_champion(p, iid, h);
    }
    dirty.clear();
    int winner = battle(h, 0, 1, where == "capital");
    tally[winner < 0 ? 2 : winner]++;
    for (int p = 0; p < 2; ++p) {
      surv[p][0] += f(h, p);
      for (auto* c : champs_at[h])
        if (c->owner == p) surv[p][1] += c->hp;
    }
    rounds += last_battle_rounds;
  }
  std::string o = "{\"ok\":true,\"attacker\":" + std::to_string(tally[0]) +
                  ",\"defender\":" + std::to_string(tally[1]) + ",\"none\":" +
                  std::to_string(tally[2]) + ",\"surv\":[[" + std::to_string(surv[0][0]) + "," +
                  std::to_string(surv[0][1]) + "],[" + std::to_string(surv[1][0]) + "," +
                  std::to_string(surv[1][1]) + "]],\"rounds\":" + std::to_string(rounds) + "}";
  return o;
}

// state.State.snapshot, as JSON (Python digests it)
// every Bridge built, as "A-B" by its hexes' names, sorted (the array's brackets are the
// caller's)
void Game::put_bridges(std::string& o) const {
  std::vector<std::string> bs;
  for (size_t k = 0; k < topo.edges.size(); ++k)
    if (bridge_on[k]) {
      int e = topo.edges[k];
      bs.push_back(name(e >> 8) + "-" + name(e & 255));
    }
  std::sort(bs.begin(), bs.end());
  for (size_t k = 0; k < bs.size(); ++k) {
    if (k) o += ",";
    put_str(o, bs[k]);
  }
}

// every hex's Forces as the snapshot and the seat view write them: {hex: [[seat, n], ...]}
// (the braces are the caller's)
void Game::put_forces(std::string& o) const {
  bool first = true;
  for (int h = 0; h < N; ++h) {
    if (!has_forces(h)) continue;
    if (!first) o += ",";
    first = false;
    put_str(o, name(h));
    o += ":[";
    bool f1 = true;
    for (int q = 0; q < P; ++q)
      if (f(h, q)) {
        if (!f1) o += ",";
        f1 = false;
        o += "[" + std::to_string(q) + "," + std::to_string(f(h, q)) + "]";
      }
    o += "]";
  }
}

std::string Game::snapshot() const {
  std::string o = "{";
  auto ints = [&](std::vector<int> v, bool sorted_) {
    if (sorted_) std::sort(v.begin(), v.end());
    std::string s = "[";
    for (size_t k = 0; k < v.size(); ++k) {
      if (k) s += ",";
      s += std::to_string(v[k]);
    }
    return s + "]";
  };
  o += "\"round\":" + std::to_string(round) + ",\"age\":";
  put_str(o, age);
  o += ",\"winner\":" + ints(winner, false) + ",\"end\":";
  put_str(o, end_reason);
  o += ",\"players\":[";
  for (int p = 0; p < P; ++p) {
    const Player& pl = players[p];
    if (p) o += ",";
    o += "{\"gold\":" + std::to_string(pl.gold) + ",\"pvp\":" + std::to_string(pl.pvp) +
         ",\"cvp\":" + std::to_string(pl.cvp) + ",\"mana\":" + std::to_string(pl.mana) +
         ",\"hand\":" + ints(pl.hand, true) + ",\"draw\":" + ints(pl.draw, false) +
         ",\"discard\":" + ints(pl.discard, true) + ",\"burn\":" + ints(pl.burn, true) +
         ",\"scrapped\":" + ints(pl.scrapped, true) + "}";
  }
  o += "],\"forces\":{";
  put_forces(o);
  o += "},\"champions\":[";
  std::vector<const Champion*> cs;
  for (auto* c : by_cid)
    if (c) cs.push_back(c);
  std::sort(cs.begin(), cs.end(), [](const Champion* a, const Champion* b) { return a->iid < b->iid; });
  for (size_t k = 0; k < cs.size(); ++k) {
    if (k) o += ",";
    o += "[" + std::to_string(cs[k]->iid) + "," + std::to_string(cs[k]->owner) + ",";
    put_str(o, name(cs[k]->hex));
    o += "," + std::to_string(cs[k]->hp) + "," + std::to_string(cs[k]->max_hp) + "]";
  }
  o += "],\"bridges\":[";
  put_bridges(o);
  o += "],\"mines\":{";
  bool first = true;
  for (int h = 0; h < N; ++h)
    if (mine_value[h]) {
      if (!first) o += ",";
      first = false;
      put_str(o, name(h));
      o += ":" + std::to_string(mine_value[h]);
    }
  o += "},\"decks\":{";
  first = true;
  for (auto& kv : decks) {
    if (!first) o += ",";
    first = false;
    put_str(o, kv.first);
    o += ":" + ints(kv.second, false);
  }
  o += "}}";
  return o;
}

}  // namespace tn
