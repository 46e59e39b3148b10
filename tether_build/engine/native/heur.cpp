// The heuristic agent (agents.HeuristicAgent, appraise.py, intent.py), whole card plays
// (declare.card_plays, actions.expand_plays) and the sweep's counts (check/sweep.Book).
// Each function names its Python twin; the weights are appraise.py's module constants, sent
// by the Python side with each request, so a weight changed there changes both agents.
#include <cmath>

#include "game.h"

namespace tn {

// ================================ agents.HeuristicAgent.choose ===============================
// The best-scoring option (random tie-break): a move into a battle is scored at its best case
// first (odds 1, no battle odds), and in full only while that best case could beat the pick.
int Game::heuristic_choose(int p, const char* kind, size_t n, const Ask& ask) {
  MT& r = agents[p];
  bool skip = !std::strcmp(kind, "hex") || !std::strcmp(kind, "champion") ||
              !std::strcmp(kind, "bridge") || !std::strcmp(kind, "may");
  bool has_best = false;
  double best = 0.0;
  size_t pick = 0;
  struct Fight {
    double most;
    size_t i;
    double tie;
  };
  std::vector<Fight> fights;
  for (size_t i = 0; i < n; ++i) {
    fights_ = false;
    double v = skip && ask.none && ask.none(i) ? W->skip : ask.score(i, true);
    double tie = r.random() * 0.01;
    if (fights_) {
      fights.push_back({v + tie, i, tie});
    } else if (!has_best || v + tie > best) {
      best = v + tie;
      pick = i;
      has_best = true;
    }
  }
  fights_ = false;
  std::stable_sort(fights.begin(), fights.end(), [](const Fight& a, const Fight& b) {
    return a.most != b.most ? a.most > b.most : a.i < b.i;
  });
  for (auto& f : fights) {
    if (has_best && (f.most < best || (f.most == best && f.i > pick))) break;
    double v = ask.score(f.i, false) + f.tie;
    if (!has_best || v > best || (v == best && f.i < pick)) {
      best = v;
      pick = f.i;
      has_best = true;
    }
  }
  return (int)pick;
}

// ================================ check/sweep.Book.see =======================================
void Game::see(const char* kind, size_t n, const Ask& ask, int pick) {
  auto once = [&](int field, int iid, std::vector<int64_t>& counts) {
    if (book->once.insert({field, iid}).second) counts[cards[iid].defn->idx]++;
  };
  if (!std::strcmp(kind, "action")) {
    if (!ask.card) return;
    std::vector<int> seen;  // each card kind once a decision
    for (size_t i = 0; i < n; ++i) {
      int iid = ask.card(i);
      if (iid < 0) continue;
      int idx = cards[iid].defn->idx;
      if (std::find(seen.begin(), seen.end(), idx) == seen.end()) seen.push_back(idx);
    }
    for (int idx : seen) book->playable[idx]++;
  } else if (!std::strcmp(kind, "bid")) {
    once(0, ask.bid_card, book->offered);
    if (ask.buy(pick)) once(1, ask.bid_card, book->bought);
  } else if (!std::strcmp(kind, "free_card") || !std::strcmp(kind, "forge_draft") ||
             !std::strcmp(kind, "mine_draft") || !std::strcmp(kind, "power_pick")) {
    for (size_t i = 0; i < n; ++i) {
      int iid = ask.card(i);
      if (iid >= 0) once(0, iid, book->offered);
    }
    int got = ask.card(pick);
    if (got >= 0) once(2, got, book->picked);
  }
}

// ================================ intent.py ==================================================
// target_intent: a choose_target step's intent is the one vote (nonzero) of the later steps
// that use its name, read from the raw effect of the card being resolved (or the Champion's
// abilities); kept per step, as intent._CACHE keeps it
int Game::target_intent(const Step* st, const CardInst* inst, const Champion* champ) {
  auto it = intents.find(st);
  if (it != intents.end()) return it->second;
  int value = st->intent;
  if (st->kind == S_CHOOSE_TARGET) {
    const Votes* src = inst ? &inst->defn->effect_votes
                            : champ ? &champ->defn->ability_votes : nullptr;
    std::vector<int> votes;
    if (src)
      for (auto& v : src->v) {
        if (!v.first) continue;
        if (std::find(v.second.begin(), v.second.end(), st->as_name) == v.second.end()) continue;
        if (std::find(votes.begin(), votes.end(), v.first) == votes.end()) votes.push_back(v.first);
      }
    value = votes.size() == 1 ? votes[0] : 0;
  }
  intents[st] = value;
  return value;
}

// ctx_intent: the intent of the choice asked by the step of this key (0 if none)
int Game::key_intent(int64_t key, const CardInst* inst, const Champion* champ) {
  int64_t uid = key / 1024;
  if (uid <= 0 || uid >= (int64_t)R.by_uid.size() || !R.by_uid[uid]) return 0;
  return target_intent(R.by_uid[uid], inst, champ);
}

// ================================ appraise.py ================================================
// appraise.CATEGORY.get(defn.category, 1.0)
double Game::category(const CardDef& d) const {
  auto c = W->category.find(d.category);
  return c == W->category.end() ? 1.0 : c->second;
}

double Game::card_value(const CardDef& d) const {
  return (double)d.vp * 4.0 + category(d) - 0.3 * (double)d.mana - 0.4 * (double)d.gold;
}

double Game::strength(int o, int h) const {
  double v = (double)f(h, o) * 1.0;
  for (auto* c : champs_at[h])
    if (c->owner == o) v += (double)(c->hp * c->defn->dice * c->defn->hit) / 4.0;
  return v;
}

// appraise.group: the (Champions, Forces) a move option moves
void Game::group(int p, const MoveOpt& m, std::vector<Champion*>& champs,
                 int64_t& forces) const {
  champs.clear();
  if (m.unit == 1) {
    forces = 1;
    return;
  }
  if (m.unit == 2 || m.cid > 0) {
    for (auto* c : champs_at[m.src])
      if (c->cid == m.cid) champs.push_back(c);
    forces = 0;
    return;
  }
  forces = m.nf < 0 ? f(m.src, p) : m.nf;
  if (m.cid < 0) return;
  for (auto* c : champs_at[m.src])
    if (c->owner == p) champs.push_back(c);
}

// ================================ HeuristicAgent scorers =====================================
static double objective(const Weights* W, int tile) { return W->objective[tile]; }

bool Game::closing(int p) {
  bool near_ = players[p].pvp + control_vp(p) >= R.vp_to_win - W->close_gap;
  bool late = R.round_cap - round < W->close_rounds;
  return near_ || late;
}

double Game::hex_value(int p, int h) {
  int t = tile[h];
  double v = objective(W, t);
  bool enemy_cap = cap_owner[h] >= 0 && cap_owner[h] != p;
  if ((t == T_CENTER || t == T_FORGE || enemy_cap) && closing(p)) v += W->close_bonus;
  if (t == T_MINE) v += 0.3 * (double)mine_value[h];
  if (enemy_cap) v += 3.0;
  unsigned enemies = occupants(h) & ~(1u << p);
  if (enemies) v += 2.0;
  else if (occupies(p, h)) v *= 0.2;
  return v;
}

double Game::near_objective(int p, int h) {
  if (near_decision != decisions || near_seat != p) {
    near_memo.assign(N, std::nan(""));
    near_decision = decisions;
    near_seat = p;
  }
  double& got = near_memo[h];
  if (!std::isnan(got)) return got;
  double v = -9.0;
  for (int t = 0; t < N; ++t) {
    if (!W->is_objective[tile[t]] || occupies(p, t)) continue;
    double x = objective(W, tile[t]) - 1.2 * (double)topo.d(h, t);
    if (x > v) v = x;
  }
  return got = v;
}

double Game::attack(int p, const MoveOpt& m, unsigned enemies, bool bounding) {
  int src = m.src, dst = m.last();
  double stake = 5.0 + (cap_owner[dst] >= 0 ? 4.0 : 0.0);
  if (bounding) {
    fights_ = true;
    return stake;
  }
  std::vector<Champion*> champs;
  int64_t forces;
  group(p, m, champs, forces);
  int foe = -1;
  double top = 0.0;
  for (int q = 0; q < P; ++q) {
    if (!(enemies & (1u << q))) continue;
    double s = strength(q, dst);
    if (foe < 0 || s > top) {
      foe = q;
      top = s;
    }
  }
  auto side = [&](int64_t n, const std::vector<Champion*>& cs) {
    std::vector<std::string> out{std::to_string(std::min(n, W->odds_forces))};
    std::vector<std::string> ids;
    for (auto* c : cs) ids.push_back(c->defn->id);
    std::sort(ids.begin(), ids.end());
    out.insert(out.end(), ids.begin(), ids.end());
    return out;
  };
  std::vector<Champion*> theirs;
  for (auto* c : champs_at[dst])
    if (c->owner == foe) theirs.push_back(c);
  double win = attack_odds_fn(side(forces, champs), side(f(dst, foe), theirs),
                              cap_owner[dst] >= 0);
  return stake * (2.0 * win - 1.0) - (win < 0.35 ? 6.0 : 0.0);
}

double Game::approach(int p, const MoveOpt& m) {
  std::vector<Champion*> champs;
  int64_t forces;
  group(p, m, champs, forces);
  double n = (double)(forces + 2 * (int64_t)champs.size());
  return W->approach_move + W->approach_army * std::min(1.0, n / W->army);
}

double Game::move_score(int p, const MoveOpt* m, bool bounding) {
  if (!m) return 0.5;
  int src = m->src, dst = m->last();
  double v = hex_value(p, dst);
  unsigned enemies = occupants(dst) & ~(1u << p);
  if (enemies) v += attack(p, *m, enemies, bounding);
  if (!m->cid && m->nf < 0 && W->is_objective[tile[src]])
    v -= objective(W, tile[src]) + 0.3 * (double)mine_value[src];
  double gain = near_objective(p, dst) - near_objective(p, src);
  v += approach(p, *m) * gain;
  if (src == players[p].capital && !m->cid && m->nf < 0) v -= f(src, p) > 3 ? 1.0 : 2.5;
  return v;
}

double Game::bridge_edge(int p, int e) {
  int a = e >> 8, b = e & 255;
  int near_ = occupies(p, a) ? a : b, far = occupies(p, a) ? b : a;
  double gain = near_objective(p, far) - near_objective(p, near_);
  double toward = occupies(p, far) ? 0.0 : objective(W, tile[far]);
  return 1.0 + W->approach_bridge * gain + 0.4 * toward;
}

double Game::hex_score(int p, int h, int aim) {
  double v = objective(W, tile[h]) * 0.5;
  bool enemy = (occupants(h) & ~(1u << p)) != 0;
  bool mine = occupies(p, h);
  if (aim < 0) {
    int64_t others = 0;
    for (int q = 0; q < P; ++q)
      if (q != p) others += f(h, q);
    return v + (enemy ? 4.0 : 0.0) - (mine ? 6.0 : 0.0) + 0.1 * (double)others;
  }
  if (aim > 0) return v + (mine ? 3.0 : 0.0) + (mine && enemy ? 1.0 : 0.0);
  if (enemy) v += 2.0;
  if (h == players[p].capital) v += 1.0;
  return v - 0.2 * (double)topo.d(h, topo.center);
}

double Game::champion_score(int p, const Champion* ch, int aim) {
  double hp = (double)ch->hp;
  if (aim < 0) return ch->owner != p ? 10.0 - hp : -10.0 + hp * 0.1;
  if (aim > 0) return ch->owner == p ? 1.0 + (double)ch->max_hp - hp : -10.0;
  if (ch->owner == p) return (double)(ch->max_hp - ch->hp);
  return 10.0 - hp;
}

double Game::bridge_score(int p, int e) {
  if (bridged(e)) {  // destroying: hurt the enemy nearest to us
    unsigned o = occupants(e >> 8) | occupants(e & 255);
    return (o & ~(1u << p)) ? 1.0 : 0.0;
  }
  return bridge_edge(p, e);
}

double Game::bid_target(int p, int iid) {
  const CardDef& d = *cards[iid].defn;
  int64_t gold = players[p].gold;
  double worth = card_value(d) * (1.0 + (double)gold / 8.0);
  int64_t need = 0;
  for (int c : players[p].hand) need = std::max(need, cards[c].gold());
  double target = std::min(std::min(worth - 1.0, (double)(gold - 1) - (double)need),
                           d.vp ? (double)(W->victory_bid * d.vp) : (double)gold);
  if (d.vp && R.round_cap - round < W->late_rounds) target = (double)(gold - need);
  return target;
}

double Game::action_score(int p, const Action& a, const std::vector<Play>& plays,
                          bool bounding) {
  switch (a.kind) {
    case A_DONE: return 0.2;
    case A_CARD: {
      CardInst& inst = cards[a.a];
      const CardDef& d = *inst.defn;
      double base = 1.5 + 0.5 * category(d) + (d.type == "champion" ? 1.5 : 0.0);
      if (a.play < 0) return base - misaimed(p, inst);
      double v = 0.0;  // _play: each target as if asked alone, and misaimed harm or help
      for (auto& aim : plays[a.play]) {
        int intent = key_intent(aim.key, &inst, nullptr);
        if (!std::strcmp(aim.kind, "champion") && aim.value.t == V_CHAMP) {
          bool us = aim.value.c->owner == p;
          v += 0.3 * champion_score(p, aim.value.c, intent);
          if ((intent < 0 && us) || (intent > 0 && !us)) v -= 10.0;
        } else if (!std::strcmp(aim.kind, "hex") && aim.value.is_int()) {
          v += 0.3 * hex_score(p, (int)aim.value.i, intent);
          if (intent < 0 && occupies(p, (int)aim.value.i)) v -= 10.0;
        } else if (!std::strcmp(aim.kind, "bridge") && aim.value.is_int()) {
          v += 0.3 * bridge_score(p, (int)aim.value.i);
        }
      }
      return base + v;
    }
    case A_MARCH: return W->march_base + move_score(p, &a.m, bounding);
    case A_BRIDGE: return bridge_edge(p, a.a);
    case A_REINFORCE:
      return 0.5 + (capital_has_enemy(p) ? 3.0 : 0.0) +
             std::min((double)players[p].gold / 6.0, 1.5);
    default: return 2.5;
  }
}

// agents._misaimed: a card whose first chosen Champion target could only be a friend when it
// harms, or only a foe when it helps (Game.card_targets: its candidates, looked ahead)
double Game::misaimed(int p, CardInst& inst) {
  const Step* st = nullptr;
  for (const Step* x : inst.defn->effect)
    if (x->has_targets) {
      st = x;
      break;
    }
  if (!st || !st->champion_param) return 0.0;
  int aim = target_intent(st, &inst, nullptr);
  if (!aim) return 0.0;
  Ctx& probe_ = probe(p, &inst);
  if (!st->targets_champs) {
    bool any = st->hs ? !hex_candidates(*st->hs, probe_).empty()
                      : st->bs && !bridge_candidates(*st->bs, probe_).empty();
    if (any) throw Unsupported("a Champion-aimed card whose first target is no Champion");
    return 0.0;
  }
  std::vector<Champion*> cands = champ_candidates(*st->cs, probe_);
  if (cands.empty()) return 0.0;
  bool all_ours = true, all_theirs = true;
  for (auto* c : cands) {
    all_ours = all_ours && c->owner == p;
    all_theirs = all_theirs && c->owner != p;
  }
  if (aim < 0 && all_ours) return 10.0;
  if (aim > 0 && all_theirs) return 10.0;
  return 0.0;
}

// the scores of a choice among effect targets (core.Ctx.choose's options)
Ask Game::val_ask(int p, const char* kind, const std::vector<Val>& options, const Ctx& ctx,
                  int64_t key) {
  Ask a;
  a.none = [&options](size_t i) { return options[i].t == V_NULL; };
  const CardInst* inst = ctx.inst;
  const Champion* champ = ctx.champ;
  std::string k = kind;
  if (k == "hex" || k == "champion") {
    bool hex = k == "hex";
    a.score = [this, p, &options, inst, champ, key, hex](size_t i, bool) {
      int aim = key_intent(key, inst, champ);
      const Val& v = options[i];
      if (hex) return v.t == V_NULL ? 0.0 : hex_score(p, (int)v.i, aim);
      return v.t == V_CHAMP ? champion_score(p, v.c, aim) : 0.0;
    };
  } else if (k == "bridge") {
    a.score = [this, p, &options](size_t i, bool) {
      return options[i].is_int() ? bridge_score(p, (int)options[i].i) : 0.0;
    };
  } else if (k == "player") {
    a.score = [this, &options](size_t i, bool) {
      const Player& pl = players[(int)options[i].i];
      return (double)(pl.gold + pl.cvp);
    };
  } else if (k == "may") {
    a.score = [](size_t, bool) { return 1.0; };
  } else if (k == "move") {
    a.score = [this, p, &options](size_t i, bool bounding) {
      return move_score(p, options[i].t == V_MOVE ? &options[i].m : nullptr, bounding);
    };
  } else {
    a.score = [](size_t, bool) { return 0.0; };
  }
  return a;
}

// the scores of a choice among cards (drafts, discards...): iids, None first when optional
Ask Game::iid_ask(const char* kind, const std::vector<int>& iids, bool none_first) {
  Ask a;
  size_t off = none_first ? 1 : 0;
  a.card = [&iids, off](size_t i) { return i < off ? -1 : iids[i - off]; };
  a.none = [off](size_t i) { return i < off; };
  std::string k = kind;
  double if_none = 0.0;
  int sign = 1;  // +1: card_value; -1: 3.0 - card_value; 0: the default 0.0
  if (k == "free_card" || k == "forge_draft" || k == "power_pick" || k == "gain_card" ||
      k == "look_take") {
    if_none = 0.0;
  } else if (k == "mine_draft") {
    if_none = 1.0;
  } else if (k == "discard" || k == "scrap" || k == "put_on_top" || k == "look_bottom") {
    if_none = 1.5;
    sign = -1;
  } else {
    sign = 0;
  }
  a.score = [this, &iids, off, if_none, sign](size_t i, bool) {
    if (!sign) return 0.0;
    if (i < off) return if_none;
    double v = card_value(*cards[iids[i - off]].defn);
    return sign > 0 ? v : 3.0 - v;
  };
  return a;
}

// ================================ declare.card_plays =========================================
// Every way to declare this card now, each as the targets it locks, at most PLAYS, first
// options first; nothing is logged or changed
std::vector<Play> Game::card_plays(int p, int iid) {
  static const size_t PLAYS = 24;
  std::vector<Play> out;
  std::vector<std::vector<int>> todo{{}};
  CardInst* inst = &cards[iid];
  std::map<std::pair<int64_t, std::vector<int>>, std::vector<Val>> memo;
  while (!todo.empty() && out.size() < PLAYS) {
    std::vector<int> picks = todo.back();
    todo.pop_back();
    Preset pre;
    pre.picks = picks;
    pre.memo = &memo;
    Locks locks;
    Ctx ctx(this, p, inst);
    ctx.locks = &locks;
    ctx.declaring = true;
    ctx.dry = false;
    ctx.quick = true;
    ctx.preset = &pre;
    bool saved = logging;
    logging = false;
    try {
      lock_prefix(ctx, inst->defn->effect);
    } catch (NoTarget&) {
      logging = saved;
      continue;
    } catch (...) {
      logging = saved;
      throw;
    }
    logging = saved;
    out.push_back(pre.seen);
    for (size_t k = pre.seen.size(); k-- > picks.size();) {
      std::vector<int> base = picks;
      base.resize(k, 0);
      for (size_t alt = pre.seen_n[k] - 1; alt > 0; --alt) {
        std::vector<int> next = base;
        next.push_back((int)alt);
        todo.push_back(next);
      }
    }
  }
  return out;
}

}  // namespace tn
