// `tsume batch`: solves every problem of one or more collection files, writing one JSON line per
// problem the moment it is known (so an interrupted run loses nothing and can be resumed), then
// a summary table by stated length. The logic is a library so tests can drive it without a
// process or a terminal.
//
// Result line fields: id, source ("file:line"), sfen, expected_length (int|null), expected
// ("mate"|"nomate"|null), result ("mate"|"nomate"|"unknown"|"error"), length (0 unless mate),
// length_exact, match (bool, null when nothing was stated), nodes, time_ms, nps, moves (USI),
// plus "limit" when a limit was reached, "ties_cut" when the line leaves pieces in hand and
// not every line as long was tried, "error" when the position was bad, and "nomate_within"
// (int) for a NOMATE_WITHIN_N statement, which `expected` cannot express.
#ifndef TSUME_TOOLS_BATCH_H_
#define TSUME_TOOLS_BATCH_H_

#include <atomic>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/time/time.h"
#include "nlohmann/json.hpp"
#include "problems/collection.h"
#include "solver/solver.h"
#include "tools/cli_args.h"
#include "tools/commands.h"
#include "tools/kif_files.h"
#include "tools/report.h"

namespace tsume {

int RunBatch(const CommandArgs& args, std::ostream& out, std::ostream& err);

struct BatchOptions {
  std::vector<std::string> files;
  CollectionFormat format = CollectionFormat::kAuto;
  SolveOptions solve;  // solve.hash_mb is the total over all jobs
  int jobs = 1;
  std::string out_path;         // results file; empty: none
  bool results_to_out = false;  // with no out_path: results go to the `out` stream
  bool summary_json = false;    // summary as JSON instead of a table
  bool resume = false;          // keep out_path's results, solve only the rest, append
  // --kif-dir: each problem's KIF record as its own file there, written when solved.
  std::optional<KifDirectory> kif_dir;
  int shard_index = 1;  // 1-based K of --shard K/N
  int shard_count = 1;  // N
  // Set from outside (Ctrl-C) to stop: running searches end, their problems are not written.
  const std::atomic<bool>* stop = nullptr;
  // When `err` is a terminal a single status line is redrawn; otherwise a plain progress line
  // is written this often, or every `plain_progress_every` results.
  absl::Duration plain_progress_interval = absl::Seconds(10);
  int plain_progress_every = 1000;
  // Called (under the output lock) with each new result line; for tests and embedding.
  std::function<void(const nlohmann::ordered_json&)> on_result;
};

// Flags of `tsume batch` (see kBatchHelp in batch_command.cc). Errors name the flag.
absl::StatusOr<BatchOptions> BatchOptionsFromArgs(const CliArgs& args);

// "K/N" with 1 <= K <= N.
absl::Status ParseShard(const std::string& text, int* index, int* count);

// Whether the problem of index i (0-based, concatenated input order) is in shard K/N
// (`index` K, `count` N): i % N == K-1.
inline bool InShard(size_t i, int index, int count) { return int(i % size_t(count)) == index - 1; }
// The items (problems, or what belongs to each) of shard K/N.
template <typename T>
std::vector<T> SelectShard(std::vector<T> items, int index, int count) {
  if (count <= 1) return items;
  std::vector<T> selected;
  for (size_t i = 0; i < items.size(); ++i) {
    if (InShard(i, index, count)) selected.push_back(std::move(items[i]));
  }
  return selected;
}

// How a result line compares with its problem's statement (Judge, on the line's fields; a line
// without length_exact counts its mate as not proven shortest).
StatementCheck JudgeResult(const nlohmann::ordered_json& line);

// The result line for one problem; `position` is the parsed problem position (an error makes
// an "error" line), `result` the solver's answer (ignored for an error line).
nlohmann::ordered_json MakeResultLine(const Problem& problem,
                                      const absl::StatusOr<Position>& position,
                                      const SolveResult& result);

// Key identifying a problem in a results file for --resume: id and source, the source's file
// taken as an absolute, lexically normal path (`p.txt:3`, `./p.txt:3` and `/dir/p.txt:3` name
// one problem when the run is in /dir).
std::string ResumeKey(const std::string& id, const std::string& source);

// The complete result lines of an existing results file. A trailing partial line (a crash
// mid-write) is dropped and the file truncated to the last complete line, so appending is
// safe (a whole result lacking only its newline is kept, the newline added); lines that are
// not result objects (with `id`, `source` and `answer_field`: "result" for batch, a line the
// summary can read; "verdict" for verify, one of its verdicts) are reported on `err`, with why,
// and skipped. A missing file yields no lines.
absl::StatusOr<std::vector<nlohmann::ordered_json>> LoadAndRepairResults(
    const std::string& path, std::ostream& err, const std::string& answer_field = "result");

// Runs the batch: reads the files (bad lines reported on `err` as "file:line: reason"),
// solves, writes results and the summary. Returns the exit code: 0, 1 (a wrong answer), 2
// (unreadable file or results file) or 130 (stopped).
int RunBatchJob(const BatchOptions& options, std::ostream& out, std::ostream& err);

}  // namespace tsume

#endif  // TSUME_TOOLS_BATCH_H_
