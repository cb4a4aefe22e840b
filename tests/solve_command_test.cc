// `tsume solve` as a command: exit status and error lines for bad input in files; the
// progress line of solve and verify on a terminal; the JSON account of the exact passes;
// what solve and verify leave after Ctrl-C; a table the machine cannot give.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "nlohmann/json.hpp"
#include "problems/collection.h"
#include "solver/solver.h"
#include "tests/json_lines_util.h"
#include "tools/batch.h"
#include "tools/commands.h"
#include "tools/solve_output.h"

namespace tsume {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

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

// A position without the king to mate is no mate, and the text says why (an SFEN that lost
// its king to a typo); another no mate gives no reason.
TEST(SolveCommandTest, NoKingToMateIsSaid) {
  CommandRun run = Solve({"9/9/9/9/9/9/9/9/4K4 b G 1"});
  EXPECT_EQ(run.exit_code, kExitOk) << run.err;
  EXPECT_THAT(run.out, HasSubstr("\nno mate (White has no king)\n"));
  run = Solve({"4k4/9/9/9/9/9/9/9/9 w G 1"});
  EXPECT_THAT(run.out, HasSubstr("\nno mate (Black has no king)\n"));
  run = Solve({"7nl/7k1/9/7pp/9/9/9/9/9 b GS 1"});
  EXPECT_THAT(run.out, HasSubstr("\nno mate\n"));
}

// "-" is standard input (`grep ... | tsume solve -`), as for `tsume report -`.
TEST(SolveCommandTest, DashSolvesStandardInput) {
  std::istringstream input("4k4/9/4P4/9/9/9/9/9/9 b G 1\n");
  std::streambuf* saved = std::cin.rdbuf(input.rdbuf());
  CommandRun run = Solve({"--json", "-"});
  std::cin.rdbuf(saved);
  EXPECT_EQ(run.exit_code, kExitOk) << run.err;
  std::vector<nlohmann::json> lines = JsonLines(run.out);
  ASSERT_EQ(lines.size(), 1u) << run.out;
  EXPECT_EQ(lines[0]["source"], "stdin:1");
  EXPECT_EQ(lines[0]["result"], "mate");
  EXPECT_EQ(lines[0]["length"], 1);
}

// An argument that is neither a file nor a position: a path is named as a missing file, a
// board as a bad SFEN.
TEST(SolveCommandTest, MissingFileIsNamedAsOne) {
  for (const char* path : {"problems/classics/no-such.tsv", "no-such.txt", "results/zukou"}) {
    CommandRun run = Solve({path});
    EXPECT_EQ(run.exit_code, kExitUsage) << path;
    EXPECT_EQ(run.err, absl::StrCat("tsume solve: cannot open '", path, "': no such file\n"));
  }
  CommandRun board = Solve({"lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL"});
  EXPECT_EQ(board.exit_code, kExitUsage);
  EXPECT_THAT(board.err, HasSubstr("SFEN"));
  EXPECT_THAT(board.err, ::testing::Not(HasSubstr("no such file")));
}

// JSON accounts for an exact length: the first mate and each pass for a shorter one (zukou-034:
// 19 plies first, 17 exact). A no-mate has neither.
TEST(SolveCommandTest, JsonCarriesTheFirstMateAndTheExactPasses) {
  CommandRun run = Solve({"--json", "9/7lS/7pb/5S1B1/5rgk1/8p/4+R2G1/9/9 b SN2gs3n3l16p 1"});
  EXPECT_EQ(run.exit_code, kExitOk) << run.err;
  std::vector<nlohmann::json> lines = JsonLines(run.out);
  ASSERT_EQ(lines.size(), 1u);
  const nlohmann::json& mate = lines[0];
  ASSERT_EQ(mate["result"], "mate") << mate.dump();
  EXPECT_EQ(mate["length"], 17);
  EXPECT_EQ(mate["first_mate"]["length"], 19) << mate.dump();
  EXPECT_GT(mate["first_mate"]["nodes"].get<int64_t>(), 0);
  const nlohmann::json& passes = mate["exact_passes"];
  ASSERT_EQ(passes.size(), 2u) << mate.dump();
  EXPECT_EQ(passes[0]["within"], 17);
  EXPECT_EQ(passes[0]["result"], "mate");
  EXPECT_EQ(passes[0]["length"], 17);
  EXPECT_EQ(passes[1]["within"], 15);
  EXPECT_EQ(passes[1]["result"], "nomate");
  EXPECT_FALSE(passes[1].contains("length"));
  EXPECT_FALSE(passes[0].contains("sweep"));  // a line of 19 plies is not swept
  run = Solve({"--json", "4k4/9/9/9/9/9/9/9/9 b P 1"});
  lines = JsonLines(run.out);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["result"], "nomate") << lines[0].dump();
  EXPECT_FALSE(lines[0].contains("first_mate"));
  EXPECT_FALSE(lines[0].contains("exact_passes"));
}

// --kif writes a record per position that the KIF reader takes back as that position and the
// line solve found: both colours attacking, drops, promotions and 同 (the practical fixture's
// ten mates), and a position with no mate (the diagram alone, the result in a comment).
TEST(SolveCommandTest, KifRecordsReadBackAsThePositionAndTheLine) {
  const std::string file = Fixture("practical_short.txt");
  CommandRun json = Solve({"--rules", "game", "--json", file});
  ASSERT_EQ(json.exit_code, kExitOk) << json.err;
  std::vector<nlohmann::json> results = JsonLines(json.out);
  CommandRun kif = Solve({"--rules", "game", "--kif", file});
  ASSERT_EQ(kif.exit_code, kExitOk) << kif.err;
  std::vector<std::string> records =
      absl::StrSplit(kif.out, "# KIF形式棋譜ファイル\n", absl::SkipEmpty());
  ASSERT_EQ(records.size(), 10u) << kif.out;
  ASSERT_EQ(results.size(), 10u);
  int white_to_move = 0;
  for (size_t i = 0; i < records.size(); ++i) {
    const nlohmann::json& result = results[i];
    ASSERT_EQ(result["result"], "mate") << result.dump();
    Collection read = ParseCollection(records[i], "record.kif", CollectionFormat::kKif);
    ASSERT_TRUE(read.errors.empty()) << FormatInputError(read.errors[0]) << "\n" << records[i];
    ASSERT_EQ(read.problems.size(), 1u) << records[i];
    const Problem& problem = read.problems[0];
    absl::StatusOr<Position> solved = Position::FromSfen(result["sfen"].get<std::string>());
    ASSERT_TRUE(solved.ok());
    EXPECT_EQ(problem.sfen, solved->Sfen()) << records[i];
    EXPECT_EQ(problem.solution_usi, result["moves"].get<std::vector<std::string>>()) << records[i];
    EXPECT_THAT(records[i],
                HasSubstr(absl::StrCat("まで", result["length"].get<int>(), "手で詰み\n")));
    white_to_move += solved->side_to_move() == kWhite;
  }
  EXPECT_EQ(white_to_move, 8);

  CommandRun none = Solve({"--kif", "4k4/9/9/9/9/9/9/9/9 b P 1"});
  ASSERT_EQ(none.exit_code, kExitOk) << none.err;
  EXPECT_THAT(none.out, HasSubstr("# no mate\n"));
  EXPECT_THAT(none.out, Not(HasSubstr("手数")));
  Collection read = ParseCollection(none.out, "none.kif", CollectionFormat::kKif);
  ASSERT_EQ(read.problems.size(), 1u) << none.out;
  EXPECT_EQ(read.problems[0].sfen, "4k4/9/9/9/9/9/9/9/9 b P 1");
  EXPECT_TRUE(read.problems[0].solution_usi.empty());

  CommandRun both = Solve({"--kif", "--json", file});
  EXPECT_EQ(both.exit_code, kExitUsage);
  EXPECT_THAT(both.err, HasSubstr("--json and --kif"));
  // Said before any file is read.
  CommandRun both_missing = Solve({"--kif", "--json", "/nonexistent/problems.sfen"});
  EXPECT_EQ(both_missing.exit_code, kExitUsage);
  EXPECT_THAT(both_missing.err, HasSubstr("--json and --kif"));
}

// --kif-dir writes each record as its own file, in Shift-JIS, named after the problem: the
// files read back (through the reader's Shift-JIS decoding) as the records --kif writes.
TEST(SolveCommandTest, KifDirHoldsOneShiftJisFilePerProblem) {
  const std::string file = Fixture("practical_short.txt");
  const std::string dir =
      ::testing::TempDir() + "solve_kif_dir_" + std::to_string(getpid()) + "/records";
  std::filesystem::remove_all(dir);
  CommandRun kif = Solve({"--rules", "game", "--kif", file});
  ASSERT_EQ(kif.exit_code, kExitOk) << kif.err;
  std::vector<std::string> records =
      absl::StrSplit(kif.out, "# KIF形式棋譜ファイル\n", absl::SkipEmpty());
  CommandRun text = Solve({"--rules", "game", "--kif-dir", dir, file});
  ASSERT_EQ(text.exit_code, kExitOk) << text.err;
  EXPECT_THAT(text.out, HasSubstr("mate in "));  // the usual output, as well
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  ASSERT_EQ(names.size(), records.size());
  EXPECT_EQ(names[0], "practical_short.txt_1.kif");
  for (size_t i = 0; i < records.size(); ++i) {
    std::string path = absl::StrCat(dir, "/practical_short.txt_", i + 1, ".kif");
    std::ifstream in(path, std::ios::binary);
    std::stringstream bytes;
    bytes << in.rdbuf();
    EXPECT_FALSE(absl::StrContains(bytes.str(), "詰み")) << "not Shift-JIS: " << path;
    absl::StatusOr<std::string> decoded = DecodeToUtf8(bytes.str());
    ASSERT_TRUE(decoded.ok()) << path;
    // --kif's record i ends with the blank line between records.
    EXPECT_EQ(*decoded + "\n", "# KIF形式棋譜ファイル\n" + records[i]) << path;
  }
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path());

  // A directory that cannot be made is a flag error, said before anything is solved.
  CommandRun bad = Solve({"--kif-dir", file + "/records", file});
  EXPECT_EQ(bad.exit_code, kExitUsage);
  EXPECT_THAT(bad.err, HasSubstr("flag --kif-dir: cannot make the directory '" + file));
  EXPECT_EQ(bad.out, "");
}

// A pass after a sweep of its line carries the sweep's figures (two of Microcosmos's passes,
// as measured); the others carry none.
TEST(SolveOutputTest, SweepFiguresGoWithTheirPass) {
  SolveResult result;
  result.first_mate_length = 1591;
  result.first_mate_nodes = 36271011;
  result.exact_passes.push_back(
      {.within = 1589, .status = SolveStatus::kMate, .length = 1587, .nodes = 2868});
  result.exact_passes.push_back({.within = 1583,
                                 .status = SolveStatus::kMate,
                                 .length = 1525,
                                 .nodes = 33351064,
                                 .sweep_nodes = 33330982,
                                 .sweep_shortening = 60});
  nlohmann::json j;
  AddExactPasses(result, j);
  const nlohmann::json& passes = j["exact_passes"];
  ASSERT_EQ(passes.size(), 2u) << j.dump();
  EXPECT_FALSE(passes[0].contains("sweep"));
  EXPECT_EQ(passes[1]["nodes"], 33351064);
  EXPECT_EQ(passes[1]["sweep"]["nodes"], 33330982);
  EXPECT_EQ(passes[1]["sweep"]["shortened_by"], 60);
}

// A line that leaves pieces in hand after the budget for trying lines as long ran out says so,
// in the text and in JSON; a line without that mark says nothing of it.
TEST(SolveOutputTest, LineWhoseTieBudgetRanOutSaysSo) {
  absl::StatusOr<Position> pos = Position::FromSfen("4k4/9/4P4/9/9/9/9/9/9 b GP2r2b3g4s4n4l16p 1");
  ASSERT_TRUE(pos.ok());
  InputProblem problem;
  problem.source = "argument";
  problem.sfen = pos->Sfen();
  SolveResult result;
  result.status = SolveStatus::kMate;
  result.length = 1;
  result.length_exact = true;
  result.moves = {*pos->ParseUsiMove("G*5b")};
  EXPECT_THAT(FormatSolveResult(problem, *pos, result), Not(HasSubstr("not every line")));
  EXPECT_FALSE(SolveResultToJson(problem, *pos, result).contains("ties_cut"));
  result.ties_cut = true;
  EXPECT_THAT(FormatSolveResult(problem, *pos, result),
              HasSubstr("(it leaves pieces in hand; not every line as long was tried"));
  EXPECT_EQ(SolveResultToJson(problem, *pos, result)["ties_cut"], true);
}

// zukou-008: no mate found in the first seconds, so a progress line is due.
constexpr char kSlowSfen[] = "4+bn1g1/5kpPl/2l1b1s2/3+l1N1GP/4G1+P1N/5L3/9/1+r7/R8 b GP3sn13p 1";

// Runs the tsume binary with `args`, stderr on a pseudo-terminal (or a pipe when `terminal` is
// false) and stdout discarded; returns what it wrote to stderr, or nothing if it cannot run.
std::optional<std::string> StderrOfBinary(const std::vector<std::string>& args, bool terminal) {
  const std::string binary = TSUME_BINARY_DIR "/tsume";
  if (access(binary.c_str(), X_OK) != 0) return std::nullopt;
  int read_fd = -1, write_fd = -1;
  if (terminal) {
    read_fd = posix_openpt(O_RDWR | O_NOCTTY);
    if (read_fd < 0 || grantpt(read_fd) != 0 || unlockpt(read_fd) != 0) return std::nullopt;
    write_fd = open(ptsname(read_fd), O_RDWR | O_NOCTTY);
  } else {
    int fds[2];
    if (pipe(fds) != 0) return std::nullopt;
    read_fd = fds[0];
    write_fd = fds[1];
  }
  if (write_fd < 0) return std::nullopt;
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, write_fd, 2);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addclose(&actions, write_fd);
  posix_spawn_file_actions_addclose(&actions, read_fd);
  std::vector<char*> argv = {const_cast<char*>(binary.c_str())};
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  pid_t pid;
  int rc = posix_spawn(&pid, binary.c_str(), &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  close(write_fd);
  if (rc != 0) {
    close(read_fd);
    return std::nullopt;
  }
  // Until the child closes its end (a terminal then reads as an error, a pipe as the end).
  std::string text;
  char chunk[4096];
  for (ssize_t n; (n = read(read_fd, chunk, sizeof chunk)) > 0;) text.append(chunk, size_t(n));
  close(read_fd);
  waitpid(pid, nullptr, 0);
  return text;
}

// On a terminal, solve and verify keep a progress line on stderr (rewritten in place); piped,
// they print none.
TEST(ProgressLineTest, ShownOnATerminalOnly) {
  std::vector<std::string> solve = {"solve", "--time-ms", "1500", kSlowSfen};
  std::optional<std::string> shown = StderrOfBinary(solve, true);
  if (!shown) GTEST_SKIP() << "the tsume binary cannot be run here";
  EXPECT_THAT(*shown, HasSubstr("\r\033[Knodes "));
  EXPECT_THAT(*shown, HasSubstr("none within "));

  std::vector<std::string> verify = {"verify", "--time-ms", "1500", kSlowSfen};
  std::optional<std::string> verify_shown = StderrOfBinary(verify, true);
  ASSERT_TRUE(verify_shown);
  EXPECT_THAT(*verify_shown, HasSubstr("\r\033[K[1/1] argument  solve  nodes "));

  for (const auto& args : {solve, verify}) {
    std::optional<std::string> piped = StderrOfBinary(args, false);
    ASSERT_TRUE(piped);
    EXPECT_EQ(*piped, "") << args[0];
  }
}

// Ctrl-C as the terminal sends it: SIGINT, once the command has put its handler in place and
// `ready` holds (given up after two minutes, when the command has ended on its own anyway).
std::thread InterruptWhen(std::function<bool()> ready) {
  return std::thread([ready] {
    auto handler_in_place = [] {
      struct sigaction now;
      sigaction(SIGINT, nullptr, &now);
      return now.sa_handler != SIG_DFL && now.sa_handler != SIG_IGN;
    };
    absl::Time give_up = absl::Now() + absl::Seconds(120);
    while (absl::Now() < give_up) {
      if (handler_in_place() && ready()) {
        std::raise(SIGINT);
        return;
      }
      absl::SleepFor(absl::Milliseconds(5));
    }
  });
}

// A mate in 5 (verify_test.cc's kSwap), solved and verified in a few milliseconds.
constexpr char kMateIn5[] = "7sk/5+R3/2R3s1G/6N2/9/9/9/9/9 b 2b3g2s3n4l18p 1";

// A file of this test process's own under the test directory.
std::string TempFile(const std::string& name) {
  return ::testing::TempDir() + name + "_" + std::to_string(getpid());
}

std::string WriteLines(const std::string& name, const std::vector<std::string>& lines) {
  std::string path = TempFile(name) + ".txt";
  std::ofstream file(path);
  for (const std::string& line : lines) file << line << "\n";
  return path;
}

// A results file's whole JSON lines (none while it does not exist); read while the command
// writes, the last line may be partly written.
std::vector<nlohmann::json> ResultsIn(const std::string& path) {
  std::ifstream file(path);
  std::stringstream buffer;
  buffer << file.rdbuf();
  std::string text = buffer.str();
  return JsonLines(text.substr(0, text.rfind('\n') + 1));
}

// A position given as one long argument (here a game of 8,000 plies) is a position, though
// asking whether it names a file fails ("File name too long": it used to throw).
TEST(SolveCommandTest, VeryLongPositionArgumentIsAPosition) {
  std::string usi = "position sfen 8k/9/8P/9/9/9/9/9/K8 b G 1 moves";
  for (int round = 0; round < 2000; ++round) absl::StrAppend(&usi, " 9i9h 1a2a 9h9i 2a1a");
  CommandRun run = Solve({"--rules", "game", usi});
  EXPECT_EQ(run.exit_code, kExitOk) << run.err;
  EXPECT_THAT(run.out, HasSubstr("mate in 1")) << run.err;
}

// A file whose name is not UTF-8 (JSON needs UTF-8): its problems are solved and written with
// U+FFFD for the bad bytes, by every command (solve used to abort); batch's --resume still
// finds them done. A newline in a name or position argument is escaped in the one-line error.
TEST(SolveCommandTest, NamesThatAreNotUtf8OrHoldNewlinesAreWrittenSafely) {
  std::string path = TempFile("name_\xfe\xff") + ".txt";
  std::ofstream(path) << "position sfen " << kMateIn5 << "\n";
  CommandRun run = Solve({"--json", path});
  EXPECT_EQ(run.exit_code, kExitOk) << run.err;
  std::vector<nlohmann::json> lines = JsonLines(run.out);
  ASSERT_EQ(lines.size(), 1u) << run.out;
  EXPECT_EQ(lines[0]["result"], "mate");
  EXPECT_THAT(lines[0]["source"].get<std::string>(), HasSubstr("name_\uFFFD\uFFFD"));

  std::string results = TempFile("utf8_results") + ".jsonl";
  for (const char* resume : {"", "--resume"}) {
    std::ostringstream out, err;
    CommandArgs args = {"--out", results, path};
    if (*resume) args.insert(args.begin(), resume);
    EXPECT_EQ(RunBatch(args, out, err), kExitOk) << err.str();
    EXPECT_THAT(err.str() + out.str(), HasSubstr(*resume ? "0 run now, 1 kept" : "1 run now"));
  }
  std::ostringstream out, err;
  EXPECT_EQ(RunVerify({"--json", path}, out, err), kExitOk) << err.str();
  EXPECT_EQ(JsonLines(out.str()).size(), 1u);

  for (const char* arg : {"no\nsuch.txt", "4k4/9/9/9/9/9/9/9/9\n b G 1"}) {
    run = Solve({arg});
    EXPECT_EQ(run.exit_code, kExitUsage);
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  }
  // A file that exists under such a name: its bad line's error is one line too.
  std::string newline_path = TempFile("new\nline") + ".txt";
  std::ofstream(newline_path) << "not a position\nposition sfen " << kMateIn5 << "\n";
  run = Solve({newline_path});
  EXPECT_EQ(run.exit_code, kExitUsage);
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
  EXPECT_THAT(run.err, HasSubstr("new\\nline"));
  EXPECT_THAT(run.out, HasSubstr("mate in 5"));
}

// A pipe is a file of problems, as from `tsume solve <(grep ... problems.txt)` (solve took it
// for a position and said no such file).
TEST(SolveCommandTest, PipeIsReadAsAFile) {
  std::string fifo = TempFile("problems_pipe");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] { std::ofstream(fifo) << "position sfen " << kMateIn5 << "\n"; });
  CommandRun run = Solve({fifo});
  int unblock = open(fifo.c_str(), O_RDONLY | O_NONBLOCK);  // should the pipe not have been read
  writer.join();
  close(unblock);
  unlink(fifo.c_str());
  EXPECT_EQ(run.exit_code, kExitOk) << run.err;
  EXPECT_THAT(run.out, HasSubstr("mate in 5"));
}

// A directory given as the file of problems is named as one by every command (batch used to
// abort on it), with status 2.
TEST(SolveCommandTest, DirectoryIsNamedAsOne) {
  std::string directory = ::testing::TempDir();
  std::vector<
      std::pair<std::string, std::function<int(const CommandArgs&, std::ostream&, std::ostream&)>>>
      commands = {{"solve", RunSolve}, {"batch", RunBatch}, {"verify", RunVerify}};
  for (const auto& [name, run] : commands) {
    std::ostringstream out, err;
    EXPECT_EQ(run({directory}, out, err), kExitUsage) << name;
    std::string message = err.str();
    EXPECT_THAT(message, HasSubstr("a directory, not a file of problems")) << name;
    EXPECT_EQ(std::count(message.begin(), message.end(), '\n'), 1) << name << ": " << message;
  }
}

// A table the machine cannot map (--hash-mb's largest, 1 TB) is a one-line error naming the
// flag, with status 2, from solve, batch and verify alike; batch and verify fail before they
// open their results file, so an earlier file is left as it was.
TEST(SolveCommandTest, TableTooLargeForTheMachineIsAFlagError) {
  const std::string too_large = std::to_string(1 << 20);
  SolveOptions options;
  options.hash_mb = 1 << 20;
  if (Solver::Create(options).ok()) {
    GTEST_SKIP() << "this machine maps 1 TB (memory overcommit allowed)";
  }
  std::string problem = WriteLines("too_large", {kMateIn5});
  std::string results = TempFile("too_large_results") + ".jsonl";
  std::ofstream(results) << "{\"id\":\"earlier\"}\n";
  std::vector<
      std::pair<std::string, std::function<int(const CommandArgs&, std::ostream&, std::ostream&)>>>
      commands = {{"solve", RunSolve}, {"batch", RunBatch}, {"verify", RunVerify}};
  for (const auto& [name, run] : commands) {
    CommandArgs args = {"--hash-mb", too_large, problem};
    if (name != "solve") args.insert(args.begin(), {"--out", results});
    std::ostringstream out, err;
    EXPECT_EQ(run(args, out, err), kExitUsage) << name;
    EXPECT_EQ(err.str(), absl::StrCat("tsume ", name, ": flag --hash-mb: cannot reserve ",
                                      too_large, " MB for the table: not enough memory\n"));
    EXPECT_EQ(out.str(), "") << name;
    EXPECT_EQ(ResultsIn(results).size(), 1u) << name << ": the results file was changed";
  }
  // With jobs, the message says how the flag was shared out.
  std::ostringstream out, err;
  EXPECT_EQ(RunBatch({"--jobs", "2", "--hash-mb", too_large, problem}, out, err), kExitUsage);
  EXPECT_THAT(err.str(), HasSubstr("(" + too_large + " MB shared by 2 jobs)"));
  std::remove(problem.c_str());
  std::remove(results.c_str());
}

// Ctrl-C during a solve: the position's result as far as known, none for the positions after
// it (named by count), and status 130.
TEST(SolveCommandTest, CtrlCShowsWhatIsKnownAndTheStatusIs130) {
  std::string input = WriteLines("solve_interrupted", {kSlowSfen, kMateIn5});
  absl::Time start = absl::Now();
  std::thread interrupter =
      InterruptWhen([start] { return absl::Now() - start > absl::Milliseconds(300); });
  CommandRun run = Solve({"--time-ms", "120000", "--hash-mb", "16", "--json", input});
  interrupter.join();
  EXPECT_EQ(run.exit_code, kExitInterrupted) << run.err;
  std::vector<nlohmann::json> lines = JsonLines(run.out);
  ASSERT_EQ(lines.size(), 1u) << run.out;
  EXPECT_EQ(lines[0]["result"], "unknown") << run.out;
  EXPECT_EQ(lines[0]["limit"], "stopped") << run.out;
  EXPECT_THAT(run.err, HasSubstr("tsume solve: interrupted: 1 position not solved"));
  std::remove(input.c_str());
}

// Ctrl-C during a collection's verification: the results written before it stand, the one it
// stopped is shown but neither written nor counted, the rest are named by count, status 130.
TEST(VerifyCommandTest, CtrlCKeepsTheWrittenResultsAndTheStatusIs130) {
  std::string input = WriteLines("verify_interrupted", {kMateIn5, kSlowSfen, kMateIn5});
  std::string results = TempFile("verify_interrupted") + ".jsonl";
  std::remove(results.c_str());
  // A while after the first result is written, so that the slow second problem has surely
  // started (right after the write, the stop could land before it does: seen once under load).
  absl::Time written = absl::InfiniteFuture();
  std::thread interrupter = InterruptWhen([&] {
    if (written == absl::InfiniteFuture() && !ResultsIn(results).empty()) written = absl::Now();
    return absl::Now() - written > absl::Milliseconds(200);
  });
  std::ostringstream out, err;
  int code =
      RunVerify({"--time-ms", "120000", "--hash-mb", "16", "--out", results, input}, out, err);
  interrupter.join();
  EXPECT_EQ(code, kExitInterrupted) << err.str();
  std::string text = out.str();
  EXPECT_THAT(text, HasSubstr(":1  sound"));
  EXPECT_THAT(text, HasSubstr(":2  unknown"));
  EXPECT_THAT(text, Not(HasSubstr(":3  ")));
  EXPECT_THAT(text, HasSubstr("summary:  sound 1\n"));
  EXPECT_THAT(text, HasSubstr("interrupted: 2 problems not verified"));
  std::vector<nlohmann::json> kept = ResultsIn(results);
  ASSERT_EQ(kept.size(), 1u);
  EXPECT_EQ(kept[0]["verdict"], "sound");
  std::remove(input.c_str());
  std::remove(results.c_str());
}

// Ctrl-C during a second try (--total-time-ms): the problem keeps its first try's result,
// written, and the run still says it did not finish.
TEST(VerifyCommandTest, CtrlCInASecondTryKeepsTheFirstTrysResult) {
  std::string input = WriteLines("verify_second_try", {kMateIn5, kSlowSfen});
  std::string results = TempFile("verify_second_try") + ".jsonl";
  std::remove(results.c_str());
  // zukou-008's first try ends after 200 ms (the clock is read every 1024 nodes), and its
  // second try, with the rest of ten minutes, is under way two seconds after the first result.
  absl::Time first_written = absl::InfiniteFuture();
  std::thread interrupter = InterruptWhen([&] {
    if (first_written == absl::InfiniteFuture() && !ResultsIn(results).empty()) {
      first_written = absl::Now();
    }
    return absl::Now() - first_written > absl::Seconds(2);
  });
  std::ostringstream out, err;
  int code = RunVerify(
      {"--time-ms", "200", "--total-time-ms", "600000", "--hash-mb", "16", "--out", results, input},
      out, err);
  interrupter.join();
  EXPECT_EQ(code, kExitInterrupted) << err.str();
  std::vector<nlohmann::json> kept = ResultsIn(results);
  ASSERT_EQ(kept.size(), 2u) << out.str();
  EXPECT_EQ(kept[1]["verdict"], "unknown");
  EXPECT_EQ(kept[1]["tries"], 1);
  EXPECT_THAT(out.str(), HasSubstr("interrupted: second tries stopped"));
  std::remove(input.c_str());
  std::remove(results.c_str());
}

}  // namespace
}  // namespace tsume
