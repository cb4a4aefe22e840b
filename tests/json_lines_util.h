// Shared by the command tests (solve_command_test.cc, verify_test.cc): the JSON lines a
// command prints or writes to its results file.
#ifndef TSUME_TESTS_JSON_LINES_UTIL_H_
#define TSUME_TESTS_JSON_LINES_UTIL_H_

#include <vector>

#include "absl/strings/str_split.h"
#include "absl/strings/string_view.h"
#include "nlohmann/json.hpp"

namespace tsume {

// Each non-empty line of `text`, parsed (throws on a line that is not JSON).
inline std::vector<nlohmann::json> JsonLines(absl::string_view text) {
  std::vector<nlohmann::json> lines;
  for (absl::string_view line : absl::StrSplit(text, '\n', absl::SkipEmpty())) {
    lines.push_back(nlohmann::json::parse(line));
  }
  return lines;
}

}  // namespace tsume

#endif  // TSUME_TESTS_JSON_LINES_UTIL_H_
