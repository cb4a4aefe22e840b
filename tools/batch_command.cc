// `tsume batch`: the command-line face of tools/batch.h.
#include <algorithm>
#include <iostream>
#include <optional>
#include <set>
#include <string>

#include "absl/strings/match.h"
#include "tools/batch.h"
#include "tools/cli_args.h"
#include "tools/commands.h"
#include "tools/progress.h"
#include "tools/solve_flags.h"

namespace tsume {
namespace {

constexpr char kBatchHelp[] =
    "usage: tsume batch [--rules tsume|game] [--time-ms N] [--nodes N] [--hash-mb N] [--jobs N]\n"
    "                   [--out FILE] [--resume] [--shard K/N] [--format F] [--json]\n"
    "                   [--kif-dir DIR] FILE...\n"
    "       tsume batch --verify [VERIFY OPTIONS] FILE...\n"
    "Solves every problem in the files ('-': standard input) and compares each answer\n"
    "with the stated one. With --verify, verifies them instead, as 'tsume verify' does\n"
    "(its options, output and exit status; see 'tsume verify --help').\n"
    "  --time-ms, --nodes  limits per problem (default: none)\n"
    "  --hash-mb N    table memory in total, shared out among the jobs (default 256)\n"
    "  --rules R      tsume: useless interpositions do not count (composed problems);\n"
    "                 game: every defence counts (the practical sets)\n"
    "  --jobs N       solve N problems at a time, one thread each\n"
    "  --out FILE     write one JSON line per problem to FILE as soon as it is solved\n"
    "  --resume       keep FILE's results, solve only the problems not in it, append\n"
    "  --shard K/N    only problems K-1, K-1+N, K-1+2N, ... of the inputs, in order\n"
    "  --format F     auto, sfen, practical, tsv, kif or csa (default auto); a kif file's\n"
    "                 moves may be KIF or KI2\n"
    "  --json         without --out: the JSON lines on stdout (summary on stderr);\n"
    "                 with --out: the summary as one JSON object\n"
    "  --kif-dir DIR  also each problem's solution as a KIF record, DIR/<id>.kif in\n"
    "                 Shift-JIS (as 'tsume solve --kif-dir'), written as soon as it is solved\n"
    "Ends with a summary by stated length. Exit status: 0, 1 when an answer contradicts the\n"
    "stated one, 2 on bad usage, an unreadable file or bad lines (reported as FILE:LINE and\n"
    "skipped, the rest run), 130 after Ctrl-C (finished results are kept; --resume\n"
    "continues).\n";

// With --verify among the flags, the arguments for `tsume verify`: the same without it and
// without --rules tsume (verify knows no other rules). Empty after an error, written to `err`;
// nothing without --verify.
std::optional<CommandArgs> VerifyArgs(const CommandArgs& args, std::ostream& err) {
  std::set<std::string> value_flags = kSolveValueFlags;
  value_flags.insert({"jobs", "out", "shard", "format", "total-time-ms", "kif-dir"});
  CommandArgs rest;
  std::optional<std::string> rules;
  bool verify = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") {  // the rest are files, whatever their names
      rest.insert(rest.end(), args.begin() + i, args.end());
      break;
    }
    if (!absl::StartsWith(arg, "--")) {
      rest.push_back(arg);
      continue;
    }
    if (arg == "--verify") {
      verify = true;
      continue;
    }
    size_t eq = arg.find('=');
    std::string name = arg.substr(2, eq == std::string::npos ? std::string::npos : eq - 2);
    // A flag's value in the next argument goes with it.
    bool value_follows = eq == std::string::npos && value_flags.count(name) && i + 1 < args.size();
    if (name == "rules") {
      rules = value_follows ? args[i + 1] : eq == std::string::npos ? "" : arg.substr(eq + 1);
    } else {
      rest.push_back(arg);
      if (value_follows) rest.push_back(args[i + 1]);
    }
    if (value_follows) ++i;
  }
  if (!verify) return std::nullopt;
  if (rules && *rules != "tsume") {
    err << "tsume batch: flag --verify checks composed problems under tsume rules, not --rules '"
        << *rules << "'\n";
    return CommandArgs();
  }
  return rest;
}

}  // namespace

int RunBatch(const CommandArgs& args, std::ostream& out, std::ostream& err) {
  if (std::optional<CommandArgs> verify_args = VerifyArgs(args, err)) {
    if (verify_args->empty()) return kExitUsage;
    return RunVerify(*verify_args, out, err);
  }
  std::set<std::string> value_flags = kSolveValueFlags;
  value_flags.insert({"jobs", "out", "shard", "format", "kif-dir"});
  absl::StatusOr<CliArgs> parsed = CliArgs::Parse(args, value_flags, {"resume", "json"});
  if (!parsed.ok()) {
    err << "tsume batch: " << parsed.status().message() << "\n";
    return kExitUsage;
  }
  if (parsed->Has("help")) {
    out << kBatchHelp;
    return kExitOk;
  }
  absl::StatusOr<BatchOptions> options = BatchOptionsFromArgs(*parsed);
  if (!options.ok()) {
    err << "tsume batch: " << options.status().message() << "\n"
        << "Run 'tsume batch --help' for usage.\n";
    return kExitUsage;
  }
  StopOnInterrupt interrupt;
  options->stop = interrupt.flag();
  return RunBatchJob(*options, out, err);
}

}  // namespace tsume
