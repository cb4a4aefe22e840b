// The solver against a brute-force reference: plain minimax over every legal move (game rules),
// with nothing of the solver's own (no check or evasion generator, no mate-in-1 test, no table,
// no proof or disproof pieces). On practical problems and on variants of them (a piece of the
// attacker's hand given to the defender, which often lengthens the mate or leaves none, and
// the positions along the recorded lines), the exact length the solver reports must be the
// shortest mate brute force finds, and where brute force finds none within its depth, the
// solver must not report one; under tsume rules (useless interpositions not counted) a mate
// no longer than that. The solver's depth-limited queries (MateWithin) are held to the same
// answers, and the lines the solver gives are minimax lines by brute force. A second reference
// follows tsume rules as the README defines useless interpositions: the solver's tsume-rule
// lengths must match it, and `tsume verify` must list exactly the other mating moves it finds.
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/movegen.h"
#include "core/position.h"
#include "problems/collection.h"
#include "solver/solver.h"
#include "solver/verify.h"

namespace tsume {
namespace {

// Does the side to move (the attacker) mate within `plies` (odd) plies? Every legal move that
// gives check, then every legal reply. Under tsume rules (useless interpositions not counted,
// written from the README's definition alone) the defender, in check from a ranged piece, may
// drop on a square s in between; the drops on s are useless when, had the defender passed and
// kept the piece, some attacker move onto s that checks leads to a position mated within the
// plies left: the square then counts as that position's mate (two plies fewer than dropping
// and being captured) where that is the cheaper for the attacker. Every other move counts as
// under game rules.
bool ReferenceMateWithin(Position& pos, int plies, Rules rules = Rules::kGame);

// The defender to move, in check: is every reply mated within `plies` more plies?
bool ReferenceDefenderLoses(Position& pos, int plies, Rules rules = Rules::kGame, int nesting = 0);

// Are the drops on `s` useless: had the defender (to move, in check) passed, some attacker
// move onto s that checks leads to a position mated within `plies` (tsume rules)?
bool UselessSquare(Position& pos, Square s, int plies, int nesting) {
  bool useless = false;
  pos.DoNullMove();
  MoveList moves;
  GenerateLegal(pos, moves);
  for (Move m : moves) {
    if (useless) break;
    if (m.is_drop() || m.to() != s) continue;
    pos.DoMove(m);
    useless = pos.in_check() && ReferenceDefenderLoses(pos, plies, Rules::kTsume, nesting);
    pos.UndoMove();
  }
  pos.UndoMove();
  return useless;
}

bool ReferenceDefenderLoses(Position& pos, int plies, Rules rules, int nesting) {
  MoveList replies;
  GenerateLegal(pos, replies);
  if (replies.size() == 0) return true;  // checkmate (a pawn-drop mate was never generated)
  Bitboard between;                      // drops there may be useless (tsume rules)
  if (rules == Rules::kTsume && !pos.checkers().MoreThanOne()) {
    between = Between(pos.king_square(pos.side_to_move()), pos.checkers().Lsb());
  }
  // Is every reply of `replies` that `counts` mated in time?
  auto all_mated = [&](auto counts) {
    for (Move reply : replies) {
      if (!counts(reply)) continue;
      if (plies <= 0) return false;
      pos.DoMove(reply);
      bool mated = ReferenceMateWithin(pos, plies - 1, rules);
      pos.UndoMove();
      if (!mated) return false;
    }
    return true;
  };
  Bitboard drop_squares;
  for (Move reply : replies) {
    if (reply.is_drop() && between.Test(reply.to())) drop_squares.Set(reply.to());
  }
  if (!all_mated([&](Move m) { return !(m.is_drop() && between.Test(m.to())); })) return false;
  for (Square s : drop_squares) {
    if (nesting < 8 && UselessSquare(pos, s, plies, nesting + 1)) continue;
    // Otherwise every drop there counts.
    if (!all_mated([&](Move m) { return m.is_drop() && m.to() == s; })) return false;
  }
  return true;
}

bool ReferenceMateWithin(Position& pos, int plies, Rules rules) {
  if (plies <= 0) return false;
  MoveList moves;
  GenerateLegal(pos, moves);
  for (Move m : moves) {
    pos.DoMove(m);
    bool mates = pos.in_check() && ReferenceDefenderLoses(pos, plies - 1, rules);
    pos.UndoMove();
    if (mates) return true;
  }
  return false;
}

// The shortest mate within `max_plies`, or none.
std::optional<int> ReferenceShortestMate(const Position& root, int max_plies,
                                         Rules rules = Rules::kGame) {
  Position pos = root;
  for (int plies = 1; plies <= max_plies; plies += 2) {
    if (ReferenceMateWithin(pos, plies, rules)) return plies;
  }
  return std::nullopt;
}

// The SFEN with one piece of `letter`'s kind moved from the side to move's hand to the other
// side's; "" when the side to move holds none.
std::string GiveAwayFromHand(const std::string& sfen, char letter) {
  std::vector<std::string> fields = absl::StrSplit(sfen, ' ');
  if (fields.size() < 3) return "";
  bool black = fields[1] == "b";
  char mine = black ? char(toupper(letter)) : char(tolower(letter));
  char theirs = black ? char(tolower(letter)) : char(toupper(letter));
  std::map<char, int> counts;
  const std::string& hand = fields[2];
  int number = 0;
  for (char c : hand) {
    if (isdigit(static_cast<unsigned char>(c))) {
      number = number * 10 + (c - '0');
    } else if (c != '-') {
      counts[c] += number == 0 ? 1 : number;
      number = 0;
    }
  }
  if (counts[mine] == 0) return "";
  --counts[mine];
  ++counts[theirs];
  std::string text;
  // SFEN order: Black's pieces then White's, rook first.
  for (char kind : std::string("RBGSNLPrbgsnlp")) {
    int n = counts[kind];
    if (n == 0) continue;
    if (n > 1) absl::StrAppend(&text, n);
    text += kind;
  }
  fields[2] = text.empty() ? "-" : text;
  return absl::StrJoin(fields, " ");
}

struct Case {
  std::string where;
  Position position;
};

// The bundled practical sample's mates in 3 and 5 (the first `per_length` of each), each with
// its variants: a piece of each kind in the attacker's hand given away, and the attacker-to-move
// positions along its recorded line.
std::vector<Case> Cases(int per_length, std::vector<int> lengths = {3, 5}) {
  absl::StatusOr<Collection> sample =
      ReadCollection(TSUME_SOURCE_DIR "/problems/practical/sample.txt");
  EXPECT_TRUE(sample.ok()) << sample.status();
  std::vector<Case> cases;
  if (!sample.ok()) return cases;
  std::map<int, int> taken;
  for (const Problem& problem : sample->problems) {
    int length = problem.expected_length.value_or(0);
    if (std::find(lengths.begin(), lengths.end(), length) == lengths.end() ||
        taken[length]++ >= per_length) {
      continue;
    }
    absl::StatusOr<Position> root = Position::FromSfen(problem.sfen);
    EXPECT_TRUE(root.ok()) << problem.source;
    if (!root.ok()) continue;
    cases.push_back({problem.source, *root});
    for (char kind : std::string("RBGSNLP")) {
      std::string variant = GiveAwayFromHand(problem.sfen, kind);
      if (variant.empty()) continue;
      absl::StatusOr<Position> pos = Position::FromSfen(variant);
      if (pos.ok())
        cases.push_back({absl::StrCat(problem.source, " less ", std::string(1, kind)), *pos});
    }
    Position along = *root;
    for (size_t ply = 0; ply + 1 < problem.solution_usi.size(); ++ply) {
      absl::StatusOr<Move> m = along.ParseUsiMove(problem.solution_usi[ply]);
      if (!m.ok()) break;
      along.DoMove(*m);
      if (ply % 2 == 1) {
        absl::StatusOr<Position> fresh = Position::FromSfen(along.Sfen());
        if (fresh.ok()) cases.push_back({absl::StrCat(problem.source, " after ", ply + 1), *fresh});
      }
    }
  }
  return cases;
}

// The rule tests' positions (pawn-drop mates, nifu, dead drops, interpositions, perpetual
// checks...) with the attacker to move and not in check.
std::vector<Case> RuleCases() {
  absl::StatusOr<Collection> rules =
      ReadCollection(TSUME_SOURCE_DIR "/problems/rules/rule_tests.tsv");
  EXPECT_TRUE(rules.ok()) << rules.status();
  std::vector<Case> cases;
  if (!rules.ok()) return cases;
  for (const Problem& problem : rules->problems) {
    absl::StatusOr<Position> pos = Position::FromSfen(problem.sfen);
    if (pos.ok() && !pos->in_check()) cases.push_back({problem.source, *pos});
  }
  return cases;
}

// The line the solver gives for a mate of `length` plies (game rules): as long as that, every
// attacker move keeps a mate within the plies left, every defender move holds out as long as
// any other (brute force finds no mate sooner after it), and it ends in checkmate.
void ExpectLineIsAMinimaxLine(const Position& root, const std::vector<Move>& line, int length,
                              const std::string& what) {
  ASSERT_EQ(int(line.size()), length) << what;
  Position pos = root;
  for (int ply = 0; ply < length; ++ply) {
    ASSERT_TRUE(pos.IsLegal(line[ply])) << what << " ply " << ply;
    pos.DoMove(line[ply]);
    int left = length - ply - 1;
    if (ply % 2 == 0) {
      ASSERT_TRUE(pos.in_check()) << what << " ply " << ply;
      EXPECT_TRUE(ReferenceDefenderLoses(pos, left)) << what << " ply " << ply;
    } else {
      EXPECT_FALSE(ReferenceMateWithin(pos, left - 2))
          << what << ": ply " << ply << " is not a longest defence";
    }
  }
  MoveList replies;
  GenerateLegal(pos, replies);
  EXPECT_TRUE(pos.in_check() && replies.size() == 0) << what << ": the line does not end in mate";
}

SolveOptions GameRules() {
  SolveOptions options;
  options.rules = Rules::kGame;
  options.hash_mb = 16;
  options.max_nodes = 2'000'000;
  return options;
}

SolveOptions TsumeRules() {
  SolveOptions options = GameRules();
  options.rules = Rules::kTsume;
  return options;
}

std::vector<Case> SampleAndRuleCases(int per_length) {
  std::vector<Case> cases = Cases(per_length);
  for (Case& c : RuleCases()) cases.push_back(std::move(c));
  return cases;
}

TEST(SolverReferenceTest, ExactLengthsMatchBruteForce) {
  constexpr int kDepth = 5;
  std::vector<Case> cases = SampleAndRuleCases(/*per_length=*/12);
  ASSERT_GT(cases.size(), 60u);
  Solver solver(GameRules());
  Solver tsume_solver(TsumeRules());
  std::map<std::string, int> outcomes;
  for (const Case& c : cases) {
    std::optional<int> reference = ReferenceShortestMate(c.position, kDepth);
    SolveResult r = solver.Solve(c.position);
    std::string what = absl::StrCat(c.where, " (", c.position.Sfen(), ")");
    if (reference.has_value()) {
      ++outcomes[absl::StrCat("mate in ", *reference)];
      ASSERT_EQ(r.status, SolveStatus::kMate) << what;
      EXPECT_EQ(r.length, *reference) << what;
      EXPECT_TRUE(r.length_exact) << what;
      ExpectLineIsAMinimaxLine(c.position, r.moves, *reference, what);
      // Under tsume rules useless interpositions are not counted: the same mate, no longer.
      SolveResult tsume = tsume_solver.Solve(c.position);
      ASSERT_EQ(tsume.status, SolveStatus::kMate) << what;
      EXPECT_LE(tsume.length, *reference) << what;
      EXPECT_TRUE(tsume.length_exact) << what;
    } else {
      ++outcomes["none within 5"];
      EXPECT_FALSE(r.status == SolveStatus::kMate && r.length <= kDepth)
          << what << ": the solver reports a mate in " << r.length;
    }
  }
  // The variants are there to give the other outcomes: make sure they do.
  EXPECT_GT(outcomes["mate in 3"], 10);
  EXPECT_GT(outcomes["mate in 5"], 5);
  EXPECT_GT(outcomes["none within 5"], 10);
  for (const auto& [outcome, count] : outcomes) {
    std::cout << "  " << outcome << ": " << count << "\n";
  }
}

TEST(SolverReferenceTest, TsumeRuleLengthsMatchBruteForce) {
  constexpr int kDepth = 5;
  std::vector<Case> cases = SampleAndRuleCases(/*per_length=*/12);
  Solver solver(TsumeRules());
  std::map<std::string, int> outcomes;
  for (const Case& c : cases) {
    std::optional<int> reference = ReferenceShortestMate(c.position, kDepth, Rules::kTsume);
    SolveResult r = solver.Solve(c.position);
    std::string what = absl::StrCat(c.where, " (", c.position.Sfen(), ")");
    if (reference.has_value()) {
      ++outcomes[absl::StrCat("mate in ", *reference)];
      if (ReferenceShortestMate(c.position, *reference) != reference) {
        ++outcomes["shorter than under game rules"];
      }
      ASSERT_EQ(r.status, SolveStatus::kMate) << what;
      EXPECT_EQ(r.length, *reference) << what;
      EXPECT_TRUE(r.length_exact) << what;
    } else {
      ++outcomes["none within 5"];
      EXPECT_FALSE(r.status == SolveStatus::kMate && r.length <= kDepth)
          << what << ": the solver reports a mate in " << r.length;
    }
  }
  for (const auto& [outcome, count] : outcomes) {
    std::cout << "  " << outcome << ": " << count << "\n";
  }
}

// Is there a line of `plies` plies from `pos` (the attacker's moves mating in time, the
// defender's holding out as long as any) that ends with the attacker's hand empty? Tsume rules;
// lines through a useless drop are not followed (the callers skip them).
bool ReferenceLineLeavesNothing(Position& pos, int plies, Color attacker) {
  if (plies == 0) return pos.hand(attacker).Empty();
  MoveList moves;
  GenerateLegal(pos, moves);
  for (Move m : moves) {
    pos.DoMove(m);
    bool optimal = pos.side_to_move() != attacker
                       ? pos.in_check() && ReferenceDefenderLoses(pos, plies - 1, Rules::kTsume)
                       : !ReferenceMateWithin(pos, plies - 3, Rules::kTsume);
    bool leaves_nothing = optimal && ReferenceLineLeavesNothing(pos, plies - 1, attacker);
    pos.UndoMove();
    if (leaves_nothing) return true;
  }
  return false;
}

// `tsume verify` on the same positions, each taken as a composed problem of its exact length:
// at every attacker move of its main line but the last, the other moves it lists as mating in
// time (余詰, or 手順前後 as a note) are exactly those brute force finds; the main line's
// attacker moves mate in time and its defences hold out as long as any.
TEST(SolverReferenceTest, VerifyListsTheAlternativeMatesBruteForceFinds) {
  constexpr int kDepth = 5;
  std::vector<Case> cases = SampleAndRuleCases(/*per_length=*/12);
  Solver solver(TsumeRules());
  std::map<std::string, int> outcomes;
  for (const Case& c : cases) {
    std::optional<int> length = ReferenceShortestMate(c.position, kDepth, Rules::kTsume);
    if (!length.has_value() || *length < 3) continue;
    std::string what = absl::StrCat(c.where, " (", c.position.Sfen(), ")");
    VerifyReport report = VerifyProblem(solver, c.position, *length, {});
    ASSERT_NE(report.verdict, Verdict::kUnknown) << what;
    ASSERT_NE(report.verdict, Verdict::kNotMate) << what;
    EXPECT_EQ(report.length, *length) << what;
    if (!report.solution.uncounted.empty()) {
      ++outcomes["main line through a useless drop (not compared)"];
      continue;
    }
    const std::vector<Move>& line = report.main_line;
    ASSERT_EQ(int(line.size()), *length) << what;
    Position pos = c.position;
    for (int i = 0; i < *length; ++i) {
      int left = *length - i - 1;  // after line[i]
      if (i % 2 == 0 && left > 0) {
        std::vector<std::string> found, listed;
        MoveList moves;
        GenerateLegal(pos, moves);
        for (Move m : moves) {
          if (m == line[i]) continue;
          pos.DoMove(m);
          if (pos.in_check() && ReferenceDefenderLoses(pos, left, Rules::kTsume))
            found.push_back(ToUsi(m));
          pos.UndoMove();
        }
        for (const std::vector<Flaw>* list : {&report.flaws, &report.notes}) {
          for (const Flaw& f : *list) {
            if (f.ply == i + 1 &&
                (f.kind == FlawKind::kAlternativeMate || f.kind == FlawKind::kTransposition ||
                 f.kind == FlawKind::kNonLimitation)) {
              listed.push_back(f.line.empty() ? "?" : ToUsi(f.line[0]));
              for (Move other : f.others) listed.push_back(ToUsi(other));
            }
          }
        }
        std::sort(found.begin(), found.end());
        std::sort(listed.begin(), listed.end());
        EXPECT_EQ(listed, found) << what << " ply " << i + 1;
        if (!found.empty()) ++outcomes["mating alternatives listed"];
      }
      if (i % 2 == 1) {
        // 変同: the other defences that hold out as long (drops on one square are one note),
        // drops that are useless (a hypothetical capture there mates within one ply less) aside.
        auto key = [](Move m) { return m.is_drop() ? "drop " + ToUsi(m).substr(2) : ToUsi(m); };
        std::set<std::string> found, listed;
        Bitboard between;
        if (!pos.checkers().MoreThanOne()) {
          between = Between(pos.king_square(pos.side_to_move()), pos.checkers().Lsb());
        }
        MoveList moves;
        GenerateLegal(pos, moves);
        for (Move d : moves) {
          if (d == line[i]) continue;
          if (d.is_drop() && between.Test(d.to()) && UselessSquare(pos, d.to(), left - 1, 0))
            continue;
          pos.DoMove(d);
          // (A drop may hold out longer, its square's hypothetical position mating sooner.)
          if (!ReferenceMateWithin(pos, left - 2, Rules::kTsume) &&
              ReferenceMateWithin(pos, left, Rules::kTsume)) {
            found.insert(key(d));
          }
          pos.UndoMove();
        }
        for (const Flaw& f : report.notes) {
          if (f.ply == i + 1 && f.kind == FlawKind::kSameLengthVariation) {
            listed.insert(f.line.empty() ? "?" : key(f.line[0]));
          }
        }
        EXPECT_EQ(listed, found) << what << " ply " << i + 1;
        if (!found.empty()) ++outcomes["defences as long listed"];
      }
      ASSERT_TRUE(pos.IsLegal(line[i])) << what << " ply " << i + 1;
      pos.DoMove(line[i]);
      if (i % 2 == 0) {
        EXPECT_TRUE(ReferenceDefenderLoses(pos, left, Rules::kTsume)) << what << " ply " << i + 1;
      } else {
        EXPECT_FALSE(ReferenceMateWithin(pos, left - 2, Rules::kTsume))
            << what << ": ply " << i + 1 << " is not a longest defence";
      }
    }
    // 駒余り only when no such line leaves the attacker's hand empty.
    bool pieces_left = std::any_of(report.flaws.begin(), report.flaws.end(),
                                   [](const Flaw& f) { return f.kind == FlawKind::kPiecesLeft; });
    Position root = c.position;
    EXPECT_EQ(pieces_left, !ReferenceLineLeavesNothing(root, *length, c.position.side_to_move()))
        << what;
    if (pieces_left) ++outcomes["pieces left"];
    ++outcomes[ToString(report.verdict)];
  }
  for (const auto& [outcome, count] : outcomes) {
    std::cout << "  " << outcome << ": " << count << "\n";
  }
  EXPECT_GT(outcomes["mating alternatives listed"], 5);
}

// 変化別詰 notes (verify on `problem`, whose main line is `line`): each note's defences are mated
// in exactly the length it gives, and each move it names (the others and the solver's) mates
// within it; and a defence mated sooner whose mate has a unique first move gets no note.
void ExpectVariationMateNotesHold(const Position& problem, const VerifyReport& report,
                                  const std::string& what, std::map<std::string, int>& outcomes) {
  const std::vector<Move>& line = report.main_line;
  std::set<std::pair<int, std::string>> noted;  // (ply, defence)
  for (const Flaw& f : report.notes) {
    if (f.kind != FlawKind::kVariationAlternativeMate) continue;
    // "after D, D2 (mate in m), X, X2 mate as well as Y"
    absl::string_view detail = f.detail;
    size_t mate_in = detail.find(" (mate in ");
    size_t as_well = detail.find(" as well as ");
    ASSERT_TRUE(absl::StartsWith(detail, "after ") && mate_in != detail.npos &&
                as_well != detail.npos)
        << f.detail;
    std::vector<std::string> defences = absl::StrSplit(detail.substr(6, mate_in - 6), ", ");
    absl::string_view counted = detail.substr(mate_in + 10);
    int m = 0;
    ASSERT_TRUE(absl::SimpleAtoi(counted.substr(0, counted.find(')')), &m)) << f.detail;
    absl::string_view named = counted.substr(counted.find("), ") + 3);
    named = named.substr(0, named.find(" as well as "));
    ASSERT_TRUE(absl::ConsumeSuffix(&named, " mates") || absl::ConsumeSuffix(&named, " mate"))
        << f.detail;
    std::vector<std::string> movers = absl::StrSplit(named, ", ");
    absl::string_view first = detail.substr(as_well + 12);
    movers.push_back(std::string(first.substr(0, first.find(' '))));
    Position before = problem;
    for (int i = 0; i + 1 < f.ply; ++i) before.DoMove(line[i]);
    for (const std::string& d : defences) {
      noted.insert({f.ply, d});
      Position after = before;
      absl::StatusOr<Move> defence = after.ParseUsiMove(d);
      ASSERT_TRUE(defence.ok()) << f.detail;
      after.DoMove(*defence);
      absl::StatusOr<Position> fresh = Position::FromSfen(after.Sfen());  // without the game
      ASSERT_TRUE(fresh.ok());
      EXPECT_EQ(ReferenceShortestMate(*fresh, m, Rules::kTsume), std::optional<int>(m))
          << what << ": " << f.detail;
      for (const std::string& x : movers) {
        Position pos = *fresh;
        absl::StatusOr<Move> mate = pos.ParseUsiMove(x);
        ASSERT_TRUE(mate.ok()) << f.detail;
        pos.DoMove(*mate);
        EXPECT_TRUE(pos.in_check() && ReferenceDefenderLoses(pos, m - 1, Rules::kTsume))
            << what << ": " << f.detail << ", " << x;
      }
    }
    ++outcomes["variation mate notes"];
  }
  Position pos = problem;
  for (int i = 0; i < int(line.size()); ++i) {
    int left = int(line.size()) - i - 1;
    if (i % 2 == 1 && left >= 3) {
      MoveList defences;
      GenerateLegal(pos, defences);
      for (Move d : defences) {
        if (d == line[i]) continue;
        pos.DoMove(d);
        absl::StatusOr<Position> fresh = Position::FromSfen(pos.Sfen());
        pos.UndoMove();
        ASSERT_TRUE(fresh.ok());
        std::optional<int> m = ReferenceShortestMate(*fresh, left - 2, Rules::kTsume);
        if (!m || *m < 3) continue;
        int mating = 0;
        MoveList moves;
        GenerateLegal(*fresh, moves);
        for (Move x : moves) {
          fresh->DoMove(x);
          if (fresh->in_check() && ReferenceDefenderLoses(*fresh, *m - 1, Rules::kTsume)) ++mating;
          fresh->UndoMove();
        }
        if (mating == 1) {
          EXPECT_EQ(noted.count({i + 1, ToUsi(d)}), 0u)
              << what << " ply " << i + 1 << " " << ToUsi(d);
          ++outcomes["variations with one mating move"];
        }
      }
    }
    pos.DoMove(line[i]);
  }
}

// The sample's mates in 7 and the positions along their lines, verified at their exact lengths:
// 変化別詰 notes hold by brute force.
TEST(SolverReferenceTest, VerifyVariationMateNotesHoldByBruteForce) {
  std::vector<Case> cases = Cases(/*per_length=*/40, {7});
  Solver solver(TsumeRules());
  std::map<std::string, int> outcomes;
  for (const Case& c : cases) {
    std::optional<int> length = ReferenceShortestMate(c.position, 7, Rules::kTsume);
    if (!length.has_value() || *length < 7) continue;
    std::string what = absl::StrCat(c.where, " (", c.position.Sfen(), ")");
    VerifyReport report = VerifyProblem(solver, c.position, *length, {});
    ASSERT_EQ(report.length, *length) << what;
    if (!report.solution.uncounted.empty()) continue;
    ExpectVariationMateNotesHold(c.position, report, what, outcomes);
  }
  for (const auto& [outcome, count] : outcomes) {
    std::cout << "  " << outcome << ": " << count << "\n";
  }
  EXPECT_GT(outcomes["variation mate notes"], 0);
  EXPECT_GT(outcomes["variations with one mating move"], 0);
}

TEST(SolverReferenceTest, DepthLimitedQueriesMatchBruteForce) {
  std::vector<Case> cases = Cases(/*per_length=*/8);
  Solver solver(GameRules());
  for (const Case& c : cases) {
    solver.StartQueries();
    for (int plies : {1, 3, 5}) {
      Position pos = c.position;
      bool reference = ReferenceMateWithin(pos, plies);
      SolveStatus status = solver.MateWithin(c.position, plies, /*attacker_to_move=*/true);
      EXPECT_EQ(status, reference ? SolveStatus::kMate : SolveStatus::kNoMate)
          << c.where << " within " << plies << " (" << c.position.Sfen() << ")";
    }
  }
}

// The depth-limited queries verification asks (MateWithin, both sides to move) under tsume
// rules: from the attacker's positions and from the defender's after each of their checks.
TEST(SolverReferenceTest, TsumeDepthLimitedQueriesMatchBruteForce) {
  std::vector<Case> cases = SampleAndRuleCases(/*per_length=*/4);
  Solver solver(TsumeRules());
  int defender_queries = 0;
  for (const Case& c : cases) {
    solver.StartQueries();
    Position pos = c.position;
    for (int plies : {1, 3, 5}) {
      bool reference = ReferenceMateWithin(pos, plies, Rules::kTsume);
      EXPECT_EQ(solver.MateWithin(pos, plies, /*attacker_to_move=*/true),
                reference ? SolveStatus::kMate : SolveStatus::kNoMate)
          << c.where << " within " << plies << " (" << pos.Sfen() << ")";
    }
    MoveList moves;
    GenerateLegal(pos, moves);
    for (Move m : moves) {
      pos.DoMove(m);
      // Without the game before it: a line back to the position before the check would be a
      // repetition for the solver (rule_tests.tsv:16 after 8d9e: 9d8c 9e8d 8c9d), not for
      // brute force.
      absl::StatusOr<Position> after = Position::FromSfen(pos.Sfen());
      pos.UndoMove();
      ASSERT_TRUE(after.ok());
      if (!after->in_check()) continue;
      for (int plies : {0, 2, 4}) {
        bool reference = ReferenceDefenderLoses(*after, plies, Rules::kTsume);
        EXPECT_EQ(solver.MateWithin(*after, plies, /*attacker_to_move=*/false),
                  reference ? SolveStatus::kMate : SolveStatus::kNoMate)
            << c.where << " after " << ToUsi(m) << " within " << plies << " (" << after->Sfen()
            << ")";
        ++defender_queries;
      }
    }
  }
  std::cout << "  " << defender_queries << " queries from the defender's side\n";
}

}  // namespace
}  // namespace tsume
