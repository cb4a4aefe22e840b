// Slow solver tests (label "slow", not in the default suite): the rule-test rows that take
// seconds to minutes, all 100 problems of Shogi Zukou under tsume rules, Microcosmos, and a
// larger sample of the practical problems under game rules.
//
// Each Zukou problem runs under a time limit (TSUME_SLOW_SECONDS, default 60 s). A problem not
// solved within it is skipped, not failed; a wrong answer (no mate, an invalid line, an exact
// length other than the stated one) fails. Known deviations from the stated lengths are listed
// in kZukouDeviations with the reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "core/movegen.h"
#include "core/position.h"
#include "problems/collection.h"
#include "solver/solver.h"

namespace tsume {
namespace {

const std::string kRulesPath = TSUME_SOURCE_DIR "/problems/rules/rule_tests.tsv";
const std::string kZukouPath = TSUME_SOURCE_DIR "/problems/classics/zukou.tsv";
const std::string kMicrocosmosPath = TSUME_SOURCE_DIR "/problems/classics/microcosmos.tsv";
const std::string kPracticalDir = TSUME_SOURCE_DIR "/../shared/problems/practical/";

absl::Duration SlowLimit() {
  const char* env = std::getenv("TSUME_SLOW_SECONDS");
  int seconds = env != nullptr ? std::atoi(env) : 0;
  return absl::Seconds(seconds > 0 ? seconds : 60);
}

std::vector<Problem> ReadProblems(const std::string& path) {
  if (!std::filesystem::exists(path)) return {};
  absl::StatusOr<Collection> c = ReadCollection(path);
  if (!c.ok()) return {};
  return std::move(c->problems);
}

SolveOptions Options(Rules rules, absl::Duration time_limit, int64_t hash_mb = 256) {
  SolveOptions o;
  o.rules = rules;
  o.time_limit = time_limit;
  o.hash_mb = hash_mb;
  return o;
}

std::string Describe(const SolveResult& r) {
  std::vector<std::string> usi;
  for (Move m : r.moves) usi.push_back(ToUsi(m));
  return absl::StrCat(ToString(r.status), " length ", r.length,
                      r.length_exact ? "" : " (not exact)", " limit '", ToString(r.limit),
                      "' nodes ", r.nodes, " time ", absl::FormatDuration(r.elapsed),
                      " line: ", absl::StrJoin(usi, " "));
}

// The same line checks as solver_test.cc: legal moves, attacker moves check; game rules end in
// checkmate after exactly `length` plies; tsume rules count all but the uncounted pairs and end
// with the defender in check with nothing but drops (or nothing) left.
::testing::AssertionResult ValidMainLine(const Position& root, const SolveResult& r, Rules rules) {
  Position pos = root;
  for (size_t i = 0; i < r.moves.size(); ++i) {
    absl::StatusOr<Move> parsed = pos.ParseUsiMove(ToUsi(r.moves[i]));
    if (!parsed.ok() || *parsed != r.moves[i]) {
      return ::testing::AssertionFailure()
             << "ply " << i + 1 << " " << ToUsi(r.moves[i]) << " is not legal in " << pos.Sfen();
    }
    pos.DoMove(r.moves[i]);
    if (i % 2 == 0 && !pos.in_check()) {
      return ::testing::AssertionFailure() << "attacker ply " << i + 1 << " gives no check";
    }
  }
  if (r.moves.size() % 2 != 1) return ::testing::AssertionFailure() << "even-length line";
  if (rules == Rules::kGame) {
    if (int(r.moves.size()) != r.length || !IsCheckmate(pos)) {
      return ::testing::AssertionFailure() << "not a checkmate after " << r.length << " plies";
    }
    return ::testing::AssertionSuccess();
  }
  if (int(r.moves.size() - r.uncounted.size()) != r.length) {
    return ::testing::AssertionFailure() << r.moves.size() << " plies, " << r.uncounted.size()
                                         << " uncounted, for length " << r.length;
  }
  MoveList evasions;
  GenerateEvasions(pos, evasions);
  for (Move m : evasions) {
    if (!m.is_drop()) {
      return ::testing::AssertionFailure() << "line ends with " << ToUsi(m) << " left";
    }
  }
  return ::testing::AssertionSuccess();
}

// ---------------------------------------------------------------------------------------------
// Rule-test rows too slow for the default suite.

struct SlowRow {
  const char* name;
  const char* sfen_prefix;
  Rules rules;
  int length;  // expected exact length, 0: any mate
};

// Lengths as the rows state them, or (game rules, rows stating MATE) as measured; the tsume
// length may not exceed the game length.
const SlowRow kSlowRows[] = {
    // dfpn_pv get_pv_issue56 (MATE; cshogi's PV has 23 plies, not the shortest).
    {"issue56_game", "8l/1R2S1kgr/", Rules::kGame, 17},
    {"issue56_tsume", "8l/1R2S1kgr/", Rules::kTsume, 0},
    // dfpn_pv mate9_2 (MATE).
    {"mate9_2_game", "ln5kl/2r6/p1ps2+N1p/", Rules::kGame, 9},
    {"mate9_2_tsume", "ln5kl/2r6/p1ps2+N1p/", Rules::kTsume, 9},
    // Zukou 1 with an attacker king (69 plies, official).
    {"zukou001_tsume", "1pG1B4/Gs+P6/", Rules::kTsume, 69},
    // depth_limit: no mate within 3; a 13-ply mate exists.
    {"depth_limit_game", "4RB1k1/5s3/", Rules::kGame, 13},
    {"depth_limit_tsume", "4RB1k1/5s3/", Rules::kTsume, 13},
};

// Test names and failure messages show the row's name, not a byte dump.
void PrintTo(const SlowRow& row, std::ostream* os) { *os << row.name; }

class SlowRuleRowTest : public ::testing::TestWithParam<SlowRow> {};

TEST_P(SlowRuleRowTest, SolvesWithGenerousLimits) {
  const SlowRow& row = GetParam();
  std::vector<Problem> problems = ReadProblems(kRulesPath);
  if (problems.empty()) GTEST_SKIP() << kRulesPath << " is absent";
  const Problem* problem = nullptr;
  for (const Problem& p : problems) {
    if (absl::StartsWith(p.sfen, row.sfen_prefix)) problem = &p;
  }
  ASSERT_NE(problem, nullptr) << row.sfen_prefix;
  SCOPED_TRACE(absl::StrCat(problem->source, " ", problem->sfen));
  absl::StatusOr<Position> root = Position::FromSfen(problem->sfen);
  ASSERT_TRUE(root.ok());
  Solver solver(Options(row.rules, 2 * SlowLimit()));
  SolveResult r = solver.Solve(*root);
  RecordProperty("result", Describe(r));
  ASSERT_NE(r.status, SolveStatus::kNoMate) << Describe(r);
  if (r.status == SolveStatus::kUnknown || !r.length_exact) {
    GTEST_SKIP() << "not solved exactly within " << 2 * SlowLimit() << ": " << Describe(r);
  }
  EXPECT_TRUE(ValidMainLine(*root, r, row.rules)) << Describe(r);
  if (row.length > 0) {
    EXPECT_EQ(r.length, row.length) << Describe(r);
  }
  if (problem->nomate_within) {
    EXPECT_GT(r.length, *problem->nomate_within);
  }
}

INSTANTIATE_TEST_SUITE_P(Rows, SlowRuleRowTest, ::testing::ValuesIn(kSlowRows),
                         [](const ::testing::TestParamInfo<SlowRow>& info) {
                           return std::string(info.param.name);
                         });

// ---------------------------------------------------------------------------------------------
// Shogi Zukou, all 100, tsume rules.

// Where our exact length differs from the stated one, and why.
const std::map<std::string, int> kZukouDeviations = {
    // A longer variation (変長): after S*8b 7a8b N*7d 8b8c S*9d the king may take, 8c9d, where
    // the stated line has 9e9d; the attacker then needs 9 more plies, not 7 (confirmed by
    // exhaustive search under game rules: no mate within 7 from there, a mate within 9).
    {"zukou-007", 15},
    // A longer variation: at ply 12 the stated 6d7d (taking the pawn) is mated in 5 more plies,
    // the king's 7c8d holds 11 (each reply solved on its own); our line ends with attacker
    // pieces in hand (駒余り), which the traditional rule may rank below the shorter line.
    {"zukou-013", 23},
    // After 8e8c the defender can interpose P*8e; capturing it with the horse and recapturing
    // with the knight leaves the attacker an extra pawn, which it needs (P*9e) to go on. The
    // hypothetical capture without the drop therefore does not mate two plies sooner, so our
    // rules count the drop: 17 plies where the composer counts 15.
    {"zukou-033", 17},
    // A shorter mate (早詰) than the stated 21: 3c4d+ 5d6c 4d6b (taking the pawn on 6b with
    // check) 6c5d 6b4d 5d6c 2b5b+ 6c7d G*7e 6d7e 5b7b 7d8e 7b7e 8e9f 7e9e 9f8g 4d7g. Under
    // game rules, where every defence counts, the same route is 19 plies (P*7c added), also
    // shorter than 21. Not checked by an independent solver.
    {"zukou-082", 17},
    // At ply 10 the defender can interpose its gold at 4e (G*4e) instead of taking the dragon
    // (4b4c): the dragon capturing it would hand the gold back and leave no quick mate, so our
    // definition counts the drop; the attacker mates with ▲４六金 △同金 ▲１四角成 △５六玉
    // ▲５四竜, two plies more than the stated line (tsume verify shows it as 手数不足).
    {"zukou-079", 15},
    // A shorter mate than the stated 51, also under game rules (17 plies, every defence
    // counted): 4g3h 2i1h P*1i (a pawn where the book drops a lance) 1h1g L*1h ...
    {"zukou-066", 15},
    // Measured with tsume verify (30 s each), which names the first defence of the book's line
    // that holds out longer than the line allows. Where that defence is a king move or a
    // capture, no definition of useless interposition is involved: the position as transcribed
    // allows it (a transcription slip, or a defence the book overlooked).
    {"zukou-012", 27},   // ply 16: 3a3c (the lance takes) instead of 2a1a
    {"zukou-015", 31},   // ply 28: 8b9b instead of 8b7c
    {"zukou-019", 25},   // ply 18: 8d9d instead of 8d7c
    {"zukou-023", 31},   // ply 2: 7b7d instead of 6e7d
    {"zukou-047", 29},   // ply 18: 7g7h instead of 7g8g
    {"zukou-057", 69},   // ply 58: 8i9h instead of 8i8h
    {"zukou-069", 19},   // ply 6: 7i6h instead of 7h8i (and at ply 2 the bishop may not promote)
    {"zukou-075", 19},   // ply 4: 5g6g instead of 3g5i (and at ply 2 the king may take on 4i)
    {"zukou-083", 265},  // ply 208: 4c3d instead of 4c5b
    {"zukou-089", 35},   // ply 24: 6b5a instead of 6b7c
    // Longer through a drop that our definition counts (the hypothetical capture does not mate
    // in time), like zukou-033 above; a composer may judge these drops useless.
    {"zukou-031", 31},  // ply 14: S*8c
    {"zukou-059", 31},  // ply 16: N*6g, leaving pieces over: tsume verify calls it 変長
    {"zukou-071", 51},  // ply 28: P*4c
    // Ply 14: a pawn between the bishop dropped on 1h and the king (P*2g, P*3f, P*4e or P*5d).
    // Captured there, the bishop has left 1h, so the book's 2g2f (the pawn it pushed from 2h)
    // no longer uncovers a check, and the mate takes 21 more plies, not 13 (tsume verify,
    // 38 s: 手数不足, 35 against 27).
    {"zukou-091", 35},
    // Shorter than stated, also under game rules, where every defence counts: zukou-032 31
    // (game 31), zukou-039 61 (game 65), zukou-045 43 (game 43). A composer's solution is
    // then not the shortest in the position as transcribed.
    {"zukou-032", 31},
    {"zukou-039", 61},
    {"zukou-045", 43},
    // The data's own note: recorded as 9 plies, the full solution is said to be 21; ours: 19
    // (ply 2: 2g3h holds out longer than 3c4e).
    {"zukou-050", 19},
};

struct ZukouCase {
  Problem problem;
};

std::vector<ZukouCase> ZukouCases() {
  std::vector<ZukouCase> cases;
  for (Problem& p : ReadProblems(kZukouPath)) cases.push_back({std::move(p)});
  return cases;
}

void PrintTo(const ZukouCase& c, std::ostream* os) { *os << c.problem.id; }

class ZukouTest : public ::testing::TestWithParam<ZukouCase> {};

TEST_P(ZukouTest, SolvesWithTheStatedLength) {
  const Problem& p = GetParam().problem;
  SCOPED_TRACE(absl::StrCat(p.id, " ", p.sfen));
  absl::StatusOr<Position> root = Position::FromSfen(p.sfen);
  ASSERT_TRUE(root.ok()) << root.status();
  ASSERT_TRUE(p.expected_length.has_value());
  Solver solver(Options(Rules::kTsume, SlowLimit()));
  SolveResult r = solver.Solve(*root);
  RecordProperty("result", Describe(r));
  ASSERT_NE(r.status, SolveStatus::kNoMate) << Describe(r);
  if (r.status == SolveStatus::kMate && r.limit == LimitReason::kNone) {
    EXPECT_TRUE(ValidMainLine(*root, r, Rules::kTsume)) << Describe(r);
  }
  if (r.status != SolveStatus::kMate || !r.length_exact) {
    GTEST_SKIP() << "not solved exactly within " << SlowLimit() << " (stated " << *p.expected_length
                 << "): " << Describe(r);
  }
  // The reported length is the searched one (the queries share the solve's time limit, so they
  // may run out: then there is nothing to compare).
  SolveStatus within = solver.MateWithin(*root, r.length, true);
  SolveStatus shorter = solver.MateWithin(*root, r.length - 2, true);
  if (within != SolveStatus::kUnknown && shorter != SolveStatus::kUnknown) {
    EXPECT_EQ(within, SolveStatus::kMate) << Describe(r);
    EXPECT_EQ(shorter, SolveStatus::kNoMate)
        << "search finds a mate within " << r.length - 2 << ": " << Describe(r);
  }
  auto deviation = kZukouDeviations.find(p.id);
  int expected = deviation != kZukouDeviations.end() ? deviation->second : *p.expected_length;
  EXPECT_EQ(r.length, expected) << "stated " << *p.expected_length << ": " << Describe(r);
}

// zukou-098 drove proof numbers to their cap in the exact passes; with a 512 MB table (not with
// 256 MB) the search then called the capped child again and again without progress, and the
// problem went unsolved. The answer must be the same whatever the table size.
TEST(ZukouTableSizeTest, Zukou098SameAnswerWithEveryTableSize) {
  std::vector<Problem> problems = ReadProblems(kZukouPath);
  auto it = std::find_if(problems.begin(), problems.end(),
                         [](const Problem& p) { return p.id == "zukou-098"; });
  ASSERT_NE(it, problems.end());
  absl::StatusOr<Position> root = Position::FromSfen(it->sfen);
  ASSERT_TRUE(root.ok()) << root.status();
  for (int64_t hash_mb : {64, 256, 512, 1024}) {
    SCOPED_TRACE(absl::StrCat("hash ", hash_mb, " MB"));
    Solver solver(Options(Rules::kTsume, SlowLimit(), hash_mb));
    SolveResult r = solver.Solve(*root);
    ASSERT_EQ(r.status, SolveStatus::kMate) << Describe(r);
    EXPECT_TRUE(r.length_exact) << Describe(r);
    EXPECT_EQ(r.length, 31) << Describe(r);
  }
}

// zukou-021 (stated 21) is not solved exactly within the slow limit: the solve proves a mate in
// at most 25 and then cannot show there is none in 23 (that takes 633M nodes and an 8 GB
// table, 937 s: the exact length is 25). The recorded line is no solution
// either: at ply 4, where it has the king's 7c6d, the lance may take the gold (8b8c), and then
// there is no mate in the 17 plies the line has left (21.5M nodes, 18 s; the mate after 8b8c
// takes exactly 21 more plies: 39.4M nodes, 33 s). After the line's 5a6b 6a6b the mate takes
// exactly 23 more plies (304M nodes with 2 GB, 400 s).
TEST(ZukouRecordedLineTest, Zukou021LanceTakingTheGoldHoldsOutLonger) {
  std::vector<Problem> problems = ReadProblems(kZukouPath);
  auto it = std::find_if(problems.begin(), problems.end(),
                         [](const Problem& p) { return p.id == "zukou-021"; });
  if (it == problems.end()) GTEST_SKIP() << kZukouPath << " is absent";
  ASSERT_GE(it->solution_usi.size(), 4u);
  ASSERT_NE(it->solution_usi[3], "8b8c");  // the recorded defence is another one
  std::vector<std::string> moves(it->solution_usi.begin(), it->solution_usi.begin() + 3);
  moves.push_back("8b8c");
  absl::StatusOr<Position> pos = Position::FromUsiPosition(
      absl::StrCat("position sfen ", it->sfen, " moves ", absl::StrJoin(moves, " ")));
  ASSERT_TRUE(pos.ok()) << pos.status();
  int left = int(it->solution_usi.size()) - 4;
  ASSERT_EQ(left, 17);
  Solver solver(Options(Rules::kTsume, SlowLimit()));
  SolveStatus in_time = solver.MateWithin(*pos, left, true);
  if (in_time == SolveStatus::kUnknown) GTEST_SKIP() << "not decided within " << SlowLimit();
  EXPECT_EQ(in_time, SolveStatus::kNoMate);
}

// Microcosmos (1525 plies): exact length and a whole line that replays to mate. Measured: 82 s
// with a 1 GB table (75 s as this test); the limit is ten times the slow limit (600 s by
// default).
TEST(MicrocosmosTest, SolvedExactlyWithTheWholeLine) {
  std::vector<Problem> problems = ReadProblems(kMicrocosmosPath);
  if (problems.empty()) GTEST_SKIP() << kMicrocosmosPath << " is absent";
  const Problem& p = problems.front();
  absl::StatusOr<Position> root = Position::FromSfen(p.sfen);
  ASSERT_TRUE(root.ok()) << root.status();
  Solver solver(Options(Rules::kTsume, 10 * SlowLimit(), 1024));
  SolveResult r = solver.Solve(*root);
  ASSERT_NE(r.status, SolveStatus::kNoMate) << Describe(r);
  if (r.status != SolveStatus::kMate || !r.length_exact || r.limit != LimitReason::kNone) {
    GTEST_SKIP() << "not solved exactly within " << 10 * SlowLimit() << ": " << Describe(r);
  }
  EXPECT_EQ(r.length, 1525) << Describe(r);
  EXPECT_EQ(r.moves.size(), 1525u);
  EXPECT_TRUE(ValidMainLine(*root, r, Rules::kTsume)) << Describe(r);
}

// ---------------------------------------------------------------------------------------------
// A larger practical sample: game rules, exact stated lengths.

TEST(PracticalSlowTest, HundredPerLengthUnderGameRules) {
  Solver solver(Options(Rules::kGame, absl::Seconds(30), 64));
  int solved = 0;
  for (const char* name : {"mate3.txt", "mate5.txt", "mate7.txt", "mate9.txt", "mate11.txt"}) {
    std::ifstream in(kPracticalDir + name);
    if (!in) GTEST_SKIP() << kPracticalDir << name << " is absent";
    std::string text, line;
    for (int i = 0; i < 100 && std::getline(in, line); ++i) absl::StrAppend(&text, line, "\n");
    Collection c = ParseCollection(text, name, CollectionFormat::kPractical);
    ASSERT_TRUE(c.errors.empty()) << FormatInputError(c.errors.front());
    for (const Problem& p : c.problems) {
      SCOPED_TRACE(absl::StrCat(p.id, " ", p.sfen));
      absl::StatusOr<Position> root = Position::FromSfen(p.sfen);
      ASSERT_TRUE(root.ok());
      SolveResult r = solver.Solve(*root);
      ASSERT_EQ(r.status, SolveStatus::kMate) << Describe(r);
      EXPECT_TRUE(r.length_exact) << Describe(r);
      EXPECT_EQ(r.length, *p.expected_length) << Describe(r);
      EXPECT_TRUE(ValidMainLine(*root, r, Rules::kGame)) << Describe(r);
      ++solved;
    }
  }
  EXPECT_EQ(solved, 500);
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(Zukou, ZukouTest, ::testing::ValuesIn(ZukouCases()),
                         [](const ::testing::TestParamInfo<ZukouCase>& info) {
                           std::string name = info.param.problem.id;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(ZukouTest);

}  // namespace tsume
