// Position: SFEN and USI parsing and printing, making and unmaking moves, keys and check
// information against recomputation from scratch, and the error text of every bad-input case.
#include "core/position.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "core/movegen.h"

namespace tsume {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;

// ---------------------------------------------------------------------------------------------
// Problem data: the project's copy first, then the shared collection beside the repository.

const std::vector<std::string>& DataRoots() {
  static const std::vector<std::string> roots = {TSUME_SOURCE_DIR "/problems/",
                                                 TSUME_SOURCE_DIR "/../shared/problems/"};
  return roots;
}

std::vector<std::string> ReadLines(const std::string& path) {
  std::vector<std::string> lines;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty() && line[0] != '#') lines.push_back(line);
  }
  return lines;
}

// The file `relative` from the first root that has it, or "" when none does.
std::string FindDataFile(const std::string& relative) {
  for (const std::string& root : DataRoots()) {
    if (std::filesystem::exists(root + relative)) return root + relative;
  }
  return "";
}

// Every practical/*.txt problem file (not the licence), each from the first root that has it.
std::vector<std::string> PracticalFiles() {
  std::map<std::string, std::string> by_name;
  for (const std::string& root : DataRoots()) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(root + "practical", ec)) {
      std::string name = entry.path().filename().string();
      if (entry.path().extension() == ".txt" && name.rfind("LICENSE", 0) != 0 &&
          !by_name.count(name)) {
        by_name[name] = entry.path().string();
      }
    }
  }
  std::vector<std::string> files;
  for (const auto& [name, path] : by_name) files.push_back(path);
  return files;
}

// The first four space-separated fields of a line (an SFEN with move number).
std::string FirstFourFields(const std::string& line) {
  std::vector<std::string> fields = absl::StrSplit(line, ' ', absl::SkipEmpty());
  if (fields.size() < 4) return line;
  return fields[0] + " " + fields[1] + " " + fields[2] + " " + fields[3];
}

// Column `index` (0-based) of a TSV line.
std::string Column(const std::string& line, int index) {
  std::vector<std::string> columns = absl::StrSplit(line, '\t');
  return index < int(columns.size()) ? columns[index] : "";
}

// SFEN strings from every collection (those that fail to parse included; callers filter).
// With `stride` > 1 only every stride-th practical line is taken.
std::vector<std::string> ProblemSfens(int stride = 1) {
  std::vector<std::string> sfens;
  for (const std::string& file : PracticalFiles()) {
    std::vector<std::string> lines = ReadLines(file);
    for (size_t i = 0; i < lines.size(); i += stride) sfens.push_back(FirstFourFields(lines[i]));
  }
  for (const char* classic :
       {"classics/zukou.tsv", "classics/microcosmos.tsv", "classics/last_judgment.tsv"}) {
    for (const std::string& line : ReadLines(FindDataFile(classic))) {
      sfens.push_back(Column(line, 2));
    }
  }
  for (const std::string& line : ReadLines(FindDataFile("rules/rule_tests.tsv"))) {
    sfens.push_back(Column(line, 2));
  }
  for (const std::string& line : ReadLines(FindDataFile("perft/perft.tsv"))) {
    sfens.push_back(Column(line, 1));
  }
  return sfens;
}

// The hand field rewritten in the printer's order: Black's then White's, each rook, bishop,
// gold, silver, knight, lance, pawn, counts before letters.
std::string CanonicalHand(const std::string& hand) {
  if (hand == "-") return hand;
  std::map<char, int> counts;
  int n = 0;
  for (char ch : hand) {
    if (ch >= '0' && ch <= '9') {
      n = n * 10 + (ch - '0');
    } else {
      counts[ch] += n ? n : 1;
      n = 0;
    }
  }
  std::string out;
  for (const char* order : {"RBGSNLP", "rbgsnlp"}) {
    for (const char* ch = order; *ch; ++ch) {
      if (counts[*ch] > 1) out += std::to_string(counts[*ch]);
      if (counts[*ch] > 0) out += *ch;
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Helpers.

Position Parse(const std::string& sfen) {
  absl::StatusOr<Position> pos = Position::FromSfen(sfen);
  EXPECT_TRUE(pos.ok()) << sfen << ": " << pos.status();
  return pos.ok() ? *pos : Position();
}

std::string ParseError(const std::string& sfen) {
  absl::StatusOr<Position> pos = Position::FromSfen(sfen);
  EXPECT_FALSE(pos.ok()) << "accepted: " << sfen;
  return pos.ok() ? "" : std::string(pos.status().message());
}

std::string UsiPositionError(const std::string& line) {
  absl::StatusOr<Position> pos = Position::FromUsiPosition(line);
  EXPECT_FALSE(pos.ok()) << "accepted: " << line;
  return pos.ok() ? "" : std::string(pos.status().message());
}

std::string MoveError(const Position& pos, const std::string& usi) {
  absl::StatusOr<Move> m = pos.ParseUsiMove(usi);
  EXPECT_FALSE(m.ok()) << "accepted: " << usi << " in " << pos.Sfen();
  return m.ok() ? "" : std::string(m.status().message());
}

Square Sq(const char* usi) { return MakeSquare(usi[0] - '1', usi[1] - 'a'); }

// Compares everything the position derives incrementally with a copy rebuilt from its SFEN.
void ExpectMatchesRecomputation(const Position& pos) {
  std::string sfen = pos.Sfen();
  absl::StatusOr<Position> fresh = Position::FromSfen(sfen);
  ASSERT_TRUE(fresh.ok()) << sfen << ": " << fresh.status();
  ASSERT_EQ(fresh->Sfen(), sfen);
  EXPECT_EQ(pos.board_key(), fresh->board_key()) << sfen;
  EXPECT_EQ(pos.hand_key(), fresh->hand_key()) << sfen;
  EXPECT_EQ(pos.key(), fresh->key()) << sfen;
  EXPECT_EQ(pos.checkers(), fresh->checkers()) << sfen;
  for (Color c : {kBlack, kWhite}) {
    EXPECT_EQ(pos.blockers_for_king(c), fresh->blockers_for_king(c)) << sfen;
    EXPECT_EQ(pos.pinned(c), fresh->pinned(c)) << sfen;
    EXPECT_EQ(pos.king_square(c), fresh->king_square(c)) << sfen;
    EXPECT_EQ(pos.pieces(c), fresh->pieces(c)) << sfen;
    EXPECT_EQ(pos.hand(c), fresh->hand(c)) << sfen;
  }
  for (int pt = kPawn; pt < kNumPieceTypes; ++pt) {
    EXPECT_EQ(pos.pieces(PieceType(pt)), fresh->pieces(PieceType(pt))) << sfen << " type " << pt;
    if (pt != kKing) {
      EXPECT_EQ(pos.check_squares(PieceType(pt)), fresh->check_squares(PieceType(pt)))
          << sfen << " type " << pt;
    }
  }
  EXPECT_EQ(pos.golds(), fresh->golds()) << sfen;
  Bitboard occupied;
  for (Square sq = 0; sq < kNumSquares; ++sq) {
    EXPECT_EQ(pos.piece_on(sq), fresh->piece_on(sq)) << sfen;
    if (pos.piece_on(sq) != kNoPiece) occupied.Set(sq);
  }
  EXPECT_EQ(pos.occupied(), occupied) << sfen;
}

// ---------------------------------------------------------------------------------------------
// The initial position and SFEN round trips.

TEST(PositionTest, StartPosition) {
  Position pos;
  EXPECT_EQ(pos.Sfen(), Position::kStartSfen);
  EXPECT_EQ(pos.side_to_move(), kBlack);
  EXPECT_EQ(pos.king_square(kBlack), Sq("5i"));
  EXPECT_EQ(pos.king_square(kWhite), Sq("5a"));
  EXPECT_EQ(pos.piece_on(Sq("8h")), MakePiece(kBlack, kBishop));
  EXPECT_EQ(pos.piece_on(Sq("2h")), MakePiece(kBlack, kRook));
  EXPECT_EQ(pos.piece_on(Sq("8b")), MakePiece(kWhite, kRook));
  EXPECT_EQ(pos.piece_on(Sq("1a")), MakePiece(kWhite, kLance));
  EXPECT_EQ(pos.piece_on(Sq("5e")), kNoPiece);
  EXPECT_EQ(pos.pieces(kBlack).Count(), 20);
  EXPECT_EQ(pos.pieces(kWhite).Count(), 20);
  EXPECT_EQ(pos.pieces(kPawn).Count(), 18);
  EXPECT_TRUE(pos.hand(kBlack).Empty());
  EXPECT_FALSE(pos.in_check());
  EXPECT_EQ(pos.ply(), 0);
  absl::StatusOr<Position> keyword = Position::FromSfen("startpos");
  ASSERT_TRUE(keyword.ok());
  EXPECT_EQ(keyword->key(), pos.key());
  absl::StatusOr<Position> usi = Position::FromUsiPosition("position startpos");
  ASSERT_TRUE(usi.ok());
  EXPECT_EQ(usi->Sfen(), Position::kStartSfen);
}

TEST(PositionTest, SfenRoundTripOnEveryProblem) {
  std::vector<std::string> sfens = ProblemSfens(TSUME_SANITIZED ? 10 : 1);
  ASSERT_GT(sfens.size(), 200u) << "problem collections not found";
  int parsed = 0, rejected = 0;
  for (const std::string& sfen : sfens) {
    absl::StatusOr<Position> pos = Position::FromSfen(sfen);
    if (!pos.ok()) {
      ++rejected;
      continue;
    }
    ++parsed;
    std::vector<std::string> fields = absl::StrSplit(sfen, ' ', absl::SkipEmpty());
    ASSERT_EQ(fields.size(), 4u) << sfen;
    std::string expected =
        fields[0] + " " + fields[1] + " " + CanonicalHand(fields[2]) + " " + fields[3];
    ASSERT_EQ(pos->Sfen(std::stoi(fields[3])), expected);
    absl::StatusOr<Position> again = Position::FromSfen(pos->Sfen());
    ASSERT_TRUE(again.ok()) << pos->Sfen();
    ASSERT_EQ(again->key(), pos->key()) << sfen;
  }
  // Only the one rule test that starts with the attacker in check is not a legal position.
  EXPECT_LE(rejected, 3);
  EXPECT_GT(parsed, 200);
}

TEST(PositionTest, SfenAcceptsOptionalMoveNumberAndPrefix) {
  Position a = Parse("4k4/9/9/9/9/9/9/9/4K4 b G2p");
  Position b = Parse("sfen 4k4/9/9/9/9/9/9/9/4K4 b G2p 17");
  EXPECT_EQ(a.key(), b.key());
  EXPECT_EQ(a.Sfen(), "4k4/9/9/9/9/9/9/9/4K4 b G2p 1");
  EXPECT_EQ(a.Sfen(17), "4k4/9/9/9/9/9/9/9/4K4 b G2p 17");
  EXPECT_EQ(a.hand(kBlack).Count(kGold), 1);
  EXPECT_EQ(a.hand(kWhite).Count(kPawn), 2);
  // An attacker without a king is allowed (tsume problems).
  Position no_king = Parse("4k4/9/9/9/9/9/9/9/9 b R 1");
  EXPECT_FALSE(no_king.has_king(kBlack));
  EXPECT_EQ(no_king.king_square(kBlack), kNoSquare);
  // Promoted pieces print back with their '+'.
  EXPECT_EQ(Parse("4k4/9/9/9/9/9/9/+P+L+N+S+B+R3/4K4 w - 1").Sfen(),
            "4k4/9/9/9/9/9/9/+P+L+N+S+B+R3/4K4 w - 1");
}

// ---------------------------------------------------------------------------------------------
// USI positions and moves.

TEST(PositionTest, UsiPositionWithMoves) {
  absl::StatusOr<Position> pos =
      Position::FromUsiPosition("position startpos moves 7g7f 3c3d 8h2b+");
  ASSERT_TRUE(pos.ok()) << pos.status();
  EXPECT_EQ(pos->Sfen(), "lnsgkgsnl/1r5+B1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/7R1/LNSGKGSNL w B 1");
  EXPECT_EQ(pos->ply(), 3);
  EXPECT_EQ(ToUsi(pos->last_move()), "8h2b+");
  EXPECT_EQ(pos->state_at(3).captured, MakePiece(kWhite, kBishop));

  // The same without the promotion, then a drop.
  pos = Position::FromUsiPosition("startpos moves 7g7f 3c3d 8h2b 3a2b B*4e");
  ASSERT_TRUE(pos.ok()) << pos.status();
  EXPECT_EQ(pos->Sfen(), "lnsgkg1nl/1r5s1/pppppp1pp/6p2/5B3/2P6/PP1PPPPPP/7R1/LNSGKGSNL w b 1");

  // sfen form, with "moves" but no moves.
  pos = Position::FromUsiPosition("position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves");
  ASSERT_TRUE(pos.ok()) << pos.status();
  EXPECT_EQ(pos->ply(), 0);
  pos = Position::FromUsiPosition("position sfen 4k4/9/9/9/9/9/9/9/4K4 b G 1 moves G*5b");
  ASSERT_TRUE(pos.ok()) << pos.status();
  EXPECT_TRUE(pos->in_check());
  EXPECT_EQ(pos->Sfen(), "4k4/4G4/9/9/9/9/9/9/4K4 w - 1");
}

TEST(PositionTest, UsiPositionErrorsNameTheMove) {
  EXPECT_THAT(UsiPositionError("position startpos moves 7g7f 7g7f"),
              AllOf(HasSubstr("move 2"), HasSubstr("'7g7f'"), HasSubstr("7g")));
  EXPECT_THAT(UsiPositionError("position startpos moves 7g7f 3c3d 8h2c"),
              AllOf(HasSubstr("move 3"), HasSubstr("8h2c")));
  EXPECT_THAT(UsiPositionError("position startpos moves 7g7x"),
              AllOf(HasSubstr("move 1"), HasSubstr("malformed")));
  EXPECT_THAT(UsiPositionError("position start"), HasSubstr("startpos"));
  EXPECT_THAT(UsiPositionError("position sfen 4k4/9/9 b - 1"), HasSubstr("9 ranks"));
}

TEST(PositionTest, UsiMoveStrings) {
  EXPECT_EQ(ToUsi(Move::Normal(Sq("7g"), Sq("7f"), kPawn, false)), "7g7f");
  EXPECT_EQ(ToUsi(Move::Normal(Sq("8h"), Sq("2b"), kBishop, true)), "8h2b+");
  EXPECT_EQ(ToUsi(Move::Drop(kPawn, Sq("5e"))), "P*5e");
  EXPECT_EQ(ToUsi(Move::Drop(kGold, Sq("1a"))), "G*1a");
  EXPECT_EQ(ToUsi(Move::None()), "none");
  EXPECT_EQ(SquareToUsi(Sq("9i")), "9i");

  Position pos;
  absl::StatusOr<Move> m = pos.ParseUsiMove("7g7f");
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(*m, Move::Normal(Sq("7g"), Sq("7f"), kPawn, false));
  EXPECT_EQ(m->moved_type(), kPawn);
}

TEST(PositionTest, EveryGeneratedMoveRoundTripsThroughUsi) {
  std::vector<std::string> sfens = ProblemSfens(TSUME_SANITIZED ? 400 : 40);
  int checked = 0;
  for (const std::string& sfen : sfens) {
    absl::StatusOr<Position> pos = Position::FromSfen(sfen);
    if (!pos.ok()) continue;
    MoveList moves;
    GenerateLegal(*pos, moves);
    std::set<std::string> seen;
    for (Move m : moves) {
      std::string usi = ToUsi(m);
      EXPECT_TRUE(seen.insert(usi).second) << "duplicate " << usi << " in " << sfen;
      absl::StatusOr<Move> parsed = pos->ParseUsiMove(usi);
      ASSERT_TRUE(parsed.ok()) << usi << " in " << sfen << ": " << parsed.status();
      EXPECT_EQ(*parsed, m) << usi << " in " << sfen;
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000);
}

TEST(PositionTest, ControlCharactersAreRejectedWithTheirPlace) {
  // A newline inside a command-line argument, say: quoted in the error it would split it.
  absl::StatusOr<Position> sfen = Position::FromSfen("4k4/9/9/9/9/9/9/9/9\n b G 1");
  ASSERT_FALSE(sfen.ok());
  EXPECT_EQ(sfen.status().message(), "SFEN: control character 0x0a at byte 20");
  absl::StatusOr<Position> usi =
      Position::FromUsiPosition("position startpos moves 7g7f\x1b[2J 3c3d");
  ASSERT_FALSE(usi.ok());
  EXPECT_THAT(usi.status().message(), HasSubstr("control character 0x1b at byte 29"));
  // Around the text they are whitespace, as before.
  EXPECT_TRUE(Position::FromSfen("4k4/9/9/9/9/9/9/9/9 b G 1\r\n").ok());
}

TEST(PositionTest, BadUsiMovesAreRejectedWithTheReason) {
  Position pos;
  for (const char* malformed : {"7g7", "7g7f++", "0g7f", "7j7f", "P*0e", "K*5e", "X*5e", "x", ""}) {
    EXPECT_THAT(MoveError(pos, malformed), HasSubstr("malformed")) << malformed;
  }
  // No piece of the side to move on the from-square.
  EXPECT_THAT(MoveError(pos, "5e5d"), AllOf(HasSubstr("no piece"), HasSubstr("5e")));
  EXPECT_THAT(MoveError(pos, "3c3d"), AllOf(HasSubstr("no piece"), HasSubstr("3c")));
  // Wrong geometry, no piece in hand, promotion outside the zone.
  EXPECT_THAT(MoveError(pos, "7g7e"), HasSubstr("illegal move '7g7e'"));
  EXPECT_THAT(MoveError(pos, "P*5e"), HasSubstr("illegal move 'P*5e'"));
  EXPECT_THAT(MoveError(pos, "7g7f+"), HasSubstr("illegal move '7g7f+'"));

  // Drop rules: nifu, dead squares, pawn-drop mate; a pawn must promote on the last rank.
  Position drops = Parse("k8/9/1PK6/9/9/9/9/9/9 b PNL 1");
  EXPECT_THAT(MoveError(drops, "P*8e"), HasSubstr("illegal move 'P*8e'"));  // nifu
  EXPECT_THAT(MoveError(drops, "P*5a"), HasSubstr("illegal"));
  EXPECT_THAT(MoveError(drops, "L*5a"), HasSubstr("illegal"));
  EXPECT_THAT(MoveError(drops, "N*5b"), HasSubstr("illegal"));
  EXPECT_TRUE(drops.ParseUsiMove("N*5c").ok());
  EXPECT_TRUE(drops.ParseUsiMove("P*5b").ok());
  Position uchifuzume = Parse("kn7/1s7/9/1N7/9/9/9/9/9 b P 1");
  EXPECT_THAT(MoveError(uchifuzume, "P*9b"), HasSubstr("illegal move 'P*9b'"));
  Position last_rank = Parse("4k4/P8/9/9/9/9/9/9/4K4 b - 1");
  EXPECT_THAT(MoveError(last_rank, "9b9a"), HasSubstr("illegal"));
  EXPECT_TRUE(last_rank.ParseUsiMove("9b9a+").ok());
  // Self-check: a pinned piece may not leave the line.
  Position pinned = Parse("4r4/9/9/9/9/9/9/4G4/4K4 b - 1");
  EXPECT_THAT(MoveError(pinned, "5h4h"), HasSubstr("illegal"));
  EXPECT_TRUE(pinned.ParseUsiMove("5h5g").ok());
}

// ---------------------------------------------------------------------------------------------
// Making and unmaking moves.

TEST(PositionTest, DoUndoRestoresEverythingAlongRandomGames) {
  std::mt19937_64 rng(7);
  std::vector<std::string> starts = ProblemSfens(TSUME_SANITIZED ? 2000 : 200);
  starts.push_back(std::string(Position::kStartSfen));
  int plies = 0;
  for (const std::string& sfen : starts) {
    absl::StatusOr<Position> parsed = Position::FromSfen(sfen);
    if (!parsed.ok()) continue;
    Position pos = *parsed;
    for (int ply = 0; ply < 40; ++ply) {
      MoveList moves;
      GenerateLegal(pos, moves);
      if (moves.empty()) break;
      Move m = moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng)];
      std::string before = pos.Sfen();
      uint64_t board_key = pos.board_key(), hand_key = pos.hand_key();
      Bitboard checkers = pos.checkers(), pinned = pos.pinned(pos.side_to_move());
      uint64_t key_after = pos.KeyAfter(m), board_key_after = pos.BoardKeyAfter(m);
      uint64_t hand_key_after = pos.HandKeyAfter(m);
      Hand hand_after = pos.HandAfter(m);
      Color mover = pos.side_to_move();
      int checks_before = pos.continuous_checks(mover);
      bool gives_check = pos.GivesCheck(m);

      pos.DoMove(m);
      ++plies;
      ASSERT_EQ(pos.last_move(), m);
      ASSERT_EQ(pos.key(), key_after) << before << " " << ToUsi(m);
      ASSERT_EQ(pos.board_key(), board_key_after) << before << " " << ToUsi(m);
      ASSERT_EQ(pos.hand_key(), hand_key_after) << before << " " << ToUsi(m);
      ASSERT_EQ(pos.hand(mover), hand_after) << before << " " << ToUsi(m);
      ASSERT_EQ(pos.in_check(), gives_check) << before << " " << ToUsi(m);
      ASSERT_EQ(pos.continuous_checks(mover), gives_check ? checks_before + 1 : 0);
      ASSERT_NE(pos.board_key(), board_key);  // the side to move flipped at least
      ExpectMatchesRecomputation(pos);
      if (HasFailure()) return;

      pos.UndoMove();
      ASSERT_EQ(pos.Sfen(), before) << ToUsi(m);
      ASSERT_EQ(pos.board_key(), board_key) << before << " " << ToUsi(m);
      ASSERT_EQ(pos.hand_key(), hand_key) << before << " " << ToUsi(m);
      ASSERT_EQ(pos.checkers(), checkers);
      ASSERT_EQ(pos.pinned(pos.side_to_move()), pinned);
      pos.DoMove(m);
    }
  }
  EXPECT_GT(plies, TSUME_SANITIZED ? 500 : 5000);
}

TEST(PositionTest, KeysSeparateBoardAndHands) {
  // Same board, different hands: equal board keys, different hand keys.
  Position a = Parse("4k4/9/9/9/9/9/9/9/4K4 b G 1");
  Position b = Parse("4k4/9/9/9/9/9/9/9/4K4 b S 1");
  Position c = Parse("4k4/9/9/9/9/9/9/9/4K4 w G 1");
  EXPECT_EQ(a.board_key(), b.board_key());
  EXPECT_NE(a.hand_key(), b.hand_key());
  EXPECT_NE(a.key(), b.key());
  // The side to move is part of the board key.
  EXPECT_NE(a.board_key(), c.board_key());
  EXPECT_EQ(a.hand_key(), c.hand_key());
  // A hand of two differs from a hand of one.
  EXPECT_NE(Parse("4k4/9/9/9/9/9/9/9/4K4 b 2G 1").hand_key(), a.hand_key());
}

TEST(PositionTest, CheckInformation) {
  // White's lance pins the Black gold; Black's bishop checks the White king.
  Position pos = Parse("4l4/9/9/9/9/3k5/9/4G4/4K1B2 w - 1");
  EXPECT_TRUE(pos.in_check());
  EXPECT_EQ(pos.checkers(), SquareBB(Sq("3i")));
  EXPECT_EQ(pos.pinned(kBlack), SquareBB(Sq("5h")));
  EXPECT_TRUE(pos.pinned(kWhite).None());
  EXPECT_TRUE(pos.IsAttacked(kBlack, Sq("5g")));
  EXPECT_FALSE(pos.IsAttacked(kBlack, Sq("7e")));  // behind the king
  EXPECT_EQ(pos.AttackersTo(kWhite, Sq("5b")), SquareBB(Sq("5a")));
  // White to move, so the check squares are White's against the Black king.
  EXPECT_TRUE(pos.check_squares(kGold).Test(Sq("5h")));
  EXPECT_TRUE(pos.check_squares(kLance).Test(Sq("5h")));
  EXPECT_FALSE(pos.check_squares(kLance).Test(Sq("5g")));
}

TEST(PositionTest, ContinuousChecksCountBackToTheRootAndEndAtANullMove) {
  // White to move, in check from Black's rook: that check counts for Black.
  Position pos = Parse("4k4/9/4R4/9/9/9/9/9/4K4 w - 1");
  auto play = [&](const char* usi) { pos.DoMove(*pos.ParseUsiMove(usi)); };
  EXPECT_EQ(pos.continuous_checks(kBlack), 1);
  EXPECT_EQ(pos.continuous_checks(kWhite), 0);
  play("5a4a");
  EXPECT_EQ(pos.continuous_checks(kBlack), 1);
  play("5c4c");
  EXPECT_EQ(pos.continuous_checks(kBlack), 2);
  play("4a3a");
  EXPECT_EQ(pos.continuous_checks(kBlack), 2);
  EXPECT_EQ(pos.continuous_checks(kWhite), 0);
  play("4c3c");
  EXPECT_EQ(pos.continuous_checks(kBlack), 3);
  pos.UndoMove();
  EXPECT_EQ(pos.continuous_checks(kBlack), 2);
  // Black passes: a null move is no check, and it ends Black's run.
  pos.DoNullMove();
  EXPECT_EQ(pos.continuous_checks(kBlack), 0);
  pos.UndoMove();
  pos.UndoMove();
  // White passes while in check, then Black: White is in check again, from a pass.
  pos.DoNullMove();
  pos.DoNullMove();
  EXPECT_TRUE(pos.in_check());
  EXPECT_EQ(pos.continuous_checks(kBlack), 0);
  EXPECT_EQ(pos.continuous_checks(kWhite), 0);
}

// ---------------------------------------------------------------------------------------------
// Bad input: every error names the problem and where.

constexpr const char* kStartRanks = "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/";

TEST(PositionTest, SyntaxErrorsNameFieldAndCharacter) {
  std::string s = kStartRanks;
  EXPECT_THAT(ParseError(s + "LNSGKGSNX b - 1"),
              AllOf(HasSubstr("board"), HasSubstr("rank 9"), HasSubstr("'X'")));
  EXPECT_THAT(ParseError(s + "LNSGKGSNLL b - 1"),
              AllOf(HasSubstr("rank 9"), HasSubstr("more than 9 squares")));
  EXPECT_THAT(ParseError(s + "LNSGKGSN b - 1"), AllOf(HasSubstr("rank 9"), HasSubstr("8 squares")));
  EXPECT_THAT(ParseError("lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1 b - 1"),
              AllOf(HasSubstr("9 ranks"), HasSubstr("got 8")));
  EXPECT_THAT(ParseError("4k4/9/9/9/9/9/9/9/4+K4 b - 1"),
              AllOf(HasSubstr("rank 9"), HasSubstr("'K' cannot be promoted")));
  EXPECT_THAT(ParseError("4k4/9/9/9/9/9/9/9/4K3+ b - 1"),
              AllOf(HasSubstr("rank 9"), HasSubstr("'+'")));
  EXPECT_THAT(ParseError(s + "LNSGKGSNL x - 1"),
              AllOf(HasSubstr("side to move"), HasSubstr("'x'")));
  EXPECT_THAT(ParseError(s + "LNSGKGSNL b 2Q 1"), AllOf(HasSubstr("hand"), HasSubstr("'Q'")));
  EXPECT_THAT(ParseError("4k4/9/9/9/9/9/9/9/4K4 b K 1"),
              AllOf(HasSubstr("hand"), HasSubstr("'K'")));
  EXPECT_THAT(ParseError("4k4/9/9/9/9/9/9/9/4K4 b P2 1"),
              AllOf(HasSubstr("hand"), HasSubstr("trailing count")));
  EXPECT_THAT(ParseError("4k4/9/9/9/9/9/9/9/4K4 b 0P 1"),
              AllOf(HasSubstr("hand"), HasSubstr("zero count")));
  EXPECT_THAT(ParseError(s + "LNSGKGSNL b - x"), AllOf(HasSubstr("move number"), HasSubstr("'x'")));
  EXPECT_THAT(ParseError(s + "LNSGKGSNL"), HasSubstr("3 or 4 fields"));
  EXPECT_THAT(ParseError(""), HasSubstr("3 or 4 fields"));
}

TEST(PositionTest, TooManyPiecesOfAKind) {
  // 18 pawns on the board plus one in hand.
  EXPECT_THAT(ParseError(std::string(kStartRanks) + "LNSGKGSNL b P 1"),
              AllOf(HasSubstr("19 pieces of kind 'P'"), HasSubstr("18")));
  // Promoted pieces count as their base kind.
  EXPECT_THAT(ParseError("4k4/9/9/9/9/9/9/+R+R7/4K4 b r 1"), HasSubstr("3 pieces of kind 'R'"));
  EXPECT_THAT(ParseError("4k4/9/9/9/9/9/9/9/4K4 b 3B 1"),
              AllOf(HasSubstr("hand"), HasSubstr("too many 'B'")));
  EXPECT_THAT(ParseError("4k4/9/9/9/9/9/9/9/4K4 b 3G2g 1"), HasSubstr("5 pieces of kind 'G'"));
  EXPECT_THAT(ParseError("4k4/9/9/9/9/9/9/9/4K4 b 19P 1"), HasSubstr("count too large"));
}

TEST(PositionTest, TwoKingsOfOneColour) {
  EXPECT_THAT(ParseError("4k4/9/9/9/9/9/9/9/3K1K3 b - 1"),
              AllOf(HasSubstr("two Black kings"), HasSubstr("6i"), HasSubstr("4i")));
  EXPECT_THAT(ParseError("k7k/9/9/9/9/9/9/9/4K4 b - 1"), HasSubstr("two White kings"));
}

TEST(PositionTest, PiecesThatCanNeverMove) {
  EXPECT_THAT(ParseError("4k1P2/9/9/9/9/9/9/9/4K4 b - 1"),
              AllOf(HasSubstr("P on 3a"), HasSubstr("can never move")));
  EXPECT_THAT(ParseError("4k4/9/9/9/9/9/9/9/4K3l w - 1"),
              AllOf(HasSubstr("l on 1i"), HasSubstr("can never move")));
  EXPECT_THAT(ParseError("L3k4/9/9/9/9/9/9/9/4K4 b - 1"), HasSubstr("L on 9a"));
  EXPECT_THAT(ParseError("4k4/9/9/9/9/9/9/1n7/4K4 w - 1"), HasSubstr("n on 8h"));
  EXPECT_THAT(ParseError("4k4/7N1/9/9/9/9/9/9/4K4 b - 1"), HasSubstr("N on 2b"));
  // The same pieces one rank back, and promoted ones anywhere, are fine.
  Parse("4k4/7P1/9/9/9/9/9/1p7/4K4 b - 1");
  Parse("4k4/9/7N1/9/9/9/1n7/9/4K4 b - 1");
  Parse("+P3k4/+N8/9/9/9/9/9/9/4K3+l b - 1");
}

TEST(PositionTest, Nifu) {
  EXPECT_THAT(ParseError("4k4/9/4P4/9/4P4/9/9/9/4K4 b - 1"),
              AllOf(HasSubstr("two unpromoted Black pawns on file 5"), HasSubstr("nifu")));
  EXPECT_THAT(ParseError("4k4/p8/9/9/p8/9/9/9/4K4 b - 1"),
              HasSubstr("two unpromoted White pawns on file 9"));
  // A promoted pawn on the file, or pawns of both colours, are not nifu.
  Parse("4k4/9/4+P4/9/4P4/9/9/9/4K4 b - 1");
  Parse("4k4/9/4p4/9/4P4/9/9/9/4K4 b - 1");
}

TEST(PositionTest, SideNotToMoveInCheck) {
  EXPECT_THAT(ParseError("4k4/4G4/9/9/9/9/9/9/4K4 b - 1"),
              AllOf(HasSubstr("side not to move"), HasSubstr("White"), HasSubstr("5a")));
  EXPECT_THAT(ParseError("4k4/9/9/9/9/9/9/9/r3K4 w - 1"),
              AllOf(HasSubstr("side not to move"), HasSubstr("Black"), HasSubstr("5i")));
  // The side to move may be in check.
  EXPECT_TRUE(Parse("4k4/4G4/9/9/9/9/9/9/4K4 w - 1").in_check());
}

}  // namespace
}  // namespace tsume
