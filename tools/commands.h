// The `tsume` subcommands. Each takes the arguments after its name, writes results to `out`
// and messages to `err`, and returns the process exit code (0 ok, 1 a result contradicting
// the expectation, 2 bad input or usage).
#ifndef TSUME_TOOLS_COMMANDS_H_
#define TSUME_TOOLS_COMMANDS_H_

#include <iosfwd>
#include <string>
#include <vector>

namespace tsume {

using CommandArgs = std::vector<std::string>;

int RunPerft(const CommandArgs& args, std::ostream& out, std::ostream& err);
int RunSolve(const CommandArgs& args, std::ostream& out, std::ostream& err);
int RunVerify(const CommandArgs& args, std::ostream& out, std::ostream& err);

// Exit codes shared by all subcommands.
constexpr int kExitOk = 0;
constexpr int kExitMismatch = 1;
constexpr int kExitUsage = 2;
// After Ctrl-C (128 + SIGINT), as a shell reports a process killed by it: what was shown or
// written is whole, but the run did not finish.
constexpr int kExitInterrupted = 130;

}  // namespace tsume

#endif  // TSUME_TOOLS_COMMANDS_H_
