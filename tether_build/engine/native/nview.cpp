// What one seat may know of a native game (the state API's observations), and a world dealt
// for that seat from what it knows (resample_from_infostate): the native twins of
// views.observation and views.resample.
//
// seat_view(p) writes only what seat p may know (§15.4 and the Gold display rule): the
// public board, every seat's Gold, Mana, Control VP, pile sizes and face-up piles, p's own
// hand, its Permanent VP and the contents (sorted, not the order) of its draw pile. Other
// seats' hands, draw piles and Permanent VP, any draw order and the supply decks' order are
// never written: the Python side builds its strings and tensors from this view alone.
//
// deal_hidden(p, r) deals again everything p cannot see, from what p knows, in a canonical
// order: every hidden list is sorted (by card definition, then instance) before it is
// shuffled, and each card another seat gained unseen goes back into its deck before the
// deck is dealt, so two games that differ only in what p cannot see deal the same world for
// the same generator; then the hidden cards' instance numbers are given out again in a
// canonical order (renumber_hidden), so which copy of a card is where does not show either.
#include <algorithm>

#include "game.h"

namespace tn {

namespace {
const char* const TILE_NAMES[] = {"capital", "center", "forge", "mine", "plain"};

void shuffle_list(std::vector<int>& v, MT& r) {
  for (size_t i = v.size(); i > 1; --i) {
    size_t j = (size_t)(r.random() * (double)i);
    std::swap(v[i - 1], v[j]);
  }
}
}  // namespace

std::string Game::defn_list(const std::vector<int>& iids) const {
  std::vector<std::string> ids;
  ids.reserve(iids.size());
  for (int i : iids) ids.push_back(cards[(size_t)i].defn->id);
  std::sort(ids.begin(), ids.end());
  std::string o = "[";
  for (size_t k = 0; k < ids.size(); ++k) {
    if (k) o += ",";
    put_str(o, ids[k]);
  }
  return o + "]";
}

std::string Game::seat_view(int p) const {
  std::string o = "{\"seat\":" + std::to_string(p) + ",\"round\":" + std::to_string(round) +
                  ",\"age\":";
  put_str(o, age);
  o += ",\"lead\":" + std::to_string(lead) + ",\"players\":[";
  for (int q = 0; q < P; ++q) {
    const Player& pl = players[q];
    bool mine = q == p;
    if (q) o += ",";
    o += "{\"seat\":" + std::to_string(q) + ",\"faction\":";
    put_str(o, pl.faction);
    o += ",\"gold\":" + std::to_string(pl.gold) + ",\"mana\":" + std::to_string(pl.mana) +
         ",\"control_vp\":" + std::to_string(pl.cvp) +
         ",\"permanent_vp\":" + (mine ? std::to_string(pl.pvp) : "null") +
         ",\"hand_size\":" + std::to_string(pl.hand.size()) +
         ",\"draw_size\":" + std::to_string(pl.draw.size()) +
         ",\"hand\":" + (mine ? defn_list(pl.hand) : "null") +
         ",\"draw_contents\":" + (mine ? defn_list(pl.draw) : "null") +
         ",\"discard\":" + defn_list(pl.discard) + ",\"burn\":" + defn_list(pl.burn) +
         ",\"scrapped\":" + defn_list(pl.scrapped) + ",\"played\":" + defn_list(pl.played) +
         ",\"capital\":";
    if (pl.capital >= 0)
      put_str(o, name(pl.capital));
    else
      o += "null";
    o += "}";
  }
  o += "],\"tiles\":{";
  bool first = true;
  for (int h = 0; h < N; ++h) {
    if (tile[h] == T_PLAIN) continue;
    if (!first) o += ",";
    first = false;
    put_str(o, name(h));
    o += ":";
    put_str(o, TILE_NAMES[tile[h]]);
  }
  o += "},\"mines\":{";
  first = true;
  for (int h = 0; h < N; ++h) {
    if (!mine_value[h]) continue;
    if (!first) o += ",";
    first = false;
    put_str(o, name(h));
    o += ":" + std::to_string(mine_value[h]);
  }
  o += "},\"forces\":{";
  put_forces(o);
  // (owner, card, hex, hp, max hp), sorted as Python sorts the tuples
  struct Row {
    int owner;
    std::string id, hex;
    int64_t hp, max_hp;
    int cid;
  };
  std::vector<Row> rows;
  for (auto* c : by_cid)
    if (c) rows.push_back({c->owner, c->defn->id, name(c->hex), c->hp, c->max_hp, c->cid});
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return std::tie(a.owner, a.id, a.hex, a.hp, a.max_hp) <
           std::tie(b.owner, b.id, b.hex, b.hp, b.max_hp);
  });
  o += "},\"champions\":[";
  for (size_t k = 0; k < rows.size(); ++k) {
    if (k) o += ",";
    o += "[" + std::to_string(rows[k].owner) + ",";
    put_str(o, rows[k].id);
    o += ",";
    put_str(o, rows[k].hex);
    o += "," + std::to_string(rows[k].hp) + "," + std::to_string(rows[k].max_hp) + "]";
  }
  o += "],\"bridges\":[";
  put_bridges(o);
  o += "],\"revealed\":" + defn_list(revealed) + ",\"deck_sizes\":{";
  first = true;
  for (auto& kv : decks) {
    if (!first) o += ",";
    first = false;
    put_str(o, kv.first);
    o += ":" + std::to_string(kv.second.size());
  }
  return o + "}}";
}

std::string Game::public_board() const {
  // every hex (its name, tile, Mine value) and every Champion on the board (its id, owner,
  // card, name, HP, hex): public, what an option's words name
  std::string o = "{\"hexes\":[";
  for (int h = 0; h < N; ++h) {
    if (h) o += ",";
    o += "[";
    put_str(o, name(h));
    o += ",";
    put_str(o, TILE_NAMES[tile[h]]);
    o += "," + std::to_string(mine_value[h]) + "]";
  }
  o += "],\"champions\":[";
  bool first = true;
  for (auto* c : by_cid) {
    if (!c) continue;
    if (!first) o += ",";
    first = false;
    o += "[" + std::to_string(c->cid) + "," + std::to_string(c->owner) + ",";
    put_str(o, c->defn->name);
    o += "," + std::to_string(c->hp) + "," + std::to_string(c->hex) + "]";
  }
  return o + "],\"n_cards\":" + std::to_string(cards.size()) + "}";
}

void Game::deal_hidden(int p, MT& r) {
  prune_unseen();
  auto by_card = [this](int a, int b) {
    int da = cards[(size_t)a].defn->idx, db = cards[(size_t)b].defn->idx;
    return da != db ? da < db : a < b;
  };
  auto in_pending = [this](int iid) {
    return std::find(pending.begin(), pending.end(), iid) != pending.end();
  };
  // the cards other seats gained unseen (and still hold hidden), by deck, seat by seat
  std::map<std::string, std::vector<std::pair<int, int>>> gains;  // deck -> (seat, card)
  for (auto& kv : unseen) {
    int q = kv.second.first;
    if (q == p || in_pending(kv.first) || !decks.count(kv.second.second)) continue;
    gains[kv.second.second].push_back({q, kv.first});
  }
  for (auto& kv : gains)
    std::sort(kv.second.begin(), kv.second.end(),
              [&](auto& a, auto& b) { return a.first != b.first ? a.first < b.first : by_card(a.second, b.second); });
  // each deck with its unseen gains back in it, sorted and shuffled; the gains dealt first
  std::vector<std::vector<int>> got(P);  // seat -> (old card, new card) pairs, flattened
  for (auto& kv : decks) {
    std::vector<int>& deck = kv.second;
    auto g = gains.find(kv.first);
    std::vector<int> all = deck;
    if (g != gains.end())
      for (auto& x : g->second) all.push_back(x.second);
    std::sort(all.begin(), all.end(), by_card);
    shuffle_list(all, r);
    size_t k = 0;
    if (g != gains.end())
      for (auto& x : g->second) {
        got[x.first].push_back(x.second);
        got[x.first].push_back(all[k++]);
      }
    deck.assign(all.begin() + (std::ptrdiff_t)k, all.end());
  }
  std::vector<std::pair<int, std::pair<int, std::string>>> renamed;  // the new unseen gains
  std::map<int, std::string> deck_of;        // an unseen gain's deck, by its old card
  for (auto& kv : gains)
    for (auto& x : kv.second) deck_of[x.second] = kv.first;
  for (int q = 0; q < P; ++q) {
    if (q == p) continue;
    Player& pl = players[q];
    std::vector<int> keep, pool;
    for (int iid : pl.hand) (in_pending(iid) ? keep : pool).push_back(iid);
    size_t k = pool.size();
    pool.insert(pool.end(), pl.draw.begin(), pl.draw.end());
    std::vector<int> olds, news;  // its unseen gains: the cards dealt in their place
    for (size_t j = 0; j + 1 < got[q].size(); j += 2) {
      olds.push_back(got[q][j]);
      news.push_back(got[q][j + 1]);
      pl.pvp += cards[(size_t)news.back()].defn->vp - cards[(size_t)olds.back()].defn->vp;
    }
    for (int old : olds) pool.erase(std::find(pool.begin(), pool.end(), old));
    pool.insert(pool.end(), news.begin(), news.end());
    for (int old : olds) unseen.erase(old);
    for (size_t j = 0; j < news.size(); ++j) renamed.push_back({news[j], {q, deck_of[olds[j]]}});
    std::sort(pool.begin(), pool.end(), by_card);
    shuffle_list(pool, r);
    keep.insert(keep.end(), pool.begin(), pool.begin() + (std::ptrdiff_t)k);
    pl.hand = keep;
    pl.draw.assign(pool.begin() + (std::ptrdiff_t)k, pool.end());
  }
  for (auto& x : renamed) unseen[x.first] = x.second;
  std::sort(players[p].draw.begin(), players[p].draw.end(), by_card);
  shuffle_list(players[p].draw, r);
  rng.seed((int64_t)(r.genrand() >> 1));
  for (auto& a : agents) a.seed((int64_t)(r.genrand() >> 1));
  renumber_hidden(p);  // which copy is where, canonically (search.cpp)
}

}  // namespace tn
