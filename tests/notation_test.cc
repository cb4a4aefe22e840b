// Japanese move notation: squares, piece names, 同, 成/不成, 打 and the JSA disambiguators
// (右/左/直, 上/寄/引) for both colours, and whole solution lines from 将棋図巧. Every expected
// string was worked out by hand from the rules, not taken from the code. Reading notation back
// (ParseJapanese): every written move of those tests, every legal move along the Zuko lines and
// in the perft positions, and the spellings others use.
#include "core/notation.h"

#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "core/movegen.h"
#include "core/position.h"

namespace tsume {
namespace {

// An SFEN from placements like {"5c", "G"}, {"1a", "k"}, {"2b", "+R"} (USI squares, SFEN piece
// letters), the side to move and the hands ("-" for none).
std::string Sfen(const std::vector<std::pair<std::string, std::string>>& placements, char side,
                 const std::string& hands = "-") {
  std::string grid[9][9];  // [rank][file]
  for (const auto& [square, piece] : placements) grid[square[1] - 'a'][square[0] - '1'] = piece;
  std::string sfen;
  for (int rank = 0; rank < 9; ++rank) {
    int empty = 0;
    for (int file = 8; file >= 0; --file) {
      if (grid[rank][file].empty()) {
        ++empty;
        continue;
      }
      if (empty) sfen += std::to_string(empty);
      empty = 0;
      sfen += grid[rank][file];
    }
    if (empty) sfen += std::to_string(empty);
    if (rank < 8) sfen += '/';
  }
  return sfen + " " + side + " " + hands + " 1";
}

Position FromSfen(const std::string& sfen) {
  absl::StatusOr<Position> pos = Position::FromSfen(sfen);
  EXPECT_TRUE(pos.ok()) << sfen << ": " << pos.status();
  return pos.ok() ? *pos : Position();
}

Position FromUsi(const std::string& line) {
  absl::StatusOr<Position> pos = Position::FromUsiPosition(line);
  EXPECT_TRUE(pos.ok()) << line << ": " << pos.status();
  return pos.ok() ? *pos : Position();
}

// The notation of the USI move `usi`, which must be legal in `pos`; reading it back
// (ParseJapanese) must give the same move.
std::string Ja(const Position& pos, const std::string& usi) {
  absl::StatusOr<Move> m = pos.ParseUsiMove(usi);
  EXPECT_TRUE(m.ok()) << usi << " in " << pos.Sfen() << ": " << m.status();
  if (!m.ok()) return "";
  std::string text = ToJapanese(pos, *m);
  absl::StatusOr<Move> read = ParseJapanese(pos, text);
  EXPECT_TRUE(read.ok() && *read == *m)
      << text << " read as " << (read.ok() ? ToUsi(*read) : std::string(read.status().message()));
  return text;
}

// ---------------------------------------------------------------------------------------------
// Squares, marks and piece names.

TEST(NotationTest, SquaresAreFileDigitThenRankKanji) {
  EXPECT_EQ(JapaneseSquare(MakeSquare(0, 0)), "１一");
  EXPECT_EQ(JapaneseSquare(MakeSquare(3, 3)), "４四");
  EXPECT_EQ(JapaneseSquare(MakeSquare(8, 1)), "９二");
  EXPECT_EQ(JapaneseSquare(MakeSquare(1, 8)), "２九");
}

TEST(NotationTest, OpeningMovesOfBothSides) {
  Position start;
  EXPECT_EQ(Ja(start, "7g7f"), "▲７六歩");
  EXPECT_EQ(Ja(start, "2g2f"), "▲２六歩");
  EXPECT_EQ(Ja(start, "5i4h"), "▲４八玉");
  EXPECT_EQ(Ja(start, "7i6h"), "▲６八銀");
  EXPECT_EQ(Ja(start, "9i9h"), "▲９八香");
  EXPECT_EQ(Ja(start, "2h5h"), "▲５八飛");
  Position after = FromUsi("startpos moves 7g7f");
  EXPECT_EQ(Ja(after, "3c3d"), "△３四歩");
  EXPECT_EQ(Ja(after, "5a6b"), "△６二玉");
  EXPECT_EQ(Ja(after, "1a1b"), "△１二香");
  EXPECT_EQ(Ja(FromUsi("startpos moves 7g7f 3c3d"), "8h7g"), "▲７七角");
}

TEST(NotationTest, PromotedPieceNames) {
  Position pos = FromSfen(Sfen({{"9e", "+L"},
                                {"8e", "+N"},
                                {"7e", "+S"},
                                {"6e", "+P"},
                                {"4e", "+B"},
                                {"2h", "+R"},
                                {"5i", "K"},
                                {"1a", "k"}},
                               'b'));
  EXPECT_EQ(Ja(pos, "9e9d"), "▲９四成香");
  EXPECT_EQ(Ja(pos, "8e8d"), "▲８四成桂");
  EXPECT_EQ(Ja(pos, "7e7d"), "▲７四成銀");
  EXPECT_EQ(Ja(pos, "6e6d"), "▲６四と");
  EXPECT_EQ(Ja(pos, "4e3d"), "▲３四馬");
  EXPECT_EQ(Ja(pos, "2h2d"), "▲２四竜");
  // Promoted pieces never take 成 or 不成, even inside the zone.
  EXPECT_EQ(Ja(pos, "4e2c"), "▲２三馬");
  EXPECT_EQ(Ja(pos, "2h2c"), "▲２三竜");

  Position white = FromSfen(Sfen({{"5a", "k"}, {"5d", "+r"}, {"6d", "+b"}, {"9i", "K"}}, 'w'));
  EXPECT_EQ(Ja(white, "5a4b"), "△４二玉");
  EXPECT_EQ(Ja(white, "5d5h"), "△５八竜");
  EXPECT_EQ(Ja(white, "6d9g"), "△９七馬");
}

// ---------------------------------------------------------------------------------------------
// 同.

TEST(NotationTest, RecaptureOnTheLastSquareIsDou) {
  Position pos = FromUsi("startpos moves 7g7f 3c3d");
  EXPECT_EQ(Ja(pos, "8h2b+"), "▲２二角成");
  Position after = FromUsi("startpos moves 7g7f 3c3d 8h2b+");
  EXPECT_EQ(Ja(after, "3a2b"), "△同　銀");
  EXPECT_EQ(Ja(after, "8b2b"), "△同　飛");
  // A move to another square is written in full.
  EXPECT_EQ(Ja(after, "4a3b"), "△３二金");
}

TEST(NotationTest, DouKeepsTheFullWidthSpaceBeforeTwoCharacterNames) {
  // A drop counts as the last move too: taking the dropped piece is 同.
  std::string sfen = Sfen({{"9a", "k"}, {"5c", "+s"}, {"1i", "K"}}, 'b', "G");
  EXPECT_EQ(Ja(FromSfen(sfen), "G*5d"), "▲５四金");
  EXPECT_EQ(Ja(FromUsi("sfen " + sfen + " moves G*5d"), "5c5d"), "△同　成銀");

  std::string dragon = Sfen({{"9a", "k"}, {"5e", "p"}, {"5i", "+R"}, {"1i", "K"}}, 'w');
  EXPECT_EQ(Ja(FromUsi("sfen " + dragon + " moves 5e5f"), "5i5f"), "▲同　竜");
}

TEST(NotationTest, NoDouAtTheRootEvenOnSquareOneOne) {
  // The root has no previous move; its empty encoding must not read as a move to １一.
  Position pos = FromSfen(Sfen({{"1c", "L"}, {"5a", "k"}, {"9i", "K"}}, 'b'));
  EXPECT_EQ(Ja(pos, "1c1a+"), "▲１一香成");
}

TEST(NotationTest, DouWithDisambiguator) {
  // White silvers on ５三 and ４三 can both take on ４四: from White's side ５三 is on the right,
  // ４三 comes straight forward.
  Position pos = FromUsi(
      "sfen ln1gk3l/1r4g2/p1ppssnpp/4p1p2/1p3P3/2P1SgPRP/PPBPP1N2/2SK5/LN1G4L b B2P 1 "
      "moves 4e4d");
  EXPECT_EQ(Ja(pos, "5c4d"), "△同　銀右");
  EXPECT_EQ(Ja(pos, "4c4d"), "△同　銀直");
}

// ---------------------------------------------------------------------------------------------
// 成 and 不成.

TEST(NotationTest, PromotionAndNonPromotionBlack) {
  Position pos = FromSfen(Sfen({{"3d", "S"},
                                {"4c", "S"},
                                {"5f", "S"},
                                {"5c", "G"},
                                {"2b", "P"},
                                {"7d", "P"},
                                {"8h", "R"},
                                {"9a", "k"},
                                {"1i", "K"}},
                               'b'));
  EXPECT_EQ(Ja(pos, "3d2c+"), "▲２三銀成");  // entering the zone
  EXPECT_EQ(Ja(pos, "3d2c"), "▲２三銀不成");
  EXPECT_EQ(Ja(pos, "4c5d+"), "▲５四銀成");  // leaving the zone
  EXPECT_EQ(Ja(pos, "4c5d"), "▲５四銀不成");
  EXPECT_EQ(Ja(pos, "5f5e"), "▲５五銀");     // outside the zone: no choice, no suffix
  EXPECT_EQ(Ja(pos, "5c5b"), "▲５二金");     // a gold never promotes
  EXPECT_EQ(Ja(pos, "2b2a+"), "▲２一歩成");  // forced promotion is still written
  EXPECT_EQ(Ja(pos, "7d7c+"), "▲７三歩成");
  EXPECT_EQ(Ja(pos, "7d7c"), "▲７三歩不成");
  EXPECT_EQ(Ja(pos, "8h8c+"), "▲８三飛成");
  EXPECT_EQ(Ja(pos, "8h8c"), "▲８三飛不成");
  EXPECT_EQ(Ja(pos, "8h8d"), "▲８四飛");
}

TEST(NotationTest, PromotionAndNonPromotionWhite) {
  Position pos = FromSfen(Sfen(
      {{"6f", "s"}, {"4g", "s"}, {"5d", "s"}, {"2h", "p"}, {"3a", "b"}, {"9a", "k"}, {"1i", "K"}},
      'w'));
  EXPECT_EQ(Ja(pos, "6f7g+"), "△７七銀成");
  EXPECT_EQ(Ja(pos, "6f7g"), "△７七銀不成");
  EXPECT_EQ(Ja(pos, "4g3f+"), "△３六銀成");  // leaving White's zone
  EXPECT_EQ(Ja(pos, "4g3f"), "△３六銀不成");
  // ６六 can also step back to ５五, so movement tells the two silvers apart; neither square is
  // in White's zone, so there is no 成/不成.
  EXPECT_EQ(Ja(pos, "5d5e"), "△５五銀上");
  EXPECT_EQ(Ja(pos, "6f5e"), "△５五銀引");
  EXPECT_EQ(Ja(pos, "2h2i+"), "△２九歩成");
  EXPECT_EQ(Ja(pos, "3a9g+"), "△９七角成");
  EXPECT_EQ(Ja(pos, "3a9g"), "△９七角不成");
  EXPECT_EQ(Ja(pos, "3a7e"), "△７五角");
}

// ---------------------------------------------------------------------------------------------
// 打.

TEST(NotationTest, DropIsMarkedOnlyWhenABoardPieceCouldGoThere) {
  Position pos = FromSfen(Sfen({{"5c", "G"}, {"5h", "+R"}, {"9a", "k"}, {"1i", "K"}}, 'b', "RBG"));
  EXPECT_EQ(Ja(pos, "G*5b"), "▲５二金打");
  EXPECT_EQ(Ja(pos, "5c5b"), "▲５二金");
  // A gold cannot step diagonally back, so nothing on the board reaches ４四.
  EXPECT_EQ(Ja(pos, "G*4d"), "▲４四金");
  EXPECT_EQ(Ja(pos, "B*5e"), "▲５五角");
  // The dragon reaches ５五, but a dragon is not a rook.
  EXPECT_EQ(Ja(pos, "R*5e"), "▲５五飛");

  Position white = FromSfen(Sfen({{"5f", "g"}, {"9a", "k"}, {"1i", "K"}}, 'w', "g"));
  EXPECT_EQ(Ja(white, "G*5g"), "△５七金打");
  EXPECT_EQ(Ja(white, "5f5g"), "△５七金");
  EXPECT_EQ(Ja(white, "G*4e"), "△４五金");  // White's gold cannot step diagonally back either
}

TEST(NotationTest, PinnedPiecesDoNotCount) {
  // The gold on ４三 is pinned to its king on ４九 by the lance on ４一: it cannot reach ５二.
  Position pos =
      FromSfen(Sfen({{"4a", "l"}, {"4c", "G"}, {"6c", "G"}, {"4i", "K"}, {"9a", "k"}}, 'b'));
  EXPECT_EQ(Ja(pos, "6c5b"), "▲５二金");
  EXPECT_EQ(Ja(pos, "4c4b"), "▲４二金");
  Position drop = FromSfen(Sfen({{"4a", "l"}, {"4c", "G"}, {"4i", "K"}, {"9a", "k"}}, 'b', "G"));
  EXPECT_EQ(Ja(drop, "G*5b"), "▲５二金");
}

// ---------------------------------------------------------------------------------------------
// Disambiguators, Black.

TEST(NotationTest, StartingPositionGolds) {
  Position start;
  EXPECT_EQ(Ja(start, "4i5h"), "▲５八金右");
  EXPECT_EQ(Ja(start, "6i5h"), "▲５八金左");
  EXPECT_EQ(Ja(start, "6i7h"), "▲７八金");
  EXPECT_EQ(Ja(start, "4i3h"), "▲３八金");
}

TEST(NotationTest, ThreeGoldsInARowBlack) {
  Position pos =
      FromSfen(Sfen({{"6c", "G"}, {"5c", "G"}, {"4c", "G"}, {"9a", "k"}, {"1i", "K"}}, 'b'));
  EXPECT_EQ(Ja(pos, "6c5b"), "▲５二金左");
  EXPECT_EQ(Ja(pos, "5c5b"), "▲５二金直");
  EXPECT_EQ(Ja(pos, "4c5b"), "▲５二金右");
}

TEST(NotationTest, MovementAloneDecidesBlack) {
  Position up_or_sideways =
      FromSfen(Sfen({{"9c", "G"}, {"7b", "G"}, {"1e", "k"}, {"1i", "K"}}, 'b'));
  EXPECT_EQ(Ja(up_or_sideways, "9c8b"), "▲８二金上");
  EXPECT_EQ(Ja(up_or_sideways, "7b8b"), "▲８二金寄");

  Position up_or_back = FromSfen(Sfen({{"3a", "G"}, {"4c", "G"}, {"9a", "k"}, {"1i", "K"}}, 'b'));
  EXPECT_EQ(Ja(up_or_back, "3a3b"), "▲３二金引");
  EXPECT_EQ(Ja(up_or_back, "4c3b"), "▲３二金上");

  // 直 is not used when movement is enough: the gold below goes 上, the one above 引.
  Position same_file = FromSfen(Sfen({{"5a", "G"}, {"5c", "G"}, {"9a", "k"}, {"1i", "K"}}, 'b'));
  EXPECT_EQ(Ja(same_file, "5c5b"), "▲５二金上");
  EXPECT_EQ(Ja(same_file, "5a5b"), "▲５二金引");
}

TEST(NotationTest, FourSilversBlack) {
  Position pos = FromSfen(
      Sfen({{"3g", "S"}, {"1g", "S"}, {"3i", "S"}, {"2i", "S"}, {"9a", "k"}, {"5i", "K"}}, 'b'));
  EXPECT_EQ(Ja(pos, "3g2h"), "▲２八銀左引");  // 左 alone would also name ３九
  EXPECT_EQ(Ja(pos, "1g2h"), "▲２八銀右");
  EXPECT_EQ(Ja(pos, "3i2h"), "▲２八銀左上");
  EXPECT_EQ(Ja(pos, "2i2h"), "▲２八銀直");
}

TEST(NotationTest, DisambiguatorBeforePromotionSuffix) {
  Position pos = FromSfen(Sfen({{"3c", "S"}, {"1c", "S"}, {"9a", "k"}, {"9i", "K"}}, 'b'));
  EXPECT_EQ(Ja(pos, "3c2b"), "▲２二銀左不成");
  EXPECT_EQ(Ja(pos, "1c2b+"), "▲２二銀右成");
}

TEST(NotationTest, KnightsRooksAndBishopsBlack) {
  Position knights = FromSfen(Sfen({{"7i", "N"}, {"5i", "N"}, {"9a", "k"}, {"1i", "K"}}, 'b'));
  EXPECT_EQ(Ja(knights, "7i6g"), "▲６七桂左");
  EXPECT_EQ(Ja(knights, "5i6g"), "▲６七桂右");

  Position rooks = FromSfen(Sfen({{"8e", "R"}, {"2e", "R"}, {"9a", "k"}, {"1i", "K"}}, 'b'));
  EXPECT_EQ(Ja(rooks, "8e5e"), "▲５五飛左");
  EXPECT_EQ(Ja(rooks, "2e5e"), "▲５五飛右");

  Position rook_motion = FromSfen(Sfen({{"8e", "R"}, {"5i", "R"}, {"9a", "k"}, {"1i", "K"}}, 'b'));
  EXPECT_EQ(Ja(rook_motion, "8e5e"), "▲５五飛寄");
  EXPECT_EQ(Ja(rook_motion, "5i5e"), "▲５五飛上");

  Position bishops = FromSfen(Sfen({{"9i", "B"}, {"1i", "B"}, {"5a", "k"}, {"5i", "K"}}, 'b'));
  EXPECT_EQ(Ja(bishops, "9i5e"), "▲５五角左");
  EXPECT_EQ(Ja(bishops, "1i5e"), "▲５五角右");
}

TEST(NotationTest, DragonsAndHorsesBlack) {
  // Both dragons pull back to ２四; left and right compare the two dragons, so the one on the
  // destination's own file is 左 (not 直).
  Position dragons = FromSfen(Sfen({{"1c", "+R"}, {"2b", "+R"}, {"9a", "k"}, {"9i", "K"}}, 'b'));
  EXPECT_EQ(Ja(dragons, "1c2d"), "▲２四竜右");
  EXPECT_EQ(Ja(dragons, "2b2d"), "▲２四竜左");

  Position dragon_motion =
      FromSfen(Sfen({{"8a", "+R"}, {"5b", "+R"}, {"1e", "k"}, {"9i", "K"}}, 'b'));
  EXPECT_EQ(Ja(dragon_motion, "8a7b"), "▲７二竜引");
  EXPECT_EQ(Ja(dragon_motion, "5b7b"), "▲７二竜寄");

  Position horses = FromSfen(Sfen({{"9a", "+B"}, {"8a", "+B"}, {"1e", "k"}, {"5i", "K"}}, 'b'));
  EXPECT_EQ(Ja(horses, "9a8b"), "▲８二馬左");
  EXPECT_EQ(Ja(horses, "8a8b"), "▲８二馬右");

  Position horse_motion =
      FromSfen(Sfen({{"9a", "+B"}, {"7d", "+B"}, {"1e", "k"}, {"5i", "K"}}, 'b'));
  EXPECT_EQ(Ja(horse_motion, "9a9b"), "▲９二馬引");
  EXPECT_EQ(Ja(horse_motion, "7d9b"), "▲９二馬上");
}

// ---------------------------------------------------------------------------------------------
// Disambiguators, White: left and right are White's own (the low-numbered files are White's
// left), and 上 means moving toward rank 九.

TEST(NotationTest, ThreeGoldsInARowWhite) {
  Position pos =
      FromSfen(Sfen({{"4g", "g"}, {"5g", "g"}, {"6g", "g"}, {"1a", "k"}, {"9a", "K"}}, 'w'));
  EXPECT_EQ(Ja(pos, "4g5h"), "△５八金左");
  EXPECT_EQ(Ja(pos, "5g5h"), "△５八金直");
  EXPECT_EQ(Ja(pos, "6g5h"), "△５八金右");
}

TEST(NotationTest, FourSilversWhite) {
  // The Black four-silver position turned around.
  Position pos = FromSfen(
      Sfen({{"7c", "s"}, {"9c", "s"}, {"7a", "s"}, {"8a", "s"}, {"5i", "k"}, {"1a", "K"}}, 'w'));
  EXPECT_EQ(Ja(pos, "7c8b"), "△８二銀左引");
  EXPECT_EQ(Ja(pos, "9c8b"), "△８二銀右");
  EXPECT_EQ(Ja(pos, "7a8b"), "△８二銀左上");
  EXPECT_EQ(Ja(pos, "8a8b"), "△８二銀直");
}

TEST(NotationTest, FiveTokinsWhite) {
  Position pos = FromSfen(Sfen({{"6d", "+p"},
                                {"5d", "+p"},
                                {"4d", "+p"},
                                {"5f", "+p"},
                                {"4e", "+p"},
                                {"9i", "k"},
                                {"1a", "K"}},
                               'w'));
  EXPECT_EQ(Ja(pos, "6d5e"), "△５五と右");
  EXPECT_EQ(Ja(pos, "5d5e"), "△５五と直");
  EXPECT_EQ(Ja(pos, "4d5e"), "△５五と左上");  // 左 alone would also name ４五
  EXPECT_EQ(Ja(pos, "5f5e"), "△５五と引");
  EXPECT_EQ(Ja(pos, "4e5e"), "△５五と寄");
}

TEST(NotationTest, KnightsRooksAndDragonsWhite) {
  Position knights = FromSfen(Sfen({{"3a", "n"}, {"5a", "n"}, {"9a", "k"}, {"9i", "K"}}, 'w'));
  EXPECT_EQ(Ja(knights, "3a4c"), "△４三桂左");
  EXPECT_EQ(Ja(knights, "5a4c"), "△４三桂右");

  Position rooks = FromSfen(Sfen({{"2e", "r"}, {"8e", "r"}, {"9a", "k"}, {"1i", "K"}}, 'w'));
  EXPECT_EQ(Ja(rooks, "2e5e"), "△５五飛左");
  EXPECT_EQ(Ja(rooks, "8e5e"), "△５五飛右");

  // The Black dragon pair turned around: both pull back toward rank 一.
  Position dragons = FromSfen(Sfen({{"9g", "+r"}, {"8h", "+r"}, {"1a", "k"}, {"1i", "K"}}, 'w'));
  EXPECT_EQ(Ja(dragons, "9g8f"), "△８六竜右");
  EXPECT_EQ(Ja(dragons, "8h8f"), "△８六竜左");
}

// ---------------------------------------------------------------------------------------------
// Whole lines.

std::vector<std::vector<std::string>> ZukouRows() {
  std::vector<std::vector<std::string>> rows;
  for (const char* path : {TSUME_SOURCE_DIR "/problems/classics/zukou.tsv",
                           TSUME_SOURCE_DIR "/../shared/problems/classics/zukou.tsv"}) {
    if (!std::filesystem::exists(path)) continue;
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.empty() || line[0] == '#') continue;
      rows.push_back(absl::StrSplit(line, '\t'));
    }
    break;
  }
  return rows;
}

// The moves of a USI line, each parsed in the position it is played in.
std::vector<Move> ParseLine(Position pos, const std::string& usi_line) {
  std::vector<Move> moves;
  for (absl::string_view usi : absl::StrSplit(usi_line, ' ', absl::SkipEmpty())) {
    absl::StatusOr<Move> m = pos.ParseUsiMove(usi);
    EXPECT_TRUE(m.ok()) << usi << ": " << m.status();
    if (!m.ok()) break;
    moves.push_back(*m);
    pos.DoMove(*m);
  }
  return moves;
}

TEST(NotationTest, ZukouTwoSolutionLine) {
  std::vector<std::vector<std::string>> rows = ZukouRows();
  ASSERT_FALSE(rows.empty()) << "zukou.tsv not found";
  const std::vector<std::string>* row = nullptr;
  for (const auto& r : rows) {
    if (r.size() >= 4 && r[0] == "zukou-002") row = &r;
  }
  ASSERT_NE(row, nullptr);
  Position pos = FromSfen((*row)[2]);
  std::vector<Move> moves = ParseLine(pos, (*row)[3]);
  ASSERT_EQ(moves.size(), 21u);
  EXPECT_EQ(LineToJapanese(pos, moves),
            "▲２七金 △１五玉 ▲１六金 △同　と ▲２七桂 △同　と ▲１六歩 △同　玉 ▲２五角 △同　玉 "
            "▲３六角成 △１五玉 ▲１六歩 △同　玉 ▲２七竜 △１五玉 ▲２五馬 △同　と ▲１六歩 "
            "△同　と ▲２四竜");
  // The caller's position is untouched.
  EXPECT_EQ(pos.ply(), 0);
}

// Recaptures with a choice of piece from real solutions, each checked by hand on the board.
TEST(NotationTest, ZukouRecapturesNeedingDisambiguators) {
  std::vector<std::vector<std::string>> rows = ZukouRows();
  ASSERT_FALSE(rows.empty()) << "zukou.tsv not found";
  // {problem, ply (1-based), expected}.
  const std::vector<std::tuple<std::string, int, std::string>> cases = {
      // Silvers on ８三 (would go 上) and ６五 (steps back): the one from ６五 is 引.
      {"zukou-023", 2, "△同　銀引"},
      // Silvers on ７四 and ５四 both go up to ６五; ７四 is on White's right.
      {"zukou-023", 4, "△同　銀右"},
      // Horses on ６九 and ４九 both pull back to ５八; ６九 is on White's right.
      {"zukou-025", 16, "△同　馬右"},
      // Golds on ４二 and ３二 both go up to ４三; ３二 is on White's left.
      {"zukou-025", 22, "△同　金左"},
      // Golds on ４三 (would go 引) and ３四 (sideways) can reach ４四.
      {"zukou-025", 35, "▲４四金寄"},
  };
  for (const auto& [id, ply, expected] : cases) {
    const std::vector<std::string>* row = nullptr;
    for (const auto& r : rows) {
      if (r.size() >= 4 && r[0] == id) row = &r;
    }
    ASSERT_NE(row, nullptr) << id;
    Position pos = FromSfen((*row)[2]);
    std::vector<Move> moves = ParseLine(pos, (*row)[3]);
    ASSERT_GE(int(moves.size()), ply) << id;
    for (int i = 0; i < ply - 1; ++i) pos.DoMove(moves[i]);
    EXPECT_EQ(ToJapanese(pos, moves[ply - 1]), expected) << id << " ply " << ply;
  }
}

TEST(NotationTest, LineStartsFromThePositionsLastMove) {
  Position pos = FromUsi("startpos moves 7g7f 3c3d 8h2b+");
  absl::StatusOr<Move> recapture = pos.ParseUsiMove("3a2b");
  ASSERT_TRUE(recapture.ok());
  Position after = pos;
  after.DoMove(*recapture);
  absl::StatusOr<Move> bishop_drop = after.ParseUsiMove("B*4e");
  ASSERT_TRUE(bishop_drop.ok());
  EXPECT_EQ(LineToJapanese(pos, {*recapture, *bishop_drop}), "△同　銀 ▲４五角");
  EXPECT_EQ(LineToJapanese(pos, {}), "");
}

TEST(NotationTest, EveryZukouLineRendersOneTokenPerMoveWithAlternatingMarks) {
  std::vector<std::vector<std::string>> rows = ZukouRows();
  ASSERT_EQ(rows.size(), 100u);
  for (const auto& row : rows) {
    ASSERT_GE(row.size(), 4u);
    Position pos = FromSfen(row[2]);
    std::vector<Move> moves = ParseLine(pos, row[3]);
    std::string line = LineToJapanese(pos, moves);
    std::vector<std::string> tokens = absl::StrSplit(line, ' ');
    ASSERT_EQ(tokens.size(), moves.size()) << row[0];
    for (size_t i = 0; i < tokens.size(); ++i) {
      bool black = (pos.side_to_move() == kBlack) == (i % 2 == 0);
      EXPECT_EQ(tokens[i].rfind(black ? "▲" : "△", 0), 0u) << row[0] << " ply " << i + 1;
      // Every move is a mark plus at least a destination (or 同) and a piece name.
      EXPECT_GE(tokens[i].size(), 12u) << row[0] << " ply " << i + 1;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Reading notation (KI2 records): ParseJapanese.

// The USI of the move `text` names in `pos`, or the error's message.
std::string Read(const Position& pos, const std::string& text) {
  absl::StatusOr<Move> m = ParseJapanese(pos, text);
  return m.ok() ? ToUsi(*m) : std::string(m.status().message());
}

// `text` with every `from` replaced by `to`.
std::string Replaced(std::string text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size())) {
    text.replace(at, from.size(), to);
  }
  return text;
}

TEST(NotationReadTest, ReadsBackWhatItWritesForEveryLegalMove) {
  // Every position of every Zuko line (寿's 611 plies among them) and of the perft references:
  // each legal move written, then read, is the same move; so are the spellings others use.
  std::vector<Position> positions;
  for (const auto& row : ZukouRows()) {
    ASSERT_GE(row.size(), 4u);
    Position pos = FromSfen(row[2]);
    for (Move m : ParseLine(pos, row[3])) {
      positions.push_back(pos);
      pos.DoMove(m);
    }
  }
  std::ifstream perft(TSUME_SOURCE_DIR "/problems/perft/perft.tsv");
  for (std::string line; std::getline(perft, line);) {
    std::vector<std::string> fields = absl::StrSplit(line, '\t');
    if (line.empty() || line[0] == '#' || fields.size() < 2) continue;
    positions.push_back(FromSfen(fields[1]));
  }
  ASSERT_GT(positions.size(), 4000u);
  int moves_read = 0, disambiguated = 0;
  for (const Position& pos : positions) {
    MoveList legal;
    GenerateLegal(pos, legal);
    for (Move m : legal) {
      std::string text = ToJapanese(pos, m);
      ASSERT_EQ(Read(pos, text), ToUsi(m)) << text << " in " << pos.Sfen();
      // Without the mark, 同 without its space, the other names of pieces, 行 for 上.
      std::string other = Replaced(Replaced(text.substr(strlen("▲")), "同　", "同"), "竜", "龍");
      for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
               {"成銀", "全"}, {"成桂", "圭"}, {"成香", "杏"}, {"玉", "王"}, {"上", "行"}}) {
        other = Replaced(other, from, to);
      }
      ASSERT_EQ(Read(pos, other), ToUsi(m)) << other << " in " << pos.Sfen();
      ++moves_read;
      if (absl::StrContains(text, "右") || absl::StrContains(text, "左") ||
          absl::StrContains(text, "直") || absl::StrContains(text, "寄") ||
          absl::StrContains(text, "引") || absl::StrContains(text, "上")) {
        ++disambiguated;
      }
    }
  }
  EXPECT_GT(moves_read, 200000);
  EXPECT_GT(disambiguated, 1500);  // the disambiguators are really exercised
}

TEST(NotationReadTest, DisambiguatorsAreNeededWhereSeveralPiecesFit) {
  Position pos = FromUsi("startpos");
  EXPECT_EQ(Read(pos, "▲７六歩"), "7g7f");
  EXPECT_EQ(Read(pos, "▲7六歩"), "7g7f");
  EXPECT_EQ(Read(pos, "76歩"), "7g7f");
  EXPECT_EQ(Read(pos, "▲ ７六歩 "), "7g7f");
  EXPECT_EQ(Read(pos, "☗７六歩(77)"), "7g7f");
  EXPECT_EQ(Read(pos, "▲５八金右"), "4i5h");
  EXPECT_EQ(Read(pos, "▲５八金左"), "6i5h");
  EXPECT_EQ(Read(pos, "▲５八金"), "ambiguous: 4i5h, 6i5h all fit it");
  EXPECT_EQ(Read(pos, "▲５八金直"), "no legal move fits it");
  EXPECT_EQ(Read(pos, "▲７六歩(78)"), "no legal move fits it");
  EXPECT_EQ(Read(pos, "△３四歩"), "a move of White's (△), but Black is to move");
  EXPECT_EQ(Read(pos, "▲同　歩"), "同 with no move before it");
  EXPECT_EQ(Read(pos, "▲７六"), "expected a piece after the square, like 歩 or 成銀");
  EXPECT_EQ(Read(pos, "▲歩"), "expected a square like ２四, or 同");
  EXPECT_EQ(Read(pos, "▲７六歩ね"), "cannot read 'ね'");
  EXPECT_EQ(Read(FromUsi("startpos moves 7g7f"), "△３四歩"), "3c3d");
  EXPECT_EQ(Read(FromUsi("startpos moves 7g7f 3c3d 8h2b+"), "△同　銀"), "3a2b");
  EXPECT_EQ(Read(FromUsi("startpos moves 7g7f 3c3d 8h2b+"), "△同銀"), "3a2b");
}

TEST(NotationReadTest, DropsAndPromotions) {
  // Black: gold on 6c and one in hand, silver on 3c; White's king on 5a.
  Position pos = FromSfen(Sfen({{"5a", "k"}, {"6c", "G"}, {"3c", "S"}, {"5i", "K"}}, 'b', "GP"));
  EXPECT_EQ(Read(pos, "▲５二金"), "6c5b");  // a gold on the board can go there: no drop
  EXPECT_EQ(Read(pos, "▲５二金打"), "G*5b");
  EXPECT_EQ(Read(pos, "▲４二金"), "G*4b");  // none can: a drop without 打
  EXPECT_EQ(Read(pos, "▲５五歩"), "P*5e");
  EXPECT_EQ(Read(pos, "▲２二銀成"), "3c2b+");
  EXPECT_EQ(Read(pos, "▲２二銀不成"), "3c2b");
  EXPECT_EQ(Read(pos, "▲２二銀生"), "3c2b");
  EXPECT_EQ(Read(pos, "▲２二銀"), "3c2b");
  EXPECT_EQ(Read(pos, "▲４二銀打"), "no legal move fits it");  // no silver in hand
  EXPECT_EQ(Read(pos, "▲５二金右打"), "a drop (打) with an origin or a disambiguator");
  Position promoted = FromSfen(Sfen({{"5a", "k"}, {"3c", "+S"}, {"5i", "K"}}, 'b'));
  EXPECT_EQ(Read(promoted, "▲４二成銀"), "3c4b");
  EXPECT_EQ(Read(promoted, "▲４二全"), "3c4b");
  EXPECT_EQ(Read(promoted, "▲４二銀"), "no legal move fits it");
}

}  // namespace
}  // namespace tsume
