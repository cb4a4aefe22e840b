// Basic shogi types: colours, squares, pieces, hands and moves.
#ifndef TSUME_CORE_TYPES_H_
#define TSUME_CORE_TYPES_H_

#include <cstdint>

namespace tsume {

enum Color : int { kBlack = 0, kWhite = 1 };  // Black (sente) moves first, toward rank 1.
constexpr Color operator~(Color c) { return Color(c ^ 1); }

// Squares are numbered file-major: index = file * 9 + rank, with file 0 = the "1" file (right
// side of the board from Black's view) and rank 0 = rank "一" (Black's far side). SFEN square
// "5e" is file 4, rank 4.
using Square = int;
constexpr int kNumSquares = 81;
constexpr Square kNoSquare = 81;
constexpr int FileOf(Square sq) { return sq / 9; }
constexpr int RankOf(Square sq) { return sq % 9; }
constexpr Square MakeSquare(int file, int rank) { return file * 9 + rank; }
constexpr bool OnBoard(int file, int rank) {
  return file >= 0 && file < 9 && rank >= 0 && rank < 9;
}
// Rank counted from `c`'s own side: 0 is `c`'s last rank (the far side, promotion zone start).
constexpr int RelativeRank(Color c, Square sq) { return c == kBlack ? RankOf(sq) : 8 - RankOf(sq); }
constexpr bool InPromotionZone(Color c, Square sq) { return RelativeRank(c, sq) < 3; }

enum PieceType : int {
  kNoPieceType = 0,
  kPawn = 1,
  kLance,
  kKnight,
  kSilver,
  kBishop,
  kRook,
  kGold,
  kKing,
  kProPawn = 9,
  kProLance,
  kProKnight,
  kProSilver,
  kHorse,
  kDragon,
  kNumPieceTypes = 15,
};
constexpr int kPromotedBit = 8;
// Piece types that can be held in hand: pawn..gold.
constexpr int kNumHandTypes = 7;
constexpr PieceType kHandTypes[kNumHandTypes] = {kPawn,   kLance, kKnight, kSilver,
                                                 kBishop, kRook,  kGold};

constexpr bool CanPromote(PieceType pt) { return pt >= kPawn && pt <= kRook; }
constexpr bool IsPromoted(PieceType pt) { return pt > kKing; }
constexpr PieceType Promote(PieceType pt) { return PieceType(pt | kPromotedBit); }
// The piece type as it goes into a hand when captured.
constexpr PieceType Unpromote(PieceType pt) {
  return pt > kKing ? PieceType(pt & ~kPromotedBit) : pt;
}
// Moves like a gold: gold and the promoted minor pieces.
constexpr bool MovesLikeGold(PieceType pt) {
  return pt == kGold || (pt >= kProPawn && pt <= kProSilver);
}

// A piece on the board: type plus colour bit 4. 0 is an empty square.
enum Piece : int { kNoPiece = 0, kPieceNB = 32 };
constexpr int kWhiteBit = 16;
constexpr Piece MakePiece(Color c, PieceType pt) { return Piece(pt | (c << 4)); }
constexpr PieceType TypeOf(Piece p) { return PieceType(p & 15); }
constexpr Color ColorOf(Piece p) { return Color(p >> 4); }

// A piece must keep at least one legal move: a pawn or lance may not stand on its last rank,
// a knight on its last two.
constexpr bool IsDeadSquare(Color c, PieceType pt, Square sq) {
  int r = RelativeRank(c, sq);
  return ((pt == kPawn || pt == kLance) && r == 0) || (pt == kKnight && r <= 1);
}

// A hand packed into one integer, each count in its own field with a guard bit above it so
// that "hand a holds at least hand b of every kind" is one subtraction and a mask.
class Hand {
 public:
  constexpr Hand() = default;
  constexpr explicit Hand(uint32_t bits) : bits_(bits) {}

  constexpr int Count(PieceType pt) const { return (bits_ >> kShift[pt]) & kMask[pt]; }
  constexpr bool Has(PieceType pt) const { return (bits_ & (kMask[pt] << kShift[pt])) != 0; }
  constexpr void Add(PieceType pt, int n = 1) { bits_ += uint32_t(n) << kShift[pt]; }
  constexpr void Remove(PieceType pt, int n = 1) { bits_ -= uint32_t(n) << kShift[pt]; }
  constexpr void Set(PieceType pt, int n) {
    bits_ = (bits_ & ~(kMask[pt] << kShift[pt])) | (uint32_t(n) << kShift[pt]);
  }
  constexpr bool Empty() const { return bits_ == 0; }
  constexpr int Total() const {
    int n = 0;
    for (PieceType pt : kHandTypes) n += Count(pt);
    return n;
  }
  // True when this hand holds at least as many of every kind as `other`.
  constexpr bool Dominates(Hand other) const { return ((bits_ - other.bits_) & kGuards) == 0; }
  constexpr uint32_t bits() const { return bits_; }
  constexpr bool operator==(const Hand&) const = default;

  // Per-kind minimum and maximum (for proof and disproof pieces).
  static constexpr Hand Min(Hand a, Hand b) {
    Hand r;
    for (PieceType pt : kHandTypes)
      r.Set(pt, a.Count(pt) < b.Count(pt) ? a.Count(pt) : b.Count(pt));
    return r;
  }
  static constexpr Hand Max(Hand a, Hand b) {
    Hand r;
    for (PieceType pt : kHandTypes)
      r.Set(pt, a.Count(pt) > b.Count(pt) ? a.Count(pt) : b.Count(pt));
    return r;
  }

  // The most pieces of each kind a complete set has.
  static constexpr int kMaxCount[8] = {0, 18, 4, 4, 4, 2, 2, 4};
  // The guard bit above each field: Dominates is ((a - b) & kGuards) == 0 (the table's Probe
  // compares eight hands at once this way).
  static constexpr uint32_t kGuards =
      (1u << 5) | (1u << 9) | (1u << 13) | (1u << 17) | (1u << 21) | (1u << 24) | (1u << 27);

 private:
  // Fields: pawn 5 bits, lance/knight/silver/gold 3 bits, bishop/rook 2 bits, each + guard bit.
  static constexpr int kShift[8] = {0, 0, 6, 10, 14, 22, 25, 18};
  static constexpr uint32_t kMask[8] = {0, 31, 7, 7, 7, 3, 3, 7};
  uint32_t bits_ = 0;
};

// A move in 32 bits: to (7 bits), from (7 bits; for a drop, the dropped piece type), promotion
// flag, drop flag, and the type of the moving piece before the move in bits 16..19.
class Move {
 public:
  constexpr Move() = default;
  static constexpr Move Normal(Square from, Square to, PieceType moved, bool promote) {
    return Move(uint32_t(to) | uint32_t(from) << 7 | uint32_t(promote) << 14 |
                uint32_t(moved) << 16);
  }
  static constexpr Move Drop(PieceType pt, Square to) {
    return Move(uint32_t(to) | uint32_t(pt) << 7 | 1u << 15 | uint32_t(pt) << 16);
  }
  static constexpr Move None() { return Move(0); }

  constexpr Square to() const { return bits_ & 127; }
  constexpr Square from() const { return (bits_ >> 7) & 127; }
  constexpr bool is_drop() const { return bits_ & (1u << 15); }
  constexpr bool is_promotion() const { return bits_ & (1u << 14); }
  constexpr PieceType dropped_type() const { return PieceType((bits_ >> 7) & 127); }
  constexpr PieceType moved_type() const { return PieceType((bits_ >> 16) & 15); }
  // The type standing on `to` after the move.
  constexpr PieceType after_type() const {
    return is_promotion() ? Promote(moved_type()) : moved_type();
  }
  constexpr bool is_none() const { return bits_ == 0; }
  constexpr uint32_t bits() const { return bits_; }
  constexpr bool operator==(const Move&) const = default;

 private:
  constexpr explicit Move(uint32_t bits) : bits_(bits) {}
  uint32_t bits_ = 0;
};

}  // namespace tsume

#endif  // TSUME_CORE_TYPES_H_
