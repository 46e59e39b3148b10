// The native search agent ("search"): determinized Monte Carlo with UCB1 over the searching
// seat's own Action Step options (one level: the root), the heuristic as the prior (the
// root's arms are the heuristic's best options) and as the rollout policy, with random slips
// for the other seats (they are not modelled as the agent they face).
//
// A simulation copies the Game at the start of the current Action Step (the Game's plain
// data, its raw pointers relinked into the copy), deals again what the searching seat
// cannot see (determinize), lets every seat choose again in the dealt world, the searching
// seat the option under trial, and plays on to the end of the game or of a horizon of
// rounds, where the VP standings are judged. Bids, targets and the other decisions stay the
// heuristic's. Every number is drawn from the searching seat's own agent generator, so a
// seeded game is the same game.
#include <cmath>
#include <cstdio>
#include <ctime>
#include <type_traits>
#include <unordered_map>

#include "game.h"

namespace tn {

// A copy's raw pointers point into the original: turn each into the same element of the
// copy's own stores (the deques keep their order, so the k-th element is the same one).
void Game::relink(const Game& o) {
  std::unordered_map<const void*, void*> m;
  m.reserve(o.champ_store.size() + o.cards.size() + o.act_store.size() + o.battle_store.size());
  {
    auto it = champ_store.begin();
    for (auto& x : o.champ_store) m[&x] = &*it++;
  }
  {
    auto it = cards.begin();
    for (auto& x : o.cards) m[&x] = &*it++;
  }
  {
    auto it = act_store.begin();
    for (auto& x : o.act_store) m[&x] = &*it++;
  }
  {
    auto it = battle_store.begin();
    for (auto& x : o.battle_store) m[&x] = &*it++;
  }
  auto fix = [&m](auto*& ptr) {
    if (!ptr) return;
    auto f = m.find(ptr);
    if (f == m.end()) throw std::runtime_error("search: a pointer the copy cannot relink");
    ptr = static_cast<std::remove_reference_t<decltype(ptr)>>(f->second);
  };
  auto fix_val = [&fix](Val& v) {
    if (v.t == V_CHAMP) fix(v.c);
  };
  for (auto& v : champs_at)
    for (auto*& c : v) fix(c);
  for (auto*& c : by_cid) fix(c);
  for (auto& lst : mods)
    for (auto*& a : lst) fix(a);
  for (auto& lst : trigs)
    for (auto*& a : lst) fix(a);
  for (auto& a : act_store) {
    fix(a.champ);
    fix(a.inst);
    for (auto& kv : a.refs.v) fix_val(kv.second);
  }
  for (auto& b : battle_store)
    for (auto& r : b.redirected) {
      auto f = m.find(r.first);
      if (f != m.end()) r.first = f->second;
    }
  // the look-ahead context is made again on first use; its leftovers are not carried over
  has_probe = false;
  probe_ctx = Ctx();
  probe_locks.v.clear();
  near_decision = -1;
  near_memo.clear();
}

// the check of the copy (verify_forks): a copy made at the start of Action Step `step`,
// every seat's agent unchanged, plays to the end; its log and final state are kept
void Game::fork_to_end(int step) {
  Game c(*this);
  c.relink(*this);
  c.in_sim = true;
  c.verify_forks = false;
  c.book = nullptr;
  c.run(step);
  fork_ends.push_back(c.ev + "|" + c.snapshot());
}

static void shuffle(std::vector<int>& v, MT& r) {
  for (size_t i = v.size(); i > 1; --i) {
    size_t j = (size_t)(r.random() * (double)i);
    std::swap(v[i - 1], v[j]);
  }
}

// Deal again what seat p cannot see, from what p knows (views.resample): every supply
// deck's order and p's own draw order are shuffled; each card another seat gained unseen
// (Game.unseen) becomes any of its deck's cards or itself, its overrides and Permanent VP
// going with it; the other seats' hands and draw piles are dealt again from their pool; the
// dice and every seat's agent are reseeded. Each hidden list is sorted before it is
// shuffled, so the dealt world does not depend on the hidden order it came from.
void Game::determinize(int p, MT& r) {
  prune_unseen();
  pending.clear();  // the seats that chose before p this step choose again
  for (auto& kv : decks) {
    std::sort(kv.second.begin(), kv.second.end());
    shuffle(kv.second, r);
  }
  std::sort(players[p].draw.begin(), players[p].draw.end());
  shuffle(players[p].draw, r);
  std::vector<std::pair<int, std::pair<int, std::string>>> gains(unseen.begin(), unseen.end());
  for (auto& g : gains) {
    int iid = g.first, q = g.second.first;
    if (q == p) continue;
    auto d = decks.find(g.second.second);
    if (d == decks.end() || d->second.empty()) continue;
    std::vector<int> cands = d->second;
    cands.push_back(iid);
    std::sort(cands.begin(), cands.end());
    int c = cands[(size_t)(r.random() * (double)cands.size())];
    if (c == iid) continue;  // it is itself
    Player& pl = players[q];
    *std::find(d->second.begin(), d->second.end(), c) = iid;
    auto& zone = std::find(pl.hand.begin(), pl.hand.end(), iid) != pl.hand.end() ? pl.hand : pl.draw;
    *std::find(zone.begin(), zone.end(), iid) = c;
    std::swap(cards[iid].over, cards[c].over);
    pl.pvp += cards[c].defn->vp - cards[iid].defn->vp;
    unseen.erase(iid);
    unseen[c] = g.second;
  }
  for (int q = 0; q < P; ++q) {
    if (q == p) continue;
    Player& pl = players[q];
    std::vector<int> pool = pl.hand;
    pool.insert(pool.end(), pl.draw.begin(), pl.draw.end());
    std::sort(pool.begin(), pool.end());
    shuffle(pool, r);
    size_t k = pl.hand.size();
    pl.hand.assign(pool.begin(), pool.begin() + k);
    pl.draw.assign(pool.begin() + k, pool.end());
  }
  rng.seed((int64_t)(r.genrand() >> 1));
  for (auto& a : agents) a.seed((int64_t)(r.genrand() >> 1));
}

// The leak test's change to the game itself (SearchCfg::perturb): what seat p cannot see is
// dealt otherwise (another seat's hand and draw pile, p's own draw order, every supply deck's
// order, the dice and the other seats' agents), nothing p can see changes.
void Game::perturb_hidden(int p) {
  for (int q = 0; q < P; ++q) {
    Player& pl = players[q];
    if (q != p && !pl.draw.empty()) {
      for (size_t k = 0; k < pl.hand.size(); ++k) {  // a card of the hand not chosen yet
        if (std::find(pending.begin(), pending.end(), pl.hand[k]) != pending.end()) continue;
        std::swap(pl.hand[k], pl.draw.back());
        break;
      }
      std::reverse(pl.draw.begin(), pl.draw.end());
    }
    if (q != p) agents[q].seed(987654321 + q);
  }
  std::reverse(players[p].draw.begin(), players[p].draw.end());
  for (auto& kv : decks) std::reverse(kv.second.begin(), kv.second.end());
  rng.seed(123456789);
}

// One simulation of option `arm` (of n) of seat p's Action Step choice: its value to p in
// [0, 1] (a win's share at the end; at the horizon, p's VP against the best other seat's,
// squashed), or -1 if the copy could not be played (another option list, an engine error).
double Game::simulate_arm(int p, int arm, size_t n, uint64_t seed) {
  std::string log;
  log.swap(ev);  // the copy does not carry the event log
  Game c(*this);
  ev.swap(log);
  c.relink(*this);
  c.in_sim = true;
  c.logging = c.checking = false;
  c.book = nullptr;
  c.searcher.clear();
  c.heuristic.assign((size_t)P, 1);
  c.noise = scfg->noise;
  c.noise_exempt = p;
  MT r;
  r.seed((int64_t)(seed >> 1));
  if (scfg->deal) c.determinize(p, r);
  else c.pending.clear();
  c.forced_seat = p;
  c.forced_index = arm;
  c.forced_n = n;
  c.stop_round = round + std::max<int64_t>(scfg->horizon, 1) - 1;
  try {
    c.run(action_step);
  } catch (std::exception&) {
    return -1;
  } catch (Fizzle&) {
    return -1;
  } catch (NoTarget&) {
    return -1;
  }
  if (!c.forced_ok) return -1;
  if (!c.winner.empty()) {
    bool won = std::find(c.winner.begin(), c.winner.end(), p) != c.winner.end();
    return won ? 1.0 / (double)c.winner.size() : 0.0;
  }
  auto vp = [&c](int q) { return (double)(c.players[q].pvp + c.players[q].cvp); };
  double best = -1e9;
  for (int q = 0; q < P; ++q)
    if (q != p) best = std::max(best, vp(q));
  double scale = std::max(1.0, (double)R.vp_to_win / 6.0);
  return 1.0 / (1.0 + std::exp(-(vp(p) - best) / scale));
}

// Seat p's Action Step choice among n options: UCB1 over the heuristic's `width` best, each
// simulation from a world dealt anew; the k-th visit of every arm plays the k-th world (the
// arms are compared on the same deals). The most visited arm is chosen (ties: the better
// mean, then the heuristic's order).
int Game::search_action(int p, size_t n, const Ask& ask) {
  std::clock_t t0 = std::clock();
  SearchCfg& C = *scfg;
  C.searched++;
  if (C.perturb && C.searched == 1) perturb_hidden(p);
  std::vector<std::pair<double, int>> scored;
  for (size_t i = 0; i < n; ++i) scored.push_back({ask.score(i, false), (int)i});
  std::stable_sort(scored.begin(), scored.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  size_t K = std::min<size_t>(n, (size_t)std::max<int64_t>(C.width, 1));
  MT& r = agents[p];
  std::vector<uint64_t> worlds((size_t)std::max<int64_t>(C.sims, 1));
  for (auto& w : worlds) w = ((uint64_t)r.genrand() << 32) | r.genrand();
  std::vector<double> sum(K, 0.0);
  std::vector<int64_t> cnt(K, 0);
  int64_t total = 0;
  for (int64_t s = 0; s < C.sims; ++s) {
    size_t a = K;
    for (size_t k = 0; k < K && a == K; ++k)
      if (cnt[k] == 0) a = k;
    if (a == K) {
      double best = -1e18;
      for (size_t k = 0; k < K; ++k) {
        double u = sum[k] / (double)cnt[k] +
                   C.explore * std::sqrt(std::log((double)total) / (double)cnt[k]);
        if (u > best) { best = u; a = k; }
      }
    }
    double v = simulate_arm(p, scored[a].second, n, worlds[(size_t)cnt[a] % worlds.size()]);
    C.simulations++;
    if (v < 0) {
      C.mismatched++;
      v = 0.5;
    }
    sum[a] += v;
    cnt[a]++;
    total++;
  }
  size_t best = 0;
  for (size_t k = 1; k < K; ++k) {
    double mb = cnt[best] ? sum[best] / (double)cnt[best] : 0.0;
    double mk = cnt[k] ? sum[k] / (double)cnt[k] : 0.0;
    if (cnt[k] > cnt[best] || (cnt[k] == cnt[best] && mk > mb)) best = k;
  }
  C.trace += std::to_string(p) + ":" + std::to_string(n) + ":";
  char buf[96];
  for (size_t k = 0; k < K; ++k) {
    std::snprintf(buf, sizeof buf, "%s%d,%lld,%.17g", k ? "|" : "", scored[k].second,
                  (long long)cnt[k], sum[k]);
    C.trace += buf;
  }
  C.trace += ";";
  C.cpu += (double)(std::clock() - t0) / CLOCKS_PER_SEC;
  return scored[best].second;
}

}  // namespace tn
