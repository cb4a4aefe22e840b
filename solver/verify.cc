#include "solver/verify.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "core/movegen.h"

namespace tsume {

const char* ToString(FlawKind kind) {
  switch (kind) {
    case FlawKind::kAlternativeMate:
      return "alternative_mate";
    case FlawKind::kShorterMate:
      return "shorter_mate";
    case FlawKind::kLongerThanStated:
      return "longer_than_stated";
    case FlawKind::kPiecesLeft:
      return "pieces_left";
    case FlawKind::kBadIntendedLine:
      return "bad_intended_line";
  }
  return "";
}

const char* JapaneseName(FlawKind kind) {
  switch (kind) {
    case FlawKind::kAlternativeMate:
      return "余詰";
    case FlawKind::kShorterMate:
      return "早詰";
    case FlawKind::kLongerThanStated:
      return "手数不足";
    case FlawKind::kPiecesLeft:
      return "駒余り";
    case FlawKind::kBadIntendedLine:
      return "作意手順不正";
  }
  return "";
}

const char* ToString(Verdict v) {
  switch (v) {
    case Verdict::kSound:
      return "sound";
    case Verdict::kFlawed:
      return "flawed";
    case Verdict::kNotMate:
      return "not a mate";
    case Verdict::kUnknown:
      return "unknown";
  }
  return "";
}

namespace {

// Checks the intended line: legal, every attacker move a check that keeps the mate within the
// remaining length, every defence a longest one, and mate (under tsume rules) at the end.
// Returns a flaw, or nothing when the line is a correct solution of its own length.
std::optional<Flaw> CheckIntendedLine(Solver& solver, const Position& problem,
                                      const std::vector<Move>& intended) {
  Position pos = problem;
  int n = int(intended.size());
  auto flaw = [&](int ply, std::string detail) {
    return Flaw{FlawKind::kBadIntendedLine, ply, std::move(detail), {}};
  };
  if (n % 2 == 0) return flaw(0, "the line has an even number of plies: it ends on a defence");
  for (int i = 0; i < n; ++i) {
    Move m = intended[i];
    bool attacker = i % 2 == 0;
    if (!pos.IsFullyLegal(m)) return flaw(i + 1, absl::StrCat(ToUsi(m), " is not legal"));
    if (attacker && !pos.GivesCheck(m))
      return flaw(i + 1, absl::StrCat(ToUsi(m), " is not a check"));
    pos.DoMove(m);
    int remaining = n - i - 1;
    if (attacker) {
      if (solver.MateWithin(pos, remaining, false) == SolveStatus::kNoMate) {
        return flaw(i + 1, absl::StrCat("after ", ToUsi(m), " there is no mate in ", remaining));
      }
    } else if (remaining >= 3 &&
               solver.MateWithin(pos, remaining - 2, true) == SolveStatus::kMate) {
      return flaw(i + 1, absl::StrCat(ToUsi(m), " is not the longest defence: mate in ",
                                      remaining - 2, " or less follows"));
    }
  }
  if (solver.MateWithin(pos, 0, false) == SolveStatus::kNoMate) {
    return flaw(n, "the line does not end in mate");
  }
  return std::nullopt;
}

}  // namespace

VerifyReport VerifyProblem(Solver& solver, const Position& problem,
                           std::optional<int> stated_length, const std::vector<Move>& intended) {
  if (solver.options().rules != Rules::kTsume) {
    SolveOptions options = solver.options();
    options.rules = Rules::kTsume;
    solver.set_options(options);
  }
  VerifyReport report;
  report.solution = solver.Solve(problem);
  const SolveResult& solution = report.solution;
  if (solution.status == SolveStatus::kNoMate) {
    report.verdict = Verdict::kNotMate;
    return report;
  }
  if (solution.status != SolveStatus::kMate || !solution.length_exact ||
      int(solution.moves.size()) - int(solution.uncounted.size()) != solution.length) {
    report.verdict = Verdict::kUnknown;
    return report;
  }
  int length = solution.length;
  if (stated_length && *stated_length > length) {
    report.flaws.push_back({FlawKind::kShorterMate, 0,
                            absl::StrCat("mate in ", length, ", stated ", *stated_length),
                            solution.moves});
  } else if (stated_length && *stated_length < length) {
    report.flaws.push_back(
        {FlawKind::kLongerThanStated, 0,
         absl::StrCat("the defence holds out for ", length, " plies, stated ", *stated_length),
         solution.moves});
  }

  // The main line: the intended one when it is a correct solution of the exact length.
  report.main_line = solution.moves;
  std::vector<int> uncounted = solution.uncounted;
  if (!intended.empty()) {
    std::optional<Flaw> bad = CheckIntendedLine(solver, problem, intended);
    if (bad) {
      report.flaws.push_back(*bad);
    } else if (int(intended.size()) == length) {
      report.main_line = intended;
      uncounted.clear();
    }
  }

  // 余詰: at each attacker move but the last, another check that also mates in time.
  Position pos = problem;
  int remaining = length;
  const std::vector<Move>& line = report.main_line;
  for (int i = 0; i < int(line.size()); ++i) {
    bool counted = std::find(uncounted.begin(), uncounted.end(), i) == uncounted.end();
    bool attacker_turn = pos.side_to_move() == problem.side_to_move();
    if (attacker_turn && counted && remaining > 1) {
      MoveList checks;
      GenerateChecks(pos, checks);
      for (Move m : checks) {
        if (m == line[i]) continue;
        pos.DoMove(m);
        SolveStatus s = solver.MateWithin(pos, remaining - 1, false);
        if (s == SolveStatus::kMate) {
          std::vector<Move> alt = {m};
          std::vector<Move> rest = solver.MateLine(pos, remaining - 1, false);
          alt.insert(alt.end(), rest.begin(), rest.end());
          report.flaws.push_back(
              {FlawKind::kAlternativeMate, i + 1,
               absl::StrCat(ToUsi(m), " also mates within ", remaining, " plies"), alt});
        } else if (s == SolveStatus::kUnknown) {
          report.alternatives_complete = false;
        }
        pos.UndoMove();
      }
    }
    pos.DoMove(line[i]);
    if (counted) --remaining;
  }
  // 駒余り: pieces left in the attacker's hand at the end.
  Hand left = pos.hand(problem.side_to_move());
  if (!left.Empty()) {
    report.flaws.push_back({FlawKind::kPiecesLeft,
                            int(line.size()),
                            absl::StrCat(left.Total(), " piece(s) left in the attacker's hand"),
                            {}});
  }

  if (!report.flaws.empty()) {
    report.verdict = Verdict::kFlawed;
  } else {
    report.verdict = report.alternatives_complete ? Verdict::kSound : Verdict::kUnknown;
  }
  return report;
}

}  // namespace tsume
