// The state API in the native engine (nstate.cpp): a game that waits for an action, in
// OpenSpiel's convention, as engine/state_api.py's TetherState does in Python.
#pragma once
#include <ucontext.h>

#include <memory>

#include "game.h"

namespace tn {

struct StateCfg {  // what sets a game up (new_state's arguments)
  int players = 2;
  int64_t seed = 0;
  std::vector<std::string> factions;
  Options opt;
  std::string options_json;
  bool log = false;
  int64_t budget = STEP_BUDGET;
};

// One game on a coroutine of its own (ucontext): every decision suspends the rules (wait)
// until apply() answers it. clone() copies the last round-start snapshot of the Game and
// re-runs this round's answers in a coroutine of the copy's own.
struct NState : Waiter {
  Rules& R;
  const Topo& T;
  StateCfg cfg;
  std::unique_ptr<Game> g;
  std::shared_ptr<const Game> snap;  // the Game as the last round started (shared by clones)
  size_t snap_n = 0;                 // hist.size() then
  std::vector<int> hist;             // every answer: the option index
  std::vector<int> who;              // the seat of each answer
  // each seat's own answers: (kind, the option's id before collisions: state_api.option_id),
  // the part of its information state that is its own (information_state_string)
  std::vector<std::vector<std::pair<std::string, int64_t>>> mine;
  bool record = true;                // (off while a clone re-runs answers it copied)
  int64_t step_at = -1;              // hist.size() as the current Action Step started
  // worlds dealt for one seat (resample_from_infostate): after `at` answers, in place while
  // waiting, or (step) as the Action Step starting there starts, before any seat chooses
  struct Deal {
    size_t at;
    int p;
    int64_t seed;
    bool step;
  };
  std::vector<Deal> deals;           // in the order made
  std::vector<Deal> armed;           // step deals a re-run makes when their step starts
  // the waiting decision
  int p = -1;
  std::string kind;
  std::vector<std::string> reprs;    // each option as Python's repr(option_key(option))
  std::vector<int64_t> ids;          // its stable action id (state_api.option_ids)
  // (reprs and ids are made when first asked for: a playout answering by index needs none)
  const Ask* ask_ = nullptr;
  size_t n_ = 0;                     // the waiting decision's number of options
  bool waiting = false, finished = false, cancel = false, alive = false, fresh = true;
  std::string error;                 // why the rules stopped (an engine error), or ""
  int answer = 0;
  ucontext_t caller{}, co{};
  char* stack = nullptr;
  size_t stack_size = 0;

  NState(Rules& r, const Topo& t, const StateCfg& c) : R(r), T(t), cfg(c), mine((size_t)c.players) {}
  ~NState() override;
  NState(const NState&) = delete;
  NState& operator=(const NState&) = delete;
  void start(std::shared_ptr<const Game> from);  // from a snapshot, or set up (null)
  void apply(int i);                             // answer the waiting decision
  int index_of(int64_t id);                      // the option with action id `id`, or -1
  void texts();                                  // reprs and ids of the waiting decision
  NState* clone() const;
  // a copy of this state after its first n answers; with step_deal, a world dealt for seat
  // p from `seed` as the Action Step starting there starts (replacing one made there)
  NState* clone_upto(size_t n, const Deal* step_deal) const;
  void deal(int p, int64_t seed);                // in place, while waiting (Deal, step false)
  void on_step(Game& g) override;
  int wait(int p, const char* kind, size_t n, const Ask* ask) override;
  void on_round(Game& g) override;
  void body();
};

uint32_t crc32(const std::string& s);
int64_t option_id(const std::string& kind, const std::string& repr);

}  // namespace tn
