// The mate solver: df-pn over checks (attacker) and evasions (defender), with an exact-length
// pass so the reported mate is the attacker's shortest against the defender's longest defence.
#ifndef TSUME_SOLVER_SOLVER_H_
#define TSUME_SOLVER_SOLVER_H_

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "core/position.h"
#include "core/types.h"

namespace tsume {

// Which defences count toward the length.
enum class Rules {
  kTsume,  // tsume-shogi conventions: useless interpositions do not count
  kGame,   // every legal defence counts (practical problems)
};

struct SearchProgress {
  int64_t nodes = 0;
  absl::Duration elapsed;
  double hashfull = 0;     // fraction of the table in use, 0..1
  std::vector<Move> pv;    // current best line, when known
  int mate_length = 0;     // the best mate length proven so far (0 = none yet)
  int no_mate_within = 0;  // the deepest length proven free of mates so far (0 = none yet)
};

struct SolveOptions {
  int64_t max_nodes = 0;  // 0: no node limit
  absl::Duration time_limit = absl::InfiniteDuration();
  int64_t hash_mb = 256;
  Rules rules = Rules::kTsume;
  // Prove the length exact (re-search for shorter mates). Off: first mate found.
  bool exact_length = true;
  // Lines at least this many plies long are swept before each exact pass: the positions along
  // the line are asked for shorter mates from its end up, so that the pass finds the
  // table ready (Microcosmos -11% nodes). Shorter lines gain nothing from it (Zuko at 3M
  // nodes, every line swept: +0.9%).
  int sweep_min_plies = 100;
  // Set to true from another thread to stop the search; the result is then kUnknown (or a
  // mate whose length is not yet proven shortest).
  const std::atomic<bool>* stop = nullptr;
  // Called about every `progress_interval` from the search thread.
  std::function<void(const SearchProgress&)> on_progress;
  absl::Duration progress_interval = absl::Seconds(1);
};

enum class SolveStatus { kMate, kNoMate, kUnknown };
enum class LimitReason { kNone, kNodes, kTime, kStopped };

// One pass of the exact-length search: is there a mate within `within` plies?
struct ExactPass {
  int within = 0;
  SolveStatus status = SolveStatus::kUnknown;  // kUnknown: the limits ended it
  int length = 0;                              // the mate proven, when kMate
  int64_t nodes = 0;                           // searched in the pass, its sweep included
  // A long line is swept before its pass (the positions along it asked for shorter mates,
  // from the end up): the nodes of `nodes` that took (0: no sweep), and the plies the
  // shorter mates it found took off the line.
  int64_t sweep_nodes = 0;
  int sweep_shortening = 0;
};

const char* ToString(SolveStatus s);  // "mate", "nomate", "unknown"
const char* ToString(LimitReason r);  // "", "nodes", "time", "stopped"

struct SolveResult {
  SolveStatus status = SolveStatus::kUnknown;
  LimitReason limit = LimitReason::kNone;  // why the search stopped early, if it did
  // The main line (attacker first) when kMate; empty when the limits ran out before any line
  // was read out. Under tsume rules it may contain a useless drop and its capture, which are
  // shown (so the line replays legally) but not counted.
  std::vector<Move> moves;
  std::vector<int> uncounted;  // indices in `moves` of those uncounted plies
  // The mate length under the rules. When a limit cut the exact passes short (limit set,
  // length_exact false) it is the proven upper bound, and `moves` is the line of that proof,
  // whose defences are not proven longest: it may count fewer plies.
  int length = 0;
  bool length_exact = false;  // length proven minimal under the rules
  // Tsume rules: the line leaves pieces in the attacker's hand, and the budget for trying
  // other lines as long ran out before all were tried: one of them may leave nothing.
  bool ties_cut = false;
  // A proven lower bound: no mate within this many plies (0: none proven). Length - 2 for an
  // exact mate; after the limits stopped a solve, what its searches had disproven by then.
  int no_mate_within = 0;
  int64_t nodes = 0;
  absl::Duration elapsed;
  double hashfull = 0;
  // Where an exact length's nodes went. The first mate proven (0: none), with the nodes
  // searched by then; when it was not yet known to be shortest, the passes that followed,
  // each for a mate two plies shorter than the last one proven.
  int first_mate_length = 0;
  int64_t first_mate_nodes = 0;
  std::vector<ExactPass> exact_passes;
};

// One solver owns its table; reuse it for several problems (the table is cleared per problem,
// so answers never depend on the order). Not thread-safe: one search at a time.
class Solver {
 public:
  // Throws std::bad_alloc when the system cannot reserve the table's memory; Create says so
  // in a status instead.
  explicit Solver(SolveOptions options);
  // A solver, or ResourceExhausted naming the table size the system refused (a `--hash-mb`
  // beyond what the machine can map).
  static absl::StatusOr<std::unique_ptr<Solver>> Create(SolveOptions options);
  ~Solver();
  Solver(const Solver&) = delete;
  Solver& operator=(const Solver&) = delete;

  const SolveOptions& options() const { return options_; }
  void set_options(const SolveOptions& options);

  // Solves the position with the side to move as the attacker. The root must not have the
  // side not to move in check (Position guarantees this).
  SolveResult Solve(const Position& root);

  // Starts queries without a solve: the table is cleared and the limits of the options count
  // from now, as for a Solve. Queries before any Solve (or after this) go on from here.
  void StartQueries();

  // Follow-up queries after Solve(root), on positions reached from root (`pos` carries the
  // moves from root, so repetitions are judged on the real history). They share the table and
  // the time and node limits of that solve.
  // Is there a mate within `max_plies`? `attacker_to_move`: the side to move attacks (else it
  // defends, in check).
  SolveStatus MateWithin(const Position& pos, int max_plies, bool attacker_to_move);
  // A main line of at most `max_plies` (empty when none is found within the limits). Where
  // moves of `preferred` are as good as the others (an attacker move that mates in time, a
  // defence that holds out as long), the line takes them: verification reads an alternative
  // mate with the main line's moves, to see whether it only changes their order.
  std::vector<Move> MateLine(const Position& pos, int max_plies, bool attacker_to_move,
                             std::vector<Move> preferred = {});
  // True when the last query stopped on a limit.
  bool limit_reached() const;
  // The first limit that stopped the last Solve or a query since (kNone: none did). Once one
  // is reached, later queries mostly stop on it too, but not all: one needing few nodes may
  // finish without looking at the clock.
  LimitReason first_limit_reason() const;
  // Nodes searched by the last Solve and every follow-up query since (0 before any).
  int64_t nodes() const;

 private:
  class Impl;
  SolveOptions options_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace tsume

#endif  // TSUME_SOLVER_SOLVER_H_
