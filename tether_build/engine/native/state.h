// The board, the state of a game and the values effects pass around (topo.py, state.py,
// core.Ctx, mods.Active): the Python engine's structures with the same orders.
#pragma once
#include <algorithm>
#include <deque>
#include <map>

#include "defs.h"
#include "mt.h"

namespace tn {

// ---- topology (topo.py, board.py geometry) ----------------------------------------------------
static const int DIRS[6][2] = {{1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}, {0, 1}};

inline int hex_distance(int q1, int r1, int q2, int r2) {
  int dq = q1 - q2, dr = r1 - r2;
  return (std::abs(dq) + std::abs(dr) + std::abs(dq + dr)) / 2;
}

struct Topo {
  int radius = 0, n = 0, center = 0;
  std::vector<std::pair<int, int>> coords;  // (q, r), sorted by (r, q)
  std::vector<std::vector<int>> nbrs;       // DIRS order
  std::vector<int> dist;                    // n * n
  std::vector<int> edges;                   // every edge key, sorted
  std::vector<std::vector<int>> edges_of, edges_sorted;
  std::vector<std::vector<std::pair<int, int>>> adj;  // (neighbour, edge key), by neighbour
  std::vector<std::string> names;
  std::vector<int16_t> edge_idx;  // edge key -> its index in `edges`, or -1

  int index_of(int q, int r) const {
    for (int i = 0; i < n; ++i)
      if (coords[i].first == q && coords[i].second == r) return i;
    return -1;
  }
  int d(int a, int b) const { return dist[a * n + b]; }
  static int edge_key(int a, int b) { return a < b ? a * 256 + b : b * 256 + a; }

  explicit Topo(int radius_) : radius(radius_) {
    if (radius > 7) throw Unsupported("board radius above 7");
    for (int q = -radius; q <= radius; ++q)
      for (int r = -radius; r <= radius; ++r)
        if (std::abs(q + r) <= radius) coords.emplace_back(q, r);
    std::sort(coords.begin(), coords.end(), [](auto& a, auto& b) {
      return a.second != b.second ? a.second < b.second : a.first < b.first;
    });
    n = (int)coords.size();
    center = index_of(0, 0);
    nbrs.resize(n);
    for (int i = 0; i < n; ++i)
      for (auto& dd : DIRS) {
        int q = coords[i].first + dd[0], r = coords[i].second + dd[1];
        if (hex_distance(q, r, 0, 0) <= radius) nbrs[i].push_back(index_of(q, r));
      }
    dist.resize(n * n);
    for (int a = 0; a < n; ++a)
      for (int b = 0; b < n; ++b)
        dist[a * n + b] = hex_distance(coords[a].first, coords[a].second, coords[b].first,
                                       coords[b].second);
    std::vector<int> all;
    for (int a = 0; a < n; ++a)
      for (int b : nbrs[a]) all.push_back(edge_key(a, b));
    std::sort(all.begin(), all.end());
    all.erase(std::unique(all.begin(), all.end()), all.end());
    edges = all;
    edge_idx.assign(65536, -1);
    for (size_t k = 0; k < edges.size(); ++k) edge_idx[edges[k]] = (int16_t)k;
    edges_of.resize(n);
    edges_sorted.resize(n);
    adj.resize(n);
    for (int a = 0; a < n; ++a) {
      for (int b : nbrs[a]) {
        edges_of[a].push_back(edge_key(a, b));
        adj[a].emplace_back(b, edge_key(a, b));
      }
      edges_sorted[a] = edges_of[a];
      std::sort(edges_sorted[a].begin(), edges_sorted[a].end());
      std::sort(adj[a].begin(), adj[a].end());
    }
    for (auto& c : coords)
      names.push_back("(" + std::to_string(c.first) + "," + std::to_string(c.second) + ")");
  }
  // hexes at distance <= d of h, in index order
  void ball(int h, int64_t dd, std::vector<int>& out) const {
    for (int x = 0; x < n; ++x)
      if (dist[h * n + x] <= dd) out.push_back(x);
  }
};

// ---- values ---------------------------------------------------------------------------------
static const int MAXP = 15;
struct MoveOpt {  // (unit, from hex, cid, n_forces or None, path)
  int8_t unit = 0;  // 0 stack, 1 force, 2 champion
  int16_t src = 0;
  int32_t cid = 0;
  int16_t nf = -1;  // -1: None (all of them)
  uint8_t len = 0;
  int16_t path[MAXP];
  int last() const { return path[len - 1]; }
  bool operator==(const MoveOpt& o) const {
    if (unit != o.unit || src != o.src || cid != o.cid || nf != o.nf || len != o.len)
      return false;
    for (int k = 0; k < len; ++k)
      if (path[k] != o.path[k]) return false;
    return true;
  }
};

struct Champion;
enum VT : uint8_t { V_NONE, V_NULL, V_INT, V_CHAMP, V_LABEL, V_MOVE, V_TRUE };
struct Val {  // a choice or a ref: NONE (no choice), None, an int, a Champion, a label, a move
  VT t = V_NONE;
  int64_t i = 0;
  Champion* c = nullptr;
  MoveOpt m;
  static Val none() { return Val(); }
  static Val null() { Val v; v.t = V_NULL; return v; }
  static Val integer(int64_t x) { Val v; v.t = V_INT; v.i = x; return v; }
  static Val champ(Champion* ch) { Val v; v.t = V_CHAMP; v.c = ch; return v; }
  static Val label(int id) { Val v; v.t = V_LABEL; v.i = id; return v; }
  static Val yes() { Val v; v.t = V_TRUE; v.i = 1; return v; }
  static Val move(const MoveOpt& mo) { Val v; v.t = V_MOVE; v.m = mo; return v; }
  bool is_int() const { return t == V_INT || t == V_TRUE; }  // isinstance(v, int): True too
  bool operator==(const Val& o) const {  // Python ==
    if (is_int() && o.is_int()) return i == o.i;
    if (t != o.t) return false;
    switch (t) {
      case V_NONE: case V_NULL: return true;
      case V_CHAMP: return c == o.c;
      case V_LABEL: return i == o.i;
      case V_MOVE: return m == o.m;
      default: return false;
    }
  }
};

template <class K>
struct SmallMap {  // a dict of a few entries: refs (name -> value), locks (step key -> value)
  std::vector<std::pair<K, Val>> v;
  const Val* find(K k) const {
    for (auto& kv : v)
      if (kv.first == k) return &kv.second;
    return nullptr;
  }
  void set(K k, const Val& x) {
    for (auto& kv : v)
      if (kv.first == k) { kv.second = x; return; }
    v.emplace_back(k, x);
  }
  void update(const SmallMap& o) {
    for (auto& kv : o.v) set(kv.first, kv.second);
  }
};
using Refs = SmallMap<int>;       // ref name -> value
using Locks = SmallMap<int64_t>;  // a step's key -> its locked value
// a step's key in the locks: the step, or (step, i) / (step, "c") / (step, "h")
inline int64_t key_of(const Step* st, int sub = 0) { return (int64_t)st->uid * 1024 + sub; }
static const int SUB_C = 1000, SUB_H = 1001;

// ---- state (state.py) -------------------------------------------------------------------------
enum Tile { T_CAPITAL = 0, T_CENTER = 1, T_FORGE = 2, T_MINE = 3, T_PLAIN = 4 };

struct CardInst {
  int iid = 0;
  CardDef* defn = nullptr;
  int64_t counter = 0;
  Overrides over;
  bool burn() const { return over.has_burn ? over.burn : defn->burn; }
  int64_t gold() const { return over.has_gold ? over.gold : defn->gold; }
};

struct Champion {
  int cid = 0, iid = 0, owner = 0, hex = 0;
  CardDef* defn = nullptr;
  int64_t hp = 0, max_hp = 0;
};

struct Player {
  int seat = 0;
  std::string faction;
  int64_t gold = 0, mana = 0, pvp = 0, cvp = 0;
  std::vector<int> hand, draw, discard, burn, scrapped, played;
  int capital = -1;
  std::string slot;
  std::vector<int> champions;  // cids
  std::string last_drawn;
  bool has_last_drawn = false;
  bool done = false, won_battle = false, market_won = false;
  int64_t played_count = 0, moves_this_round = 0;
  void new_round() {
    done = false;
    played_count = 0;
    won_battle = false;
    moves_this_round = 0;
    market_won = false;
  }
};

struct Battle {
  int bid = 0, hex = 0, attacker = 0, defender = 0, round = 0;
  bool siege = false;
  std::vector<std::pair<const void*, int64_t>> redirected;  // id(act) -> redirects used
};

// an event's info dict (game.fire); -1 stands for None / absent
struct Event {
  Champion* champ = nullptr;
  bool has_hex = false;
  int hex = -1;
  int victim = -1, killer = -1, owner = -1, player = -1, mover = -1, battle_enemy = -1;
  bool has_winner = false;
  int winner = -1;
  Champion* killer_champ = nullptr;
  Battle* battle = nullptr;
  bool has_sides = false;
  int sides[2] = {-1, -1};
  const std::vector<Champion*>* champs = nullptr;
  bool has_edge = false;
  int edge = -1;
  int64_t moving_forces = 0;
  bool moving_alone = false;
  bool nonempty = true;
};

struct Active {  // mods.Active
  int owner = 0, duration = D_PERMANENT, limit = L_UNLIMITED;
  Champion* champ = nullptr;
  CardInst* inst = nullptr;
  Refs refs;
  int target = -1;
  const ModDef* mod = nullptr;
  int event = -1;
  const Cond* cond = nullptr;
  const std::vector<Step*>* steps = nullptr;
  int battle = -1;  // bound battle id, -1 None
  bool has_uses = false;
  int64_t uses = 0;
  int used_round = -1, used_battle = -1;
  bool used = false;
  const Ability* ability = nullptr;
};

struct Game;
struct Preset;
struct Ctx {  // core.Ctx
  Game* g = nullptr;
  int p = 0;
  CardInst* inst = nullptr;
  Champion* champ = nullptr;
  Battle* battle = nullptr;
  const Event* event = nullptr;
  Refs refs;
  Locks* locks = nullptr;
  bool declaring = false, dry = false, quick = false;
  int64_t last_count = 0;
  Preset* preset = nullptr;  // declare.Preset: a whole play's answers, asked of no agent
  Ctx() {}
  Ctx(Game* g_, int p_, CardInst* inst_ = nullptr, Champion* champ_ = nullptr,
      Battle* battle_ = nullptr, const Event* event_ = nullptr)
      : g(g_), p(p_), inst(inst_), champ(champ_), battle(battle_), event(event_) {}
};

struct Fizzle {
  std::string why;
};
struct NoTarget {};

}  // namespace tn
