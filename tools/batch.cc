#include "tools/batch.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <set>
#include <sstream>
#include <thread>

#include "absl/algorithm/container.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_replace.h"
#include "absl/strings/str_split.h"
#include "solver/verify.h"
#include "tools/build_info.h"
#include "tools/progress.h"
#include "tools/report.h"
#include "tools/solve_flags.h"
#include "tools/solve_output.h"

namespace tsume {
namespace {

using nlohmann::ordered_json;

// Wrong answers listed by name under the summary; the rest are only counted.
constexpr int kMaxWrongListed = 20;

std::string FormatDuration(double seconds) {
  if (!std::isfinite(seconds) || seconds < 0) return "?";
  int64_t s = int64_t(seconds + 0.5);
  if (s >= 3600) return absl::StrFormat("%dh%02dm", s / 3600, s / 60 % 60);
  if (s >= 60) return absl::StrFormat("%dm%02ds", s / 60, s % 60);
  return absl::StrFormat("%ds", s);
}

std::optional<int64_t> IntField(const ordered_json& j, const char* name) {
  auto it = j.find(name);
  if (it == j.end() || !it->is_number_integer()) return std::nullopt;
  return it->get<int64_t>();
}

std::string StringField(const ordered_json& j, const char* name) {
  auto it = j.find(name);
  return it != j.end() && it->is_string() ? it->get<std::string>() : std::string();
}

// Counters shown by the progress line and the closing summary.
struct Tally {
  int done = 0;  // including results kept from an earlier run
  int solved = 0;
  int wrong = 0;
  int unknown = 0;
  int errors = 0;

  void Add(const ordered_json& line) {
    ++done;
    std::string result = StringField(line, "result");
    if (result == "mate") ++solved;
    if (result == "unknown") ++unknown;
    if (result == "error") ++errors;
    if (JudgeResult(line).wrong) ++wrong;
  }
};

// What a wrong answer looked like, for the list under the summary.
std::string DescribeWrong(const ordered_json& line) {
  std::string stated;
  if (auto n = IntField(line, "expected_length")) {
    stated = absl::StrCat("mate in ", *n);
  } else if (StringField(line, "expected") == "nomate") {
    stated = "no mate";
  } else if (StringField(line, "expected") == "mate") {
    stated = "mate";
  } else if (auto n = IntField(line, "nomate_within")) {
    stated = absl::StrCat("no mate within ", *n);
  }
  std::string result = StringField(line, "result");
  auto exact_it = line.find("length_exact");
  bool not_exact = exact_it != line.end() && exact_it->is_boolean() && !exact_it->get<bool>();
  std::string found = result;
  if (result == "mate") {
    found = absl::StrCat("mate in ", IntField(line, "length").value_or(0));
    if (not_exact) found += " (not proven shortest)";
  } else if (result == "nomate") {
    found = "no mate";
  }
  // The lower bound a stopped search proved, when it says more than the answer itself.
  int64_t bound = IntField(line, "no_mate_within").value_or(0);
  if (bound > 0 && result == "unknown") {
    absl::StrAppend(&found, " (no mate within ", bound, ")");
  } else if (bound > 0 && result == "mate" && not_exact) {
    absl::StrAppend(&found, " and no mate within ", bound);
  }
  return absl::StrCat(StringField(line, "id"), " (", StringField(line, "source"), "): stated ",
                      stated, ", found ", found);
}

// The shared state of one run: the work queue, the output and the counters. Workers take the
// next problem, solve it, and hand the line back here under the lock.
class BatchRun {
 public:
  // `kif_names`: with --kif-dir, each pending problem's file name.
  BatchRun(const BatchOptions& options, std::vector<const Problem*> pending,
           std::vector<std::string> kif_names, int total, std::ostream* results, std::ostream& err)
      : options_(options),
        pending_(std::move(pending)),
        kif_names_(std::move(kif_names)),
        total_(total),
        results_(results),
        err_(err),
        bar_(err),
        start_(absl::Now()),
        next_plain_(start_ + options.plain_progress_interval) {}

  void AddEarlierResult(const ordered_json& line) {
    tally_.Add(line);
    lines_.push_back(line);
  }

  // Solves every pending problem on a thread per solver (one a job, made by MakeJobSolvers);
  // returns when all are done or stopped.
  void Run(const std::vector<std::unique_ptr<Solver>>& solvers) {
    running_ = int(solvers.size());
    std::vector<std::thread> workers;
    for (const std::unique_ptr<Solver>& solver : solvers) {
      workers.emplace_back([this, &solver] { Work(*solver); });
    }
    {
      std::unique_lock<std::mutex> lock(mu_);
      while (running_ > 0) {
        // Wake regularly so the bar's rate, ETA and elapsed time move during long searches.
        cv_.wait_for(lock, std::chrono::milliseconds(250));
        if (running_ == 0) break;
        absl::Time now = absl::Now();
        if (bar_.enabled()) {
          bar_.Show(ProgressText(true));
        } else if (now >= next_plain_) {
          PlainProgress();
        }
      }
      bar_.Clear();
    }
    for (std::thread& t : workers) t.join();
  }

  bool Stopped() const { return options_.stop != nullptr && options_.stop->load(); }
  int new_results() const { return new_results_; }
  int not_run() const { return total_ - tally_.done; }
  bool kif_failed() const { return kif_failed_; }
  const Tally& tally() const { return tally_; }
  const std::vector<ordered_json>& lines() const { return lines_; }

 private:
  void Work(Solver& solver) {
    while (!Stopped()) {
      size_t index = next_.fetch_add(1);
      if (index >= pending_.size()) break;
      const Problem& problem = *pending_[index];
      absl::StatusOr<Position> position = Position::FromSfen(problem.sfen);
      SolveResult result;
      if (position.ok()) result = solver.Solve(*position);
      // A search cut short by Ctrl-C is not an answer: leave the problem for --resume.
      if (result.limit == LimitReason::kStopped) break;
      Publish(MakeResultLine(problem, position, result));
      if (options_.kif_dir && position.ok()) WriteKif(index, *position, result);
    }
    std::lock_guard<std::mutex> lock(mu_);
    --running_;
    cv_.notify_all();
  }

  void Publish(ordered_json line) {
    std::string text = JsonLine(line) + "\n";
    std::lock_guard<std::mutex> lock(mu_);
    if (results_ != nullptr) {
      // One write and a flush per line: a crash can at worst cut the last line short.
      results_->write(text.data(), std::streamsize(text.size()));
      results_->flush();
    }
    tally_.Add(line);
    ++new_results_;
    if (options_.on_result) options_.on_result(line);
    lines_.push_back(std::move(line));
    if (bar_.enabled()) {
      bar_.Show(ProgressText(true));
    } else if (options_.plain_progress_every > 0 &&
               new_results_ % options_.plain_progress_every == 0) {
      PlainProgress();
    }
  }

  // Each problem has a file of its own: the writes need no lock, a failure does.
  void WriteKif(size_t index, const Position& position, const SolveResult& result) {
    InputProblem problem;
    problem.id = pending_[index]->id;
    problem.source = pending_[index]->source;
    absl::StatusOr<std::string> path =
        options_.kif_dir->Write(kif_names_[index], SolveResultToKif(problem, position, result));
    if (path.ok()) return;
    std::lock_guard<std::mutex> lock(mu_);
    bar_.Clear();
    err_ << "tsume batch: flag --kif-dir: " << path.status().message() << "\n";
    kif_failed_ = true;
  }

  void PlainProgress() {
    err_ << "batch: " << ProgressText(false) << "\n" << std::flush;
    next_plain_ = absl::Now() + options_.plain_progress_interval;
  }

  std::string ProgressText(bool with_bar) const {
    double seconds = absl::ToDoubleSeconds(absl::Now() - start_);
    double rate = seconds > 0 ? new_results_ / seconds : 0;
    int remaining = total_ - tally_.done;
    std::string eta = rate > 0 ? FormatDuration(remaining / rate) : "?";
    std::string text;
    if (with_bar) {
      constexpr int kWidth = 20;
      int filled = total_ > 0 ? int(int64_t(kWidth) * tally_.done / total_) : kWidth;
      text = absl::StrCat("[", std::string(filled, '#'), std::string(kWidth - filled, '.'), "] ");
    }
    absl::StrAppendFormat(&text, "%d/%d  solved %d  wrong %d  unknown %d", tally_.done, total_,
                          tally_.solved, tally_.wrong, tally_.unknown);
    if (tally_.errors > 0) absl::StrAppend(&text, "  errors ", tally_.errors);
    absl::StrAppendFormat(&text, "  %.1f/s  elapsed %s  ETA %s", rate, FormatDuration(seconds),
                          eta);
    return text;
  }

  const BatchOptions& options_;
  const std::vector<const Problem*> pending_;
  const std::vector<std::string> kif_names_;
  const int total_;
  std::ostream* const results_;
  std::ostream& err_;
  ProgressLine bar_;
  const absl::Time start_;
  std::atomic<size_t> next_{0};

  std::mutex mu_;  // guards everything below, the output streams and the progress line
  std::condition_variable cv_;
  int running_ = 0;
  bool kif_failed_ = false;
  int new_results_ = 0;
  absl::Time next_plain_;
  Tally tally_;
  std::vector<ordered_json> lines_;
};

}  // namespace

absl::Status ParseShard(const std::string& text, int* index, int* count) {
  std::vector<std::string> parts = absl::StrSplit(text, '/');
  int k = 0, n = 0;
  if (parts.size() != 2 || !absl::SimpleAtoi(parts[0], &k) || !absl::SimpleAtoi(parts[1], &n) ||
      n < 1 || k < 1 || k > n) {
    return absl::InvalidArgumentError(
        absl::StrCat("flag --shard: expected K/N with 1 <= K <= N, got '", text, "'"));
  }
  *index = k;
  *count = n;
  return absl::OkStatus();
}

absl::StatusOr<BatchOptions> BatchOptionsFromArgs(const CliArgs& args) {
  BatchOptions options;
  absl::StatusOr<SolveOptions> solve = SolveOptionsFromArgs(args);
  if (!solve.ok()) return solve.status();
  options.solve = *solve;
  absl::StatusOr<int64_t> jobs = args.GetInt("jobs", 1, 1, 1024);
  if (!jobs.ok()) return jobs.status();
  options.jobs = int(*jobs);
  if (options.solve.hash_mb < options.jobs) {
    return absl::InvalidArgumentError(absl::StrCat("flag --hash-mb: ", options.solve.hash_mb,
                                                   " MB leaves less than 1 MB for each of the ",
                                                   options.jobs, " jobs"));
  }
  absl::StatusOr<CollectionFormat> format = ParseCollectionFormat(args.Get("format", "auto"));
  if (!format.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("flag --format: ", format.status().message()));
  }
  options.format = *format;
  if (args.Has("shard")) {
    if (absl::Status s = ParseShard(args.Get("shard"), &options.shard_index, &options.shard_count);
        !s.ok()) {
      return s;
    }
  }
  options.out_path = args.Get("out");
  if (args.Has("out") && options.out_path.empty()) {
    return absl::InvalidArgumentError("flag --out: empty file name");
  }
  options.resume = args.Has("resume");
  if (options.resume && options.out_path.empty()) {
    return absl::InvalidArgumentError("flag --resume needs --out FILE (the results to resume)");
  }
  bool json = args.Has("json");
  options.results_to_out = json && options.out_path.empty();
  options.summary_json = json && !options.out_path.empty();
  options.files = args.positional();
  if (options.files.empty()) return absl::InvalidArgumentError("no problem files given");
  absl::StatusOr<std::optional<KifDirectory>> kif_dir = KifDirectoryFromFlag(args);
  if (!kif_dir.ok()) return kif_dir.status();
  options.kif_dir = *std::move(kif_dir);
  return options;
}

StatementCheck JudgeResult(const ordered_json& line) {
  std::string result = StringField(line, "result");
  std::string expected = StringField(line, "expected");
  Statement stated{expected == "nomate", IntField(line, "expected_length"), expected == "mate",
                   IntField(line, "nomate_within")};
  auto exact_it = line.find("length_exact");
  bool exact = exact_it != line.end() && exact_it->is_boolean() && exact_it->get<bool>();
  Outcome outcome = result == "mate"     ? Outcome::kMate
                    : result == "nomate" ? Outcome::kNoMate
                                         : Outcome::kUnknown;
  // Proven: no mate within this many plies (results written before the field existed: 0).
  return Judge(stated, outcome, IntField(line, "length").value_or(0), exact,
               IntField(line, "no_mate_within").value_or(0));
}

ordered_json MakeResultLine(const Problem& problem, const absl::StatusOr<Position>& position,
                            const SolveResult& result) {
  ordered_json j;
  j["id"] = problem.id;
  j["source"] = problem.source;
  j["sfen"] = problem.sfen;
  j["expected_length"] =
      problem.expected_length ? ordered_json(*problem.expected_length) : ordered_json(nullptr);
  if (problem.expected_nomate) {
    j["expected"] = "nomate";
  } else if (problem.expected_mate || problem.expected_length) {
    j["expected"] = "mate";
  } else {
    j["expected"] = nullptr;
  }
  if (problem.nomate_within) j["nomate_within"] = *problem.nomate_within;
  bool ok = position.ok();
  bool mate = ok && result.status == SolveStatus::kMate;
  j["result"] = ok ? ToString(result.status) : "error";
  j["length"] = mate ? result.length : 0;
  j["length_exact"] = mate && result.length_exact;
  // A proven lower bound (0: none, as for "no mate" and bad input), telling how far a search
  // that the limits stopped got.
  j["no_mate_within"] = result.no_mate_within;
  j["match"] = nullptr;  // placed here for readability, filled in below
  int64_t nodes = ok ? result.nodes : 0;
  double ms = ok ? absl::ToDoubleMilliseconds(result.elapsed) : 0;
  j["nodes"] = nodes;
  j["time_ms"] = std::round(ms * 1000) / 1000;
  j["nps"] = ms > 0 ? int64_t(double(nodes) * 1000 / ms) : 0;
  ordered_json moves = ordered_json::array();
  if (mate) {
    for (Move m : result.moves) moves.push_back(ToUsi(m));
  }
  j["moves"] = std::move(moves);
  if (ok && result.limit != LimitReason::kNone) j["limit"] = ToString(result.limit);
  if (ok && result.ties_cut) j["ties_cut"] = true;
  if (!ok) j["error"] = std::string(position.status().message());
  if (ok) AddExactPasses(result, j);
  StatementCheck v = JudgeResult(j);
  if (v.match) j["match"] = *v.match;
  return j;
}

// As written to the results file: input that is not UTF-8 comes back from it with U+FFFD.
std::string ResumeKey(const std::string& id, const std::string& source) {
  return absl::StrCat(JsonLine(nlohmann::json(id)), "\t",
                      JsonLine(nlohmann::json(NormalSource(source))));
}

absl::StatusOr<std::vector<ordered_json>> LoadAndRepairResults(const std::string& path,
                                                               std::ostream& err,
                                                               const std::string& answer_field) {
  std::vector<ordered_json> lines;
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) return lines;
  std::ifstream in(path, std::ios::binary);
  if (!in) return absl::NotFoundError(absl::StrCat("cannot read results file ", path));
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string text = buffer.str();
  in.close();
  // A line this run can keep: a JSON object with the id and source of a problem and a string
  // answer; for batch, one the summary can read too (else it would count fewer problems than
  // were kept). Empty when it is one, else why not.
  auto why_not_kept = [&](absl::string_view row, ordered_json& j) -> std::string {
    j = ordered_json::parse(row.begin(), row.end(), nullptr, false);
    if (j.is_discarded() || !j.is_object() || !j.contains("id") || !j["id"].is_string() ||
        !j.contains("source") || !j["source"].is_string() || !j.contains(answer_field) ||
        !j[answer_field].is_string()) {
      return "not a result line";
    }
    if (answer_field == "result") {
      absl::StatusOr<ProblemResult> parsed = ParseResultLine(std::string(row));
      if (!parsed.ok()) return absl::StrCat("not a result line (", parsed.status().message(), ")");
    }
    if (answer_field == "verdict") {
      const std::string& verdict = j["verdict"].get_ref<const std::string&>();
      bool known = false;
      for (Verdict v : {Verdict::kSound, Verdict::kFlawed, Verdict::kNotMate, Verdict::kUnknown}) {
        known |= verdict == ToString(v);
      }
      if (!known) return "not a result line (no verdict of verify's)";
    }
    return "";
  };
  // Lines end with \n, \r\n or a lone \r (a file saved with old Mac line ends would otherwise
  // be one unfinished line, and truncated to nothing).
  size_t last_newline = text.find_last_of("\r\n");
  size_t complete = last_newline == std::string::npos ? 0 : last_newline + 1;
  if (complete < text.size()) {
    // A whole result that only lacks its newline (an edited file) is kept; anything else
    // there is a write cut short.
    absl::string_view last = absl::string_view(text).substr(complete);
    ordered_json j;
    if (last.find_first_not_of(" \t\r") != absl::string_view::npos &&
        why_not_kept(last, j).empty()) {
      std::ofstream append(path, std::ios::binary | std::ios::app);
      append << "\n";
      if (!append) return absl::InternalError(absl::StrCat("cannot write results file ", path));
      text += "\n";
      complete = text.size();
    } else {
      err << path << ": dropping an unfinished last line (" << text.size() - complete
          << " bytes, an interrupted write)\n";
      std::filesystem::resize_file(path, complete, ec);
      if (ec) {
        return absl::InternalError(
            absl::StrCat("cannot truncate results file ", path, ": ", ec.message()));
      }
    }
  }
  std::string whole = absl::StrReplaceAll(text.substr(0, complete), {{"\r\n", "\n"}});
  absl::c_replace(whole, '\r', '\n');
  int line_number = 0;
  for (absl::string_view row : absl::StrSplit(whole, '\n')) {
    ++line_number;
    if (row.find_first_not_of(" \t") == absl::string_view::npos) continue;
    ordered_json j;
    if (std::string why = why_not_kept(row, j); !why.empty()) {
      err << path << ":" << line_number << ": " << EscapeControlCharacters(why) << ", ignored\n";
      continue;
    }
    lines.push_back(std::move(j));
  }
  return lines;
}

int RunBatchJob(const BatchOptions& options, std::ostream& out, std::ostream& err) {
  // Read everything first: an unreadable file stops the run before any time is spent.
  std::vector<Problem> problems;
  int input_errors = 0;
  for (const std::string& path : options.files) {
    absl::StatusOr<Collection> collection = ReadCollection(path, options.format);
    if (!collection.ok()) {
      err << "tsume batch: " << collection.status().message() << "\n";
      return kExitUsage;
    }
    for (const InputError& error : collection->errors) err << FormatInputError(error) << "\n";
    input_errors += int(collection->errors.size());
    for (Problem& p : collection->problems) problems.push_back(std::move(p));
  }
  // --kif-dir's file names, given by the whole input (each shard names its files as one run
  // would).
  std::vector<std::string> kif_names;
  if (options.kif_dir) {
    kif_names = SelectShard(KifFileNamesOf(problems), options.shard_index, options.shard_count);
  }
  problems = SelectShard(std::move(problems), options.shard_index, options.shard_count);

  std::vector<ordered_json> earlier;
  if (options.resume) {
    absl::StatusOr<std::vector<ordered_json>> loaded = LoadAndRepairResults(options.out_path, err);
    if (!loaded.ok()) {
      err << "tsume batch: " << loaded.status().message() << "\n";
      return kExitUsage;
    }
    earlier = std::move(*loaded);
  }
  // Earlier results count toward the summary when they belong to the problems selected now.
  std::map<std::string, const ordered_json*> earlier_by_key;
  for (const ordered_json& line : earlier) {
    earlier_by_key.emplace(ResumeKey(line["id"], line["source"]), &line);
  }
  std::vector<const Problem*> pending;
  std::vector<std::string> pending_kif_names;
  std::vector<const ordered_json*> kept;
  for (size_t i = 0; i < problems.size(); ++i) {
    const Problem& p = problems[i];
    auto it = earlier_by_key.find(ResumeKey(p.id, p.source));
    if (it == earlier_by_key.end()) {
      pending.push_back(&p);
      if (options.kif_dir) pending_kif_names.push_back(kif_names[i]);
    } else {
      kept.push_back(it->second);
    }
  }
  // The tables next, so that a --hash-mb the machine cannot give fails before the results
  // file is opened (and, without --resume, emptied).
  SolveOptions per_job = options.solve;
  per_job.stop = options.stop;
  per_job.on_progress = nullptr;
  absl::StatusOr<std::vector<std::unique_ptr<Solver>>> solvers = MakeJobSolvers(
      per_job, options.jobs, std::max(1, std::min<int>(options.jobs, int(pending.size()))));
  if (!solvers.ok()) {
    err << "tsume batch: " << solvers.status().message() << "\n";
    return kExitUsage;
  }
  std::ofstream file;
  std::ostream* results = nullptr;
  if (!options.out_path.empty()) {
    file.open(options.out_path, options.resume ? std::ios::app : std::ios::trunc);
    if (!file) {
      err << "tsume batch: cannot write results file " << options.out_path << "\n";
      return kExitUsage;
    }
    results = &file;
  } else if (options.results_to_out) {
    results = &out;
  }

  BatchRun run(options, std::move(pending), std::move(pending_kif_names), int(problems.size()),
               results, err);
  for (const ordered_json* line : kept) run.AddEarlierResult(*line);
  run.Run(*solvers);
  if (file.is_open()) {
    file.close();
    if (!file) err << "tsume batch: error writing " << options.out_path << "\n";
  }

  // The summary goes wherever the results do not.
  std::ostream& summary_out = options.results_to_out ? err : out;
  RunResults summary_input;
  summary_input.path = options.out_path.empty() ? "batch" : options.out_path;
  std::vector<std::string> wrong;
  int unproven_longer = 0;  // mates longer than stated, not proven shortest: not wrong
  for (const ordered_json& line : run.lines()) {
    absl::StatusOr<ProblemResult> parsed = ParseResultLine(JsonLine(line));
    bool judged_wrong = JudgeResult(line).wrong;
    if (judged_wrong) wrong.push_back(DescribeWrong(line));
    if (parsed.ok()) {
      if (parsed->result == Outcome::kMate && !parsed->length_exact && parsed->expected_length &&
          parsed->length > *parsed->expected_length) {
        ++unproven_longer;
      }
      summary_input.problems.push_back(*std::move(parsed));
    }
  }
  Summary summary = Summarize(summary_input);
  const Tally& tally = run.tally();
  bool interrupted = run.Stopped() && run.not_run() > 0;
  if (options.summary_json) {
    ordered_json j;
    j["summary"] = SummaryToJson(summary);
    j["problems"] = int(problems.size());
    j["new_results"] = run.new_results();
    j["earlier_results"] = int(kept.size());
    j["not_run"] = run.not_run();
    j["input_errors"] = input_errors;
    j["wrong"] = wrong;
    j["unproven_longer"] = unproven_longer;
    j["interrupted"] = interrupted;
    j["tsume"] = RunContextJson();
    summary_out << JsonLine(j) << "\n";
  } else {
    summary_out << FormatSummaryText(summary);
    summary_out << absl::StrFormat(
        "problems %d (%d run now, %d kept from the results file)  input errors %d  wrong %d  "
        "unknown %d\n",
        int(problems.size()), run.new_results(), int(kept.size()), input_errors, tally.wrong,
        tally.unknown);
    summary_out << RunContextText() << "\n";
    if (unproven_longer > 0) {
      summary_out << "note: " << unproven_longer
                  << " mate(s) longer than stated were not proven shortest (a limit was "
                     "reached): neither matches nor wrong\n";
    }
    for (size_t i = 0; i < wrong.size() && i < size_t(kMaxWrongListed); ++i) {
      summary_out << "wrong: " << wrong[i] << "\n";
    }
    if (wrong.size() > size_t(kMaxWrongListed)) {
      summary_out << "... and " << wrong.size() - kMaxWrongListed << " more wrong answers\n";
    }
    if (interrupted) {
      summary_out << "interrupted: " << run.not_run() << " problems not run"
                  << (options.out_path.empty() ? "" : " (run again with --resume to finish)")
                  << "\n";
    }
  }
  summary_out.flush();
  if (interrupted) return kExitInterrupted;
  // Bad input lines were reported and skipped, the rest run; the status still says so. So was
  // a record --kif-dir could not write.
  if (input_errors > 0 || run.kif_failed()) return kExitUsage;
  return tally.wrong > 0 ? kExitMismatch : kExitOk;
}

}  // namespace tsume
