// Pieces shared by the collection readers; not part of the public API.
#ifndef TSUME_PROBLEMS_READER_INTERNAL_H_
#define TSUME_PROBLEMS_READER_INTERNAL_H_

#include <string>
#include <utility>
#include <vector>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/types.h"
#include "problems/collection.h"

namespace tsume::collection_internal {

struct TextLine {
  int number;              // 1-based
  absl::string_view text;  // without the line ending
};
std::vector<TextLine> SplitLines(absl::string_view text);

// Collects problems and errors for one input, naming them "<name>:<line>".
class Sink {
 public:
  Sink(const std::string& name, Collection* out);
  std::string Source(int line) const;
  std::string DefaultId(int line) const;
  void Error(int line, absl::string_view message);
  void Add(Problem problem) { out_->problems.push_back(std::move(problem)); }

 private:
  std::string name_, basename_;
  Collection* out_;
};

// Checks a 3- or 4-field SFEN with Position::FromSfen; returns it with single spaces and a move
// number (1 when absent).
absl::StatusOr<std::string> CheckedSfen(absl::string_view sfen);
// Checks that `moves` can be played one after another from `sfen`; the error names the move.
absl::Status CheckSolution(absl::string_view sfen, const std::vector<std::string>& moves);

// A diagram being assembled by the KIF and CSA readers.
struct BoardSetup {
  PieceType type[kNumSquares] = {};  // kNoPieceType for an empty square
  Color color[kNumSquares] = {};
  int hand[2][8] = {};
  // Hand said to hold every piece not on the board or in the other hand (KIF 残り全部, CSA AL).
  bool rest_to[2] = {false, false};
  Color side = kBlack;

  void Put(Square sq, Color c, PieceType pt) {
    type[sq] = pt;
    color[sq] = c;
  }
  // The position as a checked SFEN with move number 1.
  absl::StatusOr<std::string> ToSfen() const;
};

// Readers for the diagram formats; each adds at most one problem.
void ReadKif(const std::vector<TextLine>& lines, Sink& sink);
void ReadCsa(const std::vector<TextLine>& lines, Sink& sink);

}  // namespace tsume::collection_internal

#endif  // TSUME_PROBLEMS_READER_INTERNAL_H_
