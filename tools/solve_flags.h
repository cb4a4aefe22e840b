// The solver flags shared by solve, batch and verify: --time-ms, --nodes, --hash-mb, --rules.
#ifndef TSUME_TOOLS_SOLVE_FLAGS_H_
#define TSUME_TOOLS_SOLVE_FLAGS_H_

#include "absl/status/statusor.h"
#include "solver/solver.h"
#include "tools/cli_args.h"

namespace tsume {

// Value flags to pass to CliArgs::Parse for the options below.
inline const std::set<std::string> kSolveValueFlags = {"time-ms", "nodes", "hash-mb", "rules"};

// Options from the parsed flags; errors name the flag.
absl::StatusOr<SolveOptions> SolveOptionsFromArgs(const CliArgs& args);

}  // namespace tsume

#endif  // TSUME_TOOLS_SOLVE_FLAGS_H_
