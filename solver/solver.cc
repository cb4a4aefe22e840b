#include "solver/solver.h"

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

class Solver::Impl {};

Solver::Solver(SolveOptions options) : options_(std::move(options)) {}
Solver::~Solver() = default;
void Solver::set_options(const SolveOptions& options) { options_ = options; }
SolveResult Solver::Solve(const Position&) { return SolveResult{}; }

}  // namespace tsume
