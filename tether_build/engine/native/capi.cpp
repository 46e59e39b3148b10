// The C interface the Python side calls through ctypes (tether_build/engine/native/__init__.py):
// load a compiled ruleset once, then play batches of seeded random-agent games, each returned
// as a JSON object ({"ok": false, "error": ...} when the native engine declines a game: the
// caller then plays that game with the Python engine).
#include <cstdlib>
#include <cstring>

#include "game.h"
#include "load.h"

#ifndef TN_DIGEST
#define TN_DIGEST "unknown"
#endif

namespace tn {

struct Engine {
  Rules R;
  std::map<int, std::unique_ptr<Topo>> topos;
  std::map<std::pair<int, int64_t>, Game::BoardOut> boards;
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

static std::string play_one(Engine& E, int players, int64_t seed,
                            const std::vector<std::string>& factions, const Options& opt,
                            const std::string& options_json, bool log) {
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
  g.setup(players, seed, factions, options_json);
  g.run();
  std::string o = "{\"ok\":true,\"winner\":[";
  for (size_t k = 0; k < g.winner.size(); ++k) {
    if (k) o += ",";
    o += std::to_string(g.winner[k]);
  }
  o += "],\"end\":";
  put_str(o, g.end_reason);
  o += ",\"round\":" + std::to_string(g.round) + ",\"decisions\":" + std::to_string(g.decisions);
  o += ",\"played\":" + counts(R, g.st_played) + ",\"fizzled\":" + counts(R, g.st_fizzled) +
       ",\"resolved\":" + counts(R, g.st_resolved);
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

// request: {"players": P, "games": [{"seed": s, "factions": [...]}, ...],
//           "options": {...Options.to_dict()...}, "log": bool}; returns a JSON list
char* tn_play(void* eng, const char* request) {
  tn::Engine& E = *(tn::Engine*)eng;
  std::string out = "[";
  try {
    tn::J req = tn::parse(request);
    int players = (int)req.at("players").num();
    bool log = req.get("log") && req.at("log").truthy();
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
    bool first = true;
    for (auto& gm : req.at("games").a) {
      if (!first) out += ",";
      first = false;
      try {
        if (!opt_ok) throw tn::Unsupported(opt_err);
        std::vector<std::string> facs;
        for (auto& f : gm.at("factions").a) facs.push_back(f.s);
        out += tn::play_one(E, players, gm.at("seed").num(), facs, opt, options_json, log);
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

void tn_free(char* s) { std::free(s); }

void tn_unload(void* eng) { delete (tn::Engine*)eng; }
}
