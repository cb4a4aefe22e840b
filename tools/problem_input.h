// Problems named on a command line: a literal SFEN (or "startpos", or a USI position line), or
// files of problems in any collection format.
#ifndef TSUME_TOOLS_PROBLEM_INPUT_H_
#define TSUME_TOOLS_PROBLEM_INPUT_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "core/position.h"
#include "problems/collection.h"

namespace tsume {

struct InputProblem {
  std::string id;
  std::string source;  // "file:line" or "argument"
  std::string sfen;
  absl::StatusOr<Position> position = absl::UnknownError("not parsed");
  std::optional<int> expected_length;
  bool expected_nomate = false;
  std::optional<int> nomate_within;
  std::vector<std::string> solution_usi;
  std::vector<Problem::Variation> variations;  // the stated ones (KIF 変化)
};

// A position as written on a command line: an SFEN (or "startpos"), or a USI position line
// ("position sfen ... moves ...", "startpos moves ...", the word "position" optional).
absl::StatusOr<Position> PositionFromArgument(absl::string_view text);

// Interprets the positional arguments: when they parse as one position, that position; else
// each argument is a file read with the collection readers (`format`: auto, sfen, practical,
// tsv, kif, csa). A bad line in a file comes out as a problem whose `position` is the error
// (its `source` names the file and line), ahead of the file's good problems. Error:
// unreadable file or an argument that is neither a position nor a file.
absl::StatusOr<std::vector<InputProblem>> ReadProblemsFromArgs(const std::vector<std::string>& args,
                                                               const std::string& format);

}  // namespace tsume

#endif  // TSUME_TOOLS_PROBLEM_INPUT_H_
