// The movegen property tests at a larger scale (label "slow", not in the default suite): longer
// random games, several per problem, and the naive generator compared at every position.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/movegen_test_util.h"

namespace tsume {
namespace {

using testing_util::CheckSolutionLines;
using testing_util::PositionChecker;
using testing_util::ProblemLines;

TEST(MovegenSlowTest, ManyLongGamesFromTheInitialPosition) {
  PositionChecker checker(/*seed=*/11, /*deep_every=*/1);
  absl::StatusOr<Position> start = Position::FromSfen("startpos");
  ASSERT_TRUE(start.ok());
  const int kGames = TSUME_SANITIZED ? 50 : 1000;
  for (int game = 0; game < kGames && !::testing::Test::HasFailure(); ++game) {
    checker.RandomGame(*start, /*plies=*/300);
  }
  checker.Report();
}

class ProblemFileSlowTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ProblemFileSlowTest, GeneratorsAgreeWithNaiveEverywhere) {
  std::vector<testing_util::ProblemLine> problems =
      ProblemLines(GetParam(), TSUME_SANITIZED ? 10 : 1);
  ASSERT_FALSE(problems.empty()) << "no problems read from " << GetParam();
  PositionChecker checker(/*seed=*/std::hash<std::string>()(GetParam()) + 1, /*deep_every=*/1);
  for (const auto& problem : problems) {
    absl::StatusOr<Position> pos = Position::FromSfen(problem.sfen);
    if (!pos.ok()) continue;
    for (int game = 0; game < 3; ++game) {
      checker.RandomGame(*pos, /*plies=*/60);
      if (::testing::Test::HasFatalFailure()) return;
    }
  }
  CheckSolutionLines(problems, checker);
  checker.Report();
}

INSTANTIATE_TEST_SUITE_P(Problems, ProblemFileSlowTest,
                         ::testing::ValuesIn(testing_util::ProblemFiles()),
                         testing_util::ProblemFileName);

}  // namespace
}  // namespace tsume
