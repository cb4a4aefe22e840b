// BoardSetup: turns a diagram read from KIF or CSA into a checked SFEN.
#include <cstring>
#include <string>

#include "absl/strings/str_cat.h"
#include "problems/reader_internal.h"

namespace tsume::collection_internal {
namespace {

char Letter(PieceType pt, Color c) {
  static constexpr char kLetters[] = " PLNSBRGK";
  char ch = kLetters[Unpromote(pt)];
  return c == kBlack ? ch : char(ch - 'A' + 'a');
}

const char* KindName(PieceType pt) {
  static constexpr const char* kNames[] = {"",       "pawn", "lance", "knight", "silver",
                                           "bishop", "rook", "gold",  "king"};
  return kNames[pt];
}

}  // namespace

absl::StatusOr<std::string> BoardSetup::ToSfen() const {
  if (rest_to[kBlack] && rest_to[kWhite]) {
    return absl::InvalidArgumentError("both hands are said to hold all remaining pieces");
  }
  int hands[2][8];
  std::memcpy(hands, hand, sizeof(hands));
  for (Color c : {kBlack, kWhite}) {
    if (!rest_to[c]) continue;
    int used[kNumPieceTypes] = {};
    for (Square sq = 0; sq < kNumSquares; ++sq) {
      if (type[sq] != kNoPieceType) ++used[Unpromote(type[sq])];
    }
    for (PieceType pt : kHandTypes) {
      int left = Hand::kMaxCount[pt] - used[pt] - hand[kBlack][pt] - hand[kWhite][pt];
      if (left < 0) {
        return absl::InvalidArgumentError(absl::StrCat("more than a full set of ", KindName(pt),
                                                       "s (", Hand::kMaxCount[pt], ")"));
      }
      hands[c][pt] += left;
    }
  }

  std::string sfen;
  for (int rank = 0; rank < 9; ++rank) {
    int empty = 0;
    for (int file = 8; file >= 0; --file) {
      Square sq = MakeSquare(file, rank);
      if (type[sq] == kNoPieceType) {
        ++empty;
        continue;
      }
      if (empty) absl::StrAppend(&sfen, empty);
      empty = 0;
      if (IsPromoted(type[sq])) sfen += '+';
      sfen += Letter(type[sq], color[sq]);
    }
    if (empty) absl::StrAppend(&sfen, empty);
    if (rank < 8) sfen += '/';
  }
  sfen += side == kBlack ? " b " : " w ";
  std::string hand_text;
  static constexpr PieceType kOrder[] = {kRook, kBishop, kGold, kSilver, kKnight, kLance, kPawn};
  for (Color c : {kBlack, kWhite}) {
    for (PieceType pt : kOrder) {
      int n = hands[c][pt];
      if (n == 0) continue;
      if (n > 1) absl::StrAppend(&hand_text, n);
      hand_text += Letter(pt, c);
    }
  }
  absl::StrAppend(&sfen, hand_text.empty() ? "-" : hand_text, " 1");
  return CheckedSfen(sfen);
}

}  // namespace tsume::collection_internal
