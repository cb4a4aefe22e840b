// `tsume report`: reads batch results (JSONL, one object per problem), summarises them by stated
// mate length, compares two runs and renders a self-contained HTML page with plots. The logic is
// a library so tests can drive it without a process. `verify`'s results are read as well: their
// verdict gives the result (a mate when it has a length), and the summary counts the verdicts
// and the kinds of flaws.
//
// Definitions used throughout:
//  - a problem "states" a mate when expected_length is set or expected is "mate", and states no
//    mate when expected is "nomate";
//  - "match": the result agrees with the statement (mate of the stated length, any mate when only
//    "mate" was stated, nomate when nomate was stated; for "no mate within N", no mate, a proven
//    bound of N or more, or a mate proven shortest and longer than N);
//  - "wrong": a definite answer that contradicts the statement (mate of another length, nomate
//    where a mate was stated, mate where nomate was stated, a mate within N where none within N
//    was stated), judged as batch judges it: a mate
//    not proven shortest is wrong only when shorter than the stated length, and a proven
//    "no mate within N" of N or more is wrong. "unknown" and "error" results are neither
//    matches nor wrong;
//  - time figures cover every problem of the row except "error" results (an error usually means
//    the problem never ran, and its time would skew the figures).
#ifndef TSUME_TOOLS_REPORT_H_
#define TSUME_TOOLS_REPORT_H_

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "absl/status/statusor.h"
#include "nlohmann/json.hpp"
#include "tools/commands.h"

namespace tsume {

int RunReport(const CommandArgs& args, std::ostream& out, std::ostream& err);

enum class Outcome { kMate, kNoMate, kUnknown, kError };

// A mate's nodes by stage, from batch's first_mate and exact_passes.
struct NodeSplit {
  int64_t first_mate = 0;  // searched until the first mate was proven
  int64_t shorter = 0;     // passes that proved a shorter mate
  int64_t no_shorter = 0;  // passes that proved none shorter, or that a limit ended
};

// One line of a results file.
struct ProblemResult {
  std::string id;
  std::string source;  // "file:line" of the problem
  std::string sfen;
  std::optional<int> expected_length;
  std::optional<std::string> expected;  // "mate" or "nomate"
  std::optional<int> nomate_within;     // stated: no mate within this many plies
  Outcome result = Outcome::kUnknown;
  int length = 0;  // plies, 0 unless kMate
  // False when the line says so: the limits stopped the passes, and the length is only the
  // found mate's bound (a line without the field is taken as exact).
  bool length_exact = true;
  std::optional<bool> match;  // as written by the batch; the report computes its own
  int no_mate_within = 0;     // a proven lower bound of the length (0: none, or not written)
  int64_t nodes = 0;
  double time_ms = 0;
  int64_t nps = 0;
  std::vector<std::string> moves;
  std::string limit;  // "nodes", "time", "stopped" or empty
  std::string error;
  int line = 0;                    // line in the results file, 1-based
  std::optional<NodeSplit> split;  // for a mate, when the line records its first mate
  int64_t solve_nodes = 0;         // the solve's part of `nodes` (verify's lines: solve_nodes)
  // A line of `verify`'s: its verdict (sound, flawed, not a mate, unknown), and the kinds of
  // its flaws, each once. Empty for batch's lines.
  std::string verdict;
  std::vector<std::string> flaw_kinds;
};

struct RunResults {
  std::string path;  // as given; used to name the run
  std::vector<ProblemResult> problems;
  // One "FILE:LINE: reason" per malformed line (those lines are skipped).
  std::vector<std::string> bad_lines;
};

// Parses JSONL from `in`; `path` names the source in messages. Never fails: bad lines are
// recorded in bad_lines and skipped. Blank lines are ignored.
RunResults ParseResults(std::istream& in, const std::string& path);
// Reads `path` ("-" is stdin). Fails only when the file cannot be read.
absl::StatusOr<RunResults> LoadResults(const std::string& path);

// Parses one JSON line into a ProblemResult; the error names the offending field.
absl::StatusOr<ProblemResult> ParseResultLine(const std::string& line);

// What a problem states about its answer, for judging a result against it.
struct Statement {
  bool nomate = false;                   // no mate at all
  std::optional<int64_t> length;         // a mate of this many plies
  bool mate = false;                     // a mate (with or without a length)
  std::optional<int64_t> nomate_within;  // no mate within this many plies
};

// How a result compares with its problem's statement.
struct StatementCheck {
  std::optional<bool> match;  // null when nothing was stated
  // A definite answer contradicting the statement: a mate of another proven length, a mate
  // shorter than stated (proven or not), no mate where a mate was stated, a mate where none was
  // stated (or one within N for NOMATE_WITHIN_N). An unproven mate longer than stated is not
  // a contradiction (the search ran out before shortening it); unknown and error never are.
  bool wrong = false;
};

// The one rule batch's summary and this report's table judge by (see the header comment):
// `length` the mate found (kMate), `length_exact` whether it is proven shortest,
// `no_mate_within` the proven lower bound.
StatementCheck Judge(const Statement& stated, Outcome result, int64_t length, bool length_exact,
                     int64_t no_mate_within);

// Whether `r` states a mate / no mate, and how its result compares (see the header comment).
bool StatesMate(const ProblemResult& r);
bool StatesNoMate(const ProblemResult& r);
bool IsMatch(const ProblemResult& r);
bool IsWrong(const ProblemResult& r);

struct SummaryRow {
  std::string label;  // "1", "3", ..., "none", "all"
  int count = 0;
  int solved = 0;  // mate found
  int matches = 0;
  int wrong = 0;
  int unknown = 0;
  int errors = 0;
  int timed = 0;  // problems in the time figures (count - errors)
  double mean_ms = 0;
  double median_ms = 0;
  double p90_ms = 0;  // nearest-rank percentile
  double max_ms = 0;
  int64_t total_nodes = 0;
  double total_ms = 0;
  int64_t nodes_per_second = 0;  // total_nodes / total time
};

// A problem verify found unsound: its id (its source without one), its verdict and the kinds
// of its flaws as the results name them ("alternative_mate").
struct UnsoundProblem {
  std::string key;
  std::string verdict;
  std::vector<std::string> flaw_kinds;
};
// "zukou-007: flawed (longer_than_stated, alternative_mate)", or with the kinds' Japanese
// names, as verify prints them ("zukou-007: flawed (手数不足, 余詰)"; a kind this build does not
// know stays as written).
std::string UnsoundText(const UnsoundProblem& problem, bool japanese);

struct Summary {
  std::vector<SummaryRow> rows;  // by stated length ascending, then "none", then "all"
  // Over the mates whose lines record their first mate: how many, their nodes in all, and
  // those nodes by stage (the rest went into reading lines out).
  int split_problems = 0;
  int64_t split_nodes = 0;
  NodeSplit split;
  // Over verify's lines: how many have each verdict (all four, in that order), and how many
  // problems have each kind of flaw (most first). Empty when no line is verify's.
  std::vector<std::pair<std::string, int>> verdicts;
  std::vector<std::pair<std::string, int>> flaw_kinds;
  // The problems found unsound, in file order.
  std::vector<UnsoundProblem> unsound;
};

Summary Summarize(const RunResults& run);
// The table, then (when any mate records it) one line on where the mates' nodes went.
std::string FormatSummaryText(const Summary& summary);
nlohmann::json SummaryToJson(const Summary& summary);  // the table's rows
// {problems, nodes, first_mate, shorter_passes, no_shorter_passes}; null when no mate records it.
nlohmann::json NodeSplitToJson(const Summary& summary);
// {verdicts: {sound: N, ...}, flaws: {kind: N, ...}, unsound: [...]}; null when no line is
// verify's.
nlohmann::json VerdictsToJson(const Summary& summary);

// A problem whose found mate length differs between the runs.
struct LengthChange {
  std::string key;  // id or source, whichever the runs were matched by
  std::string sfen;
  int baseline_length = 0;
  int length = 0;
};

struct Comparison {
  std::string matched_by;  // "id" or "source"
  int matched = 0;
  int only_in_results = 0;
  int only_in_baseline = 0;
  // Over matched pairs where neither side is an error: time changed by more than
  // kSignificantFraction of the baseline time and by at least kSignificantMs.
  int faster = 0;
  int slower = 0;
  std::vector<std::string> newly_solved;    // keys: mate now, not in the baseline
  std::vector<std::string> newly_unsolved;  // keys: mate in the baseline, not now
  std::vector<LengthChange> changed_lengths;
  // verify's results: problems whose verdict differs ("zukou-008: unknown -> sound").
  std::vector<std::string> changed_verdicts;
  int solved_in_both = 0;
  // Geometric mean of baseline_time / time over problems solved in both (times floored at
  // kTimeFloorMs so instant solves do not divide by zero); 1 when none.
  double geomean_speedup = 1;
};

constexpr double kSignificantFraction = 0.10;
constexpr double kSignificantMs = 1.0;
constexpr double kTimeFloorMs = 0.01;

// A problem's source ("path:line") with the path absolute and lexically normal, so that two
// spellings of one file (`x.txt:3`, `./x.txt:3`) are one problem; anything else as it is.
std::string NormalSource(const std::string& source);

// Pairs problems by id, or by source when ids repeat (or are missing) in either run; a repeated
// key pairs its occurrences in order.
Comparison Compare(const RunResults& results, const RunResults& baseline);
std::string FormatComparisonText(const Comparison& comparison);
nlohmann::json ComparisonToJson(const Comparison& comparison);

// A self-contained HTML page (inline CSS and SVG, no scripts, no external resources) with the
// summary table(s), the comparison when `baseline` is given, a scatter plot of solve time against
// mate length and a cactus plot (problems solved against time).
std::string RenderHtml(const RunResults& results, const RunResults* baseline);

}  // namespace tsume

#endif  // TSUME_TOOLS_REPORT_H_
