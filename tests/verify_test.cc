// VerifyProblem and `tsume verify`: 余詰 told apart from 手順前後 (an alternative whose line
// rejoins the main line), 変同 (other defences as long as the main line's, useless drops left
// out), verdicts under tight limits, and the whole verification's nodes and time. The positions
// were built for these tests and checked with the binary; every classification is checked here
// again from its definition with a solver of the test's own.
#include "solver/verify.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "core/movegen.h"
#include "core/position.h"
#include "nlohmann/json.hpp"
#include "problems/collection.h"
#include "solver/dfpn.h"
#include "tests/json_lines_util.h"
#include "tools/build_info.h"
#include "tools/commands.h"
#include "tools/kif_output.h"

namespace tsume {
namespace {

// Mate in 5. The dragon (4b2b) and the knight (3d2b+) are both sacrificed on 2b and taken by
// the silver on 2a, in either order; the silver on 3c takes last and S*1b mates. The two orders
// reach the same position after four plies: a pure 手順前後.
constexpr char kSwap[] = "7sk/5+R3/2R3s1G/6N2/9/9/9/9/9 b 2b3g2s3n4l18p 1";
// Mate in 7. The gold (1c1b) and the dragon (4b1b) are sacrificed on 1b in either order
// (手順前後); at ply 5 the tokin (1d2c) mates as well as the silver: a real 余詰.
constexpr char kRealAlternative[] = "7sk/5+R3/8G/6S1+P/6r2/9/9/9/9 b 2b3g2s4n4l17p 1";
// Mate in 7 with a king chased along the first rank. At ply 4 the king may step to 5b instead
// of 5a (変同); drops on 4c, between the dragon on 4d and the king on 4b, last as long counted
// naively but are useless (the dragon takes and mates sooner than the line through the drop).
constexpr char kVariations[] = "9/6p2/6k2/8+R/9/9/5+B1+R1/9/9 b Gb3g4s4n4l17p 1";

// Mates in 3 from the practical set (mate3.txt lines 107 and 1962). The rook on 3e checks on
// 3b promoting or not, and the lance mates on 2b either way (成・不成非限定). The rook is dropped
// on 7a, 7b or 7c above the king on 7d, and the bishop mates on 7d either way (打点非限定).
constexpr char kPromotionChoice[] =
    "l3g2n1/2+P1g3k/3G1p3/pp2p2LP/3L2RS1/1s2PSn2/PP1+p1P3/9/3GK2N1 b r2bsnl7p 123";
constexpr char kDropSquareChoice[] =
    "l6+B1/5s3/pG4pP1/2kpppg1p/2p2N1p1/1L2PPP1P/Pp1S5/2G2GS+s1/LN1K4L b RBr2n3p 93";

// Zuko 13 (23 plies here): its first mate comes within a few thousand nodes, the proof that
// none is shorter takes millions.
constexpr char kZuko13[] = "2lS5/1kgp5/pB3+r3/3+b+P4/PlpgS4/9/9/9/9 b R2SP2g4n2l12p 1";

SolveOptions TestOptions(int64_t max_nodes = 0) {
  SolveOptions options;
  options.hash_mb = 16;
  options.max_nodes = max_nodes;
  return options;
}

Position FromSfen(const char* sfen);

// Zuko 13 verified within 400k nodes: the solve stops with a mate in hand, not yet proven
// shortest.
VerifyReport VerifyZuko13WithinLimit(std::optional<int> stated,
                                     const std::vector<Move>& intended = {}) {
  Solver solver(TestOptions(400000));
  return VerifyProblem(solver, FromSfen(kZuko13), stated, intended);
}

Position FromSfen(const char* sfen) {
  absl::StatusOr<Position> pos = Position::FromSfen(sfen);
  EXPECT_TRUE(pos.ok()) << pos.status();
  return pos.ok() ? *pos : Position();
}

Position PositionBefore(const Position& start, const std::vector<Move>& line, int ply) {
  Position pos = start;
  for (int i = 0; i + 1 < ply; ++i) pos.DoMove(line[i]);
  return pos;
}

// A problem's solution_usi column as moves; a move that does not parse fails the test and
// ends the line there.
std::vector<Move> IntendedLine(const Problem& problem) {
  std::vector<Move> line;
  Position replay = FromSfen(problem.sfen.c_str());
  for (const std::string& usi : problem.solution_usi) {
    absl::StatusOr<Move> m = replay.ParseUsiMove(usi);
    if (!m.ok()) {
      ADD_FAILURE() << "not a move here: " << usi;
      break;
    }
    line.push_back(*m);
    replay.DoMove(*m);
  }
  return line;
}

// Plays `line` from `from`, checking each move's legality; returns the final position.
Position Replay(const Position& from, const std::vector<Move>& line) {
  Position pos = from;
  for (Move m : line) {
    EXPECT_TRUE(pos.IsFullyLegal(m)) << ToUsi(m) << " in " << pos.Sfen();
    if (!pos.IsFullyLegal(m)) break;
    pos.DoMove(m);
  }
  return pos;
}

// The definition of 手順前後, checked directly: does `alternative`, played from the position
// before `ply`, reach a position of the main line after `ply`?
bool RejoinsMainLine(const Position& start, const std::vector<Move>& main_line, int ply,
                     const std::vector<Move>& alternative) {
  std::set<std::string> later;
  Position pos = start;
  for (int i = 0; i < int(main_line.size()); ++i) {
    pos.DoMove(main_line[i]);
    if (i + 1 >= ply) later.insert(pos.Sfen());
  }
  pos = PositionBefore(start, main_line, ply);
  for (Move m : alternative) {
    pos.DoMove(m);
    if (later.count(pos.Sfen())) return true;
  }
  return false;
}

// Checks every 余詰 and 手順前後 of the report against the definitions: each line is legal,
// starts with another check, mates within the remaining length, and rejoins the main line
// exactly when it is a 手順前後.
void ExpectAlternativesClassified(const Position& start, const VerifyReport& report) {
  const std::vector<Move>& main_line = report.main_line;
  auto check = [&](const Flaw& f, bool rejoins) {
    SCOPED_TRACE(f.detail);
    ASSERT_GE(f.ply, 1);
    ASSERT_FALSE(f.line.empty());
    EXPECT_NE(f.line[0], main_line[f.ply - 1]);
    int remaining = int(main_line.size()) - f.ply + 1;
    EXPECT_LE(int(f.line.size()), remaining);
    Position end = Replay(PositionBefore(start, main_line, f.ply), f.line);
    EXPECT_TRUE(IsCheckmate(end)) << end.Sfen();
    EXPECT_EQ(RejoinsMainLine(start, main_line, f.ply, f.line), rejoins);
  };
  for (const Flaw& f : report.flaws) {
    if (f.kind == FlawKind::kAlternativeMate) check(f, false);
  }
  for (const Flaw& f : report.notes) {
    if (f.kind == FlawKind::kTransposition) check(f, true);
    if (f.kind != FlawKind::kNonLimitation) continue;
    // 非限定: mates in time, and is the main line's move with the other promotion choice or
    // the same piece dropped on another square of its line from the king.
    SCOPED_TRACE(f.detail);
    ASSERT_FALSE(f.line.empty());
    Move m = f.line[0], main = main_line[f.ply - 1];
    EXPECT_NE(m, main);
    Position before = PositionBefore(start, main_line, f.ply);
    EXPECT_TRUE(IsCheckmate(Replay(before, f.line)));
    if (m.is_drop()) {
      ASSERT_TRUE(main.is_drop());
      // The note's other drops as well (its line is the first one's).
      std::vector<Move> drops = {m};
      drops.insert(drops.end(), f.others.begin(), f.others.end());
      for (Move drop : drops) {
        SCOPED_TRACE(ToUsi(drop));
        ASSERT_TRUE(drop.is_drop());
        EXPECT_NE(drop, main);
        EXPECT_EQ(drop.dropped_type(), main.dropped_type());
        Square king = before.king_square(~before.side_to_move());
        EXPECT_TRUE(Between(king, drop.to()).Test(main.to()) ||
                    Between(king, main.to()).Test(drop.to()));
      }
    } else {
      EXPECT_TRUE(f.others.empty());
      ASSERT_FALSE(main.is_drop());
      EXPECT_EQ(m.from(), main.from());
      EXPECT_EQ(m.to(), main.to());
      EXPECT_NE(m.is_promotion(), main.is_promotion());
    }
  }
}

// A path of this test process's own in the test temporary directory: `stem`, the process id,
// `extension`.
std::string ScratchPath(const std::string& stem, const std::string& extension = "") {
  return ::testing::TempDir() + stem + "_" + std::to_string(getpid()) + extension;
}

int CountKind(const std::vector<Flaw>& flaws, FlawKind kind) {
  int n = 0;
  for (const Flaw& f : flaws) n += f.kind == kind;
  return n;
}

TEST(VerifyTest, NamesOfTheNewKinds) {
  EXPECT_STREQ(ToString(FlawKind::kTransposition), "transposition");
  EXPECT_STREQ(JapaneseName(FlawKind::kTransposition), "手順前後");
  EXPECT_STREQ(ToString(FlawKind::kNonLimitation), "non_limitation");
  EXPECT_STREQ(JapaneseName(FlawKind::kNonLimitation), "非限定");
  EXPECT_STREQ(ToString(FlawKind::kSameLengthVariation), "same_length_variation");
  EXPECT_STREQ(JapaneseName(FlawKind::kSameLengthVariation), "変同");
  EXPECT_STREQ(ToString(FlawKind::kLongerVariation), "longer_variation");
  EXPECT_STREQ(JapaneseName(FlawKind::kLongerVariation), "変長");
  EXPECT_STREQ(ToString(FlawKind::kVariationAlternativeMate), "variation_alternative_mate");
  EXPECT_STREQ(JapaneseName(FlawKind::kVariationAlternativeMate), "変化別詰");
  EXPECT_STREQ(ToString(FlawKind::kIntendedLineLeavesPieces), "intended_line_leaves_pieces");
  EXPECT_STREQ(JapaneseName(FlawKind::kIntendedLineLeavesPieces), "作意駒余り");
  EXPECT_STREQ(ToString(FlawKind::kBadStatedVariation), "bad_stated_variation");
  EXPECT_STREQ(JapaneseName(FlawKind::kBadStatedVariation), "変化手順不正");
}

TEST(VerifyTest, FlawKindsAreReadBackFromTheirNames) {
  for (int k = 0; k <= int(kLastFlawKind); ++k) {
    FlawKind kind = FlawKind(k);
    EXPECT_EQ(FlawKindFromString(ToString(kind)), kind) << ToString(kind);
  }
  EXPECT_EQ(FlawKindFromString("余詰"), std::nullopt);
  EXPECT_EQ(FlawKindFromString("alternative"), std::nullopt);
  EXPECT_EQ(FlawKindFromString(""), std::nullopt);
}

TEST(VerifyTest, PureMoveOrderSwapIsATranspositionAndTheProblemSound) {
  Position start = FromSfen(kSwap);
  Solver solver(TestOptions());
  VerifyReport report = VerifyProblem(solver, start, 5, {});
  ASSERT_EQ(report.solution.status, SolveStatus::kMate);
  EXPECT_EQ(report.solution.length, 5);
  EXPECT_EQ(report.verdict, Verdict::kSound);
  EXPECT_TRUE(report.flaws.empty()) << report.flaws[0].detail;
  EXPECT_TRUE(report.alternatives_complete);
  ASSERT_EQ(CountKind(report.notes, FlawKind::kTransposition), 1);
  const std::vector<Move>& main_line = report.main_line;
  for (const Flaw& f : report.notes) {
    if (f.kind != FlawKind::kTransposition) continue;
    // The swap itself: the main line's third ply first, its first ply third, same length.
    EXPECT_EQ(f.ply, 1);
    ASSERT_EQ(f.line.size(), main_line.size());
    EXPECT_EQ(f.line[0], main_line[2]);
    EXPECT_EQ(f.line[2], main_line[0]);
    EXPECT_EQ(Replay(start, f.line).Sfen(), Replay(start, main_line).Sfen());
  }
  ExpectAlternativesClassified(start, report);
}

TEST(VerifyTest, IntendedLineInTheOtherOrderMakesTheSolverOrderTheTransposition) {
  Position start = FromSfen(kSwap);
  Solver solver(TestOptions());
  VerifyReport first = VerifyProblem(solver, start, 5, {});
  ASSERT_EQ(CountKind(first.notes, FlawKind::kTransposition), 1);
  std::vector<Move> other_order;
  for (const Flaw& f : first.notes) {
    if (f.kind == FlawKind::kTransposition) other_order = f.line;
  }
  VerifyReport report = VerifyProblem(solver, start, 5, other_order);
  EXPECT_EQ(report.verdict, Verdict::kSound);
  EXPECT_EQ(report.main_line, other_order);
  ASSERT_EQ(CountKind(report.notes, FlawKind::kTransposition), 1);
  for (const Flaw& f : report.notes) {
    if (f.kind == FlawKind::kTransposition) {
      EXPECT_EQ(f.line[0], first.main_line[0]);
    }
  }
  ExpectAlternativesClassified(start, report);
}

// Verifies a problem whose alternatives are all notes: sound, of the given length.
VerifyReport VerifyExpectingSound(const char* sfen, int length) {
  Position start = FromSfen(sfen);
  Solver solver(TestOptions());
  VerifyReport report = VerifyProblem(solver, start, length, {});
  EXPECT_EQ(report.solution.status, SolveStatus::kMate);
  EXPECT_EQ(report.length, length);
  EXPECT_EQ(report.verdict, Verdict::kSound);
  for (const Flaw& f : report.flaws) ADD_FAILURE() << f.detail;
  ExpectAlternativesClassified(start, report);
  return report;
}

// Another solution that differs only in promoting or not, or in where on its line a piece is
// dropped, is a blemish by tsume conventions (非限定), not 余詰: a note, and the problem sound.
TEST(VerifyTest, PromotingOrNotIsANonLimitationAndTheProblemSound) {
  VerifyReport report = VerifyExpectingSound(kPromotionChoice, 3);
  ASSERT_EQ(CountKind(report.notes, FlawKind::kNonLimitation), 1);
  for (const Flaw& f : report.notes) {
    if (f.kind != FlawKind::kNonLimitation) continue;
    EXPECT_EQ(f.ply, 1);
    EXPECT_THAT(f.detail, testing::HasSubstr("the other promotion choice"));
    EXPECT_EQ(ToUsi(f.line[0]).substr(0, 4), "3e3b");
  }
}

TEST(VerifyTest, DropsOnOneLineFromTheKingAreANonLimitationAndTheProblemSound) {
  VerifyReport report = VerifyExpectingSound(kDropSquareChoice, 3);
  ASSERT_FALSE(report.main_line.empty());
  // R*7a, R*7b and R*7c: one is the main line's, the other two one note naming both.
  ASSERT_EQ(CountKind(report.notes, FlawKind::kNonLimitation), 1);
  std::set<std::string> drops = {ToUsi(report.main_line[0])};
  for (const Flaw& f : report.notes) {
    if (f.kind != FlawKind::kNonLimitation) continue;
    drops.insert(ToUsi(f.line[0]));
    ASSERT_EQ(f.others.size(), 1u);
    drops.insert(ToUsi(f.others[0]));
    EXPECT_EQ(f.detail, absl::StrCat(ToUsi(f.line[0]), ", ", ToUsi(f.others[0]),
                                     " also mate in 3 plies; each is the main line's ",
                                     ToUsi(report.main_line[0]),
                                     " dropped on another square of the same line from the king"));
  }
  EXPECT_EQ(drops, (std::set<std::string>{"R*7a", "R*7b", "R*7c"}));
}

TEST(VerifyTest, RealAlternativeMateStaysAFlawNextToATransposition) {
  Position start = FromSfen(kRealAlternative);
  Solver solver(TestOptions());
  VerifyReport report = VerifyProblem(solver, start, 7, {});
  ASSERT_EQ(report.solution.status, SolveStatus::kMate);
  EXPECT_EQ(report.solution.length, 7);
  EXPECT_EQ(report.verdict, Verdict::kFlawed);
  EXPECT_GE(CountKind(report.flaws, FlawKind::kAlternativeMate), 1);
  EXPECT_GE(CountKind(report.notes, FlawKind::kTransposition), 1);
  // The 余詰 is the tokin's, at ply 5; the swap of the two sacrifices is at ply 1.
  bool tokin = false;
  for (const Flaw& f : report.flaws) {
    tokin |= f.kind == FlawKind::kAlternativeMate && f.ply == 5 && ToUsi(f.line[0]) == "1d2c";
  }
  EXPECT_TRUE(tokin);
  ExpectAlternativesClassified(start, report);
}

// "ply:move" for a defence, "ply:*square" for drops (one note per square).
std::string VariationKey(int ply, Move d) {
  return absl::StrCat(ply, ":", d.is_drop() ? absl::StrCat("*", SquareToUsi(d.to())) : ToUsi(d));
}

// 変同 from its definition, with a solver of the test's own: at each defender ply of the main
// line, the defences other than the main one after which there is a mate within the remaining
// count and none two plies sooner, minus the useless drops, as VariationKey. `useless_seen`
// counts the useless drops that would qualify counted naively.
std::set<std::string> ExpectedVariations(const Position& start, const std::vector<Move>& line,
                                         int* useless_seen) {
  Solver solver(TestOptions());
  EXPECT_EQ(solver.Solve(start).status, SolveStatus::kMate);
  std::set<std::string> expected;
  Position pos = start;
  for (int i = 0; i < int(line.size()); ++i) {
    int remaining_after = int(line.size()) - i - 1;
    if (i % 2 == 1) {
      Bitboard between;
      if (pos.checkers().Count() == 1) {
        between = Between(pos.king_square(pos.side_to_move()), pos.checkers().Lsb());
      }
      MoveList defences;
      GenerateEvasions(pos, defences);
      for (Move d : defences) {
        if (d == line[i]) continue;
        pos.DoMove(d);
        bool as_long = solver.MateWithin(pos, remaining_after, true) == SolveStatus::kMate &&
                       (remaining_after < 3 ||
                        solver.MateWithin(pos, remaining_after - 2, true) == SolveStatus::kNoMate);
        pos.UndoMove();
        if (!as_long) continue;
        bool useless = false;
        if (IsDeferrableDrop(d, between)) {
          MoveList captures;
          HypotheticalCaptures(pos, d.to(), captures);
          for (Move c : captures) {
            EnterHypothetical(pos, c);
            useless |= solver.MateWithin(pos, remaining_after - 1, false) == SolveStatus::kMate;
            LeaveHypothetical(pos);
          }
        }
        if (useless) {
          ++*useless_seen;
          continue;
        }
        expected.insert(VariationKey(i + 1, d));
      }
    }
    pos.DoMove(line[i]);
  }
  return expected;
}

TEST(VerifyTest, SameLengthDefencesAreNotesAndUselessDropsAreLeftOut) {
  Position start = FromSfen(kVariations);
  Solver solver(TestOptions());
  VerifyReport report = VerifyProblem(solver, start, 7, {});
  ASSERT_EQ(report.solution.status, SolveStatus::kMate);
  ASSERT_EQ(report.solution.length, 7);
  ASSERT_TRUE(report.solution.uncounted.empty());
  EXPECT_EQ(report.verdict, Verdict::kSound);
  EXPECT_TRUE(report.variations_complete);

  std::set<std::string> reported;
  bool before_the_last_defence = false;
  for (const Flaw& f : report.notes) {
    if (f.kind != FlawKind::kSameLengthVariation) continue;
    SCOPED_TRACE(f.detail);
    ASSERT_FALSE(f.line.empty());
    Move d = f.line[0];
    EXPECT_TRUE(reported.insert(VariationKey(f.ply, d)).second);
    // A defender ply; the line is the other defence and its mate, as long as the main line.
    EXPECT_EQ(f.ply % 2, 0);
    EXPECT_EQ(f.line.size(), report.main_line.size() - f.ply + 1);
    EXPECT_TRUE(IsCheckmate(Replay(PositionBefore(start, report.main_line, f.ply), f.line)));
    before_the_last_defence |= f.ply < int(report.main_line.size()) - 1;
  }
  EXPECT_TRUE(before_the_last_defence);
  int useless_seen = 0;
  EXPECT_EQ(reported, ExpectedVariations(start, report.main_line, &useless_seen));
  // The problem has useless drops that a naive count would call 変同.
  EXPECT_GT(useless_seen, 0);
}

// The verdict comes first: the 余詰 checks along the whole line run before the 変同 ones
// (information), so limits that run out leave the information short, not the verdict. With
// the fewest nodes that still give the full verdict, the 変同 notes before the last attacker
// move (ply 4 of 7) are not there yet. (Those at ply 6, mated at once, cost no nodes.)
TEST(VerifyTest, LimitsCutTheInformationShortBeforeTheVerdict) {
  Position start = FromSfen(kVariations);
  Solver unlimited(TestOptions());
  VerifyReport full = VerifyProblem(unlimited, start, 7, {});
  ASSERT_EQ(full.verdict, Verdict::kSound);
  bool early_note = false;
  for (const Flaw& f : full.notes) {
    early_note |= f.kind == FlawKind::kSameLengthVariation && f.ply < 5;
  }
  ASSERT_TRUE(early_note);
  auto verify_within = [&](int64_t limit) {
    Solver solver(TestOptions(limit));
    return VerifyProblem(solver, start, 7, {});
  };
  // The verdict is known from some node count on: the searches run the same way up to a limit.
  int64_t unknown_below = 1, sound_from = full.nodes;
  while (sound_from - unknown_below > 1) {
    int64_t mid = (unknown_below + sound_from) / 2;
    Verdict v = verify_within(mid).verdict;
    ASSERT_TRUE(v == Verdict::kSound || v == Verdict::kUnknown) << ToString(v);
    (v == Verdict::kSound ? sound_from : unknown_below) = mid;
  }
  VerifyReport first = verify_within(sound_from);
  EXPECT_EQ(first.verdict, Verdict::kSound);
  EXPECT_FALSE(first.variations_complete);
  for (const Flaw& f : first.notes) {
    EXPECT_FALSE(f.kind == FlawKind::kSameLengthVariation && f.ply < 5) << f.detail;
  }
}

TEST(VerifyTest, NodesAndTimeCoverTheWholeVerification) {
  Position start = FromSfen(kVariations);
  Solver solver(TestOptions());
  VerifyReport report = VerifyProblem(solver, start, 7, {});
  ASSERT_EQ(report.solution.status, SolveStatus::kMate);
  // The 余詰 and 変同 queries search beyond the solve.
  EXPECT_GT(report.nodes, report.solution.nodes);
  EXPECT_GE(report.elapsed, report.solution.elapsed);
  EXPECT_EQ(report.nodes, solver.nodes());
}

// An intended line whose defence at some ply is not the longest: the flaw names a defence
// that holds out longer, at that ply. The line is built from the solver's main line: the
// defence at `ply` replaced by one after which the mate is shorter, then that mate.
TEST(VerifyTest, IntendedLineWithAShortDefenceNamesTheLongerOne) {
  Position start = FromSfen(kVariations);
  Solver solver(TestOptions());
  SolveResult solution = solver.Solve(start);
  ASSERT_EQ(solution.status, SolveStatus::kMate);
  const std::vector<Move>& main_line = solution.moves;
  int built = 0;
  for (int ply = 2; ply < int(main_line.size()); ply += 2) {
    Position pos = PositionBefore(start, main_line, ply);
    int after = int(main_line.size()) - ply;  // plies after the main line's defence
    MoveList defences;
    GenerateEvasions(pos, defences);
    for (Move d : defences) {
      if (d.is_drop()) continue;  // keep clear of useless drops
      pos.DoMove(d);
      bool shorter = after >= 3 && solver.MateWithin(pos, after - 2, true) == SolveStatus::kMate;
      std::vector<Move> rest =
          shorter ? solver.MateLine(pos, after - 2, true) : std::vector<Move>();
      pos.UndoMove();
      if (!shorter || rest.empty()) continue;
      std::vector<Move> intended(main_line.begin(), main_line.begin() + ply - 1);
      intended.push_back(d);
      intended.insert(intended.end(), rest.begin(), rest.end());
      SCOPED_TRACE(absl::StrCat("ply ", ply, " ", ToUsi(d)));
      Solver verifier(TestOptions());
      VerifyReport report = VerifyProblem(verifier, start, int(intended.size()), intended);
      const Flaw* bad = nullptr;
      for (const Flaw& f : report.flaws) {
        if (f.kind == FlawKind::kBadIntendedLine) bad = &f;
      }
      ASSERT_NE(bad, nullptr);
      EXPECT_EQ(bad->ply, ply) << bad->detail;
      ASSERT_EQ(bad->line.size(), 1u) << bad->detail;
      // The defence named holds out past what the line has left, by the test's own solver.
      Move longer = bad->line[0];
      EXPECT_NE(longer, d);
      ASSERT_TRUE(pos.IsFullyLegal(longer));
      pos.DoMove(longer);
      EXPECT_EQ(solver.MateWithin(pos, int(intended.size()) - ply, true), SolveStatus::kNoMate);
      pos.UndoMove();
      ++built;
    }
  }
  EXPECT_GT(built, 0) << "no defence shorter than the main line's to build a line with";
}

// 最後の審判 under this solver's rules (a repetition under continuous check loses for the
// attacker, whatever the defender's pawn drop that forces it): not a mate. The verdict names
// where the composer's line parts from that reading: after ply 59 the pawn drop P*5f holds
// out, where the line's 4e4d is mated in the 9 plies left.
TEST(VerifyTest, NotAMateNamesTheDefenceThatBreaksTheIntendedLine) {
  absl::StatusOr<Collection> judgment =
      ReadCollection(TSUME_SOURCE_DIR "/problems/classics/last_judgment.tsv");
  ASSERT_TRUE(judgment.ok()) << judgment.status();
  ASSERT_EQ(judgment->problems.size(), 1u);
  const Problem& problem = judgment->problems[0];
  Position start = FromSfen(problem.sfen.c_str());
  std::vector<Move> intended = IntendedLine(problem);
  ASSERT_EQ(int(intended.size()), 69);
  Solver solver(TestOptions());
  VerifyReport report = VerifyProblem(solver, start, 69, intended);
  ASSERT_EQ(report.verdict, Verdict::kNotMate);
  ASSERT_EQ(report.flaws.size(), 1u);
  const Flaw& bad = report.flaws[0];
  EXPECT_EQ(bad.kind, FlawKind::kBadIntendedLine);
  EXPECT_EQ(bad.ply, 60) << bad.detail;
  ASSERT_EQ(bad.line.size(), 1u) << bad.detail;
  EXPECT_EQ(ToUsi(bad.line[0]), "P*5f");
  // By a solver of the test's own: the line's reply is mated in time, the one named is not.
  Position before = PositionBefore(start, intended, 60);
  Solver check(TestOptions());
  ASSERT_EQ(check.Solve(start).status, SolveStatus::kNoMate);
  before.DoMove(intended[59]);
  EXPECT_EQ(check.MateWithin(before, 9, true), SolveStatus::kMate);
  before.UndoMove();
  ASSERT_TRUE(before.IsFullyLegal(bad.line[0]));
  before.DoMove(bad.line[0]);
  EXPECT_EQ(check.MateWithin(before, 9, true), SolveStatus::kNoMate);
}

// 変長: zukou-059 as transcribed has defences that hold out 31 plies, but every such line
// leaves pieces in the attacker's hand, while the composer's 29-ply line uses them all. The
// composer's line is the solution; the longer defences are notes, each checked here: two
// plies longer than the main line allows, mate at the end, pieces over.
TEST(VerifyTest, LongerDefenceLeavingPiecesOverIsALongerVariationNote) {
  if (TSUME_SANITIZED) GTEST_SKIP() << "about a second in Release";
  absl::StatusOr<Collection> zukou =
      ReadCollection(TSUME_SOURCE_DIR "/problems/classics/zukou.tsv");
  ASSERT_TRUE(zukou.ok()) << zukou.status();
  const Problem* problem = nullptr;
  for (const Problem& p : zukou->problems) {
    if (p.id == "zukou-059") problem = &p;
  }
  ASSERT_NE(problem, nullptr);
  Position start = FromSfen(problem->sfen.c_str());
  std::vector<Move> intended = IntendedLine(*problem);
  ASSERT_EQ(int(intended.size()), 29);
  Solver solver(TestOptions());
  VerifyReport report = VerifyProblem(solver, start, 29, intended);
  EXPECT_EQ(report.solution.length, 31);
  EXPECT_EQ(report.length, 29);
  EXPECT_EQ(report.verdict, Verdict::kSound);
  EXPECT_EQ(report.main_line, intended);
  ASSERT_GE(CountKind(report.notes, FlawKind::kLongerVariation), 1);
  Solver own(TestOptions());
  own.Solve(start);
  for (const Flaw& f : report.notes) {
    if (f.kind != FlawKind::kLongerVariation) continue;
    SCOPED_TRACE(f.detail);
    int after = 29 - f.ply;  // plies the main line has after this defence
    ASSERT_EQ(int(f.line.size()), 1 + after + 2);
    Position before = PositionBefore(start, intended, f.ply);
    Position after_defence = Replay(before, {f.line[0]});
    EXPECT_EQ(own.MateWithin(after_defence, after, true), SolveStatus::kNoMate);
    Position end = Replay(before, f.line);
    EXPECT_FALSE(end.hand(start.side_to_move()).Empty());
  }
}

// An intended line as long as the longest defence that leaves pieces in hand, where another
// defence as long uses every piece: the defender takes that one, so the problem has no 駒余り
// (without the intended line verify said sound; with it, flawed). From the practical set
// (../shared/problems/practical/mate3.txt:413, White to move, hand gold and knight): after
// N*3e, 4g3f 2i2e (the recorded line: the dragon mates, the gold stays in hand) or 4g4h G*4g.
TEST(VerifyTest, IntendedLineLeavingPiecesWhereAnotherAsLongDoesNotIsANote) {
  Position start =
      FromSfen("ln1gb3+R/2s4p1/p3ppnk1/2pp4p/7P1/2P2P3/PP1PPKP1P/1BGS5/LN5+rL w G2SL2Pgn 82");
  std::vector<Move> intended;
  Position replay = start;
  for (const char* usi : {"N*3e", "4g3f", "2i2e"}) {
    absl::StatusOr<Move> m = replay.ParseUsiMove(usi);
    ASSERT_TRUE(m.ok()) << usi;
    intended.push_back(*m);
    replay.DoMove(*m);
  }
  ASSERT_FALSE(replay.hand(kWhite).Empty());
  Solver solver(TestOptions());
  VerifyReport report = VerifyProblem(solver, start, 3, intended);
  EXPECT_EQ(report.verdict, Verdict::kSound);
  EXPECT_EQ(CountKind(report.flaws, FlawKind::kPiecesLeft), 0);
  EXPECT_TRUE(Replay(start, report.main_line).hand(kWhite).Empty());
  ASSERT_EQ(CountKind(report.notes, FlawKind::kIntendedLineLeavesPieces), 1);
  for (const Flaw& f : report.notes) {
    if (f.kind != FlawKind::kIntendedLineLeavesPieces) continue;
    EXPECT_EQ(f.ply, 2);
    EXPECT_EQ(f.line, std::vector<Move>(intended.begin() + 1, intended.end()));
  }
  // The recorded line as the main line where it uses every piece: no note.
  VerifyReport own = VerifyProblem(solver, start, 3, report.main_line);
  EXPECT_EQ(own.main_line, report.main_line);
  EXPECT_EQ(CountKind(own.notes, FlawKind::kIntendedLineLeavesPieces), 0);
}

// 変化別詰, checked from its definition on two Zuko problems whose variations have other mates:
// the defence is another legal reply at a defender's ply of the main line, mated sooner than
// the main line's; the variation's length m is exact; each named move is another check that
// mates within m; the note's line (the defence, then one of those mates) is legal and mates.
TEST(VerifyTest, VariationsWithSeveralMatesAreNotes) {
  if (TSUME_SANITIZED) GTEST_SKIP() << "half a second in Release";
  absl::StatusOr<Collection> zukou =
      ReadCollection(TSUME_SOURCE_DIR "/problems/classics/zukou.tsv");
  ASSERT_TRUE(zukou.ok()) << zukou.status();
  for (const char* id : {"zukou-033", "zukou-044"}) {
    SCOPED_TRACE(id);
    const Problem* problem = nullptr;
    for (const Problem& p : zukou->problems) {
      if (p.id == id) problem = &p;
    }
    ASSERT_NE(problem, nullptr);
    Position start = FromSfen(problem->sfen.c_str());
    Solver solver(TestOptions());
    VerifyReport report = VerifyProblem(solver, start, std::nullopt, {});
    ASSERT_EQ(report.solution.status, SolveStatus::kMate);
    EXPECT_TRUE(report.side_mates_complete);
    ASSERT_GE(CountKind(report.notes, FlawKind::kVariationAlternativeMate), 1);
    // Information only: the verdict is the one without the notes.
    bool flawed = !report.flaws.empty();
    EXPECT_EQ(report.verdict, flawed ? Verdict::kFlawed : Verdict::kSound);
    Solver own(TestOptions());
    const std::vector<Move>& main_line = report.main_line;
    for (const Flaw& f : report.notes) {
      if (f.kind != FlawKind::kVariationAlternativeMate) continue;
      SCOPED_TRACE(f.detail);
      ASSERT_EQ(f.ply % 2, 0);  // a defender's ply
      ASSERT_GE(int(f.line.size()), 2);
      Move defence = f.line[0];
      EXPECT_NE(defence, main_line[f.ply - 1]);
      int main_after = report.length - f.ply;  // plies the main line has after its defence
      Position before = PositionBefore(start, main_line, f.ply);
      Position variation = Replay(before, {defence});
      // m: the exact length of the variation, shorter than the main line's.
      int m = 1;
      while (own.MateWithin(variation, m, true) == SolveStatus::kNoMate) m += 2;
      EXPECT_LT(m, main_after);
      EXPECT_GT(m, 1);
      EXPECT_NE(f.detail.find(absl::StrCat("(mate in ", m, ")")), std::string::npos);
      // The note's line: another first move, mating within m.
      EXPECT_LE(int(f.line.size()) - 1, m);
      EXPECT_TRUE(IsCheckmate(Replay(before, f.line)));
      // Two different first moves mate within m: the note's and the one it names after
      // "as well as" (the verifying solver's own; which of equally short mates a solver reads
      // out first depends on what its table holds, so it is taken from the note).
      size_t named_at = f.detail.find(" as well as ");
      ASSERT_NE(named_at, std::string::npos);
      std::string named = f.detail.substr(named_at + 12);
      named = named.substr(0, named.find(' '));
      absl::StatusOr<Move> first = variation.ParseUsiMove(named);
      ASSERT_TRUE(first.ok()) << first.status();
      EXPECT_NE(*first, f.line[1]);
      for (Move m1 : {f.line[1], *first}) {
        Position after = Replay(variation, {m1});
        EXPECT_EQ(own.MateWithin(after, m - 1, false), SolveStatus::kMate) << ToUsi(m1);
      }
    }
  }
}

// Under node limits that stop the verification part way, a sound problem is never called
// flawed (an alternative not yet classified may be a 手順前後) and a flawed one never sound.
// The stated length is the exact one: a mate found before the exact length is proven is never
// shorter, so it is never taken for 早詰.
TEST(VerifyTest, TightLimitsNeverGiveAWrongVerdict) {
  for (const char* sfen : {kSwap, kRealAlternative}) {
    SCOPED_TRACE(sfen);
    Position start = FromSfen(sfen);
    Solver unlimited(TestOptions());
    VerifyReport full = VerifyProblem(unlimited, start, std::nullopt, {});
    ASSERT_TRUE(full.verdict == Verdict::kSound || full.verdict == Verdict::kFlawed);
    ASSERT_TRUE(full.solution.length_exact);
    EXPECT_TRUE(full.main_line_searched);
    const int steps = TSUME_SANITIZED ? 6 : 24;
    for (int k = 0; k <= steps; ++k) {
      int64_t limit = 1 + full.nodes * k / steps;
      Solver solver(TestOptions(limit));
      VerifyReport report = VerifyProblem(solver, start, full.length, {});
      SCOPED_TRACE(limit);
      EXPECT_TRUE(report.verdict == full.verdict || report.verdict == Verdict::kUnknown)
          << ToString(report.verdict);
      if (report.verdict == Verdict::kSound) {
        EXPECT_TRUE(report.alternatives_complete);
      }
    }
  }
}

// A mate proven in fewer plies than stated is 早詰 even when the limits stop the solve before
// the exact length is known.
TEST(VerifyTest, MateShorterThanStatedIsAFlawBeforeTheLengthIsProven) {
  Position start = FromSfen(kZuko13);
  VerifyReport unstated = VerifyZuko13WithinLimit(std::nullopt);
  ASSERT_EQ(unstated.verdict, Verdict::kUnknown);
  ASSERT_EQ(unstated.solution.status, SolveStatus::kMate);
  ASSERT_FALSE(unstated.solution.length_exact);
  int bound = unstated.length;
  ASSERT_GE(bound, 23);
  EXPECT_FALSE(unstated.alternatives_complete);  // the 余詰 search never ran
  // What stands for the main line is the proof's.
  EXPECT_FALSE(unstated.main_line_searched);
  EXPECT_EQ(unstated.main_line, unstated.solution.moves);

  // Stated as the bound: the exact length may still be shorter, or not.
  VerifyReport as_bound = VerifyZuko13WithinLimit(bound);
  EXPECT_EQ(as_bound.verdict, Verdict::kUnknown);
  EXPECT_TRUE(as_bound.flaws.empty());

  VerifyReport longer = VerifyZuko13WithinLimit(bound + 2);
  ASSERT_EQ(longer.verdict, Verdict::kFlawed);
  ASSERT_EQ(longer.flaws.size(), 1u);
  const Flaw& f = longer.flaws[0];
  EXPECT_EQ(f.kind, FlawKind::kShorterMate);
  EXPECT_EQ(f.ply, 0);
  EXPECT_NE(f.detail.find(absl::StrCat("at most ", bound, ", stated ", bound + 2)),
            std::string::npos)
      << f.detail;
  // The proof's line: legal from the problem, the attacker checking at each of its moves,
  // within the bound.
  ASSERT_FALSE(f.line.empty());
  EXPECT_LE(int(f.line.size()) - int(longer.solution.uncounted.size()), bound);
  Position pos = start;
  for (size_t i = 0; i < f.line.size(); ++i) {
    ASSERT_TRUE(pos.IsFullyLegal(f.line[i])) << i << " " << ToUsi(f.line[i]);
    pos.DoMove(f.line[i]);
    if (i % 2 == 0) {
      EXPECT_TRUE(pos.in_check()) << i << " " << ToUsi(f.line[i]);
    }
  }
}

// Likewise a proven "no mate within" four or more plies past the stated length is 手数不足;
// two plies past is left unknown (it may be 変長, judged only with the exact length).
TEST(VerifyTest, NoMateWithinPastTheStatedLengthIsAFlawBeforeTheLengthIsProven) {
  int bound = VerifyZuko13WithinLimit(std::nullopt).solution.no_mate_within;
  ASSERT_GE(bound, 5);

  VerifyReport far = VerifyZuko13WithinLimit(bound - 2);
  ASSERT_EQ(far.verdict, Verdict::kFlawed);
  ASSERT_EQ(far.flaws.size(), 1u);
  EXPECT_EQ(far.flaws[0].kind, FlawKind::kLongerThanStated);
  EXPECT_NE(far.flaws[0].detail.find(absl::StrCat("no mate within ", bound)), std::string::npos)
      << far.flaws[0].detail;

  VerifyReport near = VerifyZuko13WithinLimit(bound);
  EXPECT_EQ(near.verdict, Verdict::kUnknown);
  EXPECT_TRUE(near.flaws.empty());
}

// When the limits stop the solve, what the intended line's moves alone show is still said:
// an even count, an illegal move. A line that passes those checks leaves the verdict unknown.
TEST(VerifyTest, IntendedLineMovesAreCheckedWhenTheSolveIsCutShort) {
  VerifyReport plain = VerifyZuko13WithinLimit(23);
  ASSERT_EQ(plain.verdict, Verdict::kUnknown);
  std::vector<Move> line = plain.solution.moves;
  ASSERT_EQ(line.size(), 23u);
  ASSERT_TRUE(plain.solution.uncounted.empty());

  EXPECT_EQ(VerifyZuko13WithinLimit(23, line).verdict, Verdict::kUnknown);

  std::vector<Move> even(line.begin(), line.end() - 1);
  VerifyReport even_report = VerifyZuko13WithinLimit(23, even);
  ASSERT_EQ(even_report.verdict, Verdict::kFlawed);
  ASSERT_EQ(even_report.flaws.size(), 1u);
  EXPECT_EQ(even_report.flaws[0].kind, FlawKind::kBadIntendedLine);
  EXPECT_EQ(even_report.flaws[0].ply, 0);

  // The first move again at ply 3: its square is taken by then.
  std::vector<Move> illegal = line;
  illegal[2] = line[0];
  VerifyReport illegal_report = VerifyZuko13WithinLimit(23, illegal);
  ASSERT_EQ(illegal_report.verdict, Verdict::kFlawed);
  ASSERT_EQ(illegal_report.flaws.size(), 1u);
  EXPECT_EQ(illegal_report.flaws[0].kind, FlawKind::kBadIntendedLine);
  EXPECT_EQ(illegal_report.flaws[0].ply, 3);
  EXPECT_NE(illegal_report.flaws[0].detail.find("is not legal"), std::string::npos)
      << illegal_report.flaws[0].detail;
}

// VerifyOptions::refutation_time: searches along the intended line alone show it wrong where
// the solve, cut by the limits, cannot. Zuko 13's line of 23 plies without its last four
// leaves the defender, after ply 19, four plies where the line allows two (and 変長 four).
TEST(VerifyTest, TheLineAloneShowsItWrongWhereTheSolveIsCutShort) {
  VerifyReport plain = VerifyZuko13WithinLimit(23);
  ASSERT_EQ(plain.verdict, Verdict::kUnknown);
  std::vector<Move> line(plain.solution.moves.begin(), plain.solution.moves.end() - 4);
  ASSERT_EQ(line.size(), 19u);

  SolveOptions options = TestOptions(400000);
  options.time_limit = absl::Seconds(600);
  VerifyOptions alone;
  alone.refutation_time = absl::Seconds(150);
  Solver solver(options);
  std::vector<std::string> stages;
  VerifyReport report = VerifyProblem(
      solver, FromSfen(kZuko13), 23, line, [&](const char* stage) { stages.push_back(stage); },
      alone);
  EXPECT_THAT(stages, ::testing::ElementsAre("line alone", "solve"));
  ASSERT_EQ(report.verdict, Verdict::kFlawed);
  ASSERT_EQ(report.flaws.size(), 1u);
  const Flaw& flaw = report.flaws[0];
  EXPECT_EQ(flaw.kind, FlawKind::kBadIntendedLine);
  // The defence after ply 19 that holds out, named: from ply 19 on no mate within the none
  // the line has left and two more.
  EXPECT_EQ(flaw.ply, 20);
  ASSERT_EQ(flaw.line.size(), 1u);
  EXPECT_NE(flaw.detail.find("no mate within 2 plies (the line has 0 left)"), std::string::npos)
      << flaw.detail;
  Position after = PositionBefore(FromSfen(kZuko13), line, 20);
  after.DoMove(flaw.line[0]);
  Solver check(TestOptions());
  EXPECT_EQ(check.MateWithin(after, 1, true), SolveStatus::kNoMate);
  // The solve had no more time than the line's searches took: cut, the length a bound.
  EXPECT_FALSE(report.solution.length_exact);
  // The time limit is the solver's again.
  EXPECT_EQ(solver.options().time_limit, absl::Seconds(600));

  // The correct line: every search along it finds its mate, and the verdict waits for the
  // solve as before.
  VerifyReport whole_line =
      VerifyProblem(solver, FromSfen(kZuko13), 23, plain.solution.moves, nullptr, alone);
  EXPECT_EQ(whole_line.verdict, Verdict::kUnknown);
  EXPECT_TRUE(whole_line.flaws.empty());
}

// Progress displays are told each stage as it starts, in order; when the limits stop the
// solve, nothing follows it.
TEST(VerifyTest, StagesAreReportedInOrder) {
  Position start = FromSfen(kSwap);
  Solver own(TestOptions());
  std::vector<Move> intended = own.Solve(start).moves;
  ASSERT_FALSE(intended.empty());
  std::vector<std::string> stages;
  auto record = [&](const char* stage) { stages.push_back(stage); };
  Solver solver(TestOptions());
  VerifyProblem(solver, start, int(intended.size()), intended, record);
  EXPECT_THAT(stages, ::testing::ElementsAre("solve", "intended line", "余詰", "変同", "変化別詰"));

  stages.clear();
  VerifyProblem(solver, start, std::nullopt, {}, record);
  EXPECT_THAT(stages, ::testing::ElementsAre("solve", "余詰", "変同", "変化別詰"));

  stages.clear();
  Solver limited(TestOptions(1000));
  VerifyReport cut = VerifyProblem(limited, FromSfen(kZuko13), 23, {}, record);
  ASSERT_EQ(cut.verdict, Verdict::kUnknown);
  EXPECT_THAT(stages, ::testing::ElementsAre("solve"));
}

// The stated variations (KIF 変化) that branch off at a defence are checked as solutions of the
// position after it, those at an attacker's move (紛れ) as failures: checks, each defence a
// refutation. A practical mate in 5 (sample.txt): R*5d 5c6b G*5c 6b5a 3b4b; after its
// first move the king can also go to 6c, where G*5c 6c7d G*7e mates in 3 (worked out with the
// solver, each defence and mate checked with `tsume solve`).
TEST(VerifyTest, StatedVariationsAreCheckedAsSolutionsOrAsFailures) {
  const Position start =
      FromSfen("ln1s3nl/1+S4+B2/p1p1k2pp/3p2P2/7P1/P1Pnpp1R1/1P1P+lP2P/2G1G4/L1SKP2N+b b R2GPsp 1");
  auto line = [&](const std::string& usi) {
    std::vector<Move> moves;
    Position pos = start;
    for (absl::string_view m : absl::StrSplit(usi, ' ')) {
      absl::StatusOr<Move> move = pos.ParseUsiMove(m);
      EXPECT_TRUE(move.ok()) << m;
      if (!move.ok()) break;
      moves.push_back(*move);
      pos.DoMove(*move);
    }
    return moves;
  };
  std::vector<StatedVariation> variations = {
      {2, line("R*5d 5c6c G*5c 6c7d G*7e")},            // right
      {2, line("R*5d 5c6c G*5c")},                      // no mate at its end
      {2, line("R*5d 5c6c 5d6d 6c5b G*4b 5b5c G*5d")},  // mates, but in 5 where 3 do
      {3, line("R*5d 5c6b 5d5c+")},                     // 紛れ, no defence shown
      // 紛れ at the first move: the horse's check 3b4c is refuted by 5c4c (mate in 21 then),
      // not by 5c6b (G*5c 6b5a 4c4b mates in 3, the plies the solution leaves).
      {1, line("3b4c 5c4c")},
      {1, line("3b4c 5c6b")},
      {1, line("2f2g 5c6b")},  // not a check
      // A mate shown (G*5d is 余詰, for the 余詰 search to judge), not a failure.
      {1, line("G*5d 5c5b R*4b 5b5a 3b4a")},
      // 紛れ off the main line, after 5c6c (mate in 3 from there): G*6b is refuted by 6a6b but
      // not by 6c7d (G*7e mates).
      {3, line("R*5d 5c6c G*6b 6a6b")},
      {3, line("R*5d 5c6c G*6b 6c7d")},
  };
  Solver solver(TestOptions());
  VerifyReport report =
      VerifyProblem(solver, start, 5, line("R*5d 5c6b G*5c 6b5a 3b4b"), nullptr, {}, variations);
  ASSERT_EQ(report.solution.length, 5);
  EXPECT_TRUE(report.stated_variations_complete);
  EXPECT_EQ(report.stated_variations_checked, int(variations.size()));
  std::vector<const Flaw*> notes;
  for (const Flaw& f : report.notes) {
    if (f.kind == FlawKind::kBadStatedVariation) notes.push_back(&f);
  }
  ASSERT_EQ(notes.size(), 5u);
  EXPECT_EQ(notes[0]->ply, 2);
  EXPECT_EQ(notes[0]->line, variations[1].line);
  EXPECT_THAT(notes[0]->detail, testing::HasSubstr("the variation 5c6c: "));
  EXPECT_THAT(notes[0]->detail, testing::HasSubstr("at ply 3, G*5c does not mate"));
  EXPECT_EQ(notes[1]->line, variations[2].line);
  EXPECT_EQ(notes[1]->detail,
            "the variation 5c6c: a mate in 3 or less follows 5c6c, where the variation shows 5");
  EXPECT_EQ(notes[2]->ply, 1);
  EXPECT_EQ(notes[2]->line, variations[5].line);
  EXPECT_EQ(notes[2]->detail,
            "the variation 3b4c: at ply 2, 5c6b does not refute it: the attacker still mates "
            "within 3 plies, as the solution does");
  EXPECT_EQ(notes[3]->line, variations[6].line);
  EXPECT_EQ(notes[3]->detail, "the variation 2f2g: at ply 1, 2f2g is not a check");
  EXPECT_EQ(notes[4]->ply, 3);
  EXPECT_EQ(notes[4]->line, variations[9].line);
  EXPECT_EQ(notes[4]->detail,
            "the variation G*6b: at ply 4, 6c7d does not refute it: the attacker still mates "
            "within 1 ply, as the solution does");
  // The notes leave the verdict alone.
  VerifyReport without = VerifyProblem(solver, start, 5, line("R*5d 5c6b G*5c 6b5a 3b4b"));
  EXPECT_EQ(report.verdict, without.verdict);
  EXPECT_EQ(report.flaws.size(), without.flaws.size());
}

TEST(VerifyCommandTest, JsonHasNotesAndWholeVerificationFigures) {
  std::ostringstream out, err;
  ASSERT_EQ(RunVerify({"--json", kSwap}, out, err), kExitOk) << err.str();
  nlohmann::json j = nlohmann::json::parse(out.str());
  EXPECT_EQ(j["verdict"], "sound");
  EXPECT_TRUE(j["flaws"].empty());
  ASSERT_TRUE(j["notes"].is_array());
  int transpositions = 0;
  for (const nlohmann::json& note : j["notes"]) {
    for (const char* field : {"kind", "ply", "detail", "moves"}) EXPECT_TRUE(note.contains(field));
    if (note["kind"] == "transposition") {
      ++transpositions;
      EXPECT_EQ(note["ply"], 1);
      EXPECT_EQ(note["moves"].size(), 5u);
    }
  }
  EXPECT_EQ(transpositions, 1);
  EXPECT_GT(j["nodes"].get<int64_t>(), j["solve_nodes"].get<int64_t>());
  EXPECT_GE(j["time_ms"].get<double>(), j["solve_time_ms"].get<double>());
  EXPECT_TRUE(j["variations_complete"].get<bool>());
  // Where the solve's nodes went, as solve --json gives it.
  EXPECT_GE(j["first_mate"]["length"].get<int>(), j["length"].get<int>());
  EXPECT_LE(j["first_mate"]["nodes"], j["solve_nodes"]);
  EXPECT_TRUE(j["exact_passes"].is_array());
}

TEST(VerifyCommandTest, JsonNamesTheOtherDropsOfANonLimitationNote) {
  std::ostringstream out, err;
  ASSERT_EQ(RunVerify({"--json", kDropSquareChoice}, out, err), kExitOk) << err.str();
  nlohmann::json j = nlohmann::json::parse(out.str());
  ASSERT_EQ(j["notes"].size(), 1u) << j["notes"].dump();
  const nlohmann::json& note = j["notes"][0];
  EXPECT_EQ(note["kind"], "non_limitation");
  ASSERT_EQ(note["others"].size(), 1u);
  // The main line's drop, the note's first and the one it names: the three squares.
  std::set<std::string> drops = {j["moves"][0], note["moves"][0], note["others"][0]};
  EXPECT_EQ(drops, (std::set<std::string>{"R*7a", "R*7b", "R*7c"}));
  // Notes that stand for one move have no "others".
  std::ostringstream swap_out;
  ASSERT_EQ(RunVerify({"--json", kSwap}, swap_out, err), kExitOk) << err.str();
  nlohmann::json swap = nlohmann::json::parse(swap_out.str());
  for (const nlohmann::json& n : swap["notes"]) {
    EXPECT_FALSE(n.contains("others")) << n.dump();
  }
}

TEST(VerifyCommandTest, StatedVariationsOfAKi2FileAreCheckedAndShown) {
  // The mate in 5 above as a KI2 file with two variations: the right one and the one that
  // mates in 5 where 3 do.
  const std::string path = ScratchPath("verify_variations", ".ki2");
  {
    std::ofstream file(path);
    // The diagram as `solve --kif` writes it.
    file << SolutionKif(FromSfen("ln1s3nl/1+S4+B2/p1p1k2pp/3p2P2/7P1/P1Pnpp1R1/1P1P+lP2P/2G1G4/"
                                 "L1SKP2N+b b R2GPsp 1"),
                        {}, false, "")
         << "▲５四飛　△６二玉　▲５三金　△５一玉　▲４二馬\n"
            "まで5手で詰み\n"
            "変化：2手\n△６三玉　▲５三金　△７四玉　▲７五金\n"
            "変化：2手\n△６三玉　▲６四飛　△５二玉　▲４二金　△５三玉　▲５四金\n";
  }
  std::ostringstream out, err;
  int code = RunVerify({"--hash-mb", "16", path}, out, err);
  std::ostringstream kif_out;
  RunVerify({"--hash-mb", "16", "--kif", path}, kif_out, err);
  std::remove(path.c_str());
  // The record says so too, as a comment on the start.
  EXPECT_THAT(kif_out.str(), testing::HasSubstr("\n*stated variations: 2 checked, 1 wrong\n"));
  EXPECT_NE(code, kExitUsage) << err.str();
  EXPECT_EQ(err.str(), "");
  EXPECT_THAT(out.str(), testing::HasSubstr(
                             "note: 変化手順不正 (bad_stated_variation) at ply 2: the variation "
                             "5c6c: a mate in 3 or less follows 5c6c, where the variation "
                             "shows 5\n    △６三玉 ▲６四飛 △５二玉 ▲４二金 △５三玉 ▲５四金\n"));
  EXPECT_EQ(out.str().find("the variation 5c6c: at ply"), std::string::npos) << out.str();
  EXPECT_THAT(out.str(), testing::HasSubstr("  stated variations: 2 checked, 1 wrong\n"));
  // The checked record keeps both of the composer's variations: the wrong one with its note,
  // the right one saying so (here also the 変同 note's line: one branch says both). Our reader
  // reads them back as the file's two lines.
  EXPECT_THAT(kif_out.str(),
              testing::HasSubstr("5c6b: mate in 3 more plies; the problem's variation: checked, "
                                 "right\n"));
  Collection c = ParseCollection(kif_out.str(), "checked.kifu", CollectionFormat::kKif);
  ASSERT_EQ(c.problems.size(), 1u);
  std::set<std::vector<std::string>> read;
  for (const Problem::Variation& v : c.problems[0].variations) read.insert(v.usi);
  EXPECT_TRUE(read.count({"R*5d", "5c6c", "G*5c", "6c7d", "G*7e"})) << kif_out.str();
  EXPECT_TRUE(read.count({"R*5d", "5c6c", "5d6d", "6c5b", "G*4b", "5b5c", "G*5d"}))
      << kif_out.str();
}

// --kif-dir writes each verification's record to its own file, in Shift-JIS, besides the
// usual output: the file decodes to the record --kif writes.
TEST(VerifyCommandTest, KifDirHoldsEachRecordInShiftJis) {
  const std::string sfen = "lnsgs2+Pl/3kg4/p1pppN2p/6pp1/9/7R1/P1PP1Sg1P/1S3+b3/LN5KL w Nrbg6p 1";
  const std::string dir = ScratchPath("verify_kif_dir");
  std::filesystem::remove_all(dir);
  std::ostringstream kif_out, text_out, err;
  ASSERT_EQ(RunVerify({"--hash-mb", "16", "--kif", sfen}, kif_out, err), kExitMismatch)
      << err.str();
  ASSERT_EQ(RunVerify({"--hash-mb", "16", "--kif-dir", dir, sfen}, text_out, err), kExitMismatch)
      << err.str();
  EXPECT_THAT(text_out.str(), testing::HasSubstr("argument  flawed"));
  std::ifstream in(dir + "/argument.kif", std::ios::binary);
  std::stringstream bytes;
  bytes << in.rdbuf();
  EXPECT_EQ(bytes.str().find("余詰"), std::string::npos) << "not Shift-JIS";
  absl::StatusOr<std::string> decoded = DecodeToUtf8(bytes.str());
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(*decoded + "\n", kif_out.str());
  std::filesystem::remove_all(dir);
}

// A repeated id's files are numbered by the input, not by what a run leaves out: the second
// of two problems with one id is "-2" in a run of --shard 2/2, and with several jobs.
TEST(VerifyCommandTest, KifDirNamesRepeatedIdsByTheirPlaceInTheInput) {
  const std::string base = ScratchPath("verify_kif_names");
  std::filesystem::remove_all(base);
  std::filesystem::create_directories(base);
  const std::string file = base + "/twice.sfen";
  std::ofstream(file) << "lnsgs2+Pl/3kg4/p1pppN2p/6pp1/9/7R1/P1PP1Sg1P/1S3+b3/LN5KL w Nrbg6p 1\n";
  auto names_written = [&](std::vector<std::string> flags) {
    const std::string dir = base + "/kifs";
    std::filesystem::remove_all(dir);
    std::vector<std::string> args = {"--hash-mb", "16", "--kif-dir", dir};
    args.insert(args.end(), flags.begin(), flags.end());
    args.insert(args.end(), {file, file});
    std::ostringstream out, err;
    EXPECT_EQ(RunVerify(args, out, err), kExitMismatch) << err.str();
    std::vector<std::string> names;
    for (const auto& entry : std::filesystem::directory_iterator(dir)) {
      names.push_back(entry.path().filename().string());
    }
    std::sort(names.begin(), names.end());
    return names;
  };
  EXPECT_THAT(names_written({}), testing::ElementsAre("twice.sfen_1-2.kif", "twice.sfen_1.kif"));
  EXPECT_THAT(names_written({"--shard", "2/2"}), testing::ElementsAre("twice.sfen_1-2.kif"));
  EXPECT_THAT(names_written({"--shard", "1/2"}), testing::ElementsAre("twice.sfen_1.kif"));
  EXPECT_THAT(names_written({"--jobs", "2"}),
              testing::ElementsAre("twice.sfen_1-2.kif", "twice.sfen_1.kif"));
  std::filesystem::remove_all(base);
}

// 駒余り names the pieces left, as an SFEN hand does.
TEST(VerifyTest, PiecesLeftAreNamed) {
  // White drops the rook and the gold of "rbg6p": the bishop and six pawns are left.
  Position start = FromSfen("lnsgs2+Pl/3kg4/p1pppN2p/6pp1/9/7R1/P1PP1Sg1P/1S3+b3/LN5KL w Nrbg6p 1");
  Solver solver(TestOptions());
  VerifyReport report = VerifyProblem(solver, start, 5, {});
  ASSERT_EQ(CountKind(report.flaws, FlawKind::kPiecesLeft), 1);
  for (const Flaw& f : report.flaws) {
    if (f.kind != FlawKind::kPiecesLeft) continue;
    EXPECT_EQ(f.ply, 5);
    EXPECT_EQ(f.detail, "7 pieces left in the attacker's hand: B6P");
    EXPECT_EQ(Replay(start, report.main_line).hand(kWhite).Total(), 7);
  }
}

TEST(VerifyCommandTest, KifRecordCarriesTheFindingsAsBranchesAndReadsBack) {
  // stated.tsv's mate in 5 with 余詰 at ply 1, a 変同 at ply 2 and the rook's drop on two
  // other squares of its line at ply 3 (非限定, one note).
  const std::string sfen = "lnsgs2+Pl/3kg4/p1pppN2p/6pp1/9/7R1/P1PP1Sg1P/1S3+b3/LN5KL w Nrbg6p 1";
  std::ostringstream json_out, kif_out, err;
  ASSERT_EQ(RunVerify({"--hash-mb", "16", "--json", sfen}, json_out, err), kExitMismatch)
      << err.str();
  ASSERT_EQ(RunVerify({"--hash-mb", "16", "--kif", sfen}, kif_out, err), kExitMismatch)
      << err.str();
  nlohmann::json j = nlohmann::json::parse(json_out.str());
  const std::string kif = kif_out.str();
  EXPECT_THAT(kif, testing::HasSubstr("*余詰 (alternative_mate) at ply 1: "));
  EXPECT_THAT(kif, testing::HasSubstr("*note: 変同 (same_length_variation) at ply 2: "));

  // Our own reader reads it back: the position, the main line, and each finding's line as a
  // variation (the main line's moves before its ply, then its own).
  Collection c = ParseCollection(kif, "checked.kif", CollectionFormat::kKif);
  ASSERT_EQ(c.problems.size(), 1u);
  EXPECT_TRUE(c.errors.empty()) << c.errors[0].message;
  const Problem& p = c.problems[0];
  EXPECT_EQ(p.sfen, sfen);
  EXPECT_EQ(p.solution_usi, j["moves"].get<std::vector<std::string>>());
  EXPECT_EQ(p.expected_length, 5);
  std::multiset<std::vector<std::string>> expected, read;
  for (const char* kind : {"flaws", "notes"}) {
    for (const nlohmann::json& f : j[kind]) {
      int ply = f["ply"];
      std::vector<std::string> moves = f["moves"];
      if (ply < 1 || moves.empty()) continue;
      std::vector<std::string> whole(p.solution_usi.begin(), p.solution_usi.begin() + (ply - 1));
      whole.insert(whole.end(), moves.begin(), moves.end());
      expected.insert(whole);
    }
  }
  for (const Problem::Variation& v : p.variations) read.insert(v.usi);
  EXPECT_EQ(read.size(), 3u);  // the 余詰, the 変同 and the 非限定 (its first drop's line)
  EXPECT_EQ(read, expected);
  // --json and --kif together are refused.
  std::ostringstream out2, err2;
  EXPECT_EQ(RunVerify({"--json", "--kif", sfen}, out2, err2), kExitUsage);
  EXPECT_THAT(err2.str(), testing::HasSubstr("--json and --kif"));
}

// A problem without the king to mate is not a mate, and the text says why.
TEST(VerifyCommandTest, NoKingToMateIsSaid) {
  std::ostringstream out, err;
  EXPECT_EQ(RunVerify({"9/9/9/9/9/9/9/9/4K4 b G 1"}, out, err), kExitMismatch) << err.str();
  EXPECT_THAT(out.str(), ::testing::StartsWith("argument  not a mate (White has no king)\n"));
}

// A bad line in a file is reported with its file and line and skipped; the other problems
// are verified; the status says the input was bad.
TEST(VerifyCommandTest, BadLineIsReportedTheRestVerifiedAndTheStatusIsTwo) {
  std::string path = std::string(TSUME_SOURCE_DIR) + "/tests/testdata/batch/bad_line.txt";
  std::ostringstream out, err;
  EXPECT_EQ(RunVerify({"--json", path}, out, err), kExitUsage);
  EXPECT_NE(err.str().find("tsume verify: " + path + ":2: "), std::string::npos) << err.str();
  int results = 0;
  std::istringstream lines(out.str());
  for (std::string line; std::getline(lines, line);) {
    nlohmann::json j = nlohmann::json::parse(line);
    EXPECT_NE(j["source"], path + ":2");
    EXPECT_NE(j["verdict"], "unknown") << line;
    ++results;
  }
  EXPECT_EQ(results, 3);
}

std::vector<std::string> ReadLines(const std::string& path) {
  std::ifstream in(path);
  std::vector<std::string> lines;
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// --out keeps each result in a file as it is known; --resume verifies only the problems the
// file lacks, after dropping a line cut short, and the summary counts the kept ones too.
TEST(VerifyCommandTest, OutFileKeepsResultsAndResumeVerifiesOnlyTheRest) {
  const std::string input =
      std::string(TSUME_SOURCE_DIR) + "/tests/testdata/batch/practical_short.txt";
  const std::string path = ScratchPath("verify_resume", ".jsonl");
  std::remove(path.c_str());
  std::ostringstream out, err;
  int status = RunVerify({"--out", path, input}, out, err);
  std::vector<std::string> all = ReadLines(path);
  ASSERT_EQ(all.size(), 10u);
  // Practical mates, composed by no one: some are flawed, and then the status says so.
  int unsound = 0;
  for (const std::string& line : all) {
    std::string verdict = nlohmann::json::parse(line)["verdict"];
    unsound += verdict == "flawed" || verdict == "not a mate";
  }
  const int expected_status = unsound > 0 ? kExitMismatch : kExitOk;
  ASSERT_EQ(status, expected_status) << err.str();
  std::set<std::string> ids;
  for (const std::string& line : all) ids.insert(nlohmann::json::parse(line)["id"]);
  EXPECT_EQ(ids.size(), 10u);

  // Three results kept, then a line an interrupted write cut short.
  {
    std::ofstream cut(path, std::ios::trunc);
    for (int i = 0; i < 3; ++i) cut << all[i] << "\n";
    cut << R"({"id":"practical_short.txt:9","sour)";
  }
  std::set<std::string> kept;
  for (int i = 0; i < 3; ++i) kept.insert(nlohmann::json::parse(all[i])["id"]);
  std::ostringstream out2, err2;
  // The kept results count for the status too.
  ASSERT_EQ(RunVerify({"--json", "--out", path, "--resume", input}, out2, err2), expected_status)
      << err2.str();
  EXPECT_NE(err2.str().find("dropping an unfinished last line"), std::string::npos) << err2.str();
  std::istringstream printed(out2.str());
  int verified = 0;
  for (std::string line; std::getline(printed, line);) {
    EXPECT_EQ(kept.count(nlohmann::json::parse(line)["id"]), 0u) << line;
    ++verified;
  }
  EXPECT_EQ(verified, 7);
  std::set<std::string> resumed;
  std::vector<std::string> now = ReadLines(path);
  for (const std::string& line : now) resumed.insert(nlohmann::json::parse(line)["id"]);
  EXPECT_EQ(now.size(), 10u);
  EXPECT_EQ(resumed, ids);

  // Nothing left: nothing verified, and the summary still counts all ten.
  std::ostringstream out3, err3;
  ASSERT_EQ(RunVerify({"--out", path, "--resume", input}, out3, err3), expected_status)
      << err3.str();
  std::string summary = out3.str();
  EXPECT_EQ(summary.find("nodes "), std::string::npos) << summary;
  int counted = 0;
  for (const char* verdict : {"sound", "flawed", "not a mate", "unknown"}) {
    size_t at = summary.find(std::string("  ") + verdict + " ");
    if (at != std::string::npos) counted += std::stoi(summary.substr(at + strlen(verdict) + 3));
  }
  EXPECT_EQ(counted, 10) << summary;
  EXPECT_EQ(ReadLines(path).size(), 10u);

  std::ostringstream out4, err4;
  EXPECT_EQ(RunVerify({"--resume", input}, out4, err4), kExitUsage);
  EXPECT_NE(err4.str().find("--resume needs --out"), std::string::npos) << err4.str();
  std::remove(path.c_str());
}

TEST(VerifyCommandTest, LengthLeftABoundByTheLimitsIsSaidToBeOne) {
  const char* sfen = kZuko13;
  std::ostringstream out, err, json_out, json_err;
  ASSERT_EQ(RunVerify({"--nodes", "400000", sfen}, out, err), kExitOk) << err.str();
  std::string text = out.str();
  EXPECT_NE(text.find("unknown  mate in at most "), std::string::npos) << text;
  EXPECT_NE(text.find("(the nodes limit stopped the solve before the mate was proven shortest"),
            std::string::npos)
      << text;
  ASSERT_EQ(RunVerify({"--json", "--nodes", "400000", sfen}, json_out, json_err), kExitOk)
      << json_err.str();
  nlohmann::json j = nlohmann::json::parse(json_out.str());
  EXPECT_EQ(j["verdict"], "unknown");
  EXPECT_GE(j["length"].get<int>(), 23);
  EXPECT_FALSE(j["length_exact"].get<bool>());
  // The proof's line is shown, and said to be one: legal, every attacker move a check, a mate
  // at the end within the bound (its defences are not proven longest, so it may be shorter).
  EXPECT_NE(text.find("; the line is its proof's, whose defences are not proven longest)\n  ▲"),
            std::string::npos)
      << text;
  EXPECT_EQ(text.find("(limits stopped part of"), std::string::npos) << text;
  Position pos = FromSfen(sfen);
  ASSERT_FALSE(j["moves"].empty());
  EXPECT_LE(int(j["moves"].size()), j["length"].get<int>());
  for (size_t i = 0; i < j["moves"].size(); ++i) {
    absl::StatusOr<Move> m = pos.ParseUsiMove(j["moves"][i].get<std::string>());
    ASSERT_TRUE(m.ok()) << i;
    ASSERT_TRUE(pos.IsFullyLegal(*m)) << i;
    if (i % 2 == 0) {
      EXPECT_TRUE(pos.GivesCheck(*m)) << i;
    }
    pos.DoMove(*m);
  }
  EXPECT_TRUE(IsCheckmate(pos)) << pos.Sfen();
}

// A fault of the intended line is shown from the intended line's position, not the main
// line's (the solver's, which leaves the intended one at ply 1 here). zukou-013's intended line
// drops a bishop on 8d at ply 13; the defence that holds out longer at ply 14, 7c8d, takes it:
// 「△同　玉」. Read from the main line's position, where 8d was not the last move's square,
// it came out as 「△８四玉」.
TEST(VerifyCommandTest, IntendedLineFaultIsShownFromTheIntendedLine) {
  if (TSUME_SANITIZED) GTEST_SKIP() << "about four seconds in Release";
  std::ostringstream out, err;
  ASSERT_EQ(RunVerify({TSUME_SOURCE_DIR "/tests/testdata/verify/zukou-013.tsv"}, out, err),
            kExitMismatch)
      << err.str();
  std::string text = out.str();
  EXPECT_NE(text.find("作意手順不正 (bad_intended_line) at ply 14: 7c8d holds out longer than "
                      "7d8d: no mate in the 3 plies the line has left\n    △同　玉\n"),
            std::string::npos)
      << text;
}

// zukou-058 (29 plies): verified in about 0.2 s in Release, far more than a millisecond.
constexpr char kZuko58[] = "9/9/9/5l1n1/3S1p1+R1/4Gg2g/3p2N1N/4+nBkS1/4+B2P1 b Prg2s3l14p 1";

// The single JSON line `tsume verify --json ARGS` prints for one problem (null when it
// fails or prints another number of lines).
nlohmann::json VerifyJson(CommandArgs args) {
  args.insert(args.begin(), "--json");
  std::ostringstream out, err;
  int status = RunVerify(args, out, err);
  std::vector<nlohmann::json> lines = JsonLines(out.str());
  EXPECT_EQ(lines.size(), 1u) << out.str();
  if (lines.size() != 1) return nlohmann::json();
  bool unsound = lines[0]["verdict"] == "flawed" || lines[0]["verdict"] == "not a mate";
  EXPECT_EQ(status, unsound ? kExitMismatch : kExitOk) << err.str();
  return lines[0];
}

// --total-time-ms: a problem the time left unknown at its first try is verified again with
// the time left, and only that result is written; one decided at once is written as it is.
// Limits other than time are not retried, and each line says the time it had.
TEST(VerifyCommandTest, TotalTimeGivesWhatIsLeftToProblemsTheTimeLeftUnknown) {
  nlohmann::json once = VerifyJson({"--time-ms", "1", kZuko58});
  EXPECT_EQ(once["verdict"], "unknown");
  EXPECT_EQ(once["time_limit_ms"], 1);
  EXPECT_EQ(once["tries"], 1);

  const std::string path = ScratchPath("verify_total", ".jsonl");
  nlohmann::json twice =
      VerifyJson({"--time-ms", "1", "--total-time-ms", "600000", "--out", path, kZuko58});
  EXPECT_EQ(twice["verdict"], "sound");
  EXPECT_EQ(twice["tries"], 2);
  EXPECT_GT(twice["time_limit_ms"].get<int64_t>(), 500000);
  std::vector<std::string> written = ReadLines(path);
  ASSERT_EQ(written.size(), 1u);
  EXPECT_EQ(nlohmann::json::parse(written[0])["tries"], 2);
  std::remove(path.c_str());

  // Without --time-ms the first try has the budget's share: here all of it (less the moments
  // spent before it started).
  nlohmann::json shared = VerifyJson({"--total-time-ms", "600000", kZuko58});
  EXPECT_EQ(shared["verdict"], "sound");
  EXPECT_EQ(shared["tries"], 1);
  EXPECT_GT(shared["time_limit_ms"].get<int64_t>(), 590000);
  EXPECT_LE(shared["time_limit_ms"].get<int64_t>(), 600000);

  // A node limit stops the second try as it stopped the first: no second try.
  nlohmann::json nodes_cut = VerifyJson({"--nodes", "1000", "--total-time-ms", "600000", kZuko58});
  EXPECT_EQ(nodes_cut["verdict"], "unknown");
  EXPECT_EQ(nodes_cut["tries"], 1);

  // No limit at all: null.
  EXPECT_TRUE(VerifyJson({kSwap})["time_limit_ms"].is_null());
}

// What a second try could add: the verdict when the time left it unknown, information when
// the time cut a search after the verdict; nothing for other limits or none.
TEST(VerifyTest, WhatTheTimeCutDecidesASecondTry) {
  auto report = [](Verdict verdict, LimitReason limit) {
    VerifyReport r;
    r.verdict = verdict;
    r.limit = limit;
    return r;
  };
  EXPECT_EQ(WhatTheTimeCut(report(Verdict::kUnknown, LimitReason::kTime)), TimeCut::kVerdict);
  EXPECT_EQ(WhatTheTimeCut(report(Verdict::kSound, LimitReason::kTime)), TimeCut::kInformation);
  EXPECT_EQ(WhatTheTimeCut(report(Verdict::kFlawed, LimitReason::kTime)), TimeCut::kInformation);
  EXPECT_EQ(WhatTheTimeCut(report(Verdict::kUnknown, LimitReason::kNodes)), TimeCut::kNone);
  EXPECT_EQ(WhatTheTimeCut(report(Verdict::kUnknown, LimitReason::kStopped)), TimeCut::kNone);
  EXPECT_EQ(WhatTheTimeCut(report(Verdict::kSound, LimitReason::kNone)), TimeCut::kNone);
  // From a verification: cut in its solve, and whole.
  SolveOptions quick = TestOptions();
  quick.time_limit = absl::Milliseconds(1);
  Solver cut(quick);
  EXPECT_EQ(WhatTheTimeCut(VerifyProblem(cut, FromSfen(kZuko13), 17, {})), TimeCut::kVerdict);
  Solver whole(TestOptions());
  EXPECT_EQ(WhatTheTimeCut(VerifyProblem(whole, FromSfen(kSwap), std::nullopt, {})),
            TimeCut::kNone);
}

// Problems decided at the first try keep the input's order; the second tries follow, and
// the human output says which results they are.
TEST(VerifyCommandTest, SecondTriesComeAfterTheProblemsDecidedAtOnce) {
  const std::string input = ScratchPath("verify_two", ".txt");
  {
    std::ofstream file(input);
    file << kZuko58 << "\n" << kSwap << "\n";
  }
  std::ostringstream out, err;
  // zukou-058 cannot be verified in 30 ms (0.24 s in Release, 1.1 s with ASan); kSwap, a mate
  // in 5 taking 90 nodes, can (2 ms, 11 ms with ASan; the clock is read every 1024 nodes).
  ASSERT_EQ(RunVerify({"--time-ms", "30", "--total-time-ms", "600000", input}, out, err), kExitOk)
      << err.str();
  std::string text = out.str();
  size_t swap = text.find(":2  sound");
  size_t zuko = text.find(":1  sound");
  ASSERT_NE(swap, std::string::npos) << text;
  ASSERT_NE(zuko, std::string::npos) << text;
  EXPECT_LT(swap, zuko) << text;
  EXPECT_NE(text.find("second try, with ", zuko), std::string::npos) << text;
  EXPECT_NE(text.find("summary:  sound 2"), std::string::npos) << text;
  std::remove(input.c_str());
}

TEST(VerifyCommandTest, BadTotalTimeIsNamed) {
  for (const char* bad : {"0", "-5", "soon"}) {
    std::ostringstream out, err;
    EXPECT_EQ(RunVerify({"--total-time-ms", bad, kSwap}, out, err), kExitUsage) << bad;
    EXPECT_NE(err.str().find("tsume verify: flag --total-time-ms"), std::string::npos) << err.str();
  }
}

// --jobs: problems verified side by side, each result written as it is known, every one
// counted; with a budget the second tries run side by side too.
TEST(VerifyCommandTest, JobsVerifySideBySide) {
  const std::string input = ScratchPath("verify_jobs", ".txt");
  const std::string path = ScratchPath("verify_jobs", ".jsonl");
  {
    std::ofstream file(input);
    file << kZuko58 << "\n" << kSwap << "\n" << kRealAlternative << "\n" << kZuko58 << "\n";
  }
  std::ostringstream out, err;
  ASSERT_EQ(RunVerify({"--jobs", "2", "--out", path, input}, out, err), kExitMismatch) << err.str();
  EXPECT_NE(out.str().find("summary:  flawed 1  sound 3"), std::string::npos) << out.str();
  std::multiset<std::string> verdicts;
  for (const std::string& line : ReadLines(path)) {
    nlohmann::json j = nlohmann::json::parse(line);
    verdicts.insert(absl::StrCat(j["id"].get<std::string>(), " ", j["verdict"].get<std::string>()));
  }
  EXPECT_THAT(verdicts, ::testing::UnorderedElementsAre(
                            ::testing::EndsWith(":1 sound"), ::testing::EndsWith(":2 sound"),
                            ::testing::EndsWith(":3 flawed"), ::testing::EndsWith(":4 sound")));

  // zukou-058 twice, too slow for its first try's 30 ms: both verified again at once.
  std::ostringstream budget_out, budget_err;
  ASSERT_EQ(RunVerify({"--jobs", "2", "--time-ms", "30", "--total-time-ms", "600000", input},
                      budget_out, budget_err),
            kExitMismatch)
      << budget_err.str();
  std::string text = budget_out.str();
  EXPECT_NE(text.find("summary:  flawed 1  sound 3"), std::string::npos) << text;
  size_t first = text.find("second try");
  ASSERT_NE(first, std::string::npos) << text;
  EXPECT_NE(text.find("second try", first + 1), std::string::npos) << text;
  std::remove(input.c_str());
  std::remove(path.c_str());
}

// The summary names each problem that is not sound with its flaws, kept results' too, and says
// how many were verified and what verified them.
TEST(VerifyCommandTest, SummaryNamesTheProblemsNotSound) {
  const std::string input = ScratchPath("verify_summary", ".txt");
  const std::string path = ScratchPath("verify_summary", ".jsonl");
  {
    std::ofstream file(input);
    file << kSwap << "\n" << kRealAlternative << "\nnot a position\n" << kSwap << "\n";
  }
  const std::string flawed =
      "\nflawed: " + std::filesystem::path(input).filename().string() + ":2 (余詰)\n";
  const std::string context = "\ntsume " + Version() + " (";
  std::ostringstream out, err;
  ASSERT_EQ(RunVerify({"--out", path, input}, out, err), kExitUsage);  // the bad line
  EXPECT_THAT(out.str(),
              testing::HasSubstr("summary:  flawed 1  sound 2" + flawed +
                                 "problems 3 (3 verified now, 0 kept from the results file)  "
                                 "input errors 1  wall "));
  EXPECT_THAT(out.str(), testing::HasSubstr(context));
  EXPECT_THAT(out.str(), testing::Not(testing::HasSubstr("sound: ")));

  // Resumed: every result kept, the flaw read back from the file.
  std::ostringstream resumed_out, resumed_err;
  RunVerify({"--out", path, "--resume", input}, resumed_out, resumed_err);
  EXPECT_THAT(resumed_out.str(),
              testing::HasSubstr("summary:  flawed 1  sound 2" + flawed +
                                 "problems 3 (0 verified now, 3 kept from the results file)"));

  // JSON lines alone on stdout: the summary goes to stderr.
  std::ostringstream json_out, json_err;
  RunVerify({"--json", input}, json_out, json_err);
  EXPECT_THAT(json_out.str(), testing::Not(testing::HasSubstr("summary:")));
  EXPECT_THAT(json_err.str(), testing::HasSubstr("summary:  flawed 1  sound 2" + flawed));
  EXPECT_THAT(json_err.str(), testing::HasSubstr(context));
  std::remove(input.c_str());
  std::remove(path.c_str());
}

TEST(VerifyCommandTest, BadJobsAreNamed) {
  for (const char* bad : {"0", "-1", "two"}) {
    std::ostringstream out, err;
    EXPECT_EQ(RunVerify({"--jobs", bad, kSwap}, out, err), kExitUsage) << bad;
    EXPECT_NE(err.str().find("tsume verify: flag --jobs"), std::string::npos) << err.str();
  }
  std::ostringstream out, err;
  EXPECT_EQ(RunVerify({"--jobs", "4", "--hash-mb", "2", kSwap}, out, err), kExitUsage);
  EXPECT_NE(err.str().find("tsume verify: flag --hash-mb: 2 MB leaves less than 1 MB for each of "
                           "the 4 jobs"),
            std::string::npos)
      << err.str();
}

TEST(VerifyCommandTest, HumanOutputShowsNotesApartFromFlaws) {
  std::ostringstream out, err;
  ASSERT_EQ(RunVerify({kRealAlternative}, out, err), kExitMismatch) << err.str();
  std::string text = out.str();
  EXPECT_NE(text.find("flawed"), std::string::npos) << text;
  EXPECT_NE(text.find("  余詰 (alternative_mate) at ply 5"), std::string::npos) << text;
  EXPECT_NE(text.find("  note: 手順前後 (transposition) at ply 1"), std::string::npos) << text;
}

// The status tells a script whether the problems hold: 0 when none is shown unsound, 1 when
// one is flawed or no mate at all (among others that are sound), 2 for bad input whatever the
// verdicts.
TEST(VerifyCommandTest, StatusSaysWhetherAnyProblemIsUnsound) {
  auto status = [](CommandArgs args) {
    std::ostringstream out, err;
    return RunVerify(args, out, err);
  };
  const std::string no_mate = "4k4/9/9/9/9/9/9/9/9 b P2r2b4g4s4n4l16p 1";
  const std::string input = ScratchPath("verify_status", ".txt");
  EXPECT_EQ(status({kSwap}), kExitOk);
  EXPECT_EQ(status({kRealAlternative}), kExitMismatch);
  EXPECT_EQ(status({no_mate}), kExitMismatch);
  std::ofstream(input) << kSwap << "\n" << no_mate << "\n";
  EXPECT_EQ(status({input}), kExitMismatch);
  std::ofstream(input) << kSwap << "\nnot a position\n";
  EXPECT_EQ(status({input}), kExitUsage);
  std::remove(input.c_str());
}

}  // namespace
}  // namespace tsume
