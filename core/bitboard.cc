#include "core/bitboard.h"

#include <mutex>

namespace tsume {
namespace bb_internal {

alignas(64) Bitboard rays[kNumSquares + 1][kNumDirections];
alignas(64) Bitboard step_attacks[2][kNumSquares][kStepTypes];
Bitboard between[kNumSquares][kNumSquares];
Bitboard line[kNumSquares][kNumSquares];
Bitboard file_mask[9];
Bitboard rank_mask[9];
Bitboard promotion_zone[2];
#ifdef __BMI2__
alignas(64) LineMasks line_masks[kNumSquares][kNumLineKinds];
alignas(64) uint16_t line_reach[9][512];
#endif

namespace {

// (file delta, rank delta) per direction; rank delta -1 is toward Black's far side.
constexpr int kDeltas[kNumDirections][2] = {{0, 1},  {1, 0},  {1, 1},   {1, -1},
                                            {0, -1}, {-1, 0}, {-1, -1}, {-1, 1}};

Bitboard Steps(Square sq, std::initializer_list<std::pair<int, int>> deltas) {
  Bitboard b;
  for (auto [df, dr] : deltas) {
    int f = FileOf(sq) + df, r = RankOf(sq) + dr;
    if (OnBoard(f, r)) b.Set(MakeSquare(f, r));
  }
  return b;
}

void Init() {
  for (int i = 0; i < 9; ++i) {
    for (int j = 0; j < 9; ++j) {
      file_mask[i].Set(MakeSquare(i, j));
      rank_mask[i].Set(MakeSquare(j, i));
    }
  }
  promotion_zone[kBlack] = rank_mask[0] | rank_mask[1] | rank_mask[2];
  promotion_zone[kWhite] = rank_mask[6] | rank_mask[7] | rank_mask[8];

  for (Square sq = 0; sq < kNumSquares; ++sq) {
    for (int d = 0; d < kNumDirections; ++d) {
      int f = FileOf(sq) + kDeltas[d][0], r = RankOf(sq) + kDeltas[d][1];
      for (; OnBoard(f, r); f += kDeltas[d][0], r += kDeltas[d][1])
        rays[sq][d].Set(MakeSquare(f, r));
    }
  }
  for (Square sq = 0; sq < kNumSquares; ++sq) {
    for (int c = 0; c < 2; ++c) {
      // Forward is rank -1 for Black, +1 for White.
      int fw = c == kBlack ? -1 : 1;
      auto t = [&](PieceType pt) -> Bitboard& { return step_attacks[c][sq][pt]; };
      t(kPawn) = Steps(sq, {{0, fw}});
      t(kKnight) = Steps(sq, {{-1, 2 * fw}, {1, 2 * fw}});
      t(kSilver) = Steps(sq, {{-1, fw}, {0, fw}, {1, fw}, {-1, -fw}, {1, -fw}});
      t(kGold) = Steps(sq, {{-1, fw}, {0, fw}, {1, fw}, {-1, 0}, {1, 0}, {0, -fw}});
      t(kKing) = Steps(sq, {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}});
      t(kProPawn) = t(kProLance) = t(kProKnight) = t(kProSilver) = t(kGold);
      // Sliders' step parts: the diagonal/orthogonal neighbours a horse/dragon adds.
      t(kHorse) = Steps(sq, {{0, -1}, {-1, 0}, {1, 0}, {0, 1}});
      t(kDragon) = Steps(sq, {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}});
      // Full empty-board reach for sliders, used by callers that want pseudo patterns.
      t(kLance) = rays[sq][c == kBlack ? kNorth : kSouth];
      t(kBishop) =
          rays[sq][kSouthWest] | rays[sq][kNorthWest] | rays[sq][kNorthEast] | rays[sq][kSouthEast];
      t(kRook) = rays[sq][kSouth] | rays[sq][kWest] | rays[sq][kNorth] | rays[sq][kEast];
    }
  }
#ifdef __BMI2__
  for (int pos = 0; pos < 9; ++pos) {
    for (int occ = 0; occ < 512; ++occ) {
      uint16_t reach = 0;
      for (int i = pos + 1; i < 9; ++i) {
        reach |= 1 << i;
        if (occ >> i & 1) break;
      }
      for (int i = pos - 1; i >= 0; --i) {
        reach |= 1 << i;
        if (occ >> i & 1) break;
      }
      line_reach[pos][occ] = reach;
    }
  }
  // Each line as the two opposite rays through the square: the directions toward higher
  // indices (South, West, SouthWest, NorthWest) paired with their opposites.
  constexpr int kLineDirection[kNumLineKinds] = {kSouth, kWest, kSouthWest, kNorthWest};
  for (Square sq = 0; sq < kNumSquares; ++sq) {
    for (int kind = 0; kind < kNumLineKinds; ++kind) {
      int d = kLineDirection[kind];
      Bitboard line = rays[sq][d] | rays[sq][d + kNorth] | SquareBB(sq);
      LineMasks& l = line_masks[sq][kind];
      l.lo = uint64_t(line.bits());
      l.hi = uint64_t(line.bits() >> 64);
      l.lo_count = std::popcount(l.lo);
      l.reach = line_reach[(line & Bitboard((Bitboard::Bits(1) << sq) - 1)).Count()];
    }
  }
#endif
  for (Square a = 0; a < kNumSquares; ++a) {
    for (int d = 0; d < kNumDirections; ++d) {
      Bitboard ray = rays[a][d];
      for (Square b : ray) {
        between[a][b] = ray.AndNot(rays[b][d]) & ~SquareBB(b);
        int opposite = d < kNorth ? d + kNorth : d - kNorth;
        line[a][b] = rays[a][d] | rays[a][opposite] | SquareBB(a);
      }
    }
  }
}

}  // namespace
}  // namespace bb_internal

void InitBitboards() {
  static std::once_flag once;
  std::call_once(once, bb_internal::Init);
}

}  // namespace tsume
