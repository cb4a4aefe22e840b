// Problem collections: readers for SFEN lists, the shared "practical" line format, TSV tables,
// and KIF / CSA problem files. Every position read is checked with Position::FromSfen; a bad
// line becomes an InputError (naming file and line) and reading goes on with the next one.
#ifndef TSUME_PROBLEMS_COLLECTION_H_
#define TSUME_PROBLEMS_COLLECTION_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"

namespace tsume {

// The most plies a stated length or ply count may have (the longest known problem has 1525):
// a larger number is an input error, not a length to compute with.
constexpr int kMaxStatedPlies = 100000;

struct Problem {
  std::string id;      // from an id column, else "<file basename>:<line>"
  std::string source;  // "path:line"
  std::string sfen;    // 4-field SFEN (board side hand movenumber) of the problem position
  std::optional<int> expected_length;  // stated mate length in plies
  bool expected_mate = false;          // stated: a mate exists (set with expected_length, or MATE)
  bool expected_nomate = false;        // stated: no mate at all
  std::optional<int> nomate_within;    // stated: no mate within N plies
  std::vector<std::string> solution_usi;  // stated line, if any (checked to be legal moves)
  // The stated variations (KIF 変化), each as its whole line from the problem position: the
  // line it branches off up to `ply` - 1, then its own moves (checked to be legal).
  struct Variation {
    int ply = 0;  // 1-based: its first move replaces that ply of the line it branches off
    std::vector<std::string> usi;
  };
  std::vector<Variation> variations;
  std::string category, notes;  // when the format has them
};

struct InputError {
  std::string source;   // "path:line"
  std::string message;  // the reason
};
// `text` with its control characters written as escapes (\n, \x1b): a file name or argument
// quoted in an error keeps the error on one line.
std::string EscapeControlCharacters(absl::string_view text);
// "path:line: message", the form used in error output.
std::string FormatInputError(const InputError& error);

struct Collection {
  std::vector<Problem> problems;
  std::vector<InputError> errors;
};

// kSfenLines: one position per line, "<sfen>", "sfen <sfen>", "position sfen|startpos ... [moves
//   ...]" (moves are applied: the problem is the position after them).
// kPractical: "<board> <side> <hand> <ply> moves m1 ... mN", the moves being a mating line.
// kTsv: tab-separated with a header naming the columns (it may start with "# ").
// kKif / kCsa: one problem diagram per file, with an optional move list taken as the solution
//   (a KIF file's in KIF's numbered lines or in KI2's notation).
enum class CollectionFormat { kAuto, kSfenLines, kPractical, kTsv, kKif, kCsa };

// "auto", "sfen", "practical", "tsv", "kif", "csa".
absl::StatusOr<CollectionFormat> ParseCollectionFormat(absl::string_view name);
const char* CollectionFormatName(CollectionFormat format);

// The format a text (already UTF-8) looks like; kSfenLines when nothing else fits.
CollectionFormat DetectCollectionFormat(absl::string_view text);

// Returns UTF-8 text: valid UTF-8 is kept (a byte-order mark dropped), anything else is decoded
// as Shift-JIS (CP932). An error when it is neither.
absl::StatusOr<std::string> DecodeToUtf8(absl::string_view bytes);
// The other way, for writing a .kif file: UTF-8 text as Shift-JIS (CP932, the Windows form
// every KIF reader takes); a character that has no Shift-JIS code, or a byte that is not
// UTF-8, becomes '?'. An error only when the system has no converter.
absl::StatusOr<std::string> EncodeShiftJis(absl::string_view utf8);

// The path that names standard input, and the name its problems' sources then give.
inline constexpr char kStdinPath[] = "-";
inline constexpr char kStdinName[] = "stdin";

// Reads a collection file (kStdinPath: standard input); a bad line becomes an InputError and
// reading goes on. A file that cannot be opened or decoded is an error status naming the path.
absl::StatusOr<Collection> ReadCollection(const std::string& path,
                                          CollectionFormat format = CollectionFormat::kAuto);

// Same, from text already in memory (`name` is used in sources and ids). Text that is not UTF-8
// is decoded as Shift-JIS; when that fails too, the result is a single InputError.
Collection ParseCollection(absl::string_view text, const std::string& name,
                           CollectionFormat format);

}  // namespace tsume

#endif  // TSUME_PROBLEMS_COLLECTION_H_
