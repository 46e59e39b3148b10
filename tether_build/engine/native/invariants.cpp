// The rules invariants (invariants.py), checked after each step of a game that asks for them
// (Game::checking: the check's sweep). The same checks, worded the same, on the native state:
// a broken one ends the game with an error, which the caller reports by playing the game again
// in the Python engine (check/sweep.py).
#include <algorithm>
#include <stdexcept>

#include "game.h"

namespace tn {

namespace {
// checkpoints where contact battles may still be pending elsewhere on the board
bool mid_resolution(const std::string& w) { return w == "battle" || w == "declare"; }
bool after_sieges(const std::string& w) {
  return w == "collect" || w == "cleanup" || w == "reset" || w == "market" || w == "setup";
}
}  // namespace

std::vector<std::string> Game::problems(const std::string& where) {
  std::vector<std::string> out;
  // cards are neither created nor lost: every card in exactly one zone (or on the board)
  auto& seen = check_seen;
  seen.assign(cards.size(), 0);
  size_t in_zones = 0;
  bool whole = true;
  auto see = [&](int iid) {
    in_zones++;
    if (iid < 0 || iid >= (int)seen.size() || seen[iid]++) whole = false;
  };
  for (int iid : revealed) see(iid);
  for (auto& kv : decks)
    for (int iid : kv.second) see(iid);
  for (auto& pl : players)
    for (auto* z : {&pl.hand, &pl.draw, &pl.discard, &pl.burn, &pl.scrapped, &pl.played})
      for (int iid : *z) see(iid);
  int on_board = 0;
  for (auto* c : by_cid)
    if (c) {
      see(c->iid);
      on_board++;
    }
  if (!whole || in_zones != cards.size())
    out.push_back("cards created or lost: " + std::to_string(in_zones) + " in zones, " +
                  std::to_string(cards.size()) + " exist");
  for (int p = 0; p < P; ++p) {
    const Player& pl = players[p];
    if (pl.gold < 0 || pl.mana < 0)
      out.push_back("seat " + std::to_string(p) + " gold " + std::to_string(pl.gold) + " mana " +
                    std::to_string(pl.mana));
    if ((int64_t)pl.champions.size() > R.champion_limit)
      out.push_back("seat " + std::to_string(p) + " has " + std::to_string(pl.champions.size()) +
                    " Champions (limit " + std::to_string(R.champion_limit) + ")");
    for (int cid : pl.champions) {
      const Champion* c = cid > 0 && cid < (int)by_cid.size() ? by_cid[cid] : nullptr;
      if (!c || c->owner != p)
        out.push_back("seat " + std::to_string(p) + " lists Champion " + std::to_string(cid) +
                      " it does not own");
    }
  }
  // the board: each hex's units recounted, against the occupancy indexes
  auto& units = check_units;
  auto& recount = check_recount;
  units.assign((size_t)P * N, 0);
  recount.assign(N, 0);
  int listed = 0;
  for (int h = 0; h < N; ++h) {
    if (!has_forces(h) && champs_at[h].empty()) continue;
    int n_occ = popcount(occupants(h));
    recount[h] = n_occ;
    if (n_occ > 2)
      out.push_back("hex " + topo.names[h] + " holds " + std::to_string(n_occ) + " players");
    if (n_occ == 2 && !mid_resolution(where)) {
      if (cap_owner[h] < 0) out.push_back("unresolved battle in " + topo.names[h]);
      else if (after_sieges(where)) out.push_back("unresolved siege in " + topo.names[h]);
    }
    for (int p = 0; p < P; ++p) {
      int n = forces[h * P + p];
      if (n < 0)
        out.push_back("bad Force entry " + std::to_string(p) + ":" + std::to_string(n) + " in " +
                      topo.names[h]);
      else units[(size_t)p * N + h] = n;
    }
    for (const Champion* ch : champs_at[h]) {
      listed++;
      bool indexed = ch->cid > 0 && ch->cid < (int)by_cid.size() && by_cid[ch->cid] == ch;
      if (ch->hex != h || !indexed) out.push_back("Champion " + ch->defn->id + " misplaced");
      if (ch->hp < 1 || ch->hp > ch->max_hp)
        out.push_back("Champion " + ch->defn->id + " HP " + std::to_string(ch->hp) + "/" +
                      std::to_string(ch->max_hp));
      if (0 <= ch->owner && ch->owner < P) units[(size_t)ch->owner * N + h] += 1;
    }
  }
  for (int p = 0; p < P; ++p) {
    const auto& listed_hexes = occ[p];   // its hexes, in order
    size_t at_k = 0;
    bool same = true;
    for (int h = 0; h < N && same; ++h) {
      int n = units[(size_t)p * N + h];
      same = ucount[(size_t)p * N + h] == n;
      if (n) same = same && at_k < listed_hexes.size() && listed_hexes[at_k++] == h;
    }
    if (!same || at_k != listed_hexes.size())
      out.push_back("occupancy index of seat " + std::to_string(p) + " out of sync");
  }
  if (nocc != recount) out.push_back("occupant count index out of sync");
  if (!bridge_index_ok()) out.push_back("bridged-neighbour index out of sync");
  if (listed != on_board) out.push_back("Champion index out of sync");
  return out;
}

// Is Bridges.at[h] exactly the (neighbour, edge) pairs of topo.adj[h] whose edge is a Bridge,
// in neighbour order, for every hex h (invariants._bridge_index_ok)
bool Game::bridge_index_ok() const {
  size_t total = 0;
  for (int h = 0; h < N; ++h) {
    const auto& row = at[h];
    total += row.size();
    int prev = -1;
    for (auto& x : row) {
      const auto& allowed = topo.adj[h];
      if (x.first <= prev || !bridged(x.second) ||
          std::find(allowed.begin(), allowed.end(), x) == allowed.end())
        return false;
      prev = x.first;
    }
  }
  int on = 0;
  for (char b : bridge_on) on += b != 0;
  return on == n_bridges && total == 2 * (size_t)n_bridges;
}

void Game::checkpoint(const char* where) {
  if (!checking) return;
  std::vector<std::string> found = problems(where);
  pvp_seen.resize(P, 0);
  for (int p = 0; p < P; ++p) {
    if (players[p].pvp < pvp_seen[p])
      found.push_back("seat " + std::to_string(p) + " Permanent VP decreased");
    pvp_seen[p] = players[p].pvp;
  }
  if (found.empty()) return;
  std::string m = "InvariantError: round " + std::to_string(round) + " after " + where + ": ";
  for (size_t k = 0; k < found.size(); ++k) m += (k ? "; " : "") + found[k];
  throw std::runtime_error(m);
}

}  // namespace tn
