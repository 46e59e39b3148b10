// The state API in the native engine (see nstate.h). The rules run on a ucontext coroutine
// with a stack of its own: Game::decide calls wait(), which swaps back to the caller with the
// decision (seat, kind, each option's text and id); apply() swaps in again with the answer.
// A state dropped mid-game resumes its coroutine once with `cancel` set: wait() throws, the
// rules unwind (every local freed) and the coroutine ends before its stack is unmapped.
//
// Action ids are state_api.option_ids's, ported exactly: crc32 of "kind|repr(option_key(o))"
// modulo 2^20, a collision within the decision taking the next free id. The option texts are
// Python's reprs, built here from the native option (Game::val_repr and friends).
#include "nstate.h"

#include <sys/mman.h>

#include <cstdint>
#include <set>

namespace tn {

static const int64_t NUM_ACTIONS = 1 << 20;  // state_api.NUM_ACTIONS
static const size_t STACK = 8u << 20;        // the coroutine's stack (untouched pages cost none)

struct CrcTable {
  uint32_t t[256];
  CrcTable() {
    for (uint32_t i = 0; i < 256; ++i) {
      uint32_t c = i;
      for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
      t[i] = c;
    }
  }
};

uint32_t crc32(const std::string& s) {  // zlib.crc32
  static const CrcTable table;  // (made once, thread-safe)
  uint32_t c = 0xFFFFFFFFu;
  for (unsigned char ch : s) c = table.t[(c ^ ch) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

int64_t option_id(const std::string& kind, const std::string& repr) {
  return (int64_t)(crc32(kind + "|" + repr) % (uint32_t)NUM_ACTIONS);
}

// ---- Python's repr(option_key(x)) of the native options -------------------------------------
static std::string tuple(const std::vector<std::string>& items) {
  if (items.empty()) return "()";
  std::string o = "(";
  for (size_t k = 0; k < items.size(); ++k) {
    if (k) o += ", ";
    o += items[k];
  }
  return o + (items.size() == 1 ? ",)" : ")");
}

std::string Game::move_repr(const MoveOpt& m) const {
  static const char* const UNITS[] = {"stack", "force", "champion"};
  std::vector<std::string> path;
  for (int k = 0; k < m.len; ++k) path.push_back(std::to_string(m.path[k]));
  return tuple({py_str(UNITS[m.unit]), std::to_string(m.src), std::to_string(m.cid),
                m.nf < 0 ? "None" : std::to_string(m.nf), tuple(path)});
}

std::string Game::val_repr(const Val& v) const {
  switch (v.t) {
    case V_NULL: return "None";
    case V_INT: return std::to_string(v.i);
    case V_TRUE: return "True";
    case V_CHAMP: return "('champion', " + std::to_string(v.c->cid) + ")";
    case V_LABEL: return py_str(R.names.at((size_t)v.i));
    case V_MOVE: return move_repr(v.m);
    default: throw std::runtime_error("the state API: an option with no value");
  }
}

std::string Game::key_repr(int64_t key) const {  // a step (<step kind#uid>) or (step, sub)
  int64_t uid = key / 1024, sub = key % 1024;
  const Step* st = R.by_uid.at((size_t)uid);
  std::string base = std::string("<step ") + STEP_NAMES[st->kind] + "#" + std::to_string(uid) + ">";
  if (sub == 0) return base;
  if (sub == SUB_C) return "(" + base + ", 'c')";
  if (sub == SUB_H) return "(" + base + ", 'h')";
  return "(" + base + ", " + std::to_string(sub - 1) + ")";
}

std::string Game::action_repr(const Action& a, const std::vector<Play>& plays) const {
  switch (a.kind) {
    case A_DONE: return "('done',)";
    case A_CARD: {
      if (a.play < 0) return "('card', " + std::to_string(a.a) + ")";
      std::vector<std::string> aims;
      for (auto& x : plays[(size_t)a.play])
        aims.push_back(tuple({py_str(x.kind), val_repr(x.value), key_repr(x.key)}));
      return "('card', " + std::to_string(a.a) + ", " + tuple(aims) + ")";
    }
    case A_BRIDGE: return "('bridge', " + std::to_string(a.a) + ")";
    case A_MARCH: return "('march', " + move_repr(a.m) + ")";
    case A_REINFORCE: return "('reinforce', " + std::to_string(a.a) + ")";
    case A_ABILITY:
      return "('ability', " + std::to_string(a.a) + ", " + py_str(*a.ability) + ")";
  }
  throw std::runtime_error("the state API: an unknown action");
}

// ---- the coroutine ------------------------------------------------------------------------
struct Cancel {};  // a state dropped mid-game: unwinds the rules (not a std::exception)

static void trampoline(uint32_t lo, uint32_t hi) {
  NState* s = (NState*)(((uintptr_t)hi << 32) | (uintptr_t)lo);
  s->body();
}  // returns to uc_link: the caller's context

void NState::body() {
  try {
    if (fresh) {  // setup asks too (the Capital draft, the starting Bridges, the free card)
      g->setup(cfg.players, cfg.seed, cfg.factions, cfg.options_json);
      g->run();
    } else {
      g->run(-1);  // from the top of a round (the snapshot's point)
    }
    finished = true;
  } catch (Cancel&) {
  } catch (std::exception& e) {
    error = e.what();
  } catch (Fizzle& f) {
    error = "uncaught fizzle: " + f.why;
  } catch (...) {
    error = "uncaught";
  }
  waiting = alive = false;
  p = -1;
  n_ = 0;
  ask_ = nullptr;
  reprs.clear();
  ids.clear();
}

void NState::start(std::shared_ptr<const Game> from) {
  if (from) {
    g.reset(new Game(*from));
    g->relink(*from);
  } else {
    g.reset(new Game(R, T));
    g->opt = cfg.opt;
    g->logging = cfg.log;
    g->step_budget = g->steps_left = cfg.budget;
  }
  g->waiter = this;
  fresh = !from;
  stack_size = STACK;
  void* m = mmap(nullptr, stack_size, PROT_READ | PROT_WRITE,
                 MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (m == MAP_FAILED) throw std::runtime_error("the state API: no memory for a coroutine");
  stack = (char*)m;
  mprotect(stack, 4096, PROT_NONE);  // a guard page: an overflow faults, never corrupts
  getcontext(&co);
  co.uc_stack.ss_sp = stack;
  co.uc_stack.ss_size = stack_size;
  co.uc_link = &caller;
  uintptr_t me = (uintptr_t)this;
  makecontext(&co, (void (*)())trampoline, 2, (uint32_t)me, (uint32_t)(me >> 32));
  alive = true;
  swapcontext(&caller, &co);
}

int NState::wait(int pp, const char* k, size_t n, const Ask* ask) {
  if (!ask || !ask->repr)
    throw std::runtime_error(std::string("the state API has no option texts for ") + k);
  p = pp;
  kind = k;
  reprs.clear();
  ids.clear();
  ask_ = ask;  // (lives on the coroutine's stack while the rules wait: texts() reads it)
  n_ = n;
  waiting = true;
  swapcontext(&co, &caller);
  waiting = false;
  if (cancel) throw Cancel{};
  return answer;
}

void NState::texts() {
  if (!waiting || ids.size() == n_) return;
  reprs.clear();
  ids.clear();
  std::set<int64_t> seen;
  for (size_t i = 0; i < n_; ++i) {
    reprs.push_back(ask_->repr(i));
    int64_t a = option_id(kind, reprs.back());
    while (seen.count(a)) a = (a + 1) % NUM_ACTIONS;
    seen.insert(a);
    ids.push_back(a);
  }
}

void NState::on_round(Game& gm) {
  if (snap && snap_n == hist.size()) return;  // (a copy starting from this very snapshot)
  auto s = std::make_shared<Game>(gm);
  s->relink(gm);
  s->waiter = nullptr;
  snap = s;
  snap_n = hist.size();
}

void NState::apply(int i) {
  if (!waiting) throw std::runtime_error("the game is over: no decision is waiting");
  if (i < 0 || (size_t)i >= n_)
    throw std::runtime_error("option " + std::to_string(i) + " of " + std::to_string(n_));
  if (record) {
    who.push_back(p);
    mine[(size_t)p].push_back({kind, option_id(kind, ask_->repr((size_t)i))});
  }
  hist.push_back(i);
  answer = i;
  swapcontext(&caller, &co);
  if (waiting) {  // deals made in place while the decision reached now waited
    for (auto& d : armed)
      if (!d.step && d.at == hist.size()) deal(d.p, d.seed);
  }
}

void NState::deal(int pp, int64_t seed) {
  MT r;
  r.seed(seed);
  g->deal_hidden(pp, r);
  deals.push_back({hist.size(), pp, seed, false});
  reprs.clear();
  ids.clear();
}

void NState::on_step(Game& gm) {
  step_at = (int64_t)hist.size();
  for (auto& d : armed)
    if (d.step && d.at == hist.size()) {
      MT r;
      r.seed(d.seed);
      gm.deal_hidden(d.p, r);
      deals.push_back(d);
    }
}

int NState::index_of(int64_t id) {
  texts();
  for (size_t i = 0; i < ids.size(); ++i)
    if (ids[i] == id) return (int)i;
  return -1;
}

NState* NState::clone() const { return clone_upto(hist.size(), nullptr); }

NState* NState::clone_upto(size_t n, const Deal* step_deal) const {
  std::unique_ptr<NState> c(new NState(R, T, cfg));
  size_t from = 0;
  if (snap && snap_n <= n) {
    c->snap = snap;
    c->snap_n = from = snap_n;
    c->hist.assign(hist.begin(), hist.begin() + (std::ptrdiff_t)snap_n);
  }
  // the answers and deals it copies: each seat's own answers up to n
  c->who.assign(who.begin(), who.begin() + (std::ptrdiff_t)n);
  std::vector<size_t> count((size_t)cfg.players, 0);
  for (int q : c->who) count[(size_t)q]++;
  for (size_t q = 0; q < mine.size(); ++q)
    c->mine[q].assign(mine[q].begin(), mine[q].begin() + (std::ptrdiff_t)count[q]);
  // the deals it keeps: those made before answer n, and those made at n unless a new world
  // is dealt there; one made before the snapshot was taken is in it (made again: none)
  for (auto& d : deals) {
    if (d.at > n || (d.at == n && step_deal)) continue;
    (d.at < from ? c->deals : c->armed).push_back(d);
  }
  if (step_deal) c->armed.push_back(*step_deal);
  c->record = false;
  c->start(from ? snap : nullptr);
  for (auto& d : c->armed)  // a deal in place at the first decision
    if (!d.step && d.at == c->hist.size() && c->waiting) c->deal(d.p, d.seed);
  for (size_t k = from; k < n; ++k) {
    if (!c->waiting) throw std::runtime_error("the state API: a clone's replay ended early");
    c->apply(hist[k]);
  }
  c->record = true;
  c->armed.clear();
  return c.release();
}

NState::~NState() {
  if (alive && waiting) {  // dropped mid-game: unwind the rules on their own stack first
    cancel = true;
    swapcontext(&caller, &co);
  }
  g.reset();
  if (stack) munmap(stack, stack_size);
}

}  // namespace tn
