// Format detection, decoding, and the line-based readers (SFEN lines, practical, TSV).
#include "problems/collection.h"

#include <iconv.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <fstream>
#include <ios>
#include <iostream>
#include <iterator>
#include <limits>
#include <map>
#include <optional>
#include <system_error>
#include <utility>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/position.h"
#include "problems/reader_internal.h"

namespace tsume {
namespace collection_internal {

std::vector<TextLine> SplitLines(absl::string_view text) {
  std::vector<TextLine> lines;
  int number = 0;
  for (absl::string_view line : absl::StrSplit(text, '\n')) {
    ++number;
    absl::ConsumeSuffix(&line, "\r");
    lines.push_back({number, line});
  }
  // A final line ending does not start another line.
  if (!lines.empty() && lines.back().text.empty()) lines.pop_back();
  return lines;
}

Sink::Sink(const std::string& name, Collection* out) : name_(name), out_(out) {
  size_t slash = name.find_last_of('/');
  basename_ = slash == std::string::npos ? name : name.substr(slash + 1);
}

std::string Sink::Source(int line) const { return absl::StrCat(name_, ":", line); }
std::string Sink::DefaultId(int line) const { return absl::StrCat(basename_, ":", line); }

void Sink::Error(int line, absl::string_view message) {
  out_->errors.push_back({Source(line), std::string(message)});
}

absl::StatusOr<std::string> CheckedSfen(absl::string_view sfen) {
  std::vector<absl::string_view> fields = absl::StrSplit(sfen, ' ', absl::SkipWhitespace());
  if (fields.size() < 3 || fields.size() > 4) {
    return absl::InvalidArgumentError(absl::StrCat(
        "SFEN needs 3 or 4 fields (board, side, hand, [move number]), got ", fields.size()));
  }
  std::string joined = absl::StrJoin(fields, " ");
  if (fields.size() == 3) absl::StrAppend(&joined, " 1");
  absl::StatusOr<Position> pos = Position::FromSfen(joined);
  if (!pos.ok()) return pos.status();
  return joined;
}

absl::Status CheckSolution(absl::string_view sfen, const std::vector<std::string>& moves) {
  if (moves.empty()) return absl::OkStatus();
  absl::StatusOr<Position> pos = Position::FromSfen(sfen);
  if (!pos.ok()) return pos.status();
  for (size_t i = 0; i < moves.size(); ++i) {
    absl::StatusOr<Move> move = pos->ParseUsiMove(moves[i]);
    if (!move.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("solution move ", i + 1, " '", moves[i], "': ", move.status().message()));
    }
    pos->DoMove(*move);
  }
  return absl::OkStatus();
}

namespace {

bool IsComment(absl::string_view line) { return absl::StartsWith(line, "#"); }

// A position written as an SFEN, "sfen <sfen>", "startpos", or a USI "position" command, each
// optionally followed by "moves ..." (applied). Returns the SFEN of the resulting position.
absl::StatusOr<std::string> ParsePositionSpec(absl::string_view text) {
  text = absl::StripAsciiWhitespace(text);
  bool has_moves = absl::StrContains(text, " moves") || absl::EndsWith(text, "moves");
  bool usi_form = absl::StartsWith(text, "position") || absl::StartsWith(text, "sfen ") ||
                  absl::StartsWith(text, "startpos");
  if (!usi_form && !has_moves) return CheckedSfen(text);

  std::string command(text);
  if (!absl::StartsWith(text, "position")) {
    command = usi_form ? absl::StrCat("position ", text) : absl::StrCat("position sfen ", text);
  }
  absl::StatusOr<Position> pos = Position::FromUsiPosition(command);
  if (!pos.ok()) return pos.status();
  // Keep the stated move number, advanced by the moves applied.
  int move_number = 1;
  absl::string_view setup = absl::StripPrefix(absl::string_view(command), "position ");
  setup = setup.substr(0, setup.find(" moves"));
  std::vector<absl::string_view> fields = absl::StrSplit(setup, ' ', absl::SkipWhitespace());
  if (fields.size() == 5 && !absl::SimpleAtoi(fields[4], &move_number)) move_number = 1;
  return pos->Sfen(
      int(std::min<int64_t>(int64_t(move_number) + pos->ply(), std::numeric_limits<int>::max())));
}

void ReadSfenLines(const std::vector<TextLine>& lines, Sink& sink) {
  for (const TextLine& line : lines) {
    absl::string_view text = absl::StripAsciiWhitespace(line.text);
    if (text.empty() || IsComment(text)) continue;
    absl::StatusOr<std::string> sfen = ParsePositionSpec(text);
    if (!sfen.ok()) {
      sink.Error(line.number, sfen.status().message());
      continue;
    }
    Problem problem;
    problem.id = sink.DefaultId(line.number);
    problem.source = sink.Source(line.number);
    problem.sfen = *std::move(sfen);
    sink.Add(std::move(problem));
  }
}

void ReadPractical(const std::vector<TextLine>& lines, Sink& sink) {
  for (const TextLine& line : lines) {
    absl::string_view text = absl::StripAsciiWhitespace(line.text);
    if (text.empty() || IsComment(text)) continue;
    std::vector<absl::string_view> tokens =
        absl::StrSplit(text, absl::ByAnyChar(" \t"), absl::SkipEmpty());
    // The SFEN is 4 fields, or 3 when the move number is left out.
    size_t sfen_fields = tokens.size() >= 4 && tokens[3] != "moves" ? 4 : 3;
    if (tokens.size() < sfen_fields) {
      sink.Error(line.number, absl::StrCat("practical line: expected '<board> <side> <hand> <ply> "
                                           "moves m1 ... mN', got ",
                                           tokens.size(), " fields"));
      continue;
    }
    if (tokens.size() > sfen_fields && tokens[sfen_fields] != "moves") {
      sink.Error(line.number, absl::StrCat("practical line: expected 'moves' after the SFEN, got '",
                                           tokens[sfen_fields], "'"));
      continue;
    }
    absl::StatusOr<std::string> sfen =
        CheckedSfen(absl::StrJoin(tokens.begin(), tokens.begin() + sfen_fields, " "));
    if (!sfen.ok()) {
      sink.Error(line.number, sfen.status().message());
      continue;
    }
    Problem problem;
    problem.id = sink.DefaultId(line.number);
    problem.source = sink.Source(line.number);
    problem.sfen = *std::move(sfen);
    for (size_t i = sfen_fields + 1; i < tokens.size(); ++i) {
      problem.solution_usi.emplace_back(tokens[i]);
    }
    if (absl::Status s = CheckSolution(problem.sfen, problem.solution_usi); !s.ok()) {
      sink.Error(line.number, s.message());
      continue;
    }
    if (!problem.solution_usi.empty()) {
      problem.expected_length = int(problem.solution_usi.size());
      problem.expected_mate = true;
    }
    sink.Add(std::move(problem));
  }
}

// TSV column roles, from header names (lower-cased, anything from '(' on dropped).
enum class Column { kIgnored, kId, kSfen, kExpected, kSolution, kCategory, kNotes };

Column ColumnRole(absl::string_view name) {
  static const std::map<std::string, Column, std::less<>> kRoles = {
      {"id", Column::kId},
      {"name", Column::kId},
      {"sfen", Column::kSfen},
      {"position", Column::kSfen},
      {"length", Column::kExpected},
      {"solution_moves", Column::kExpected},
      {"mate_length", Column::kExpected},
      {"expected", Column::kExpected},
      {"solution_usi", Column::kSolution},
      {"solution", Column::kSolution},
      {"category", Column::kCategory},
      {"notes", Column::kNotes},
  };
  auto it = kRoles.find(name);
  return it == kRoles.end() ? Column::kIgnored : it->second;
}

std::vector<std::string> HeaderNames(absl::string_view line) {
  line = absl::StripLeadingAsciiWhitespace(line);
  if (absl::ConsumePrefix(&line, "#")) line = absl::StripLeadingAsciiWhitespace(line);
  std::vector<std::string> names;
  for (absl::string_view name : absl::StrSplit(line, '\t')) {
    name = name.substr(0, name.find('('));
    names.push_back(absl::AsciiStrToLower(absl::StripAsciiWhitespace(name)));
  }
  return names;
}

bool IsTsvHeader(absl::string_view line) {
  if (!absl::StrContains(line, '\t')) return false;
  for (const std::string& name : HeaderNames(line)) {
    if (ColumnRole(name) == Column::kSfen) return true;
  }
  return false;
}

// Applies an `expected` / `length` cell to the problem.
absl::Status ApplyExpectation(absl::string_view value, Problem& problem) {
  value = absl::StripAsciiWhitespace(value);
  int n = 0;
  absl::string_view rest = value;
  if (value.empty()) return absl::OkStatus();
  if (absl::SimpleAtoi(value, &n)) {
    if (n < 1)
      return absl::InvalidArgumentError(absl::StrCat("mate length ", n, " is not positive"));
    if (n > kMaxStatedPlies) {
      return absl::InvalidArgumentError(
          absl::StrCat("mate length ", n, " is more than ", kMaxStatedPlies, " plies"));
    }
    problem.expected_length = n;
    problem.expected_mate = true;
  } else if (value == "NOMATE") {
    problem.expected_nomate = true;
  } else if (absl::ConsumePrefix(&rest, "NOMATE_WITHIN_")) {
    if (!absl::SimpleAtoi(rest, &n) || n < 0 || n > kMaxStatedPlies) {
      return absl::InvalidArgumentError(absl::StrCat("bad ply count in '", value, "'"));
    }
    problem.nomate_within = n;
  } else if (value == "MATE") {
    problem.expected_mate = true;
  } else if (value == "INVALID_OR_SPECIAL") {
    problem.notes = problem.notes.empty() ? "INVALID_OR_SPECIAL"
                                          : absl::StrCat("INVALID_OR_SPECIAL: ", problem.notes);
  } else {
    return absl::InvalidArgumentError(absl::StrCat(
        "unknown expectation '", value,
        "' (want a ply count, NOMATE, NOMATE_WITHIN_<n>, MATE or INVALID_OR_SPECIAL)"));
  }
  return absl::OkStatus();
}

void ReadTsv(const std::vector<TextLine>& lines, Sink& sink) {
  std::vector<Column> columns;
  int sfen_column = -1;
  for (const TextLine& line : lines) {
    absl::string_view text = line.text;
    if (absl::StripAsciiWhitespace(text).empty()) continue;
    if (columns.empty()) {
      if (IsTsvHeader(text)) {
        std::vector<std::string> names = HeaderNames(text);
        for (size_t i = 0; i < names.size(); ++i) {
          columns.push_back(ColumnRole(names[i]));
          if (columns.back() == Column::kSfen && sfen_column < 0) sfen_column = int(i);
        }
        continue;
      }
      if (IsComment(text)) continue;
      sink.Error(line.number,
                 "TSV: no header line naming a 'sfen' column before the first row (e.g. "
                 "'# id<TAB>sfen<TAB>length')");
      return;
    }
    if (IsComment(text)) continue;
    std::vector<absl::string_view> cells = absl::StrSplit(text, '\t');
    if (cells.size() > columns.size()) {
      sink.Error(line.number, absl::StrCat("TSV row has ", cells.size(),
                                           " fields, the header names ", columns.size()));
      continue;
    }
    if (int(cells.size()) <= sfen_column ||
        absl::StripAsciiWhitespace(cells[sfen_column]).empty()) {
      sink.Error(line.number, "TSV row has no sfen");
      continue;
    }
    Problem problem;
    problem.source = sink.Source(line.number);
    absl::Status status;
    absl::string_view expected, notes;
    for (size_t i = 0; i < cells.size() && status.ok(); ++i) {
      absl::string_view cell = absl::StripAsciiWhitespace(cells[i]);
      switch (columns[i]) {
        case Column::kId:
          problem.id = std::string(cell);
          break;
        case Column::kSfen: {
          if (int(i) != sfen_column) break;
          absl::StatusOr<std::string> sfen = ParsePositionSpec(cell);
          if (sfen.ok()) {
            problem.sfen = *std::move(sfen);
          } else {
            status = sfen.status();
          }
          break;
        }
        case Column::kExpected:
          if (expected.empty()) expected = cell;
          break;
        case Column::kSolution:
          for (absl::string_view m : absl::StrSplit(cell, ' ', absl::SkipWhitespace())) {
            problem.solution_usi.emplace_back(m);
          }
          break;
        case Column::kCategory:
          problem.category = std::string(cell);
          break;
        case Column::kNotes:
          problem.notes = std::string(cell);
          break;
        case Column::kIgnored:
          break;
      }
    }
    if (status.ok()) status = ApplyExpectation(expected, problem);
    if (status.ok()) status = CheckSolution(problem.sfen, problem.solution_usi);
    if (!status.ok()) {
      sink.Error(line.number, status.message());
      continue;
    }
    if (problem.id.empty()) problem.id = sink.DefaultId(line.number);
    sink.Add(std::move(problem));
  }
  if (columns.empty()) {
    sink.Error(lines.empty() ? 1 : lines.front().number,
               "TSV: no header line naming a 'sfen' column (e.g. '# id<TAB>sfen<TAB>length')");
  }
}

bool LooksLikeSfenBoard(absl::string_view token) {
  return std::count(token.begin(), token.end(), '/') == 8;
}

bool IsCsaLine(absl::string_view line) {
  if (line == "+" || line == "-" || absl::StartsWith(line, "PI")) return true;
  if (line.size() >= 3 && line[0] == 'P' && line[1] >= '1' && line[1] <= '9' &&
      (line[2] == ' ' || line[2] == '+' || line[2] == '-')) {
    return true;
  }
  if (line.size() >= 4 && line[0] == 'P' && (line[1] == '+' || line[1] == '-') &&
      absl::ascii_isdigit(line[2]) && absl::ascii_isdigit(line[3])) {
    return true;
  }
  return absl::StartsWith(line, "V2") || absl::StartsWith(line, "N+") ||
         absl::StartsWith(line, "N-") || absl::StartsWith(line, "$");
}

bool IsKifLine(absl::string_view line) {
  for (absl::string_view marker : {"持駒", "手合割", "手番", "手数", "９ ８ ７", "：", "詰み"}) {
    if (absl::StrContains(line, marker)) return true;
  }
  return absl::StartsWith(line, "+--") || absl::StartsWith(line, "|");
}

bool IsValidUtf8(absl::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    unsigned char c = s[i];
    int extra;
    uint32_t min;
    if (c < 0x80) {
      ++i;
      continue;
    } else if ((c & 0xE0) == 0xC0) {
      extra = 1, min = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
      extra = 2, min = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
      extra = 3, min = 0x10000;
    } else {
      return false;
    }
    if (i + extra >= s.size()) return false;
    uint32_t cp = c & (0x3F >> extra);
    for (int k = 1; k <= extra; ++k) {
      unsigned char cc = s[i + k];
      if ((cc & 0xC0) != 0x80) return false;
      cp = cp << 6 | (cc & 0x3F);
    }
    if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    i += extra + 1;
  }
  return true;
}

// The length of the UTF-8 sequence that starts with `lead` (1 for a byte that starts none).
size_t Utf8SequenceLength(unsigned char lead) {
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  if (lead >= 0xE0) return lead <= 0xEF ? 3 : 1;
  if (lead >= 0xC2) return 2;
  return 1;
}

// `bytes` converted from the encoding `from` to `to`. A sequence that cannot be converted is an
// error, or, with `substitute` (for UTF-8 input), a '?' in its place.
absl::StatusOr<std::string> Iconv(absl::string_view bytes, const char* from, const char* to,
                                  bool substitute = false) {
  iconv_t cd = iconv_open(to, from);
  if (cd == iconv_t(-1)) {
    return absl::UnavailableError(absl::StrCat("iconv cannot convert from ", from, " to ", to));
  }
  std::string out;
  std::string in(bytes);
  char* in_ptr = in.data();
  size_t in_left = in.size();
  char buffer[4096];
  absl::Status status;
  while (in_left > 0) {
    char* out_ptr = buffer;
    size_t out_left = sizeof(buffer);
    size_t r = iconv(cd, &in_ptr, &in_left, &out_ptr, &out_left);
    out.append(buffer, out_ptr - buffer);
    if (r != size_t(-1) || errno == E2BIG) continue;
    if (!substitute) {
      status = absl::InvalidArgumentError(absl::StrCat(
          "neither UTF-8 nor ", from, ": bad byte sequence at byte ", in_ptr - in.data()));
      break;
    }
    // EILSEQ (no code, or not UTF-8) or EINVAL (cut short at the end): one '?' for the
    // character, and on after it.
    out.push_back('?');
    size_t skip = std::min(in_left, Utf8SequenceLength(static_cast<unsigned char>(*in_ptr)));
    in_ptr += skip;
    in_left -= skip;
  }
  iconv_close(cd);
  if (!status.ok()) return status;
  return out;
}

Collection ParseUtf8(absl::string_view text, const std::string& name, CollectionFormat format) {
  Collection collection;
  Sink sink(name, &collection);
  std::vector<TextLine> lines = SplitLines(text);
  if (format == CollectionFormat::kAuto) format = DetectCollectionFormat(text);
  switch (format) {
    case CollectionFormat::kAuto:
    case CollectionFormat::kSfenLines:
      ReadSfenLines(lines, sink);
      break;
    case CollectionFormat::kPractical:
      ReadPractical(lines, sink);
      break;
    case CollectionFormat::kTsv:
      ReadTsv(lines, sink);
      break;
    case CollectionFormat::kKif:
      ReadKif(lines, sink);
      break;
    case CollectionFormat::kCsa:
      ReadCsa(lines, sink);
      break;
  }
  return collection;
}

}  // namespace
}  // namespace collection_internal

using collection_internal::SplitLines;
using collection_internal::TextLine;

std::string EscapeControlCharacters(absl::string_view text) {
  std::string out;
  for (char ch : text) {
    unsigned char c = static_cast<unsigned char>(ch);
    if (c == '\n') {
      out += "\\n";
    } else if (c == '\r') {
      out += "\\r";
    } else if (c == '\t') {
      out += "\\t";
    } else if (c < 0x20 || c == 0x7f) {
      absl::StrAppend(&out, "\\x", absl::Hex(c, absl::kZeroPad2));
    } else {
      out += ch;
    }
  }
  return out;
}

std::string FormatInputError(const InputError& error) {
  return EscapeControlCharacters(absl::StrCat(error.source, ": ", error.message));
}

absl::StatusOr<CollectionFormat> ParseCollectionFormat(absl::string_view name) {
  static constexpr std::pair<absl::string_view, CollectionFormat> kNames[] = {
      {"auto", CollectionFormat::kAuto},
      {"sfen", CollectionFormat::kSfenLines},
      {"practical", CollectionFormat::kPractical},
      {"tsv", CollectionFormat::kTsv},
      {"kif", CollectionFormat::kKif},
      {"csa", CollectionFormat::kCsa}};
  for (const auto& [n, format] : kNames) {
    if (name == n) return format;
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "unknown collection format '", name, "' (want auto, sfen, practical, tsv, kif or csa)"));
}

const char* CollectionFormatName(CollectionFormat format) {
  switch (format) {
    case CollectionFormat::kAuto:
      return "auto";
    case CollectionFormat::kSfenLines:
      return "sfen";
    case CollectionFormat::kPractical:
      return "practical";
    case CollectionFormat::kTsv:
      return "tsv";
    case CollectionFormat::kKif:
      return "kif";
    case CollectionFormat::kCsa:
      return "csa";
  }
  return "?";
}

namespace {

// The format the first line that tells the formats apart shows; none when no line does.
std::optional<CollectionFormat> FormatShownByText(absl::string_view text) {
  using namespace collection_internal;
  for (const TextLine& line : SplitLines(text)) {
    absl::string_view s = absl::StripAsciiWhitespace(line.text);
    if (s.empty() || absl::StartsWith(s, "'")) continue;
    if (IsTsvHeader(s)) return CollectionFormat::kTsv;
    if (IsComment(s)) continue;
    if (absl::StartsWith(s, "position") || absl::StartsWith(s, "sfen ") ||
        absl::StartsWith(s, "startpos")) {
      return CollectionFormat::kSfenLines;
    }
    std::vector<absl::string_view> tokens = absl::StrSplit(s, ' ', absl::SkipWhitespace());
    if (LooksLikeSfenBoard(tokens[0])) {
      return absl::StrContains(s, " moves") ? CollectionFormat::kPractical
                                            : CollectionFormat::kSfenLines;
    }
    if (IsCsaLine(s)) return CollectionFormat::kCsa;
    if (IsKifLine(s)) return CollectionFormat::kKif;
  }
  return std::nullopt;
}

// The format a file's name promises, for a file whose text shows none: its lines are then
// judged, and their errors named, as that format's.
std::optional<CollectionFormat> FormatNamedByPath(const std::string& path) {
  std::string extension = absl::AsciiStrToLower(std::filesystem::path(path).extension().string());
  if (extension == ".kif" || extension == ".kifu" || extension == ".ki2" || extension == ".ki2u") {
    return CollectionFormat::kKif;
  }
  if (extension == ".csa") return CollectionFormat::kCsa;
  return std::nullopt;
}

}  // namespace

CollectionFormat DetectCollectionFormat(absl::string_view text) {
  return FormatShownByText(text).value_or(CollectionFormat::kSfenLines);
}

absl::StatusOr<std::string> DecodeToUtf8(absl::string_view bytes) {
  if (collection_internal::IsValidUtf8(bytes)) {
    absl::ConsumePrefix(&bytes, "\xEF\xBB\xBF");
    return std::string(bytes);
  }
  absl::StatusOr<std::string> text = collection_internal::Iconv(bytes, "CP932", "UTF-8");
  if (!text.ok() && absl::IsUnavailable(text.status())) {
    text = collection_internal::Iconv(bytes, "SHIFT_JIS", "UTF-8");
  }
  return text;
}

absl::StatusOr<std::string> EncodeShiftJis(absl::string_view utf8) {
  absl::StatusOr<std::string> text = collection_internal::Iconv(utf8, "UTF-8", "CP932", true);
  if (!text.ok() && absl::IsUnavailable(text.status())) {
    text = collection_internal::Iconv(utf8, "UTF-8", "SHIFT_JIS", true);
  }
  return text;
}

Collection ParseCollection(absl::string_view text, const std::string& name,
                           CollectionFormat format) {
  absl::StatusOr<std::string> utf8 = DecodeToUtf8(text);
  if (!utf8.ok()) {
    Collection collection;
    collection.errors.push_back({absl::StrCat(name, ":1"), std::string(utf8.status().message())});
    return collection;
  }
  return collection_internal::ParseUtf8(*utf8, name, format);
}

absl::StatusOr<Collection> ReadCollection(const std::string& path, CollectionFormat format) {
  // "-" is standard input (`grep ... | tsume batch -`), as for `tsume report -`.
  const bool from_stdin = path == kStdinPath;
  // The file's name as errors and sources give it: one line whatever the name holds.
  const std::string name = from_stdin ? std::string(kStdinName) : EscapeControlCharacters(path);
  std::error_code error;
  if (!from_stdin && std::filesystem::is_directory(path, error)) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": a directory, not a file of problems"));
  }
  std::ifstream file;
  if (!from_stdin) {
    file.open(path, std::ios::binary);
    if (!file) return absl::NotFoundError(absl::StrCat(name, ": cannot open"));
  }
  std::istream& in = from_stdin ? std::cin : file;
  std::string bytes;
  try {  // the stream's buffer throws on a failed read, whatever the stream's exception mask
    bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
  } catch (const std::ios_base::failure&) {
    return absl::DataLossError(absl::StrCat(name, ": cannot read"));
  }
  if (in.bad()) return absl::DataLossError(absl::StrCat(name, ": cannot read"));
  absl::StatusOr<std::string> utf8 = DecodeToUtf8(bytes);
  if (!utf8.ok()) {
    return absl::InvalidArgumentError(absl::StrCat(name, ": ", utf8.status().message()));
  }
  if (format == CollectionFormat::kAuto) {
    format = FormatShownByText(*utf8).value_or(
        FormatNamedByPath(path).value_or(CollectionFormat::kSfenLines));
  }
  Collection collection = collection_internal::ParseUtf8(*utf8, name, format);
  // A file with nothing in it to solve is a mistake to report, not a run of no problems.
  if (collection.problems.empty() && collection.errors.empty()) {
    collection.errors.push_back({name, absl::StripAsciiWhitespace(*utf8).empty()
                                           ? std::string("empty file")
                                           : absl::StrCat("no problems in the file (read as ",
                                                          CollectionFormatName(format), ")")});
  }
  // Nor is a file that is no collection at all (a README or a licence caught by a wildcard)
  // worth an error per line: one says so, with the first.
  constexpr size_t kErrorsListedWithoutProblems = 3;
  if (collection.problems.empty() && collection.errors.size() > kErrorsListedWithoutProblems) {
    const InputError& first = collection.errors.front();
    absl::string_view line = first.source;
    std::string where =
        absl::ConsumePrefix(&line, name + ":") ? absl::StrCat("at line ", line) : first.source;
    collection.errors = {
        {name, absl::StrCat("no problems in the file (read as ", CollectionFormatName(format),
                            "): ", collection.errors.size(), " errors, the first ", where, ": ",
                            first.message)}};
  }
  return collection;
}

}  // namespace tsume
