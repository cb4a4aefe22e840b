#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "nlohmann/json.hpp"
#include "solver/solver.h"
#include "tools/cli_args.h"
#include "tools/commands.h"
#include "tools/kif_files.h"
#include "tools/problem_input.h"
#include "tools/progress.h"
#include "tools/solve_flags.h"
#include "tools/solve_output.h"

namespace tsume {
namespace {

constexpr char kSolveHelp[] =
    "usage: tsume solve [--rules tsume|game] [--time-ms N] [--nodes N] [--hash-mb N]\n"
    "                   [--json | --kif] [--kif-dir DIR] [--first-mate] [--format F]\n"
    "                   (SFEN | FILE...)\n"
    "Solves each position (the side to move attacks): result, exact length, the line in USI\n"
    "and Japanese notation, nodes, time, nodes/s, table fill. Arguments are one SFEN (or\n"
    "'position sfen ... moves ...'), or files of problems ('-': standard input).\n"
    "  --rules R      tsume (default): useless interpositions do not count (composed\n"
    "                 problems); game: every defence counts (positions from games)\n"
    "  --time-ms, --nodes  limits per position (default: none); a mate found before the\n"
    "                 limit is given with its proven bound, 'not proven shortest'\n"
    "  --hash-mb N    table memory (default 256)\n"
    "  --json         one JSON object per position\n"
    "  --kif          a KIF record per position, in UTF-8 (for a GUI: `tsume solve --kif P >\n"
    "                 a.kifu`): the position, the line when mated, the result in a comment\n"
    "  --kif-dir DIR  also each position's KIF record as its own file DIR/<id>.kif, in\n"
    "                 Shift-JIS as the KIF format has .kif files\n"
    "  --format F     auto, sfen, practical, tsv, kif or csa (default auto); a kif file's\n"
    "                 moves may be KIF or KI2\n"
    "  --first-mate   stop at the first mate found: the length is that proof's bound (not\n"
    "                 proven shortest); the line follows the proof, its defences not proven\n"
    "                 longest, so it may be shorter than the bound\n"
    "Exit status: 0, 2 on bad usage or input (a bad line in a file is reported as FILE:LINE\n"
    "and skipped, the rest solved), 130 after Ctrl-C (what is known is printed).\n";

}  // namespace

absl::StatusOr<SolveOptions> SolveOptionsFromArgs(const CliArgs& args) {
  // (shared by solve, batch and verify; declared in tools/solve_flags.h)
  SolveOptions options;
  absl::StatusOr<int64_t> time_ms = args.GetInt("time-ms", 0, 0, int64_t(1) << 40);
  if (!time_ms.ok()) return time_ms.status();
  if (*time_ms > 0) options.time_limit = absl::Milliseconds(*time_ms);
  absl::StatusOr<int64_t> nodes = args.GetInt("nodes", 0, 0, int64_t(1) << 60);
  if (!nodes.ok()) return nodes.status();
  options.max_nodes = *nodes;
  absl::StatusOr<int64_t> hash = args.GetInt("hash-mb", 256, 1, 1 << 20);
  if (!hash.ok()) return hash.status();
  options.hash_mb = *hash;
  std::string rules = args.Get("rules", "tsume");
  if (rules == "tsume") {
    options.rules = Rules::kTsume;
  } else if (rules == "game") {
    options.rules = Rules::kGame;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("flag --rules: expected 'tsume' or 'game', got '", rules, "'"));
  }
  return options;
}

absl::StatusOr<std::vector<std::unique_ptr<Solver>>> MakeJobSolvers(SolveOptions options,
                                                                    int64_t jobs, int count) {
  int64_t total_mb = options.hash_mb;
  options.hash_mb = std::max<int64_t>(1, total_mb / jobs);
  std::vector<std::unique_ptr<Solver>> solvers;
  for (int i = 0; i < count; ++i) {
    absl::StatusOr<std::unique_ptr<Solver>> solver = Solver::Create(options);
    if (!solver.ok()) {
      return absl::Status(
          solver.status().code(),
          absl::StrCat(
              "flag --hash-mb: ", solver.status().message(),
              jobs > 1 ? absl::StrCat(" (", total_mb, " MB shared by ", jobs, " jobs)") : ""));
    }
    solvers.push_back(*std::move(solver));
  }
  return solvers;
}

int RunSolve(const CommandArgs& args, std::ostream& out, std::ostream& err) {
  absl::StatusOr<CliArgs> parsed =
      CliArgs::Parse(args, {"time-ms", "nodes", "hash-mb", "rules", "format", "kif-dir"},
                     {"json", "kif", "first-mate"});
  if (!parsed.ok()) {
    err << "tsume solve: " << parsed.status().message() << "\n";
    return kExitUsage;
  }
  if (parsed->Has("help")) {
    out << kSolveHelp;
    return kExitOk;
  }
  absl::StatusOr<SolveOptions> options = SolveOptionsFromArgs(*parsed);
  if (!options.ok()) {
    err << "tsume solve: " << options.status().message() << "\n";
    return kExitUsage;
  }
  // Flags first: a file is not read (nor its errors reported) for a command that cannot run.
  bool json = parsed->Has("json");
  bool kif = parsed->Has("kif");
  if (json && kif) {
    err << "tsume solve: flags --json and --kif: give one of them\n";
    return kExitUsage;
  }
  absl::StatusOr<std::optional<KifDirectory>> kif_dir = KifDirectoryFromFlag(*parsed);
  if (!kif_dir.ok()) {
    err << "tsume solve: " << kif_dir.status().message() << "\n";
    return kExitUsage;
  }
  absl::StatusOr<std::vector<InputProblem>> problems =
      ReadProblemsFromArgs(parsed->positional(), parsed->Get("format", "auto"));
  if (!problems.ok()) {
    err << "tsume solve: " << problems.status().message() << "\n";
    return kExitUsage;
  }
  std::vector<std::string> kif_names;
  if (*kif_dir) kif_names = KifFileNamesOf(*problems);
  options->exact_length = !parsed->Has("first-mate");
  StopOnInterrupt interrupt;
  options->stop = interrupt.flag();
  ProgressLine progress(err);
  if (progress.enabled()) {
    options->on_progress = [&](const SearchProgress& p) { progress.Show(FormatProgress(p)); };
  }
  absl::StatusOr<std::vector<std::unique_ptr<Solver>>> made = MakeJobSolvers(*options, 1, 1);
  if (!made.ok()) {
    err << "tsume solve: " << made.status().message() << "\n";
    return kExitUsage;
  }
  Solver& solver = *made->front();
  int exit_code = kExitOk;
  for (size_t i = 0; i < problems->size(); ++i) {
    const InputProblem& problem = (*problems)[i];
    if (!problem.position.ok()) {
      err << "tsume solve: " << problem.source << ": " << problem.position.status().message()
          << "\n";
      exit_code = kExitUsage;
      continue;
    }
    SolveResult result = solver.Solve(*problem.position);
    progress.Clear();
    if (json) {
      out << JsonLine(SolveResultToJson(problem, *problem.position, result)) << "\n";
    } else if (kif) {
      out << SolveResultToKif(problem, *problem.position, result) << "\n";
    } else {
      out << FormatSolveResult(problem, *problem.position, result) << "\n";
    }
    out.flush();
    if (*kif_dir) {
      absl::StatusOr<std::string> path =
          (*kif_dir)->Write(kif_names[i], SolveResultToKif(problem, *problem.position, result));
      if (!path.ok()) {
        err << "tsume solve: flag --kif-dir: " << path.status().message() << "\n";
        exit_code = kExitUsage;
      }
    }
    if (interrupt.interrupted()) {
      // The result above is what the search knew when stopped.
      if (size_t left = problems->size() - i - 1; left > 0) {
        err << "tsume solve: interrupted: " << left << (left == 1 ? " position" : " positions")
            << " not solved\n";
      }
      return kExitInterrupted;
    }
  }
  return exit_code;
}

}  // namespace tsume
