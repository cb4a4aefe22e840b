#include <algorithm>
#include <atomic>
#include <fstream>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "core/notation.h"
#include "nlohmann/json.hpp"
#include "solver/verify.h"
#include "tools/batch.h"
#include "tools/build_info.h"
#include "tools/cli_args.h"
#include "tools/commands.h"
#include "tools/kif_files.h"
#include "tools/kif_output.h"
#include "tools/problem_input.h"
#include "tools/progress.h"
#include "tools/solve_flags.h"
#include "tools/solve_output.h"

namespace tsume {
namespace {

constexpr char kVerifyHelp[] =
    "usage: tsume verify [--time-ms N] [--total-time-ms N] [--nodes N] [--hash-mb N]\n"
    "                    [--json | --kif] [--kif-dir DIR]\n"
    "                    [--jobs N] [--format F] [--out FILE] [--resume] [--shard K/N]\n"
    "                    (SFEN | FILE...)\n"
    "Checks composed problems under tsume conventions: mate, exact length against the stated\n"
    "one, 余詰 (another mating move before the last), 早詰 (shorter mate), 駒余り (pieces\n"
    "left), and the intended line when the file gives one. Notes, which leave the verdict\n"
    "alone: 手順前後 (another mating move whose line rejoins the main line), 非限定 (the\n"
    "same move with the other promotion choice, or the same lance, rook or bishop dropped\n"
    "elsewhere on its line to the king), 変同 (another defence as long as the main line's),\n"
    "変長, 変化別詰, 作意駒余り and 変化手順不正 (a KIF 変化 the file states that is wrong: a\n"
    "variation not mated as it shows, a 紛れ whose check does not fail as it shows).\n"
    "Limits apply per problem, to the whole check. With more than one problem, ends with a\n"
    "summary: the counts by verdict, the problems not sound with their flaws, and what\n"
    "verified them (on stderr with --json or --kif).\n"
    "A FILE '-' is standard input.\n"
    "  --total-time-ms N  the whole run within N ms: each problem first gets --time-ms\n"
    "              (without it, an equal share of N); those the time left unknown are then\n"
    "              verified again, each with an equal share of the time left, and written\n"
    "              with that result; then, with what is left, those whose notes it cut\n"
    "              (a second try for a verdict spends a quarter of its time first on the\n"
    "              intended line alone, which can show it wrong where the solve cannot)\n"
    "  --jobs N    verify N problems at a time, one thread each; --hash-mb is shared\n"
    "              out among them; results come in the order they are known\n"
    "  --out FILE  also write each result to FILE as a JSON line the moment it is known\n"
    "  --resume    keep FILE's results, verify only the problems not in it, append (a\n"
    "              verification stopped by Ctrl-C is not written, so it is done again)\n"
    "  --kif       a KIF record per problem, in UTF-8 (`tsume verify --kif P > checked.kifu`\n"
    "              opens in a GUI): the main line, the verdict and findings as comments on\n"
    "              the start, and each finding's line as a 変化 branch with its finding as\n"
    "              comment\n"
    "  --kif-dir DIR  also each problem's KIF record as its own file DIR/<id>.kif, in\n"
    "              Shift-JIS as the KIF format has .kif files, written the moment it is known\n"
    "  --format F  auto, sfen, practical, tsv, kif or csa (default auto); a kif file's\n"
    "              moves (the intended line) may be KIF or KI2\n"
    "  --shard K/N only problems K-1, K-1+N, K-1+2N, ... of the inputs, as batch takes\n"
    "              them (bad lines are reported by every shard)\n"
    "Exit status: 0 when no problem is flawed or not a mate (unknown ones, which the\n"
    "summary counts, included), 1 when some is, 2 on bad usage or input (bad lines are\n"
    "reported as FILE:LINE and skipped, the rest verified), 130 after Ctrl-C.\n";

std::vector<std::string> Usi(const std::vector<Move>& moves) {
  std::vector<std::string> out;
  for (Move m : moves) out.push_back(ToUsi(m));
  return out;
}

// Position after the first `ply - 1` moves of `line`.
Position PositionBefore(const Position& start, const std::vector<Move>& line, int ply) {
  Position pos = start;
  for (int i = 0; i + 1 < ply && i < int(line.size()); ++i) pos.DoMove(line[i]);
  return pos;
}

nlohmann::json FlawsToJson(const std::vector<Flaw>& flaws) {
  nlohmann::json out = nlohmann::json::array();
  for (const Flaw& f : flaws) {
    nlohmann::json flaw = {
        {"kind", ToString(f.kind)}, {"ply", f.ply}, {"detail", f.detail}, {"moves", Usi(f.line)}};
    if (!f.others.empty()) flaw["others"] = Usi(f.others);
    out.push_back(std::move(flaw));
  }
  return out;
}

// One finding and its line, which starts from the position before its ply: on the intended
// line for a fault of that line (the main line is the solver's then, and may differ before
// it), on the main line otherwise.
void PrintFlaw(const Position& start, const std::vector<Move>& main_line,
               const std::vector<Move>& intended, const Flaw& f, const char* prefix,
               std::ostream& out) {
  out << "  " << prefix << JapaneseName(f.kind) << " (" << ToString(f.kind) << ")";
  if (f.ply > 0) out << " at ply " << f.ply;
  out << ": " << f.detail << "\n";
  if (f.kind == FlawKind::kBadStatedVariation && f.ply >= 1 && int(f.line.size()) >= f.ply) {
    // The variation's whole line is the flaw's: shown from its first own move.
    std::vector<Move> own(f.line.begin() + (f.ply - 1), f.line.end());
    out << "    " << LineToJapanese(PositionBefore(start, f.line, f.ply), own) << "\n";
  } else if (!f.line.empty()) {
    const std::vector<Move>& along = f.kind == FlawKind::kBadIntendedLine ? intended : main_line;
    out << "    " << LineToJapanese(PositionBefore(start, along, f.ply), f.line) << "\n";
  }
}

// One verification as a JSON line (the --json output and the --out file).
nlohmann::json ReportToJson(const InputProblem& problem, const Position& start,
                            const VerifyReport& report, const std::string& intended_error,
                            absl::Duration time_limit, int tries) {
  const SolveResult& solution = report.solution;
  nlohmann::json j;
  j["id"] = problem.id;
  j["source"] = problem.source;
  j["sfen"] = start.Sfen();
  j["verdict"] = ToString(report.verdict);
  j["length"] = report.length;
  // False when the limits stopped the solve before the mate was proven shortest: the
  // length is then only a bound.
  j["length_exact"] = report.length > 0 && solution.length_exact;
  // A proven lower bound of the length (0: none); with length_exact, length - 2.
  j["no_mate_within"] = solution.no_mate_within;
  j["stated_length"] =
      problem.expected_length ? nlohmann::json(*problem.expected_length) : nlohmann::json(nullptr);
  j["moves"] = Usi(report.main_line);
  j["flaws"] = FlawsToJson(report.flaws);
  j["notes"] = FlawsToJson(report.notes);
  if (!intended_error.empty()) j["input_error"] = intended_error;
  j["alternatives_complete"] = report.alternatives_complete;
  j["variations_complete"] = report.variations_complete;
  j["side_mates_complete"] = report.side_mates_complete;
  j["stated_variations_complete"] = report.stated_variations_complete;
  j["stated_variations_checked"] = report.stated_variations_checked;
  // The whole verification; the solve alone as well.
  j["nodes"] = report.nodes;
  j["time_ms"] = absl::ToDoubleMilliseconds(report.elapsed);
  j["solve_nodes"] = solution.nodes;
  j["solve_time_ms"] = absl::ToDoubleMilliseconds(solution.elapsed);
  AddExactPasses(solution, j);  // where the solve's nodes went
  // The time this verification had (null: no limit), and whether it was the second try of
  // a --total-time-ms run.
  j["time_limit_ms"] = time_limit == absl::InfiniteDuration()
                           ? nlohmann::json(nullptr)
                           : nlohmann::json(absl::ToInt64Milliseconds(time_limit));
  j["tries"] = tries;
  return j;
}

// The moves of a USI line played from `start`, or the first one's error.
absl::StatusOr<std::vector<Move>> MovesOf(Position start, const std::vector<std::string>& usi) {
  std::vector<Move> moves;
  for (const std::string& text : usi) {
    absl::StatusOr<Move> m = start.ParseUsiMove(text);
    if (!m.ok()) return m.status();
    moves.push_back(*m);
    start.DoMove(*m);
  }
  return moves;
}

// "stated variations: 3 checked, 1 wrong" ("2 of 3 checked" when the limits stopped the
// check), for a problem that states `stated` variations.
std::string StatedVariationsSummary(const VerifyReport& report, size_t stated) {
  int wrong = int(std::count_if(report.notes.begin(), report.notes.end(), [](const Flaw& f) {
    return f.kind == FlawKind::kBadStatedVariation;
  }));
  return absl::StrCat(
      "stated variations: ", report.stated_variations_checked,
      report.stated_variations_checked < int(stated) ? absl::StrCat(" of ", stated) : "",
      " checked, ", wrong, " wrong");
}

// One verification as a KIF record: the main line; the verdict and each finding as comments
// on the starting position; each finding whose line branches off the main line as a 変化
// with the finding as comment on its first move; then the problem's own stated variations
// that no finding holds, so that the checked record keeps what the composer wrote.
std::string VerificationKif(const InputProblem& problem, const Position& start,
                            const VerifyReport& report, const std::vector<Move>& intended,
                            const std::vector<StatedVariation>& stated) {
  const std::vector<Move>& main_line = report.main_line;
  std::string heading = absl::StrCat(problem.id, ": ", ToString(report.verdict));
  if (report.length > 0) {
    absl::StrAppend(&heading, ", mate in ", report.solution.length_exact ? "" : "at most ",
                    report.length);
  }
  if (problem.expected_length)
    absl::StrAppend(&heading, " (stated ", *problem.expected_length, ")");
  std::vector<std::string> comments = {heading};
  if (report.main_line_searched && !stated.empty()) {
    comments.push_back(StatedVariationsSummary(report, stated.size()));
  }
  std::vector<KifVariation> variations;
  // Each branch's whole line and its index in `variations` (a few: searched in turn).
  std::vector<std::pair<std::vector<Move>, size_t>> branched;
  // `whole`, a line from the problem, as a branch where it leaves the main line (a KIF 変化
  // replaces one of its moves).
  auto branch = [&](const std::vector<Move>& whole, const std::string& text) {
    size_t off = 0;
    while (off < whole.size() && off < main_line.size() && whole[off] == main_line[off]) ++off;
    if (off >= whole.size() || off >= main_line.size()) return;
    branched.emplace_back(whole, variations.size());
    variations.push_back({int(off) + 1, std::vector<Move>(whole.begin() + off, whole.end()), text});
  };
  auto add = [&](const Flaw& f, bool note) {
    std::string text = absl::StrCat(note ? "note: " : "", JapaneseName(f.kind), " (",
                                    ToString(f.kind), ")", f.ply > 0 ? " at ply " : "",
                                    f.ply > 0 ? absl::StrCat(f.ply) : "", ": ", f.detail);
    comments.push_back(text);
    if (f.line.empty()) return;
    // The finding's line from the problem (a flaw of ply 0, such as 早詰, has its own).
    if (f.kind == FlawKind::kBadStatedVariation || f.ply < 1) return branch(f.line, text);
    const std::vector<Move>& along = f.kind == FlawKind::kBadIntendedLine ? intended : main_line;
    if (int(along.size()) < f.ply - 1) return;
    std::vector<Move> whole(along.begin(), along.begin() + (f.ply - 1));
    whole.insert(whole.end(), f.line.begin(), f.line.end());
    branch(whole, text);
  };
  for (const Flaw& f : report.flaws) add(f, false);
  for (const Flaw& f : report.notes) add(f, true);
  for (size_t i = 0; i < stated.size(); ++i) {
    const StatedVariation& v = stated[i];
    bool checked = report.main_line_searched && int(i) < report.stated_variations_checked;
    bool wrong = std::any_of(report.notes.begin(), report.notes.end(), [&](const Flaw& f) {
      return f.kind == FlawKind::kBadStatedVariation && f.line == v.line;
    });
    if (wrong) continue;  // a branch already, with its note
    std::string text = checked ? "the problem's variation: checked, right"
                               : "the problem's variation: not checked";
    auto it = std::find_if(branched.begin(), branched.end(),
                           [&](const auto& b) { return b.first == v.line; });
    if (it == branched.end()) {
      branch(v.line, text);
    } else {
      // A finding's branch already (a 変同 note, say): its comment says both.
      absl::StrAppend(&variations[it->second].comment, "; ", text);
    }
  }
  bool mate = report.verdict != Verdict::kNotMate && !main_line.empty();
  return SolutionKif(start, main_line, mate, heading, comments, variations);
}

// How many problems of each verdict but sound the summary names.
constexpr int kMaxListed = 50;

// A problem as the summary lists it: its verdict and the kinds of its flaws.
struct SummaryEntry {
  std::string id;
  std::string verdict;
  std::vector<std::string> flaws;  // Japanese names, each once, in the result's order
};

// From a result line, this run's or one kept from the results file.
template <typename Json>
SummaryEntry SummaryEntryOf(const std::string& id, const Json& line) {
  SummaryEntry entry{id, line.value("verdict", ""), {}};
  auto flaws = line.find("flaws");
  if (flaws == line.end() || !flaws->is_array()) return entry;
  for (const auto& flaw : *flaws) {
    std::string kind = flaw.is_object() ? flaw.value("kind", "") : "";
    std::string name = JapaneseNameOf(kind);
    if (!name.empty() &&
        std::find(entry.flaws.begin(), entry.flaws.end(), name) == entry.flaws.end()) {
      entry.flaws.push_back(name);
    }
  }
  return entry;
}

}  // namespace

int RunVerify(const CommandArgs& args, std::ostream& out, std::ostream& err) {
  std::set<std::string> value_flags = kSolveValueFlags;
  value_flags.insert("format");
  value_flags.insert("out");
  value_flags.insert("total-time-ms");
  value_flags.insert("jobs");
  value_flags.insert("shard");
  value_flags.insert("kif-dir");
  absl::StatusOr<CliArgs> parsed = CliArgs::Parse(args, value_flags, {"json", "kif", "resume"});
  if (!parsed.ok()) {
    err << "tsume verify: " << parsed.status().message() << "\n";
    return kExitUsage;
  }
  if (parsed->Has("help")) {
    out << kVerifyHelp;
    return kExitOk;
  }
  absl::StatusOr<SolveOptions> options = SolveOptionsFromArgs(*parsed);
  if (!options.ok()) {
    err << "tsume verify: " << options.status().message() << "\n";
    return kExitUsage;
  }
  if (parsed->Has("json") && parsed->Has("kif")) {
    err << "tsume verify: flags --json and --kif: give one of them\n";
    return kExitUsage;
  }
  options->rules = Rules::kTsume;
  absl::StatusOr<int64_t> total_ms = parsed->GetInt("total-time-ms", 0, 1, int64_t(1) << 40);
  if (!total_ms.ok()) {
    err << "tsume verify: " << total_ms.status().message() << "\n";
    return kExitUsage;
  }
  absl::StatusOr<int64_t> jobs_flag = parsed->GetInt("jobs", 1, 1, 1024);
  if (!jobs_flag.ok()) {
    err << "tsume verify: " << jobs_flag.status().message() << "\n";
    return kExitUsage;
  }
  if (options->hash_mb < *jobs_flag) {
    err << "tsume verify: flag --hash-mb: " << options->hash_mb
        << " MB leaves less than 1 MB for each of the " << *jobs_flag << " jobs\n";
    return kExitUsage;
  }
  int shard_index = 1, shard_count = 1;
  if (parsed->Has("shard")) {
    if (absl::Status s = ParseShard(parsed->Get("shard"), &shard_index, &shard_count); !s.ok()) {
      err << "tsume verify: " << s.message() << "\n";
      return kExitUsage;
    }
  }
  absl::StatusOr<std::vector<InputProblem>> problems =
      ReadProblemsFromArgs(parsed->positional(), parsed->Get("format", "auto"));
  if (!problems.ok()) {
    err << "tsume verify: " << problems.status().message() << "\n";
    return kExitUsage;
  }
  // --kif-dir's file names, given by the whole input (each shard names its files as one run
  // would).
  std::vector<std::string> kif_names;
  if (parsed->Has("kif-dir")) kif_names = KifFileNamesOf(*problems);
  if (shard_count > 1) {
    // The same split as batch's: the problems read, counted without the bad lines.
    std::vector<InputProblem> selected;
    std::vector<std::string> selected_names;
    size_t read = 0;
    for (size_t i = 0; i < problems->size(); ++i) {
      InputProblem& problem = (*problems)[i];
      if (!problem.position.ok() || InShard(read++, shard_index, shard_count)) {
        selected.push_back(std::move(problem));
        if (!kif_names.empty()) selected_names.push_back(std::move(kif_names[i]));
      }
    }
    *problems = std::move(selected);
    kif_names = std::move(selected_names);
  }
  bool json = parsed->Has("json");
  bool kif = parsed->Has("kif");
  absl::StatusOr<std::optional<KifDirectory>> kif_dir = KifDirectoryFromFlag(*parsed);
  if (!kif_dir.ok()) {
    err << "tsume verify: " << kif_dir.status().message() << "\n";
    return kExitUsage;
  }
  bool kif_dir_failed = false;
  // Results kept in a file, as batch does: each written when known, so a long run stopped
  // part way loses nothing and --resume finishes it.
  std::string out_path = parsed->Get("out", "");
  bool resume = parsed->Has("resume");
  if (resume && out_path.empty()) {
    err << "tsume verify: flag --resume needs --out FILE (the results to resume)\n";
    return kExitUsage;
  }
  std::map<std::string, nlohmann::ordered_json> earlier;  // ResumeKey -> its result line
  if (resume) {
    absl::StatusOr<std::vector<nlohmann::ordered_json>> loaded =
        LoadAndRepairResults(out_path, err, "verdict");
    if (!loaded.ok()) {
      err << "tsume verify: " << loaded.status().message() << "\n";
      return kExitUsage;
    }
    // Every line loaded has one of verify's verdicts (LoadAndRepairResults checks).
    for (const nlohmann::ordered_json& line : *loaded) {
      earlier[ResumeKey(line["id"], line["source"])] = line;
    }
  }
  StopOnInterrupt interrupt;
  options->stop = interrupt.flag();
  // A verification can take long (the solve, then the searches along the line): on a
  // terminal, a progress line says which problem and how far.
  ProgressLine progress(err);
  std::string current;     // "[3/100] zukou-003", set before each problem
  const char* stage = "";  // "solve", "余詰", ...: what the verification is doing
  if (progress.enabled()) {
    options->on_progress = [&](const SearchProgress& p) {
      progress.Show(absl::StrCat(current, "  ", stage, "  ", FormatProgress(p)));
    };
  }
  auto on_stage = [&](const char* name) { stage = name; };
  // The problems to verify now, with their intended lines.
  struct Pending {
    const InputProblem* problem;
    size_t input_index;    // in `problems`: the summary lists problems in the input's order
    std::string kif_name;  // with --kif-dir
    std::vector<Move> intended;
    std::string intended_error;
    std::vector<StatedVariation> variations;
  };
  std::vector<Pending> pending;
  std::map<std::string, int> verdicts;
  std::map<size_t, SummaryEntry> listed;  // by input index: problems not sound, kept ones too
  int exit_code = kExitOk;
  int input_errors = 0, kept = 0;
  const absl::Time started = absl::Now();
  for (size_t i = 0; i < problems->size(); ++i) {
    const InputProblem& problem = (*problems)[i];
    if (auto it = earlier.find(ResumeKey(problem.id, problem.source)); it != earlier.end()) {
      // Verified in an earlier run.
      SummaryEntry entry = SummaryEntryOf(problem.id, it->second);
      ++verdicts[entry.verdict];
      ++kept;
      if (entry.verdict != ToString(Verdict::kSound)) listed[i] = std::move(entry);
      continue;
    }
    if (!problem.position.ok()) {
      err << "tsume verify: " << problem.source << ": " << problem.position.status().message()
          << "\n";
      exit_code = kExitUsage;
      ++input_errors;
      continue;
    }
    Pending& p = pending.emplace_back(
        Pending{&problem, i, kif_names.empty() ? "" : kif_names[i], {}, {}, {}});
    if (absl::StatusOr<std::vector<Move>> intended =
            MovesOf(*problem.position, problem.solution_usi);
        intended.ok()) {
      p.intended = *std::move(intended);
    } else {
      p.intended_error = absl::StrCat("intended line: ", intended.status().message());
    }
    // The readers checked the variations' moves.
    for (const Problem::Variation& v : problem.variations) {
      if (absl::StatusOr<std::vector<Move>> line = MovesOf(*problem.position, v.usi); line.ok()) {
        p.variations.push_back({v.ply, *std::move(line)});
      }
    }
  }

  // --total-time-ms: a problem's first try has --time-ms, or an equal share of the budget,
  // and never more than is left.
  std::optional<absl::Time> run_deadline;
  absl::Duration first_try = options->time_limit;
  if (*total_ms > 0) {
    run_deadline = absl::Now() + absl::Milliseconds(*total_ms);
    if (first_try == absl::InfiniteDuration() && !pending.empty()) {
      first_try = absl::Milliseconds(*total_ms) * *jobs_flag / int64_t(pending.size());
    }
  }
  // One solver (and table) per job, the memory shared out among them as batch does.
  int jobs = std::max(1, std::min<int>(int(*jobs_flag), int(pending.size())));
  SolveOptions per_job = *options;
  // With several jobs the progress line is drawn here, from what each job is on.
  if (jobs > 1) per_job.on_progress = nullptr;
  absl::StatusOr<std::vector<std::unique_ptr<Solver>>> made =
      MakeJobSolvers(per_job, *jobs_flag, jobs);
  if (!made.ok()) {
    err << "tsume verify: " << made.status().message() << "\n";
    return kExitUsage;
  }
  std::vector<std::unique_ptr<Solver>>& solvers = *made;
  // Opened only now, so that a --hash-mb the machine cannot give fails before the file is
  // emptied.
  std::ofstream results;
  if (!out_path.empty()) {
    results.open(out_path, resume ? std::ios::app : std::ios::trunc);
    if (!results) {
      err << "tsume verify: cannot write results file " << out_path << "\n";
      return kExitUsage;
    }
  }
  std::mutex mu;  // guards the output, the counts, the queues and the jobs' progress
  std::vector<std::string> job_label(jobs);  // "zukou-003" or "" when idle
  std::vector<const char*> job_stage(jobs, "");
  auto verify = [&](int job, const Pending& p, absl::Duration time_limit, bool line_alone) {
    Solver& solver = *solvers[job];
    SolveOptions limited = solver.options();
    limited.time_limit = time_limit;
    solver.set_options(limited);
    // A second try for a verdict first spends a quarter of its time on the intended line
    // alone: zukou-021's line is shown wrong so in about a minute, where its solve stays
    // unfinished for hours. (Not for information: the verdict is known, and the solve would
    // then get no more time than those searches took.)
    VerifyOptions verify_options;
    if (line_alone) verify_options.refutation_time = time_limit / 4;
    auto on_job_stage = [&](const char* name) {
      if (jobs == 1) return on_stage(name);
      std::lock_guard<std::mutex> lock(mu);
      job_stage[job] = name;
    };
    VerifyReport report = VerifyProblem(solver, *p.problem->position, p.problem->expected_length,
                                        p.intended, on_job_stage, verify_options, p.variations);
    if (jobs == 1) progress.Clear();
    return report;
  };
  // Prints a result, and writes it to the results file (and counts it in the summary) unless
  // `written` is false.
  int verified = 0;
  // Called under `mu` when several jobs run.
  auto emit = [&](const Pending& p, const VerifyReport& report, absl::Duration time_limit,
                  int tries, bool written = true) {
    progress.Clear();
    const InputProblem& problem = *p.problem;
    const Position& start = *problem.position;
    if (written) {
      ++verdicts[ToString(report.verdict)];
      ++verified;
    }
    const SolveResult& solution = report.solution;
    nlohmann::json line = ReportToJson(problem, start, report, p.intended_error, time_limit, tries);
    if (written && report.verdict != Verdict::kSound) {
      listed[p.input_index] = SummaryEntryOf(problem.id, line);
    }
    if (results.is_open() && written) {
      results << JsonLine(line) << "\n";
      results.flush();
    }
    // The record once, for --kif-dir and --kif alike.
    std::string record =
        *kif_dir || kif ? VerificationKif(problem, start, report, p.intended, p.variations) : "";
    if (*kif_dir) {
      absl::StatusOr<std::string> path = (*kif_dir)->Write(p.kif_name, record);
      if (!path.ok()) {
        err << "tsume verify: flag --kif-dir: " << path.status().message() << "\n";
        kif_dir_failed = true;
      }
    }
    if (json) {
      out << JsonLine(line) << "\n";
    } else if (kif) {
      out << record << "\n";
    } else {
      out << problem.id << "  " << ToString(report.verdict);
      if (report.verdict == Verdict::kNotMate) {
        if (std::string why = NothingToMate(start); !why.empty()) out << " (" << why << ")";
      }
      if (report.length > 0) {
        out << "  mate in " << (solution.length_exact ? "" : "at most ") << report.length;
      }
      if (!solution.length_exact && solution.no_mate_within > 0) {
        out << (report.length > 0 ? ", " : "  ") << "no mate within " << solution.no_mate_within;
      }
      if (problem.expected_length) out << " (stated " << *problem.expected_length << ")";
      out << "\n";
      if (solution.limit != LimitReason::kNone) {
        const char* before = solution.status != SolveStatus::kMate ? ""
                             : solution.length_exact               ? " before its line was read out"
                                                     : " before the mate was proven shortest";
        // Stopped before the searches along the line: the line is the proof's.
        const char* proofs_line =
            report.main_line_searched || report.main_line.empty()
                ? ""
                : "; the line is its proof's, whose defences are not proven longest";
        out << "  (the " << ToString(solution.limit) << " limit stopped the solve" << before
            << proofs_line << ")\n";
      }
      if (!report.main_line.empty()) out << "  " << LineToJapanese(start, report.main_line) << "\n";
      if (!p.intended_error.empty()) out << "  " << p.intended_error << "\n";
      for (const Flaw& f : report.flaws) {
        PrintFlaw(start, report.main_line, p.intended, f, "", out);
      }
      for (const Flaw& f : report.notes) {
        PrintFlaw(start, report.main_line, p.intended, f, "note: ", out);
      }
      // Otherwise the searches along the line never ran, as the solve's line above says.
      if (report.main_line_searched && !p.variations.empty()) {
        // Said when all are right too: the composer sees that they were examined.
        out << "  " << StatedVariationsSummary(report, p.variations.size()) << "\n";
      }
      if (report.main_line_searched) {
        if (!report.alternatives_complete) out << "  (limits stopped part of the 余詰 search)\n";
        if (!report.variations_complete) out << "  (limits stopped part of the 変同 search)\n";
        if (!report.side_mates_complete) out << "  (limits stopped part of the 変化別詰 search)\n";
        if (!report.stated_variations_complete) {
          out << "  (limits stopped the check of the stated variations)\n";
        }
      }
      out << absl::StrFormat("  nodes %d  time %.0f ms (solve: nodes %d  time %.0f ms)",
                             report.nodes, absl::ToDoubleMilliseconds(report.elapsed),
                             solution.nodes, absl::ToDoubleMilliseconds(solution.elapsed));
      if (tries > 1) {
        out << absl::StrFormat("  second try, with %.0f s of the time left",
                               absl::ToDoubleSeconds(time_limit));
      }
      out << "\n";
    }
    out.flush();
  };

  // Runs `work(job)` on each job's thread (the caller's when there is one job) and, meanwhile,
  // keeps the progress line showing what each job is on.
  auto run_jobs = [&](const std::function<void(int job)>& work) {
    if (jobs == 1) return work(0);
    std::vector<std::thread> threads;
    std::atomic<int> running = jobs;
    for (int k = 0; k < jobs; ++k) {
      threads.emplace_back([&, k] {
        work(k);
        --running;
      });
    }
    while (running > 0) {
      absl::SleepFor(absl::Milliseconds(250));
      if (!progress.enabled()) continue;
      std::lock_guard<std::mutex> lock(mu);
      std::string text = absl::StrCat(verified, "/", pending.size(), " verified");
      for (int k = 0; k < jobs; ++k) {
        if (!job_label[k].empty()) absl::StrAppend(&text, "  ", job_label[k], " ", job_stage[k]);
      }
      progress.Show(text);
    }
    for (std::thread& t : threads) t.join();
    std::lock_guard<std::mutex> lock(mu);
    progress.Clear();
  };
  auto set_label = [&](int job, std::string label) {
    std::lock_guard<std::mutex> lock(mu);
    if (jobs == 1) current = label;
    job_label[job] = std::move(label);
    job_stage[job] = "";
  };

  // Each problem in turn (with several jobs, the next free job takes the next problem). Under
  // a budget, one the time cut short waits, unwritten, for a second try: the time the others
  // leave then goes to the problems that need it (Zuko in 30 minutes: zukou-037 and -053 need
  // a little over 30 s each, most problems a few). Problems whose verdict the time left
  // unknown come first; those that only lost information (notes, completeness) get what the
  // first leave.
  struct Waiting {
    size_t index;  // in `pending`
    VerifyReport first;
    absl::Duration first_limit;
  };
  std::vector<Waiting> waiting_verdict, waiting_information;
  std::atomic<size_t> next_first = 0;
  run_jobs([&](int job) {
    while (!interrupt.interrupted()) {
      size_t i = next_first++;
      if (i >= pending.size()) break;
      const Pending& p = pending[i];
      set_label(job, absl::StrCat("[", i + 1, "/", pending.size(), "] ", p.problem->id));
      absl::Duration limit = first_try;
      if (run_deadline) {
        limit = std::min(limit, std::max(*run_deadline - absl::Now(), absl::ZeroDuration()));
      }
      VerifyReport report = verify(job, p, limit, false);
      std::lock_guard<std::mutex> lock(mu);
      if (interrupt.interrupted()) {
        // What is known is shown, but a verification stopped by Ctrl-C is no result: --resume
        // does it again.
        emit(p, report, limit, 1, /*written=*/false);
        break;
      }
      TimeCut cut = run_deadline ? WhatTheTimeCut(report) : TimeCut::kNone;
      if (cut == TimeCut::kNone) {
        emit(p, report, limit, 1);
      } else {
        (cut == TimeCut::kVerdict ? waiting_verdict : waiting_information)
            .push_back({i, std::move(report), limit});
      }
    }
    set_label(job, "");
  });
  // Second tries in the order of the problems, except that those whose first try found no mate
  // at all go last: the others are nearer a verdict, and the last of a group gets all the time
  // then left (zukou-008, whose first mate alone takes some 130 s, then has the time the
  // others leave).
  auto by_order = [](const Waiting& a, const Waiting& b) { return a.index < b.index; };
  std::sort(waiting_verdict.begin(), waiting_verdict.end(), by_order);
  std::sort(waiting_information.begin(), waiting_information.end(), by_order);
  std::stable_partition(waiting_verdict.begin(), waiting_verdict.end(), [](const Waiting& w) {
    return w.first.solution.status == SolveStatus::kMate;
  });
  // Each second try gets an equal share of the time left to its group, counting the jobs (more
  // if the ones before it finish early), when that is more than its first try had; otherwise,
  // or when Ctrl-C stops it, the first try's result, a whole one, stands.
  auto second_tries = [&](const std::vector<Waiting>& group, const char* what, bool for_verdict) {
    std::atomic<size_t> next = 0;
    run_jobs([&](int job) {
      for (size_t k; (k = next++) < group.size();) {
        const Waiting& w = group[k];
        const Pending& p = pending[w.index];
        absl::Duration left = *run_deadline - absl::Now();
        absl::Duration share = std::min(left, left * jobs / int64_t(group.size() - k));
        if (!interrupt.interrupted() && share > w.first_limit) {
          set_label(job, absl::StrCat("[again, ", what, " ", k + 1, "/", group.size(), "] ",
                                      p.problem->id));
          VerifyReport again = verify(job, p, share, for_verdict);
          std::lock_guard<std::mutex> lock(mu);
          if (!interrupt.interrupted()) {
            emit(p, again, share, 2);
            continue;
          }
        }
        std::lock_guard<std::mutex> lock(mu);
        emit(p, w.first, w.first_limit, 1);
      }
      set_label(job, "");
    });
  };
  second_tries(waiting_verdict, "verdict", true);
  second_tries(waiting_information, "information", false);
  if (problems->size() > 1) {
    std::ostream& to = json || kif ? err : out;  // JSON lines or KIF records alone on stdout
    to << "summary:";
    for (const auto& [verdict, count] : verdicts) to << "  " << verdict << " " << count;
    to << "\n";
    // The problems that are not sound, in the input's order: one line each with its flaws,
    // the unknown ones on one line.
    for (Verdict verdict : {Verdict::kFlawed, Verdict::kNotMate, Verdict::kUnknown}) {
      std::vector<std::string> named;
      int count = 0;
      for (const auto& [index, entry] : listed) {
        if (entry.verdict != ToString(verdict) || ++count > kMaxListed) continue;
        named.push_back(entry.flaws.empty()
                            ? entry.id
                            : absl::StrCat(entry.id, " (", absl::StrJoin(entry.flaws, ", "), ")"));
      }
      if (named.empty()) continue;
      if (count > kMaxListed) named.push_back(absl::StrCat("and ", count - kMaxListed, " more"));
      if (verdict == Verdict::kUnknown) {
        to << ToString(verdict) << ": " << absl::StrJoin(named, ", ") << "\n";
      } else {
        for (const std::string& line : named) to << ToString(verdict) << ": " << line << "\n";
      }
    }
    to << absl::StrFormat(
        "problems %d (%d verified now, %d kept from the results file)  input errors %d  "
        "wall %.1f s\n",
        int(problems->size()) - input_errors, verified, kept, input_errors,
        absl::ToDoubleSeconds(absl::Now() - started));
    to << RunContextText() << "\n";
  }
  if (interrupt.interrupted()) {
    // Ctrl-C: how many problems were left unverified (the one it stopped included), or that
    // second tries were cut short; the status says the run did not finish. JSON keeps stdout
    // to result lines.
    int left = int(pending.size()) - verified;
    std::ostream& to = json || kif ? err : out;
    to << (json || kif ? "tsume verify: " : "") << "interrupted: ";
    if (left > 0) {
      to << left << (left == 1 ? " problem" : " problems") << " not verified\n";
    } else {
      to << "second tries stopped; their first tries' results stand\n";
    }
    return kExitInterrupted;
  }
  // A problem shown unsound (kept results included) is a result contradicting what a composed
  // problem claims, as a wrong answer is for batch: scripts can test the status.
  if (exit_code == kExitOk &&
      (verdicts[ToString(Verdict::kFlawed)] > 0 || verdicts[ToString(Verdict::kNotMate)] > 0)) {
    exit_code = kExitMismatch;
  }
  return kif_dir_failed ? kExitUsage : exit_code;
}

}  // namespace tsume
