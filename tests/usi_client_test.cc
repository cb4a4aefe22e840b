// Runs tools/usi_client.py against the fake engine in tests/testdata/report/fake_usi_engine.py.
#include <sys/wait.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <sstream>
#include <string>
#include <vector>

#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "nlohmann/json.hpp"
#include "tools/report.h"

namespace tsume {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;
using ::testing::Not;

const std::string kSource = TSUME_SOURCE_DIR;
const std::string kData = kSource + "/tests/testdata/report/";

std::string Quote(const std::string& s) { return "'" + s + "'"; }

struct ClientRun {
  int exit_code = -1;
  std::string output;
  double seconds = 0;
};

// Runs a shell command, capturing its stdout.
ClientRun RunShell(const std::string& command) {
  ClientRun run;
  auto start = std::chrono::steady_clock::now();
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  char buffer[4096];
  for (size_t n; (n = fread(buffer, 1, sizeof buffer, pipe)) > 0;) run.output.append(buffer, n);
  int status = pclose(pipe);
  run.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  run.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return run;
}

// Runs the client with the fake engine; `args` go after the engine flags, `engine_args` to the
// engine. stderr joins stdout unless `stdout_only`.
ClientRun RunClient(const std::string& args, const std::string& engine_args = "",
                    bool stdout_only = false) {
  return RunShell("python3 " + Quote(kSource + "/tools/usi_client.py") +
                  " --engine python3 --engine-arg " + Quote(kData + "fake_usi_engine.py") + " " +
                  engine_args + " " + args + (stdout_only ? " 2>/dev/null" : " 2>&1"));
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

class UsiClientTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("python3 -c 'import sys; sys.exit(sys.version_info < (3, 8))' "
                    ">/dev/null 2>&1") != 0) {
      GTEST_SKIP() << "python3 (3.8 or newer) is not available";
    }
  }
};

TEST_F(UsiClientTest, SolvesKnownMatesAndReportsNomate) {
  ClientRun run = RunClient(Quote(kData + "usi_problems.txt"));
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::vector<std::string> lines = Lines(run.output);
  ASSERT_EQ(lines.size(), 5u) << run.output;
  EXPECT_THAT(lines[0], MatchesRegex(R"( *1 +mate 1 +expected 1 +[0-9.]+ ms +ok)"));
  EXPECT_THAT(lines[1], MatchesRegex(R"( *2 +mate 3 +expected 3 +[0-9.]+ ms +ok)"));
  // Unknown to the fake engine; nothing stated. Line 4 has 3 SFEN fields behind "position
  // sfen", which the fake engine would reject unless the client completed it.
  EXPECT_THAT(lines[2], MatchesRegex(R"( *3 +nomate +expected - +[0-9.]+ ms *)"));
  EXPECT_THAT(lines[3], MatchesRegex(R"( *4 +nomate +expected - +[0-9.]+ ms *)"));
  EXPECT_THAT(lines[4],
              MatchesRegex(R"(problems 4  solved 2  matches 2  mean [0-9.]+ ms  max .*)"));
}

TEST_F(UsiClientTest, JsonLinesAreReadableByTsumeReport) {
  ClientRun run = RunClient("--json " + Quote(kData + "usi_problems.txt"), "", true);
  ASSERT_EQ(run.exit_code, 0) << run.output;
  std::vector<std::string> lines = Lines(run.output);
  ASSERT_EQ(lines.size(), 4u) << run.output;
  nlohmann::json first = nlohmann::json::parse(lines[0]);
  EXPECT_EQ(first["result"], "mate");
  EXPECT_EQ(first["length"], 1);
  EXPECT_EQ(first["moves"], nlohmann::json::array({"N*8e"}));
  EXPECT_EQ(first["expected_length"], 1);
  EXPECT_EQ(first["match"], true);
  EXPECT_EQ(first["nodes"], 1000);  // from the engine's last info line
  EXPECT_EQ(first["source"], kData + "usi_problems.txt:2");
  EXPECT_EQ(nlohmann::json::parse(lines[3])["sfen"], "4k4/9/9/9/9/9/9/9/4K4 b 2G 1");

  std::istringstream in(run.output);
  RunResults results = ParseResults(in, "client.jsonl");
  EXPECT_TRUE(results.bad_lines.empty()) << results.bad_lines[0];
  ASSERT_EQ(results.problems.size(), 4u);
  Summary summary = Summarize(results);
  EXPECT_EQ(summary.rows.back().solved, 2);
  EXPECT_EQ(summary.rows.back().matches, 2);
}

TEST_F(UsiClientTest, ContradictedLengthsExitOne) {
  ClientRun run = RunClient(Quote(kData + "usi_mismatch.txt"));
  EXPECT_EQ(run.exit_code, 1) << run.output;
  std::vector<std::string> lines = Lines(run.output);
  ASSERT_EQ(lines.size(), 3u) << run.output;
  EXPECT_THAT(lines[0], MatchesRegex(R"( *1 +mate 3 +expected 1 .*MISMATCH)"));
  EXPECT_THAT(lines[1], MatchesRegex(R"( *2 +nomate +expected 1 .*MISMATCH)"));
}

TEST_F(UsiClientTest, OptionsReachTheEngine) {
  ClientRun run = RunClient("--option FakeMate=false " + Quote(kData + "usi_problems.txt"));
  EXPECT_EQ(run.exit_code, 0) << run.output;
  std::vector<std::string> lines = Lines(run.output);
  ASSERT_EQ(lines.size(), 5u) << run.output;
  for (int i = 0; i < 4; ++i) EXPECT_THAT(lines[i], HasSubstr("notimplemented"));
  EXPECT_THAT(lines[4], HasSubstr("solved 0"));
}

TEST_F(UsiClientTest, EngineThatDiesIsReported) {
  ClientRun run =
      RunClient(Quote(kData + "usi_problems.txt"), "--engine-arg --die-after --engine-arg 1");
  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_THAT(run.output, HasSubstr("engine exited with status 7"));
  EXPECT_THAT(run.output, HasSubstr("problem 2"));
  EXPECT_THAT(run.output, HasSubstr("problems 1  solved 1"));  // what finished is still summed
}

TEST_F(UsiClientTest, SilentEngineGetsStopAfterTheGracePeriod) {
  // The engine answers only on `stop`, which the client sends after time-ms + grace-ms.
  ClientRun run = RunClient("--time-ms 100 --grace-ms 200 " + Quote(kData + "usi_problems.txt"),
                            "--engine-arg --ignore-time");
  EXPECT_EQ(run.exit_code, 0) << run.output;
  std::vector<std::string> lines = Lines(run.output);
  ASSERT_EQ(lines.size(), 5u) << run.output;
  for (int i = 0; i < 4; ++i) {
    EXPECT_THAT(lines[i], MatchesRegex(" *[0-9]+ +timeout +expected [-0-9]+ +[0-9.]+ ms *"));
    // The time is the field before " ms".
    size_t ms_at = lines[i].find(" ms");
    ASSERT_NE(ms_at, std::string::npos) << lines[i];
    double ms = std::stod(lines[i].substr(lines[i].rfind(' ', ms_at - 1) + 1));
    EXPECT_GE(ms, 300 - 1) << lines[i];  // not before the grace period ran out
    EXPECT_LT(ms, 300 + 3000) << lines[i];
  }
  EXPECT_THAT(lines[4], HasSubstr("problems 4  solved 0"));
}

TEST_F(UsiClientTest, EngineIgnoringStopEndsTheRun) {
  ClientRun run = RunClient("--time-ms 100 --grace-ms 200 " + Quote(kData + "usi_problems.txt"),
                            "--engine-arg --ignore-time --engine-arg --ignore-stop");
  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_THAT(run.output, HasSubstr("did not answer 'stop'"));
  EXPECT_LT(run.seconds, 20);
}

TEST_F(UsiClientTest, BadInputLineIsNamed) {
  ClientRun run = RunClient(Quote(kData + "usi_bad.txt"));
  EXPECT_EQ(run.exit_code, 2) << run.output;
  EXPECT_THAT(run.output, HasSubstr("usi_bad.txt:2: SFEN board must have 9 ranks"));
  EXPECT_THAT(run.output, Not(HasSubstr("problems ")));  // nothing was run
}

TEST_F(UsiClientTest, MissingEngineIsReported) {
  ClientRun run =
      RunShell("python3 " + Quote(kSource + "/tools/usi_client.py") +
               " --engine /nonexistent/usi-engine " + Quote(kData + "usi_problems.txt") + " 2>&1");
  EXPECT_EQ(run.exit_code, 3) << run.output;
  EXPECT_THAT(run.output, HasSubstr("cannot start engine /nonexistent/usi-engine"));
}

}  // namespace
}  // namespace tsume
