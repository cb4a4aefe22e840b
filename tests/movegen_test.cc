// Move generation property tests. Over more than a million positions (random games from the
// initial position and from every problem, plus every position along the practical problems'
// solution lines) the specialised generators must agree, as sets, with brute force:
//  - GenerateLegal with a naive generator (every piece, every target, both promotion choices,
//    every drop, filtered by making the move and looking for attackers of the king): at every
//    position in check (where GenerateLegal is GenerateEvasions) and every few others,
//  - GenerateChecks with the legal moves that GivesCheck accepts,
//  - GenerateEvasions and HasEvasion with the legal moves of a side in check,
//  - FindMateIn1 with the checks after which the opponent has no legal reply,
//  - EstimateRepliesToCheck with the replies counted after each check, where no piece of the
//    side in check is pinned, and OnlyDropsAnswerCheck with the replies,
//  - GivesCheck with making the move, IsLegal with "king not attacked after the move" (every
//    few positions, testing attacks piece by piece).
// The shared helpers live in movegen_test_util.h so the larger slow test can reuse them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/movegen_test_util.h"

namespace tsume {
namespace {

using testing_util::CheckSolutionLines;
using testing_util::PositionChecker;
using testing_util::ProblemLines;

// Under the sanitizers every tenth problem is taken (and startpos games are ten times fewer).
constexpr int kStride = TSUME_SANITIZED ? 10 : 1;

TEST(MovegenPropertyTest, RandomGamesFromTheInitialPosition) {
  PositionChecker checker(/*seed=*/1, /*deep_every=*/4);
  absl::StatusOr<Position> start = Position::FromSfen("startpos");
  ASSERT_TRUE(start.ok());
  const int kGames = TSUME_SANITIZED ? 10 : 100;
  for (int game = 0; game < kGames && !::testing::Test::HasFailure(); ++game) {
    checker.RandomGame(*start, /*plies=*/160);
  }
  checker.Report();
  EXPECT_GT(checker.counts().positions, kGames * 100);
  EXPECT_GT(checker.counts().in_check, kGames * 5);
  EXPECT_GT(checker.counts().estimates, kGames * 5);
}

TEST(MovegenPropertyTest, KnownPositions) {
  // Hand-picked cases: pawn-drop mate, a pinned interposer, double check, discovered checks,
  // the 593-move position, an attacker without a king.
  PositionChecker checker(/*seed=*/2, /*deep_every=*/1);
  for (const char* sfen : {
           "kn7/1s7/9/1N7/9/9/9/9/9 b P 1",
           "4B2nk/6G2/5pppp/7N1/9/9/9/9/9 b P2rb3g4s2n4l13p 1",
           "R8/2K1S1SSk/4B4/9/9/9/9/9/1L1L1L3 b RBGSNLP3g3n17p 1",
           "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1",
           "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1",
           "4l4/9/9/9/9/3k5/9/4G4/4K1B2 w - 1",
           "4k4/4r4/9/9/4B4/9/9/9/4K4 w - 1",
           "8k/9/9/7N1/9/9/9/9/L8 b R 1",
           "k8/9/1K7/9/9/9/8B/8B/9 b 2r4g4s4n4l18p 1",
       }) {
    absl::StatusOr<Position> pos = Position::FromSfen(sfen);
    ASSERT_TRUE(pos.ok()) << sfen << ": " << pos.status();
    checker.RandomGame(*pos, /*plies=*/30);
  }
  checker.Report();
}

class ProblemFileTest : public ::testing::TestWithParam<std::string> {};

// Random games from every problem of one file, then every position along its solution lines.
TEST_P(ProblemFileTest, GeneratorsAgreeWithBruteForce) {
  std::vector<testing_util::ProblemLine> problems = ProblemLines(GetParam(), kStride);
  ASSERT_FALSE(problems.empty()) << "no problems read from " << GetParam();
  PositionChecker checker(/*seed=*/std::hash<std::string>()(GetParam()), /*deep_every=*/8);
  int games = 0;
  for (const auto& problem : problems) {
    absl::StatusOr<Position> pos = Position::FromSfen(problem.sfen);
    if (!pos.ok()) continue;  // a rule test that is not a legal position
    checker.RandomGame(*pos, /*plies=*/24);
    ++games;
    if (::testing::Test::HasFatalFailure()) return;
  }
  int lines = CheckSolutionLines(problems, checker);
  checker.Report();
  EXPECT_GT(games, int(problems.size()) * 9 / 10);
  EXPECT_GT(checker.counts().positions, games * 10);
  if (GetParam().find("practical/") != std::string::npos) {
    EXPECT_EQ(lines, games);
  }
}

INSTANTIATE_TEST_SUITE_P(Problems, ProblemFileTest,
                         ::testing::ValuesIn(testing_util::ProblemFiles()),
                         testing_util::ProblemFileName);

}  // namespace
}  // namespace tsume
