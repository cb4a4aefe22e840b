// `tsume usi`: a USI session on standard input and output.
#include <csignal>
#include <iostream>

#include "tools/cli_args.h"
#include "tools/commands.h"
#include "tools/usi_engine.h"

namespace tsume {
namespace {

constexpr char kUsiHelp[] =
    "usage: tsume usi\n"
    "Speaks the USI protocol on stdin/stdout, for shogi GUIs (ShogiGUI, Shogidokoro,\n"
    "ShogiHome): register this command as an engine and use its mate search (go mate).\n"
    "Options: USI_Hash (MB), PvInterval (ms between info lines, 0 = none),\n"
    "Rules (tsume|game), NodesLimit (0 = none).\n";

}  // namespace

int RunUsi(const CommandArgs& args, std::ostream& out, std::ostream& err) {
  absl::StatusOr<CliArgs> parsed = CliArgs::Parse(args, {}, {});
  if (!parsed.ok()) {
    err << "tsume usi: " << parsed.status().message() << "\n";
    return kExitUsage;
  }
  if (parsed->Has("help")) {
    out << kUsiHelp;
    return kExitOk;
  }
  if (!parsed->positional().empty()) {
    err << "tsume usi: unexpected argument '" << parsed->positional()[0] << "'\n";
    return kExitUsage;
  }
  // A GUI may close the pipe while a search is still answering; that must not kill us.
  std::signal(SIGPIPE, SIG_IGN);
  UsiEngine engine(out);
  engine.Run(std::cin);
  return kExitOk;
}

}  // namespace tsume
