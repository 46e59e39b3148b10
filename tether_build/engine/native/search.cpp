// The native search agent ("nsearch"): single-observer information-set MCTS (SO-ISMCTS) with
// a real tree, the native twin of engine/search.py (the same Params, the same steps):
//
// 1. A searched decision is the seat's Action Step choice, or its bid on a market card, or
//    any other decision of KINDS (a target, a move, a hit's assignment, a mine or forge
//    mode...: a "nested" root, asked from inside a card's or a phase's resolution), a root at
//    each, as search.py searches them. Each of `sims` simulations copies the Game where the
//    decision's phase can be resumed (the start of the Action Step; the start of the auction
//    of that card; for a nested root, the start of the round or of the Action Step, whose
//    answers the copy re-runs up to the decision: Game::keep_round, Game::kept), its raw
//    pointers relinked into the copy, and deals again everything the seat cannot see (determinize: from what
//    the seat knows, never from the hidden truth; at a nested root in place at the decision,
//    as the Python state's resample_from_infostate deals there).
// 2. In the copy every decision of the searching seat of a searched kind (KINDS: actions,
//    bids, mine and forge modes, moves, targets, options, hit assignment) descends the tree
//    by the seat's own answers so far (its information: a node is the seat's own action
//    history from the root), choosing by PUCT with the heuristic's softmax as the prior and
//    first-play urgency from the node's mean; an option counts only the visits in which it
//    was offered (availability).
// 3. One node is added a simulation: after the first answer leading to a new node, the seat
//    plays the heuristic (the rollout), the other seats the heuristic with random slips (the
//    opponent model, not the agent they face), to the end of the game or of `horizon` rounds.
// 4. The result for the seat in [0, 1] (a win's share; at the horizon 0.5 + half the VP lead
//    over the best other seat, in units of the VP to win, clamped) is backed up along the
//    path. The most visited root option is chosen (ties: the better mean, then the first).
//
// Every number is drawn from the searching seat's own agent generator, so a seeded game is
// the same game.
#include <cmath>
#include <tuple>
#include <cstdio>
#include <ctime>
#include <type_traits>
#include <unordered_map>

#include "game.h"
#include "nstate.h"
#include <set>

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

// The deals' order of hidden cards (views.Game._deal_key): by what a seat can know of a card,
// its card id, then its overrides and its counter, and only then by instance, so which copy of
// a card sits where (an instance number) does not change what is dealt
static auto known_key(const CardInst& c) {  // its overrides and its counter
  const Overrides& o = c.over;  // (views.OVER_KEYS: burn, gold, initiative, mana)
  return std::make_tuple(o.has_burn, o.has_burn ? (int64_t)o.burn : 0, o.has_gold,
                         o.has_gold ? o.gold : 0, o.has_initiative,
                         o.has_initiative ? o.initiative : 0, o.has_mana,
                         o.has_mana ? o.mana : 0, c.counter);
}

bool Game::deal_less(int a, int b) const {
  const CardInst& x = cards[(size_t)a];
  const CardInst& y = cards[(size_t)b];
  if (x.defn->id_rank != y.defn->id_rank) return x.defn->id_rank < y.defn->id_rank;
  auto kx = known_key(x), ky = known_key(y);
  if (kx != ky) return kx < ky;
  return a < b;
}

// The cards other seats gained unseen by p (Game::unseen) dealt again, deck by deck (by name):
// views.Game._redeal_unseen, draw for draw. Every such card of a deck goes back into it (the
// deck and they, sorted), then each gain in turn (by its seat, its overrides and counter, then
// the deal's order) takes a card drawn from what is left. Which card a seat gained is unseen, so the
// pool of all of them is what p knows, whoever holds them. A new card takes the overrides of
// the gain it replaces; the gains that went back into the deck take those of the deck's
// cards drawn in their place; each seat's Permanent VP changes by the difference.
void Game::redeal_unseen(int p, MT& r, const std::function<bool(int)>& chosen) {
  std::map<std::string, std::vector<int>> gains;
  for (auto& g : unseen)
    if (g.second.first != p && !chosen(g.first) && decks.count(g.second.second))
      gains[g.second.second].push_back(g.first);
  for (auto& kv : gains) {
    std::vector<int>& G = kv.second;
    std::vector<int>& deck = decks[kv.first];
    std::sort(G.begin(), G.end(), [this](int a, int b) {  // by what p knows of each gain
      int qa = unseen.at(a).first, qb = unseen.at(b).first;
      if (qa != qb) return qa < qb;
      auto ka = known_key(cards[(size_t)a]), kb = known_key(cards[(size_t)b]);
      if (ka != kb) return ka < kb;
      return deal_less(a, b);  // (gains alike in all that: any order deals the same)
    });
    std::vector<int> all = deck;
    all.insert(all.end(), G.begin(), G.end());
    sort_hidden(all);
    std::vector<int> got;
    for (size_t k = 0; k < G.size(); ++k) {
      size_t i = (size_t)(r.random() * (double)all.size());
      got.push_back(all[i]);
      all.erase(all.begin() + (long)i);
    }
    // where each gain is (its seat's hand or draw pile) and its overrides, before any moves
    std::vector<std::pair<std::vector<int>*, size_t>> at;
    std::vector<Overrides> over;
    for (int g : G) {
      Player& pl = players[(size_t)unseen.at(g).first];
      auto h = std::find(pl.hand.begin(), pl.hand.end(), g);
      if (h != pl.hand.end())
        at.push_back({&pl.hand, (size_t)(h - pl.hand.begin())});
      else
        at.push_back({&pl.draw, (size_t)(std::find(pl.draw.begin(), pl.draw.end(), g) - pl.draw.begin())});
      over.push_back(cards[(size_t)g].over);
    }
    std::vector<int> back, taken;  // gains back in the deck; deck cards drawn for a gain
    for (int g : G)
      if (std::find(got.begin(), got.end(), g) == got.end()) back.push_back(g);
    for (int c : got)
      if (std::find(G.begin(), G.end(), c) == G.end()) taken.push_back(c);
    sort_hidden(back);
    for (size_t k = 0; k < back.size(); ++k) cards[(size_t)back[k]].over = cards[(size_t)taken[k]].over;
    std::vector<int> owner;
    for (int g : G) owner.push_back(unseen.at(g).first);
    for (size_t k = 0; k < G.size(); ++k) {
      int g = G[k], c = got[k];
      (*at[k].first)[at[k].second] = c;
      cards[(size_t)c].over = over[k];
      players[(size_t)owner[k]].pvp += cards[(size_t)c].defn->vp - cards[(size_t)g].defn->vp;
      unseen.erase(g);
    }
    for (size_t k = 0; k < G.size(); ++k) unseen[got[k]] = {owner[k], kv.first};
    deck = all;
  }
}

// Deal again what seat p cannot see, from what p knows: views.Game.resample, draw for draw
// (the reference test holds the two together). First the cards other seats gained unseen
// (redeal_unseen), then seat by seat: p's own draw order is shuffled; another seat's hand and
// draw pile are dealt again from their pool. Then every supply deck (by name) is shuffled and
// the dice reseeded. Each hidden list is sorted (deal_less: by card, not by instance) before
// it is shuffled, so the dealt world does not depend on the hidden order it came from, nor on
// which copy of a card is where; last the hidden cards are renumbered (renumber_hidden), so
// not even their instance numbers depend on it. With `resume` the copy resumes at the start of the Action
// Step or the auction: no card is chosen yet, pending is emptied. Else (a nested root: dealt
// in place at the searched decision) a card chosen this Action Step stays in its seat's hand,
// first (it is about to be revealed), as in Python.
void Game::determinize(int p, MT& r, bool resume) {
  prune_unseen();
  if (resume) pending.clear();  // the seats that chose before p this step choose again
  auto chosen = [this](int iid) {
    return std::find(pending.begin(), pending.end(), iid) != pending.end();
  };
  redeal_unseen(p, r, chosen);
  for (int q = 0; q < P; ++q) {
    Player& pl = players[q];
    if (q == p) {
      sort_hidden(pl.draw);
      r.shuffle(pl.draw);
      continue;
    }
    std::vector<int> keep, pool;
    for (int iid : pl.hand) (chosen(iid) ? keep : pool).push_back(iid);
    size_t k = pool.size();
    pool.insert(pool.end(), pl.draw.begin(), pl.draw.end());
    sort_hidden(pool);
    r.shuffle(pool);
    keep.insert(keep.end(), pool.begin(), pool.begin() + (long)k);
    pl.hand = keep;
    pl.draw.assign(pool.begin() + (long)k, pool.end());
  }
  for (auto& kv : decks) {  // (a std::map: by name, as views sorts them)
    sort_hidden(kv.second);
    r.shuffle(kv.second);
  }
  rng.seed_mag(r.bits64());
  if (!scfg || scfg->renumber) renumber_hidden(p);
}

// After a deal, the instance numbers of the cards p cannot tell apart (the other seats' hands
// but a card chosen this step, every draw pile, p's own too, and every supply deck: where a
// copy of a card is, not which copy) are given out again in a canonical order, as
// views.Game._renumber_hidden does: the numbers, sorted, go to the places in turn, seat by
// seat (another seat's hand, then its draw pile; p's draw pile), then deck by deck (by name),
// each card keeping its data (a pointer to a card follows it). What sits in each place was
// dealt from what p knows, so nothing in a simulation (an option's id names its card's
// instance; a seat's playable cards are listed by instance) depends on which copy truly is
// where. Cards p has seen (its hand, the face-up piles, the board, revealed cards) keep theirs.
void Game::renumber_hidden(int p) {
  std::vector<int*> at;
  for (int q = 0; q < P; ++q) {
    Player& pl = players[q];
    if (q != p)
      for (int& x : pl.hand)
        if (std::find(pending.begin(), pending.end(), x) == pending.end()) at.push_back(&x);
    for (int& x : pl.draw) at.push_back(&x);
  }
  for (auto& kv : decks)
    for (int& x : kv.second) at.push_back(&x);
  std::vector<int> old, fresh;
  for (int* x : at) old.push_back(*x);
  fresh = old;
  std::sort(fresh.begin(), fresh.end());
  if (fresh == old) return;
  std::vector<int> to(cards.size(), -1);
  for (size_t k = 0; k < old.size(); ++k) to[(size_t)old[k]] = fresh[k];
  for (auto& a : act_store)  // (before the cards move: a.inst->iid is still its place)
    if (a.inst && to[(size_t)a.inst->iid] >= 0) a.inst = &cards[(size_t)to[(size_t)a.inst->iid]];
  std::vector<CardInst> moved;
  moved.reserve(old.size());
  for (int i : old) moved.push_back(cards[(size_t)i]);
  for (size_t k = 0; k < old.size(); ++k) {
    CardInst& c = cards[(size_t)fresh[k]];
    c = moved[k];
    c.iid = fresh[k];
    *at[k] = fresh[k];
  }
  std::map<int, std::pair<int, std::string>> gains;
  for (auto& g : unseen) gains[to[(size_t)g.first] >= 0 ? to[(size_t)g.first] : g.first] = g.second;
  unseen.swap(gains);
}

// The leak test's change made before an Action Step began (SearchCfg::perturb_round): as
// that step starts, what seat p cannot see is made otherwise, and nothing p can see: for
// each other seat, a card it gained unseen that waits in its draw pile becomes another card
// of that deck (another definition where the deck has one; its overrides and Permanent VP
// go with it, as a deal would), a card of its draw pile trades places with another copy of
// the same card in p's own draw pile (trade: which copy is where; p knows its draw pile by
// card), and its draw pile is reversed; with trade_deck, one card of another seat's hand or
// draw pile, or of p's draw pile, trades places with another copy in a supply deck; every supply deck is reversed. (Not the dice, nor p's own
// draw order: they show within the round.) `perturbed` counts the changes: gains, trades,
// piles reversed.
void Game::perturb_before(int p) {
  prune_unseen();
  for (int q = 0; q < P; ++q) {
    if (q == p) continue;
    Player& pl = players[q];
    std::vector<int> gains;
    for (auto& g : unseen)
      if (g.second.first == q && std::find(pl.draw.begin(), pl.draw.end(), g.first) != pl.draw.end())
        gains.push_back(g.first);
    for (int iid : gains) {
      const std::string name = unseen.at(iid).second;
      auto d = decks.find(name);
      if (d == decks.end() || d->second.empty()) continue;
      int c = d->second.front();
      for (int x : d->second)
        if (cards[x].defn != cards[iid].defn) {
          c = x;
          break;
        }
      *std::find(d->second.begin(), d->second.end(), c) = iid;
      *std::find(pl.draw.begin(), pl.draw.end(), iid) = c;
      std::swap(cards[iid].over, cards[c].over);
      pl.pvp += cards[c].defn->vp - cards[iid].defn->vp;
      unseen.erase(iid);
      unseen[c] = {q, name};
      scfg->perturbed[0]++;
    }
    bool traded = !scfg->trade;  // a copy of a card traded with p's own draw pile
    for (int& x : pl.draw) {
      if (traded) break;
      for (int& y : players[p].draw) {
        const CardInst& a = cards[(size_t)x];
        const CardInst& b = cards[(size_t)y];
        if (a.defn != b.defn || x == y || a.over.any() || b.over.any() || a.counter != b.counter)
          continue;
        std::swap(x, y);
        scfg->perturbed[1]++;
        traded = true;
        break;
      }
    }
    if (pl.draw.size() > 1) {
      std::reverse(pl.draw.begin(), pl.draw.end());
      scfg->perturbed[2]++;
    }
  }
  if (scfg->trade_deck) trade_with_deck(p);
  for (auto& kv : decks) std::reverse(kv.second.begin(), kv.second.end());
  scfg->perturbed_done = true;
}

// The leak test's trade_deck: the first card of another seat's hand or draw pile, or of p's own
// draw pile, that has another copy (no overrides, the same counter) in a supply deck trades
// places with it
void Game::trade_with_deck(int p) {
  std::vector<std::vector<int>*> from;
  for (int q = 0; q < P; ++q)
    if (q != p) {
      from.push_back(&players[q].hand);
      from.push_back(&players[q].draw);
    }
  from.push_back(&players[p].draw);
  for (auto* z : from)
    for (int& x : *z)
      for (auto& kv : decks)
        for (int& y : kv.second) {
          const CardInst& a = cards[(size_t)x];
          const CardInst& b = cards[(size_t)y];
          if (a.defn != b.defn || a.over.any() || b.over.any() || a.counter != b.counter) continue;
          std::swap(x, y);
          scfg->perturbed[1]++;
          return;
        }
}

// What seat p cannot see, by card instance (the leak test compares it): the other seats'
// hands, draw piles and unseen gains, and the supply decks
std::string Game::hidden_truth(int p) const {
  std::string o = "[";
  auto list = [&o](const std::vector<int>& v) {
    o += "[";
    for (size_t k = 0; k < v.size(); ++k) o += (k ? "," : "") + std::to_string(v[k]);
    o += "],";
  };
  for (int q = 0; q < P; ++q)
    if (q != p) {
      list(players[q].hand);
      list(players[q].draw);
      o += std::to_string(players[q].pvp) + ",";
    }
  for (auto& kv : decks) list(kv.second);
  std::vector<int> gained;
  for (auto& g : unseen) gained.push_back(g.first);
  list(gained);
  o.back() = ']';
  return o;
}

// the searching seat's own answer (its information state's part), for the leak test's views
void Game::own_answer(const char* kind, const std::string& repr) {
  std::string& m = scfg->mine;
  if (!m.empty()) m += ",";
  m += "[";
  put_str(m, kind);
  m += "," + std::to_string(option_id(kind, repr)) + "]";
}

// the world dealt for seat p, each card as "card#instance" (the leak test compares it): every
// other seat's hand and draw pile in order, its Permanent VP, p's draw order, every supply
// deck in order, then the unseen gains (instance, seat, deck)
void Game::record_dealt(int p) {
  scfg->dealt_next = false;
  std::string& o = scfg->dealt_log;
  if (!o.empty()) o += ",";
  o += "[";
  auto ids = [this, &o](const std::vector<int>& v) {
    o += "[";
    for (size_t k = 0; k < v.size(); ++k) {
      if (k) o += ",";
      put_str(o, cards[(size_t)v[k]].defn->id + "#" + std::to_string(v[k]));
    }
    o += "],";
  };
  for (int q = 0; q < P; ++q)
    if (q != p) {
      ids(players[q].hand);
      ids(players[q].draw);
      o += std::to_string(players[q].pvp) + ",";
    }
  ids(players[p].draw);
  for (auto& kv : decks) ids(kv.second);
  o += "[";
  for (auto& g : unseen) {
    if (o.back() != '[') o += ",";
    o += "[" + std::to_string(g.first) + "," + std::to_string(g.second.first) + ",";
    put_str(o, g.second.second);
    o += "]";
  }
  o += "]]";
}

// what every seat saw shown (Game::shown), for the leak test's information states
void Game::shown_record(const char* what, int p, const std::vector<int>& iids) {
  std::string& o = scfg->seen;
  if (!o.empty()) o += ",";
  o += "[";
  put_str(o, what);
  o += "," + std::to_string(p) + "," + defn_list(iids) + "]";
}

// The nested roots' footing: as a round or an Action Step starts (entry: -1, or the step), a
// copy of the Game (its event log left out, its pointers relinked) and, from then on, every
// answer given (Game::kept); a copy of it resumes by run(entry)
void Game::keep_round(int entry) {
  snap_entry = entry;
  round_snap.reset();
  round_log.clear();
  std::string log;
  log.swap(ev);
  auto s = std::make_shared<Game>(*this);
  ev.swap(log);
  s->relink(*this);
  round_snap = s;
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

// ================================ the tree ===================================================
// A node: the seat's answers so far. Its children, priors and availability counts are keyed
// by an option's id (the kind, the option count, the index and the card the option names).
struct TNode {
  std::vector<std::pair<int64_t, int>> kids;       // option id -> node
  std::vector<std::pair<int64_t, double>> prior;   // option id -> P(a)
  std::vector<std::pair<int64_t, int64_t>> avail;  // option id -> visits it was offered in
  int64_t n = 0;
  double w = 0.0;
  int depth = 0;
};

struct STree {
  std::vector<TNode> nodes;  // nodes[0]: the root
  int cur = 0;               // the node of this simulation's walk (-1: the rollout)
  std::vector<int> path;     // the nodes this simulation went through, below the root
  int64_t first = -1;        // the id of the seat's first tree answer this simulation (-1: none)
  int64_t forced = -1;       // same_worlds: the root option chosen before the simulation
  std::vector<uint64_t> seeds;  // same_worlds: this simulation's stream draws (else drawn)
  const SearchCfg* cfg = nullptr;
  const Weights* W = nullptr;
};

template <class V>
static V* find_id(std::vector<std::pair<int64_t, V>>& v, int64_t id) {
  for (auto& x : v)
    if (x.first == id) return &x.second;
  return nullptr;
}

// search.py KINDS: the decisions the tree holds (the other kinds: the heuristic's)
static bool searched_kind(const char* kind) {
  static const char* const K[] = {"action", "bid", "mine", "forge", "move", "hex", "bridge",
                                  "champion", "player", "option", "assign_hit"};
  for (const char* k : K)
    if (!std::strcmp(k, kind)) return true;
  return false;
}

// the ids of a decision's options: the state API's (state_api.option_ids, nstate.cpp
// option_id: crc32 of the kind and the option's Python text modulo 2^20, a collision within
// the decision taking the next free id), so an option has the same id in every world, and the
// same as in the Python search's tree
static std::vector<int64_t> option_ids(const char* kind, size_t n, const Ask* ask) {
  if (!ask || !ask->repr) throw std::runtime_error(std::string("search: no option texts for ") + kind);
  std::vector<int64_t> ids(n);
  std::set<int64_t> seen;
  for (size_t i = 0; i < n; ++i) {
    int64_t a = option_id(kind, ask->repr(i));
    while (seen.count(a)) a = (a + 1) % (1 << 20);
    seen.insert(a);
    ids[i] = a;
  }
  return ids;
}

// search.py heuristic_scores + softmax: the heuristic's score of each option (a skip of a
// "may" target: the skip weight), exp(v / temp) normalised
static std::vector<double> prior_of(const Weights* W, const char* kind, size_t n,
                                    const Ask& ask, double temp) {
  bool skip = !std::strcmp(kind, "hex") || !std::strcmp(kind, "champion") ||
              !std::strcmp(kind, "bridge") || !std::strcmp(kind, "may");
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i)
    v[i] = skip && ask.none && ask.none(i) ? W->skip : ask.score(i, false);
  if (temp <= 0) return std::vector<double>(n, 1.0 / (double)n);
  double top = *std::max_element(v.begin(), v.end()), total = 0.0;
  for (auto& x : v) total += (x = std::exp((x - top) / temp));
  for (auto& x : v) x /= total;
  return v;
}

// Is this decision of seat p searched at a root of its own in the game itself (not a
// simulation): a searching seat's decision of a searched kind with two options or more,
// other than its Action Step choice and its bids (searched where they are asked)
bool Game::searches_nested(int p, const char* kind, size_t n, const Ask* ask) const {
  return !in_sim && scfg && scfg->nested && round_snap && n > 1 && ask && ask->score &&
         ask->repr && searcher.size() > (size_t)p && searcher[(size_t)p] &&
         searched_kind(kind) && std::strcmp(kind, "action") && std::strcmp(kind, "bid") &&
         (scfg->limit < 0 || scfg->searched < scfg->limit);
}

// A decision of the searching seat in a simulation's copy (Game::decide): PUCT at the walk's
// node while the walk is in the tree (search.py _select), the heuristic after it
// the node's priors for these options, if any is new (search.py _select): the softmax of
// the heuristic's scores; at the root, with a width, only the heuristic's best get one
static void set_priors(STree& T, TNode& nd, bool root, const char* kind, size_t n,
                       const Ask& ask, const std::vector<int64_t>& ids) {
  bool fresh = false;
  for (int64_t a : ids) fresh = fresh || !find_id(nd.prior, a);
  if (!fresh) return;
  std::vector<double> pr = prior_of(T.W, kind, n, ask, T.cfg->prior_temp);
  size_t keep = n;
  if (root && T.cfg->width > 0 && (size_t)T.cfg->width < n) keep = (size_t)T.cfg->width;
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&pr](size_t a, size_t b) { return pr[a] > pr[b]; });
  for (size_t k = 0; k < n; ++k) {  // the root's width: the rest get no prior
    size_t i = order[k];
    if (!find_id(nd.prior, ids[i])) nd.prior.push_back({ids[i], k < keep ? pr[i] : -1.0});
  }
}

// PUCT with availability at node `at` over these options (every one's availability rises):
// the option's index (-1: none has a prior) and its child, made if new
static int puct_pick(STree& T, int at, const std::vector<int64_t>& ids, int& child) {
  TNode& nd = T.nodes[(size_t)at];
  double fpu = nd.n ? nd.w / (double)nd.n : 0.5, c = T.cfg->explore;
  double best = 0.0;
  int pick = -1;
  child = -1;
  for (size_t i = 0; i < ids.size(); ++i) {
    double pr = *find_id(nd.prior, ids[i]);
    if (pr < 0) continue;  // outside the root's width
    int64_t* av = find_id(nd.avail, ids[i]);
    if (!av) {
      nd.avail.push_back({ids[i], 0});
      av = &nd.avail.back().second;
    }
    int64_t k = ++*av;
    int* kid = find_id(nd.kids, ids[i]);
    const TNode* ch = kid ? &T.nodes[(size_t)*kid] : nullptr;
    double v = !ch || ch->n == 0
                   ? fpu + c * pr * std::sqrt((double)k)
                   : ch->w / (double)ch->n + c * pr * std::sqrt((double)k) / (1.0 + (double)ch->n);
    if (pick < 0 || v > best) {
      best = v;
      pick = (int)i;
      child = kid ? *kid : -1;
    }
  }
  if (pick >= 0 && child < 0) {  // a new node
    int depth = T.nodes[(size_t)at].depth + 1;
    child = (int)T.nodes.size();
    T.nodes[(size_t)at].kids.push_back({ids[(size_t)pick], child});
    T.nodes.emplace_back();
    T.nodes.back().depth = depth;
  }
  return pick;
}

// A decision of the searching seat in a simulation's copy (Game::decide): PUCT at the walk's
// node while the walk is in the tree (search.py _select), the heuristic after it
int Game::tree_decide(int p, const char* kind, size_t n, const Ask* ask) {
  STree& T = *tree;
  if (T.cur < 0 || n < 2 || !ask || !ask->score || !searched_kind(kind))
    return heuristic_choose(p, kind, n, *ask);
  if (T.cfg->tree_depth > 0 && T.nodes[(size_t)T.cur].depth >= T.cfg->tree_depth) {
    T.cur = -1;  // as deep as the tree goes: the rollout from here (search.py _iterate)
    return heuristic_choose(p, kind, n, *ask);
  }
  std::vector<int64_t> ids = option_ids(kind, n, ask);
  int pick = -1, child = -1;
  if (T.cur == 0 && T.forced >= 0) {  // same_worlds: the root's option is chosen already
    for (size_t i = 0; i < n && pick < 0; ++i)
      if (ids[i] == T.forced) pick = (int)i;
    if (pick >= 0) child = *find_id(T.nodes[0].kids, T.forced);
  } else {
    set_priors(T, T.nodes[(size_t)T.cur], T.cur == 0, kind, n, *ask, ids);
    pick = puct_pick(T, T.cur, ids, child);
  }
  if (pick < 0) return heuristic_choose(p, kind, n, *ask);
  if (T.first < 0) T.first = ids[(size_t)pick];
  T.path.push_back(child);
  T.cur = T.nodes[(size_t)child].n == 0 ? -1 : child;  // just made: the rollout from here
  return pick;
}

// search.py score: the result for seat p in [0, 1]
double Game::sim_value(int p) {
  if (!winner.empty()) {
    bool won = std::find(winner.begin(), winner.end(), p) != winner.end();
    return won ? 1.0 / (double)winner.size() : 0.0;
  }
  auto vp = [this](int q) { return (double)(players[q].pvp + control_vp(q)); };
  double best = -1e18;
  for (int q = 0; q < P; ++q)
    if (q != p) best = std::max(best, vp(q));
  double goal = (double)std::max<int64_t>(R.vp_to_win, 1);
  return std::min(1.0, std::max(0.0, 0.5 + 0.5 * scfg->gain * (vp(p) - best) / goal));
}

// One simulation from the searched decision's phase (entry >= 0: that Action Step; entry < 0:
// the auction of market card -1 - entry): a copy, a world dealt from what p knows, the walk
// down T and the rollout. Its result for p, or -1 if the copy could not be played (an engine
// error). Its numbers come from the search's stream as search.py's _Iteration and
// SeatView.deal draw them: a 64-bit seed for each seat's opponent model, one for the seat's
// own rollout heuristic, then the deal's seed, int(random() * 2^53).
double Game::simulate_tree(int p, MT& stream, int entry, STree& T) {
  std::vector<uint64_t> model((size_t)P);
  uint64_t own, deal;
  if (T.seeds.size() == (size_t)P + 2) {  // same_worlds: this world's draws, made before
    for (int q = 0; q < P; ++q) model[(size_t)q] = T.seeds[(size_t)q];
    own = T.seeds[(size_t)P];
    deal = T.seeds[(size_t)P + 1];
  } else {
    for (auto& m : model) m = stream.bits64();
    own = stream.bits64();
    deal = (uint64_t)(stream.random() * 9007199254740992.0);
  }
  std::string log;
  log.swap(ev);  // the copy does not carry the event log
  const Game& from = entry == NESTED ? *round_snap : *this;
  Game c(from);
  ev.swap(log);
  c.relink(from);
  c.round_snap.reset();
  c.round_log.clear();
  c.in_sim = true;
  c.logging = c.checking = false;
  c.book = nullptr;
  c.searcher.clear();
  // every seat plays the heuristic, in its own way of being offered plays (whole plays, or
  // one decision at a time for a "-single" seat), as the Python world keeps each seat's
  c.heuristic.assign((size_t)P, 1);
  for (int q = 0; q < P && (size_t)q < heuristic.size(); ++q)
    if (heuristic[(size_t)q]) c.heuristic[(size_t)q] = heuristic[(size_t)q];
  c.step_rec = false;
  c.step_mine.clear();
  c.own_pre.clear();
  c.own_pre_at = 0;
  if (entry >= 0 && step_rec && step_seat == p) c.own_pre = step_mine;  // a later choice
  c.noise = scfg->noise;
  c.noise_exempt = p;
  c.tree = &T;
  c.tree_seat = p;
  T.cur = 0;
  T.path.clear();
  T.first = -1;
  MT r;
  r.seed_mag(deal);
  if (entry == NESTED) {  // the round so far re-run, then dealt in place at the decision
    c.pre = round_log;
    c.pre_at = 0;
    c.pre_deal = scfg->deal;
    c.pre_seed = deal;
  } else if (scfg->deal) {
    c.determinize(p, r);
    if (scfg->dealt_next) c.record_dealt(p);
  } else {
    c.pending.clear();
  }
  for (int q = 0; q < P; ++q) c.agents[(size_t)q].seed_mag(q == p ? own : model[(size_t)q]);
  c.stop_round = round + std::max<int64_t>(scfg->horizon, 1) - 1;
  try {
    if (entry == NESTED) {
      c.run(snap_entry);
    } else if (entry >= 0) {
      c.run(entry);
    } else {
      c.market_rest(mkt_row, (size_t)(-1 - entry));
      c.run(0);
    }
  } catch (std::exception&) {
    return -1;
  } catch (Fizzle&) {
    return -1;
  } catch (NoTarget&) {
    return -1;
  }
  return c.sim_value(p);
}

// Seat p's searched decision (kind "action" or "bid", n options, the heuristic's scores in
// ask), resumed from `entry` (simulate_tree): the tree grown over `sims` dealt worlds, then
// the most visited of the decision's own options.
int Game::search_root(int p, const char* kind, size_t n, const Ask& ask, int entry) {
  std::clock_t t0 = std::clock();
  SearchCfg& C = *scfg;
  C.searched++;
  if (!std::strcmp(kind, "bid")) C.searched_bids++;
  if (entry == NESTED) C.searched_nested++;
  if (C.perturb && C.searched == 1) perturb_hidden(p);
  C.dealt_next = C.views;
  if (C.views) {  // the leak test: what p knows and the hidden truth as this search starts
    if (!C.view_log.empty()) C.view_log += ",";
    C.view_log += "{\"round\":" + std::to_string(round) + ",\"step\":" +
                  std::to_string(action_step) + ",\"kind\":\"" + kind +
                  "\",\"nested\":" + std::to_string(entry == NESTED ? 1 : 0) + ",\"after\":" +
                  std::to_string(C.perturbed_done ? 1 : 0) + ",\"view\":" + seat_view(p) +
                  ",\"mine\":[" + C.mine + "],\"seen\":[" + C.seen + "],\"hidden\":" + hidden_truth(p) + "}";
  }
  STree T;
  T.cfg = &C;
  T.W = W;
  T.nodes.emplace_back();
  std::vector<int64_t> ids = option_ids(kind, n, &ask);
  MT mine;
  if (C.stream >= 0) mine.seed(C.stream);
  MT& r = C.stream >= 0 ? mine : agents[p];
  // a simulation of a game of more players takes longer: the budget is sims for 2 players,
  // sims * 2 / players for more (at least 8), so a searched decision costs about the same
  int64_t sims = C.scale && P > 2 ? std::max<int64_t>(8, C.sims * 2 / P) : C.sims;
  // same_worlds: the worlds' stream draws, made once in the usual order; the root's priors
  // from the decision itself (the seat's own options: the same in every world)
  std::vector<std::vector<uint64_t>> worlds;
  if (C.same_worlds) {
    for (int64_t s = 0; s < std::max<int64_t>(sims, 1); ++s) {
      std::vector<uint64_t> w((size_t)P + 2);
      for (int q = 0; q <= P; ++q) w[(size_t)q] = r.bits64();
      w[(size_t)P + 1] = (uint64_t)(r.random() * 9007199254740992.0);
      worlds.push_back(std::move(w));
    }
    set_priors(T, T.nodes[0], true, kind, n, ask, ids);
  }
  for (int64_t s = 0; s < std::max<int64_t>(sims, 1); ++s) {
    if (C.same_worlds) {  // the option first, then the next world of that option
      int child = -1;
      int pick = puct_pick(T, 0, ids, child);
      if (pick < 0) break;
      T.forced = ids[(size_t)pick];
      T.seeds = worlds[(size_t)(T.nodes[(size_t)child].n % (int64_t)worlds.size())];
    }
    double v = simulate_tree(p, r, entry, T);
    C.simulations++;
    if (v < 0 || std::find(ids.begin(), ids.end(), T.first) == ids.end()) C.mismatched++;
    if (v < 0) v = 0.5;
    for (int k : T.path) {
      T.nodes[(size_t)k].n++;
      T.nodes[(size_t)k].w += v;
    }
    T.nodes[0].n++;
    T.nodes[0].w += v;
  }
  TNode& root = T.nodes[0];
  int best = -1;
  int64_t bn = 0;
  double bm = 0.0;
  C.trace += std::to_string(p) + ":" + std::to_string(n) + ":";
  char buf[96];
  bool any = false;
  for (size_t i = 0; i < n; ++i) {
    int* kid = find_id(root.kids, ids[i]);
    if (!kid || T.nodes[(size_t)*kid].n == 0) continue;
    const TNode& ch = T.nodes[(size_t)*kid];
    double m = ch.w / (double)ch.n;
    if (best < 0 || ch.n > bn || (ch.n == bn && m > bm)) {
      best = (int)i;
      bn = ch.n;
      bm = m;
    }
    std::snprintf(buf, sizeof buf, "%s%d,%lld,%.17g", any ? "|" : "", (int)i, (long long)ch.n,
                  ch.w);
    C.trace += buf;
    any = true;
  }
  C.trace += ";";
  C.nodes += (int64_t)T.nodes.size();
  for (auto& nd : T.nodes) C.depth = std::max<int64_t>(C.depth, nd.depth);
  if (best < 0) best = heuristic_choose(p, kind, n, ask);  // no simulation reached it
  C.cpu += (double)(std::clock() - t0) / CLOCKS_PER_SEC;
  return best;
}

}  // namespace tn
