// The solver flags shared by solve, batch and verify: --time-ms, --nodes, --hash-mb, --rules.
#ifndef TSUME_TOOLS_SOLVE_FLAGS_H_
#define TSUME_TOOLS_SOLVE_FLAGS_H_

#include <cstdint>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "solver/solver.h"
#include "tools/cli_args.h"

namespace tsume {

// Value flags to pass to CliArgs::Parse for the options below.
inline const std::set<std::string> kSolveValueFlags = {"time-ms", "nodes", "hash-mb", "rules"};

// Options from the parsed flags; errors name the flag.
absl::StatusOr<SolveOptions> SolveOptionsFromArgs(const CliArgs& args);

// `count` solvers for a run of `jobs` jobs (batch, verify), each with `options` and an equal
// share of its hash_mb (the total); an error naming --hash-mb when the machine cannot
// reserve one.
absl::StatusOr<std::vector<std::unique_ptr<Solver>>> MakeJobSolvers(SolveOptions options,
                                                                    int64_t jobs, int count);

}  // namespace tsume

#endif  // TSUME_TOOLS_SOLVE_FLAGS_H_
