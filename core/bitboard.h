// 81-square bitboards and piece attack tables.
//
// A bitboard is one unsigned 128-bit integer with bit `sq` for square `sq` (see types.h for the
// numbering), so shifts by +-1 move along a file and +-9 across files. Sliding attacks use ray
// tables and the nearest blocker found with one bit scan per direction, or for the bishop and
// the rook, a line's occupancy gathered by PEXT and its reach spread back by PDEP.
#ifndef TSUME_CORE_BITBOARD_H_
#define TSUME_CORE_BITBOARD_H_

#include <array>
#include <bit>
#include <cstdint>

#ifdef __BMI2__
#include <immintrin.h>
#endif
// Bishop and rook attacks by bit extraction (PEXT, PDEP) where BMI2 is present, unless the
// build opts out with TSUME_NO_PEXT (CMake does where the host microcodes PEXT: AMD before
// Zen 3), and ray by ray otherwise.
#if defined(__BMI2__) && !defined(TSUME_NO_PEXT)
#define TSUME_PEXT_SLIDERS 1
#endif

#include "core/types.h"

namespace tsume {

class Bitboard {
 public:
  using Bits = unsigned __int128;
  constexpr Bitboard() = default;
  constexpr explicit Bitboard(Bits b) : b_(b) {}
  static constexpr Bitboard FromSquare(Square sq) { return Bitboard(Bits(1) << sq); }
  static constexpr Bitboard All() { return Bitboard((Bits(1) << kNumSquares) - 1); }

  constexpr Bits bits() const { return b_; }
  constexpr bool Any() const { return b_ != 0; }
  constexpr bool None() const { return b_ == 0; }
  constexpr bool Test(Square sq) const { return (b_ >> sq) & 1; }
  constexpr void Set(Square sq) { b_ |= Bits(1) << sq; }
  constexpr void Clear(Square sq) { b_ &= ~(Bits(1) << sq); }
  constexpr void Toggle(Square sq) { b_ ^= Bits(1) << sq; }
  constexpr bool MoreThanOne() const { return (b_ & (b_ - 1)) != 0; }
  int Count() const { return std::popcount(uint64_t(b_)) + std::popcount(uint64_t(b_ >> 64)); }
  // Lowest and highest set square; undefined on an empty board.
  Square Lsb() const {
    uint64_t lo = uint64_t(b_);
    return lo ? std::countr_zero(lo) : 64 + std::countr_zero(uint64_t(b_ >> 64));
  }
  Square Msb() const {
    uint64_t hi = uint64_t(b_ >> 64);
    return hi ? 127 - std::countl_zero(hi) : 63 - std::countl_zero(uint64_t(b_));
  }
  Square PopLsb() {
    Square sq = Lsb();
    b_ &= b_ - 1;
    return sq;
  }

  constexpr Bitboard operator&(Bitboard o) const { return Bitboard(b_ & o.b_); }
  constexpr Bitboard operator|(Bitboard o) const { return Bitboard(b_ | o.b_); }
  constexpr Bitboard operator^(Bitboard o) const { return Bitboard(b_ ^ o.b_); }
  constexpr Bitboard operator~() const { return Bitboard(~b_ & All().b_); }
  constexpr Bitboard& operator&=(Bitboard o) {
    b_ &= o.b_;
    return *this;
  }
  constexpr Bitboard& operator|=(Bitboard o) {
    b_ |= o.b_;
    return *this;
  }
  constexpr Bitboard& operator^=(Bitboard o) {
    b_ ^= o.b_;
    return *this;
  }
  // a & ~b without the board-mask step.
  constexpr Bitboard AndNot(Bitboard o) const { return Bitboard(b_ & ~o.b_); }
  constexpr bool operator==(const Bitboard&) const = default;

  // Iterate: for (Square sq : bb) ...
  class Iterator {
   public:
    explicit Iterator(Bits b) : b_(b) {}
    Square operator*() const { return Bitboard(b_).Lsb(); }
    Iterator& operator++() {
      b_ &= b_ - 1;
      return *this;
    }
    bool operator!=(const Iterator& o) const { return b_ != o.b_; }

   private:
    Bits b_;
  };
  Iterator begin() const { return Iterator(b_); }
  Iterator end() const { return Iterator(0); }

 private:
  Bits b_ = 0;
};

// Calls f(sq) for every square of b, lowest first. Faster than range-for over a Bitboard in hot
// loops: each 64-bit half is scanned on its own, without 128-bit arithmetic per step.
template <typename F>
inline void ForEachSquare(Bitboard b, F&& f) {
  for (uint64_t lo = uint64_t(b.bits()); lo != 0; lo &= lo - 1) f(Square(std::countr_zero(lo)));
  for (uint64_t hi = uint64_t(b.bits() >> 64); hi != 0; hi &= hi - 1) {
    f(Square(64 + std::countr_zero(hi)));
  }
}

// One-time table initialisation; safe to call more than once and from several threads.
void InitBitboards();

namespace bb_internal {
// Directions, as index deltas; the first four increase the index (nearest blocker = Lsb).
enum Direction {
  kSouth,
  kWest,
  kSouthWest,
  kNorthWest,
  kNorth,
  kEast,
  kNorthEast,
  kSouthEast,
  kNumDirections
};
// Indexed by square first, so that the entries a test reads for one square share cache lines:
// its eight rays fill two, one colour's step attacks of every type four.
constexpr int kStepTypes = 16;  // kNumPieceTypes rounded up to a power of two
extern Bitboard rays[kNumSquares + 1][kNumDirections];
extern Bitboard step_attacks[2][kNumSquares][kStepTypes];  // non-sliding part per piece
extern Bitboard between[kNumSquares][kNumSquares];
extern Bitboard line[kNumSquares][kNumSquares];
extern Bitboard file_mask[9];
extern Bitboard rank_mask[9];
extern Bitboard promotion_zone[2];

// The ray from sq in direction dir up to and including the first occupied square, without
// branches or a second table load. Toward higher indices, b ^ (b - 1) keeps every bit up to
// the lowest blocker (all bits when there is none). Toward lower indices the nearest blocker
// is the highest one, and the ray keeps the bits from it upward; square 0 serves as the
// blocker when there is none (it is below every square, so the whole ray is kept).
inline Bitboard RayAttack(int dir, Square sq, Bitboard occupied) {
  using Bits = Bitboard::Bits;
  Bits ray = rays[sq][dir].bits();
  Bits blockers = ray & occupied.bits();
  if (dir < kNorth) return Bitboard(ray & (blockers ^ (blockers - 1)));
  return Bitboard(ray & (~Bits(0) << Bitboard(blockers | 1).Msb()));
}

// The bishop's and the rook's attacks ray by ray: the slider attacks without PEXT.
[[gnu::always_inline]] inline Bitboard BishopRays(Square sq, Bitboard occupied) {
  return RayAttack(kSouthWest, sq, occupied) | RayAttack(kNorthWest, sq, occupied) |
         RayAttack(kNorthEast, sq, occupied) | RayAttack(kSouthEast, sq, occupied);
}
[[gnu::always_inline]] inline Bitboard RookRays(Square sq, Bitboard occupied) {
  return RayAttack(kSouth, sq, occupied) | RayAttack(kWest, sq, occupied) |
         RayAttack(kNorth, sq, occupied) | RayAttack(kEast, sq, occupied);
}

#ifdef __BMI2__
// A line (file, rank or diagonal) through a square, for the slider attacks by bit extraction:
// its squares on the two 64-bit halves of the board, how many lie on the lower half, and the
// reach table of the square's place among them (line_reach[place], lowest index first). The
// table's address rather than the place: no multiply per line, and 32 bytes a line index
// with one shift (寿 300k nodes: 1,000.89M -> 993.39M instructions).
struct LineMasks {
  uint64_t lo, hi;
  const uint16_t* reach;
  uint32_t lo_count;
};
enum LineKind { kFileLine, kRankLine, kDiagonal, kAntiDiagonal, kNumLineKinds };
extern LineMasks line_masks[kNumSquares][kNumLineKinds];
// The squares a slider reaches along a line of up to 9 squares from position pos, given the
// line's occupancy, both as bit i for the i-th square of the line (the slider's own bit ignored).
extern uint16_t line_reach[9][512];

// One line's attacks: the line's occupancy gathered into 9 bits (PEXT), its reach looked up and
// spread back onto the board (PDEP); bits of the reach beyond a short line's end are dropped.
inline Bitboard LineAttack(const LineMasks& l, Bitboard occupied) {
  using Bits = Bitboard::Bits;
  uint64_t lo = uint64_t(occupied.bits()), hi = uint64_t(occupied.bits() >> 64);
  uint32_t index = uint32_t(_pext_u64(lo, l.lo) | _pext_u64(hi, l.hi) << l.lo_count);
  uint64_t reach = l.reach[index];
  return Bitboard(Bits(_pdep_u64(reach, l.lo)) | Bits(_pdep_u64(reach >> l.lo_count, l.hi)) << 64);
}
[[gnu::always_inline]] inline Bitboard BishopLines(Square sq, Bitboard occupied) {
  return LineAttack(line_masks[sq][kDiagonal], occupied) |
         LineAttack(line_masks[sq][kAntiDiagonal], occupied);
}
[[gnu::always_inline]] inline Bitboard RookLines(Square sq, Bitboard occupied) {
  return LineAttack(line_masks[sq][kFileLine], occupied) |
         LineAttack(line_masks[sq][kRankLine], occupied);
}
#endif

// Single-square boards, kNoSquare's (a bit past the board) included: a load instead of a
// 128-bit variable shift (a shift, a double shift and two conditional moves).
inline constexpr auto square_bb = [] {
  std::array<Bitboard, kNumSquares + 1> t{};
  for (Square sq = 0; sq <= kNumSquares; ++sq) t[sq] = Bitboard::FromSquare(sq);
  return t;
}();
}  // namespace bb_internal

inline Bitboard SquareBB(Square sq) { return bb_internal::square_bb[sq]; }
inline Bitboard FileBB(int file) { return bb_internal::file_mask[file]; }
inline Bitboard RankBB(int rank) { return bb_internal::rank_mask[rank]; }
inline Bitboard PromotionZone(Color c) { return bb_internal::promotion_zone[c]; }
// Squares strictly between a and b when they share a line, else empty.
inline Bitboard Between(Square a, Square b) { return bb_internal::between[a][b]; }
// The whole line through a and b (edge to edge) when they share one, else empty.
inline Bitboard Line(Square a, Square b) { return bb_internal::line[a][b]; }
inline bool Aligned(Square a, Square b, Square c) { return Line(a, b).Test(c); }

inline Bitboard LanceAttacks(Color c, Square sq, Bitboard occupied) {
  using namespace bb_internal;
  return RayAttack(c == kBlack ? kNorth : kSouth, sq, occupied);
}
// A line at a time by bit extraction (about a third of the instructions of four rays), or ray
// by ray where PEXT is slow (TSUME_PEXT_SLIDERS). Always inline: GCC kept them as calls in the
// move generators (寿 300k nodes: 990.61M -> 984.12M instructions).
[[gnu::always_inline]] inline Bitboard BishopAttacks(Square sq, Bitboard occupied) {
  using namespace bb_internal;
#ifdef TSUME_PEXT_SLIDERS
  return BishopLines(sq, occupied);
#else
  return BishopRays(sq, occupied);
#endif
}
[[gnu::always_inline]] inline Bitboard RookAttacks(Square sq, Bitboard occupied) {
  using namespace bb_internal;
#ifdef TSUME_PEXT_SLIDERS
  return RookLines(sq, occupied);
#else
  return RookRays(sq, occupied);
#endif
}
// Attacks of the non-sliding pieces (and the step part of horse and dragon).
inline Bitboard StepAttacks(Color c, PieceType pt, Square sq) {
  return bb_internal::step_attacks[c][sq][pt];
}
inline Bitboard PawnAttacks(Color c, Square sq) { return StepAttacks(c, kPawn, sq); }
inline Bitboard KnightAttacks(Color c, Square sq) { return StepAttacks(c, kKnight, sq); }
inline Bitboard SilverAttacks(Color c, Square sq) { return StepAttacks(c, kSilver, sq); }
inline Bitboard GoldAttacks(Color c, Square sq) { return StepAttacks(c, kGold, sq); }
inline Bitboard KingAttacks(Square sq) { return StepAttacks(kBlack, kKing, sq); }
// The squares on a line (rank, file or diagonal) through sq, sq itself not included: the empty-
// board reach of a rook and a bishop, from the small step table.
inline Bitboard LinesThrough(Square sq) {
  return StepAttacks(kBlack, kRook, sq) | StepAttacks(kBlack, kBishop, sq);
}

// Attacks of any piece of colour c and type pt standing on sq.
inline Bitboard Attacks(Color c, PieceType pt, Square sq, Bitboard occupied) {
  switch (pt) {
    case kLance:
      return LanceAttacks(c, sq, occupied);
    case kBishop:
      return BishopAttacks(sq, occupied);
    case kRook:
      return RookAttacks(sq, occupied);
    case kHorse:
      return BishopAttacks(sq, occupied) | KingAttacks(sq);
    case kDragon:
      return RookAttacks(sq, occupied) | KingAttacks(sq);
    default:
      return StepAttacks(c, pt, sq);
  }
}

}  // namespace tsume

#endif  // TSUME_CORE_BITBOARD_H_
