// Bitboard primitives and attack tables, checked against square-by-square reference code.
#include "core/bitboard.h"

#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

#include "core/types.h"

namespace tsume {
namespace {

class BitboardTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite() { InitBitboards(); }
};

// (file delta, rank delta) steps; rank -1 is toward Black's far side (rank "a").
const std::vector<std::pair<int, int>> kAllDirections = {{0, 1},  {1, 0},  {1, 1},   {1, -1},
                                                         {0, -1}, {-1, 0}, {-1, -1}, {-1, 1}};

std::string Name(Square sq) { return std::to_string(FileOf(sq) + 1) + char('a' + RankOf(sq)); }

Bitboard Make(std::initializer_list<Square> squares) {
  Bitboard b;
  for (Square sq : squares) b.Set(sq);
  return b;
}

// Slides from sq one step at a time, stopping on (and including) the first occupied square.
Bitboard NaiveSlide(Square sq, int df, int dr, Bitboard occupied, int max_steps = 8) {
  Bitboard b;
  int f = FileOf(sq) + df, r = RankOf(sq) + dr;
  for (int step = 0; step < max_steps && OnBoard(f, r); ++step, f += df, r += dr) {
    b.Set(MakeSquare(f, r));
    if (occupied.Test(MakeSquare(f, r))) break;
  }
  return b;
}

// Reference attacks for every piece type, straight from the movement rules.
Bitboard NaiveAttacks(Color c, PieceType pt, Square sq, Bitboard occupied) {
  int fw = c == kBlack ? -1 : 1;  // forward rank delta
  std::vector<std::pair<int, int>> steps, slides;
  const std::vector<std::pair<int, int>> gold = {{-1, fw}, {0, fw}, {1, fw},
                                                 {-1, 0},  {1, 0},  {0, -fw}};
  const std::vector<std::pair<int, int>> diagonal = {{1, 1}, {1, -1}, {-1, 1}, {-1, -1}};
  const std::vector<std::pair<int, int>> orthogonal = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
  switch (pt) {
    case kPawn:
      steps = {{0, fw}};
      break;
    case kLance:
      slides = {{0, fw}};
      break;
    case kKnight:
      steps = {{-1, 2 * fw}, {1, 2 * fw}};
      break;
    case kSilver:
      steps = {{-1, fw}, {0, fw}, {1, fw}, {-1, -fw}, {1, -fw}};
      break;
    case kGold:
    case kProPawn:
    case kProLance:
    case kProKnight:
    case kProSilver:
      steps = gold;
      break;
    case kKing:
      steps = kAllDirections;
      break;
    case kBishop:
      slides = diagonal;
      break;
    case kRook:
      slides = orthogonal;
      break;
    case kHorse:
      slides = diagonal;
      steps = orthogonal;
      break;
    case kDragon:
      slides = orthogonal;
      steps = diagonal;
      break;
    default:
      break;
  }
  Bitboard b;
  for (auto [df, dr] : steps) b |= NaiveSlide(sq, df, dr, occupied, 1);
  for (auto [df, dr] : slides) b |= NaiveSlide(sq, df, dr, occupied);
  return b;
}

// A random occupancy with roughly `density` of the squares filled.
Bitboard RandomOccupancy(std::mt19937_64& rng, double density) {
  std::bernoulli_distribution filled(density);
  Bitboard b;
  for (Square sq = 0; sq < kNumSquares; ++sq) {
    if (filled(rng)) b.Set(sq);
  }
  return b;
}

TEST_F(BitboardTest, SquareNumbering) {
  EXPECT_EQ(MakeSquare(4, 4), 40);  // "5e"
  EXPECT_EQ(Name(MakeSquare(0, 0)), "1a");
  EXPECT_EQ(Name(MakeSquare(8, 8)), "9i");
  EXPECT_EQ(RelativeRank(kBlack, MakeSquare(3, 2)), 2);
  EXPECT_EQ(RelativeRank(kWhite, MakeSquare(3, 2)), 6);
  EXPECT_TRUE(InPromotionZone(kWhite, MakeSquare(0, 6)));
  EXPECT_FALSE(InPromotionZone(kWhite, MakeSquare(0, 5)));
}

TEST_F(BitboardTest, BasicOperations) {
  Bitboard b = Make({0, 5, 63, 64, 80});
  EXPECT_EQ(b.Count(), 5);
  EXPECT_EQ(b.Lsb(), 0);
  EXPECT_EQ(b.Msb(), 80);
  EXPECT_TRUE(b.MoreThanOne());
  EXPECT_FALSE(SquareBB(63).MoreThanOne());
  EXPECT_EQ(SquareBB(63).Lsb(), 63);
  EXPECT_EQ(SquareBB(64).Msb(), 64);
  EXPECT_EQ(SquareBB(63).Msb(), 63);
  std::vector<Square> seen;
  for (Square sq : b) seen.push_back(sq);
  EXPECT_EQ(seen, (std::vector<Square>{0, 5, 63, 64, 80}));
  Bitboard c = b;
  EXPECT_EQ(c.PopLsb(), 0);
  EXPECT_EQ(c.PopLsb(), 5);
  EXPECT_EQ(c.Count(), 3);
  // Complement stays on the board.
  EXPECT_EQ((~Bitboard()).Count(), kNumSquares);
  EXPECT_EQ(Bitboard::All().Count(), kNumSquares);
  EXPECT_EQ((~b).Count(), kNumSquares - 5);
  EXPECT_EQ(b.AndNot(SquareBB(64)), Make({0, 5, 63, 80}));
  c = b;
  c.Toggle(5);
  c.Clear(80);
  c.Set(7);
  EXPECT_EQ(c, Make({0, 7, 63, 64}));
  EXPECT_TRUE(Bitboard().None());
  EXPECT_FALSE(Bitboard().Any());
}

TEST_F(BitboardTest, FileRankAndZoneMasks) {
  for (Square sq = 0; sq < kNumSquares; ++sq) {
    for (int i = 0; i < 9; ++i) {
      EXPECT_EQ(FileBB(i).Test(sq), FileOf(sq) == i) << Name(sq);
      EXPECT_EQ(RankBB(i).Test(sq), RankOf(sq) == i) << Name(sq);
    }
    for (Color c : {kBlack, kWhite}) {
      EXPECT_EQ(PromotionZone(c).Test(sq), InPromotionZone(c, sq)) << Name(sq);
    }
  }
}

TEST_F(BitboardTest, StepAttacksMatchRules) {
  for (Color c : {kBlack, kWhite}) {
    for (PieceType pt :
         {kPawn, kKnight, kSilver, kGold, kKing, kProPawn, kProLance, kProKnight, kProSilver}) {
      for (Square sq = 0; sq < kNumSquares; ++sq) {
        EXPECT_EQ(StepAttacks(c, pt, sq), NaiveAttacks(c, pt, sq, Bitboard()))
            << "colour " << c << " type " << pt << " on " << Name(sq);
      }
    }
  }
  // Spot checks that fix the orientation: a Black pawn on 7g attacks 7f; a White knight on
  // 2a reaches 1c and 3c.
  EXPECT_EQ(PawnAttacks(kBlack, MakeSquare(6, 6)), SquareBB(MakeSquare(6, 5)));
  EXPECT_EQ(KnightAttacks(kWhite, MakeSquare(1, 0)), Make({MakeSquare(0, 2), MakeSquare(2, 2)}));
  EXPECT_EQ(KingAttacks(MakeSquare(0, 0)).Count(), 3);
  EXPECT_EQ(KingAttacks(MakeSquare(4, 4)).Count(), 8);
}

TEST_F(BitboardTest, BetweenAndLineMatchGeometry) {
  for (Square a = 0; a < kNumSquares; ++a) {
    for (Square b = 0; b < kNumSquares; ++b) {
      int df = FileOf(b) - FileOf(a), dr = RankOf(b) - RankOf(a);
      bool aligned = a != b && (df == 0 || dr == 0 || df == dr || df == -dr);
      Bitboard between, line;
      if (aligned) {
        int sf = (df > 0) - (df < 0), sr = (dr > 0) - (dr < 0);
        for (int f = FileOf(a) + sf, r = RankOf(a) + sr; MakeSquare(f, r) != b; f += sf, r += sr) {
          between.Set(MakeSquare(f, r));
        }
        line =
            NaiveSlide(a, sf, sr, Bitboard()) | NaiveSlide(a, -sf, -sr, Bitboard()) | SquareBB(a);
      }
      ASSERT_EQ(Between(a, b), between) << Name(a) << " " << Name(b);
      ASSERT_EQ(Line(a, b), line) << Name(a) << " " << Name(b);
      ASSERT_EQ(Line(a, b), Line(b, a));
      for (Square c = 0; c < kNumSquares; ++c) {
        ASSERT_EQ(Aligned(a, b, c), aligned && line.Test(c));
      }
    }
  }
}

TEST_F(BitboardTest, RaysMatchGeometry) {
  using namespace bb_internal;
  // The direction order in bitboard.h: the first four increase the square index.
  const std::pair<int, int> deltas[kNumDirections] = {{0, 1},  {1, 0},  {1, 1},   {1, -1},
                                                      {0, -1}, {-1, 0}, {-1, -1}, {-1, 1}};
  for (int d = 0; d < kNumDirections; ++d) {
    for (Square sq = 0; sq < kNumSquares; ++sq) {
      EXPECT_EQ(rays[sq][d], NaiveSlide(sq, deltas[d].first, deltas[d].second, Bitboard()))
          << "direction " << d << " from " << Name(sq);
      for (Square to : rays[sq][d]) EXPECT_EQ(to > sq, d < kNorth);
    }
  }
}

TEST_F(BitboardTest, SliderAttacksMatchReferenceOnRandomBoards) {
  std::mt19937_64 rng(20240601);
  const int kBoards = TSUME_SANITIZED ? 60 : 600;
  for (int i = 0; i < kBoards; ++i) {
    // From nearly empty to nearly full boards.
    Bitboard occupied = RandomOccupancy(rng, (i % 10) / 10.0 + 0.03);
    for (Square sq = 0; sq < kNumSquares; ++sq) {
      for (Color c : {kBlack, kWhite}) {
        ASSERT_EQ(LanceAttacks(c, sq, occupied), NaiveAttacks(c, kLance, sq, occupied))
            << "lance colour " << c << " on " << Name(sq);
        ASSERT_EQ(Attacks(c, kLance, sq, occupied), NaiveAttacks(c, kLance, sq, occupied));
      }
      ASSERT_EQ(BishopAttacks(sq, occupied), NaiveAttacks(kBlack, kBishop, sq, occupied))
          << "bishop on " << Name(sq);
      ASSERT_EQ(RookAttacks(sq, occupied), NaiveAttacks(kBlack, kRook, sq, occupied))
          << "rook on " << Name(sq);
      // Both ways of working them out, whichever this build's search uses (TSUME_PEXT).
      ASSERT_EQ(bb_internal::BishopRays(sq, occupied), NaiveAttacks(kBlack, kBishop, sq, occupied))
          << "bishop rays on " << Name(sq);
      ASSERT_EQ(bb_internal::RookRays(sq, occupied), NaiveAttacks(kBlack, kRook, sq, occupied))
          << "rook rays on " << Name(sq);
#ifdef __BMI2__
      ASSERT_EQ(bb_internal::BishopLines(sq, occupied), NaiveAttacks(kBlack, kBishop, sq, occupied))
          << "bishop lines on " << Name(sq);
      ASSERT_EQ(bb_internal::RookLines(sq, occupied), NaiveAttacks(kBlack, kRook, sq, occupied))
          << "rook lines on " << Name(sq);
#endif
      for (PieceType pt : {kBishop, kRook, kHorse, kDragon}) {
        for (Color c : {kBlack, kWhite}) {
          ASSERT_EQ(Attacks(c, pt, sq, occupied), NaiveAttacks(c, pt, sq, occupied))
              << "type " << pt << " on " << Name(sq);
        }
      }
    }
  }
}

TEST_F(BitboardTest, SliderAttacksIgnoreTheirOwnSquareAndStopAtEdges) {
  // A rook on 5e of an empty board reaches 16 squares; a bishop 16; a lance 4.
  Square center = MakeSquare(4, 4);
  EXPECT_EQ(RookAttacks(center, Bitboard()).Count(), 16);
  EXPECT_EQ(BishopAttacks(center, Bitboard()).Count(), 16);
  EXPECT_EQ(LanceAttacks(kBlack, center, Bitboard()).Count(), 4);
  EXPECT_EQ(RookAttacks(center, SquareBB(center)), RookAttacks(center, Bitboard()));
  // Blockers on every neighbour: only the neighbours are attacked.
  Bitboard ring = KingAttacks(center);
  EXPECT_EQ(RookAttacks(center, ring) | BishopAttacks(center, ring), ring);
  // Corner squares, which sit at both ends of the 128-bit word.
  for (Square corner : {0, 8, 72, 80}) {
    EXPECT_EQ(RookAttacks(corner, Bitboard()).Count(), 16);
    EXPECT_EQ(BishopAttacks(corner, Bitboard()).Count(), 8);
  }
}

}  // namespace
}  // namespace tsume
