// The Game: state, rules, options, the seeded generators of the game and of its random
// agents, and the event log. Methods carry the names of their Python twins (game.py and the
// mixins: cards, units, movement, paths, combat, phases, market, actions, declare).
#pragma once
#include <cstring>
#include <functional>
#include <memory>
#include <set>

#include "state.h"

namespace tn {

struct Options {
  std::string initiative = "first", initiative_ties = "seat", lead = "rotate",
              target_lock = "declare", blocked_move = "stop_before", final_tie = "shared",
              simultaneous_win = "tie_breakers", hand_limit_draw = "discard",
              hit_assignment = "at_roll";
  bool stack_split = false, capital_stops_move = true, next_battle_expires = true;
  int64_t activation_mana = 1;
};

enum ActKind { A_DONE, A_CARD, A_BRIDGE, A_MARCH, A_REINFORCE, A_ABILITY };
struct Action {
  int8_t kind = A_DONE;
  int a = 0;  // card iid, edge, hex, or the ability's Champion cid
  MoveOpt m;
  const std::string* ability = nullptr;
  int play = -1;  // a whole play: its index in the decision's plays
};

// one target a whole play locks (declare.Preset.seen): (decision kind, value, step key)
struct PlayAim {
  const char* kind;
  Val value;
  int64_t key;
};
using Play = std::vector<PlayAim>;

// declare.Preset: the answers of a declaration given in advance, asked of no agent: by index
// while enumerating the plays (picks; beyond them the first option), or by value when the
// chosen play is declared (values)
struct Preset {
  std::vector<int> picks;
  const Play* values = nullptr;
  size_t pos = 0;
  Play seen;
  std::vector<size_t> seen_n;  // options offered at each seen decision
  std::vector<int> taken;      // the index chosen at each decision so far
  // options already listed, shared by the runs of one enumeration (the state is the same in
  // every run: only the earlier answers differ)
  std::map<std::pair<int64_t, std::vector<int>>, std::vector<Val>>* memo = nullptr;
  template <class F>
  std::vector<Val> options(int64_t key, F& fn) {
    if (!memo) return fn();
    auto k = std::make_pair(key, taken);
    auto it = memo->find(k);
    if (it != memo->end()) return it->second;
    return (*memo)[k] = fn();
  }
  bool answers(const char* kind) const {
    if (!std::strcmp(kind, "move")) return values == nullptr;  // OPEN_KINDS
    return values == nullptr || pos < values->size();
  }
};

// what the heuristic agent reads of a decision (agents.HeuristicAgent): each option's score
// (bounding: a move into a battle scored at its best case, agents.choose), and for the
// sweep's Book (check/sweep.py) the cards a decision shows
struct Ask {
  std::function<double(size_t i, bool bounding)> score;
  std::function<bool(size_t i)> none;    // is option i None (the skip of hex/champion/...)
  std::function<int(size_t i)> card;     // the card iid option i names, or -1
  int bid_card = -1;                     // a bid: the card offered
  std::function<bool(size_t i)> buy;     // a bid: is option i a buy bid
  // the state API (nstate.cpp): option i as the Python engine's repr(option_key(option)),
  // the text its stable action id hashes; set only for a game that waits (Game::waiter)
  std::function<std::string(size_t i)> repr;
};

// Python's repr of a str (the state API's option texts): single quotes unless the text has
// one and no double quote, backslashes and the quote escaped
inline std::string py_str(const std::string& x) {
  char q = (x.find('\'') != std::string::npos && x.find('"') == std::string::npos) ? '"' : '\'';
  std::string o(1, q);
  for (char c : x) {
    if (c == '\\' || c == q) o += '\\';
    o += c;
  }
  return o + q;
}

struct Game;
// the state API (nstate.cpp): a game whose every decision waits for an answer from outside
// (the rules suspended at decide), told as each round starts (a snapshot for clones)
struct Waiter {
  virtual int wait(int p, const char* kind, size_t n, const Ask* ask) = 0;
  virtual void on_round(Game& g) = 0;
  virtual void on_step(Game& g) { (void)g; }  // an Action Step starts (before any seat chooses)
  virtual ~Waiter() = default;
};

// the heuristic agent's weights (appraise.py's module constants, sent by the Python side)
struct Weights {
  double objective[5] = {0, 0, 0, 0, 0};  // by tile (capital, center, forge, mine, plain)
  bool is_objective[5] = {false, false, false, false, false};
  std::map<std::string, double> category;
  double skip = 0.5, approach_move = 0.8, approach_army = 0.8, army = 5.0,
         approach_bridge = 1.6, march_base = 1.5, close_bonus = 4.0;
  int64_t late_rounds = 5, victory_bid = 4, close_gap = 2, close_rounds = 3, odds_trials = 40,
          odds_forces = 8;
};

// the sweep's counts per card of one game (check/sweep.Book), by card index
struct Book {
  std::vector<int64_t> offered, bought, picked, playable;
  std::set<std::pair<int, int>> once;  // (field, card iid) counted this game
};

// the native search agent's settings and counts (search.cpp); the tree's parameters are
// engine/search.py's Params (iterations, explore, prior_temp, noise, horizon)
struct SearchCfg {
  int64_t sims = 48;      // simulations (dealt worlds) a searched decision of 2 players
  bool scale = true;      // more players: sims * 2 / players (at least 8)
  int64_t width = 0;      // the root's options: the heuristic's best, at most this many (0: all)
  int64_t horizon = 2;    // rounds a simulation plays (the current one included), then judged
  double explore = 2.0;   // PUCT's exploration constant (values in [0, 1]; as search.py's)
  double prior_temp = 2.0;  // the softmax temperature of the heuristic's scores (the prior)
  double gain = 1.0;      // a horizon's result: 0.5 + 0.5 * gain * VP lead / VP to win
  double noise = 0.15;    // the chance a simulated opponent's decision is a random option
  int64_t limit = -1;     // decisions searched at most a game (-1: all), then the heuristic's
  bool bids = true;       // search the seat's bids too (a root at each bid), not only actions
  // the same worlds for every root option (as the flat search's arms): the root's option is
  // chosen before the simulation, and the k-th visit of an option plays the k-th world of
  // the decision's list (its streams drawn once, sims of them, in the usual order)
  bool same_worlds = false;
  // the tree's depth at most (0: no limit): a walk at a node this deep leaves the tree, and
  // the seat's later decisions are the heuristic's (1: a tree of the root's options only,
  // as the flat search's one level of arms)
  int64_t tree_depth = 0;
  // search the seat's other decisions of search.py's KINDS (targets, moves, hit assignment,
  // mine and forge modes...) at a root of their own, as search.py does: each simulation a
  // copy of the round's start with the round's answers so far re-run, dealt in place there
  // on by default: 75.0 % against 67.0 % off over the same 200 2-player games, and the
  // same 44.4 % in 117 4-player ones, at no more CPU a searched decision (docs/engine.md)
  bool nested = true;
  // the search's own stream: -1, the searching seat's agent generator; else each searched
  // decision draws from Random(stream), as a Python SearchAgent whose rng is Random(stream)
  // (the reference test: tests/engine/test_search_reference.py)
  int64_t stream = -1;
  // counts: decisions searched (bids and nested roots among them), simulations run,
  // simulations whose root decision differed from the game's, tree nodes made, the deepest
  int64_t searched = 0, searched_bids = 0, searched_nested = 0, simulations = 0,
          mismatched = 0, nodes = 0, depth = 0;
  double cpu = 0.0;       // CPU seconds spent searching (std::clock)
  bool verify = false;    // check the copy (Game::fork_to_end): for the tests
  // the leak test's knobs: perturb deals again, in the game itself, what the first searching
  // seat cannot see just before its first search; deal=false skips the simulations' deal
  bool perturb = false, deal = true;
  // the leak test's change made earlier (perturb_round > 0): as Action Step perturb_step of
  // round perturb_round starts, what the first searching seat cannot see is made otherwise
  // (Game::perturb_before); with `views`, each search records the seat's view, its own
  // answers so far and the hidden truth (views: a JSON list)
  int64_t perturb_round = 0, perturb_step = 0, perturbed[3] = {0, 0, 0};
  bool perturbed_done = false;
  bool views = false;
  std::string view_log;
  std::string mine;  // the seat's own answers so far, JSON items ["kind", id]
  // what every seat saw shown from a hidden place (Game::shown: cards revealed from a deck,
  // the card drafted from them), JSON items: part of the seat's information with `views`
  std::string seen;
  // the leak test: perturb_before also trades copies of a card (trade); with `views`, the
  // first world dealt for each search, by card (Game::record_dealt), JSON items; trade_deck:
  // a copy of a card in a hidden hand or draw pile trades places with one in a supply deck
  bool trade = false, dealt_next = false, trade_deck = false;
  // the deal renumbers the instances of the cards the seat cannot tell apart (renumber_hidden);
  // off: the leak test shows what instance numbers did before
  bool renumber = true;
  std::string dealt_log;
  std::string trace;      // per searched decision "seat:n:option,visits,summed value|...;"
  // a replay (benchmarks/bench_nsearch_openspiel.py): the game is played by these answers,
  // every seat's, in the order asked; the decision after them is answered as the seat's
  // agent answers it (answer, answer_kind, answer_n) and the game stops there (Answered)
  bool replaying = false;
  std::vector<int> replay;
  int answer = -1;
  std::string answer_kind;
  int64_t answer_n = 0;
};
struct Answered {};  // thrown when a replay's next decision has been answered
struct STree;  // a search's tree (search.cpp)

struct Plan {
  int p = 0;
  Action choice;
  Locks locks;
  Refs refs;
  CardInst* inst = nullptr;
  int64_t init = 0;
};

// a line of the event log, as JSON: {"e": ..., key: value, ...}
struct Log {
  std::string& o;
  Log(std::string& out, const char* e) : o(out) {
    if (!o.empty()) o += ',';
    o += "{\"e\":";
    put_str(o, e);
  }
  ~Log() { o += '}'; }
  void key(const char* k) {
    o += ',';
    put_str(o, k);
    o += ':';
  }
  Log& i(const char* k, int64_t v) { key(k); put_int(o, v); return *this; }
  Log& opt_i(const char* k, int64_t v) {  // -1: None
    key(k);
    if (v < 0) o += "null"; else put_int(o, v);
    return *this;
  }
  Log& s(const char* k, const std::string& v) { key(k); put_str(o, v); return *this; }
  Log& b(const char* k, bool v) { key(k); o += v ? "true" : "false"; return *this; }
  Log& null(const char* k) { key(k); o += "null"; return *this; }
  Log& raw(const char* k, const std::string& v) { key(k); o += v; return *this; }
};

struct Game {
  Rules& R;
  const Topo& topo;
  Options opt;
  MT rng;
  std::vector<MT> agents;
  // seat -> its agent: 0 random, 1 the heuristic offered whole card plays, 2 the heuristic
  // asked card and targets one decision at a time (as the check's sweep wraps it)
  std::vector<char> heuristic;
  const Weights* W = nullptr;
  // the heuristic's battle odds (appraise.attack_odds): P(attacker wins), or throws
  std::function<double(const std::vector<std::string>&, const std::vector<std::string>&, bool)>
      attack_odds_fn;
  Book* book = nullptr;         // the sweep's counts, when it asks
  std::map<const Step*, int> intents;  // intent.target_intent, once a step
  bool logging = false;
  int64_t tally[6] = {0, 0, 0, 0, 0, 0};  // dice faces of the side rolling now (log only)
  std::string ev;
  int64_t decisions = 0;
  int battle_seq = 0, last_battle_rounds = 0;
  int nested_runs = 0;  // run_steps calls in progress, one inside another
  // effect steps this game may run and may still run (core.STEP_BUDGET, Step.run)
  int64_t step_budget = STEP_BUDGET, steps_left = STEP_BUDGET;
  std::map<int, int> dirty;
  std::vector<int64_t> st_played, st_fizzled, st_resolved;
  std::vector<int> pending;
  // the rules invariants after each step (invariants.cpp), when the caller asks
  bool checking = false;
  std::vector<int64_t> pvp_seen;
  std::vector<char> check_seen;                   // (the checks' own buffers, kept)
  std::vector<int> check_units, check_recount;
  // state
  int P = 0, N = 0;
  std::vector<int> tile;
  std::vector<int64_t> mine_value;
  std::vector<int> cap_owner;     // hex -> owning seat, -1
  std::vector<int> forces;        // hex * P + seat
  std::vector<std::vector<Champion*>> champs_at;
  std::deque<Champion> champ_store;
  std::vector<Champion*> by_cid;  // cid -> the Champion on the board, or null
  int next_cid = 1;
  std::vector<char> bridge_on;    // per edge index
  int n_bridges = 0;
  int64_t removals = 0;
  std::vector<std::vector<std::pair<int, int>>> at;  // Bridges.at
  std::vector<char> temp_on;
  std::vector<int> temp_list;
  std::vector<Player> players;
  std::deque<CardInst> cards;
  std::map<std::string, std::vector<int>> decks;
  std::vector<int> revealed;
  int64_t round = 0;
  std::string age = "I";
  int lead = 0;
  std::vector<int> winner;
  std::string end_reason;
  std::vector<std::vector<int>> occ;
  std::vector<int> ucount;  // seat * N + hex
  std::vector<int> nocc;
  // hooks
  std::deque<Active> act_store;
  std::vector<Active*> mods[M_COUNT];
  std::vector<Active*> trigs[E_COUNT];
  // the reusable look-ahead context (index.probe)
  bool has_probe = false;
  Ctx probe_ctx;
  Locks probe_locks;
  std::deque<Battle> battle_store;

  Game(Rules& r, const Topo& t) : R(r), topo(t) {}

  // ---- small state queries (state.py) ----------------------------------------------------
  int f(int h, int p) const { return forces[h * P + p]; }
  bool has_forces(int h) const {
    for (int q = 0; q < P; ++q)
      if (forces[h * P + q]) return true;
    return false;
  }
  bool occupies(int p, int h) const { return ucount[p * N + h] != 0; }
  unsigned occupants(int h) const {  // seats with a unit in h, as bits
    unsigned bits = 0;
    for (int q = 0; q < P; ++q)
      if (ucount[q * N + h]) bits |= 1u << q;
    return bits;
  }
  static int popcount(unsigned b) { return __builtin_popcount(b); }
  bool on_board(const Champion* c) const {
    return c->cid < (int)by_cid.size() && by_cid[c->cid] == c;
  }
  Champion* champion(int cid) const {
    return cid > 0 && cid < (int)by_cid.size() ? by_cid[cid] : nullptr;
  }
  bool bridged(int e) const {
    if (e < 0 || e >= 65536) return false;
    int k = topo.edge_idx[e];
    return k >= 0 && bridge_on[k];
  }
  void count_units(int p, int h, int n) {  // State._count
    int& c = ucount[p * N + h];
    int old = c;
    c += n;
    if (c) {
      if (!old) {
        nocc[h] += 1;
        auto& o = occ[p];
        o.insert(std::lower_bound(o.begin(), o.end(), h), h);
      }
    } else {
      nocc[h] -= 1;
      auto& o = occ[p];
      o.erase(std::lower_bound(o.begin(), o.end(), h));
    }
  }
  void add_forces(int p, int h, int64_t n) {
    if (n > 0) {
      forces[h * P + p] += (int)n;
      count_units(p, h, (int)n);
    }
  }
  int64_t remove_forces(int p, int h, int64_t n) {
    int64_t have = forces[h * P + p];
    n = std::min(n, have);
    forces[h * P + p] = (int)(have - n);
    if (n) count_units(p, h, (int)-n);
    return n;
  }
  void put_champ(Champion* ch, int h) {
    ch->hex = h;
    champs_at[h].push_back(ch);
    count_units(ch->owner, h, 1);
  }
  void take_champ(Champion* ch) {
    auto& v = champs_at[ch->hex];
    v.erase(std::find(v.begin(), v.end(), ch));
    count_units(ch->owner, ch->hex, -1);
  }
  std::vector<Champion*> champions_by_cid() const {
    std::vector<Champion*> out;
    for (auto* c : by_cid)
      if (c) out.push_back(c);
    return out;
  }
  bool any_champion() const {
    for (auto* c : by_cid)
      if (c) return true;
    return false;
  }
  // Bridges.add / discard
  void bridge_add(int e) {
    int k = topo.edge_idx[e];
    if (bridge_on[k]) return;
    bridge_on[k] = 1;
    n_bridges++;
    int a = e >> 8, b = e & 255;
    auto ins = [&](int h, int nb) {
      auto& row = at[h];
      auto it = row.begin();
      while (it != row.end() && it->first < nb) ++it;
      row.insert(it, {nb, e});
    };
    ins(a, b);
    ins(b, a);
  }
  void bridge_discard(int e) {
    if (!bridged(e)) return;
    bridge_on[topo.edge_idx[e]] = 0;
    n_bridges--;
    removals++;
    int a = e >> 8, b = e & 255;
    for (int h : {a, b}) {
      auto& row = at[h];
      row.erase(std::remove_if(row.begin(), row.end(),
                               [&](const std::pair<int, int>& x) { return x.second == e; }),
                row.end());
    }
  }
  void temp_discard(int e) {
    int k = topo.edge_idx[e];
    if (k >= 0 && temp_on[k]) {
      temp_on[k] = 0;
      temp_list.erase(std::find(temp_list.begin(), temp_list.end(), e));
    }
  }
  const std::string& name(int h) const { return topo.names[h]; }

  // ---- decisions and the log (game.py) ----------------------------------------------------
  int decide(int p, const char* kind, size_t n, const Ask* ask = nullptr) {
    if (n == 0)
      throw std::runtime_error(std::string("no options for decision ") + kind);
    decisions++;
    if (!unseen.empty()) prune_unseen();
    int i;
    if (pre_at < pre.size()) {  // a nested root's copy re-runs the round's answers so far
      i = pre[pre_at++];
      if (i < 0 || (size_t)i >= n) throw std::runtime_error("search: a re-run answer out of range");
      return i;
    }
    if (pre_deal) {  // ... and deals in place at the searched decision (views.Game.resample)
      pre_deal = false;
      MT r;
      r.seed_mag(pre_seed);
      determinize(tree_seat, r, false);
      if (scfg && scfg->dealt_next) record_dealt(tree_seat);
    }
    if (tree && p == tree_seat && own_pre_at < own_pre.size()) {
      // a later Action Step choice's copy: the seat's answers of this step before it, again
      i = own_pre[own_pre_at++];
      if (i < 0 || (size_t)i >= n) throw std::runtime_error("search: a step's answer out of range");
      return i;
    }
    if (replay_pending()) {
      i = scfg->replay[replay_at++];
      if (i < 0 || (size_t)i >= n) throw std::runtime_error("replay: an answer out of range");
      if (logging) Log(ev, "decide").i("p", p).s("kind", kind).i("n", (int64_t)n).i("i", i);
      return kept(i, p, kind, ask);
    }
    if (waiter) {
      i = waiter->wait(p, kind, n, ask);  // the state API: answered from outside
    } else if (tree && p == tree_seat) {
      i = tree_decide(p, kind, n, ask);  // a simulation: the searching seat's tree (search.cpp)
    } else if (searches_nested(p, kind, n, ask)) {
      i = search_root(p, kind, n, *ask, NESTED);  // search.cpp: a root of its own
    } else if (is_heuristic(p)) {
      if (!ask) throw Unsupported(std::string("a heuristic decision without scores: ") + kind);
      if (noise > 0 && n > 1 && p != noise_exempt && agents[p].random() < noise)
        i = (int)(agents[p].random() * (double)n);  // a simulated opponent's slip (search)
      else
        i = heuristic_choose(p, kind, n, *ask);
    } else {
      i = (int)(agents[p].random() * (double)n);
    }
    if (book && ask) see(kind, n, *ask, i);
    if (logging) Log(ev, "decide").i("p", p).s("kind", kind).i("n", (int64_t)n).i("i", i);
    return answered(kind, n, kept(i, p, kind, ask));
  }
  // the nested roots' footing (search.cpp): in a game with a searching seat, a copy of the
  // Game as the round or the Action Step started (snap_entry: -1, or the step: what
  // Game::run resumes from) and every answer given since (Game::keep_round)
  std::shared_ptr<const Game> round_snap;
  std::vector<int> round_log;
  int snap_entry = -1;
  int kept(int i, int p, const char* kind, const Ask* ask) {
    if (round_snap && !in_sim) round_log.push_back(i);
    if (step_rec && p == step_seat && !in_sim) step_mine.push_back(i);
    if (scfg && scfg->views && !in_sim && ask && ask->repr && searcher.size() > (size_t)p &&
        searcher[(size_t)p])
      own_answer(kind, ask->repr((size_t)i));
    return i;
  }
  void own_answer(const char* kind, const std::string& repr);
  void shown(const char* what, int p, const std::vector<int>& iids) {  // (the leak test)
    if (scfg && scfg->views && !in_sim) shown_record(what, p, iids);
  }
  void shown_record(const char* what, int p, const std::vector<int>& iids);
  void perturb_before(int p);
  void trade_with_deck(int p);
  std::string hidden_truth(int p) const;
  void record_dealt(int p);  // (the leak test: the first world dealt for a search)
  void keep_round(int entry);
  // a nested root's simulation copy: the answers it re-runs first (pre), then the deal
  std::vector<int> pre;
  size_t pre_at = 0;
  bool pre_deal = false;
  uint64_t pre_seed = 0;
  // a searching seat's answers in its Action Step choice so far (choose_action: a card whose
  // declaration failed, its targets): a later choice of the step is searched from the step's
  // start, each simulation's copy giving these answers again first (own_pre), as
  // TetherState.resample_from_infostate re-applies the seat's answers since the step began
  std::vector<int> step_mine, own_pre;
  bool step_rec = false;
  int step_seat = -1;
  size_t own_pre_at = 0;
  static const int NESTED = -(1 << 30);  // search_root's entry for a nested root
  bool searches_nested(int p, const char* kind, size_t n, const Ask* ask) const;
  // the replay (SearchCfg::replay): are answers left to give; the answer after them
  size_t replay_at = 0;
  bool replay_on() const { return scfg && scfg->replaying && !in_sim; }
  bool replay_pending() const { return replay_on() && replay_at < scfg->replay.size(); }
  int answered(const char* kind, size_t n, int i) {
    if (!replay_on()) return i;
    scfg->answer = i;
    scfg->answer_kind = kind;
    scfg->answer_n = (int64_t)n;
    throw Answered{};
  }
  Waiter* waiter = nullptr;   // the state API (nstate.cpp): every decision waits
  // ---- the native search agent (search.cpp) -------------------------------------------------
  std::vector<char> searcher;  // seats whose Action Step choice is searched (heuristic else)
  SearchCfg* scfg = nullptr;
  bool in_sim = false;         // a simulation's copy: no seat searches
  double noise = 0.0;          // the simulated seats' slips (decide), but noise_exempt's
  int noise_exempt = -1;
  int action_step = 0;         // the Action Step being played (action_phase)
  int64_t stop_round = 0;      // a simulation stops after this round (0: play to the end)
  // cards a seat gained from a supply deck unseen by the others: card -> (seat, deck), as
  // Game.unseen; dropped once the card leaves that seat's hand and draw pile (it was shown)
  std::map<int, std::pair<int, std::string>> unseen;
  void prune_unseen() {
    for (auto it = unseen.begin(); it != unseen.end();) {
      const Player& pl = players[it->second.first];
      bool held = std::find(pl.hand.begin(), pl.hand.end(), it->first) != pl.hand.end() ||
                  std::find(pl.draw.begin(), pl.draw.end(), it->first) != pl.draw.end();
      it = held ? std::next(it) : unseen.erase(it);
    }
  }
  // the copy's check (tests): at each Action Step's start a copy plays to the end; its log
  // and final state must be the game's own (fork_ends: each copy's log and snapshot)
  bool verify_forks = false;
  std::vector<std::string> fork_ends;
  void fork_to_end(int step);
  // the tree of a search (SO-ISMCTS, search.cpp): in a simulation's copy, every decision of
  // tree_seat descends it by the seat's own answers (tree_decide), then the rollout follows
  STree* tree = nullptr;
  int tree_seat = -1;
  int tree_decide(int p, const char* kind, size_t n, const Ask* ask);
  double sim_value(int p);
  double simulate_tree(int p, MT& stream, int entry, STree& T);
  void relink(const Game& from);
  void determinize(int p, MT& r, bool resume = true);
  void renumber_hidden(int p);  // the hidden cards' instance numbers, canonically
  // the deals' order of hidden cards (views.Game._deal_key): what a seat can know of a card
  // (its card id, its overrides, its counter), then the instance as a last tie-break
  bool deal_less(int a, int b) const;
  void sort_hidden(std::vector<int>& v) const {
    std::sort(v.begin(), v.end(), [this](int a, int b) { return deal_less(a, b); });
  }
  void redeal_unseen(int p, MT& r, const std::function<bool(int)>& chosen);
  // the state API's observations and worlds (nview.cpp)
  std::string seat_view(int p) const;  // what seat p may know, as views.observation's JSON
  std::string public_board() const;    // every hex and Champion, for an option's words
  std::string defn_list(const std::vector<int>& iids) const;
  void deal_hidden(int p, MT& r);      // deal again what seat p cannot see (views.resample)
  void perturb_hidden(int p);
  int search_root(int p, const char* kind, size_t n, const Ask& ask, int entry);

  // ---- the heuristic agent (agents.HeuristicAgent, appraise.py, intent.py): heur.cpp ------
  bool is_heuristic(int p) const { return heuristic.size() > (size_t)p && heuristic[p]; }
  bool wants_ask(int p) const { return book || is_heuristic(p); }  // scores or counts read
  // an option's Python text (ask.repr): the state API's, and the search's option ids
  // (state_api.option_ids) for the searching seat, in the game and in its simulations
  bool wants_repr(int p) const {
    return waiter || (tree && p == tree_seat) ||
           (!in_sim && searcher.size() > (size_t)p && searcher[p]);
  }
  bool fights_ = false;  // set by attack() while choose bounds the options
  // near_objective's values this decision (a hex's potential: the board and the objectives
  // the seat does not hold, which no scoring changes), as agents._near_memo keeps them
  std::vector<double> near_memo;
  int64_t near_decision = -1;
  int near_seat = -1;
  int heuristic_choose(int p, const char* kind, size_t n, const Ask& ask);
  void see(const char* kind, size_t n, const Ask& ask, int pick);
  int target_intent(const Step* st, const CardInst* inst, const Champion* champ);
  int key_intent(int64_t key, const CardInst* inst, const Champion* champ);
  Ask val_ask(int p, const char* kind, const std::vector<Val>& options, const Ctx& ctx,
              int64_t key);
  Ask iid_ask(const char* kind, const std::vector<int>& iids, bool none_first);
  double category(const CardDef& d) const;
  double card_value(const CardDef& d) const;
  bool closing(int p);
  double hex_value(int p, int h);
  double near_objective(int p, int h);
  double attack(int p, const MoveOpt& m, unsigned enemies, bool bounding);
  double approach(int p, const MoveOpt& m);
  double move_score(int p, const MoveOpt* m, bool bounding);
  double bridge_edge(int p, int e);
  double hex_score(int p, int h, int aim);
  double champion_score(int p, const Champion* ch, int aim);
  double bridge_score(int p, int e);
  double action_score(int p, const Action& a, const std::vector<Play>& plays, bool bounding);
  double bid_target(int p, int iid);
  double misaimed(int p, CardInst& inst);
  double strength(int o, int h) const;
  void group(int p, const MoveOpt& m, std::vector<Champion*>& champs, int64_t& forces) const;
  std::vector<Play> card_plays(int p, int iid);

  // ---- amounts, players, selectors, conditions (select.py, conds.py) ----------------------
  int64_t amount(const Amount& a, const Ctx& ctx) const;
  std::vector<int> players_of(int ref, Ctx& ctx, const Step* key);
  int ref_hex(const Ctx& ctx, int name) const;
  void within_sources(const Ctx& ctx, const Within& w, std::vector<int>& out) const;
  std::vector<char> within_area(const Ctx& ctx, const Within& w) const;
  std::vector<int> hex_candidates(const HexSel& sel, const Ctx& ctx);
  bool hex_exists(const HexSel& sel, const Ctx& ctx);
  std::vector<Champion*> champ_candidates(const ChampSel& sel, const Ctx& ctx);
  bool champ_exists(const ChampSel& sel, const Ctx& ctx);
  std::vector<int> bridge_candidates(const BridgeSel& sel, const Ctx& ctx);
  bool bridge_exists(const BridgeSel& sel, const Ctx& ctx);
  bool cond(const Cond* c, const Ctx& ctx);
  bool cond_item(const CondItem& it, const Ctx& ctx);

  // ---- hooks (mods.py) -------------------------------------------------------------------
  Active* new_active(int owner, int duration, int limit, Champion* champ, CardInst* inst,
                     const Refs* refs, int target) {
    act_store.emplace_back();
    Active* a = &act_store.back();
    a->owner = owner;
    a->duration = duration;
    a->limit = limit;
    a->champ = champ;
    a->inst = inst;
    if (refs) a->refs = *refs;
    a->target = target;
    return a;
  }
  void add_mod(Active* a, const ModDef* m) {
    a->mod = m;
    mods[m->kind].push_back(a);
  }
  void add_trig(Active* a, int event, const Cond* c, const std::vector<Step*>* steps) {
    a->event = event;
    a->cond = c;
    a->steps = steps;
    trigs[event].push_back(a);
  }
  void install_ability(const Ability* ab, int owner, Champion* champ = nullptr) {
    Active* a = new_active(owner, D_PERMANENT, ab->limit, champ, nullptr, nullptr, -1);
    a->ability = ab;
    if (ab->mod) add_mod(a, ab->mod.get());
    else add_trig(a, ab->event, ab->cond.get(), &ab->steps);
  }
  template <class F>
  void remove_where(F pred) {
    for (auto& lst : mods) lst.erase(std::remove_if(lst.begin(), lst.end(), pred), lst.end());
    for (auto& lst : trigs) lst.erase(std::remove_if(lst.begin(), lst.end(), pred), lst.end());
  }
  static bool owned(const std::vector<Active*>& acts, int p) {
    for (auto* a : acts)
      if (a->owner == p) return true;
    return false;
  }
  Ctx act_ctx(const Active* a, Battle* battle = nullptr, const Event* event = nullptr) {
    Ctx c(this, a->owner, a->inst, a->champ, battle, event);
    c.refs = a->refs;
    return c;
  }
  bool limit_ok(const Active* a, Battle* battle = nullptr, bool reuse = true) const {
    int lim = a->limit;
    if (lim == L_UNLIMITED) return true;
    int bid = battle ? battle->bid : -2;
    if (reuse && a->used_battle == bid && bid >= 0) return true;
    if (lim == L_ONCE_PER_ROUND) return a->used_round != round;
    if (lim == L_ONCE_PER_BATTLE) return a->used_battle != bid;
    return !a->used;
  }
  void mark_used(Active* a, Battle* battle = nullptr) {
    a->used_round = (int)round;
    a->used_battle = battle ? battle->bid : -1;
    a->used = true;
  }
  static bool battle_applies(const Active* a, const Battle* b) {
    if (a->duration == D_THIS_BATTLE || a->duration == D_NEXT_BATTLE ||
        a->duration == D_FIRST_BATTLE)
      return b && a->battle == b->bid;
    return true;
  }

  // ---- game.py queries ----------------------------------------------------------------------
  bool capital_has_enemy(int p) const {
    unsigned o = occupants(players[p].capital);
    return (o & ~(1u << p)) != 0;
  }
  std::vector<int> deploy_anchors(int p);
  unsigned mod_owners(std::initializer_list<int> kinds) const {
    unsigned bits = 0;
    for (int k : kinds)
      for (auto* a : mods[k]) bits |= 1u << a->owner;
    return bits;
  }
  bool untargetable(const Champion* ch, const Ctx& ctx);
  bool unit_matches(const Active* a, const Champion* ch, bool is_force, int side_owner = -1) const;
  void fire(int event, const Event& info, int only = -1);
  bool would_act(const Active* a, Ctx& ctx);
  bool trigger_scope(const Active* a, int event, const Event& info) const;
  bool run_steps(const std::vector<Step*>& steps, Ctx& ctx);
  void run_step(const Step* st, Ctx& ctx);

  // ---- choosing (core.Ctx.choose) -------------------------------------------------------------
  template <class F>
  Val choose(Ctx& ctx, int64_t key, const char* kind, F options_fn, bool always_valid = false,
             bool optional = false, bool required = true);
  void log_aim(const Ctx& ctx, int64_t key, const char* kind, const Val& value);
  void log_target(const Ctx& ctx, int64_t key, const char* kind, const Val& value,
                  bool locked);

  // ---- cards.py ---------------------------------------------------------------------------
  void reshuffle(int p);
  int64_t draw(int p, int64_t n);
  void card_event(int p, CardInst* inst, int event);
  void discard_card(int p, int iid);
  void scrap_card(int p, int iid);
  void sort_cards(std::vector<int>& v) const {
    std::stable_sort(v.begin(), v.end(), [&](int a, int b) {
      const std::string& x = cards[a].defn->id;
      const std::string& y = cards[b].defn->id;
      return x != y ? x < y : a < b;
    });
  }
  int pick_card(int p, const char* kind, std::vector<int> options, bool none_first);
  std::vector<int> choose_cards(int p, const char* kind, const std::vector<int>& pool,
                                int64_t count, bool up_to);
  void gain_card(int p, int iid, bool to_hand);
  const std::string& deck_for(bool market, const std::string& age_numeral) const {
    const Age& a = R.age_info(age_numeral);
    return market ? a.market_deck : a.power_deck;
  }
  std::vector<int> reveal(const std::string& deck, int64_t n);
  void to_bottom(const std::string& deck, std::vector<int> iids);
  void take_revealed(int iid) { revealed.erase(std::find(revealed.begin(), revealed.end(), iid)); }
  int64_t pick_extra(int p);
  int draft(int p, const std::string& deck, int64_t reveal_n, const char* kind,
            bool optional = false, bool to_hand = false);

  // ---- units.py -----------------------------------------------------------------------------
  bool blocked(int p, int h) const {
    int n = nocc[h];
    return n >= 3 || (n == 2 && !ucount[p * N + h]);
  }
  int64_t deploy(int p, int h, int64_t n);
  int64_t champion_gold(int p, const CardDef& d) const {
    size_t n = players[p].champions.size();
    const auto& costs = d.champ_gold;
    return costs[std::min(n, costs.size() - 1)];
  }
  bool can_field_champion(int p) const {
    return (int64_t)players[p].champions.size() < R.champion_limit;
  }
  Champion* place_champion(int p, int iid, int h);
  void unplace_champion(Champion* ch, bool to_hand = false);
  int64_t heal(Champion* ch, int64_t n);
  int64_t damage(Champion* ch, int64_t n, int by, Champion* by_champ, Battle* battle);
  int64_t prevent_for_gold(Champion* ch, int64_t n);
  void kill(Champion* ch, int by, Champion* by_champ = nullptr, Battle* battle = nullptr);
  int64_t destroy_forces(int p, int h, int64_t n) {
    int64_t k = remove_forces(p, h, n);
    if (k && logging) Log(ev, "destroy").i("p", p).s("hex", name(h)).i("n", k);
    return k;
  }
  void resolve_contacts(int actor);

  // ---- invariants.py (invariants.cpp) ---------------------------------------------------------
  std::vector<std::string> problems(const std::string& where);
  bool bridge_index_ok() const;
  void checkpoint(const char* where);  // throws the broken invariants when `checking`

  // ---- paths.py / movement.py -----------------------------------------------------------------
  typedef std::map<int, std::vector<int>> Links;
  Links links(int p);
  std::vector<int> blocked_edges();
  bool flies(int p, const std::vector<Champion*>& champs, int64_t n_forces);
  bool step_ok(int a, int b, bool ignore, const Links& lk, const std::vector<int>& blk) const;
  int64_t extra_move(int p, const std::vector<Champion*>& champs, int64_t n_forces,
                     bool commit = false);
  bool stops_at(int p, int h, bool stop_occ) const;
  void paths(int p, int src, int64_t dist, bool ignore, bool stop_occ, const Links& lk,
             const std::vector<int>& blk, std::vector<std::vector<int>>& out);
  void steps_from(int p, int at_hex, bool ignore, const Links& lk, const std::vector<int>& blk,
                  std::vector<int>& out) const;
  void move_options(int p, int unit, int64_t dist, bool ignore, bool stop_occ,
                    const std::vector<int>& exclude, std::vector<MoveOpt>& out);
  void move_options_long(int p, int unit, int64_t dist, bool ignore, bool stop_occ,
                         const std::vector<int>& exclude, std::vector<MoveOpt>& out);
  std::vector<int> bridge_options(int p) const;
  bool can_move(int p, int unit, bool ignore);
  bool plain_steps(int p, int unit);
  bool movement_mods(int p);
  struct Group {
    int h, cid;
    int64_t n_forces;  // -1 None
    std::vector<Champion*> champs;
    int64_t nf;
  };
  void move_groups(int p, int unit, const std::vector<int>& exclude, std::vector<Group>& out);
  void fast_steps(int p, const std::vector<int>& exclude, int unit, std::vector<MoveOpt>& out);
  int do_move(int p, const MoveOpt& opt, int64_t dist, bool ignore, bool stop_occ);
  bool hops_ok(int p, const std::vector<std::pair<int, int>>& hops, bool fly);
  bool hops_bridged(const std::vector<std::pair<int, int>>& hops) const;
  std::vector<Champion*> moving_champs(int p, int unit, int src, int cid);
  int relocate_group(int p, int a, int b, const std::vector<Champion*>& champs, int64_t nf);
  void crossed(int p, int a, int b, int64_t nf);
  bool relocate_champion(Champion* ch, int h);

  // ---- combat.py ------------------------------------------------------------------------------
  int battle(int h, int attacker, int defender, bool siege);
  void end_battle(Battle* b, int winner, Event& info);
  bool retreats(Battle* b);
  void retreat(int p, int h);
  std::pair<int64_t, int64_t> unit_stats(Battle* b, int p, Champion* ch);
  void roll_side(Battle* b, int p, int64_t& force_hits, std::vector<Champion*>& champ_hits);
  struct Hits {
    int64_t forces_hit = 0;
    std::vector<std::pair<Champion*, std::pair<int64_t, Champion*>>> on;  // champ -> (n, src)
  };
  void combat_round(Battle* b);
  Hits assign(Battle* b, int p, int enemy, int64_t force_hits,
              const std::vector<Champion*>& champ_hits);
  int64_t chosen_hits(Battle* b, int p, int64_t n);
  int64_t redirect(Battle* b, int enemy, Champion* ch, int64_t nf,
                   const std::vector<char>& forces_hit);
  void sieges();

  // ---- phases.py / market.py ------------------------------------------------------------------
  void reset_phase();
  int64_t mine_bonus(int p, int h);
  void collection_phase();
  int64_t control_vp(int p);
  std::vector<int> scoring_phase();
  std::vector<int> rank(std::vector<int> seats);
  void cleanup_phase();
  void advance_round();
  int roll_off(std::vector<int> seats, const char* why);
  std::vector<int> market_row();
  int resolve_bids(int iid, const std::vector<int>& eligible);
  void market_phase();
  // the market from its k-th card of `row` on: a search's copy made at a bid resumes here
  void market_rest(const std::vector<int>& row, size_t k);
  std::vector<int> mkt_row;  // the market row being auctioned, and the card at auction
  size_t mkt_at = 0;

  // ---- actions.py / declare.py ----------------------------------------------------------------
  std::vector<int> seat_order() const {
    std::vector<int> o;
    for (int i = 0; i < P; ++i) o.push_back((lead + i) % P);
    return o;
  }
  void legal_actions(int p, bool exact, std::vector<Action>& out);
  void ability_options(int p, std::vector<Action>& out);
  Plan choose_action(int p);
  void reveal_action(Plan& plan);
  void pay_card(Plan& plan);
  int64_t initiative(const CardInst& inst) const;
  void resolve_step(std::vector<Plan>& plans);
  void resolve_card(Plan& plan);
  void resolve_basic(Plan& plan);
  void activate(int p, const Action& choice);
  void action_phase(int from_step = 0);
  struct Cost {
    int64_t mana, gold;
    Active* over;
  };
  Cost card_cost(int p, const CardInst& inst);
  bool affordable(int p, int iid);
  void card_options(int p, bool exact, std::vector<Action>& out);
  bool declare_card(int p, CardInst* inst, Locks& locks, Refs& refs, Preset* preset = nullptr);
  void lock_prefix(Ctx& ctx, const std::vector<Step*>& steps, size_t from = 0);
  void lock_target(Ctx& ctx, const Step* st, const std::vector<Step*>& steps, size_t rest);
  bool viable(Ctx& ctx, const std::vector<Step*>& steps);
  bool dry_walk(const Ctx& ctx, const Refs& refs, const std::vector<Step*>& steps, size_t from);
  bool look_ahead(Ctx& ctx, const CardDef& d);
  Ctx& probe(int p, CardInst* inst);

  // ---- steps (steps_*.py) ----------------------------------------------------------------------
  struct Target;  // a step's selected targets
  bool step_exists(const Step* st, Ctx& ctx);
  void step_select_only(const Step* st, Ctx& ctx);  // declaration: select, result dropped
  std::vector<Val> pick(Ctx& ctx, int64_t key, int kind, const Step* st, bool optional);

  // ---- setup and the round ---------------------------------------------------------------------
  struct BoardOut {
    std::vector<std::pair<std::string, std::pair<int, int>>> caps;  // slot -> (q, r), in order
    std::vector<int> capitals, forges, mines;
    std::vector<int64_t> values;
    int rerolls = 0;
  };
  BoardOut generate_board(int players_n, int64_t seed);
  std::map<std::pair<int, int64_t>, BoardOut>* boards = nullptr;  // odds: one board per content
  void init_state(const std::vector<std::string>& factions);
  struct OddsSide {
    int64_t forces = 0;
    std::vector<std::string> champions;
  };
  std::string odds(const OddsSide& att, const OddsSide& dfn, const std::string& where,
                   int64_t trials, int64_t seed, const std::vector<std::string>& factions);
  void setup(int players_n, int64_t seed, const std::vector<std::string>& factions,
             const std::string& options_json);
  std::vector<int> play_round();
  std::vector<int> rest_of_round(int from_step);  // from an Action Step on (a simulation)
  void run(int from_step = -1);
  std::string snapshot() const;
  void put_bridges(std::string& o) const;  // every Bridge built, as JSON strings
  void put_forces(std::string& o) const;  // every hex's Forces, as JSON members
  // the state API's option texts (nstate.cpp): Python's repr(option_key(x))
  std::string val_repr(const Val& v) const;
  std::string key_repr(int64_t key) const;
  std::string move_repr(const MoveOpt& m) const;
  std::string action_repr(const Action& a, const std::vector<Play>& plays) const;
};

// ================================ core.Ctx.choose ============================================
template <class F>
Val Game::choose(Ctx& ctx, int64_t key, const char* kind, F options_fn, bool always_valid,
                 bool optional, bool required) {
  auto fn = [&]() {
    std::vector<Val> o = options_fn();
    if (optional) o.insert(o.begin(), Val::null());
    return o;
  };
  if (ctx.locks && !ctx.declaring) {
    if (const Val* lv = ctx.locks->find(key)) {
      Val value = *lv;
      bool ok = always_valid;
      if (!ok)
        for (auto& o : fn()) ok = ok || o == value;
      if (!ok) throw Fizzle{std::string(kind) + " target no longer legal"};
      if (logging) log_target(ctx, key, kind, value, true);
      return value;
    }
  }
  Preset* pre = ctx.preset;  // a whole play: card and targets were chosen as one
  std::vector<Val> options = pre ? pre->options(key, fn) : fn();
  if (options.empty()) {
    if (ctx.declaring && required) throw NoTarget{};
    return Val::none();
  }
  Val value;
  if (ctx.dry) {
    value = options[0];
  } else if (pre && pre->answers(kind) &&
             (options.size() > 1 || std::strcmp(kind, "move"))) {  // declare.Preset.answer
    // a whole play holds its forced targets too (core.Ctx.choose)
    size_t pos = pre->pos++;
    if (pre->values) {
      if (pos >= pre->values->size()) throw NoTarget{};
      value = (*pre->values)[pos].value;
      bool found = false;
      for (auto& o : options) found = found || o == value;
      if (!found) throw NoTarget{};  // the play no longer fits the state
      if (logging) log_aim(ctx, key, kind, value);
    } else if (!std::strcmp(kind, "move")) {
      pre->pos--;
      value = options[0];
    } else {
      int index = pos < pre->picks.size() ? pre->picks[pos] : 0;
      value = options[index];
      pre->taken.push_back(index);
      pre->seen.push_back({kind, value, key});
      pre->seen_n.push_back(options.size());
    }
  } else if (options.size() == 1) {
    value = options[0];
  } else {
    Ask ask = is_heuristic(ctx.p) ? val_ask(ctx.p, kind, options, ctx, key) : Ask();
    if (wants_repr(ctx.p)) ask.repr = [this, &options](size_t i) { return val_repr(options[i]); };
    value = options[decide(ctx.p, kind, options.size(), &ask)];
    if (logging) log_aim(ctx, key, kind, value);
  }
  if (ctx.declaring) ctx.locks->set(key, value);
  else if (!ctx.dry && logging) log_target(ctx, key, kind, value, false);
  return value;
}

}  // namespace tn
