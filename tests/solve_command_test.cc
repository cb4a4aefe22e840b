// `tsume solve` as a command: exit status and error lines for bad input in files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "nlohmann/json.hpp"
#include "tools/commands.h"

namespace tsume {
namespace {

using ::testing::HasSubstr;

std::string Fixture(const std::string& name) {
  return std::string(TSUME_SOURCE_DIR) + "/tests/testdata/batch/" + name;
}

struct CommandRun {
  int exit_code;
  std::string out, err;
};

CommandRun Solve(const CommandArgs& args) {
  std::ostringstream out, err;
  int code = RunSolve(args, out, err);
  return {code, out.str(), err.str()};
}

std::vector<nlohmann::json> JsonLines(const std::string& text) {
  std::vector<nlohmann::json> lines;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    lines.push_back(nlohmann::json::parse(line));
  }
  return lines;
}

// A bad line is reported with its file and line and skipped; the other problems are solved;
// the status says the input was bad.
TEST(SolveCommandTest, BadLineIsReportedTheRestSolvedAndTheStatusIsTwo) {
  CommandRun run = Solve({"--rules", "game", "--json", Fixture("bad_line.txt")});
  EXPECT_EQ(run.exit_code, kExitUsage);
  EXPECT_THAT(run.err, HasSubstr("tsume solve: " + Fixture("bad_line.txt") + ":2: "));
  std::vector<nlohmann::json> lines = JsonLines(run.out);
  ASSERT_EQ(lines.size(), 3u);
  for (const nlohmann::json& line : lines) {
    EXPECT_EQ(line["result"], "mate") << line.dump();
    EXPECT_NE(line["source"], Fixture("bad_line.txt") + ":2");
  }
}

TEST(SolveCommandTest, GoodFileGivesStatusZero) {
  CommandRun run = Solve({"--rules", "game", "--json", Fixture("practical_short.txt")});
  EXPECT_EQ(run.exit_code, kExitOk) << run.err;
  EXPECT_EQ(JsonLines(run.out).size(), 10u);
}

}  // namespace
}  // namespace tsume
