#include "tools/solve_output.h"

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "core/notation.h"
#include "tools/kif_output.h"

namespace tsume {
namespace {

std::vector<std::string> UsiMoves(const SolveResult& result) {
  std::vector<std::string> moves;
  for (Move m : result.moves) moves.push_back(ToUsi(m));
  return moves;
}

// "; no mate within N" when the solve proved such a bound, else nothing.
std::string LowerBoundText(const SolveResult& result) {
  if (result.no_mate_within <= 0) return "";
  return absl::StrCat("; no mate within ", result.no_mate_within);
}

int64_t NodesPerSecond(const SolveResult& result) {
  double seconds = absl::ToDoubleSeconds(result.elapsed);
  return seconds > 0 ? int64_t(result.nodes / seconds) : 0;
}

// The result in one line: "mate in 11", "mate in 13 (not proven shortest; ...)", "no mate",
// "no mate (White has no king)", "unknown (time limit reached; ...)".
std::string ResultLine(const Position& pos, const SolveResult& result) {
  switch (result.status) {
    case SolveStatus::kMate:
      return absl::StrCat("mate in ", result.length,
                          result.length_exact
                              ? ""
                              : absl::StrCat(" (not proven shortest", LowerBoundText(result), ")"));
    case SolveStatus::kNoMate:
      if (std::string why = NothingToMate(pos); !why.empty()) return "no mate (" + why + ")";
      return "no mate";
    case SolveStatus::kUnknown:
      break;
  }
  return absl::StrCat("unknown (", ToString(result.limit), " limit reached", LowerBoundText(result),
                      ")");
}

}  // namespace

std::string NothingToMate(const Position& pos) {
  Color defender = ~pos.side_to_move();
  if (pos.has_king(defender)) return "";
  return absl::StrCat(defender == kBlack ? "Black" : "White", " has no king");
}

std::string FormatSolveResult(const InputProblem& problem, const Position& pos,
                              const SolveResult& result) {
  std::string out = absl::StrCat(problem.source == "argument" ? "" : problem.source + "  ",
                                 pos.Sfen(), "\n", ResultLine(pos, result), "\n");
  if (result.status == SolveStatus::kMate) {
    if (result.moves.empty()) {
      absl::StrAppend(&out, "  (the ", ToString(result.limit),
                      " limit was reached before the line was read out)\n");
    } else {
      absl::StrAppend(&out, "  ", LineToJapanese(pos, result.moves), "\n");
      absl::StrAppend(&out, "  ", absl::StrJoin(UsiMoves(result), " "), "\n");
      if (result.ties_cut) {
        absl::StrAppend(&out, "  (it leaves pieces in hand; not every line as long was tried ",
                        "for one that leaves none)\n");
      }
    }
  }
  absl::StrAppendFormat(&out, "nodes %d  time %.0f ms  nps %d  hash %.1f%%", result.nodes,
                        absl::ToDoubleMilliseconds(result.elapsed), NodesPerSecond(result),
                        result.hashfull * 100);
  return out;
}

std::string SolveResultToKif(const InputProblem& problem, const Position& pos,
                             const SolveResult& result) {
  std::string comment = absl::StrCat(problem.source == "argument" ? "" : problem.source + "  ",
                                     ResultLine(pos, result));
  bool mate = result.status == SolveStatus::kMate && !result.moves.empty();
  return SolutionKif(pos, mate ? result.moves : std::vector<Move>(), mate, comment);
}

nlohmann::json SolveResultToJson(const InputProblem& problem, const Position& pos,
                                 const SolveResult& result) {
  nlohmann::json j;
  j["id"] = problem.id;
  j["source"] = problem.source;
  j["sfen"] = pos.Sfen();
  j["result"] = ToString(result.status);
  j["length"] = result.status == SolveStatus::kMate ? result.length : 0;
  j["length_exact"] = result.length_exact;
  if (result.status != SolveStatus::kNoMate) j["no_mate_within"] = result.no_mate_within;
  j["moves"] = UsiMoves(result);
  j["moves_ja"] = LineToJapanese(pos, result.moves);
  j["uncounted"] = result.uncounted;
  j["nodes"] = result.nodes;
  j["time_ms"] = absl::ToDoubleMilliseconds(result.elapsed);
  j["nps"] = NodesPerSecond(result);
  j["hashfull"] = result.hashfull;
  if (result.limit != LimitReason::kNone) j["limit"] = ToString(result.limit);
  if (result.ties_cut) j["ties_cut"] = true;
  AddExactPasses(result, j);
  return j;
}

}  // namespace tsume
