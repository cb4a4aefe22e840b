#include "solver/solver.h"

#include <pthread.h>

#include <algorithm>
#include <condition_variable>
#include <functional>
#include <mutex>
#include <new>
#include <optional>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "absl/time/clock.h"
#include "core/movegen.h"
#include "solver/dfpn.h"
#include "solver/tt.h"

namespace tsume {

const char* ToString(SolveStatus s) {
  switch (s) {
    case SolveStatus::kMate:
      return "mate";
    case SolveStatus::kNoMate:
      return "nomate";
    case SolveStatus::kUnknown:
      return "unknown";
  }
  return "unknown";
}

const char* ToString(LimitReason r) {
  switch (r) {
    case LimitReason::kNone:
      return "";
    case LimitReason::kNodes:
      return "nodes";
    case LimitReason::kTime:
      return "time";
    case LimitReason::kStopped:
      return "stopped";
  }
  return "";
}

namespace {

// A thread with a large stack that runs one function at a time for its owner: the search
// recurses once per ply, and the longest problems run to well over a thousand plies. It lives
// as long as the solver: a thread made for each solve (its 512 MB of address space mapped,
// its stack pages zeroed, unmapped at its end) took more system time than a mate in 3 takes
// to solve (a batch of 5,000: 0.50-0.71 s of system time against 0.43-0.56 s of user time).
class LargeStackThread {
 public:
  LargeStackThread() = default;
  LargeStackThread(const LargeStackThread&) = delete;
  LargeStackThread& operator=(const LargeStackThread&) = delete;
  ~LargeStackThread() {
    if (!started_) return;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      quit_ = true;
    }
    wake_.notify_one();
    pthread_join(thread_, nullptr);
  }

  // Runs fn there and waits for it (on the calling thread if no thread can be made).
  void Run(const std::function<void()>& fn) {
    if (!started_ && !failed_) Start();
    if (failed_) {
      fn();
      return;
    }
    std::unique_lock<std::mutex> lock(mutex_);
    job_ = &fn;
    wake_.notify_one();
    done_.wait(lock, [&] { return job_ == nullptr; });
  }

 private:
  void Start() {
    constexpr size_t kStackBytes = size_t(512) << 20;
    pthread_attr_t attr;
    pthread_attr_init(&attr);
    pthread_attr_setstacksize(&attr, kStackBytes);
    auto main = [](void* self) -> void* {
      static_cast<LargeStackThread*>(self)->Loop();
      return nullptr;
    };
    started_ = pthread_create(&thread_, &attr, main, this) == 0;
    failed_ = !started_;
    pthread_attr_destroy(&attr);
  }
  void Loop() {
    std::unique_lock<std::mutex> lock(mutex_);
    while (true) {
      wake_.wait(lock, [&] { return job_ != nullptr || quit_; });
      if (quit_) return;
      const std::function<void()>* job = job_;
      lock.unlock();
      (*job)();
      lock.lock();
      job_ = nullptr;
      done_.notify_one();
    }
  }

  std::mutex mutex_;
  std::condition_variable wake_, done_;
  const std::function<void()>* job_ = nullptr;  // guarded by mutex_
  bool quit_ = false;                           // guarded by mutex_
  bool started_ = false, failed_ = false;
  pthread_t thread_;
};

// A search's answer as a solve reports it.
SolveStatus StatusOf(const NodeResult& r) {
  return r.proven()      ? SolveStatus::kMate
         : r.disproven() ? SolveStatus::kNoMate
                         : SolveStatus::kUnknown;
}

}  // namespace

// The table's unknown entries of the two kinds of search are kept apart.
constexpr int kDepthLimitedSet = 0;
constexpr int kUnboundedSet = 1;

// Nodes of the first turn of the depth-limited search; each turn has four times the budget
// of the one before.
constexpr int64_t kFirstTurnBudget = 100000;
// The unbounded search's turn gets this many times the depth-limited turn before it. 4 rather
// than 2: Zuko at 3M nodes 157.8M -> 155.7M nodes in total (same problems exact), 寿 -1%;
// practical problems end in the first turn either way.
constexpr int64_t kUnboundedTurnFactor = 4;

// The depth-limited search's next depth: every odd length up to 63 plies, then steps of about
// a sixteenth, so a long mate is not approached two plies at a time (寿, 611 plies, took 198
// iterations to reach 389). A mate found past a skipped length is made exact by the passes
// that follow an unbounded mate.
int NextDepth(int depth) { return depth + 2 * std::max(1, depth / 32); }

// The exact passes mostly disprove (each one until the last proves a mate at most two plies
// shorter): there, OR nodes with this many plies left or fewer settle each check they pick.
// Measured on the 25 Zuko problems taking over 4M nodes: -2.6% nodes in total (geometric mean
// -3.6%), zukou-037 27.84M -> 24.49M, zukou-053 34.57M -> 31.14M, worst zukou-004 +8%; 寿 -0.3%;
// Zuko at 3M nodes -0.5%. AND nodes too: -2.2% (zukou-004 +18%); AND nodes alone -2.2%. In
// every depth-limited search: practical mate 11 +5.5% nodes.
constexpr int kExactPassSettlePlies = 5;

// Before a sweep, the pass gets this many nodes on its own: most of 寿's and Microcosmos's
// passes are settled by so few (a shorter mate the table nearly holds), and a sweep then
// would only slow them. Measured with the sweep on every line: zukou-053 35.14M -> 31.14M
// (the line of 39 swept in vain, 8.4M nodes, before a pass found 33 in 57), 寿 16.65M ->
// 16.31M.
constexpr int64_t kSweepProbeBudget = 20000;

// How many extra lines (longest defences, and mating checks near the end) line extraction
// may try, per solve, for one that leaves the attacker nothing in hand: far from the line's end
// each is a long extraction (zukou-083, 265 plies, tries 129 at 3M nodes, nearly all read from
// the table: 62 nodes); within kNearEndTiePlies of it, a search of a few plies, and problems
// with many alternative mates need more of them (a practical mate in 5 with eight rook drops
// mating at its third ply took 122 before its line using every piece was found).
constexpr int kTieBudget = 256;
constexpr int kNearEndTieBudget = 1024;
constexpr int kNearEndTiePlies = 6;

// Within this many plies of the line's end, line extraction also tries the attacker's other
// mating checks for a line that leaves nothing in hand (each try is a search that short).
constexpr int kAttackerTieMaxPlies = 5;

// Nodes for each attempt to prove a defence mated sooner than the longest while extracting a
// line (InferLongestDefence); one not proven within it is searched in full as before.
constexpr int64_t kShortMateBudget = 20000;

// One solve: the df-pn passes, the exact-length passes and the line extraction.
class SolveRun {
 public:
  SolveRun(TranspositionTable& tt, const SolveOptions& options, absl::Time start)
      : options_(options),
        start_(start),
        tt_(tt),
        search_(tt, options.rules, MakeLimits(options, start)),
        next_progress_(start + options.progress_interval) {}

  // Follow-up queries on positions reached from the root (pos carries those moves). Those of
  // verification mostly disprove, as the exact passes do (other checks that might mate in
  // time, defences that might be mated sooner): on seven of Zuko's longest verifications its
  // checks after the solve took 0.2% to 17% fewer nodes (zukou-004 128.5M -> 108.0M,
  // zukou-031 18.9M -> 15.6M), with the same findings.
  NodeResult Query(Position& pos, int depth, bool or_node) {
    return MostlyDisprovingRun(pos, depth, or_node, HistoryPathKey(pos));
  }
  std::vector<Move> Line(Position& pos, int max_plies, bool or_node,
                         std::vector<Move> preferred = {}) {
    std::vector<Move> line;
    uncounted_.clear();
    preferred_ = std::move(preferred);
    ExtractLine(pos, max_plies, or_node, HistoryPathKey(pos), line);
    preferred_.clear();
    return line;
  }
  bool limit_reached() const { return search_.limit_reached(); }
  LimitReason first_limit_reason() const { return search_.first_limit_reason(); }
  int64_t nodes() const { return search_.nodes(); }

  SolveResult Run(Position& root) {
    SolveResult result;
    Color attacker = root.side_to_move();
    if (!root.has_king(~attacker)) {
      // Without a defending king there is nothing to mate.
      result.status = SolveStatus::kNoMate;
      return Finish(result);
    }
    // Two searches take turns with growing node budgets: mates within 1, 3, 5... plies
    // (iterative deepening: a mate found so is exact while the steps are two plies, and each
    // disproof bounds the exact passes), and the unbounded search, which finds long mates far
    // sooner but tends to wander into long lines where a short mate exists. Proofs and disproofs
    // carry over from turn to turn; the unknown entries of one kind of search would mislead the
    // other and are kept apart, so each search goes on where its last turn stopped.
    int64_t budget = kFirstTurnBudget;  // the turn's; also bounds reading out a proof's line
    NodeResult r;
    if (options_.exact_length) {
      int next_depth = 1;
      for (;; budget *= 4) {
        tt_.UseUnknownSet(kDepthLimitedSet);
        int64_t turn_end = search_.nodes() + budget;
        for (int depth = next_depth; search_.nodes() < turn_end; depth = NextDepth(depth)) {
          NodeResult shallow = search_.Run(root, depth, true, 0, turn_end - search_.nodes());
          if (shallow.proven() && shallow.length - 2 > disproven_within_) {
            // Deeper steps skipped some lengths: the passes below prove the exact one.
            r = shallow;
            break;
          }
          if (shallow.proven()) {
            best_length_ = shallow.length;
            NoteFirstMate(shallow.length);
            std::vector<Move> line;
            lower_bound_known_ = true;  // the step before disproved a mate two plies shorter
            bool whole = ExtractLine(root, shallow.length, true, 0, line);
            lower_bound_known_ = false;
            if (whole) return MateWithLine(root, line, true);
            // The limits ran out while extracting: the mate without a line (the part read
            // out ends before the mate, and would pass for one).
            result.status = SolveStatus::kMate;
            result.length = shallow.length;
            result.length_exact = true;
            result.limit = search_.limit_reason();
            return Finish(result);
          }
          if (!shallow.disproven()) break;
          if (shallow.depth >= kInfiniteDepth) {
            result.status = SolveStatus::kNoMate;
            return Finish(result);
          }
          disproven_within_ = depth;
          next_depth = NextDepth(depth);
        }
        if (r.proven()) break;
        if (search_.limit_reached()) {
          result.limit = search_.limit_reason();
          return Finish(result);
        }
        tt_.UseUnknownSet(kUnboundedSet);
        r = search_.Run(root, kInfiniteDepth, true, 0, kUnboundedTurnFactor * budget);
        if (r.proven() || r.disproven() || search_.limit_reached()) break;
      }
    } else {
      r = search_.Run(root, kInfiniteDepth, true, 0);
    }
    if (r.disproven()) {
      result.status = SolveStatus::kNoMate;
      return Finish(result);
    }
    if (!r.proven()) {
      result.limit = search_.limit_reason();
      return Finish(result);
    }
    int length = r.length;
    best_length_ = length;
    NoteFirstMate(length);
    bool exact = false;
    // A line for each mate proven, read out while the proof is fresh in the table, so that
    // running out of limits in the exact passes still leaves a mate with its line.
    std::optional<FoundLine> found;
    if (options_.exact_length) {
      found = ProofLine(root, length, budget);
      // The passes go on in the unbounded search's set: its numbers led to the mate (measured
      // on Zuko: no difference either way). Shorten until a mate of two plies less is
      // disproven. (Depth-limited passes going on upwards between them were tried: no
      // difference on Zuko.)
      tt_.UseUnknownSet(kUnboundedSet);
      while (true) {
        if (length < 3 || length - 2 <= disproven_within_) {
          exact = true;
          break;
        }
        // While the mate in hand has no line yet (reading one out ran out of nodes), the pass
        // runs in slices, each twice the last, and after each another try reads the line out
        // with as many nodes: a mate with its line, not a bare length, is what the limits
        // should leave (zukou-021's first mate, 33 plies, takes about a million nodes to read
        // out, and its pass then runs out of time; found at 407k nodes, its line came only
        // after 3M nodes while the tries had half a slice each).
        NodeResult shorter;
        ExactPass& pass = exact_passes_.emplace_back();
        pass.within = length - 2;
        // One try of the pass (`try_budget` 0: no budget), its nodes counted in the pass;
        // true when it settled the pass or reached the limits.
        auto try_pass = [&](int64_t try_budget) {
          int64_t pass_start = search_.nodes();
          shorter = MostlyDisprovingRun(root, length - 2, true, 0, try_budget);
          pass.nodes += search_.nodes() - pass_start;
          return shorter.proven() || shorter.disproven() || search_.limit_reached();
        };
        bool settled = false;
        // A long line is swept before the pass (SweepLine), which needs the line: when the
        // turn's budget was too little to read it out (寿's tails, zukou-083), it gets as
        // many nodes as the solve has taken so far.
        if (!found && length >= options_.sweep_min_plies) {
          found = ProofLine(root, length, std::max(budget, search_.nodes()));
        }
        if (found && int(found->moves.size()) >= options_.sweep_min_plies) {
          settled = try_pass(kSweepProbeBudget);
          if (!settled) {
            int64_t sweep_start = search_.nodes();
            pass.sweep_shortening = SweepLine(root, *found);
            pass.sweep_nodes = search_.nodes() - sweep_start;
            pass.nodes += pass.sweep_nodes;
          }
        }
        for (int64_t slice = search_.nodes(); !settled; slice *= 2) {
          if (try_pass(found ? 0 : slice) || found) break;
          found = ProofLine(root, length, std::max(budget, slice));
        }
        pass.status = StatusOf(shorter);
        if (shorter.proven()) {
          pass.length = shorter.length;
          length = shorter.length;
          best_length_ = length;
          if (std::optional<FoundLine> line = ProofLine(root, length, budget)) found = line;
        } else if (shorter.disproven()) {
          exact = true;
          break;
        } else {
          break;
        }
      }
    }
    std::vector<Move> line;
    lower_bound_known_ = exact;
    bool whole = ExtractLine(root, length, true, 0, line);
    lower_bound_known_ = false;
    if (!whole && found) {
      // The limits ran out: report the last mate read out.
      result.status = SolveStatus::kMate;
      result.moves = found->moves;
      result.uncounted = found->uncounted;
      // The length is the proven bound; the line follows the proof, and its defences are
      // not proven longest, so it may be shorter.
      result.length = length;
      result.length_exact = exact;
      result.limit = search_.limit_reason();
      return Finish(result);
    }
    if (search_.limit_reached()) {
      // The limits ran out while extracting: the mate without a line, as above.
      result.status = SolveStatus::kMate;
      result.length = length;
      result.length_exact = exact;
      result.limit = search_.limit_reason();
      return Finish(result);
    }
    SolveResult mate = MateWithLine(root, line, exact);
    // Not proven shortest: the line follows the proof, whose defences are not proven longest
    // (it may be much shorter); the length is the proven bound.
    if (!exact) mate.length = std::max(mate.length, length);
    return mate;
  }

 private:
  // A mate with the line just extracted (its uncounted plies in uncounted_).
  SolveResult MateWithLine(Position& root, const std::vector<Move>& line, bool exact) {
    SolveResult result;
    result.status = SolveStatus::kMate;
    result.moves = line;
    result.length = int(line.size() - uncounted_.size());
    result.uncounted = uncounted_;
    result.length_exact = exact;
    // A limit may have cut short the search for a line leaving nothing in hand: the line is
    // whole, but say so.
    result.limit = search_.limit_reached() ? search_.limit_reason() : line_limit_;
    result.ties_cut = tie_budget_ran_out_ && !HandAtEnd(root, line, 0, root.side_to_move()).Empty();
    return Finish(result);
  }

  SearchLimits MakeLimits(const SolveOptions& options, absl::Time start) {
    SearchLimits limits;
    if (options.on_progress) {
      limits.on_tick = [this](int64_t nodes) { ReportProgress(nodes); };
    }
    limits.max_nodes = options.max_nodes;
    if (options.time_limit != absl::InfiniteDuration())
      limits.deadline = start + options.time_limit;
    limits.stop = options.stop;
    return limits;
  }

  void ReportProgress(int64_t nodes) {
    absl::Time now = absl::Now();
    if (now < next_progress_) return;
    next_progress_ = now + options_.progress_interval;
    SearchProgress p;
    p.nodes = nodes;
    p.elapsed = now - start_;
    p.hashfull = tt_.Fill();
    p.mate_length = best_length_;
    p.no_mate_within = std::max(disproven_within_, 0);
    p.pv = best_line_;
    options_.on_progress(p);
  }

  SolveResult Finish(SolveResult result) {
    if (result.status == SolveStatus::kMate && result.length_exact) {
      result.no_mate_within = std::max(result.length - 2, 0);
    } else if (result.status != SolveStatus::kNoMate) {
      result.no_mate_within = std::max(disproven_within_, 0);
    }
    result.nodes = search_.nodes();
    result.elapsed = absl::Now() - start_;
    result.first_mate_length = first_mate_length_;
    result.first_mate_nodes = first_mate_nodes_;
    result.exact_passes = exact_passes_;
    return result;
  }

  void NoteFirstMate(int length) {
    first_mate_length_ = length;
    first_mate_nodes_ = search_.nodes();
  }

  // Identifies the moves that led to pos, for the path-keyed repetition results.
  static uint64_t HistoryPathKey(const Position& pos) {
    uint64_t key = 0x243F6A8885A308D3ull;
    for (int i = 1; i <= pos.ply(); ++i) key = DfpnSearch::ChildPathKey(key, pos.state_at(i).move);
    return key;
  }

  // Tsume rules, a defender in check with squares between its king and the checker: whether
  // drops on a square there are useless, an attacker capture on it (as if the defender had
  // passed) mating within `depth` plies (two sooner). Asked only of drops that matter (one
  // about to be taken into a line, or not mated sooner than the longest defence): where there
  // is no such mate, the answer is a disproof, and can be dear. Asking every square up front
  // took 6.1M of Zuko's 71.8M nodes at 1M nodes per problem (8.5%), and 2.87M of Microcosmos's
  // (reading out its first line). Asked so: Microcosmos 70.24M -> 68.34M nodes, 寿 15.30M ->
  // 15.28M, Zuko at 3M nodes each 143.84M -> 141.16M (those exact in both -4.5%, the same 72
  // exact, the same lines but for one equally long defence). After an answer, callers look at
  // ExtractionStopped(): an answer cut short by the limits is not kept.
  class UselessDrops {
   public:
    UselessDrops(SolveRun& run, Position& pos, int depth, uint64_t path_key)
        : run_(run), pos_(pos), depth_(depth), path_key_(path_key) {}
    // The full answer (searching as long as it takes).
    bool Test(Square s) {
      if (!known_.Test(s)) {
        bool useless = !run_.HypotheticalMateWithin(pos_, s, depth_, path_key_).is_none();
        if (run_.ExtractionStopped()) return false;
        known_.Set(s);
        if (useless) useless_.Set(s);
      }
      return useless_.Test(s);
    }
    // Useless as far as the answer so far, or a short search, shows (a mate is mostly quick to
    // find; false may only mean "not found yet").
    bool Quick(Square s) {
      if (known_.Test(s)) return useless_.Test(s);
      if (tried_.Test(s)) return false;
      tried_.Set(s);
      if (run_.HypotheticalMateWithin(pos_, s, depth_, path_key_, kShortMateBudget).is_none()) {
        return false;
      }
      known_.Set(s);
      useless_.Set(s);
      return true;
    }

   private:
    SolveRun& run_;
    Position& pos_;
    int depth_;
    uint64_t path_key_;
    Bitboard known_, useless_, tried_;
  };

  // The searches of line extraction, within extraction_end_ when it is set (ProofLine).
  NodeResult ExtractionRun(Position& pos, int depth, bool or_node, uint64_t path_key) {
    int64_t budget = 0;
    if (extraction_end_ > 0) {
      budget = extraction_end_ - search_.nodes();
      if (budget <= 0) {
        extraction_spent_ = true;
        return NodeResult{};
      }
    }
    NodeResult r = search_.Run(pos, depth, or_node, path_key, budget);
    if (extraction_end_ > 0 && !r.proven() && !r.disproven() && !search_.limit_reached()) {
      extraction_spent_ = true;
    }
    return r;
  }
  bool ExtractionStopped() const { return search_.limit_reached() || extraction_spent_; }

  // The lines tried from one node for one that leaves the attacker nothing in hand (tsume
  // rules): the first is kept, in case none does, while the others are read out after it.
  class TiedLines {
   public:
    TiedLines(std::vector<Move>& line, std::vector<int>& uncounted)
        : line_(line),
          uncounted_(uncounted),
          line_mark_(line.size()),
          uncounted_mark_(uncounted.size()) {}
    size_t line_mark() const { return line_mark_; }
    bool kept() const { return !first_line_.empty(); }
    // Keeps the line read out since the mark if it is the first, and takes it off.
    void KeepAndRewind() {
      if (first_line_.empty()) {
        first_line_.assign(line_.begin() + line_mark_, line_.end());
        first_uncounted_.assign(uncounted_.begin() + uncounted_mark_, uncounted_.end());
      }
      line_.resize(line_mark_);
      uncounted_.resize(uncounted_mark_);
    }
    // Puts the first line back after the mark.
    void RestoreFirst() {
      line_.resize(line_mark_);
      uncounted_.resize(uncounted_mark_);
      line_.insert(line_.end(), first_line_.begin(), first_line_.end());
      uncounted_.insert(uncounted_.end(), first_uncounted_.begin(), first_uncounted_.end());
    }

   private:
    std::vector<Move>& line_;
    std::vector<int>& uncounted_;
    size_t line_mark_, uncounted_mark_;
    std::vector<Move> first_line_;
    std::vector<int> first_uncounted_;
  };
  // Whether one more tied line may be read out (each is a whole extraction: bounded per solve).
  bool TakeTieBudget(int remaining) {
    int& budget = remaining <= kNearEndTiePlies ? near_end_tie_budget_ : tie_budget_;
    if (budget <= 0) {
      tie_budget_ran_out_ = true;
      return false;
    }
    --budget;
    return true;
  }
  // The limits cut the tie-breaking short: the line stands, and the result says why.
  void NoteLineLimit() {
    if (line_limit_ == LimitReason::kNone) line_limit_ = search_.limit_reason();
  }

  // Appends a main line of exactly `remaining` plies from pos: the attacker's moves keep the
  // mate within the remaining length, the defender's moves keep it at the remaining length.
  bool ExtractLine(Position& pos, int remaining, bool or_node, uint64_t path_key,
                   std::vector<Move>& line) {
    MoveList moves;
    if (or_node) {
      GenerateChecks(pos, moves);
      // Checks the table already proves short come first: the passes before left them there.
      OrderByTable(pos, moves, remaining - 1, false);
      PutPreferredFirst(moves);
      // Tsume rules, near the end of the line: among the checks that mate in time, one whose
      // line leaves the attacker nothing in hand is preferred (G*8b rather than a mate that
      // keeps the gold), as among the longest defences. Which mating check the table offers
      // first depends on its size; without this, so did whether the line left pieces over
      // (zukou-015: verify judged it 変長, mate in 29, with 512 MB, and mate in 31 with 4 MB).
      // Only this near the end: trying the other checks costs a search for each.
      Color attacker = pos.side_to_move();
      bool prefer_empty_hand = options_.rules == Rules::kTsume && !follow_proof_ &&
                               options_.exact_length && remaining <= kAttackerTieMaxPlies &&
                               EmptyHandLineMayExist(pos, attacker, remaining);
      TiedLines ties(line, uncounted_);
      for (Move m : moves) {
        pos.DoMove(m);
        uint64_t child_path = DfpnSearch::ChildPathKey(path_key, m);
        NodeResult r = ExtractionRun(pos, remaining - 1, false, child_path);
        if (r.proven()) {
          line.push_back(m);
          bool ok = ExtractLine(pos, remaining - 1, false, child_path, line);
          pos.UndoMove();
          if (!ok || !prefer_empty_hand ||
              HandAtEnd(pos, line, ties.line_mark(), attacker).Empty()) {
            if (!ok && ties.kept()) break;  // the limits ran out: the first line stands
            return ok;
          }
          ties.KeepAndRewind();
          if (!TakeTieBudget(remaining)) break;
          continue;
        }
        pos.UndoMove();
        if (ExtractionStopped()) break;
      }
      if (!ties.kept()) return false;
      FinishTies(ties, pos, remaining);
      return true;
    }
    if (remaining <= 0) return true;  // mated (under tsume rules, only useless drops left)
    GenerateEvasions(pos, moves);
    if (moves.empty()) return true;
    Bitboard deferred;
    if (options_.rules == Rules::kTsume && pos.checkers().Count() == 1) {
      deferred = Between(pos.king_square(pos.side_to_move()), pos.checkers().Lsb());
    }
    UselessDrops useless(*this, pos, remaining - 2, path_key);
    if (follow_proof_ || !options_.exact_length)
      return ExtractProofDefence(pos, remaining, path_key, moves, deferred, useless, line);
    // The longest defence: the attacker cannot mate faster than the remaining length. A drop
    // in between counts only when its own line is that long (not longer: then it is useless).
    // The exact-length pass left a refutation of the shorter mate in the table: try it first.
    OrderByTable(pos, moves, remaining - 3, true);
    PutPreferredFirst(moves);
    int inferred_longest = InferLongestDefence(pos, remaining, path_key, moves, deferred, useless);
    if (inferred_longest < 0 && ExtractionStopped()) return false;
    // Tsume rules: among the longest defences, one whose line leaves the attacker nothing in
    // hand (駒余り) is preferred; the first longest line is kept in case none does.
    Color attacker = ~pos.side_to_move();
    bool seek_empty_hand =
        options_.rules == Rules::kTsume && EmptyHandLineMayExist(pos, attacker, remaining);
    TiedLines ties(line, uncounted_);
    for (int i = 0; i < moves.size(); ++i) {
      Move m = moves[i];
      bool interposition = IsDeferrableDrop(m, deferred);
      if (interposition && useless.Quick(m.to())) continue;
      pos.DoMove(m);
      uint64_t child_path = DfpnSearch::ChildPathKey(path_key, m);
      bool longest =
          i == inferred_longest || ExtractionRun(pos, remaining - 3, true, child_path).disproven();
      if (longest && interposition) {
        pos.UndoMove();
        bool useless_drop = useless.Test(m.to());
        pos.DoMove(m);
        longest = !useless_drop && !ExtractionStopped() &&
                  ExtractionRun(pos, remaining - 1, true, child_path).proven();
      }
      if (longest) {
        line.push_back(m);
        bool ok = ExtractLine(pos, remaining - 1, true, child_path, line);
        bool pieces_left = ok && !HandAtEnd(pos, line, ties.line_mark() + 1, attacker).Empty();
        pos.UndoMove();
        if (!ok) {
          if (!ties.kept()) return false;
          // The limits ran out: the first longest line stands, and the result says why.
          NoteLineLimit();
          ties.RestoreFirst();
          return true;
        }
        if (!seek_empty_hand || !pieces_left) return true;
        ties.KeepAndRewind();
        if (!TakeTieBudget(remaining)) break;
        continue;
      }
      pos.UndoMove();
      if (ExtractionStopped()) break;
    }
    if (ties.kept()) {
      FinishTies(ties, pos, remaining);
      return true;
    }
    if (ExtractionStopped()) return false;
    // Every longest line goes through a useless drop: show the drop and its capture (they do
    // not count), then go on from the position after the capture with the same length.
    for (Move m : moves) {
      // A square whose capture mates sooner is not the longest defence.
      if (!IsDeferrableDrop(m, deferred)) continue;
      bool useless_drop = useless.Test(m.to());
      if (ExtractionStopped()) return false;
      if (useless_drop) continue;
      Move capture = HypotheticalMateWithin(pos, m.to(), remaining, path_key);
      if (capture.is_none()) continue;
      pos.DoMove(m);
      uncounted_.push_back(int(line.size()));
      line.push_back(m);
      uncounted_.push_back(int(line.size()));
      line.push_back(capture);
      pos.DoMove(capture);
      uint64_t child_path =
          DfpnSearch::ChildPathKey(DfpnSearch::ChildPathKey(path_key, m), capture);
      bool ok = ExtractLine(pos, remaining, false, child_path, line);
      pos.UndoMove();
      pos.UndoMove();
      return ok;
    }
    return false;
  }

  // When this defender node is known not to be mated within remaining - 2 plies (an exact
  // line: the passes disproved a mate two plies shorter at the root, and each step down keeps
  // that true), a defence is the longest once every other one is found mated sooner: proving
  // those short mates is cheap, where disproving the longest one at remaining - 3 plies is a
  // search of the whole rest of the line, repeated at every defender move (reading out
  // Microcosmos's 1525-ply line so had reached ply 300 after 12 minutes). Returns the index in
  // `moves` of that defence, or -1 (not known: no bound, or several defences not quickly mated).
  int InferLongestDefence(Position& pos, int remaining, uint64_t path_key, const MoveList& moves,
                          Bitboard deferred, UselessDrops& useless) {
    if (!lower_bound_known_ || remaining < 4) return -1;
    // The defences not yet known to be useless drops.
    auto eligible = [&](Move m) {
      return !IsDeferrableDrop(m, deferred) || !useless.Quick(m.to());
    };
    int first = -1, count = 0;
    for (int i = 0; i < moves.size(); ++i) {
      if (!eligible(moves[i])) continue;
      if (first < 0) first = i;
      ++count;
    }
    if (search_.limit_reached() || count == 0) return -1;
    if (count == 1) return first;
    // The table already refutes the first one (they come first): nothing to infer.
    pos.DoMove(moves[first]);
    bool refuted = search_.Peek(pos, remaining - 3, true).disproven();
    pos.UndoMove();
    if (refuted) return -1;
    int candidate = -1;
    for (int i = first; i < moves.size(); ++i) {
      Move m = moves[i];
      bool drop = IsDeferrableDrop(m, deferred);
      if (!eligible(m)) continue;
      pos.DoMove(m);
      NodeResult r = search_.Run(pos, remaining - 3, true, DfpnSearch::ChildPathKey(path_key, m),
                                 kShortMateBudget);
      pos.UndoMove();
      if (search_.limit_reached()) return -1;
      if (r.proven()) continue;
      // A drop mated sooner is not the longest, useless or not: only one that is not needs
      // the answer.
      if (drop) {
        bool useless_drop = useless.Test(m.to());
        if (ExtractionStopped()) return -1;
        if (useless_drop) continue;
      }
      if (candidate >= 0) return -1;
      candidate = i;
    }
    return candidate;
  }

  // Whether a line of `remaining` plies from pos may leave the attacker's hand empty, so that
  // tying lines are worth trying: each attacker move drops at most one piece (a capture adds
  // one), and a position where every line tried left pieces is not tried again.
  bool EmptyHandLineMayExist(const Position& pos, Color attacker, int remaining) const {
    int attacker_moves = pos.side_to_move() == attacker ? (remaining + 1) / 2 : remaining / 2;
    return pos.hand(attacker).Total() <= attacker_moves &&
           !no_empty_hand_line_.contains({pos.key(), remaining});
  }
  // The tie-breaking at a node is over and the first line kept stands: put it back, and say
  // why no other was taken (a limit), or remember that none leaves the hand empty.
  void FinishTies(TiedLines& ties, const Position& pos, int remaining) {
    if (ExtractionStopped()) {
      NoteLineLimit();
    } else if (!tie_budget_ran_out_) {  // every tie was tried
      no_empty_hand_line_.insert({pos.key(), remaining});
    }
    ties.RestoreFirst();
  }
  // The attacker's hand after playing line[from...] from pos (pos is left as it was).
  static Hand HandAtEnd(Position& pos, const std::vector<Move>& line, size_t from, Color attacker) {
    for (size_t i = from; i < line.size(); ++i) pos.DoMove(line[i]);
    Hand hand = pos.hand(attacker);
    for (size_t i = from; i < line.size(); ++i) pos.UndoMove();
    return hand;
  }

  struct FoundLine {
    std::vector<Move> moves;
    std::vector<int> uncounted;
  };
  // The line of a mate just proven within `length`, following the proof (not proven to be
  // the longest defence); none if the limits or `budget` nodes run out (following a proof can
  // cost more than finding it: zukou-079's first mate took 36 million nodes to follow).
  std::optional<FoundLine> ProofLine(Position& root, int length, int64_t budget) {
    follow_proof_ = true;
    extraction_end_ = search_.nodes() + budget;
    extraction_spent_ = false;
    uncounted_.clear();
    FoundLine line;
    bool ok = ExtractLine(root, length, true, 0, line.moves);
    follow_proof_ = false;
    extraction_end_ = 0;
    extraction_spent_ = false;
    line.uncounted = std::move(uncounted_);
    uncounted_.clear();
    if (!ok) return std::nullopt;
    best_line_ = line.moves;
    return line;
  }

  // Puts first the moves whose resulting position the table already settles the useful way:
  // for checks (child_or false: the child is an AND node) a proof within `depth`, shortest
  // first; for defences a disproof at `depth`.
  void OrderByTable(Position& pos, MoveList& moves, int depth, bool child_or) {
    if (depth < 0) return;
    std::vector<std::pair<int, Move>> scored;
    scored.reserve(moves.size());
    for (Move m : moves) {
      pos.DoMove(m);
      NodeResult r = search_.Peek(pos, depth, child_or);
      pos.UndoMove();
      int score = child_or ? (r.disproven() ? 0 : 1) : (r.proven() ? r.length : kInfiniteDepth);
      scored.emplace_back(score, m);
    }
    std::stable_sort(scored.begin(), scored.end(),
                     [](const auto& a, const auto& b) { return a.first < b.first; });
    moves.clear();
    for (const auto& [score, m] : scored) moves.push_back(m);
  }

  // Before a pass over a long line: from the line's end upwards, each position with the
  // attacker to move is asked for a mate shorter than the line leaves it (the part of the line
  // above shortened by the mates found below), again while one is found. The pass then finds
  // the table holding, near the line, the disproofs at the depths it needs, and the shorter
  // mates. A pass from the root reaches a detour deep in the line only through every position
  // above it, each time its thresholds send it back down, and the disproofs it leaves on the
  // way hold only as deep as that descent had plies left. Microcosmos (1 GB): its 18 passes
  // took 42.5M nodes, each finding one detour but the last; with the sweep, one sweep found
  // them all (33.3M nodes) and its passes took 25k; 82.07M -> 72.85M nodes in all. 寿 -1.7%.
  // The line's uncounted plies are not asked about. Returns the plies the shorter mates found
  // take off the line.
  int SweepLine(const Position& root, const FoundLine& found) {
    const std::vector<Move>& moves = found.moves;
    int n = int(moves.size());
    std::vector<bool> uncounted(n, false);
    for (int i : found.uncounted) uncounted[i] = true;
    Position pos = root;
    for (Move m : moves) pos.DoMove(m);
    int remaining = 0;  // counted plies of the line from ply i on
    int saved = 0;      // plies the mates found below take off the line
    for (int i = n - 1; i >= 1; --i) {
      pos.UndoMove();
      if (!uncounted[i]) ++remaining;
      // The attacker moves at even plies (an uncounted drop and its capture keep the parity).
      if (i % 2 != 0 || uncounted[i]) continue;
      int length = remaining - saved;
      if (length < 5) continue;  // three plies or fewer left: cheap for the pass itself
      uint64_t path_key = HistoryPathKey(pos);
      for (;;) {
        NodeResult shorter = MostlyDisprovingRun(pos, length - 2, true, path_key);
        if (search_.limit_reached()) return saved;
        if (!shorter.proven()) break;
        saved += length - shorter.length;
        length = shorter.length;
      }
    }
    return saved;
  }

  // A depth-limited search expected to end mostly in disproofs: OR nodes near the limit settle
  // each check they pick.
  // `budget` > 0: give up after that many nodes (unknown, not a limit).
  NodeResult MostlyDisprovingRun(Position& pos, int depth, bool or_node, uint64_t path_key,
                                 int64_t budget = 0) {
    search_.set_settle_or_plies(kExactPassSettlePlies);
    NodeResult r = search_.Run(pos, depth, or_node, path_key, budget);
    search_.set_settle_or_plies(0);
    return r;
  }

  // Moves of preferred_ first, the others in the order given: among equally good moves the
  // line takes the first.
  void PutPreferredFirst(MoveList& moves) const {
    if (preferred_.empty()) return;
    std::stable_partition(moves.begin(), moves.end(), [&](Move m) {
      return std::find(preferred_.begin(), preferred_.end(), m) != preferred_.end();
    });
  }

  // First-mate mode: the length is only an upper bound, so follow the proof instead of the
  // longest defence: the reply whose own mate is the longest the search has found (the first
  // of those generated among equals), not a useless drop.
  bool ExtractProofDefence(Position& pos, int remaining, uint64_t path_key, const MoveList& moves,
                           Bitboard deferred, UselessDrops& useless, std::vector<Move>& line) {
    struct Proven {
      Move move;
      int length;
    };
    std::vector<Proven> proven;
    for (Move m : moves) {
      if (IsDeferrableDrop(m, deferred) && useless.Quick(m.to())) continue;
      if (ExtractionStopped()) return false;
      pos.DoMove(m);
      NodeResult r = ExtractionRun(pos, remaining - 1, true, DfpnSearch::ChildPathKey(path_key, m));
      pos.UndoMove();
      if (ExtractionStopped()) return false;
      if (r.proven()) proven.push_back({m, r.length});
    }
    std::stable_sort(proven.begin(), proven.end(),
                     [](const Proven& a, const Proven& b) { return a.length > b.length; });
    for (const Proven& p : proven) {
      if (IsDeferrableDrop(p.move, deferred)) {
        bool useless_drop = useless.Test(p.move.to());
        if (ExtractionStopped()) return false;
        if (useless_drop) continue;
      }
      pos.DoMove(p.move);
      line.push_back(p.move);
      bool ok = ExtractLine(pos, p.length, true, DfpnSearch::ChildPathKey(path_key, p.move), line);
      pos.UndoMove();
      return ok;
    }
    return false;
  }

  // Tsume rules: an attacker capture on s (played as if the defender had passed, keeping the
  // piece it would drop there) that mates within `depth` plies, or none. `quick_budget` > 0:
  // each capture gets at most that many nodes, outside the extraction's budget (a capture not
  // settled by then counts as none).
  Move HypotheticalMateWithin(Position& pos, Square s, int depth, uint64_t path_key,
                              int64_t quick_budget = 0) {
    if (depth < 0) return Move::None();
    MoveList captures;
    HypotheticalCaptures(pos, s, captures);
    for (Move capture : captures) {
      if (quick_budget > 0 && search_.limit_reached()) break;
      EnterHypothetical(pos, capture);
      // Same path key as the search's hypothetical child, so path-keyed results are shared.
      uint64_t child_path = DfpnSearch::ChildPathKey(~path_key, capture);
      NodeResult r = quick_budget > 0 ? search_.Run(pos, depth, false, child_path, quick_budget)
                                      : ExtractionRun(pos, depth, false, child_path);
      LeaveHypothetical(pos);
      if (r.proven()) return capture;
      if (quick_budget == 0 && ExtractionStopped()) break;
    }
    return Move::None();
  }

  const SolveOptions& options_;
  absl::Time start_;
  TranspositionTable& tt_;
  DfpnSearch search_;
  absl::Time next_progress_;
  std::vector<int> uncounted_;  // indices of useless drops and their captures in the line
  // Longest defences tried beyond the first for their 駒余り, per solve (each extracts a line).
  int tie_budget_ = kTieBudget;
  int near_end_tie_budget_ = kNearEndTieBudget;
  bool tie_budget_ran_out_ = false;
  // Positions (key, counted plies left) where every line tried left pieces in hand: later
  // extractions reaching them (other mating moves transpose) take the first line at once.
  absl::flat_hash_set<std::pair<uint64_t, int>> no_empty_hand_line_;
  LimitReason line_limit_ = LimitReason::kNone;  // a limit that cut the tie-breaking short
  int64_t extraction_end_ = 0;      // node count ending line extraction's searches (0: none)
  bool extraction_spent_ = false;   // that budget ran out
  bool follow_proof_ = false;       // ExtractLine follows the proof, not the longest defence
  bool lower_bound_known_ = false;  // ExtractLine's remaining length is proven minimal
  std::vector<Move> preferred_;     // moves a line takes when they are as good as any
  int best_length_ = 0;             // the shortest mate proven so far, for progress reports
  int disproven_within_ = -1;       // the deepest "no mate within" proven at the root
  std::vector<Move> best_line_;     // the line of the last mate read out, for progress reports
  int first_mate_length_ = 0;       // for SolveResult's account of the exact passes
  int64_t first_mate_nodes_ = 0;
  std::vector<ExactPass> exact_passes_;
};

class Solver::Impl {
 public:
  explicit Impl(const SolveOptions& options) : tt(options.hash_mb) {}
  TranspositionTable tt;
  std::unique_ptr<SolveRun> run;  // the last solve, kept for follow-up queries
  LargeStackThread search_thread;
};

Solver::Solver(SolveOptions options)
    : options_(std::move(options)), impl_(std::make_unique<Impl>(options_)) {}
Solver::~Solver() = default;

absl::StatusOr<std::unique_ptr<Solver>> Solver::Create(SolveOptions options) {
  int64_t megabytes = options.hash_mb;
  try {
    return std::make_unique<Solver>(std::move(options));
  } catch (const std::bad_alloc&) {
    return absl::ResourceExhaustedError(
        absl::StrCat("cannot reserve ", megabytes, " MB for the table: not enough memory"));
  }
}

void Solver::set_options(const SolveOptions& options) {
  bool resize = options.hash_mb != options_.hash_mb;
  options_ = options;
  if (resize) impl_ = std::make_unique<Impl>(options_);
}

SolveResult Solver::Solve(const Position& root) {
  impl_->tt.Clear();
  absl::Time start = absl::Now();
  SolveResult result;
  Position pos = root;
  impl_->run = std::make_unique<SolveRun>(impl_->tt, options_, start);
  impl_->search_thread.Run([&] { result = impl_->run->Run(pos); });
  result.hashfull = impl_->tt.Fill();
  return result;
}

void Solver::StartQueries() {
  impl_->tt.Clear();
  impl_->run = std::make_unique<SolveRun>(impl_->tt, options_, absl::Now());
}

SolveStatus Solver::MateWithin(const Position& pos, int max_plies, bool attacker_to_move) {
  if (!impl_->run) impl_->run = std::make_unique<SolveRun>(impl_->tt, options_, absl::Now());
  Position copy = pos;
  NodeResult r;
  impl_->search_thread.Run([&] { r = impl_->run->Query(copy, max_plies, attacker_to_move); });
  return StatusOf(r);
}

std::vector<Move> Solver::MateLine(const Position& pos, int max_plies, bool attacker_to_move,
                                   std::vector<Move> preferred) {
  if (!impl_->run) impl_->run = std::make_unique<SolveRun>(impl_->tt, options_, absl::Now());
  Position copy = pos;
  std::vector<Move> line;
  impl_->search_thread.Run(
      [&] { line = impl_->run->Line(copy, max_plies, attacker_to_move, std::move(preferred)); });
  return line;
}

bool Solver::limit_reached() const { return impl_->run && impl_->run->limit_reached(); }

LimitReason Solver::first_limit_reason() const {
  return impl_->run ? impl_->run->first_limit_reason() : LimitReason::kNone;
}

int64_t Solver::nodes() const { return impl_->run ? impl_->run->nodes() : 0; }

}  // namespace tsume
