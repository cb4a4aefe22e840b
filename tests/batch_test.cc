#include "tools/batch.h"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "core/movegen.h"
#include "core/position.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "problems/collection.h"
#include "tools/build_info.h"
#include "tools/commands.h"
#include "tools/report.h"

namespace tsume {
namespace {

using nlohmann::ordered_json;
using ::testing::HasSubstr;
using ::testing::Not;

std::string Fixture(const std::string& name) {
  return std::string(TSUME_SOURCE_DIR) + "/tests/testdata/batch/" + name;
}

// A results path unique to the running test (ctest runs tests in parallel processes).
std::string TempPath(const std::string& suffix) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  return ::testing::TempDir() + "batch_test_" + info->name() + "_" + std::to_string(getpid()) +
         "_" + suffix;
}

std::string ReadFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every line of `text` as JSON; fails the test on a line that does not parse.
std::vector<ordered_json> ParseLines(const std::string& text) {
  std::vector<ordered_json> lines;
  for (absl::string_view row : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    ordered_json j = ordered_json::parse(row.begin(), row.end(), nullptr, false);
    EXPECT_FALSE(j.is_discarded()) << "not JSON: " << row;
    if (!j.is_discarded()) lines.push_back(j);
  }
  return lines;
}

// The practical files' first four fields are the SFEN; the rest is "moves m1 ... mN".
std::vector<std::string> FixtureLines(const std::string& name) {
  std::vector<std::string> lines = absl::StrSplit(ReadFile(Fixture(name)), '\n', absl::SkipEmpty());
  return lines;
}

struct CommandRun {
  int exit_code;
  std::string out, err;
};

// Runs `tsume batch` with a small table (a later --hash-mb in `args` wins).
CommandRun RunCommand(std::vector<std::string> args) {
  if (!args.empty() && args[0] != "--help") args.insert(args.begin(), {"--hash-mb", "16"});
  std::ostringstream out, err;
  int code = RunBatch(args, out, err);
  return {code, out.str(), err.str()};
}

std::map<std::string, ordered_json> ById(const std::vector<ordered_json>& lines) {
  std::map<std::string, ordered_json> by_id;
  for (const ordered_json& line : lines) {
    EXPECT_TRUE(by_id.emplace(line["id"].get<std::string>(), line).second)
        << "id written twice: " << line["id"];
  }
  return by_id;
}

TEST(BatchTest, WritesOneCompleteLinePerProblem) {
  std::string out_path = TempPath("results.jsonl");
  CommandRun run =
      RunCommand({"--rules", "game", "--out", out_path, Fixture("practical_short.txt")});
  EXPECT_EQ(run.exit_code, kExitOk) << run.err;
  std::vector<std::string> input = FixtureLines("practical_short.txt");
  std::vector<ordered_json> lines = ParseLines(ReadFile(out_path));
  ASSERT_EQ(lines.size(), input.size());

  // first_mate and exact_passes too, as every problem here is a mate.
  const std::set<std::string> kAlways = {
      "id",     "source",       "sfen",           "expected_length", "expected", "result",
      "length", "length_exact", "no_mate_within", "match",           "nodes",    "time_ms",
      "nps",    "moves",        "first_mate",     "exact_passes"};
  std::set<std::string> sources;
  for (const ordered_json& line : lines) {
    std::set<std::string> keys;
    for (const auto& item : line.items()) keys.insert(item.key());
    EXPECT_EQ(keys, kAlways) << line.dump();

    // The source names the fixture line; the SFEN and stated length come from that line.
    std::string source = line["source"];
    sources.insert(source);
    std::vector<std::string> parts = absl::StrSplit(source, ':');
    ASSERT_EQ(parts.size(), 2u) << source;
    EXPECT_EQ(parts[0], Fixture("practical_short.txt"));
    size_t line_number = std::stoul(parts[1]);
    ASSERT_GE(line_number, 1u);
    ASSERT_LE(line_number, input.size());
    std::vector<std::string> fields = absl::StrSplit(input[line_number - 1], ' ');
    EXPECT_EQ(line["sfen"], fields[0] + " " + fields[1] + " " + fields[2] + " " + fields[3]);
    int stated = int(fields.size()) - 5;  // four SFEN fields and "moves"
    EXPECT_EQ(line["expected_length"], stated);
    EXPECT_EQ(line["expected"], "mate");

    // Under game rules the solver should prove the stated (shortest) length.
    EXPECT_EQ(line["result"], "mate") << source;
    EXPECT_EQ(line["length"], stated) << source;
    EXPECT_EQ(line["length_exact"], true) << source;
    EXPECT_EQ(line["match"], true) << source;
    EXPECT_GE(line["first_mate"]["length"].get<int>(), stated) << source;
    EXPECT_LE(line["first_mate"]["nodes"], line["nodes"]) << source;
    EXPECT_GT(line["nodes"].get<int64_t>(), 0);
    EXPECT_GE(line["time_ms"].get<double>(), 0.0);
    EXPECT_GE(line["nps"].get<int64_t>(), 0);

    // The line written is a real mate: legal moves ending in checkmate.
    absl::StatusOr<Position> pos = Position::FromSfen(line["sfen"].get<std::string>());
    ASSERT_TRUE(pos.ok()) << pos.status();
    ASSERT_EQ(line["moves"].size(), size_t(stated));
    for (const auto& usi : line["moves"]) {
      absl::StatusOr<Move> move = pos->ParseUsiMove(usi.get<std::string>());
      ASSERT_TRUE(move.ok()) << source << ": " << usi << ": " << move.status();
      pos->DoMove(*move);
    }
    EXPECT_TRUE(IsCheckmate(*pos)) << source;
  }
  EXPECT_EQ(sources.size(), input.size());

  // The summary (on stdout, since the results went to a file) counts all ten as matches.
  EXPECT_THAT(run.out, HasSubstr("length"));
  EXPECT_THAT(run.out, HasSubstr("problems 10 (10 run now"));
  EXPECT_THAT(run.out, HasSubstr("wrong 0"));
  // What ran them, since times differ by program, build and CPU.
  EXPECT_THAT(run.out, HasSubstr("\n" + RunContextText() + "\n"));
  std::filesystem::remove(out_path);
}

// With --json and --out, the summary is one JSON object: the table, the counts and what ran.
TEST(BatchTest, JsonSummarySaysWhatRanTheProblems) {
  std::string out_path = TempPath("summary.jsonl");
  CommandRun run =
      RunCommand({"--rules", "game", "--json", "--out", out_path, Fixture("practical_short.txt")});
  EXPECT_EQ(run.exit_code, kExitOk) << run.err;
  std::vector<ordered_json> summary = ParseLines(run.out);
  ASSERT_EQ(summary.size(), 1u) << run.out;
  const ordered_json& j = summary[0];
  EXPECT_EQ(j["problems"], 10);
  EXPECT_EQ(j["new_results"], 10);
  EXPECT_EQ(j["earlier_results"], 0);
  EXPECT_EQ(j["wrong"], ordered_json::array());
  EXPECT_EQ(j["interrupted"], false);
  EXPECT_EQ(j["summary"].back()["solved"], 10);
  EXPECT_EQ(j["tsume"]["version"], Version());
  EXPECT_EQ(j["tsume"]["build"], BuildDescription());
  EXPECT_EQ(j["tsume"]["cpu"], HostDescription());
  EXPECT_EQ(ParseLines(ReadFile(out_path)).size(), 10u);
  std::filesystem::remove(out_path);
}

// Every file in `dir`, by name.
std::vector<std::string> FileNames(const std::string& dir) {
  std::vector<std::string> names;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

// --kif-dir writes each problem's solution to its own file, in Shift-JIS: the record `tsume
// solve --kif` gives, whichever job finished first. A shard names its files as the whole run
// does, the second of two problems with one id "-2".
TEST(BatchTest, KifDirHoldsEachSolutionAsSolveWritesIt) {
  const std::string dir = TempPath("kifs");
  const std::string file = Fixture("practical_short.txt");
  std::filesystem::remove_all(dir);
  CommandRun run = RunCommand({"--rules", "game", "--jobs", "2", "--kif-dir", dir, file});
  ASSERT_EQ(run.exit_code, kExitOk) << run.err;
  std::ostringstream kif_out, kif_err;
  ASSERT_EQ(RunSolve({"--hash-mb", "16", "--rules", "game", "--kif", file}, kif_out, kif_err),
            kExitOk)
      << kif_err.str();
  std::vector<std::string> records =
      absl::StrSplit(kif_out.str(), "# KIF形式棋譜ファイル\n", absl::SkipEmpty());
  ASSERT_EQ(records.size(), 10u);
  EXPECT_EQ(FileNames(dir).size(), records.size());
  for (size_t i = 0; i < records.size(); ++i) {
    std::string path = absl::StrCat(dir, "/practical_short.txt_", i + 1, ".kif");
    std::string bytes = ReadFile(path);
    EXPECT_FALSE(absl::StrContains(bytes, "詰み")) << "not Shift-JIS: " << path;
    absl::StatusOr<std::string> decoded = DecodeToUtf8(bytes);
    ASSERT_TRUE(decoded.ok()) << path;
    // solve's record i ends with the blank line between records.
    EXPECT_EQ(*decoded + "\n", "# KIF形式棋譜ファイル\n" + records[i]) << path;
  }
  std::filesystem::remove_all(dir);

  // The file twice, shard 2/2: the even lines of each copy.
  ASSERT_EQ(
      RunCommand({"--rules", "game", "--shard", "2/2", "--kif-dir", dir, file, file}).exit_code,
      kExitOk);
  std::vector<std::string> expected;
  for (int line : {2, 4, 6, 8, 10}) {
    expected.push_back(absl::StrCat("practical_short.txt_", line, ".kif"));
    expected.push_back(absl::StrCat("practical_short.txt_", line, "-2.kif"));
  }
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(FileNames(dir), expected);
  std::filesystem::remove_all(dir);

  // A directory that cannot be made is a flag error, before anything is solved.
  CommandRun bad = RunCommand({"--kif-dir", file + "/kifs", file});
  EXPECT_EQ(bad.exit_code, kExitUsage);
  EXPECT_THAT(bad.err, HasSubstr("flag --kif-dir: cannot make the directory '" + file));
  EXPECT_EQ(bad.out, "");
}

TEST(BatchTest, JsonWithoutOutGoesToStdoutAndSummaryToStderr) {
  CommandRun run = RunCommand({"--rules", "game", "--json", Fixture("practical_short.txt")});
  EXPECT_EQ(run.exit_code, kExitOk) << run.err;
  EXPECT_EQ(ParseLines(run.out).size(), 10u);
  EXPECT_THAT(run.err, HasSubstr("problems 10"));
}

TEST(BatchTest, EachKindOfStatementIsJudged) {
  CommandRun run = RunCommand({"--rules", "tsume", "--json", Fixture("stated.tsv")});
  EXPECT_EQ(run.exit_code, kExitOk) << run.err;
  std::map<std::string, ordered_json> by_id = ById(ParseLines(run.out));
  ASSERT_EQ(by_id.size(), 5u) << run.err;

  EXPECT_EQ(by_id["stated-3"]["expected_length"], 3);
  EXPECT_EQ(by_id["stated-3"]["match"], true);

  EXPECT_TRUE(by_id["stated-mate"]["expected_length"].is_null());
  EXPECT_EQ(by_id["stated-mate"]["expected"], "mate");
  EXPECT_EQ(by_id["stated-mate"]["result"], "mate");
  EXPECT_EQ(by_id["stated-mate"]["match"], true);

  EXPECT_EQ(by_id["nomate"]["expected"], "nomate");
  EXPECT_EQ(by_id["nomate"]["result"], "nomate");
  EXPECT_EQ(by_id["nomate"]["length"], 0);
  EXPECT_TRUE(by_id["nomate"]["moves"].empty());
  EXPECT_EQ(by_id["nomate"]["match"], true);

  EXPECT_TRUE(by_id["nomate-within-1"]["expected"].is_null());
  EXPECT_EQ(by_id["nomate-within-1"]["nomate_within"], 1);
  EXPECT_EQ(by_id["nomate-within-1"]["match"], true);

  EXPECT_TRUE(by_id["unstated"]["expected"].is_null());
  EXPECT_EQ(by_id["unstated"]["result"], "mate");
  EXPECT_TRUE(by_id["unstated"]["match"].is_null());
}

TEST(BatchTest, WrongStatedLengthFailsTheRun) {
  std::string out_path = TempPath("results.jsonl");
  CommandRun run = RunCommand({"--rules", "game", "--out", out_path, Fixture("wrong_length.tsv")});
  EXPECT_EQ(run.exit_code, kExitMismatch) << run.err;
  std::map<std::string, ordered_json> by_id = ById(ParseLines(ReadFile(out_path)));
  ASSERT_EQ(by_id.size(), 2u);
  EXPECT_EQ(by_id["wrong-length"]["length"], 3);
  EXPECT_EQ(by_id["wrong-length"]["match"], false);
  EXPECT_EQ(by_id["right-length"]["match"], true);
  EXPECT_THAT(run.out, HasSubstr("wrong 1"));
  EXPECT_THAT(run.out, HasSubstr("wrong: wrong-length"));
  EXPECT_THAT(run.out, HasSubstr("stated mate in 5, found mate in 3"));
  EXPECT_THAT(run.out, Not(HasSubstr("wrong: right-length")));
  std::filesystem::remove(out_path);
}

// A search stopped by the limits still proves how far it got: a stated length within that
// bound is a contradiction, listed with the bound.
TEST(BatchTest, LowerBoundPastTheStatedLengthIsWrong) {
  CommandRun run = RunCommand({"--nodes", "400000", "--json", Fixture("bound.tsv")});
  EXPECT_EQ(run.exit_code, kExitMismatch) << run.err;
  std::vector<ordered_json> lines = ParseLines(run.out);
  ASSERT_EQ(lines.size(), 1u);
  EXPECT_EQ(lines[0]["length_exact"], false);
  EXPECT_GE(lines[0]["no_mate_within"].get<int>(), 7);
  EXPECT_EQ(lines[0]["match"], false);
  EXPECT_THAT(run.err, HasSubstr("wrong: zuko13-stated-7"));
  EXPECT_THAT(run.err, HasSubstr("stated mate in 7, found mate in "));
  EXPECT_THAT(run.err, HasSubstr(" and no mate within "));
}

// The bad line is reported and skipped, the rest run, and the status says the input was bad.
TEST(BatchTest, BadInputLineIsReportedAndCounted) {
  CommandRun run = RunCommand({"--rules", "game", "--json", Fixture("bad_line.txt")});
  EXPECT_EQ(run.exit_code, kExitUsage);
  EXPECT_THAT(run.err, HasSubstr(Fixture("bad_line.txt") + ":2: "));
  EXPECT_THAT(run.err, HasSubstr("input errors 1"));
  std::vector<ordered_json> lines = ParseLines(run.out);
  ASSERT_EQ(lines.size(), 3u);
  for (const ordered_json& line : lines) {
    EXPECT_NE(line["source"], Fixture("bad_line.txt") + ":2");
    EXPECT_EQ(line["match"], true);
  }
}

TEST(BatchTest, ResumeAfterInterruptedWriteSolvesOnlyTheRest) {
  // A complete run gives the lines an interrupted run would have written.
  std::string reference_path = TempPath("reference.jsonl");
  ASSERT_EQ(RunCommand({"--rules", "game", "--out", reference_path, Fixture("practical_short.txt")})
                .exit_code,
            kExitOk);
  std::vector<ordered_json> reference = ParseLines(ReadFile(reference_path));
  ASSERT_EQ(reference.size(), 10u);

  // Three complete lines, marked so we can tell they are kept rather than solved again, and
  // half of a fourth line, as a crash mid-write leaves it.
  std::string out_path = TempPath("results.jsonl");
  std::set<std::string> kept_ids;
  {
    std::ofstream out(out_path, std::ios::binary);
    for (int i = 0; i < 3; ++i) {
      ordered_json line = reference[i];
      line["nodes"] = 987654321;
      kept_ids.insert(line["id"]);
      out << line.dump() << "\n";
    }
    std::string half = reference[3].dump();
    out << half.substr(0, half.size() / 2);
  }

  absl::StatusOr<CliArgs> args =
      CliArgs::Parse({"--rules", "game", "--hash-mb", "16", "--out", out_path, "--resume",
                      Fixture("practical_short.txt")},
                     {"rules", "out", "time-ms", "nodes", "hash-mb", "jobs", "shard", "format"},
                     {"resume", "json"});
  ASSERT_TRUE(args.ok());
  absl::StatusOr<BatchOptions> options = BatchOptionsFromArgs(*args);
  ASSERT_TRUE(options.ok()) << options.status();
  std::vector<std::string> solved_now;
  options->on_result = [&](const ordered_json& line) { solved_now.push_back(line["id"]); };
  std::ostringstream out, err;
  EXPECT_EQ(RunBatchJob(*options, out, err), kExitOk) << err.str();
  EXPECT_THAT(err.str(), HasSubstr("unfinished last line"));

  EXPECT_EQ(solved_now.size(), 7u);
  for (const std::string& id : solved_now) EXPECT_EQ(kept_ids.count(id), 0u) << id;

  std::string text = ReadFile(out_path);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  std::vector<ordered_json> lines = ParseLines(text);
  std::map<std::string, ordered_json> by_id = ById(lines);
  EXPECT_EQ(lines.size(), 10u);
  EXPECT_EQ(by_id.size(), 10u);
  for (const ordered_json& line : reference) {
    ASSERT_EQ(by_id.count(line["id"]), 1u) << line["id"];
    const ordered_json& now = by_id[line["id"]];
    EXPECT_EQ(now["nodes"] == 987654321, kept_ids.count(line["id"]) == 1) << line["id"];
    EXPECT_EQ(now["length"], line["length"]);
  }
  // The summary covers the kept results too.
  EXPECT_THAT(out.str(), HasSubstr("problems 10 (7 run now, 3 kept"));
  std::filesystem::remove(out_path);
  std::filesystem::remove(reference_path);
}

// Kept results count toward the summary and the exit status like new ones.
TEST(BatchTest, KeptResultsAreJudgedLikeNewOnes) {
  std::string reference_path = TempPath("reference.jsonl");
  ASSERT_EQ(RunCommand({"--rules", "game", "--out", reference_path, Fixture("practical_short.txt")})
                .exit_code,
            kExitOk);
  std::vector<ordered_json> reference = ParseLines(ReadFile(reference_path));
  ASSERT_EQ(reference.size(), 10u);
  ordered_json& mate5 = reference[5];
  ASSERT_EQ(mate5["expected_length"], 5);

  auto resume_with = [&](int length, bool exact) {
    std::string out_path = TempPath("results.jsonl");
    {
      std::ofstream out(out_path, std::ios::binary);
      ordered_json line = mate5;
      line["length"] = length;
      line["length_exact"] = exact;
      line["match"] = false;
      out << line.dump() << "\n";
    }
    CommandRun run = RunCommand(
        {"--rules", "game", "--out", out_path, "--resume", Fixture("practical_short.txt")});
    std::filesystem::remove(out_path);
    return run;
  };
  // A mate of 7 not proven shortest (a limit cut the search) does not contradict "5"...
  CommandRun unproven = resume_with(7, false);
  EXPECT_EQ(unproven.exit_code, kExitOk) << unproven.err;
  EXPECT_THAT(unproven.out, HasSubstr("9 run now, 1 kept"));
  EXPECT_THAT(unproven.out, HasSubstr("wrong 0"));
  EXPECT_THAT(unproven.out, HasSubstr("note: 1 mate(s) longer than stated were not proven"));
  // The table judges it as the summary line does (a wrong 0 in the column too).
  EXPECT_THAT(unproven.out, HasSubstr("all        10      10      9      0"));
  // ...a proven mate of 7 does.
  CommandRun proven = resume_with(7, true);
  EXPECT_EQ(proven.exit_code, kExitMismatch) << proven.err;
  EXPECT_THAT(proven.out, HasSubstr("wrong 1"));
  EXPECT_THAT(proven.out, HasSubstr("stated mate in 5, found mate in 7"));
  EXPECT_THAT(proven.out, Not(HasSubstr("longer than stated")));
  std::filesystem::remove(reference_path);
}

// The same file named another way (relative, with ./ or ..) is the same problems for --resume:
// none is solved again or written twice.
TEST(BatchTest, ResumeKnowsAFileByAnyNameOfIt) {
  std::string out_path = TempPath("results.jsonl");
  std::filesystem::path fixture = Fixture("practical_short.txt");
  ASSERT_EQ(RunCommand({"--rules", "game", "--out", out_path, fixture.string()}).exit_code,
            kExitOk);
  std::filesystem::path relative = std::filesystem::relative(fixture);
  for (const std::filesystem::path& other :
       {std::filesystem::path(".") / relative,
        fixture.parent_path() / ".." / fixture.parent_path().filename() / fixture.filename()}) {
    CommandRun run = RunCommand({"--rules", "game", "--out", out_path, "--resume", other.string()});
    EXPECT_EQ(run.exit_code, kExitOk) << run.err;
    EXPECT_THAT(run.out, HasSubstr("0 run now, 10 kept")) << other;
  }
  EXPECT_EQ(ParseLines(ReadFile(out_path)).size(), 10u);
  std::filesystem::remove(out_path);
}

TEST(BatchTest, StopKeepsFinishedResultsAndResumeCompletes) {
  std::string out_path = TempPath("results.jsonl");
  std::atomic<bool> stop{false};
  BatchOptions options;
  options.files = {Fixture("practical_short.txt")};
  options.solve.rules = Rules::kGame;
  options.solve.hash_mb = 16;
  options.out_path = out_path;
  options.stop = &stop;
  int results = 0;
  options.on_result = [&](const ordered_json&) {
    if (++results == 4) stop = true;  // as Ctrl-C would, after the fourth answer
  };
  std::ostringstream out, err;
  EXPECT_EQ(RunBatchJob(options, out, err), kExitInterrupted);
  EXPECT_EQ(ParseLines(ReadFile(out_path)).size(), 4u);
  EXPECT_THAT(out.str(), HasSubstr("interrupted: 6 problems not run"));

  stop = false;
  options.resume = true;
  results = 0;
  options.on_result = [&](const ordered_json&) { ++results; };
  std::ostringstream out2, err2;
  EXPECT_EQ(RunBatchJob(options, out2, err2), kExitOk) << err2.str();
  EXPECT_EQ(results, 6);
  EXPECT_EQ(ById(ParseLines(ReadFile(out_path))).size(), 10u);
  std::filesystem::remove(out_path);
}

TEST(BatchTest, PlainProgressLinesWhenNotATerminal) {
  BatchOptions options;
  options.files = {Fixture("practical_short.txt")};
  options.solve.rules = Rules::kGame;
  options.solve.hash_mb = 16;
  options.plain_progress_every = 4;
  std::ostringstream out, err;
  EXPECT_EQ(RunBatchJob(options, out, err), kExitOk) << err.str();
  EXPECT_THAT(err.str(), HasSubstr("batch: 4/10  solved 4  wrong 0  unknown 0"));
  EXPECT_THAT(err.str(), HasSubstr("batch: 8/10  solved 8"));
  EXPECT_THAT(err.str(), Not(HasSubstr("batch: 10/10")));
  EXPECT_THAT(err.str(), Not(HasSubstr("\r")));
}

TEST(BatchTest, ShardsCoverEveryProblemExactlyOnce) {
  CommandRun all = RunCommand(
      {"--rules", "game", "--json", Fixture("practical_short.txt"), Fixture("bad_line.txt")});
  std::vector<ordered_json> all_lines = ParseLines(all.out);
  ASSERT_EQ(all_lines.size(), 13u);
  std::multiset<std::string> seen;
  for (int k = 1; k <= 3; ++k) {
    std::string shard = std::to_string(k) + "/3";
    CommandRun run = RunCommand({"--rules", "game", "--json", "--shard", shard,
                                 Fixture("practical_short.txt"), Fixture("bad_line.txt")});
    EXPECT_EQ(run.exit_code, kExitUsage) << run.err;  // every shard reads the bad line
    std::vector<ordered_json> lines = ParseLines(run.out);
    // Problems k-1, k+2, ... of the 13 in concatenated order.
    EXPECT_EQ(lines.size(), k == 1 ? 5u : 4u) << shard;
    for (const ordered_json& line : lines) {
      seen.insert(line["source"]);
      size_t index = 0;
      while (index < all_lines.size() && all_lines[index]["source"] != line["source"]) ++index;
      ASSERT_LT(index, all_lines.size());
      EXPECT_EQ(int(index % 3), k - 1) << line["source"];
    }
  }
  std::multiset<std::string> expected;
  for (const ordered_json& line : all_lines) expected.insert(line["source"]);
  EXPECT_EQ(seen, expected);
}

TEST(BatchTest, TwoJobsGiveTheSameAnswersAsOne) {
  CommandRun one = RunCommand({"--rules", "game", "--json", "--jobs", "1",
                               Fixture("practical_short.txt"), Fixture("stated.tsv")});
  CommandRun two = RunCommand({"--rules", "game", "--json", "--jobs", "2",
                               Fixture("practical_short.txt"), Fixture("stated.tsv")});
  EXPECT_EQ(one.exit_code, two.exit_code);
  std::map<std::string, ordered_json> a = ById(ParseLines(one.out));
  std::map<std::string, ordered_json> b = ById(ParseLines(two.out));
  ASSERT_EQ(a.size(), 15u);
  ASSERT_EQ(b.size(), a.size());
  for (const auto& [id, line] : a) {
    ASSERT_EQ(b.count(id), 1u) << id;
    EXPECT_EQ(b[id]["result"], line["result"]) << id;
    EXPECT_EQ(b[id]["length"], line["length"]) << id;
    EXPECT_EQ(b[id]["length_exact"], line["length_exact"]) << id;
    EXPECT_EQ(b[id]["match"], line["match"]) << id;
  }
}

TEST(BatchTest, VerifyFlagVerifiesAndSplitsIntoShardsAsBatchDoes) {
  // `batch --verify` is `verify`: the same lines, verdict by verdict.
  std::ostringstream verify_out, verify_err;
  // Exit status 1: the file's no-mate problems are not mates, as composed problems.
  ASSERT_EQ(RunVerify({"--hash-mb", "16", "--json", Fixture("stated.tsv")}, verify_out, verify_err),
            kExitMismatch)
      << verify_err.str();
  std::vector<ordered_json> verified = ParseLines(verify_out.str());
  ASSERT_EQ(verified.size(), 5u);
  CommandRun all = RunCommand({"--verify", "--rules", "tsume", "--json", Fixture("stated.tsv")});
  EXPECT_EQ(all.exit_code, kExitMismatch) << all.err;
  std::vector<ordered_json> lines = ParseLines(all.out);
  ASSERT_EQ(lines.size(), verified.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    EXPECT_EQ(lines[i]["id"], verified[i]["id"]);
    EXPECT_EQ(lines[i]["verdict"], verified[i]["verdict"]) << lines[i]["id"];
    EXPECT_EQ(lines[i]["length"], verified[i]["length"]) << lines[i]["id"];
  }
  // Its shards take problems k-1, k+1, ... as batch's do, each problem once.
  std::multiset<std::string> seen;
  for (int k = 1; k <= 2; ++k) {
    std::string shard = std::to_string(k) + "/2";
    CommandRun run = RunCommand({"--verify", "--json", "--shard", shard, Fixture("stated.tsv")});
    EXPECT_NE(run.exit_code, kExitUsage) << run.err;
    for (const ordered_json& line : ParseLines(run.out)) {
      seen.insert(line["id"]);
      size_t index = 0;
      while (index < verified.size() && verified[index]["id"] != line["id"]) ++index;
      EXPECT_EQ(int(index % 2), k - 1) << line["id"];
    }
  }
  std::multiset<std::string> expected;
  for (const ordered_json& line : verified) expected.insert(line["id"]);
  EXPECT_EQ(seen, expected);

  // The shards' results files, put together, make the whole run's report.
  std::string merged;
  for (int k = 1; k <= 2; ++k) {
    std::string path = TempPath("shard" + std::to_string(k) + ".jsonl");
    CommandRun run = RunCommand(
        {"--verify", "--out", path, "--shard", std::to_string(k) + "/2", Fixture("stated.tsv")});
    EXPECT_NE(run.exit_code, kExitUsage) << run.err;
    merged += ReadFile(path);
    std::filesystem::remove(path);
  }
  std::istringstream merged_in(merged);
  RunResults run = ParseResults(merged_in, "merged.jsonl");
  EXPECT_TRUE(run.bad_lines.empty());
  EXPECT_EQ(run.problems.size(), verified.size());
  ASSERT_EQ(Summarize(run).verdicts.size(), 4u);
  std::map<std::string, int> expected_verdicts;
  for (const ordered_json& line : verified) ++expected_verdicts[line["verdict"]];
  for (const auto& [verdict, count] : Summarize(run).verdicts) {
    EXPECT_EQ(count, expected_verdicts[verdict]) << verdict;
  }

  CommandRun game = RunCommand({"--rules", "game", "--verify", Fixture("stated.tsv")});
  EXPECT_EQ(game.exit_code, kExitUsage);
  EXPECT_THAT(game.err, HasSubstr("--verify checks composed problems under tsume rules"));
  CommandRun bad_shard = RunCommand({"--verify", "--shard", "3/2", Fixture("stated.tsv")});
  EXPECT_EQ(bad_shard.exit_code, kExitUsage);
  EXPECT_THAT(bad_shard.err, HasSubstr("tsume verify: flag --shard"));
  // After "--" every argument is a file, "--verify" too.
  CommandRun file = RunCommand({"--", "--verify"});
  EXPECT_EQ(file.exit_code, kExitUsage);
  EXPECT_THAT(file.err, HasSubstr("tsume batch: --verify"));
}

TEST(BatchTest, UsageErrors) {
  EXPECT_EQ(RunCommand({"--shard", "0/3", Fixture("stated.tsv")}).exit_code, kExitUsage);
  EXPECT_EQ(RunCommand({"--shard", "4/3", Fixture("stated.tsv")}).exit_code, kExitUsage);
  EXPECT_EQ(RunCommand({"--shard", "x", Fixture("stated.tsv")}).exit_code, kExitUsage);
  EXPECT_EQ(RunCommand({"--resume", Fixture("stated.tsv")}).exit_code, kExitUsage);
  EXPECT_EQ(RunCommand({"--jobs", "0", Fixture("stated.tsv")}).exit_code, kExitUsage);
  EXPECT_EQ(RunCommand({"--hash-mb", "2", "--jobs", "3", Fixture("stated.tsv")}).exit_code,
            kExitUsage);
  EXPECT_EQ(RunCommand({}).exit_code, kExitUsage);
  CommandRun missing = RunCommand({Fixture("no_such_file.txt")});
  EXPECT_EQ(missing.exit_code, kExitUsage);
  EXPECT_THAT(missing.err, HasSubstr("no_such_file.txt"));
  CommandRun help = RunCommand({"--help"});
  EXPECT_EQ(help.exit_code, kExitOk);
  EXPECT_THAT(help.out, HasSubstr("--shard K/N"));
}

ordered_json Line(const std::string& result, int length, bool exact) {
  return {{"result", result}, {"length", length}, {"length_exact", exact}};
}

TEST(JudgeResultTest, StatedLength) {
  auto stated = [](ordered_json line) {
    line["expected_length"] = 7;
    line["expected"] = "mate";
    return JudgeResult(line);
  };
  EXPECT_EQ(stated(Line("mate", 7, true)).match, true);
  EXPECT_FALSE(stated(Line("mate", 7, true)).wrong);
  EXPECT_TRUE(stated(Line("mate", 9, true)).wrong);
  EXPECT_TRUE(stated(Line("mate", 5, true)).wrong);
  // An unproven mate longer than stated may still shorten: not a contradiction; a shorter
  // one is, proven or not.
  EXPECT_FALSE(stated(Line("mate", 9, false)).wrong);
  EXPECT_EQ(stated(Line("mate", 9, false)).match, false);
  EXPECT_TRUE(stated(Line("mate", 5, false)).wrong);
  EXPECT_TRUE(stated(Line("nomate", 0, false)).wrong);
  EXPECT_FALSE(stated(Line("unknown", 0, false)).wrong);
  EXPECT_EQ(stated(Line("unknown", 0, false)).match, false);
  EXPECT_FALSE(stated(Line("error", 0, false)).wrong);
  // A proven "no mate within" at or past the stated length contradicts it, whatever else the
  // limits left.
  auto bounded = [](ordered_json line, int none_within) {
    line["no_mate_within"] = none_within;
    return line;
  };
  EXPECT_TRUE(stated(bounded(Line("mate", 9, false), 7)).wrong);
  EXPECT_TRUE(stated(bounded(Line("unknown", 0, false), 7)).wrong);
  EXPECT_FALSE(stated(bounded(Line("unknown", 0, false), 5)).wrong);
  EXPECT_FALSE(stated(bounded(Line("mate", 7, true), 5)).wrong);
}

// report's table (IsMatch, IsWrong) judges every kind of statement and result as batch's
// summary (JudgeResult) does: the two used to disagree on mates not proven shortest.
TEST(JudgeResultTest, ReportJudgesEveryLineAsBatchDoes) {
  std::vector<ordered_json> statements = {{{"expected_length", 5}, {"expected", "mate"}},
                                          {{"expected", "mate"}},
                                          {{"expected", "nomate"}},
                                          {{"nomate_within", 5}},
                                          ordered_json::object()};
  std::vector<ordered_json> results;
  for (int length : {3, 5, 7}) {
    for (bool exact : {true, false}) {
      for (int bound : {0, 1, 3}) {
        if (bound >= length || (exact && bound != length - 2 && bound != 0)) continue;
        results.push_back({{"result", "mate"},
                           {"length", length},
                           {"length_exact", exact},
                           {"no_mate_within", bound}});
      }
    }
  }
  results.push_back({{"result", "nomate"}, {"length", 0}});
  for (int bound : {0, 3, 5, 7}) {
    results.push_back({{"result", "unknown"}, {"length", 0}, {"no_mate_within", bound}});
  }
  int judged = 0;
  for (const ordered_json& statement : statements) {
    for (const ordered_json& result : results) {
      ordered_json line = {{"id", "p"}, {"time_ms", 1}};
      line.update(statement);
      line.update(result);
      StatementCheck batch = JudgeResult(line);
      absl::StatusOr<ProblemResult> parsed = ParseResultLine(line.dump());
      ASSERT_TRUE(parsed.ok()) << parsed.status() << " " << line.dump();
      EXPECT_EQ(IsMatch(*parsed), batch.match.value_or(false)) << line.dump();
      EXPECT_EQ(IsWrong(*parsed), batch.wrong) << line.dump();
      ++judged;
    }
  }
  EXPECT_EQ(judged, 5 * 18);
}

TEST(JudgeResultTest, NoMateStatements) {
  ordered_json nomate = Line("nomate", 0, false);
  nomate["expected"] = "nomate";
  EXPECT_EQ(JudgeResult(nomate).match, true);
  ordered_json mate = Line("mate", 11, true);
  mate["expected"] = "nomate";
  EXPECT_TRUE(JudgeResult(mate).wrong);

  auto within = [](ordered_json line) {
    line["nomate_within"] = 5;
    return JudgeResult(line);
  };
  EXPECT_EQ(within(Line("nomate", 0, false)).match, true);
  EXPECT_EQ(within(Line("mate", 7, true)).match, true);
  EXPECT_FALSE(within(Line("mate", 7, true)).wrong);
  EXPECT_TRUE(within(Line("mate", 5, false)).wrong);
  EXPECT_FALSE(within(Line("unknown", 0, false)).wrong);
  // An unknown result that proved no mate within the stated count is a match.
  ordered_json bounded = Line("unknown", 0, false);
  bounded["no_mate_within"] = 5;
  EXPECT_EQ(within(bounded).match, true);
  EXPECT_FALSE(within(bounded).wrong);
  bounded["no_mate_within"] = 3;
  EXPECT_EQ(within(bounded).match, false);

  EXPECT_FALSE(JudgeResult(Line("mate", 3, true)).match.has_value());
  EXPECT_FALSE(JudgeResult(Line("nomate", 0, false)).wrong);
}

TEST(LoadAndRepairResultsTest, SkipsGarbageAndTruncatesPartialLine) {
  std::string path = TempPath("results.jsonl");
  {
    std::ofstream out(path, std::ios::binary);
    out << R"({"id":"a","source":"f:1","result":"mate","length":3,"time_ms":1})"
        << "\n"
        << "not json\n"
        << R"({"id":"b","source":"f:2","result":"nomate","time_ms":2})"
        << "\n"
        // Read by the summary, it would be a bad line: not kept, so the problem runs again.
        << R"({"id":"d","source":"f:4","result":"mate","length":3,"time_ms":"1"})"
        << "\n"
        << R"({"id":"e","source":"f:5","result":null,"time_ms":1})"
        << "\n"
        << R"({"id":"c","sou)";
  }
  std::ostringstream err;
  absl::StatusOr<std::vector<ordered_json>> lines = LoadAndRepairResults(path, err);
  ASSERT_TRUE(lines.ok()) << lines.status();
  ASSERT_EQ(lines->size(), 2u);
  EXPECT_EQ((*lines)[1]["id"], "b");
  EXPECT_THAT(err.str(), HasSubstr(path + ":2: not a result line, ignored"));
  EXPECT_THAT(err.str(),
              HasSubstr(path + ":4: not a result line (field \"time_ms\": expected a number)"));
  EXPECT_THAT(err.str(), HasSubstr(path + ":5: not a result line, ignored"));
  EXPECT_THAT(err.str(), HasSubstr("dropping an unfinished last line"));
  std::string text = ReadFile(path);
  EXPECT_EQ(text.back(), '\n');
  EXPECT_THAT(text, Not(HasSubstr("\"c\"")));

  // A whole result lacking only its newline (a file edited by hand) is kept, the newline added.
  {
    std::ofstream out(path, std::ios::binary | std::ios::app);
    out << R"({"id":"f","source":"f:6","result":"nomate","time_ms":3})";
  }
  std::ostringstream again;
  lines = LoadAndRepairResults(path, again);
  ASSERT_TRUE(lines.ok()) << lines.status();
  ASSERT_EQ(lines->size(), 3u);
  EXPECT_EQ((*lines)[2]["id"], "f");
  EXPECT_THAT(again.str(), Not(HasSubstr("dropping")));
  text = ReadFile(path);
  EXPECT_TRUE(absl::EndsWith(text, "\"time_ms\":3}\n")) << text;

  // Lines ended by a lone \r (or \r\n) are lines: nothing is taken for an unfinished write.
  std::string old_mac = TempPath("cr.jsonl");
  {
    std::ofstream out(old_mac, std::ios::binary);
    out << R"({"id":"a","source":"f:1","result":"nomate","time_ms":1})"
        << "\r"
        << R"({"id":"b","source":"f:2","result":"nomate","time_ms":1})"
        << "\r\n"
        << R"({"id":"c","source":"f:3","result":"nomate","time_ms":1})"
        << "\r";
  }
  std::ostringstream cr_err;
  lines = LoadAndRepairResults(old_mac, cr_err);
  ASSERT_TRUE(lines.ok()) << lines.status();
  EXPECT_EQ(lines->size(), 3u) << cr_err.str();
  EXPECT_EQ(cr_err.str(), "");
  EXPECT_EQ(std::filesystem::file_size(old_mac), 3 * 55u + 4);  // untouched
  std::filesystem::remove(old_mac);

  // verify's lines: a verdict of its own, or the line is not kept.
  std::string verdicts = TempPath("verdicts.jsonl");
  {
    std::ofstream out(verdicts, std::ios::binary);
    out << R"({"id":"a","source":"f:1","verdict":"not a mate"})"
        << "\n"
        << R"({"id":"b","source":"f:2","verdict":""})"
        << "\n"
        << R"({"id":"c","source":"f:3","verdict":3})"
        << "\n";
  }
  std::ostringstream verify_err;
  lines = LoadAndRepairResults(verdicts, verify_err, "verdict");
  ASSERT_TRUE(lines.ok()) << lines.status();
  ASSERT_EQ(lines->size(), 1u);
  EXPECT_EQ((*lines)[0]["id"], "a");
  EXPECT_THAT(verify_err.str(), HasSubstr(verdicts + ":2: not a result line (no verdict"));
  EXPECT_THAT(verify_err.str(), HasSubstr(verdicts + ":3: not a result line, ignored"));
  std::filesystem::remove(verdicts);

  std::ostringstream quiet;
  absl::StatusOr<std::vector<ordered_json>> none =
      LoadAndRepairResults(TempPath("missing.jsonl"), quiet);
  ASSERT_TRUE(none.ok());
  EXPECT_TRUE(none->empty());
  std::filesystem::remove(path);
}

}  // namespace
}  // namespace tsume
