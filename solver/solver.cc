#include "solver/solver.h"

#include <pthread.h>

#include <optional>

#include "absl/time/clock.h"
#include "core/movegen.h"
#include "solver/dfpn.h"
#include "solver/tt.h"

namespace tsume {

const char* ToString(SolveStatus s) {
  switch (s) {
    case SolveStatus::kMate: return "mate";
    case SolveStatus::kNoMate: return "nomate";
    case SolveStatus::kUnknown: return "unknown";
  }
  return "unknown";
}

const char* ToString(LimitReason r) {
  switch (r) {
    case LimitReason::kNone: return "";
    case LimitReason::kNodes: return "nodes";
    case LimitReason::kTime: return "time";
    case LimitReason::kStopped: return "stopped";
  }
  return "";
}

namespace {

// Runs fn on a thread with a large stack: the search recurses once per ply, and the longest
// problems run to well over a thousand plies.
void RunWithLargeStack(const std::function<void()>& fn) {
  constexpr size_t kStackBytes = size_t(512) << 20;
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, kStackBytes);
  pthread_t thread;
  auto trampoline = [](void* arg) -> void* {
    (*static_cast<const std::function<void()>*>(arg))();
    return nullptr;
  };
  if (pthread_create(&thread, &attr, trampoline, const_cast<std::function<void()>*>(&fn)) != 0) {
    fn();  // fall back to the calling thread
  } else {
    pthread_join(thread, nullptr);
  }
  pthread_attr_destroy(&attr);
}

}  // namespace

class Solver::Impl {
 public:
  explicit Impl(const SolveOptions& options) : tt(options.hash_mb) {}
  TranspositionTable tt;
};

Solver::Solver(SolveOptions options)
    : options_(std::move(options)), impl_(std::make_unique<Impl>(options_)) {}
Solver::~Solver() = default;

void Solver::set_options(const SolveOptions& options) {
  bool resize = options.hash_mb != options_.hash_mb;
  options_ = options;
  if (resize) impl_ = std::make_unique<Impl>(options_);
}

namespace {

// One solve: the df-pn passes, the exact-length passes and the line extraction.
class SolveRun {
 public:
  SolveRun(TranspositionTable& tt, const SolveOptions& options, absl::Time start)
      : options_(options), start_(start), search_(tt, options.rules, MakeLimits(options, start)) {}

  SolveResult Run(Position& root) {
    SolveResult result;
    Color attacker = root.side_to_move();
    if (!root.has_king(~attacker)) {
      // Without a defending king there is nothing to mate.
      result.status = SolveStatus::kNoMate;
      return Finish(result);
    }
    NodeResult r = search_.Run(root, kInfiniteDepth, true, 0);
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
    bool exact = false;
    if (options_.exact_length) {
      // Shorten until a mate of two plies less is disproven.
      while (true) {
        if (length < 3) {
          exact = true;
          break;
        }
        NodeResult shorter = search_.Run(root, length - 2, true, 0);
        if (shorter.proven()) {
          length = shorter.length;
          best_length_ = length;
        } else if (shorter.disproven()) {
          exact = true;
          break;
        } else {
          break;
        }
      }
    }
    std::vector<Move> line;
    if (!ExtractLine(root, length, true, 0, line)) {
      // The limits ran out while extracting: report the mate without a full line.
      result.status = SolveStatus::kMate;
      result.length = length;
      result.length_exact = exact;
      result.moves = line;
      result.limit = search_.limit_reason();
      return Finish(result);
    }
    result.status = SolveStatus::kMate;
    result.moves = line;
    result.length = int(line.size());
    result.length_exact = exact;
    return Finish(result);
  }

 private:
  static SearchLimits MakeLimits(const SolveOptions& options, absl::Time start) {
    SearchLimits limits;
    limits.max_nodes = options.max_nodes;
    if (options.time_limit != absl::InfiniteDuration()) limits.deadline = start + options.time_limit;
    limits.stop = options.stop;
    return limits;
  }

  SolveResult Finish(SolveResult result) {
    result.nodes = search_.nodes();
    result.elapsed = absl::Now() - start_;
    return result;
  }

  // Appends a main line of exactly `remaining` plies from pos: the attacker's moves keep the
  // mate within the remaining length, the defender's moves keep it at the remaining length.
  bool ExtractLine(Position& pos, int remaining, bool or_node, uint64_t path_key,
                   std::vector<Move>& line) {
    MoveList moves;
    if (or_node) {
      GenerateChecks(pos, moves);
      for (Move m : moves) {
        pos.DoMove(m);
        uint64_t child_path = DfpnSearch::ChildPathKey(path_key, m);
        NodeResult r = search_.Run(pos, remaining - 1, false, child_path);
        if (r.proven()) {
          line.push_back(m);
          bool ok = ExtractLine(pos, remaining - 1, false, child_path, line);
          pos.UndoMove();
          return ok;
        }
        pos.UndoMove();
        if (search_.limit_reached()) return false;
      }
      return false;
    }
    GenerateEvasions(pos, moves);
    if (moves.empty()) return true;
    for (Move m : moves) {
      pos.DoMove(m);
      uint64_t child_path = DfpnSearch::ChildPathKey(path_key, m);
      // The longest defence: the attacker cannot mate faster than the remaining length.
      NodeResult r = search_.Run(pos, remaining - 3, true, child_path);
      if (r.disproven()) {
        line.push_back(m);
        bool ok = ExtractLine(pos, remaining - 1, true, child_path, line);
        pos.UndoMove();
        return ok;
      }
      pos.UndoMove();
      if (search_.limit_reached()) return false;
    }
    return false;
  }

  const SolveOptions& options_;
  absl::Time start_;
  DfpnSearch search_;
  int best_length_ = 0;  // progress reporting
};

}  // namespace

SolveResult Solver::Solve(const Position& root) {
  impl_->tt.Clear();
  absl::Time start = absl::Now();
  SolveResult result;
  Position pos = root;
  RunWithLargeStack([&] {
    SolveRun run(impl_->tt, options_, start);
    result = run.Run(pos);
  });
  result.hashfull = impl_->tt.Fill();
  return result;
}

}  // namespace tsume
