// The C interface the Python side calls through ctypes (tether_build/engine/native/__init__.py):
// load a compiled ruleset once, then play batches of seeded random-agent games, each returned
// as a JSON object ({"ok": false, "error": ...} when the native engine declines a game: the
// caller then plays that game with the Python engine).
#include <cstdlib>
#include <cstring>

#include "game.h"
#include "load.h"
#include "nstate.h"

#ifndef TN_DIGEST
#define TN_DIGEST "unknown"
#endif

namespace tn {

struct Engine {
  Rules R;
  std::map<int, std::unique_ptr<Topo>> topos;
  std::map<std::pair<int, int64_t>, Game::BoardOut> boards;
  std::map<std::string, double> odds_memo;  // appraise._odds's cache: side, side, siege
  Weights W;
  const Topo& topo(int radius) {
    auto& t = topos[radius];
    if (!t) t = std::make_unique<Topo>(radius);
    return *t;
  }
};

static char* dup(const std::string& s) {
  char* out = (char*)std::malloc(s.size() + 1);
  std::memcpy(out, s.c_str(), s.size() + 1);
  return out;
}

static Options options_of(const J& o) {
  Options opt;
  for (auto& kv : o.o) {
    const std::string& k = kv.first;
    const J& v = kv.second;
    if (k == "initiative") opt.initiative = v.s;
    else if (k == "initiative_ties") opt.initiative_ties = v.s;
    else if (k == "lead") opt.lead = v.s;
    else if (k == "target_lock") opt.target_lock = v.s;
    else if (k == "stack_split") opt.stack_split = v.truthy();
    else if (k == "capital_stops_move") opt.capital_stops_move = v.truthy();
    else if (k == "blocked_move") opt.blocked_move = v.s;
    else if (k == "activation_mana") opt.activation_mana = v.num();
    else if (k == "final_tie") opt.final_tie = v.s;
    else if (k == "simultaneous_win") opt.simultaneous_win = v.s;
    else if (k == "next_battle_expires") opt.next_battle_expires = v.truthy();
    else if (k == "hand_limit_draw") opt.hand_limit_draw = v.s;
    else if (k == "hit_assignment") opt.hit_assignment = v.s;
    else if (k == "market_deck_empty" || k == "reforge_empty_hand") continue;  // one value
    else throw Unsupported("rules option " + k);
  }
  return opt;
}

static std::string counts(const Rules& R, const std::vector<int64_t>& n) {
  std::string o = "{";
  bool first = true;
  for (size_t k = 0; k < n.size(); ++k)
    if (n[k]) {
      if (!first) o += ",";
      first = false;
      put_str(o, R.cards[k]->id);
      o += ":" + std::to_string(n[k]);
    }
  return o + "}";
}

static double dbl(const J& v) { return v.t == J::DBL ? v.d : (double)v.num(); }

// appraise.py's weights, as the Python side sends them
static Weights weights_of(const J& w) {
  Weights W;
  static const char* const TILES[] = {"capital", "center", "forge", "mine", "plain"};
  for (auto& kv : w.at("objective").o) {
    int t = find_name(TILES, 5, kv.first);
    if (t < 0) throw Unsupported("objective tile " + kv.first);
    W.objective[t] = dbl(kv.second);
    W.is_objective[t] = true;
  }
  for (auto& kv : w.at("category").o) W.category[kv.first] = dbl(kv.second);
  W.skip = dbl(w.at("SKIP"));
  W.approach_move = dbl(w.at("APPROACH_MOVE"));
  W.approach_army = dbl(w.at("APPROACH_ARMY"));
  W.army = dbl(w.at("ARMY"));
  W.approach_bridge = dbl(w.at("APPROACH_BRIDGE"));
  W.march_base = dbl(w.at("MARCH_BASE"));
  W.close_bonus = dbl(w.at("CLOSE_BONUS"));
  for (auto* k : {"LATE_ROUNDS", "VICTORY_BID", "CLOSE_GAP", "CLOSE_ROUNDS", "ODDS_TRIALS",
                  "ODDS_FORCES"})
    if (w.at(k).t != J::INT) throw Unsupported(std::string("a weight that is not whole: ") + k);
  W.late_rounds = w.at("LATE_ROUNDS").num();
  W.victory_bid = w.at("VICTORY_BID").num();
  W.close_gap = w.at("CLOSE_GAP").num();
  W.close_rounds = w.at("CLOSE_ROUNDS").num();
  W.odds_trials = w.at("ODDS_TRIALS").num();
  W.odds_forces = w.at("ODDS_FORCES").num();
  return W;
}

// appraise._odds: P(attacker wins) of ODDS_TRIALS battles from seed 0 (odds.battle_odds)
static double attack_odds(Engine& E, const std::vector<std::string>& att,
                          const std::vector<std::string>& dfn, bool siege) {
  std::string key;
  for (auto& x : att) key += x + ",";
  key += "|";
  for (auto& x : dfn) key += x + ",";
  key += siege ? "|c" : "|p";
  auto it = E.odds_memo.find(key);
  if (it != E.odds_memo.end()) return it->second;
  Game::OddsSide sides[2];
  const std::vector<std::string>* src[2] = {&att, &dfn};
  for (int p = 0; p < 2; ++p) {
    sides[p].forces = std::stoll((*src[p])[0]);
    sides[p].champions.assign(src[p]->begin() + 1, src[p]->end());
  }
  const J* r = E.R.game.at("board").at("radius_by_players").get("2");
  if (!r) throw std::runtime_error("no board radius");
  Game g(E.R, E.topo((int)r->num()));
  g.boards = &E.boards;
  std::string text = g.odds(sides[0], sides[1], siege ? "capital" : "plain", E.W.odds_trials,
                            0, {"_none", "_none"});
  J got = parse(text.c_str());
  double n = (double)std::max<int64_t>(E.W.odds_trials, 1);
  double win = (double)got.at("attacker").num() / n;
  if (E.odds_memo.size() >= (1u << 16)) E.odds_memo.clear();  // bounded, as _odds's lru_cache
  E.odds_memo[key] = win;
  return win;
}

static std::string book_json(const Rules& R, const Book& b) {
  return "{\"offered\":" + counts(R, b.offered) + ",\"bought\":" + counts(R, b.bought) +
         ",\"picked\":" + counts(R, b.picked) + ",\"playable\":" + counts(R, b.playable) + "}";
}

static std::string play_one(Engine& E, int players, int64_t seed,
                            const std::vector<std::string>& factions,
                            const std::vector<char>& heuristic, bool has_weights,
                            const Options& opt, const std::string& options_json, bool log,
                            bool with_book, bool check, int64_t budget,
                            const std::vector<char>& search = {},
                            const SearchCfg& cfg = SearchCfg()) {
  Rules& R = E.R;
  int radius = 0;
  {
    const J* r = R.game.at("board").at("radius_by_players").get(std::to_string(players));
    if (!r) throw std::runtime_error("no board radius");
    radius = (int)r->num();
  }
  Game g(R, E.topo(radius));
  g.opt = opt;
  g.logging = log;
  g.checking = check;   // the rules invariants after each step (invariants.cpp)
  g.step_budget = g.steps_left = budget;
  bool any = false;
  for (char h : heuristic) any = any || h;
  if (any) {
    if (!has_weights) throw Unsupported("heuristic agents without their weights");
    g.heuristic = heuristic;
    g.W = &E.W;
    g.attack_odds_fn = [&E](const std::vector<std::string>& a, const std::vector<std::string>& d,
                            bool siege) { return attack_odds(E, a, d, siege); };
  }
  SearchCfg sc = cfg;
  bool searching = false;
  for (char s : search) searching = searching || s;
  if (searching) {
    g.searcher = search;
    g.scfg = &sc;
  }
  Book bk;
  if (with_book) {
    for (auto* v : {&bk.offered, &bk.bought, &bk.picked, &bk.playable}) v->assign(R.cards.size(), 0);
    g.book = &bk;
  }
  g.verify_forks = cfg.verify;
  try {
    g.setup(players, seed, factions, options_json);
    g.run();
  } catch (Answered&) {  // a replay's next decision answered (SearchCfg::replay)
  }
  std::string o = "{\"ok\":true,\"winner\":[";
  if (cfg.verify) {  // each copy's end against the game's own (search.cpp fork_to_end)
    std::string end = g.ev + "|" + g.snapshot();
    int64_t same = 0;
    for (auto& f : g.fork_ends) same += f == end;
    o = "{\"forks\":" + std::to_string(g.fork_ends.size()) + ",\"forks_same\":" +
        std::to_string(same) + "," + o.substr(1);
  }
  for (size_t k = 0; k < g.winner.size(); ++k) {
    if (k) o += ",";
    o += std::to_string(g.winner[k]);
  }
  o += "],\"end\":";
  put_str(o, g.end_reason);
  o += ",\"round\":" + std::to_string(g.round) + ",\"decisions\":" + std::to_string(g.decisions);
  o += ",\"played\":" + counts(R, g.st_played) + ",\"fizzled\":" + counts(R, g.st_fizzled) +
       ",\"resolved\":" + counts(R, g.st_resolved);
  if (with_book) o += ",\"book\":" + book_json(R, bk);
  if (searching)
    o += ",\"search\":{\"searched\":" + std::to_string(sc.searched) + ",\"simulations\":" +
         std::to_string(sc.simulations) + ",\"mismatched\":" + std::to_string(sc.mismatched) +
         ",\"bids\":" + std::to_string(sc.searched_bids) + ",\"nested\":" +
         std::to_string(sc.searched_nested) + ",\"nodes\":" +
         std::to_string(sc.nodes) + ",\"depth\":" + std::to_string(sc.depth) +
         ",\"cpu\":" + std::to_string(sc.cpu) + ",\"answer\":" + std::to_string(sc.answer) +
         ",\"kind\":\"" + sc.answer_kind + "\",\"n\":" + std::to_string(sc.answer_n) +
         ",\"trace\":\"" + sc.trace + "\"" +
         (cfg.views ? ",\"views\":[" + sc.view_log + "],\"perturbed\":[" +
                          std::to_string(sc.perturbed[0]) + "," +
                          std::to_string(sc.perturbed[1]) + "," +
                          std::to_string(sc.perturbed[2]) + "],\"dealt\":[" + sc.dealt_log + "]"
                    : std::string()) + "}";
  if (log) o += ",\"events\":[" + g.ev + "],\"snapshot\":" + g.snapshot();
  return o + "}";
}

}  // namespace tn

extern "C" {

const char* tn_digest() { return TN_DIGEST; }

void* tn_load(const char* cards, const char* game, const char* factions, char** err) {
  try {
    auto E = std::make_unique<tn::Engine>();
    tn::Loader L{E->R};
    L.load(tn::parse(cards), tn::parse(game), tn::parse(factions));
    return E.release();
  } catch (std::exception& e) {
    if (err) *err = tn::dup(e.what());
    return nullptr;
  }
}

// request: {"players": P, "games": [{"seed": s, "factions": [...], "agents": [...],
//           "check": bool}, ...], "options": {...Options.to_dict()...}, "log": bool,
//           "book": bool, "step_budget": n}; returns a JSON list. A game that "check"s the
//           rules invariants after each step ends with {"ok": false, "error":
//           "InvariantError: ..."} at the first broken one; a game that runs more effect steps
//           than its budget (core.STEP_BUDGET) with {"ok": false, "budget": true, "card":
//           id or "", "error": core.StepBudget's words, naming the card}.
char* tn_play(void* eng, const char* request) {
  tn::Engine& E = *(tn::Engine*)eng;
  std::string out = "[";
  try {
    tn::J req = tn::parse(request);
    int players = (int)req.at("players").num();
    bool log = req.get("log") && req.at("log").truthy();
    bool with_book = req.get("book") && req.at("book").truthy();
    bool has_weights = false;
    std::string weights_err;
    if (const tn::J* w = req.get("weights")) {
      if (!w->is_null()) {
        try {
          E.W = tn::weights_of(*w);
          has_weights = true;
        } catch (std::exception& e) {
          weights_err = e.what();
        }
      }
    }
    std::string options_json;
    tn::put_json(options_json, req.at("options"));
    tn::Options opt;
    bool opt_ok = true;
    std::string opt_err;
    try {
      opt = tn::options_of(req.at("options"));
    } catch (std::exception& e) {
      opt_ok = false;
      opt_err = e.what();
    }
    int64_t budget = tn::STEP_BUDGET;   // core.STEP_BUDGET, as the Python side sends it
    if (const tn::J* b = req.get("step_budget")) budget = b->num();
    tn::SearchCfg cfg;
    if (const tn::J* sj = req.get("search")) {
      if (const tn::J* x = sj->get("sims")) cfg.sims = x->num();
      if (const tn::J* x = sj->get("width")) cfg.width = x->num();
      if (const tn::J* x = sj->get("horizon")) cfg.horizon = x->num();
      if (const tn::J* x = sj->get("explore")) cfg.explore = x->dbl();
      if (const tn::J* x = sj->get("noise")) cfg.noise = x->dbl();
      if (const tn::J* x = sj->get("prior_temp")) cfg.prior_temp = x->dbl();
      if (const tn::J* x = sj->get("gain")) cfg.gain = x->dbl();
      if (const tn::J* x = sj->get("bids")) cfg.bids = x->truthy();
      if (const tn::J* x = sj->get("nested")) cfg.nested = x->truthy();
      if (const tn::J* x = sj->get("scale")) cfg.scale = x->truthy();
      if (const tn::J* x = sj->get("same_worlds")) cfg.same_worlds = x->truthy();
      if (const tn::J* x = sj->get("tree_depth")) cfg.tree_depth = x->num();
      if (const tn::J* x = sj->get("stream")) cfg.stream = x->num();
      if (const tn::J* x = sj->get("replay")) {  // a replay: the answers so far
        cfg.replaying = true;
        for (auto& v : x->a) cfg.replay.push_back((int)v.num());
      }
      if (const tn::J* x = sj->get("verify")) cfg.verify = x->truthy();
      if (const tn::J* x = sj->get("limit")) cfg.limit = x->num();
      if (const tn::J* x = sj->get("perturb")) cfg.perturb = x->truthy();
      if (const tn::J* x = sj->get("deal")) cfg.deal = x->truthy();
      if (const tn::J* x = sj->get("perturb_round")) cfg.perturb_round = x->num();
      if (const tn::J* x = sj->get("perturb_step")) cfg.perturb_step = x->num();
      if (const tn::J* x = sj->get("views")) cfg.views = x->truthy();
      if (const tn::J* x = sj->get("trade")) cfg.trade = x->truthy();
      if (const tn::J* x = sj->get("renumber")) cfg.renumber = x->truthy();
      if (const tn::J* x = sj->get("trade_deck")) cfg.trade_deck = x->truthy();
    }
    bool first = true;
    for (auto& gm : req.at("games").a) {
      if (!first) out += ",";
      first = false;
      try {
        if (!opt_ok) throw tn::Unsupported(opt_err);
        std::vector<std::string> facs;
        for (auto& f : gm.at("factions").a) facs.push_back(f.s);
        std::vector<char> heur((size_t)players, 0), search((size_t)players, 0);
        if (const tn::J* ag = gm.get("agents")) {
          if (ag->a.size() != (size_t)players) throw tn::Unsupported("one agent a seat");
          for (size_t k = 0; k < ag->a.size(); ++k) {
            const std::string& name = ag->a[k].s;
            if (name == "heuristic") heur[k] = 1;
            else if (name == "heuristic-single") heur[k] = 2;
            else if (name == "nsearch") heur[k] = search[k] = 1;  // search.cpp
            else if (name == "nsearch-single") {  // nsearch offered one decision at a time
              heur[k] = 2;
              search[k] = 1;
            }
            else if (name != "random") throw tn::Unsupported("agent " + name);
          }
        }
        if (!weights_err.empty()) throw tn::Unsupported("weights: " + weights_err);
        bool check = gm.get("check") && gm.at("check").truthy();
        out += tn::play_one(E, players, gm.at("seed").num(), facs, heur, has_weights, opt,
                            options_json, log, with_book, check, budget, search, cfg);
      } catch (tn::StepBudget& e) {   // not declined: the game has no end (core.StepBudget)
        std::string m = "{\"ok\":false,\"budget\":true,\"card\":";
        tn::put_str(m, e.card);
        m += ",\"error\":";
        tn::put_str(m, e.what());
        out += m + "}";
      } catch (std::exception& e) {
        std::string m = "{\"ok\":false,\"error\":";
        tn::put_str(m, e.what());
        out += m + "}";
      } catch (tn::Fizzle& f) {
        std::string m = "{\"ok\":false,\"error\":";
        tn::put_str(m, "uncaught fizzle: " + f.why);
        out += m + "}";
      } catch (tn::NoTarget&) {
        out += "{\"ok\":false,\"error\":\"uncaught NoTarget\"}";
      } catch (...) {
        out += "{\"ok\":false,\"error\":\"uncaught\"}";
      }
    }
  } catch (std::exception& e) {
    std::string m = "{\"ok\":false,\"error\":";
    tn::put_str(m, e.what());
    return tn::dup(m + "}");
  }
  return tn::dup(out + "]");
}

// request: {"att": {"forces": n, "champions": [...]}, "dfn": {...}, "where": "plain",
//           "trials": n, "seed": s, "factions": [f0, f1]}; returns the tallies (Game::odds)
char* tn_odds(void* eng, const char* request) {
  tn::Engine& E = *(tn::Engine*)eng;
  try {
    tn::J req = tn::parse(request);
    tn::Game::OddsSide sides[2];
    const char* keys[2] = {"att", "dfn"};
    for (int p = 0; p < 2; ++p) {
      const tn::J& s = req.at(keys[p]);
      sides[p].forces = s.at("forces").num();
      for (auto& c : s.at("champions").a) sides[p].champions.push_back(c.s);
    }
    std::vector<std::string> facs;
    for (auto& f : req.at("factions").a) facs.push_back(f.s);
    const tn::J* r = E.R.game.at("board").at("radius_by_players").get("2");
    if (!r) throw std::runtime_error("no board radius");
    tn::Game g(E.R, E.topo((int)r->num()));
    g.boards = &E.boards;
    return tn::dup(g.odds(sides[0], sides[1], req.at("where").s, req.at("trials").num(),
                          req.at("seed").num(), facs));
  } catch (std::exception& e) {
    std::string m = "{\"ok\":false,\"error\":";
    tn::put_str(m, e.what());
    return tn::dup(m + "}");
  } catch (...) {
    return tn::dup("{\"ok\":false,\"error\":\"uncaught\"}");
  }
}

// request: {"players": P, "seed": s, "factions": [...], "options": {...}, "where": "card",
//           "breaks": ["gold", "card", "three", "battle", "index", "bridge", "forces", "pvp"]};
// a game just set up, broken in each way named, then checked once at `where` (the Permanent
// VP after the check, lowered, then checked again): the broken invariants' messages, a JSON
// list. For the tests: the native checks (invariants.cpp) can fail.
char* tn_invariants(void* eng, const char* request) {
  tn::Engine& E = *(tn::Engine*)eng;
  try {
    tn::J req = tn::parse(request);
    int players = (int)req.at("players").num();
    const tn::J* r = E.R.game.at("board").at("radius_by_players").get(std::to_string(players));
    if (!r) throw std::runtime_error("no board radius");
    tn::Game g(E.R, E.topo((int)r->num()));
    g.boards = &E.boards;
    g.opt = tn::options_of(req.at("options"));
    std::string options_json;
    tn::put_json(options_json, req.at("options"));
    std::vector<std::string> facs;
    for (auto& f : req.at("factions").a) facs.push_back(f.s);
    g.setup(players, req.at("seed").num(), facs, options_json);
    int P = g.P, N = g.N;
    int plain = -1;
    for (int h = 0; h < N && plain < 0; ++h)
      if (g.tile[h] == tn::T_PLAIN && !g.has_forces(h)) plain = h;
    bool pvp = false;
    for (auto& b : req.at("breaks").a) {
      const std::string& k = b.s;
      if (k == "gold") g.players[0].gold = -1;
      else if (k == "card") g.players[1 % P].hand.push_back(0);   // a card in two zones
      else if (k == "three" && P >= 3) {
        g.add_forces(0, g.players[2].capital, 1);
        g.add_forces(1, g.players[2].capital, 1);
      } else if (k == "battle") {
        g.add_forces(0, plain, 1);
        g.add_forces(1, plain, 1);
      } else if (k == "index") g.ucount[(size_t)0 * N + plain] += 1;
      else if (k == "bridge") g.at[plain].push_back({plain, 0});
      else if (k == "forces") g.forces[plain * P + 0] = -1;
      else if (k == "pvp") pvp = true;
      else throw std::runtime_error("no such break: " + k);
    }
    std::vector<std::string> found = g.problems(req.at("where").s);
    if (pvp) {
      g.checking = true;
      try {
        g.checkpoint("battle");   // (nothing else is broken: it notes the Permanent VP)
        g.players[0].pvp = -1;
        g.checkpoint("battle");
      } catch (std::exception& e) {
        found.push_back(e.what());
      }
    }
    std::string out = "[";
    for (size_t k = 0; k < found.size(); ++k) {
      if (k) out += ",";
      tn::put_str(out, found[k]);
    }
    return tn::dup(out + "]");
  } catch (std::exception& e) {
    std::string m = "{\"ok\":false,\"error\":";
    tn::put_str(m, e.what());
    return tn::dup(m + "}");
  }
}

// ---- the state API (nstate.cpp) --------------------------------------------------------------
// request: {"players": P, "seed": s, "factions": [...], "options": {...}, "log": bool,
//           "step_budget": n}: a game set up and waiting at its first decision, or null with
//           *err (to free with tn_free) when it cannot be set up
void* tn_state_new(void* eng, const char* request, char** err) {
  tn::Engine& E = *(tn::Engine*)eng;
  try {
    tn::J req = tn::parse(request);
    tn::StateCfg c;
    c.players = (int)req.at("players").num();
    c.seed = req.at("seed").num();
    for (auto& f : req.at("factions").a) c.factions.push_back(f.s);
    c.opt = tn::options_of(req.at("options"));
    tn::put_json(c.options_json, req.at("options"));
    c.log = req.get("log") && req.at("log").truthy();
    if (const tn::J* b = req.get("step_budget")) c.budget = b->num();
    const tn::J* r = E.R.game.at("board").at("radius_by_players").get(std::to_string(c.players));
    if (!r) throw std::runtime_error("no board radius for " + std::to_string(c.players) + " players");
    auto st = std::make_unique<tn::NState>(E.R, E.topo((int)r->num()), c);
    st->start(nullptr);
    return st.release();
  } catch (std::exception& e) {
    if (err) *err = tn::dup(e.what());
    return nullptr;
  }
}

void tn_state_free(void* st) { delete (tn::NState*)st; }

void* tn_state_clone(void* st, char** err) {
  try {
    return ((tn::NState*)st)->clone();
  } catch (std::exception& e) {
    if (err) *err = tn::dup(e.what());
    return nullptr;
  }
}

// what seat p may know (nview.cpp: seat_view), with p's own answers so far and, when p is
// to act, its decision (kind, each option's text and id, the cards the options name)
char* tn_state_view(void* st, int p) {
  auto* s = (tn::NState*)st;
  if (!s->g || p < 0 || p >= s->cfg.players) return nullptr;
  std::string o = "{\"observation\":" + s->g->seat_view(p) + ",\"mine\":[";
  auto& mine = s->mine[(size_t)p];
  for (size_t k = 0; k < mine.size(); ++k) {
    o += k ? ",[" : "[";
    tn::put_str(o, mine[k].first);
    o += "," + std::to_string(mine[k].second) + "]";
  }
  o += "],\"decision\":";
  if (s->waiting && s->p == p) {
    s->texts();
    o += "{\"kind\":";
    tn::put_str(o, s->kind);
    o += ",\"reprs\":[";
    for (size_t k = 0; k < s->reprs.size(); ++k) {
      if (k) o += ",";
      tn::put_str(o, s->reprs[k]);
    }
    o += "],\"ids\":[";
    for (size_t k = 0; k < s->ids.size(); ++k) o += (k ? "," : "") + std::to_string(s->ids[k]);
    o += "],\"cards\":{";
    bool first = true;
    for (size_t k = 0; s->ask_->card && k < s->n_; ++k) {
      int iid = s->ask_->card(k);
      if (iid < 0) continue;
      o += (first ? "\"" : ",\"") + std::to_string(iid) + "\":";
      first = false;
      tn::put_str(o, s->g->cards[(size_t)iid].defn->name);
    }
    o += "}," + s->g->public_board().substr(1) + "}";
  } else {
    o += "null}";
  }
  return tn::dup(o);
}

// deal again in place what seat p cannot see, from a generator seeded with `seed`
int tn_state_deal(void* st, int p, int64_t seed) {
  auto* s = (tn::NState*)st;
  if (!s->waiting || p < 0 || p >= s->cfg.players) return -1;
  s->deal(p, seed);
  return 0;
}

// a copy after the first n answers, with a world dealt for seat p from `seed` as the Action
// Step starting there starts (resample_from_infostate at an Action Step choice)
void* tn_state_clone_dealt(void* st, int64_t n, int p, int64_t seed, char** err) {
  auto* s = (tn::NState*)st;
  try {
    if (n < 0 || (size_t)n > s->hist.size() || p < 0 || p >= s->cfg.players)
      throw std::runtime_error("the state API: no such answer or seat to deal at");
    tn::NState::Deal d{(size_t)n, p, seed, true};
    return s->clone_upto((size_t)n, &d);
  } catch (std::exception& e) {
    if (err) *err = tn::dup(e.what());
    return nullptr;
  }
}

// the seat to act, -4 at the end (pyspiel's TERMINAL), -5 when the rules stopped on an error
int tn_state_player(void* st) {
  auto* s = (tn::NState*)st;
  if (s->waiting) return s->p;
  return s->error.empty() ? -4 : -5;
}

// the waiting decision's action ids, in the engine's option order, into out (at most cap);
// returns how many there are
int64_t tn_state_ids(void* st, int64_t* out, int64_t cap) {
  auto* s = (tn::NState*)st;
  s->texts();
  int64_t n = (int64_t)s->ids.size();
  for (int64_t k = 0; k < n && k < cap; ++k) out[k] = s->ids[(size_t)k];
  return n;
}

// answer with option index i (by_id: i is an action id); 0, or -1 when it is not legal
int tn_state_apply(void* st, int64_t i, int by_id) {
  auto* s = (tn::NState*)st;
  int k = by_id ? s->index_of(i) : (int)i;
  if (!s->waiting || k < 0 || (size_t)k >= s->n_) return -1;
  s->apply(k);
  return 0;
}

// a random playout: uniformly random options (from an MT seeded with `seed`) until the end
// or max_steps answers; returns the answers given (-1: the rules stopped on an error)
int64_t tn_state_playout(void* st, int64_t seed, int64_t max_steps) {
  auto* s = (tn::NState*)st;
  tn::MT r;
  r.seed(seed);
  int64_t n = 0;
  while (s->waiting && n < max_steps) {
    s->apply((int)(r.random() * (double)s->n_));
    n++;
  }
  return s->error.empty() ? n : -1;
}

// everything else, as JSON: the decision (seat, kind, each option's text and id), the
// history, the winners and the end, the error; with full, the state snapshot, the log and
// each instance's card
char* tn_state_info(void* st, int full) {
  auto* s = (tn::NState*)st;
  s->texts();
  std::string o = "{\"p\":" + std::to_string(s->waiting ? s->p : -1) + ",\"kind\":";
  tn::put_str(o, s->waiting ? s->kind : "");
  o += ",\"reprs\":[";
  for (size_t k = 0; k < s->reprs.size(); ++k) {
    if (k) o += ",";
    tn::put_str(o, s->reprs[k]);
  }
  o += "],\"ids\":[";
  for (size_t k = 0; k < s->ids.size(); ++k) o += (k ? "," : "") + std::to_string(s->ids[k]);
  o += "],\"history\":[";
  for (size_t k = 0; k < s->hist.size(); ++k) o += (k ? "," : "") + std::to_string(s->hist[k]);
  o += "],\"who\":[";
  for (size_t k = 0; k < s->who.size(); ++k) o += (k ? "," : "") + std::to_string(s->who[k]);
  o += "],\"deals\":[";
  for (size_t k = 0; k < s->deals.size(); ++k) {
    auto& d = s->deals[k];
    o += (k ? ",[" : "[") + std::to_string(d.at) + "," + std::to_string(d.p) + "," +
         std::to_string(d.seed) + "," + (d.step ? "true" : "false") + "]";
  }
  o += "],\"step_at\":" + std::to_string(s->step_at);
  o += ",\"finished\":" + std::string(s->finished ? "true" : "false") + ",\"error\":";
  tn::put_str(o, s->error);
  o += ",\"snap_n\":" + std::to_string(s->snap ? (int64_t)s->snap_n : -1);
  if (s->g) {
    o += ",\"round\":" + std::to_string(s->g->round) + ",\"winner\":[";
    for (size_t k = 0; k < s->g->winner.size(); ++k)
      o += (k ? "," : "") + std::to_string(s->g->winner[k]);
    o += "],\"end\":";
    tn::put_str(o, s->g->end_reason);
    if (full) {
      o += ",\"events\":[" + s->g->ev + "],\"snapshot\":" + s->g->snapshot() + ",\"cards\":[";
      for (size_t k = 0; k < s->g->cards.size(); ++k) {  // each instance's card: a dealt
        if (k) o += ",";                                   // world renumbers hidden ones
        tn::put_str(o, s->g->cards[k].defn->id);
      }
      o += "]";
    }
  }
  return tn::dup(o + "}");
}

void tn_free(char* s) { std::free(s); }

void tn_unload(void* eng) { delete (tn::Engine*)eng; }
}
