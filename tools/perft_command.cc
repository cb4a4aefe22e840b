#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "core/perft.h"
#include "nlohmann/json.hpp"
#include "tools/cli_args.h"
#include "tools/commands.h"
#include "tools/problem_input.h"
#include "tools/solve_output.h"

namespace tsume {
namespace {

constexpr char kPerftHelp[] =
    "usage: tsume perft [--divide] [--json] DEPTH POSITION\n"
    "POSITION: an SFEN, startpos, or 'position sfen ... moves ...' as solve takes it.\n"
    "Counts the leaves of the legal move tree to DEPTH plies.\n";

}  // namespace

int RunPerft(const CommandArgs& args, std::ostream& out, std::ostream& err) {
  absl::StatusOr<CliArgs> parsed = CliArgs::Parse(args, {}, {"divide", "json"});
  if (!parsed.ok()) {
    err << "tsume perft: " << parsed.status().message() << "\n";
    return kExitUsage;
  }
  if (parsed->Has("help")) {
    out << kPerftHelp;
    return kExitOk;
  }
  const auto& pos_args = parsed->positional();
  if (pos_args.size() < 2) {
    err << "tsume perft: expected DEPTH and a position (SFEN or startpos)\n";
    return kExitUsage;
  }
  int depth;
  if (!absl::SimpleAtoi(pos_args[0], &depth) || depth < 0 || depth > 20) {
    err << "tsume perft: DEPTH must be a number from 0 to 20, got '" << pos_args[0] << "'\n";
    return kExitUsage;
  }
  // A position as `solve` takes it: an SFEN, or a USI position command with moves.
  absl::StatusOr<Position> pos =
      PositionFromArgument(absl::StrJoin(pos_args.begin() + 1, pos_args.end(), " "));
  if (!pos.ok()) {
    err << "tsume perft: " << pos.status().message() << "\n";
    return kExitUsage;
  }
  absl::Time start = absl::Now();
  uint64_t nodes = 0;
  if (parsed->Has("divide") && depth > 0) {
    for (auto [move, count] : PerftDivide(*pos, depth)) {
      if (!parsed->Has("json")) out << ToUsi(move) << ": " << count << "\n";
      nodes += count;
    }
  } else {
    nodes = Perft(*pos, depth);
  }
  double ms = absl::ToDoubleMilliseconds(absl::Now() - start);
  int64_t nps = ms > 0 ? int64_t(nodes / ms * 1000) : 0;
  if (parsed->Has("json")) {
    nlohmann::json j = {{"sfen", pos->Sfen()},
                        {"depth", depth},
                        {"nodes", nodes},
                        {"time_ms", int64_t(ms)},
                        {"nps", nps}};
    out << JsonLine(j) << "\n";
  } else {
    out << "nodes " << nodes << "  time " << int64_t(ms) << " ms  nps " << nps << "\n";
  }
  return kExitOk;
}

}  // namespace tsume
