// A small per-subcommand argument parser: --name VALUE, --name=VALUE, boolean --name, and
// positional arguments. Errors are one line, naming the flag.
#ifndef TSUME_TOOLS_CLI_ARGS_H_
#define TSUME_TOOLS_CLI_ARGS_H_

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"

namespace tsume {

class CliArgs {
 public:
  // `value_flags` take a value; `bool_flags` do not. "--help" is always a bool flag.
  static absl::StatusOr<CliArgs> Parse(const std::vector<std::string>& args,
                                       const std::set<std::string>& value_flags,
                                       const std::set<std::string>& bool_flags);

  bool Has(const std::string& name) const { return values_.count(name) > 0; }
  std::string Get(const std::string& name, const std::string& fallback = "") const;
  // Integer flag with bounds; error names the flag.
  absl::StatusOr<int64_t> GetInt(const std::string& name, int64_t fallback, int64_t min,
                                 int64_t max) const;
  const std::vector<std::string>& positional() const { return positional_; }

 private:
  std::map<std::string, std::string> values_;
  std::vector<std::string> positional_;
};

}  // namespace tsume

#endif  // TSUME_TOOLS_CLI_ARGS_H_
