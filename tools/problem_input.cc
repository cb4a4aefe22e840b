#include "tools/problem_input.h"

#include <filesystem>
#include <fstream>
#include <iostream>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"

namespace tsume {

absl::StatusOr<std::vector<InputProblem>> ReadProblemsFromArgs(
    const std::vector<std::string>& args, const std::string& format, std::ostream& err) {
  (void)format;
  std::vector<InputProblem> problems;
  if (args.empty()) return absl::InvalidArgumentError("expected an SFEN or a file of problems");
  std::string joined = absl::StrJoin(args, " ");
  bool looks_like_file = args.size() == 1 && std::filesystem::exists(args[0]);
  if (!looks_like_file) {
    InputProblem p;
    p.id = "argument";
    p.source = "argument";
    absl::string_view text = joined;
    p.position = absl::StartsWith(text, "position") || absl::StrContains(text, " moves")
                     ? Position::FromUsiPosition(text)
                     : Position::FromSfen(text);
    if (!p.position.ok() && args.size() == 1 && !absl::StrContains(joined, '/')) {
      return absl::InvalidArgumentError(absl::StrCat("cannot open '", joined, "': no such file"));
    }
    if (p.position.ok()) p.sfen = p.position->Sfen();
    problems.push_back(std::move(p));
    return problems;
  }
  for (const std::string& path : args) {
    std::ifstream in(path);
    if (!in) return absl::InvalidArgumentError(absl::StrCat("cannot open '", path, "'"));
    std::string line;
    int line_no = 0;
    while (std::getline(in, line)) {
      ++line_no;
      absl::string_view text = absl::StripAsciiWhitespace(line);
      if (text.empty() || text[0] == '#') continue;
      InputProblem p;
      p.source = absl::StrCat(path, ":", line_no);
      p.id = p.source;
      std::vector<std::string> fields = absl::StrSplit(text, ' ', absl::SkipEmpty());
      size_t moves_at = std::find(fields.begin(), fields.end(), "moves") - fields.begin();
      std::vector<std::string> sfen_fields(fields.begin(), fields.begin() + std::min<size_t>(4, moves_at));
      p.sfen = absl::StrJoin(sfen_fields, " ");
      for (size_t i = moves_at + 1; i < fields.size(); ++i) p.solution_usi.push_back(fields[i]);
      if (moves_at < fields.size()) p.expected_length = int(p.solution_usi.size());
      p.position = Position::FromSfen(p.sfen);
      if (!p.position.ok()) {
        err << p.source << ": " << p.position.status().message() << "\n";
        continue;
      }
      problems.push_back(std::move(p));
    }
  }
  return problems;
}

}  // namespace tsume
