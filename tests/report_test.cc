#include "tools/report.h"

#include <unistd.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tsume {
namespace {

using ::testing::ElementsAre;
using ::testing::EndsWith;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

std::string Fixture(const std::string& name) {
  return std::string(TSUME_SOURCE_DIR) + "/tests/testdata/report/" + name;
}

RunResults Load(const std::string& name) {
  absl::StatusOr<RunResults> run = LoadResults(Fixture(name));
  EXPECT_TRUE(run.ok()) << run.status();
  return run.ok() ? *run : RunResults{};
}

const SummaryRow* FindRow(const Summary& summary, const std::string& label) {
  for (const SummaryRow& row : summary.rows) {
    if (row.label == label) return &row;
  }
  return nullptr;
}

size_t Count(const std::string& haystack, const std::string& needle) {
  size_t n = 0;
  for (size_t at = haystack.find(needle); at != std::string::npos;
       at = haystack.find(needle, at + 1)) {
    ++n;
  }
  return n;
}

// The figures below were worked out by hand from tests/testdata/report/results.jsonl (see the
// README there).
TEST(ReportSummaryTest, RowsFollowStatedLengths) {
  Summary summary = Summarize(Load("results.jsonl"));
  std::vector<std::string> labels;
  for (const SummaryRow& row : summary.rows) labels.push_back(row.label);
  EXPECT_THAT(labels, ElementsAre("1", "3", "5", "none", "all"));
}

TEST(ReportSummaryTest, CountsPerLength) {
  Summary summary = Summarize(Load("results.jsonl"));
  const SummaryRow* one = FindRow(summary, "1");
  const SummaryRow* three = FindRow(summary, "3");
  const SummaryRow* five = FindRow(summary, "5");
  const SummaryRow* none = FindRow(summary, "none");
  const SummaryRow* all = FindRow(summary, "all");
  ASSERT_TRUE(one && three && five && none && all);

  EXPECT_EQ(one->count, 2);
  EXPECT_EQ(one->solved, 2);
  EXPECT_EQ(one->matches, 2);
  EXPECT_EQ(one->wrong, 0);

  // p3 matches, p4 found 5 instead of 3 (wrong), p5 ran out of time (unknown).
  EXPECT_EQ(three->count, 3);
  EXPECT_EQ(three->solved, 2);
  EXPECT_EQ(three->matches, 1);
  EXPECT_EQ(three->wrong, 1);
  EXPECT_EQ(three->unknown, 1);
  EXPECT_EQ(three->errors, 0);

  // p8 is an error, p9 says nomate where 5 was stated (wrong).
  EXPECT_EQ(five->count, 2);
  EXPECT_EQ(five->solved, 0);
  EXPECT_EQ(five->wrong, 1);
  EXPECT_EQ(five->errors, 1);
  EXPECT_EQ(five->timed, 1);

  // p6 stated nomate and got nomate (match); p7 stated nothing (neither match nor wrong).
  EXPECT_EQ(none->count, 2);
  EXPECT_EQ(none->solved, 1);
  EXPECT_EQ(none->matches, 1);
  EXPECT_EQ(none->wrong, 0);

  EXPECT_EQ(all->count, 9);
  EXPECT_EQ(all->solved, 5);
  EXPECT_EQ(all->matches, 4);
  EXPECT_EQ(all->wrong, 2);
  EXPECT_EQ(all->unknown, 1);
  EXPECT_EQ(all->errors, 1);
  EXPECT_EQ(all->timed, 8);
}

TEST(ReportSummaryTest, TimesAndSpeed) {
  Summary summary = Summarize(Load("results.jsonl"));
  const SummaryRow* one = FindRow(summary, "1");
  const SummaryRow* three = FindRow(summary, "3");
  const SummaryRow* five = FindRow(summary, "5");
  const SummaryRow* all = FindRow(summary, "all");
  ASSERT_TRUE(one && three && five && all);

  // Times 2, 4: even count, so the median is the mean of the middle two; p90 rank ceil(1.8) = 2.
  EXPECT_DOUBLE_EQ(one->mean_ms, 3);
  EXPECT_DOUBLE_EQ(one->median_ms, 3);
  EXPECT_DOUBLE_EQ(one->p90_ms, 4);
  EXPECT_DOUBLE_EQ(one->max_ms, 4);
  EXPECT_EQ(one->nodes_per_second, 400 * 1000 / 6);  // 400 nodes in 6 ms

  // Times 10, 30, 100.
  EXPECT_NEAR(three->mean_ms, 140.0 / 3, 1e-9);
  EXPECT_DOUBLE_EQ(three->median_ms, 30);
  EXPECT_DOUBLE_EQ(three->p90_ms, 100);
  EXPECT_EQ(three->nodes_per_second, 24000 * 1000 / 140);

  // The error's zero time is left out: only p9's 20 ms counts.
  EXPECT_DOUBLE_EQ(five->mean_ms, 20);
  EXPECT_DOUBLE_EQ(five->median_ms, 20);

  // All: 2 4 5 10 20 30 50 100 (sum 221), 31900 nodes.
  EXPECT_DOUBLE_EQ(all->mean_ms, 221.0 / 8);
  EXPECT_DOUBLE_EQ(all->median_ms, 15);
  EXPECT_DOUBLE_EQ(all->p90_ms, 100);  // rank ceil(7.2) = 8
  EXPECT_DOUBLE_EQ(all->max_ms, 100);
  EXPECT_EQ(all->total_nodes, 31900);
  EXPECT_EQ(all->nodes_per_second, int64_t(31900.0 * 1000 / 221));
}

TEST(ReportSummaryTest, TextTableIsAligned) {
  std::string text = FormatSummaryText(Summarize(Load("results.jsonl")));
  std::istringstream lines(text);
  std::string line;
  std::vector<std::string> rows;
  while (std::getline(lines, line)) rows.push_back(line);
  ASSERT_EQ(rows.size(), 6u);  // header + 1, 3, 5, none, all
  EXPECT_THAT(rows[0], HasSubstr("median_ms"));
  EXPECT_THAT(rows[5], StartsWith("all "));
  for (const std::string& row : rows) EXPECT_EQ(row.size(), rows[0].size()) << row;
}

TEST(ReportSummaryTest, JsonCarriesTheSameFigures) {
  nlohmann::json rows = SummaryToJson(Summarize(Load("results.jsonl")));
  ASSERT_EQ(rows.size(), 5u);
  EXPECT_EQ(rows[4]["length"], "all");
  EXPECT_EQ(rows[4]["count"], 9);
  EXPECT_EQ(rows[4]["wrong"], 2);
  EXPECT_DOUBLE_EQ(rows[1]["p90_ms"].get<double>(), 100);
}

TEST(ReportClassifyTest, MatchAndWrong) {
  ProblemResult r;
  r.expected_length = 3;
  r.result = Outcome::kMate;
  r.length = 3;
  EXPECT_TRUE(IsMatch(r));
  r.length = 1;  // shorter than stated is still a different length
  EXPECT_FALSE(IsMatch(r));
  EXPECT_TRUE(IsWrong(r));
  r.result = Outcome::kUnknown;
  r.length = 0;
  EXPECT_FALSE(IsMatch(r));
  EXPECT_FALSE(IsWrong(r));
  r.no_mate_within = 1;  // a proven bound below the stated length says nothing against it
  EXPECT_FALSE(IsWrong(r));
  r.no_mate_within = 3;  // one at it does
  EXPECT_TRUE(IsWrong(r));

  // A mate the limits left unproven shortest, as batch judges it: only a bound from above.
  ProblemResult bound;
  bound.expected_length = 9;
  bound.result = Outcome::kMate;
  bound.length = 13;
  EXPECT_TRUE(IsWrong(bound));  // proven shortest (or not said otherwise): another length
  bound.length_exact = false;
  EXPECT_FALSE(IsWrong(bound));  // the mate in 9 may still be there
  EXPECT_FALSE(IsMatch(bound));
  bound.length = 7;
  EXPECT_TRUE(IsWrong(bound));  // shorter than stated, whatever the passes left
  absl::StatusOr<ProblemResult> parsed = ParseResultLine(
      R"({"id":"a","expected_length":9,"result":"mate","length":13,"length_exact":false,)"
      R"("time_ms":1})");
  ASSERT_TRUE(parsed.ok()) << parsed.status();
  EXPECT_FALSE(parsed->length_exact);
  EXPECT_FALSE(IsWrong(*parsed));
  EXPECT_FALSE(
      ParseResultLine(R"({"id":"a","result":"mate","length":13,"length_exact":1,"time_ms":1})")
          .ok());

  ProblemResult nomate;
  nomate.expected = "nomate";
  nomate.result = Outcome::kMate;
  nomate.length = 5;
  EXPECT_TRUE(IsWrong(nomate));
  nomate.result = Outcome::kNoMate;
  nomate.length = 0;
  EXPECT_TRUE(IsMatch(nomate));

  ProblemResult any_mate;  // "mate" without a length: any mate matches
  any_mate.expected = "mate";
  any_mate.result = Outcome::kMate;
  any_mate.length = 9;
  EXPECT_TRUE(IsMatch(any_mate));
  any_mate.result = Outcome::kNoMate;
  EXPECT_TRUE(IsWrong(any_mate));

  ProblemResult unstated;  // nothing stated: never a match, never wrong
  unstated.result = Outcome::kMate;
  unstated.length = 7;
  EXPECT_FALSE(IsMatch(unstated));
  EXPECT_FALSE(IsWrong(unstated));
}

TEST(ReportCompareTest, AgainstBaseline) {
  RunResults results = Load("results.jsonl");
  RunResults baseline = Load("baseline.jsonl");
  Comparison c = Compare(results, baseline);
  EXPECT_EQ(c.matched_by, "id");
  EXPECT_EQ(c.matched, 9);
  EXPECT_EQ(c.only_in_results, 0);
  EXPECT_EQ(c.only_in_baseline, 1);  // p10
  // Faster: p2 (10 -> 4), p7 (200 -> 50), p9 (40 -> 20). Not p1 (2.9 -> 2: under 1 ms) nor
  // p3 (11 -> 10: 1 ms but under 10%). Slower: p4 (20 -> 30), p5 (80 -> 100). p8 is an error.
  EXPECT_EQ(c.faster, 3);
  EXPECT_EQ(c.slower, 2);
  EXPECT_THAT(c.newly_solved, ElementsAre("p7"));
  EXPECT_THAT(c.newly_unsolved, ElementsAre("p5"));
  ASSERT_EQ(c.changed_lengths.size(), 1u);
  EXPECT_EQ(c.changed_lengths[0].key, "p4");
  EXPECT_EQ(c.changed_lengths[0].baseline_length, 3);
  EXPECT_EQ(c.changed_lengths[0].length, 5);
  EXPECT_EQ(c.solved_in_both, 4);  // p1..p4
  double expected = std::pow((2.9 / 2) * (10.0 / 4) * (11.0 / 10) * (20.0 / 30), 0.25);
  EXPECT_NEAR(c.geomean_speedup, expected, 1e-9);

  std::string text = FormatComparisonText(c);
  EXPECT_THAT(text, HasSubstr("p4  3 -> 5"));
  EXPECT_THAT(text, HasSubstr("newly solved 1: p7"));
  nlohmann::json j = ComparisonToJson(c);
  EXPECT_EQ(j["faster"], 3);
  EXPECT_EQ(j["changed_lengths"][0]["length"], 5);
}

TEST(ReportCompareTest, ComparingARunWithItselfChangesNothing) {
  RunResults results = Load("results.jsonl");
  Comparison c = Compare(results, results);
  EXPECT_EQ(c.matched, 9);
  EXPECT_EQ(c.only_in_baseline, 0);
  EXPECT_EQ(c.faster + c.slower, 0);
  EXPECT_TRUE(c.newly_solved.empty());
  EXPECT_TRUE(c.changed_lengths.empty());
  EXPECT_DOUBLE_EQ(c.geomean_speedup, 1);
}

ProblemResult Solved(const std::string& id, const std::string& source, int length, double ms) {
  ProblemResult r;
  r.id = id;
  r.source = source;
  r.result = Outcome::kMate;
  r.length = length;
  r.time_ms = ms;
  return r;
}

TEST(ReportCompareTest, RepeatedIdsMatchBySource) {
  // Two problems share id "a"; their sources tell them apart, and the baseline lists them in the
  // other order. Spelt another way, a file's path is the same file (as --resume takes it), and
  // a change is named as the results spell it.
  for (bool respelt : {false, true}) {
    SCOPED_TRACE(respelt ? "paths spelt two ways" : "paths spelt alike");
    RunResults results, baseline;
    results.problems = {Solved("a", respelt ? "./x.txt:1" : "x.txt:1", 3, 10),
                        Solved("a", "x.txt:2", 5, 10)};
    baseline.problems = {Solved("a", respelt ? "sub/../x.txt:2" : "x.txt:2", 7, 10),
                         Solved("a", "x.txt:1", 3, 10)};
    Comparison c = Compare(results, baseline);
    EXPECT_EQ(c.matched_by, "source");
    EXPECT_EQ(c.matched, 2);
    EXPECT_EQ(c.only_in_results, 0);
    ASSERT_EQ(c.changed_lengths.size(), 1u);
    EXPECT_EQ(c.changed_lengths[0].key, "x.txt:2");
    EXPECT_EQ(c.changed_lengths[0].baseline_length, 7);
  }
}

TEST(ReportCompareTest, NormalSourceMakesThePathAbsoluteAndLeavesTheRest) {
  std::string here = std::filesystem::current_path().lexically_normal().string();
  EXPECT_EQ(NormalSource("./x.txt:3"), here + "/x.txt:3");
  EXPECT_EQ(NormalSource("a/../x.txt:3"), here + "/x.txt:3");
  EXPECT_EQ(NormalSource("/p/./q.txt:12"), "/p/q.txt:12");
  EXPECT_EQ(NormalSource("stdin:4"), here + "/stdin:4");
  for (const char* as_is : {"", "x.txt", "x.txt:", "x.txt:3a", ":3", "sfen"}) {
    EXPECT_EQ(NormalSource(as_is), as_is);
  }
}

TEST(ReportCompareTest, ZeroTimesDoNotDivideByZero) {
  RunResults results, baseline;
  results.problems = {Solved("a", "s:1", 1, 0)};
  baseline.problems = {Solved("a", "s:1", 1, 0.02)};
  Comparison c = Compare(results, baseline);
  EXPECT_TRUE(std::isfinite(c.geomean_speedup));
  EXPECT_NEAR(c.geomean_speedup, 0.02 / kTimeFloorMs, 1e-9);
}

TEST(ReportLoadTest, BadLinesAreReportedAndSkipped) {
  RunResults run = Load("bad.jsonl");
  ASSERT_EQ(run.problems.size(), 2u);
  EXPECT_EQ(run.problems[0].id, "p1");
  EXPECT_EQ(run.problems[0].line, 1);
  EXPECT_EQ(run.problems[1].id, "p3");
  EXPECT_EQ(run.problems[1].line, 8);
  ASSERT_EQ(run.bad_lines.size(), 5u);  // lines 2, 4, 5, 6, 7; line 3 is blank
  std::string prefix = Fixture("bad.jsonl");
  EXPECT_THAT(run.bad_lines[0], StartsWith(prefix + ":2: invalid JSON"));
  EXPECT_EQ(run.bad_lines[1], prefix + ":4: not a JSON object");
  EXPECT_THAT(run.bad_lines[2], StartsWith(prefix + ":5: field \"result\""));
  EXPECT_THAT(run.bad_lines[3], StartsWith(prefix + ":6: field \"length\""));
  EXPECT_EQ(run.bad_lines[4], prefix + ":7: field \"time_ms\": missing");
  for (const std::string& message : run.bad_lines) {
    EXPECT_EQ(message.find('\n'), std::string::npos) << message;
  }
}

TEST(ReportLoadTest, FieldTypesAreChecked) {
  EXPECT_FALSE(ParseResultLine(R"({"id":1,"result":"mate","length":1,"time_ms":1})").ok());
  EXPECT_FALSE(ParseResultLine(R"({"id":"a","result":"nomate","time_ms":-1})").ok());
  EXPECT_FALSE(ParseResultLine(R"({"id":"a","result":"nomate","time_ms":"3"})").ok());
  EXPECT_FALSE(ParseResultLine(R"({"id":"a","result":"nomate","time_ms":1,"nodes":2.5})").ok());
  EXPECT_FALSE(ParseResultLine(R"({"id":"a","result":"nomate","time_ms":1,"moves":[1]})").ok());
  EXPECT_FALSE(ParseResultLine(R"({"id":"a","result":"nomate","time_ms":1,"match":1})").ok());
  EXPECT_FALSE(
      ParseResultLine(R"({"id":"a","result":"nomate","time_ms":1,"expected":"maybe"})").ok());
  EXPECT_FALSE(
      ParseResultLine(R"({"id":"a","result":"nomate","time_ms":1,"nodes":18446744073709551615})")
          .ok());
  // Numbers past a double's range are bad lines too (the parser's error used to escape).
  for (const char* line : {"-1e400", R"({"id":"a","result":"nomate","time_ms":1e400})"}) {
    absl::StatusOr<ProblemResult> huge = ParseResultLine(line);
    ASSERT_FALSE(huge.ok()) << line;
    EXPECT_THAT(huge.status().message(), HasSubstr("number overflow")) << line;
  }
  // Claims past any real run (2^50 nodes, 10^12 ms), and a split of more nodes than the line's.
  for (const char* line : {R"({"id":"a","result":"nomate","time_ms":1,"nodes":1125899906842625})",
                           R"({"id":"a","result":"nomate","time_ms":1e13})",
                           R"({"id":"a","result":"mate","length":3,"time_ms":1,"nodes":10,)"
                           R"("first_mate":{"length":3,"nodes":50},"exact_passes":[]})"}) {
    EXPECT_FALSE(ParseResultLine(line).ok()) << line;
  }
  // The largest claims still add up to finite, non-negative figures.
  std::istringstream largest(
      R"({"id":"a","result":"unknown","time_ms":0.001,"nodes":1125899906842624})"
      "\n"
      R"({"id":"b","result":"unknown","time_ms":0.001,"nodes":1125899906842624})"
      "\n");
  RunResults run = ParseResults(largest, "largest.jsonl");
  ASSERT_EQ(run.problems.size(), 2u) << run.bad_lines.size();
  Summary summary = Summarize(run);
  EXPECT_GT(summary.rows.back().nodes_per_second, 0);
  EXPECT_EQ(summary.rows.back().total_nodes, int64_t(1) << 51);

  // A long value is quoted cut short.
  absl::StatusOr<ProblemResult> long_result = ParseResultLine(
      absl::StrCat(R"({"id":"a","time_ms":1,"result":")", std::string(5000, 'x'), R"("})"));
  ASSERT_FALSE(long_result.ok());
  EXPECT_LT(long_result.status().message().size(), 200u) << long_result.status().message();
  absl::StatusOr<ProblemResult> ok = ParseResultLine(
      R"({"id":"a","result":"mate","length":3,"time_ms":1.5,"expected_length":null,)"
      R"("expected":null,"match":null,"moves":["G*5b","5a4a","G*4b"],"limit":"time"})");
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_FALSE(ok->expected_length.has_value());
  EXPECT_EQ(ok->moves.size(), 3u);
  EXPECT_DOUBLE_EQ(ok->time_ms, 1.5);
  EXPECT_EQ(ok->limit, "time");
}

// A mate's nodes by stage: first_mate's nodes, and its passes by result (mate: a shorter mate;
// nomate or unknown: none shorter, or a limit ended the pass).
TEST(ReportLoadTest, NodeSplitIsReadFromTheFirstMateAndThePasses) {
  absl::StatusOr<ProblemResult> r =
      ParseResultLine(R"({"id":"a","result":"mate","length":17,"time_ms":1,"nodes":1000,)"
                      R"("first_mate":{"length":21,"nodes":300},"exact_passes":[)"
                      R"({"within":19,"result":"mate","length":17,"nodes":40},)"
                      R"({"within":15,"result":"nomate","nodes":500}]})");
  ASSERT_TRUE(r.ok()) << r.status();
  ASSERT_TRUE(r->split.has_value());
  EXPECT_EQ(r->split->first_mate, 300);
  EXPECT_EQ(r->split->shorter, 40);
  EXPECT_EQ(r->split->no_shorter, 500);

  // Older lines, and results other than a mate, have none.
  r = ParseResultLine(R"({"id":"a","result":"mate","length":1,"time_ms":1})");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->split.has_value());
  r = ParseResultLine(
      R"({"id":"a","result":"unknown","time_ms":1,"first_mate":{"length":9,"nodes":5}})");
  ASSERT_TRUE(r.ok()) << r.status();
  EXPECT_FALSE(r->split.has_value());

  for (const char* bad :
       {R"({"id":"a","result":"mate","length":1,"time_ms":1,"first_mate":3})",
        R"({"id":"a","result":"mate","length":1,"time_ms":1,"first_mate":{"length":1}})",
        R"({"id":"a","result":"mate","length":1,"time_ms":1,"first_mate":{"nodes":1},)"
        R"("exact_passes":{}})",
        R"({"id":"a","result":"mate","length":1,"time_ms":1,"first_mate":{"nodes":1},)"
        R"("exact_passes":[{"result":"mate"}]})"}) {
    absl::StatusOr<ProblemResult> parsed = ParseResultLine(bad);
    EXPECT_FALSE(parsed.ok()) << bad;
    EXPECT_THAT(parsed.status().message(),
                testing::AnyOf(HasSubstr("first_mate"), HasSubstr("exact_passes")));
  }
}

TEST(ReportSummaryTest, NodeSplitSumsTheMatesStages) {
  std::istringstream lines(R"({"id":"a","result":"mate","length":3,"time_ms":1,"nodes":100,)"
                           R"("first_mate":{"length":3,"nodes":90},"exact_passes":[]})"
                           "\n"
                           R"({"id":"b","result":"mate","length":17,"time_ms":1,"nodes":900,)"
                           R"("first_mate":{"length":21,"nodes":210},"exact_passes":[)"
                           R"({"within":19,"result":"mate","length":17,"nodes":100},)"
                           R"({"within":15,"result":"nomate","nodes":500}]})"
                           "\n"
                           R"({"id":"c","result":"unknown","time_ms":1,"nodes":5000})"
                           "\n");
  RunResults run = ParseResults(lines, "split.jsonl");
  Summary summary = Summarize(run);
  EXPECT_EQ(summary.split_problems, 2);
  EXPECT_EQ(summary.split_nodes, 1000);
  EXPECT_EQ(summary.split.first_mate, 300);
  EXPECT_EQ(summary.split.shorter, 100);
  EXPECT_EQ(summary.split.no_shorter, 500);
  EXPECT_THAT(FormatSummaryText(summary),
              HasSubstr("nodes of the 2 mates: first mate 30.0%, passes to shorter mates 10.0%, "
                        "passes finding none 50.0%, reading lines out 10.0%\n"));
  EXPECT_THAT(RenderHtml(run, nullptr),
              HasSubstr("<p class=\"split\">nodes of the 2 mates: first mate 30.0%"));
  nlohmann::json j = NodeSplitToJson(summary);
  EXPECT_EQ(j["problems"], 2);
  EXPECT_EQ(j["nodes"], 1000);
  EXPECT_EQ(j["first_mate"], 300);
  EXPECT_EQ(j["shorter_passes"], 100);
  EXPECT_EQ(j["no_shorter_passes"], 500);

  Summary none = Summarize(Load("results.jsonl"));
  EXPECT_EQ(none.split_problems, 0);
  EXPECT_TRUE(NodeSplitToJson(none).is_null());
  EXPECT_THAT(FormatSummaryText(none), Not(HasSubstr("nodes of the")));
  EXPECT_THAT(RenderHtml(Load("results.jsonl"), nullptr), Not(HasSubstr("nodes of the")));
}

// verify's result lines (as `tsume verify --out` writes them, fields cut to those read).
constexpr char kVerifyLines[] =
    R"({"id":"sound","source":"v.tsv:2","verdict":"sound","length":5,"length_exact":true,)"
    R"("stated_length":5,"flaws":[],"notes":[],"nodes":1000,"time_ms":2,"solve_nodes":400,)"
    R"("first_mate":{"length":7,"nodes":100},"exact_passes":[)"
    R"({"within":5,"result":"mate","length":5,"nodes":100},)"
    R"({"within":3,"result":"nomate","nodes":100}]})"
    "\n"
    R"({"id":"flawed","source":"v.tsv:3","verdict":"flawed","length":7,"length_exact":true,)"
    R"("stated_length":7,"flaws":[{"kind":"alternative_mate","ply":1},)"
    R"({"kind":"alternative_mate","ply":3},{"kind":"pieces_left","ply":7}],"nodes":50,)"
    R"("time_ms":1,"solve_nodes":40})"
    "\n"
    R"({"id":"short","source":"v.tsv:4","verdict":"flawed","length":3,"length_exact":true,)"
    R"("stated_length":5,"flaws":[{"kind":"shorter_mate","ply":0}],"nodes":10,"time_ms":1,)"
    R"("solve_nodes":10})"
    "\n"
    R"({"id":"none","source":"v.tsv:5","verdict":"not a mate","length":0,"stated_length":9,)"
    R"("flaws":[],"nodes":30,"time_ms":1,"solve_nodes":30})"
    "\n"
    R"({"id":"cut","source":"v.tsv:6","verdict":"unknown","length":0,"stated_length":9,)"
    R"("no_mate_within":5,"flaws":[],"nodes":9000,"time_ms":30,"solve_nodes":9000})"
    "\n";

TEST(ReportVerifyTest, VerdictsAreResultsAndAreCounted) {
  std::istringstream in(kVerifyLines);
  RunResults run = ParseResults(in, "verify.jsonl");
  ASSERT_TRUE(run.bad_lines.empty()) << run.bad_lines[0];
  ASSERT_EQ(run.problems.size(), 5u);
  EXPECT_EQ(run.problems[0].result, Outcome::kMate);
  EXPECT_EQ(run.problems[0].expected_length, 5);
  EXPECT_THAT(run.problems[1].flaw_kinds, ElementsAre("alternative_mate", "pieces_left"));
  EXPECT_EQ(run.problems[3].result, Outcome::kNoMate);
  EXPECT_EQ(run.problems[4].result, Outcome::kUnknown);

  Summary summary = Summarize(run);
  const SummaryRow* all = FindRow(summary, "all");
  ASSERT_TRUE(all);
  EXPECT_EQ(all->count, 5);
  EXPECT_EQ(all->solved, 3);
  EXPECT_EQ(all->matches, 2);  // sound and flawed have their stated lengths
  EXPECT_EQ(all->wrong, 2);    // a mate in 3 stated 5, no mate stated 9
  EXPECT_EQ(all->unknown, 1);
  EXPECT_EQ(summary.verdicts, (std::vector<std::pair<std::string, int>>{
                                  {"sound", 1}, {"flawed", 2}, {"not a mate", 1}, {"unknown", 1}}));
  // Problems with each kind, most first (a problem with two 余詰 counts once).
  EXPECT_EQ(summary.flaw_kinds,
            (std::vector<std::pair<std::string, int>>{
                {"alternative_mate", 1}, {"pieces_left", 1}, {"shorter_mate", 1}}));
  std::string text = FormatSummaryText(summary);
  EXPECT_THAT(text, HasSubstr("verdicts: sound 1, flawed 2, not a mate 1, unknown 1; problems "
                              "with each flaw: 余詰 (alternative_mate) 1, 駒余り (pieces_left) 1, "
                              "早詰 (shorter_mate) 1\n"));
  // The node split is the solves': 300 of the first line's 400 solve nodes.
  EXPECT_EQ(summary.split_problems, 1);
  EXPECT_EQ(summary.split_nodes, 400);
  EXPECT_THAT(text, HasSubstr("first mate 25.0%, passes to shorter mates 25.0%, passes finding "
                              "none 25.0%, reading lines out 25.0%"));
  // The unsound ones are named, with what is wrong with them: in the text by the names verify
  // prints, in the JSON by the results' names.
  ASSERT_EQ(summary.unsound.size(), 3u);
  EXPECT_EQ(summary.unsound[0].key, "flawed");
  EXPECT_EQ(summary.unsound[0].verdict, "flawed");
  EXPECT_THAT(summary.unsound[0].flaw_kinds, ElementsAre("alternative_mate", "pieces_left"));
  EXPECT_THAT(text, HasSubstr("\nunsound: flawed: flawed (余詰, 駒余り)\n"
                              "unsound: short: flawed (早詰)\nunsound: none: not a mate\n"));
  nlohmann::json j = VerdictsToJson(summary);
  EXPECT_EQ(j["verdicts"]["flawed"], 2);
  EXPECT_EQ(j["flaws"]["shorter_mate"], 1);
  EXPECT_EQ(j["unsound"], nlohmann::json({"flawed: flawed (alternative_mate, pieces_left)",
                                          "short: flawed (shorter_mate)", "none: not a mate"}));
  std::string html = RenderHtml(run, nullptr);
  EXPECT_THAT(html, HasSubstr("<p class=\"verdicts\">verdicts: sound 1"));
  EXPECT_THAT(html, HasSubstr("Unsound problems (3)"));
  EXPECT_THAT(html, HasSubstr("<li>short: flawed (早詰)</li>"));
  EXPECT_THAT(html, HasSubstr("早詰 (shorter_mate) 1"));
  // A kind this build does not know is shown as the results name it.
  std::istringstream future_in(
      R"({"id":"f","verdict":"flawed","length":3,"time_ms":1,"flaws":[{"kind":"new_kind"}]})"
      "\n");
  std::string future = FormatSummaryText(Summarize(ParseResults(future_in, "f.jsonl")));
  EXPECT_THAT(future, HasSubstr("problems with each flaw: new_kind 1\n"));
  EXPECT_THAT(future, HasSubstr("unsound: f: flawed (new_kind)\n"));

  // A long list is cut in the text, not in the JSON.
  std::string many;
  for (int i = 0; i < 60; ++i) {
    many += absl::StrCat(R"({"id":"p)", i, R"(","verdict":"flawed","length":3,"time_ms":1,)",
                         R"("flaws":[{"kind":"alternative_mate"}]})", "\n");
  }
  std::istringstream many_in(many);
  Summary cut = Summarize(ParseResults(many_in, "many.jsonl"));
  std::string cut_text = FormatSummaryText(cut);
  EXPECT_EQ(Count(cut_text, "unsound: "), 50u);
  EXPECT_THAT(cut_text, HasSubstr("... and 10 more unsound"));
  EXPECT_EQ(VerdictsToJson(cut)["unsound"].size(), 60u);

  // Against a baseline where the first problem was flawed: its verdict's change is named.
  std::string baseline_text = kVerifyLines;
  baseline_text.replace(baseline_text.find(R"("verdict":"sound")"), strlen(R"("verdict":"sound")"),
                        R"("verdict":"flawed")");
  std::istringstream baseline_in(baseline_text);
  Comparison c = Compare(run, ParseResults(baseline_in, "baseline.jsonl"));
  EXPECT_THAT(c.changed_verdicts, ElementsAre("sound: flawed -> sound"));
  EXPECT_THAT(FormatComparisonText(c),
              HasSubstr("  changed verdicts 1:\n    sound: flawed -> sound\n"));
  EXPECT_EQ(ComparisonToJson(c)["changed_verdicts"][0], "sound: flawed -> sound");
  EXPECT_TRUE(Compare(run, run).changed_verdicts.empty());

  // batch's lines have no verdicts, and say none.
  Summary batch = Summarize(Load("results.jsonl"));
  EXPECT_TRUE(batch.verdicts.empty());
  EXPECT_TRUE(VerdictsToJson(batch).is_null());
  EXPECT_THAT(FormatSummaryText(batch), Not(HasSubstr("verdicts")));

  // A verify line without solve_nodes: its split is of all its nodes.
  absl::StatusOr<ProblemResult> older =
      ParseResultLine(R"({"id":"a","verdict":"sound","length":3,"time_ms":1,"nodes":50,)"
                      R"("first_mate":{"length":3,"nodes":40},"exact_passes":[]})");
  ASSERT_TRUE(older.ok()) << older.status();
  EXPECT_EQ(older->solve_nodes, 50);

  for (const char* bad :
       {R"({"id":"a","verdict":"great","length":1,"time_ms":1})",
        R"({"id":"a","verdict":"sound","length":1,"time_ms":1,"flaws":[{"ply":1}]})",
        R"({"id":"a","verdict":"sound","length":1,"time_ms":1,"flaws":{}})",
        R"({"id":"a","verdict":"sound","length":1,"time_ms":1,"stated_length":"x"})"}) {
    absl::StatusOr<ProblemResult> parsed = ParseResultLine(bad);
    EXPECT_FALSE(parsed.ok()) << bad;
  }
}

TEST(ReportLoadTest, UnreadableFileIsAnError) {
  absl::StatusOr<RunResults> run = LoadResults(Fixture("no-such-file.jsonl"));
  ASSERT_FALSE(run.ok());
  EXPECT_THAT(std::string(run.status().message()), HasSubstr("no-such-file.jsonl"));
  EXPECT_FALSE(LoadResults(Fixture("")).ok());  // a directory
}

// Checks that every non-void tag is closed in order (a rough well-formedness test). Text and
// attribute values never hold '<' or '>' here, since the renderer escapes them.
bool TagsBalance(const std::string& html, std::string* problem) {
  static const std::set<std::string> kVoid = {"meta", "br", "hr", "img", "link", "input"};
  std::vector<std::string> open;
  for (size_t at = html.find('<'); at != std::string::npos; at = html.find('<', at + 1)) {
    size_t end = html.find('>', at);
    if (end == std::string::npos) {
      *problem = "unterminated tag";
      return false;
    }
    std::string tag = html.substr(at + 1, end - at - 1);
    if (tag.empty() || tag[0] == '!') continue;  // <!DOCTYPE ...>
    bool closing = tag[0] == '/', self_closing = tag.back() == '/';
    size_t name_start = closing ? 1 : 0;
    size_t name_end = tag.find_first_of(" \t\n/", name_start);
    std::string name = tag.substr(
        name_start, name_end == std::string::npos ? std::string::npos : name_end - name_start);
    if (name.empty()) {
      *problem = "tag without a name: <" + tag + ">";
      return false;
    }
    if (self_closing || kVoid.count(name)) continue;
    if (!closing) {
      open.push_back(name);
    } else if (open.empty() || open.back() != name) {
      *problem =
          "unexpected </" + name + "> with " + (open.empty() ? "nothing" : open.back()) + " open";
      return false;
    } else {
      open.pop_back();
    }
  }
  if (!open.empty()) *problem = "unclosed <" + open.back() + ">";
  return open.empty();
}

// The value of attribute `name` in the first element of `html` that contains `anchor`.
std::string Attribute(const std::string& html, const std::string& anchor, const std::string& name) {
  size_t at = html.find(anchor);
  if (at == std::string::npos) return "";
  size_t start = html.rfind('<', at);
  size_t end = html.find('>', at);
  std::string element = html.substr(start, end - start);
  size_t attr = element.find(" " + name + "=\"");
  if (attr == std::string::npos) return "";
  attr += name.size() + 3;
  return element.substr(attr, element.find('"', attr) - attr);
}

double NumericAttribute(const std::string& html, const std::string& anchor,
                        const std::string& name) {
  std::string value = Attribute(html, anchor, name);
  EXPECT_FALSE(value.empty()) << name << " near " << anchor;
  return value.empty() ? 0 : std::stod(value);
}

TEST(ReportHtmlTest, TagCheckerCatchesMistakes) {
  std::string problem;
  EXPECT_FALSE(TagsBalance("<p><b>x</p></b>", &problem));
  EXPECT_FALSE(TagsBalance("<svg><g></svg>", &problem));
  EXPECT_TRUE(TagsBalance("<p><br><circle r=\"1\"/></p>", &problem));
}

TEST(ReportHtmlTest, SelfContainedPageWithBothPlots) {
  RunResults results = Load("results.jsonl");
  RunResults baseline = Load("baseline.jsonl");
  std::string html = RenderHtml(results, &baseline);
  EXPECT_THAT(html, StartsWith("<!DOCTYPE html>"));
  EXPECT_EQ(Count(html, "<svg"), 2u);
  EXPECT_EQ(Count(html, "class=\"plot scatter\""), 1u);
  EXPECT_EQ(Count(html, "class=\"plot cactus\""), 1u);
  // One point per solved problem in each run (5 now, 6 in the baseline), plus the scatter
  // legend's two markers.
  EXPECT_EQ(Count(html, "<circle cx="), 13u);
  EXPECT_EQ(Count(html, "<polyline class=\"curve run-results\""), 1u);
  EXPECT_EQ(Count(html, "<polyline class=\"curve run-baseline\""), 1u);
  // Legends name both runs in both plots.
  EXPECT_EQ(Count(html, "<g class=\"legend\">"), 2u);
  EXPECT_EQ(Count(html, ">results: " + results.path + "</text>"), 2u);
  EXPECT_EQ(Count(html, ">baseline: " + baseline.path + "</text>"), 2u);
  // Axes: labels and log-scale decade ticks (solved in 1..80 ms).
  EXPECT_THAT(html, HasSubstr("mate length (plies)"));
  EXPECT_THAT(html, HasSubstr(">problems solved</text>"));
  EXPECT_THAT(html, HasSubstr(">1 ms</text>"));
  EXPECT_THAT(html, HasSubstr(">100 ms</text>"));
  EXPECT_THAT(html, HasSubstr(">10 ms</text>"));
  // Summary and comparison tables.
  EXPECT_EQ(Count(html, "<table class=\"summary\">"), 2u);
  EXPECT_THAT(html, HasSubstr("Comparison with the baseline"));
  // Nothing fetched from anywhere.
  EXPECT_THAT(html, Not(HasSubstr("http")));
  EXPECT_THAT(html, Not(HasSubstr("<script")));
  EXPECT_THAT(html, Not(HasSubstr("<link")));
  EXPECT_THAT(html, Not(HasSubstr("url(")));
  std::string problem;
  EXPECT_TRUE(TagsBalance(html, &problem)) << problem;
}

TEST(ReportHtmlTest, PointsSitAtTheirLengthAndTime) {
  // Times 1..100 ms span two decades, so 10 ms is halfway up; lengths 1..5 plot on 0..6.
  RunResults run;
  run.path = "one.jsonl";
  run.problems = {Solved("a", "s:1", 3, 10), Solved("b", "s:2", 5, 100), Solved("c", "s:3", 1, 1)};
  std::string html = RenderHtml(run, nullptr);
  double left = NumericAttribute(html, "class=\"frame\"", "x");
  double top = NumericAttribute(html, "class=\"frame\"", "y");
  double width = NumericAttribute(html, "class=\"frame\"", "width");
  double height = NumericAttribute(html, "class=\"frame\"", "height");
  // The circle just before the title naming problem "a".
  size_t title = html.find("<title>a:");
  ASSERT_NE(title, std::string::npos);
  std::string circle = html.substr(html.rfind("<circle", title));
  EXPECT_NEAR(NumericAttribute(circle, "<circle", "cx"), left + width * 3 / 6, 0.1);
  EXPECT_NEAR(NumericAttribute(circle, "<circle", "cy"), top + height / 2, 0.1);
  EXPECT_THAT(html, Not(HasSubstr("baseline")));
  std::string problem;
  EXPECT_TRUE(TagsBalance(html, &problem)) << problem;
}

TEST(ReportHtmlTest, CactusCurveClimbsToTheNumberSolved) {
  RunResults run;
  run.path = "r.jsonl";
  run.problems = {Solved("a", "s:1", 1, 1), Solved("b", "s:2", 1, 10), Solved("c", "s:3", 1, 100)};
  std::string html = RenderHtml(run, nullptr);
  std::string points = Attribute(html, "class=\"curve run-results\"", "points");
  ASSERT_FALSE(points.empty());
  std::vector<std::pair<double, double>> pts;
  std::istringstream in(points);
  std::string pair;
  while (in >> pair) {
    size_t comma = pair.find(',');
    pts.push_back({std::stod(pair.substr(0, comma)), std::stod(pair.substr(comma + 1))});
  }
  ASSERT_EQ(pts.size(), 6u);  // a step up at each of the three times
  for (size_t i = 1; i < pts.size(); ++i) {
    EXPECT_GE(pts[i].first, pts[i - 1].first);    // time never goes back
    EXPECT_LE(pts[i].second, pts[i - 1].second);  // count never falls (SVG y grows down)
  }
  // The three times are whole decades, evenly spaced along the x axis.
  EXPECT_NEAR(pts[2].first - pts[0].first, pts[4].first - pts[2].first, 0.11);
}

TEST(ReportHtmlTest, EscapesNames) {
  RunResults run;
  run.path = "<odd>&name.jsonl";
  run.problems = {Solved("<x>", "s:1", 1, 1)};
  std::string html = RenderHtml(run, nullptr);
  EXPECT_THAT(html, Not(HasSubstr("<odd>")));
  EXPECT_THAT(html, HasSubstr("&lt;odd&gt;&amp;name.jsonl"));
  std::string problem;
  EXPECT_TRUE(TagsBalance(html, &problem)) << problem;
}

TEST(ReportHtmlTest, EmptyRunStillDrawsAxes) {
  RunResults run;
  run.path = "empty.jsonl";
  std::string html = RenderHtml(run, nullptr);
  EXPECT_EQ(Count(html, "<svg"), 2u);
  EXPECT_EQ(Count(html, "no solved problems"), 2u);
  std::string problem;
  EXPECT_TRUE(TagsBalance(html, &problem)) << problem;
}

// --- The command -----------------------------------------------------------------------------

int RunCommand(const std::vector<std::string>& args, std::string* out, std::string* err) {
  std::ostringstream o, e;
  int code = RunReport(args, o, e);
  *out = o.str();
  *err = e.str();
  return code;
}

TEST(ReportCommandTest, TextSummaryAndComparison) {
  std::string out, err;
  EXPECT_EQ(RunCommand({Fixture("results.jsonl"), Fixture("baseline.jsonl")}, &out, &err), kExitOk);
  EXPECT_EQ(err, "");
  EXPECT_THAT(out, HasSubstr("(9 problems)"));
  EXPECT_THAT(out, HasSubstr("(10 problems)"));
  EXPECT_THAT(out, HasSubstr("matched by id"));
  EXPECT_THAT(out, HasSubstr("p4  3 -> 5"));
}

TEST(ReportCommandTest, JsonIsOneObject) {
  std::string out, err;
  EXPECT_EQ(RunCommand({"--json", Fixture("results.jsonl"), Fixture("baseline.jsonl")}, &out, &err),
            kExitOk);
  ASSERT_EQ(Count(out, "\n"), 1u);
  nlohmann::json j = nlohmann::json::parse(out);
  EXPECT_EQ(j["results"]["problems"], 9);
  EXPECT_EQ(j["results"]["summary"].back()["solved"], 5);
  EXPECT_EQ(j["baseline"]["problems"], 10);
  EXPECT_EQ(j["comparison"]["newly_unsolved"][0], "p5");
}

TEST(ReportCommandTest, BadLinesGiveStatusTwoButStillReport) {
  std::string out, err;
  EXPECT_EQ(RunCommand({Fixture("bad.jsonl")}, &out, &err), kExitUsage);
  EXPECT_EQ(Count(err, "\n"), 5u);
  EXPECT_THAT(err, HasSubstr("bad.jsonl:4: not a JSON object\n"));
  EXPECT_THAT(out, HasSubstr("(2 problems)"));
}

// A problem written twice (overlapping shards, a file concatenated twice) is counted twice,
// and said; the run is still summarised, with status 0.
TEST(ReportCommandTest, RepeatedProblemsAreCountedAndSaid) {
  std::ifstream in(Fixture("results.jsonl"), std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  std::string path =
      (std::filesystem::temp_directory_path() / "tsume_report_repeated.jsonl").string();
  {
    std::ofstream f(path, std::ios::binary);
    f << text << text;
  }
  std::string out, err;
  EXPECT_EQ(RunCommand({path}, &out, &err), kExitOk);
  EXPECT_THAT(out, HasSubstr("(18 problems)"));
  EXPECT_THAT(err, HasSubstr("warning: " + path + ": 9 result(s) repeat a problem"));
  EXPECT_EQ(Count(err, "\n"), 1u) << err;
  std::filesystem::remove(path);
}

// A result repeated with its source's path spelt another way (`./x.txt:3` for `x.txt:3`) is
// the same problem again.
TEST(ReportCommandTest, RepeatsAreFoundWhateverThePathsSpelling) {
  std::string path =
      (std::filesystem::temp_directory_path() / "tsume_report_spelling.jsonl").string();
  {
    std::ofstream f(path, std::ios::binary);
    f << R"({"id":"a","source":"x.txt:3","result":"mate","length":3,"nodes":5,"time_ms":1})"
      << "\n"
      << R"({"id":"a","source":"./x.txt:3","result":"mate","length":3,"nodes":5,"time_ms":1})"
      << "\n"
      << R"({"id":"a","source":"x.txt:4","result":"mate","length":3,"nodes":5,"time_ms":1})"
      << "\n";
  }
  std::string out, err;
  EXPECT_EQ(RunCommand({path}, &out, &err), kExitOk) << err;
  EXPECT_THAT(out, HasSubstr("(3 problems)"));
  EXPECT_THAT(err, HasSubstr("warning: " + path + ": 1 result(s) repeat a problem"));
  std::filesystem::remove(path);
}

TEST(ReportCommandTest, UnreadableFileAndUsage) {
  std::string out, err;
  EXPECT_EQ(RunCommand({Fixture("missing.jsonl")}, &out, &err), kExitUsage);
  EXPECT_THAT(err, HasSubstr("missing.jsonl"));
  EXPECT_EQ(out, "");
  EXPECT_EQ(RunCommand({}, &out, &err), kExitUsage);
  EXPECT_EQ(RunCommand({"a", "b", "c"}, &out, &err), kExitUsage);
  EXPECT_EQ(RunCommand({"--bogus", Fixture("results.jsonl")}, &out, &err), kExitUsage);
  EXPECT_EQ(RunCommand({"--help"}, &out, &err), kExitOk);
  EXPECT_THAT(out, HasSubstr("usage: tsume report"));
}

TEST(ReportCommandTest, WritesHtmlFile) {
  std::string html_path = (std::filesystem::temp_directory_path() /
                           ("tsume_report_test_" + std::to_string(::getpid()) + ".html"))
                              .string();
  std::string out, err;
  EXPECT_EQ(RunCommand({Fixture("results.jsonl"), "--html", html_path}, &out, &err), kExitOk)
      << err;
  std::ifstream in(html_path);
  std::stringstream content;
  content << in.rdbuf();
  EXPECT_THAT(content.str(), HasSubstr("<svg"));
  EXPECT_THAT(content.str(), EndsWith("</html>\n"));
  std::filesystem::remove(html_path);

  EXPECT_EQ(RunCommand({Fixture("results.jsonl"), "--html", "/nonexistent-dir/x.html"}, &out, &err),
            kExitUsage);
  EXPECT_THAT(err, HasSubstr("cannot write /nonexistent-dir/x.html"));
}

}  // namespace
}  // namespace tsume
