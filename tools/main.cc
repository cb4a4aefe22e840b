// The `tsume` command line: dispatches to the subcommands in tools/commands.h.
#include <iostream>
#include <string>
#include <vector>

#include "tools/batch.h"
#include "tools/build_info.h"
#include "tools/commands.h"
#include "tools/report.h"
#include "tools/usi_engine.h"

namespace {

constexpr char kUsage[] =
    "usage: tsume COMMAND [ARGS]\n"
    "commands:\n"
    "  solve    solve mate problems (SFEN or file)\n"
    "  verify   check composed problems: length, 余詰, 早詰, 駒余り\n"
    "  batch    solve whole collections, JSON lines per problem and a summary\n"
    "  report   summarise and compare batch results (text, JSON, HTML)\n"
    "  usi      USI engine mode for shogi GUIs (go mate)\n"
    "  perft    count legal move tree leaves\n"
    "Run 'tsume COMMAND --help' for a command's options, 'tsume --version' for the version.\n";

}  // namespace

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty() || args[0] == "--help" || args[0] == "help") {
    (args.empty() ? std::cerr : std::cout) << kUsage;
    return args.empty() ? tsume::kExitUsage : tsume::kExitOk;
  }
  if (args[0] == "--version" || args[0] == "version") {
    std::cout << tsume::VersionText();
    return tsume::kExitOk;
  }
  std::string command = args[0];
  args.erase(args.begin());
  if (command == "perft") return tsume::RunPerft(args, std::cout, std::cerr);
  if (command == "solve") return tsume::RunSolve(args, std::cout, std::cerr);
  if (command == "verify") return tsume::RunVerify(args, std::cout, std::cerr);
  if (command == "batch") return tsume::RunBatch(args, std::cout, std::cerr);
  if (command == "report") return tsume::RunReport(args, std::cout, std::cerr);
  if (command == "usi") return tsume::RunUsi(args, std::cout, std::cerr);
  std::cerr << "tsume: unknown command '" << command << "'\n" << kUsage;
  return tsume::kExitUsage;
}
