// Verification of a composed problem under tsume conventions: is it a mate, of the stated
// length, with a unique solution (no 余詰 before the last move), no shorter mate (早詰), no
// attacker pieces left over (駒余り), and is the intended line a correct solution?
#ifndef TSUME_SOLVER_VERIFY_H_
#define TSUME_SOLVER_VERIFY_H_

#include <optional>
#include <string>
#include <vector>

#include "core/position.h"
#include "solver/solver.h"

namespace tsume {

enum class FlawKind {
  kAlternativeMate,   // 余詰: another attacker move also mates within the remaining length
  kShorterMate,       // 早詰: the exact length is shorter than stated
  kLongerThanStated,  // the defender can hold out longer than the stated length
  kPiecesLeft,        // 駒余り: the attacker holds pieces at the end of the main line
  kBadIntendedLine,   // the given line is not a correct solution line
};

const char* ToString(FlawKind kind);      // "alternative_mate", ...
const char* JapaneseName(FlawKind kind);  // "余詰", "早詰", ...

struct Flaw {
  FlawKind kind;
  int ply = 0;             // 1-based ply of the main line where it occurs (0: whole problem)
  std::string detail;      // a sentence for people
  std::vector<Move> line;  // from the position before `ply`: the alternative mate, etc.
};

enum class Verdict { kSound, kFlawed, kNotMate, kUnknown };
const char* ToString(Verdict v);  // "sound", "flawed", "not a mate", "unknown"

struct VerifyReport {
  Verdict verdict = Verdict::kUnknown;
  SolveResult solution;         // the solver's exact solution under tsume rules
  std::vector<Move> main_line;  // the line the checks ran along (intended if correct)
  std::vector<Flaw> flaws;
  bool alternatives_complete = true;  // false when limits stopped the 余詰 search
};

// Verifies the problem with `solver` (its options give the limits; rules are forced to tsume).
// `stated_length` and `intended` are optional (empty line: none given).
VerifyReport VerifyProblem(Solver& solver, const Position& problem,
                           std::optional<int> stated_length, const std::vector<Move>& intended);

}  // namespace tsume

#endif  // TSUME_SOLVER_VERIFY_H_
