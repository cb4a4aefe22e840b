#include <fstream>
#include <iostream>
#include <map>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "core/notation.h"
#include "nlohmann/json.hpp"
#include "solver/verify.h"
#include "tools/batch.h"
#include "tools/cli_args.h"
#include "tools/commands.h"
#include "tools/problem_input.h"
#include "tools/progress.h"
#include "tools/solve_flags.h"
#include "tools/solve_output.h"

namespace tsume {
namespace {

constexpr char kVerifyHelp[] =
    "usage: tsume verify [--time-ms N] [--nodes N] [--hash-mb N] [--json] [--format F]\n"
    "                    [--out FILE] [--resume] (SFEN | FILE...)\n"
    "Checks composed problems under tsume conventions: mate, exact length against the stated\n"
    "one, 余詰 (another mating move before the last), 早詰 (shorter mate), 駒余り (pieces\n"
    "left), and the intended line when the file gives one. Notes, which leave the verdict\n"
    "alone: 手順前後 (another mating move whose line rejoins the main line) and 変同 (another\n"
    "defence as long as the main line's). Limits apply per problem, to the whole check.\n"
    "  --out FILE  also write each result to FILE as a JSON line the moment it is known\n"
    "  --resume    keep FILE's results, verify only the problems not in it, append (a\n"
    "              verification stopped by Ctrl-C is not written, so it is done again)\n";

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
    out.push_back(
        {{"kind", ToString(f.kind)}, {"ply", f.ply}, {"detail", f.detail}, {"moves", Usi(f.line)}});
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
  if (!f.line.empty()) {
    const std::vector<Move>& along = f.kind == FlawKind::kBadIntendedLine ? intended : main_line;
    out << "    " << LineToJapanese(PositionBefore(start, along, f.ply), f.line) << "\n";
  }
}

// One verification as a JSON line (the --json output and the --out file).
nlohmann::json ReportToJson(const InputProblem& problem, const Position& start,
                            const VerifyReport& report, const std::string& intended_error) {
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
  // The whole verification; the solve alone as well.
  j["nodes"] = report.nodes;
  j["time_ms"] = absl::ToDoubleMilliseconds(report.elapsed);
  j["solve_nodes"] = solution.nodes;
  j["solve_time_ms"] = absl::ToDoubleMilliseconds(solution.elapsed);
  AddExactPasses(solution, j);  // where the solve's nodes went
  return j;
}

}  // namespace

int RunVerify(const CommandArgs& args, std::ostream& out, std::ostream& err) {
  std::set<std::string> value_flags = kSolveValueFlags;
  value_flags.insert("format");
  value_flags.insert("out");
  absl::StatusOr<CliArgs> parsed = CliArgs::Parse(args, value_flags, {"json", "resume"});
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
  options->rules = Rules::kTsume;
  absl::StatusOr<std::vector<InputProblem>> problems =
      ReadProblemsFromArgs(parsed->positional(), parsed->Get("format", "auto"));
  if (!problems.ok()) {
    err << "tsume verify: " << problems.status().message() << "\n";
    return kExitUsage;
  }
  bool json = parsed->Has("json");
  // Results kept in a file, as batch does: each written when known, so a long run stopped
  // part way loses nothing and --resume finishes it.
  std::string out_path = parsed->Get("out", "");
  bool resume = parsed->Has("resume");
  if (resume && out_path.empty()) {
    err << "tsume verify: flag --resume needs --out FILE (the results to resume)\n";
    return kExitUsage;
  }
  std::map<std::string, std::string> earlier;  // ResumeKey -> verdict
  if (resume) {
    absl::StatusOr<std::vector<nlohmann::ordered_json>> loaded =
        LoadAndRepairResults(out_path, err, "verdict");
    if (!loaded.ok()) {
      err << "tsume verify: " << loaded.status().message() << "\n";
      return kExitUsage;
    }
    for (const nlohmann::ordered_json& line : *loaded) {
      if (!line["verdict"].is_string()) continue;
      earlier[ResumeKey(line["id"], line["source"])] = line["verdict"];
    }
  }
  std::ofstream results;
  if (!out_path.empty()) {
    results.open(out_path, resume ? std::ios::app : std::ios::trunc);
    if (!results) {
      err << "tsume verify: cannot write results file " << out_path << "\n";
      return kExitUsage;
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
  Solver solver(*options);
  std::map<std::string, int> verdicts;
  int exit_code = kExitOk;
  int index = 0;
  for (const InputProblem& problem : *problems) {
    current = absl::StrCat("[", ++index, "/", problems->size(), "] ", problem.id);
    if (auto it = earlier.find(ResumeKey(problem.id, problem.source)); it != earlier.end()) {
      ++verdicts[it->second];  // verified in an earlier run
      continue;
    }
    if (!problem.position.ok()) {
      err << "tsume verify: " << problem.source << ": " << problem.position.status().message()
          << "\n";
      exit_code = kExitUsage;
      continue;
    }
    const Position& start = *problem.position;
    std::vector<Move> intended;
    Position replay = start;
    std::string intended_error;
    for (const std::string& usi : problem.solution_usi) {
      absl::StatusOr<Move> m = replay.ParseUsiMove(usi);
      if (!m.ok()) {
        intended_error = absl::StrCat("intended line: ", m.status().message());
        intended.clear();
        break;
      }
      intended.push_back(*m);
      replay.DoMove(*m);
    }
    VerifyReport report = VerifyProblem(solver, start, problem.expected_length, intended, on_stage);
    progress.Clear();
    ++verdicts[ToString(report.verdict)];
    const SolveResult& solution = report.solution;
    nlohmann::json line = ReportToJson(problem, start, report, intended_error);
    // A verification stopped by Ctrl-C is no result: --resume does it again.
    if (results.is_open() && !interrupt.interrupted()) {
      results << line.dump() << "\n";
      results.flush();
    }
    if (json) {
      out << line.dump() << "\n";
    } else {
      out << problem.id << "  " << ToString(report.verdict);
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
      if (!intended_error.empty()) out << "  " << intended_error << "\n";
      for (const Flaw& f : report.flaws) PrintFlaw(start, report.main_line, intended, f, "", out);
      for (const Flaw& f : report.notes) {
        PrintFlaw(start, report.main_line, intended, f, "note: ", out);
      }
      // Otherwise the searches along the line never ran, as the solve's line above says.
      if (report.main_line_searched) {
        if (!report.alternatives_complete) out << "  (limits stopped part of the 余詰 search)\n";
        if (!report.variations_complete) out << "  (limits stopped part of the 変同 search)\n";
        if (!report.side_mates_complete) out << "  (limits stopped part of the 変化別詰 search)\n";
      }
      out << absl::StrFormat("  nodes %d  time %.0f ms (solve: nodes %d  time %.0f ms)\n",
                             report.nodes, absl::ToDoubleMilliseconds(report.elapsed),
                             solution.nodes, absl::ToDoubleMilliseconds(solution.elapsed));
    }
    out.flush();
    if (interrupt.interrupted()) break;
  }
  if (!json && problems->size() > 1) {
    out << "summary:";
    for (const auto& [verdict, count] : verdicts) out << "  " << verdict << " " << count;
    out << "\n";
  }
  return exit_code;
}

}  // namespace tsume
