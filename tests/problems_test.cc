// Collection readers: every format, detection, bad lines, Shift-JIS, 残り全部 / AL, and the
// bundled collections. Fixtures are in tests/testdata/problems/; the KIF and CSA ones are
// problems from problems/practical/sample.txt written as diagrams, so their SFENs are known.
#include <cstring>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "core/position.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"
#include "problems/collection.h"

namespace tsume {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::SizeIs;

std::string Fixture(const std::string& name) {
  return std::string(TSUME_SOURCE_DIR) + "/tests/testdata/problems/" + name;
}
std::string Bundled(const std::string& name) {
  return std::string(TSUME_SOURCE_DIR) + "/problems/" + name;
}
std::string Slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Collection ReadOk(const std::string& path, CollectionFormat format = CollectionFormat::kAuto) {
  absl::StatusOr<Collection> c = ReadCollection(path, format);
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *std::move(c) : Collection{};
}

std::string ErrorsText(const Collection& c) {
  std::string text;
  for (const InputError& e : c.errors) text += FormatInputError(e) + "\n";
  return text;
}

// --- Format names and detection.

TEST(CollectionFormatTest, ParsesEveryNameAndRejectsOthers) {
  for (absl::string_view name : {"auto", "sfen", "practical", "tsv", "kif", "csa"}) {
    absl::StatusOr<CollectionFormat> f = ParseCollectionFormat(name);
    ASSERT_TRUE(f.ok()) << name;
    EXPECT_EQ(CollectionFormatName(*f), name);
  }
  absl::StatusOr<CollectionFormat> bad = ParseCollectionFormat("kifu");
  ASSERT_FALSE(bad.ok());
  EXPECT_THAT(bad.status().message(), HasSubstr("'kifu'"));
}

TEST(CollectionFormatTest, DetectsEachFixtureFormat) {
  const std::map<std::string, CollectionFormat> expected = {
      {"sfen_lines.txt", CollectionFormat::kSfenLines},
      {"practical.txt", CollectionFormat::kPractical},
      {"problems.tsv", CollectionFormat::kTsv},
      {"promotions_utf8.kif", CollectionFormat::kKif},
      {"white_to_move.ki2", CollectionFormat::kKif},
      {"drop_and_recapture.csa", CollectionFormat::kCsa},
  };
  for (const auto& [file, format] : expected) {
    EXPECT_EQ(DetectCollectionFormat(Slurp(Fixture(file))), format) << file;
  }
  absl::StatusOr<std::string> sjis = DecodeToUtf8(Slurp(Fixture("white_to_move_sjis.kif")));
  ASSERT_TRUE(sjis.ok()) << sjis.status();
  EXPECT_EQ(DetectCollectionFormat(*sjis), CollectionFormat::kKif);
  EXPECT_EQ(DetectCollectionFormat(Slurp(Bundled("classics/zukou.tsv"))), CollectionFormat::kTsv);
  EXPECT_EQ(DetectCollectionFormat(Slurp(Bundled("practical/sample.txt"))),
            CollectionFormat::kPractical);
  EXPECT_EQ(DetectCollectionFormat("position startpos moves 7g7f\n"), CollectionFormat::kSfenLines);
}

TEST(CollectionFormatTest, AutoReadsTheSameAsTheForcedFormat) {
  const std::map<std::string, CollectionFormat> files = {
      {"sfen_lines.txt", CollectionFormat::kSfenLines},
      {"practical.txt", CollectionFormat::kPractical},
      {"problems.tsv", CollectionFormat::kTsv},
      {"promotions_utf8.kif", CollectionFormat::kKif},
      {"white_to_move_sjis.kif", CollectionFormat::kKif},
      {"white_to_move.ki2", CollectionFormat::kKif},
      {"drop_and_recapture.csa", CollectionFormat::kCsa},
  };
  for (const auto& [file, format] : files) {
    Collection automatic = ReadOk(Fixture(file));
    Collection forced = ReadOk(Fixture(file), format);
    ASSERT_EQ(automatic.problems.size(), forced.problems.size()) << file;
    EXPECT_EQ(automatic.errors.size(), forced.errors.size()) << file;
    EXPECT_FALSE(automatic.problems.empty()) << file;
    for (size_t i = 0; i < forced.problems.size(); ++i) {
      EXPECT_EQ(automatic.problems[i].sfen, forced.problems[i].sfen) << file;
    }
  }
}

TEST(CollectionFormatTest, ForcingTheWrongFormatReportsErrors) {
  Collection c = ReadOk(Fixture("sfen_lines.txt"), CollectionFormat::kTsv);
  EXPECT_TRUE(c.problems.empty());
  ASSERT_THAT(c.errors, SizeIs(1));
  EXPECT_THAT(c.errors[0].message, HasSubstr("header"));
  EXPECT_THAT(c.errors[0].source, HasSubstr("sfen_lines.txt:2"));
  Collection kif = ReadOk(Fixture("sfen_lines.txt"), CollectionFormat::kKif);
  EXPECT_TRUE(kif.problems.empty());
  ASSERT_THAT(kif.errors, SizeIs(1));
  EXPECT_THAT(kif.errors[0].message, HasSubstr("no board diagram"));
}

// --- SFEN lines.

TEST(SfenLinesTest, ReadsEachFormOfPositionAndReportsBadLines) {
  Collection c = ReadOk(Fixture("sfen_lines.txt"));
  ASSERT_THAT(c.problems, SizeIs(4)) << ErrorsText(c);
  const std::string mate1 = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
  EXPECT_EQ(c.problems[0].sfen, mate1);
  EXPECT_EQ(c.problems[0].id, "sfen_lines.txt:2");
  EXPECT_EQ(c.problems[0].source, Fixture("sfen_lines.txt") + ":2");
  EXPECT_FALSE(c.problems[0].expected_length.has_value());
  EXPECT_TRUE(c.problems[0].solution_usi.empty());
  // "sfen " prefix and a missing move number.
  EXPECT_EQ(c.problems[1].sfen, mate1);
  EXPECT_EQ(c.problems[1].id, "sfen_lines.txt:3");
  // Moves after a position are applied; the move number advances with them.
  EXPECT_EQ(c.problems[2].sfen,
            "lnsgkgsnl/1r5b1/pppppp1pp/6p2/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL b - 3");
  EXPECT_EQ(c.problems[3].sfen,
            "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2");
  EXPECT_EQ(c.problems[3].id, "sfen_lines.txt:7");

  ASSERT_THAT(c.errors, SizeIs(2));
  EXPECT_EQ(c.errors[0].source, Fixture("sfen_lines.txt") + ":6");
  EXPECT_THAT(c.errors[0].message, HasSubstr("'X'"));
  EXPECT_EQ(c.errors[1].source, Fixture("sfen_lines.txt") + ":8");
  EXPECT_THAT(FormatInputError(c.errors[1]),
              HasSubstr("sfen_lines.txt:8: SFEN board: expected 9 ranks"));
}

TEST(SfenLinesTest, IllegalPositionsAndMovesAreReported) {
  Collection c = ParseCollection(
      "k8/9/9/9/9/9/9/9/P8 b - 1\n"
      "P8/9/9/9/9/9/9/9/k8 b - 1\n"  // a Black pawn on rank 1 can never move
      "4k4/9/9/9/9/9/9/9/4K4 b P 1\n"
      "position sfen 4k4/9/9/9/9/9/9/9/4K4 b P 1 moves P*5b\n"   // a checking drop, not mate
      "position sfen 4k4/9/9/9/9/9/9/9/4K4 b - 1 moves P*5b\n",  // no pawn in hand
      "mem", CollectionFormat::kSfenLines);
  EXPECT_THAT(c.problems, SizeIs(3)) << ErrorsText(c);
  ASSERT_THAT(c.errors, SizeIs(2));
  EXPECT_EQ(c.errors[0].source, "mem:2");
  EXPECT_THAT(c.errors[0].message, HasSubstr("can never move"));
  EXPECT_EQ(c.errors[1].source, "mem:5");
  EXPECT_THAT(c.errors[1].message, HasSubstr("P*5b"));
}

// --- Practical lines.

TEST(PracticalTest, TakesTheMovesAsTheSolutionAndReportsBadLines) {
  Collection c = ReadOk(Fixture("practical.txt"));
  ASSERT_THAT(c.problems, SizeIs(2)) << ErrorsText(c);
  const Problem& white = c.problems[0];
  EXPECT_EQ(white.id, "practical.txt:2");
  EXPECT_EQ(white.sfen,
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 42");
  EXPECT_EQ(white.expected_length, 3);
  EXPECT_TRUE(white.expected_mate);
  EXPECT_THAT(white.solution_usi, ElementsAre("B*5g", "4h5h", "7i6i"));
  EXPECT_EQ(c.problems[1].id, "practical.txt:5");
  EXPECT_EQ(c.problems[1].expected_length, 5);

  ASSERT_THAT(c.errors, SizeIs(2));
  EXPECT_EQ(c.errors[0].source, Fixture("practical.txt") + ":3");
  EXPECT_THAT(c.errors[0].message, HasSubstr("solution move 2 '6a6c'"));
  EXPECT_EQ(c.errors[1].source, Fixture("practical.txt") + ":4");
  EXPECT_THAT(c.errors[1].message, HasSubstr("'solution'"));
}

// --- TSV.

TEST(TsvTest, ReadsColumnsByHeaderAndReportsBadRows) {
  Collection c = ReadOk(Fixture("problems.tsv"));
  ASSERT_THAT(c.problems, SizeIs(2)) << ErrorsText(c);
  const Problem& gold = c.problems[0];
  EXPECT_EQ(gold.id, "gold-drop");
  EXPECT_EQ(gold.source, Fixture("problems.tsv") + ":2");
  EXPECT_EQ(gold.expected_length, 1);
  EXPECT_THAT(gold.solution_usi, ElementsAre("G*5b"));
  EXPECT_EQ(gold.category, "mate1");
  EXPECT_EQ(gold.notes, "gold drop, pawn guards it");
  // An empty id cell falls back to "<basename>:<line>".
  EXPECT_EQ(c.problems[1].id, "problems.tsv:7");
  EXPECT_EQ(c.problems[1].expected_length, 3);
  EXPECT_THAT(c.problems[1].solution_usi, SizeIs(3));

  ASSERT_THAT(c.errors, SizeIs(3));
  EXPECT_EQ(c.errors[0].source, Fixture("problems.tsv") + ":3");
  EXPECT_THAT(c.errors[0].message, HasSubstr("unknown expectation 'one'"));
  EXPECT_EQ(c.errors[1].source, Fixture("problems.tsv") + ":4");
  EXPECT_THAT(c.errors[1].message, HasSubstr("9 ranks"));
  EXPECT_EQ(c.errors[2].source, Fixture("problems.tsv") + ":6");
  EXPECT_THAT(c.errors[2].message, HasSubstr("7 fields"));
}

TEST(TsvTest, ExpectationValues) {
  const std::string sfen = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
  std::string text = "category\texpected\tsfen\tnotes\n";
  for (const char* value : {"7", "NOMATE", "NOMATE_WITHIN_3", "MATE", "INVALID_OR_SPECIAL", "",
                            "NOMATE_WITHIN_x", "0"}) {
    text += std::string("c\t") + value + "\t" + sfen + "\tnote\n";
  }
  Collection c = ParseCollection(text, "dir/rules.tsv", CollectionFormat::kAuto);
  ASSERT_THAT(c.problems, SizeIs(6)) << ErrorsText(c);
  EXPECT_EQ(c.problems[0].expected_length, 7);
  EXPECT_TRUE(c.problems[0].expected_mate);
  EXPECT_TRUE(c.problems[1].expected_nomate);
  EXPECT_FALSE(c.problems[1].expected_mate);
  EXPECT_EQ(c.problems[2].nomate_within, 3);
  EXPECT_FALSE(c.problems[2].expected_nomate);
  EXPECT_TRUE(c.problems[3].expected_mate);
  EXPECT_FALSE(c.problems[3].expected_length.has_value());
  const Problem& special = c.problems[4];
  EXPECT_FALSE(special.expected_mate || special.expected_nomate ||
               special.expected_length.has_value() || special.nomate_within.has_value());
  EXPECT_EQ(special.notes, "INVALID_OR_SPECIAL: note");
  EXPECT_FALSE(c.problems[5].expected_mate || c.problems[5].expected_nomate);
  EXPECT_EQ(c.problems[5].id, "rules.tsv:7");
  ASSERT_THAT(c.errors, SizeIs(2));
  EXPECT_EQ(c.errors[0].source, "dir/rules.tsv:8");
  EXPECT_EQ(c.errors[1].source, "dir/rules.tsv:9");
}

TEST(TsvTest, NumbersPastAnyProblemAreErrorsNotOverflows) {
  const std::string sfen = "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1";
  std::string text = "category\texpected\tsfen\tnotes\n";
  for (std::string value : {std::to_string(kMaxStatedPlies), std::to_string(kMaxStatedPlies + 1),
                            std::string("2147483647"), std::string("99999999999"),
                            std::string("NOMATE_WITHIN_2147483647")}) {
    text += "c\t" + value + "\t" + sfen + "\tnote\n";
  }
  Collection c = ParseCollection(text, "big.tsv", CollectionFormat::kTsv);
  ASSERT_THAT(c.problems, SizeIs(1)) << ErrorsText(c);
  EXPECT_EQ(c.problems[0].expected_length, kMaxStatedPlies);
  ASSERT_THAT(c.errors, SizeIs(4));
  EXPECT_EQ(c.errors[0].source, "big.tsv:3");
  EXPECT_THAT(c.errors[0].message, HasSubstr("more than 100000 plies"));

  // A move number as large as an int, advanced by the moves after it: kept at the largest.
  Collection moved = ParseCollection(
      "position sfen 4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 2147483647 moves G*5b\n", "m.txt",
      CollectionFormat::kSfenLines);
  ASSERT_THAT(moved.problems, SizeIs(1)) << ErrorsText(moved);
  EXPECT_TRUE(absl::EndsWith(moved.problems[0].sfen, " 2147483647")) << moved.problems[0].sfen;
}

// --- KIF.

TEST(KifTest, ReadsDiagramRestOfPiecesAndMoveList) {
  Collection c = ReadOk(Fixture("promotions_utf8.kif"));
  ASSERT_THAT(c.problems, SizeIs(1)) << ErrorsText(c);
  EXPECT_TRUE(c.errors.empty()) << ErrorsText(c);
  const Problem& p = c.problems[0];
  // Same position as problems/practical/sample.txt line 26; "後手の持駒：残り全部" gives White
  // exactly the bishop, gold, silver and pawn that are neither on the board nor in Black's hand.
  EXPECT_EQ(p.sfen, "l3k3l/1r1sg1B2/3p2+R1p/2p1pN2P/9/pPP1PP3/3PK1P2/2G1sg3/LNS2+n1NL b 5Pbgsp 1");
  EXPECT_THAT(p.solution_usi, ElementsAre("4d5b+", "5a5b", "3b4c+", "5b4a", "G*4b"));
  EXPECT_EQ(p.expected_length, 5);
  EXPECT_EQ(p.id, "promotions_utf8.kif:4");  // the board's top line
}

TEST(KifTest, ReadsShiftJisWithWhiteToMove) {
  std::string raw = Slurp(Fixture("white_to_move_sjis.kif"));
  ASSERT_FALSE(absl::StrContains(raw, "持駒")) << "fixture should be Shift-JIS, not UTF-8";
  Collection c = ReadOk(Fixture("white_to_move_sjis.kif"));
  ASSERT_THAT(c.problems, SizeIs(1)) << ErrorsText(c);
  const Problem& p = c.problems[0];
  EXPECT_EQ(p.sfen,
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 1");
  EXPECT_THAT(p.solution_usi, ElementsAre("B*5g", "4h5h", "7i6i"));
  EXPECT_EQ(p.expected_length, 3);
  // The same bytes through ParseCollection.
  Collection again = ParseCollection(raw, "x.kif", CollectionFormat::kAuto);
  ASSERT_THAT(again.problems, SizeIs(1)) << ErrorsText(again);
  EXPECT_EQ(again.problems[0].sfen, p.sfen);
}

std::string KifBoard(const std::string& black_hand, const std::string& white_hand,
                     const std::string& extra = "") {
  return "後手の持駒：" + white_hand +
         "\n"
         "  ９ ８ ７ ６ ５ ４ ３ ２ １\n"
         "+---------------------------+\n"
         "| ・ ・ ・ ・v玉 ・ ・ ・ ・|一\n"
         "| ・ ・ ・ ・ ・ ・ ・ ・ ・|二\n"
         "| ・ ・ ・ ・ 歩 ・ ・ ・ ・|三\n"
         "| ・ ・ ・ ・ ・ ・ ・ ・ ・|四\n"
         "| ・ ・ ・ ・ ・ ・ ・ ・ ・|五\n"
         "| ・ ・ ・ ・ ・ ・ ・ ・ ・|六\n"
         "| ・ ・ ・ ・ ・ ・ ・ ・ ・|七\n"
         "| ・ ・ ・ ・ ・ ・ ・ ・ ・|八\n"
         "| ・ ・ ・ ・ ・ ・ ・ ・ ・|九\n"
         "+---------------------------+\n"
         "先手の持駒：" +
         black_hand + "\n" + extra;
}

TEST(KifTest, HandCountsAndRestOfPieces) {
  Collection rest = ParseCollection(KifBoard("金", "残り全部", "   1 ５二金打\n"), "a.kif",
                                    CollectionFormat::kAuto);
  ASSERT_THAT(rest.problems, SizeIs(1)) << ErrorsText(rest);
  EXPECT_EQ(rest.problems[0].sfen, "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
  EXPECT_THAT(rest.problems[0].solution_usi, ElementsAre("G*5b"));

  // Kanji counts, including 十七, and "残り全部" on Black's side.
  Collection counts =
      ParseCollection(KifBoard("残り全部", "飛二　金三　歩十七"), "b.kif", CollectionFormat::kKif);
  ASSERT_THAT(counts.problems, SizeIs(1)) << ErrorsText(counts);
  EXPECT_EQ(counts.problems[0].sfen, "4k4/9/4P4/9/9/9/9/9/9 b 2BG4S4N4L2r3g17p 1");

  Collection none =
      ParseCollection(KifBoard("なし", "なし", "後手番\n"), "c.kif", CollectionFormat::kKif);
  ASSERT_THAT(none.problems, SizeIs(1)) << ErrorsText(none);
  EXPECT_EQ(none.problems[0].sfen, "4k4/9/4P4/9/9/9/9/9/9 w - 1");
}

TEST(KifTest, BadDiagramsAreReportedWithTheirLine) {
  // More pawns than a set has once the hand is counted.
  Collection too_many =
      ParseCollection(KifBoard("歩十八", "残り全部"), "d.kif", CollectionFormat::kKif);
  EXPECT_TRUE(too_many.problems.empty());
  ASSERT_THAT(too_many.errors, SizeIs(1));
  EXPECT_EQ(too_many.errors[0].source, "d.kif:3");
  EXPECT_THAT(too_many.errors[0].message, HasSubstr("pawns"));

  std::string bad_row = KifBoard("金", "なし");
  bad_row.replace(bad_row.find(" 歩"), strlen(" 歩"), " 犬");
  Collection unknown = ParseCollection(bad_row, "e.kif", CollectionFormat::kKif);
  EXPECT_TRUE(unknown.problems.empty());
  ASSERT_THAT(unknown.errors, SizeIs(1));
  EXPECT_EQ(unknown.errors[0].source, "e.kif:6");
  EXPECT_THAT(unknown.errors[0].message, HasSubstr("row 3, column 5"));

  Collection bad_hand = ParseCollection(KifBoard("猫", "なし"), "f.kif", CollectionFormat::kKif);
  ASSERT_THAT(bad_hand.errors, SizeIs(1));
  EXPECT_EQ(bad_hand.errors[0].source, "f.kif:14");

  Collection bad_move =
      ParseCollection(KifBoard("金", "なし", "   1 ５二銀打\n"), "g.kif", CollectionFormat::kKif);
  EXPECT_TRUE(bad_move.problems.empty());
  ASSERT_THAT(bad_move.errors, SizeIs(1));
  EXPECT_EQ(bad_move.errors[0].source, "g.kif:15");
  EXPECT_THAT(bad_move.errors[0].message, HasSubstr("S*5b"));
}

TEST(KifTest, ReadsKi2MovesAndTakesTheSideToMoveFromTheFirstMark) {
  // The same problem as white_to_move_sjis.kif, with KI2 moves and no 後手番 line.
  Collection c = ReadOk(Fixture("white_to_move.ki2"));
  ASSERT_THAT(c.problems, SizeIs(1)) << ErrorsText(c);
  EXPECT_TRUE(c.errors.empty()) << ErrorsText(c);
  const Problem& p = c.problems[0];
  EXPECT_EQ(p.sfen,
            "ln1gkg1nl/6+P2/2sppps1p/2p3p2/p8/P1P1P3P/2NP1PP2/3s1KSR1/L1+b2G1NL w R2Pbgp 1");
  EXPECT_THAT(p.solution_usi, ElementsAre("B*5g", "4h5h", "7i6i"));
  EXPECT_EQ(p.expected_length, 3);

  // promotions_utf8.kif's KIF move list written in KI2, several moves to a line.
  std::string kif = Slurp(Fixture("promotions_utf8.kif"));
  std::string ki2 = kif.substr(0, kif.find("手数----")) +
                    "▲５二桂成　△同　玉\n▲４三角成　△４一玉　▲４二金打\nまで5手で詰み\n";
  Collection promotions = ParseCollection(ki2, "p.ki2", CollectionFormat::kAuto);
  ASSERT_THAT(promotions.problems, SizeIs(1)) << ErrorsText(promotions);
  EXPECT_THAT(promotions.problems[0].solution_usi,
              ElementsAre("4d5b+", "5a5b", "3b4c+", "5b4a", "G*4b"));
  EXPECT_EQ(promotions.problems[0].sfen, ReadOk(Fixture("promotions_utf8.kif")).problems[0].sfen);
  EXPECT_EQ(promotions.problems[0].expected_length, 5);

  // 打 left out where no gold on the board can go; "まで" on the move's own line.
  Collection drop = ParseCollection(KifBoard("金", "残り全部", "▲５二金 まで1手で詰み\n"), "d.ki2",
                                    CollectionFormat::kKif);
  ASSERT_THAT(drop.problems, SizeIs(1)) << ErrorsText(drop);
  EXPECT_THAT(drop.problems[0].solution_usi, ElementsAre("G*5b"));
  EXPECT_EQ(drop.problems[0].expected_length, 1);
}

TEST(KifTest, Ki2MovesThatDoNotFitAreReportedWithTheirLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"▲５二銀打\n", "KI2 move 1 (▲５二銀打): no legal move fits it"},
      {"先手番\n△５二金\n", "KI2 move 1 (△５二金): a move of White's (△), but Black is to move"},
      {"▲５二金打　△同　玉x\n", "KI2 move 2 (△同　玉x): cannot read 'x'"},
      {"▲５二金打\n続く\n", ""},  // a line that is not a move after the list is no move
  };
  for (const auto& [moves, message] : cases) {
    Collection c =
        ParseCollection(KifBoard("金", "残り全部", moves), "e.ki2", CollectionFormat::kKif);
    if (message.empty()) {
      EXPECT_TRUE(c.errors.empty()) << ErrorsText(c);
      continue;
    }
    EXPECT_TRUE(c.problems.empty()) << moves;
    ASSERT_THAT(c.errors, SizeIs(1)) << moves;
    EXPECT_EQ(c.errors[0].message, message);
    // The line of the move at fault (the diagram takes lines 1-14).
    EXPECT_EQ(c.errors[0].source, absl::StrContains(moves, "先手番") ? "e.ki2:16" : "e.ki2:15");
  }
  Collection stray = ParseCollection(KifBoard("金", "残り全部", "▲５二金打　同　玉\n"), "f.ki2",
                                     CollectionFormat::kKif);
  ASSERT_THAT(stray.errors, SizeIs(1));
  EXPECT_EQ(stray.errors[0].message, "KI2 move 1 (▲５二金打　同　玉): cannot read '同　玉'");
}

TEST(KifTest, VariationsAreReadAsWholeLinesFromTheProblem) {
  // promotions_utf8.kif's solution with its variations: at ply 4 the king's other step, then,
  // branching off that one, another fifth move; then one at ply 2 in KI2 (branching off the
  // main line: the others start later), whose 同 is the square of the main line's first move.
  std::string kif = Slurp(Fixture("promotions_utf8.kif"));
  std::string text = kif +
                     "\n変化：4手\n   4 ５一玉(52)\n   5 ４二龍(33)\n   6 詰み\n"
                     "\n変化：5手\n   5 ４二金打\n"
                     "\n変化：2手\n△同　玉　▲４三角成\n△５一玉　▲４二竜\n"
                     "\n変化：1手\n   1 ３六歩(37)\n";  // another first move
  Collection c = ParseCollection(text, "v.kif", CollectionFormat::kKif);
  ASSERT_THAT(c.problems, SizeIs(1)) << ErrorsText(c);
  EXPECT_TRUE(c.errors.empty()) << ErrorsText(c);
  const Problem& p = c.problems[0];
  EXPECT_THAT(p.solution_usi, ElementsAre("4d5b+", "5a5b", "3b4c+", "5b4a", "G*4b"));
  EXPECT_EQ(p.expected_length, 5);
  ASSERT_THAT(p.variations, SizeIs(4));
  EXPECT_EQ(p.variations[0].ply, 4);
  EXPECT_THAT(p.variations[0].usi, ElementsAre("4d5b+", "5a5b", "3b4c+", "5b5a", "3c4b"));
  EXPECT_EQ(p.variations[1].ply, 5);
  EXPECT_THAT(p.variations[1].usi, ElementsAre("4d5b+", "5a5b", "3b4c+", "5b5a", "G*4b"));
  EXPECT_EQ(p.variations[2].ply, 2);
  EXPECT_THAT(p.variations[2].usi, ElementsAre("4d5b+", "5a5b", "3b4c+", "5b5a", "3c4b"));
  EXPECT_EQ(p.variations[3].ply, 1);
  EXPECT_THAT(p.variations[3].usi, ElementsAre("3g3f"));

  // Bad variations are reported with their lines and left out; the problem stays.
  std::string bad = kif +
                    "\n変化：9手\n   9 ４二金打\n"                      // no line has a ninth ply
                    "\n変化：4手\n   4 ５九玉(52)\n"                    // not a legal move
                    "\n変化：x手\n   4 ５一玉(52)\n"                    // no ply
                    "\n変化：4手\n   4 ５一玉(52)\n   5 同　龍(33)\n";  // 5a: 3c does not reach
  Collection partly = ParseCollection(bad, "b.kif", CollectionFormat::kKif);
  ASSERT_THAT(partly.problems, SizeIs(1)) << ErrorsText(partly);
  EXPECT_TRUE(partly.problems[0].variations.empty());
  ASSERT_THAT(partly.errors, SizeIs(4)) << ErrorsText(partly);
  // The header's error comes as it is read, the others once the lines are replayed.
  int first = int(std::count(kif.begin(), kif.end(), '\n'));  // the fixture's lines
  EXPECT_EQ(partly.errors[0].source, absl::StrCat("b.kif:", first + 8));
  EXPECT_THAT(partly.errors[0].message, HasSubstr("変化：<ply>手"));
  EXPECT_EQ(partly.errors[1].source, absl::StrCat("b.kif:", first + 2));
  EXPECT_EQ(partly.errors[1].message,
            "KIF variation at ply 9: no line before it has a move at that ply");
  EXPECT_EQ(partly.errors[2].source, absl::StrCat("b.kif:", first + 6));
  EXPECT_THAT(partly.errors[2].message, HasSubstr("KIF variation at ply 4: KIF move 4 (5b5i)"));
  EXPECT_EQ(partly.errors[3].source, absl::StrCat("b.kif:", first + 13));
  EXPECT_THAT(partly.errors[3].message, HasSubstr("KIF variation at ply 4: KIF move 5 (3c5a)"));
}

TEST(KifTest, NumbersPastAnyProblemAreErrorsNotOverflows) {
  // Named on the hand's line, as written.
  for (const char* items : {"歩99999999999", "歩2147483647　歩2147483647", "金　歩十　歩九"}) {
    Collection hand = ParseCollection(KifBoard(items, "なし"), "h.kif", CollectionFormat::kKif);
    EXPECT_TRUE(hand.problems.empty()) << items;
    ASSERT_THAT(hand.errors, SizeIs(1)) << items;
    EXPECT_EQ(hand.errors[0].source, "h.kif:14") << items;
    EXPECT_THAT(hand.errors[0].message, HasSubstr("makes more than the 18 a set has")) << items;
  }
  Collection hand =
      ParseCollection(KifBoard("歩99999999999", "なし"), "h.kif", CollectionFormat::kKif);
  EXPECT_THAT(hand.errors[0].message, HasSubstr("'歩99999999999'"));

  for (const char* length : {"99999999999", "0"}) {
    Collection stated = ParseCollection(
        KifBoard("金", "残り全部", absl::StrCat("   1 ５二金打\nまで", length, "手で詰み\n")),
        "l.kif", CollectionFormat::kKif);
    EXPECT_TRUE(stated.problems.empty()) << length;
    ASSERT_THAT(stated.errors, SizeIs(1)) << length;
    EXPECT_EQ(stated.errors[0].source, "l.kif:16");
    EXPECT_THAT(stated.errors[0].message, HasSubstr(absl::StrCat("stated length ", length)));
  }
}

TEST(InputErrorTest, ControlCharactersAreWrittenAsEscapes) {
  EXPECT_EQ(EscapeControlCharacters("a\nb\rc\td\x1b[2J\x7f 歩"), "a\\nb\\rc\\td\\x1b[2J\\x7f 歩");
  EXPECT_EQ(FormatInputError({"new\nline.txt:3", "bad"}), "new\\nline.txt:3: bad");
  absl::StatusOr<Collection> missing = ReadCollection("no\nsuch.txt", CollectionFormat::kAuto);
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().message(), "no\\nsuch.txt: cannot open");
}

// --- CSA.

TEST(CsaTest, ReadsRowsHandsAllRemainingAndMoves) {
  Collection c = ReadOk(Fixture("drop_and_recapture.csa"));
  ASSERT_THAT(c.problems, SizeIs(1)) << ErrorsText(c);
  const Problem& p = c.problems[0];
  // problems/practical/sample.txt line 15; "P-00AL" gives White its game hand.
  EXPECT_EQ(p.sfen, "lnkgp1+R1l/1rs4+P1/p1ppG2p1/4N3p/3S5/P7P/2+lPP4/2G1KP3/L1S4+b1 b BN2Pgsn4p 1");
  EXPECT_THAT(p.solution_usi, ElementsAre("B*6b", "6a6b", "5c6b"));
  EXPECT_EQ(p.expected_length, 3);
  EXPECT_EQ(p.id, "drop_and_recapture.csa:3");
}

TEST(CsaTest, InitialPositionPieceListsAndErrors) {
  Collection handicap = ParseCollection("PI82HI22KA\n-\n", "h.csa", CollectionFormat::kAuto);
  ASSERT_THAT(handicap.problems, SizeIs(1)) << ErrorsText(handicap);
  EXPECT_EQ(handicap.problems[0].sfen,
            "lnsgkgsnl/9/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL w - 1");

  Collection pieces = ParseCollection("P-51OU\nP+53FU\nP+00KI\nP-00AL\n+\n+0052KI\n", "m.csa",
                                      CollectionFormat::kAuto);
  ASSERT_THAT(pieces.problems, SizeIs(1)) << ErrorsText(pieces);
  EXPECT_EQ(pieces.problems[0].sfen, "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1");
  EXPECT_THAT(pieces.problems[0].solution_usi, ElementsAre("G*5b"));

  Collection bad = ParseCollection("P-51OU\nP+53XX\n+\n", "bad.csa", CollectionFormat::kCsa);
  EXPECT_TRUE(bad.problems.empty());
  ASSERT_THAT(bad.errors, SizeIs(1));
  EXPECT_EQ(bad.errors[0].source, "bad.csa:2");
  EXPECT_THAT(bad.errors[0].message, HasSubstr("53XX"));

  Collection wrong_piece =
      ParseCollection("P-51OU\nP+53FU\nP+00KI\n+\n+0052GI\n", "w.csa", CollectionFormat::kCsa);
  ASSERT_THAT(wrong_piece.errors, SizeIs(1));
  EXPECT_EQ(wrong_piece.errors[0].source, "w.csa:5");
}

// --- Decoding and files.

TEST(DecodeTest, KeepsUtf8DropsBomAndRejectsGarbage) {
  absl::StatusOr<std::string> bom = DecodeToUtf8(
      "\xEF\xBB\xBF"
      "持駒");
  ASSERT_TRUE(bom.ok());
  EXPECT_EQ(*bom, "持駒");
  absl::StatusOr<std::string> sjis = DecodeToUtf8("\x8E\x9D\x8B\xEE");  // 持駒 in Shift-JIS
  ASSERT_TRUE(sjis.ok()) << sjis.status();
  EXPECT_EQ(*sjis, "持駒");
  EXPECT_FALSE(DecodeToUtf8("\xFF\xFF\xFF").ok());
  Collection c = ParseCollection("\xFF\xFF\xFF", "junk.txt", CollectionFormat::kAuto);
  ASSERT_THAT(c.errors, SizeIs(1));
  EXPECT_EQ(c.errors[0].source, "junk.txt:1");
}

TEST(DecodeTest, UnreadableFilesAreErrorsNamingThePath) {
  absl::StatusOr<Collection> missing = ReadCollection("/nonexistent/problems.txt");
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("/nonexistent/problems.txt"));

  std::string junk = testing::TempDir() + "/problems_test_junk.txt";
  std::ofstream(junk, std::ios::binary) << "\xFF\xFF\xFF";
  absl::StatusOr<Collection> undecodable = ReadCollection(junk);
  ASSERT_FALSE(undecodable.ok());
  EXPECT_THAT(undecodable.status().message(), HasSubstr(junk));
}

// "-" reads standard input; its problems and bad lines are named "stdin:LINE".
TEST(DecodeTest, DashReadsStandardInput) {
  std::istringstream input("4k4/9/4P4/9/9/9/9/9/9 b G 1\nnot an sfen\n");
  std::streambuf* saved = std::cin.rdbuf(input.rdbuf());
  absl::StatusOr<Collection> c = ReadCollection("-");
  std::cin.rdbuf(saved);
  ASSERT_TRUE(c.ok()) << c.status();
  ASSERT_THAT(c->problems, SizeIs(1));
  EXPECT_EQ(c->problems[0].source, "stdin:1");
  EXPECT_EQ(c->problems[0].sfen, "4k4/9/4P4/9/9/9/9/9/9 b G 1");
  ASSERT_THAT(c->errors, SizeIs(1));
  EXPECT_EQ(c->errors[0].source, "stdin:2");

  std::istringstream nothing("");
  saved = std::cin.rdbuf(nothing.rdbuf());
  absl::StatusOr<Collection> empty = ReadCollection("-");
  std::cin.rdbuf(saved);
  ASSERT_TRUE(empty.ok()) << empty.status();
  ASSERT_THAT(empty->errors, SizeIs(1));
  EXPECT_EQ(FormatInputError(empty->errors[0]), "stdin: empty file");
}

// A directory is named as one (reading it used to throw); a file with nothing to solve is an
// input error naming the file, not an empty run.
TEST(DecodeTest, DirectoriesAndFilesWithoutProblemsAreErrors) {
  absl::StatusOr<Collection> directory = ReadCollection(testing::TempDir());
  ASSERT_FALSE(directory.ok());
  EXPECT_THAT(directory.status().message(), HasSubstr("a directory, not a file of problems"));

  std::string empty = testing::TempDir() + "/problems_test_empty.txt";
  std::ofstream(empty) << "\n  \n";
  Collection blank = ReadOk(empty);
  EXPECT_THAT(blank.problems, SizeIs(0));
  ASSERT_THAT(blank.errors, SizeIs(1));
  EXPECT_EQ(FormatInputError(blank.errors[0]), empty + ": empty file");

  std::string header_only = testing::TempDir() + "/problems_test_header.tsv";
  std::ofstream(header_only) << "# id\tsfen\n";
  Collection no_rows = ReadOk(header_only);
  ASSERT_THAT(no_rows.errors, SizeIs(1));
  EXPECT_EQ(no_rows.errors[0].message, "no problems in the file (read as tsv)");

  // A file that is no collection (a licence caught by a wildcard) is one error, not one a
  // line; a few bad lines are each listed.
  std::string prose = testing::TempDir() + "/problems_test_prose.txt";
  std::ofstream(prose) << "This program is free software.\n\nIt comes with no warranty\nat all,"
                       << "\nnot even the implied\nwarranty of merchantability.\n";
  Collection licence = ReadOk(prose);
  EXPECT_THAT(licence.problems, SizeIs(0));
  ASSERT_THAT(licence.errors, SizeIs(1));
  EXPECT_EQ(FormatInputError(licence.errors[0]),
            prose + ": no problems in the file (read as sfen): 5 errors, the first at line 1: " +
                "SFEN needs 3 or 4 fields (board, side, hand, [move number]), got 5");
  std::string two_bad = testing::TempDir() + "/problems_test_two_bad.txt";
  std::ofstream(two_bad) << "garbage\nmore garbage\n";
  Collection listed = ReadOk(two_bad);
  ASSERT_THAT(listed.errors, SizeIs(2));
  EXPECT_EQ(listed.errors[1].source, two_bad + ":2");
}

// A file whose text shows no format is read as the format its name promises, so that its
// errors are that format's (a garbled .csa file was read as SFEN lines and said "SFEN needs
// 3 or 4 fields"); other names, and text that shows its format, are unaffected.
// Reads a file named `name` holding `text`.
Collection ReadWritten(const std::string& name, const std::string& text) {
  std::string path = testing::TempDir() + "/problems_test_" + name;
  std::ofstream(path) << text;
  return ReadOk(path);
}

TEST(DecodeTest, AnUnrecognisedFileIsReadAsItsExtensionSays) {
  // The garbled line's error, read from a file of each name.
  for (const auto& [name, says_sfen] :
       std::vector<std::pair<std::string, bool>>{{"garbled.CSA", false},
                                                 {"garbled.kif", false},
                                                 {"garbled.ki2", false},
                                                 {"garbled.txt", true}}) {
    Collection c = ReadWritten(name, "garbage\n");
    ASSERT_THAT(c.errors, SizeIs(1)) << name;
    EXPECT_EQ(absl::StrContains(c.errors[0].message, "SFEN"), says_sfen) << c.errors[0].message;
    if (name == "garbled.CSA") {
      EXPECT_THAT(c.errors[0].message, HasSubstr("CSA"));
    }
  }
  // An SFEN line in a file named .kif is still an SFEN line.
  Collection sfen = ReadWritten("sfen.kif", "4k4/9/4P4/9/9/9/9/9/9 b G2r2b3g4s4n4l17p 1\n");
  EXPECT_TRUE(sfen.errors.empty()) << ErrorsText(sfen);
  EXPECT_THAT(sfen.problems, SizeIs(1));
}

// Garbled input, as many ways as a few thousand random edits of the fixtures make it: every
// reader either yields problems whose SFEN parses or one-line errors naming the input and
// line, and never crashes (a 300,000-edit run under ASan/UBSan found nothing either).
TEST(ReaderRobustnessTest, RandomlyEditedInputsGiveProblemsOrOneLineErrors) {
  std::vector<std::string> seeds;
  for (const char* name :
       {"drop_and_recapture.csa", "practical.txt", "problems.tsv", "promotions_utf8.kif",
        "sfen_lines.txt", "white_to_move_sjis.kif", "white_to_move.ki2"}) {
    seeds.push_back(Slurp(Fixture(name)));
    ASSERT_FALSE(seeds.back().empty()) << name;
  }
  const std::string alphabet =
      "0123456789/+-* bwPLNSGBRKplnsgbrk\n\t#'abcdefghi:同成打竜馬玉と歩香桂銀金角飛持駒▲△";
  std::mt19937_64 rng(20261127);
  int problems = 0, errors = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string text = seeds[rng() % seeds.size()];
    for (int edits = 1 + int(rng() % 8); edits > 0 && !text.empty(); --edits) {
      size_t at = rng() % text.size();
      switch (rng() % 3) {
        case 0:
          text[at] = alphabet[rng() % alphabet.size()];
          break;
        case 1:
          text.erase(at, 1 + rng() % 5);
          break;
        default:
          text.insert(at, text.substr(rng() % text.size(), rng() % 20));
      }
    }
    for (CollectionFormat format :
         {CollectionFormat::kAuto, CollectionFormat::kKif, CollectionFormat::kCsa,
          CollectionFormat::kTsv, CollectionFormat::kPractical, CollectionFormat::kSfenLines}) {
      Collection c = ParseCollection(text, "edited", format);
      for (const InputError& error : c.errors) {
        ++errors;
        ASSERT_TRUE(absl::StartsWith(error.source, "edited")) << error.source;
        ASSERT_FALSE(error.message.empty()) << error.source;
        ASSERT_EQ(error.message.find('\n'), std::string::npos) << error.message;
      }
      for (const Problem& problem : c.problems) {
        ++problems;
        ASSERT_TRUE(Position::FromSfen(problem.sfen).ok()) << problem.sfen;
      }
    }
  }
  // The edits leave both kinds of outcome, many times over.
  EXPECT_GT(problems, 1000);
  EXPECT_GT(errors, 1000);
}

// --- The bundled collections.

TEST(BundledTest, ZukouHasAllHundredProblemsWithTheirLengths) {
  Collection c = ReadOk(Bundled("classics/zukou.tsv"));
  EXPECT_TRUE(c.errors.empty()) << ErrorsText(c);
  ASSERT_THAT(c.problems, SizeIs(100));
  std::map<std::string, int> length;
  for (const Problem& p : c.problems) {
    ASSERT_TRUE(p.expected_length.has_value()) << p.id;
    EXPECT_EQ(int(p.solution_usi.size()), *p.expected_length) << p.id;
    EXPECT_EQ(*p.expected_length % 2, 1) << p.id;
    length[p.id] = *p.expected_length;
  }
  EXPECT_EQ(c.problems.front().id, "zukou-001");
  EXPECT_EQ(length["zukou-001"], 69);
  EXPECT_EQ(length["zukou-083"], 261);
  EXPECT_EQ(length["zukou-099"], 117);
  EXPECT_EQ(length["zukou-100"], 611);
  int longest = 0, shortest = 1000;
  for (const auto& [id, n] : length) {
    longest = std::max(longest, n);
    shortest = std::min(shortest, n);
  }
  EXPECT_EQ(shortest, 9);
  EXPECT_EQ(longest, 611);
}

TEST(BundledTest, OtherClassics) {
  Collection micro = ReadOk(Bundled("classics/microcosmos.tsv"));
  ASSERT_THAT(micro.problems, SizeIs(1)) << ErrorsText(micro);
  EXPECT_EQ(micro.problems[0].expected_length, 1525);
  EXPECT_THAT(micro.problems[0].solution_usi, SizeIs(1525));
  Collection judgment = ReadOk(Bundled("classics/last_judgment.tsv"));
  ASSERT_THAT(judgment.problems, SizeIs(1)) << ErrorsText(judgment);
  EXPECT_EQ(judgment.problems[0].id, "last-judgment");
  EXPECT_EQ(judgment.problems[0].expected_length, 69);
}

TEST(BundledTest, RuleTestsHaveEveryRowWithItsExpectation) {
  Collection c = ReadOk(Bundled("rules/rule_tests.tsv"));
  EXPECT_TRUE(c.errors.empty()) << ErrorsText(c);
  ASSERT_THAT(c.problems, SizeIs(101));
  int lengths = 0, nomate = 0, within = 0, mate_only = 0, special = 0;
  std::map<std::string, int> categories;
  for (const Problem& p : c.problems) {
    ++categories[p.category];
    if (p.expected_length) ++lengths;
    if (p.expected_nomate) ++nomate;
    if (p.nomate_within) ++within;
    if (p.expected_mate && !p.expected_length) ++mate_only;
    if (absl::StartsWith(p.notes, "INVALID_OR_SPECIAL")) ++special;
    EXPECT_TRUE(absl::StartsWith(p.id, "rule_tests.tsv:")) << p.id;
  }
  EXPECT_EQ(lengths, 79);
  EXPECT_EQ(nomate, 6);
  EXPECT_EQ(within, 10);
  EXPECT_EQ(mate_only, 5);
  EXPECT_EQ(special, 1);
  EXPECT_EQ(categories["mate3"], 22);
  EXPECT_EQ(categories["uchifuzume"], 3);
  EXPECT_EQ(c.problems[0].source, Bundled("rules/rule_tests.tsv") + ":2");
}

TEST(BundledTest, PracticalSampleHasTwentyOfEachLength) {
  Collection c = ReadOk(Bundled("practical/sample.txt"));
  EXPECT_TRUE(c.errors.empty()) << ErrorsText(c);
  ASSERT_THAT(c.problems, SizeIs(200));
  std::map<int, int> by_length;
  int white_to_move = 0;
  for (const Problem& p : c.problems) {
    ASSERT_TRUE(p.expected_length.has_value());
    EXPECT_EQ(int(p.solution_usi.size()), *p.expected_length);
    ++by_length[*p.expected_length];
    if (p.sfen.find(" w ") != std::string::npos) ++white_to_move;
  }
  // mate3..mate11 (20 each) then extra1..extra9 (20 each).
  EXPECT_EQ(by_length, (std::map<int, int>{{1, 20}, {3, 40}, {5, 40}, {7, 40}, {9, 40}, {11, 20}}));
  EXPECT_GT(white_to_move, 0);
  EXPECT_LT(white_to_move, 200);
}

TEST(BundledTest, PerftTableReadsAsTsv) {
  Collection c = ReadOk(Bundled("perft/perft.tsv"));
  EXPECT_TRUE(c.errors.empty()) << ErrorsText(c);
  ASSERT_THAT(c.problems, SizeIs(16));
  EXPECT_EQ(c.problems[0].id, "startpos");
  EXPECT_EQ(c.problems[0].sfen, std::string(Position::kStartSfen));
}

// Writing a .kif file: the inverse of DecodeToUtf8.
TEST(EncodeShiftJisTest, WritesTheKifCharactersInShiftJis) {
  // ▲ 81A3, △ 81A2, ７ 8256, 歩 95E0 in the JIS X 0208 table.
  EXPECT_EQ(*EncodeShiftJis("▲７歩△"), "\x81\xA3\x82\x56\x95\xE0\x81\xA2");
  EXPECT_EQ(*EncodeShiftJis("1 ab\n"), "1 ab\n");
  // A whole record reads back as the same text.
  const std::string record =
      "後手の持駒：銀　歩　\n| ・ 全 ・ ・ ・ ・ 馬 ・ ・|二\n   2 同　玉(53)\n変化：3手\n"
      "*余詰 (alternative_mate) at ply 1: 龍 圭 杏 成銀 打 不成\nまで5手で詰み\n";
  absl::StatusOr<std::string> back = DecodeToUtf8(*EncodeShiftJis(record));
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, record);
}

TEST(EncodeShiftJisTest, WhatShiftJisCannotHoldBecomesAQuestionMark) {
  EXPECT_EQ(*EncodeShiftJis("a\xF0\x9F\x80\x84"
                            "b"),
            "a?b");  // U+1F004, no Shift-JIS code
  EXPECT_EQ(*EncodeShiftJis("a\xFF"
                            "b"),
            "a?b");                               // not UTF-8
  EXPECT_EQ(*EncodeShiftJis("a\xE6\xAD"), "a?");  // cut short at the end
}

}  // namespace
}  // namespace tsume
