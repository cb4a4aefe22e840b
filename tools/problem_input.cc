#include "tools/problem_input.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <system_error>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "problems/collection.h"

namespace tsume {

absl::StatusOr<Position> PositionFromArgument(absl::string_view text) {
  return absl::StartsWith(text, "position") || absl::StrContains(text, " moves")
             ? Position::FromUsiPosition(text)
             : Position::FromSfen(text);
}

absl::StatusOr<std::vector<InputProblem>> ReadProblemsFromArgs(const std::vector<std::string>& args,
                                                               const std::string& format) {
  std::vector<InputProblem> problems;
  if (args.empty()) return absl::InvalidArgumentError("expected an SFEN or a file of problems");
  std::string joined = absl::StrJoin(args, " ");
  // Whatever exists is read: a directory goes to the reader, which names it as one, and a pipe
  // is a file (`tsume solve <(grep ... problems.txt)`). "-" is standard input.
  bool looks_like_file = std::all_of(args.begin(), args.end(), [](const std::string& a) {
    std::error_code error;  // a position's text can be too long a name to ask about
    return a == kStdinPath || std::filesystem::exists(a, error);
  });
  if (!looks_like_file) {
    InputProblem p;
    p.id = "argument";
    p.source = "argument";
    absl::string_view text = joined;
    p.position = PositionFromArgument(text);
    // One word that is no position was meant as a file: say so rather than how it fails as
    // an SFEN. An SFEN board has eight '/' and never a '.'; a path like data/zukou.tsv has
    // fewer, or a dot.
    if (!p.position.ok() && args.size() == 1 && joined.find_first_of(" \t") == std::string::npos &&
        (absl::StrContains(joined, '.') || std::count(joined.begin(), joined.end(), '/') != 8)) {
      return absl::InvalidArgumentError(
          absl::StrCat("cannot open '", EscapeControlCharacters(joined), "': no such file"));
    }
    if (p.position.ok()) p.sfen = p.position->Sfen();
    problems.push_back(std::move(p));
    return problems;
  }
  absl::StatusOr<CollectionFormat> parsed_format = ParseCollectionFormat(format);
  if (!parsed_format.ok()) return parsed_format.status();
  for (const std::string& path : args) {
    absl::StatusOr<Collection> collection = ReadCollection(path, *parsed_format);
    if (!collection.ok()) return collection.status();
    // Bad lines come first, as problems that cannot be run: the caller reports each (naming
    // the file and line) before any time is spent, and ends with a failing status.
    for (const InputError& error : collection->errors) {
      InputProblem p;
      p.source = error.source;
      p.position = absl::InvalidArgumentError(error.message);
      problems.push_back(std::move(p));
    }
    for (Problem& problem : collection->problems) {
      InputProblem p;
      p.id = problem.id;
      p.source = problem.source;
      p.sfen = problem.sfen;
      p.position = Position::FromSfen(problem.sfen);
      p.expected_length = problem.expected_length;
      p.expected_nomate = problem.expected_nomate;
      p.nomate_within = problem.nomate_within;
      p.solution_usi = std::move(problem.solution_usi);
      p.variations = std::move(problem.variations);
      problems.push_back(std::move(p));
    }
  }
  return problems;
}

}  // namespace tsume
