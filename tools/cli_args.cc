#include "tools/cli_args.h"

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"

namespace tsume {

absl::StatusOr<CliArgs> CliArgs::Parse(const std::vector<std::string>& args,
                                       const std::set<std::string>& value_flags,
                                       const std::set<std::string>& bool_flags) {
  CliArgs out;
  bool only_positional = false;
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (only_positional || !absl::StartsWith(arg, "--") || arg == "-") {
      out.positional_.push_back(arg);
      continue;
    }
    if (arg == "--") {
      only_positional = true;
      continue;
    }
    std::string name = arg.substr(2), value;
    bool has_inline_value = false;
    if (size_t eq = name.find('='); eq != std::string::npos) {
      value = name.substr(eq + 1);
      name = name.substr(0, eq);
      has_inline_value = true;
    }
    if (name == "help" || bool_flags.count(name)) {
      if (has_inline_value) {
        return absl::InvalidArgumentError(absl::StrCat("flag --", name, " takes no value"));
      }
      out.values_[name] = "true";
    } else if (value_flags.count(name)) {
      if (!has_inline_value) {
        if (i + 1 >= args.size()) {
          return absl::InvalidArgumentError(absl::StrCat("flag --", name, " needs a value"));
        }
        value = args[++i];
      }
      out.values_[name] = value;
    } else {
      return absl::InvalidArgumentError(absl::StrCat("unknown flag --", name));
    }
  }
  return out;
}

std::string CliArgs::Get(const std::string& name, const std::string& fallback) const {
  auto it = values_.find(name);
  return it == values_.end() ? fallback : it->second;
}

absl::StatusOr<int64_t> CliArgs::GetInt(const std::string& name, int64_t fallback, int64_t min,
                                        int64_t max) const {
  auto it = values_.find(name);
  if (it == values_.end()) return fallback;
  int64_t v;
  if (!absl::SimpleAtoi(it->second, &v) || v < min || v > max) {
    return absl::InvalidArgumentError(absl::StrCat("flag --", name,
                                                   ": expected a whole number from ", min, " to ",
                                                   max, ", got '", it->second, "'"));
  }
  return v;
}

}  // namespace tsume
