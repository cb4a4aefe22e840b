// The solver against the rule tests, a sample of the practical problems and a few short classics,
// under tsume and game rules: status, exact length, main lines that replay (checks, checkmate),
// agreement with an independent brute-force search on short problems, and the properties a
// solver must keep whatever its limits: never a false "no mate" (nor a false mate) under node,
// time or stop limits, answers that do not depend on the table size or on the order of problems.
// The slow rows and all 100 Zuko problems are in solver_slow_test.cc.
#include "solver/solver.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <map>
#include <ostream>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "core/movegen.h"
#include "core/position.h"
#include "problems/collection.h"
#include "solver/dfpn.h"

namespace tsume {
namespace {

constexpr bool kSanitized = TSUME_SANITIZED;

// ---------------------------------------------------------------------------------------------
// Data.

const std::string kRulesPath = TSUME_SOURCE_DIR "/problems/rules/rule_tests.tsv";
const std::string kZukouPath = TSUME_SOURCE_DIR "/problems/classics/zukou.tsv";
const std::string kPracticalDir = TSUME_SOURCE_DIR "/../shared/problems/practical/";

// The problems of a collection file, none when it is absent. Read errors are failures, except
// while the parameterised tests are being set up (`report_errors` false: no test runs yet;
// RuleRowsTest.DataReadsCleanly reports them).
std::vector<Problem> ReadProblems(const std::string& path, bool report_errors = true) {
  if (!std::filesystem::exists(path)) return {};
  absl::StatusOr<Collection> c = ReadCollection(path);
  if (!c.ok()) {
    if (report_errors) ADD_FAILURE() << c.status();
    return {};
  }
  if (report_errors) {
    for (const InputError& e : c->errors) ADD_FAILURE() << FormatInputError(e);
  }
  return std::move(c->problems);
}

// The first `count` problems of a practical file (mate3.txt ... mate11.txt), or none when the
// shared collection is absent.
std::vector<Problem> ReadPractical(const std::string& name, int count, int skip = 0) {
  std::ifstream in(kPracticalDir + name);
  if (!in) return {};
  std::string text, line;
  for (int i = 0; i < skip + count && std::getline(in, line); ++i) {
    if (i >= skip) absl::StrAppend(&text, line, "\n");
  }
  Collection c = ParseCollection(text, name, CollectionFormat::kPractical);
  for (const InputError& e : c.errors) ADD_FAILURE() << FormatInputError(e);
  return std::move(c.problems);
}

// Rows too slow for the default suite (seconds to minutes); solver_slow_test.cc solves them.
bool IsSlowRow(const Problem& p) {
  static const char* const kSlowPrefixes[] = {
      "8l/1R2S1kgr/",          // dfpn_pv, a 23-ply PV; exact length takes long under tsume rules
      "ln5kl/2r6/p1ps2+N1p/",  // dfpn_pv mate9_2: ~10 s under tsume rules
      "1pG1B4/Gs+P6/",         // Zuko 1 with an attacker king, 69 plies
      "4RB1k1/5s3/",           // depth_limit: a 13-ply mate, ~10 s under tsume rules
  };
  for (const char* prefix : kSlowPrefixes) {
    if (absl::StartsWith(p.sfen, prefix)) return true;
  }
  return false;
}

Position MustParse(const std::string& sfen) {
  absl::StatusOr<Position> pos = Position::FromSfen(sfen);
  EXPECT_TRUE(pos.ok()) << sfen << ": " << pos.status();
  return pos.ok() ? *std::move(pos) : Position();
}

SolveOptions Options(Rules rules, int64_t max_nodes = 0, int64_t hash_mb = 16) {
  SolveOptions o;
  o.rules = rules;
  o.max_nodes = max_nodes;
  o.hash_mb = hash_mb;
  return o;
}

std::string LineToString(const std::vector<Move>& moves) {
  std::vector<std::string> usi;
  for (Move m : moves) usi.push_back(ToUsi(m));
  return absl::StrJoin(usi, " ");
}

std::string Describe(const SolveResult& r) {
  return absl::StrCat(ToString(r.status), " length ", r.length,
                      r.length_exact ? "" : " (not exact)", " limit '", ToString(r.limit),
                      "' nodes ", r.nodes, " line: ", LineToString(r.moves));
}

// ---------------------------------------------------------------------------------------------
// Checks of a reported main line.

// Replays the line from `root`: every move legal (and its USI form parses back to it), every
// attacker move a check. Game rules: exactly `length` plies ending in checkmate. Tsume rules:
// the line may carry uncounted useless drops with their captures (listed in `uncounted`), and
// it ends with the defender in check and either mated or left with drops only.
::testing::AssertionResult ValidMainLine(const Position& root, const SolveResult& r, Rules rules) {
  Position pos = root;
  for (size_t i = 0; i < r.moves.size(); ++i) {
    Move m = r.moves[i];
    absl::StatusOr<Move> parsed = pos.ParseUsiMove(ToUsi(m));
    if (!parsed.ok() || *parsed != m) {
      return ::testing::AssertionFailure()
             << "ply " << i + 1 << " " << ToUsi(m) << " is not legal in " << pos.Sfen() << ": "
             << (parsed.ok() ? "parses to another move" : parsed.status().ToString());
    }
    pos.DoMove(m);
    if (i % 2 == 0 && !pos.in_check()) {
      return ::testing::AssertionFailure()
             << "attacker ply " << i + 1 << " " << ToUsi(m) << " gives no check";
    }
  }
  if (r.moves.size() % 2 != 1) {
    return ::testing::AssertionFailure() << "line of even length " << r.moves.size();
  }
  if (rules == Rules::kGame) {
    if (int(r.moves.size()) != r.length) {
      return ::testing::AssertionFailure()
             << "line has " << r.moves.size() << " plies, length is " << r.length;
    }
    if (!IsCheckmate(pos)) {
      return ::testing::AssertionFailure() << "line does not end in checkmate: " << pos.Sfen();
    }
    return ::testing::AssertionSuccess();
  }
  // Uncounted plies come in pairs: a defender's drop and the attacker's capture of it.
  if (int(r.moves.size() - r.uncounted.size()) != r.length || r.uncounted.size() % 2 != 0) {
    return ::testing::AssertionFailure()
           << "line has " << r.moves.size() << " plies, " << r.uncounted.size()
           << " uncounted, for length " << r.length;
  }
  for (size_t i = 0; i < r.uncounted.size(); i += 2) {
    int drop = r.uncounted[i], capture = r.uncounted[i + 1];
    if (drop % 2 != 1 || capture != drop + 1 || !r.moves[drop].is_drop() ||
        r.moves[capture].to() != r.moves[drop].to()) {
      return ::testing::AssertionFailure()
             << "uncounted plies " << drop + 1 << " and " << capture + 1
             << " are not a defender's drop and its capture";
    }
  }
  MoveList evasions;
  GenerateEvasions(pos, evasions);
  for (Move m : evasions) {
    if (!m.is_drop()) {
      return ::testing::AssertionFailure()
             << "line ends with a non-drop defence left: " << ToUsi(m) << " in " << pos.Sfen();
    }
  }
  return ::testing::AssertionSuccess();
}

// An exact length must be what the search itself proves for the root: a mate within it and
// none within two plies less. Queries the solver that just solved `root`.
::testing::AssertionResult LengthAgreesWithSearch(Solver& solver, const Position& root,
                                                  const SolveResult& r) {
  if (r.status != SolveStatus::kMate || !r.length_exact) return ::testing::AssertionSuccess();
  SolveStatus within = solver.MateWithin(root, r.length, true);
  SolveStatus shorter =
      r.length < 3 ? SolveStatus::kNoMate : solver.MateWithin(root, r.length - 2, true);
  if (within == SolveStatus::kUnknown || shorter == SolveStatus::kUnknown) {
    return ::testing::AssertionSuccess();  // out of limits: nothing to compare
  }
  if (within != SolveStatus::kMate || shorter != SolveStatus::kNoMate) {
    return ::testing::AssertionFailure()
           << "reported exact length " << r.length << ", but the search says: within " << r.length
           << " " << ToString(within) << ", within " << r.length - 2 << " " << ToString(shorter);
  }
  return ::testing::AssertionSuccess();
}

// ---------------------------------------------------------------------------------------------
// An independent oracle for short problems under game rules: plain exhaustive search over checks
// and evasions, sharing only the move generators with the solver.

class BruteForceMate {
 public:
  enum Answer { kNo = 0, kYes = 1, kGaveUp = -1 };
  explicit BruteForceMate(int64_t budget) : budget_(budget) {}

  // A forced mate within `depth` plies for the side to move (game rules)?
  Answer MateWithin(Position& pos, int depth) { return Or(pos, depth); }

 private:
  Answer Or(Position& pos, int depth) {
    if (depth < 1) return kNo;
    if (--budget_ < 0) return kGaveUp;
    if (depth < 3) return FindMateIn1(pos).is_none() ? kNo : kYes;
    MoveList checks;
    GenerateChecks(pos, checks);
    bool gave_up = false;
    for (Move m : checks) {
      pos.DoMove(m);
      Answer a = And(pos, depth - 1);
      pos.UndoMove();
      if (a == kYes) return kYes;
      gave_up |= a == kGaveUp;
    }
    return gave_up ? kGaveUp : kNo;
  }

  Answer And(Position& pos, int depth) {
    if (--budget_ < 0) return kGaveUp;
    MoveList evasions;
    GenerateEvasions(pos, evasions);
    if (evasions.empty()) return kYes;
    if (depth < 2) return kNo;
    bool gave_up = false;
    for (Move m : evasions) {
      pos.DoMove(m);
      Answer a = Or(pos, depth - 1);
      pos.UndoMove();
      if (a == kNo) return kNo;
      gave_up |= a == kGaveUp;
    }
    return gave_up ? kGaveUp : kYes;
  }

  int64_t budget_;
};

// ---------------------------------------------------------------------------------------------
// The rule tests, one test per row, each under both rules.

struct RuleRow {
  Problem problem;
  std::string name;
};

std::vector<RuleRow> RuleRows() {
  std::vector<RuleRow> rows;
  for (Problem& p : ReadProblems(kRulesPath, /*report_errors=*/false)) {
    std::string line = p.source.substr(p.source.rfind(':') + 1);
    std::string name = absl::StrCat("line", line, "_", p.category);
    rows.push_back({std::move(p), std::move(name)});
  }
  return rows;
}

void PrintTo(const RuleRow& row, std::ostream* os) { *os << row.name; }

class RuleRowTest : public ::testing::TestWithParam<RuleRow> {};

// A drop between the king and a ranged checker refutes a mate within d plies only if the
// attacker's capture on its square, played as if the defender had passed, does not mate
// within d either (else the drop is useless). A position of zukou-025's (White to defend, the
// rook on 1d checking along the rank) once gave a false "no mate": searched within 14 plies,
// its drops were known not mated within 15 and its hypothetical captures only within 14, and
// the disproof was stored as "no mate within 16", yet one of those captures mates in 16. The
// table is filled here with those facts (each computed by a fresh solver).
TEST(DfpnTest, DropRefutesNoDeeperThanTheCapturesOnItsSquareWereDisproven) {
  absl::StatusOr<Position> root =
      Position::FromSfen("7p1/1P1l1gg2/3nP1+P2/+b3k3R/2PP2N2/3G5/9/5L3/5+b3 w rg4s2n2l12p 1");
  ASSERT_TRUE(root.ok()) << root.status();
  auto no_mate_within = [](const Position& pos, int plies, bool attacker_to_move) {
    absl::StatusOr<Position> fresh = Position::FromSfen(pos.Sfen());  // without history
    Solver oracle(SolveOptions{});
    return oracle.MateWithin(*fresh, plies, attacker_to_move) == SolveStatus::kNoMate;
  };
  Solver fresh(SolveOptions{});
  ASSERT_EQ(fresh.MateWithin(*root, 16, false), SolveStatus::kMate);

  TranspositionTable tt(16);
  Position pos = *root;
  Bitboard between = Between(pos.king_square(kWhite), pos.checkers().Lsb());
  MoveList evasions;
  GenerateEvasions(pos, evasions);
  int drops = 0, captures_stored = 0;
  for (Move m : evasions) {
    if (!IsDeferrableDrop(m, between)) continue;
    pos.DoMove(m);
    if (no_mate_within(pos, 15, true)) {
      tt.StoreDisproven(pos.board_key(), pos.hand(kBlack), 15, 1);
      ++drops;
    }
    pos.UndoMove();
  }
  for (Square s : between) {
    MoveList captures;
    HypotheticalCaptures(pos, s, captures);
    for (Move capture : captures) {
      EnterHypothetical(pos, capture);
      if (no_mate_within(pos, 14, false)) {
        tt.StoreDisproven(pos.board_key(), pos.hand(kBlack), 14, 1);
        ++captures_stored;
      }
      LeaveHypothetical(pos);
    }
  }
  ASSERT_GT(drops, 0);
  ASSERT_GT(captures_stored, 0);
  DfpnSearch search(tt, Rules::kTsume, SearchLimits{});
  NodeResult within14 = search.Run(pos, 14, false, 0);
  EXPECT_TRUE(within14.disproven());
  EXPECT_LT(within14.depth, 16);
  // The position before the rook's check (1f1d), mated within 17, takes its child from the
  // table.
  absl::StatusOr<Position> before =
      Position::FromSfen("7p1/1P1l1gg2/3nP1+P2/+b3k4/2PP2N2/3G4R/9/5L3/5+b3 b rg4s2n2l12p 1");
  ASSERT_TRUE(before.ok()) << before.status();
  ASSERT_EQ(fresh.MateWithin(*before, 17, true), SolveStatus::kMate);
  EXPECT_TRUE(search.Run(*before, 17, true, 0).proven());
}

// A disproven OR node keeps, in its disproof pieces, any kind whose drop could not give check
// there: holding it adds no move. Black's knight would check White's king on 5a only from 4c
// or 6c, both taken.
TEST(DfpnTest, DisproofPiecesKeepKindsWhoseDropsCouldNotCheck) {
  absl::StatusOr<Position> pos = Position::FromSfen("4k4/9/3p1p3/9/9/9/9/9/4K4 b - 1");
  ASSERT_TRUE(pos.ok()) << pos.status();
  Hand full;
  for (PieceType pt : kHandTypes) full.Set(pt, Hand::kMaxCount[pt]);
  Hand pieces = OrDisproofPieces(*pos, full);
  EXPECT_EQ(pieces.Count(kKnight), Hand::kMaxCount[kKnight]);
  for (PieceType pt : {kPawn, kLance, kSilver, kGold, kBishop, kRook}) {
    EXPECT_EQ(pieces.Count(pt), 0) << int(pt);
  }
  // A kind held keeps the bound the checks gave.
  pos = Position::FromSfen("4k4/9/3p1p3/9/9/9/9/9/4K4 b G 1");
  ASSERT_TRUE(pos.ok()) << pos.status();
  Hand from_checks;
  from_checks.Set(kGold, 2);
  EXPECT_EQ(OrDisproofPieces(*pos, from_checks).Count(kGold), 2);
}

// The same through a search: P*5b is answered by a capture, after which Black has no check;
// the king's and the golds' squares leave no square for a knight to check from, so the
// disproof holds with knights in hand too, and the table says so for that hand.
TEST(DfpnTest, DisproofWithoutKnightsCoversHandsWithKnights) {
  absl::StatusOr<Position> pos = Position::FromSfen("3gkg3/3s1s3/3p1p3/3n1n3/9/9/9/9/4K4 b P 1");
  ASSERT_TRUE(pos.ok()) << pos.status();
  TranspositionTable tt(16);
  DfpnSearch search(tt, Rules::kTsume, SearchLimits{});
  NodeResult r = search.Run(*pos, kInfiniteDepth, true, 0);
  ASSERT_TRUE(r.disproven());
  EXPECT_EQ(r.pieces.Count(kKnight), Hand::kMaxCount[kKnight]);
  EXPECT_EQ(r.pieces.Count(kGold), 0);  // a gold dropped on 5b would check

  absl::StatusOr<Position> with_knights =
      Position::FromSfen("3gkg3/3s1s3/3p1p3/3n1n3/9/9/9/9/4K4 b P2N 1");
  ASSERT_TRUE(with_knights.ok()) << with_knights.status();
  EXPECT_TRUE(search.Peek(*with_knights, kInfiniteDepth, true).disproven());
  Solver oracle(SolveOptions{});
  EXPECT_EQ(oracle.MateWithin(*with_knights, 9, true), SolveStatus::kNoMate);
}

TEST(ThresholdTest, ChildAtTheCapStillGetsAThresholdAboveItsValue) {
  // 1+epsilon: a quarter more than the second best, plus one.
  EXPECT_EQ(SecondBestThreshold(4), 6u);
  EXPECT_EQ(SecondBestThreshold(4, 3), 8u);
  EXPECT_EQ(SecondBestThreshold(kInfinitePnDn, 3), kInfinitePnDn);
  EXPECT_LT(SecondBestThreshold(kPnDnCap, 3), kInfinitePnDn);
  EXPECT_EQ(SecondBestThreshold(kInfinitePnDn), kInfinitePnDn);
  // A value at the cap must leave room to search (else the parent loops without progress),
  // and thresholds never reach the infinite value that means proven or disproven.
  EXPECT_GT(SecondBestThreshold(kPnDnCap), kPnDnCap);
  EXPECT_LT(SecondBestThreshold(kPnDnCap), kInfinitePnDn);
  EXPECT_GT(ChildThreshold(kMaxThreshold, kPnDnCap, kPnDnCap), kPnDnCap);
  EXPECT_EQ(ChildThreshold(kInfinitePnDn, 7, 3), kInfinitePnDn);
  EXPECT_EQ(ChildThreshold(10, 7, 3), 6u);
  EXPECT_EQ(ChildThreshold(5, 9, 1), 1u);  // never below 1
}

// A limit a Run stopped on is remembered after later Runs finish: one that needs no look at
// the clock (a mate in one, decided before the search loop) finishes after the deadline.
TEST(DfpnTest, FirstLimitStaysWhenALaterRunFinishes) {
  TranspositionTable tt(16);
  SearchLimits limits;
  limits.deadline = absl::Now() - absl::Seconds(1);
  DfpnSearch search(tt, Rules::kTsume, limits);
  EXPECT_EQ(search.first_limit_reason(), LimitReason::kNone);
  // zukou-058, a mate in 29.
  Position hard = MustParse("9/9/9/5l1n1/3S1p1+R1/4Gg2g/3p2N1N/4+nBkS1/4+B2P1 b Prg2s3l14p 1");
  EXPECT_FALSE(search.Run(hard, kInfiniteDepth, true, 0).proven());
  EXPECT_EQ(search.limit_reason(), LimitReason::kTime);
  Position mate_in_one = MustParse("k8/9/1G7/9/9/9/9/9/9 b G 1");
  NodeResult quick = search.Run(mate_in_one, kInfiniteDepth, true, 0);
  ASSERT_TRUE(quick.proven());
  EXPECT_EQ(quick.length, 1);
  EXPECT_EQ(search.limit_reason(), LimitReason::kNone);
  EXPECT_EQ(search.first_limit_reason(), LimitReason::kTime);
}

// A disproof that holds only while certain positions are on the path is kept by those
// positions and taken again where they recur on another path. Its cache is looked at only
// where a bit filter of the stored keys lets it: a filter that missed a store would hide it.
TEST(DfpnTest, RepetitionDisproofsAreFoundAgainByThePositionsTheyDependOn) {
  TranspositionTable tt(16);
  DfpnSearch search(tt, Rules::kTsume, SearchLimits{});
  // mog-core's depth-limit test: a mate, longer than 3 plies, among checks that repeat.
  Position root = MustParse("4RB1k1/5s3/7n1/5s1LP/9/7r1/9/9/6K2 b b4g2s3n3l17p 1");
  NodeResult r = search.Run(root, kInfiniteDepth, true, 0);
  ASSERT_TRUE(r.proven());
  EXPECT_GT(r.length, 3);
  EXPECT_GT(search.segment_disproofs_found(), 0);
}

TEST(DfpnTest, PromotionTwinsPairAMoveWithItsOtherPromotionChoice) {
  // The silver's steps to 4c, 5c and 6c check promoted or not; its steps back and the gold
  // drops have no twin.
  absl::StatusOr<Position> pos = Position::FromSfen("9/4k4/9/4S4/9/9/9/9/4K4 b G 1");
  ASSERT_TRUE(pos.ok()) << pos.status();
  MoveList checks;
  GenerateChecks(*pos, checks);
  std::vector<Move> moves(checks.begin(), checks.end());
  std::vector<int> twins;
  for (int i = 0; i < int(moves.size()); ++i) twins.push_back(PromotionTwin(moves, i));
  auto index_of = [&](const std::string& usi) {
    for (int i = 0; i < int(moves.size()); ++i) {
      if (ToUsi(moves[i]) == usi) return i;
    }
    return -1;
  };
  int pairs = 0, unpaired_drops = 0;
  for (int i = 0; i < int(moves.size()); ++i) {
    std::string usi = ToUsi(moves[i]);
    std::string other = usi.back() == '+' ? usi.substr(0, usi.size() - 1) : usi + "+";
    EXPECT_EQ(twins[i], index_of(other)) << usi;
    pairs += twins[i] >= 0;
    unpaired_drops += moves[i].is_drop() && twins[i] == -1;
  }
  EXPECT_EQ(pairs, 6);  // 4c, 5c and 6c, each both ways
  EXPECT_GT(unpaired_drops, 0);
}

// The attacker's moves onto `s` that check, as the legal move generator lists them, after the
// defender to move in `pos` passes.
std::string LegalChecksOnto(Position& pos, Square s) {
  std::vector<Move> moves;
  pos.DoNullMove();
  MoveList legal;
  GenerateLegal(pos, legal);
  for (Move m : legal) {
    if (!m.is_drop() && m.to() == s && pos.GivesCheck(m)) moves.push_back(m);
  }
  pos.UndoMove();
  return LineToString(moves);
}

std::string HypotheticalCapturesOnto(Position& pos, Square s) {
  MoveList captures;
  HypotheticalCaptures(pos, s, captures);
  return LineToString(std::vector<Move>(captures.begin(), captures.end()));
}

TEST(DfpnTest, HypotheticalCapturesAreTheChecksOntoTheSquareInGenerateLegalsOrder) {
  // HypotheticalCaptures takes the moves onto the square from the pieces that reach it; the
  // search follows their order, which must stay the legal move generator's: the king's move
  // (a discovered check) after the others, a pinned piece's after the unpinned ones.
  Position king_last = MustParse("4k4/9/2K6/9/B1N6/9/9/9/9 w - 1");
  EXPECT_EQ(LegalChecksOnto(king_last, MakeSquare(5, 2)), "7e6c 7c6c");
  EXPECT_EQ(HypotheticalCapturesOnto(king_last, MakeSquare(5, 2)), "7e6c 7c6c");
  Position pinned_last = MustParse("9/4r4/9/5k3/9/3SG4/9/9/4K4 w - 1");
  EXPECT_EQ(LegalChecksOnto(pinned_last, MakeSquare(4, 4)), "6f5e 5f5e");
  EXPECT_EQ(HypotheticalCapturesOnto(pinned_last, MakeSquare(4, 4)), "6f5e 5f5e");

  // Along random games (half the moves checks) at every position and every empty square:
  // from the initial position, longer, for both kings and pinned pieces, and from the Zuko
  // problems and the rule tests.
  std::vector<std::pair<std::string, int>> starts(100, {"startpos", 150});
  for (const Problem& p : ReadProblems(kZukouPath)) starts.push_back({p.sfen, 24});
  for (const Problem& p : ReadProblems(kRulesPath)) starts.push_back({p.sfen, 24});
  std::mt19937_64 rng(7);
  int compared = 0, several = 0, promotions = 0;
  for (const auto& [sfen, plies] : starts) {
    Position pos = MustParse(sfen);
    for (int ply = 0; ply < plies; ++ply) {
      for (Square s = 0; s < kNumSquares; ++s) {
        if (pos.piece_on(s) != kNoPiece) continue;
        uint64_t key = pos.key();
        std::string want = LegalChecksOnto(pos, s);
        ASSERT_EQ(HypotheticalCapturesOnto(pos, s), want) << pos.Sfen() << ", square " << s;
        ASSERT_EQ(pos.key(), key);
        ++compared;
        several += absl::StrContains(want, " ");
        promotions += absl::StrContains(want, "+");
      }
      MoveList moves;
      if (std::bernoulli_distribution(0.5)(rng)) GenerateChecks(pos, moves);
      if (moves.empty()) GenerateLegal(pos, moves);
      if (moves.empty()) break;
      pos.DoMove(moves[std::uniform_int_distribution<int>(0, moves.size() - 1)(rng)]);
    }
  }
  EXPECT_GT(compared, 100000);
  EXPECT_GT(several, 1000);
  EXPECT_GT(promotions, 1000);
}

TEST(RuleRowsTest, DataReadsCleanly) {
  if (!std::filesystem::exists(kRulesPath)) GTEST_SKIP() << kRulesPath << " is absent";
  EXPECT_GE(ReadProblems(kRulesPath).size(), 100u);
}

TEST_P(RuleRowTest, SolvesUnderTsumeAndGameRules) {
  const Problem& p = GetParam().problem;
  SCOPED_TRACE(absl::StrCat(p.source, " ", p.category, " ", p.sfen, " ", p.notes));
  Position root = MustParse(p.sfen);
  // Fast rows finish well inside this; the sanitizer build settles for "not wrong".
  const int64_t node_cap = IsSlowRow(p) ? 20000 : kSanitized ? 30000 : 3000000;
  const bool must_finish = !IsSlowRow(p) && !kSanitized;

  // One table for all rows (answers do not depend on earlier problems: IndependenceTest).
  static Solver* const solver = new Solver(Options(Rules::kTsume));
  solver->set_options(Options(Rules::kTsume, node_cap));
  SolveResult tsume = solver->Solve(root);
  EXPECT_TRUE(LengthAgreesWithSearch(*solver, root, tsume)) << "tsume: " << Describe(tsume);
  solver->set_options(Options(Rules::kGame, node_cap));
  SolveResult game = solver->Solve(root);
  EXPECT_TRUE(LengthAgreesWithSearch(*solver, root, game)) << "game: " << Describe(game);
  SCOPED_TRACE("tsume: " + Describe(tsume));
  SCOPED_TRACE("game: " + Describe(game));

  for (const SolveResult* r : {&tsume, &game}) {
    if (must_finish) {
      EXPECT_NE(r->status, SolveStatus::kUnknown);
      EXPECT_EQ(r->limit, LimitReason::kNone);
    }
    if (r->status == SolveStatus::kUnknown) {
      EXPECT_NE(r->limit, LimitReason::kNone);
    }
    if (r->status == SolveStatus::kMate) {
      EXPECT_EQ(r->length % 2, 1);
      if (r->limit == LimitReason::kNone) {
        EXPECT_TRUE(r->length_exact);
        EXPECT_TRUE(ValidMainLine(root, *r, r == &tsume ? Rules::kTsume : Rules::kGame));
      }
    }
  }
  // Whether a mate exists does not depend on the rules (a useless drop only delays it), and
  // not counting useless drops can only shorten it.
  if (tsume.status != SolveStatus::kUnknown && game.status != SolveStatus::kUnknown) {
    EXPECT_EQ(tsume.status, game.status);
  }
  if (tsume.length_exact && game.length_exact) {
    EXPECT_LE(tsume.length, game.length);
  }
  // cshogi's mateMove_issue46 row is a deliberate difference, see RuleSpecialsTest.
  if (absl::StartsWith(p.sfen, "pk7/9/G8/2LKP4/")) return;

  // The row's own expectation (asserted under tsume rules, the convention of the sources; see
  // below for game rules).
  if (p.expected_nomate) {
    EXPECT_NE(tsume.status, SolveStatus::kMate);
    EXPECT_NE(game.status, SolveStatus::kMate);
    if (must_finish) {
      EXPECT_EQ(tsume.status, SolveStatus::kNoMate);
    }
  }
  if (p.nomate_within) {
    for (const SolveResult* r : {&tsume, &game}) {
      if (r->status == SolveStatus::kMate && r->length_exact) {
        EXPECT_GT(r->length, *p.nomate_within);
      }
    }
  }
  if (p.expected_mate) {
    EXPECT_NE(tsume.status, SolveStatus::kNoMate);
    EXPECT_NE(game.status, SolveStatus::kNoMate);
    if (must_finish) {
      EXPECT_EQ(tsume.status, SolveStatus::kMate);
    }
  }
  if (p.expected_length && tsume.limit == LimitReason::kNone) {
    EXPECT_EQ(tsume.length, *p.expected_length);
  }
  // Game rules agree except where the defender can interpose a piece that tsume rules call
  // useless; then the game length is longer, and 1 only when a mate in 1 exists regardless.
  if (p.expected_length && game.limit == LimitReason::kNone) {
    Position pos = root;
    bool mate_in_1 = !FindMateIn1(pos).is_none();
    if (mate_in_1) {
      EXPECT_EQ(game.length, 1);
    } else {
      EXPECT_GE(game.length, *p.expected_length);
    }
  }
}

// The expected results the rows do not state as plainly: named, so a change shows up by name.
TEST(RuleSpecialsTest, UselessInterpositionCountsOnlyUnderGameRules) {
  // tsumeshogi-check's futile drop positions: 4b3b (or another rook move) mates in 1 when the
  // drops in between are not counted; under game rules each drop must be captured.
  for (const char* sfen : {"6Snl/5+Rg1k/6ppp/9/9/9/9/9/9 b r2b3g3s3n3l15p 1",
                           "6Snl/5+Rg1k/6pps/9/9/9/9/9/8L b r2b3g2s3n2l16p 1",
                           "6Snl/5+Rg1k/6pgs/9/9/9/9/9/1B6L b rb2g2s3n2l17p 1"}) {
    SCOPED_TRACE(sfen);
    Position root = MustParse(sfen);
    Solver solver(Options(Rules::kTsume));
    SolveResult tsume = solver.Solve(root);
    ASSERT_EQ(tsume.status, SolveStatus::kMate) << Describe(tsume);
    EXPECT_EQ(tsume.length, 1);
    EXPECT_TRUE(tsume.length_exact);
    EXPECT_TRUE(ValidMainLine(root, tsume, Rules::kTsume)) << Describe(tsume);
    solver.set_options(Options(Rules::kGame));
    SolveResult game = solver.Solve(root);
    ASSERT_EQ(game.status, SolveStatus::kMate) << Describe(game);
    EXPECT_GT(game.length, 1) << Describe(game);
    EXPECT_TRUE(game.length_exact);
    EXPECT_TRUE(ValidMainLine(root, game, Rules::kGame)) << Describe(game);
    // The game line's defence is a drop.
    ASSERT_GE(game.moves.size(), 2u);
    EXPECT_TRUE(game.moves[1].is_drop()) << Describe(game);
  }
}

TEST(RuleSpecialsTest, InterpositionThatIsNotUselessIsCountedUnderBothRules) {
  // tsumeshogi-check's "no_tsume" part: the drop in between is not useless, so no mate in 1.
  Position root = MustParse("k3l3R/p4s3/9/N8/4p4/4KBB2/9/1pp+l+l+l+n+n+n/+s+s+sggggr1 b 14p 1");
  for (Rules rules : {Rules::kTsume, Rules::kGame}) {
    Solver solver(Options(rules));
    SolveResult r = solver.Solve(root);
    ASSERT_NE(r.status, SolveStatus::kUnknown);
    if (r.status == SolveStatus::kMate) {
      EXPECT_GT(r.length, 1) << Describe(r);
      EXPECT_TRUE(ValidMainLine(root, r, rules)) << Describe(r);
    }
  }
}

// A game of 16,016 plies (the kings walking to and fro) before a mate in 1: the search's record
// of the path holds the whole game below its own plies. It was sized from the game's start,
// not its end, and a game longer than twice the search's ply limit wrote past it (ASan:
// heap-buffer-overflow in PushSegment).
TEST(GameHistoryTest, VeryLongGameBeforeTheRootIsKept) {
  std::string usi = "position sfen 8k/9/8P/9/9/9/9/9/K8 b G 1 moves";
  for (int round = 0; round < 4004; ++round) absl::StrAppend(&usi, " 9i9h 1a2a 9h9i 2a1a");
  absl::StatusOr<Position> root = Position::FromUsiPosition(usi);
  ASSERT_TRUE(root.ok()) << root.status();
  ASSERT_EQ(root->ply(), 16016);
  Solver solver(Options(Rules::kGame));
  SolveResult r = solver.Solve(*root);
  ASSERT_EQ(r.status, SolveStatus::kMate) << Describe(r);
  EXPECT_EQ(r.length, 1);
  ASSERT_EQ(r.moves.size(), 1u);
  EXPECT_EQ(ToUsi(r.moves[0]), "G*1b");
}

TEST(RuleSpecialsTest, CounterCheckingInterpositionIsAnsweredNotARefutation) {
  // cshogi mateMove_issue46 (NOMATE_WITHIN_3 in the data): B*6c, and the defender's only
  // interposition N*7b checks the attacker's king on 6d. cshogi counts a counter-check as no
  // mate; our design (solver-notes.md) does not: the attacker answers 7d7b+, which captures the
  // checking knight and mates. So this is a mate in 3 under game rules.
  Position root = MustParse("pk7/9/G8/2LKP4/9/9/9/9/9 b Bn 1");
  Solver solver(Options(Rules::kGame));
  SolveResult game = solver.Solve(root);
  ASSERT_EQ(game.status, SolveStatus::kMate) << Describe(game);
  EXPECT_EQ(game.length, 3) << Describe(game);
  EXPECT_TRUE(game.length_exact);
  ASSERT_TRUE(ValidMainLine(root, game, Rules::kGame)) << Describe(game);
  Position pos = root;
  pos.DoMove(game.moves[0]);
  pos.DoMove(game.moves[1]);
  EXPECT_TRUE(pos.in_check()) << "the defence should be the counter-check: " << Describe(game);

  // Under tsume rules the checking knight drop is itself judged useless (capturing it mates at
  // once), so B*6c is a mate in 1 there. A deliberate reading of the convention, see
  // IsDeferrableDrop in solver/dfpn.h.
  solver.set_options(Options(Rules::kTsume));
  SolveResult tsume = solver.Solve(root);
  ASSERT_EQ(tsume.status, SolveStatus::kMate) << Describe(tsume);
  EXPECT_EQ(tsume.length, 1) << Describe(tsume);
  EXPECT_TRUE(ValidMainLine(root, tsume, Rules::kTsume)) << Describe(tsume);
}

TEST(RuleSpecialsTest, PawnDropMateIsNotAMate) {
  // The only mating move would be P*9b... a pawn-drop mate, illegal; likewise the bioshogi head
  // pawn check and mog's Uchifuzume no-mate.
  for (const char* sfen :
       {"kn7/1s7/9/1N7/9/9/9/9/9 b P2r2b4g3s2n4l17p 1", "4k4/9/9/9/9/9/9/9/9 b P 1",
        "4B2nk/6G2/5pppp/7N1/9/9/9/9/9 b 2rb3g4s2n4l14p 1"}) {
    SCOPED_TRACE(sfen);
    for (Rules rules : {Rules::kTsume, Rules::kGame}) {
      Solver solver(Options(rules));
      SolveResult r = solver.Solve(MustParse(sfen));
      EXPECT_EQ(r.status, SolveStatus::kNoMate) << Describe(r);
    }
  }
  // mog's "involving Uchifuzume" mate in 5: the pawn drop comes where it is not mate.
  Position root = MustParse("7ll/6+P1k/6+S2/7pp/7N1/9/9/9/9 b P2r2b4g3s3n2l14p 1");
  Solver solver(Options(Rules::kTsume));
  SolveResult r = solver.Solve(root);
  ASSERT_EQ(r.status, SolveStatus::kMate);
  EXPECT_EQ(r.length, 5);
  EXPECT_TRUE(ValidMainLine(root, r, Rules::kTsume)) << Describe(r);
}

TEST(RuleSpecialsTest, PerpetualCheckIsNoMate) {
  Position root = MustParse("9/9/8l/8k/6KR1/8p/9/9/9 b - 1");
  for (Rules rules : {Rules::kTsume, Rules::kGame}) {
    Solver solver(Options(rules));
    SolveResult r = solver.Solve(root);
    EXPECT_EQ(r.status, SolveStatus::kNoMate) << Describe(r);
  }
}

TEST(RuleSpecialsTest, LongestDefenceIsChosen) {
  // mog's "return the longest answer": 11 plies, where shorter defences exist.
  Position root = MustParse("9/9/6B2/6p2/5n1l1/5p1k1/9/5S+B2/9 b RPr4g3s3n3l15p 1");
  for (Rules rules : {Rules::kTsume, Rules::kGame}) {
    Solver solver(Options(rules, kSanitized ? 100000 : 0));
    SolveResult r = solver.Solve(root);
    if (kSanitized && r.status == SolveStatus::kUnknown) continue;
    ASSERT_EQ(r.status, SolveStatus::kMate) << Describe(r);
    EXPECT_EQ(r.length, 11) << Describe(r);
    EXPECT_TRUE(r.length_exact);
    EXPECT_TRUE(ValidMainLine(root, r, rules)) << Describe(r);
  }
}

TEST(RuleSpecialsTest, AttackerWithoutKing) {
  Position root = MustParse("4k4/9/3P1P3/9/9/9/9/9/9 b GS 1");
  ASSERT_FALSE(root.has_king(kBlack));
  for (Rules rules : {Rules::kTsume, Rules::kGame}) {
    Solver solver(Options(rules));
    SolveResult r = solver.Solve(root);
    ASSERT_EQ(r.status, SolveStatus::kMate) << Describe(r);
    EXPECT_TRUE(r.length_exact);
    EXPECT_TRUE(ValidMainLine(root, r, rules)) << Describe(r);
  }
}

TEST(RuleSpecialsTest, DefenderWithoutKingIsNoMate) {
  absl::StatusOr<Position> root = Position::FromSfen("9/9/9/9/9/9/9/9/4K4 b G 1");
  if (!root.ok())
    GTEST_SKIP() << "positions without a defending king are rejected: " << root.status();
  Solver solver(Options(Rules::kTsume));
  EXPECT_EQ(solver.Solve(*root).status, SolveStatus::kNoMate);
}

TEST(RuleSpecialsTest, AttackerStartingInCheckMustAnswerWithCheck) {
  // bioshogi's INVALID_OR_SPECIAL row: the attacker is in check at the start. Whatever the
  // answer, it must agree with exhaustive search as far as that can see, and a mate line must
  // start with a checking evasion.
  Position root = MustParse("7k1/5Gb2/8L/8K/6s1P/9/9/9/8L b GNP 1");
  ASSERT_TRUE(root.in_check());
  Solver solver(Options(Rules::kGame, kSanitized ? 100000 : 0));
  SolveResult r = solver.Solve(root);
  if (r.status == SolveStatus::kMate) {
    EXPECT_TRUE(ValidMainLine(root, r, Rules::kGame)) << Describe(r);
  }
  Position pos = root;
  BruteForceMate oracle(kSanitized ? 100000 : 1000000);
  BruteForceMate::Answer a = oracle.MateWithin(pos, 5);
  if (a == BruteForceMate::kYes) {
    EXPECT_EQ(r.status, SolveStatus::kMate) << Describe(r);
  }
  if (r.status == SolveStatus::kMate && r.length_exact && r.length <= 5) {
    EXPECT_EQ(a, BruteForceMate::kYes);
  }
}

// Short rows checked against the brute-force oracle: under game rules the solver's exact length
// L means a mate within L plies and none within L - 2; "no mate" means none within 5.
TEST(RuleOracleTest, GameLengthsAgreeWithExhaustiveSearch) {
  std::vector<Problem> problems = ReadProblems(kRulesPath);
  if (problems.empty()) GTEST_SKIP() << kRulesPath << " is absent";
  int verified = 0, gave_up = 0;
  for (const Problem& p : problems) {
    if (IsSlowRow(p)) continue;
    SCOPED_TRACE(absl::StrCat(p.source, " ", p.sfen));
    Position root = MustParse(p.sfen);
    Solver solver(Options(Rules::kGame, kSanitized ? 30000 : 3000000, 4));
    SolveResult r = solver.Solve(root);
    if (r.status == SolveStatus::kUnknown || (r.status == SolveStatus::kMate && !r.length_exact)) {
      continue;
    }
    int mate_within = r.status == SolveStatus::kMate ? r.length : 0;
    if (mate_within > (kSanitized ? 3 : 5)) continue;
    BruteForceMate oracle(kSanitized ? 30000 : 300000);
    Position pos = root;
    BruteForceMate::Answer shorter = oracle.MateWithin(pos, mate_within == 0 ? 5 : mate_within - 2);
    BruteForceMate::Answer exact =
        mate_within == 0 ? BruteForceMate::kYes : oracle.MateWithin(pos, mate_within);
    if (shorter == BruteForceMate::kGaveUp || exact == BruteForceMate::kGaveUp) {
      ++gave_up;
      continue;
    }
    EXPECT_EQ(shorter, BruteForceMate::kNo) << Describe(r);
    EXPECT_EQ(exact, BruteForceMate::kYes) << Describe(r);
    ++verified;
  }
  EXPECT_GE(verified, kSanitized ? 15 : 50) << "gave up on " << gave_up;
}

// Regression: under tsume rules, the test "mated but for useless drops" followed hypothetical
// captures without end when two attacker pieces uncover each other in turn (the silver 1f-2e
// discovering the rook on 1i, then the rook on 5e): unbounded recursion, a stack overflow.
// Game rules: 5h5e P*2e 1f2g+, mate in 3. Run in a child process so that a crash fails only
// this test.
TEST(SolverDeathTest, HypotheticalCapturesThatUncoverEachOtherTerminate) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(
      {
        Solver solver(Options(Rules::kTsume, 200000, 1));
        SolveResult r = solver.Solve(MustParse("9/9/7g1/6n2/8K/8s/9/4r4/8r w P 1"));
        std::exit(r.status == SolveStatus::kMate && r.length <= 3 ? 0 : 1);
      },
      ::testing::ExitedWithCode(0), "");
}

// Regression: the reported exact length must be the searched one. Here the search proves 19
// plies (none within 17; the defence 6h7h alone needs 17 more), but the line extraction, when
// every longest defence goes through a useless drop, showed the drop on the square next to the
// king (P*3e, captured with mate at once) instead of one that holds out longest, and the
// length counted from that line came out as 5: "6g5e 6h6g 2c2d 3d2d 8i7i P*3e 7i3e".
TEST(SolverBugTest, ReportedLengthIsTheSearchedLength) {
  Position root = MustParse("8+r/5+r1+L1/7+PG/5Sk2/3sp2p+p/9/3N1L+p2/3+b5/1+B7 b 2np 1");
  Solver solver(Options(Rules::kTsume, kSanitized ? 300000 : 0));
  SolveResult r = solver.Solve(root);
  if (kSanitized && r.status == SolveStatus::kUnknown) GTEST_SKIP() << "node limit";
  ASSERT_EQ(r.status, SolveStatus::kMate) << Describe(r);
  EXPECT_TRUE(LengthAgreesWithSearch(solver, root, r)) << Describe(r);
  // The defender's reply 6h7h after 6g5e, solved on its own, outlasts a 5-ply mate.
  Position after = root;
  for (const char* usi : {"6g5e", "6h7h"}) {
    absl::StatusOr<Move> m = after.ParseUsiMove(usi);
    ASSERT_TRUE(m.ok()) << m.status();
    after.DoMove(*m);
  }
  Solver fresh(Options(Rules::kTsume, kSanitized ? 300000 : 0));
  SolveResult rest = fresh.Solve(after);
  ASSERT_EQ(rest.status, SolveStatus::kMate) << Describe(rest);
  if (r.moves.size() > 0 && ToUsi(r.moves[0]) == "6g5e" && rest.length_exact) {
    EXPECT_GE(r.length, rest.length + 2) << Describe(r) << "\nafter 6g5e 6h7h: " << Describe(rest);
  }
}

// ---------------------------------------------------------------------------------------------
// Practical problems: exact lengths under game rules, both colours attacking.

TEST(PracticalTest, SampleIsSolvedWithTheStatedLengthUnderGameRules) {
  const int per_file = kSanitized ? 3 : 15;
  int solved = 0, white_attacks = 0;
  Solver solver(Options(Rules::kGame));
  for (const char* name : {"mate3.txt", "mate5.txt", "mate7.txt", "mate9.txt", "mate11.txt"}) {
    std::vector<Problem> problems = ReadPractical(name, per_file);
    if (problems.empty()) GTEST_SKIP() << kPracticalDir << name << " is absent";
    for (const Problem& p : problems) {
      SCOPED_TRACE(absl::StrCat(p.id, " ", p.sfen));
      Position root = MustParse(p.sfen);
      SolveResult r = solver.Solve(root);
      ASSERT_EQ(r.status, SolveStatus::kMate) << Describe(r);
      EXPECT_EQ(r.length, *p.expected_length) << Describe(r);
      EXPECT_TRUE(r.length_exact);
      EXPECT_TRUE(ValidMainLine(root, r, Rules::kGame)) << Describe(r);
      EXPECT_TRUE(LengthAgreesWithSearch(solver, root, r)) << Describe(r);
      ++solved;
      white_attacks += root.side_to_move() == kWhite;
    }
  }
  EXPECT_EQ(solved, 5 * per_file);
  EXPECT_GT(white_attacks, 0);
  EXPECT_LT(white_attacks, solved);
}

// The solver's exact game-rules length against exhaustive search: a mate within L plies and
// none within L - 2. Practical positions have few checks, so even 11 plies search quickly.
TEST(PracticalTest, ExhaustiveSearchConfirmsTheSolversLengths) {
  const int per_file = kSanitized ? 1 : 5;
  Solver solver(Options(Rules::kGame));
  int verified = 0, total = 0;
  for (const char* name : {"mate3.txt", "mate5.txt", "mate7.txt", "mate9.txt", "mate11.txt"}) {
    std::vector<Problem> problems = ReadPractical(name, per_file, 15);
    if (problems.empty()) GTEST_SKIP() << kPracticalDir << name << " is absent";
    for (const Problem& p : problems) {
      SCOPED_TRACE(absl::StrCat(p.id, " ", p.sfen));
      Position pos = MustParse(p.sfen);
      SolveResult r = solver.Solve(pos);
      ASSERT_EQ(r.status, SolveStatus::kMate) << Describe(r);
      ASSERT_TRUE(r.length_exact);
      ++total;
      BruteForceMate oracle(kSanitized ? 300000 : 3000000);
      BruteForceMate::Answer shorter = oracle.MateWithin(pos, r.length - 2);
      BruteForceMate::Answer exact = oracle.MateWithin(pos, r.length);
      if (shorter == BruteForceMate::kGaveUp || exact == BruteForceMate::kGaveUp) continue;
      EXPECT_EQ(shorter, BruteForceMate::kNo) << Describe(r);
      EXPECT_EQ(exact, BruteForceMate::kYes) << Describe(r);
      ++verified;
    }
  }
  // The budget is ample for these: nearly all must be checked, or the test checks nothing.
  EXPECT_GE(verified * 5, total * 4) << verified << " of " << total << " verified";
}

// The three practical problems whose stated length the solver contradicts (all of
// extra9.txt, stated 9; problems/README.md): the solver's 11 against exhaustive search, and
// the recorded line's defence at ply 8 against another king move that is mated only in 3.
TEST(PracticalTest, ThreeStatedNinesAreElevens) {
  struct Case {
    int line;
    const char* longer_defence;  // at ply 8, in place of the recorded one
  };
  const Case cases[] = {{546, "4h5h"}, {1018, "8e7e"}, {1309, "6g7g"}};
  Solver solver(Options(Rules::kGame));
  for (const Case& c : cases) {
    std::vector<Problem> problems = ReadPractical("extra9.txt", 1, c.line - 1);
    if (problems.empty()) GTEST_SKIP() << kPracticalDir << "extra9.txt is absent";
    const Problem& p = problems[0];
    SCOPED_TRACE(absl::StrCat("extra9.txt:", c.line, " ", p.sfen));
    ASSERT_EQ(p.expected_length, 9);
    Position root = MustParse(p.sfen);
    SolveResult r = solver.Solve(root);
    ASSERT_EQ(r.status, SolveStatus::kMate) << Describe(r);
    EXPECT_EQ(r.length, 11) << Describe(r);
    EXPECT_TRUE(r.length_exact);
    if (!kSanitized) {
      // Exhaustive search takes a few million nodes here: too slow under the sanitizers.
      BruteForceMate oracle(10000000);
      Position pos = root;
      EXPECT_EQ(oracle.MateWithin(pos, 9), BruteForceMate::kNo);
      EXPECT_EQ(oracle.MateWithin(pos, 11), BruteForceMate::kYes);
    }
    // The recorded line up to ply 7, then the longer defence: a mate in 3, not in 1.
    Position after = root;
    for (int ply = 0; ply < 7; ++ply) {
      absl::StatusOr<Move> m = after.ParseUsiMove(p.solution_usi[ply]);
      ASSERT_TRUE(m.ok()) << m.status();
      after.DoMove(*m);
    }
    absl::StatusOr<Move> defence = after.ParseUsiMove(c.longer_defence);
    ASSERT_TRUE(defence.ok()) << defence.status();
    after.DoMove(*defence);
    SolveResult tail = solver.Solve(after);
    EXPECT_EQ(tail.status, SolveStatus::kMate) << Describe(tail);
    EXPECT_EQ(tail.length, 3) << Describe(tail);
    EXPECT_TRUE(tail.length_exact);
  }
}

TEST(PracticalTest, TsumeRulesNeverLengthenAGameMate) {
  const int per_file = kSanitized ? 1 : 2;
  Solver tsume_solver(Options(Rules::kTsume, kSanitized ? 50000 : 500000));
  int compared = 0;
  for (const char* name : {"mate3.txt", "mate5.txt", "mate7.txt", "mate9.txt", "mate11.txt"}) {
    std::vector<Problem> problems = ReadPractical(name, per_file);
    if (problems.empty()) GTEST_SKIP() << kPracticalDir << name << " is absent";
    for (const Problem& p : problems) {
      SCOPED_TRACE(absl::StrCat(p.id, " ", p.sfen));
      Position root = MustParse(p.sfen);
      SolveResult r = tsume_solver.Solve(root);
      ASSERT_NE(r.status, SolveStatus::kNoMate) << Describe(r);
      if (r.status != SolveStatus::kMate || !r.length_exact) continue;
      EXPECT_LE(r.length, *p.expected_length) << Describe(r);
      EXPECT_TRUE(ValidMainLine(root, r, Rules::kTsume)) << Describe(r);
      ++compared;
    }
  }
  EXPECT_GT(compared, 0);
}

// ---------------------------------------------------------------------------------------------
// Short classics under tsume rules.

// The problem with id `id`, or null.
const Problem* FindProblem(const std::vector<Problem>& problems, const std::string& id) {
  for (const Problem& p : problems) {
    if (p.id == id) return &p;
  }
  return nullptr;
}

// Settling OR nodes near the depth limit (as the exact passes do) changes the order of the
// search, never its answers: mates within L and L - 2 plies of practical problems (game rules,
// where the exhaustive oracle confirms them) and of the short Zuko problems (tsume rules).
TEST(DfpnTest, SettledOrNodesGiveTheSameAnswers) {
  std::vector<Problem> problems = ReadPractical("mate7.txt", kSanitized ? 3 : 12);
  if (problems.empty()) GTEST_SKIP() << "the practical problems are absent";
  auto answer = [](Position pos, Rules rules, int depth, int settle_plies) {
    TranspositionTable tt(16);
    SearchLimits limits;
    limits.max_nodes = 20'000'000;
    DfpnSearch search(tt, rules, limits);
    search.set_settle_or_plies(settle_plies);
    NodeResult r = search.Run(pos, depth, true, 0);
    return r.proven() ? 1 : r.disproven() ? 0 : -1;
  };
  int compared = 0;
  for (const Problem& p : problems) {
    SCOPED_TRACE(p.sfen);
    Position root = MustParse(p.sfen);
    for (int depth : {5, 7}) {
      int plain = answer(root, Rules::kGame, depth, 0);
      ASSERT_NE(plain, -1);
      EXPECT_EQ(answer(root, Rules::kGame, depth, 5), plain);
      BruteForceMate oracle(kSanitized ? 300000 : 3000000);
      Position pos = root;
      BruteForceMate::Answer truth = oracle.MateWithin(pos, depth);
      if (truth != BruteForceMate::kGaveUp) {
        EXPECT_EQ(plain, int(truth));
      }
      ++compared;
    }
  }
  std::vector<Problem> zukou = ReadProblems(kZukouPath);
  if (zukou.empty()) GTEST_SKIP() << kZukouPath << " is absent";
  for (const char* id : {"zukou-002", "zukou-005", "zukou-012"}) {
    SCOPED_TRACE(id);
    const Problem* problem = FindProblem(zukou, id);
    ASSERT_NE(problem, nullptr);
    Position root = MustParse(problem->sfen);
    SolveResult r = Solver(SolveOptions{}).Solve(root);
    ASSERT_EQ(r.status, SolveStatus::kMate);
    for (int depth : {r.length - 2, r.length}) {
      int plain = answer(root, Rules::kTsume, depth, 0);
      EXPECT_EQ(plain, depth == r.length ? 1 : 0);
      EXPECT_EQ(answer(root, Rules::kTsume, depth, 5), plain);
      ++compared;
    }
  }
  EXPECT_EQ(compared, 2 * (int(problems.size()) + 3));
}

// The Zuko problems with these ids, in the file's order (none when the collection is absent);
// under the sanitizers only the first id's, as each takes seconds there.
std::vector<Problem> SomeZukouProblems(std::vector<std::string> ids) {
  if (kSanitized) ids.resize(1);
  std::vector<Problem> chosen;
  for (Problem& p : ReadProblems(kZukouPath)) {
    if (std::find(ids.begin(), ids.end(), p.id) != ids.end()) chosen.push_back(std::move(p));
  }
  return chosen;
}

TEST(ZukouTest, ShortClassicsSolveWithTheirStatedLength) {
  // Those that solve in well under a second in Release (see solver_slow_test.cc for all 100).
  std::vector<Problem> problems = SomeZukouProblems({"zukou-002", "zukou-018"});
  if (problems.empty()) GTEST_SKIP() << kZukouPath << " is absent";
  EXPECT_EQ(problems.size(), kSanitized ? 1u : 2u);
  Solver solver(Options(Rules::kTsume, 0, 128));
  for (const Problem& p : problems) {
    SCOPED_TRACE(absl::StrCat(p.id, " ", p.sfen));
    Position root = MustParse(p.sfen);
    SolveResult r = solver.Solve(root);
    ASSERT_EQ(r.status, SolveStatus::kMate) << Describe(r);
    EXPECT_EQ(r.length, *p.expected_length) << Describe(r);
    EXPECT_TRUE(r.length_exact);
    EXPECT_TRUE(ValidMainLine(root, r, Rules::kTsume)) << Describe(r);
  }
}

// The account of an exact length: the first mate proven, then one pass per shorter mate, each
// looking for a mate two plies shorter than the last found, until one proves there is none.
// zukou-082's first mate is 35 plies and a pass jumps from 29 to 19; zukou-034's is 19.
TEST(ZukouTest, ExactPassesAccountForTheLengthFromTheFirstMate) {
  std::vector<Problem> problems = SomeZukouProblems({"zukou-034", "zukou-082"});
  if (problems.empty()) GTEST_SKIP() << kZukouPath << " is absent";
  EXPECT_EQ(problems.size(), kSanitized ? 1u : 2u);
  Solver solver(Options(Rules::kTsume, 0, 64));
  for (const Problem& p : problems) {
    SCOPED_TRACE(p.id);
    SolveResult r = solver.Solve(MustParse(p.sfen));
    ASSERT_EQ(r.status, SolveStatus::kMate) << Describe(r);
    ASSERT_TRUE(r.length_exact);
    EXPECT_GT(r.first_mate_length, r.length);
    EXPECT_LT(r.first_mate_nodes, r.nodes);
    ASSERT_FALSE(r.exact_passes.empty());
    int last_mate = r.first_mate_length;
    int64_t pass_nodes = 0;
    for (size_t i = 0; i < r.exact_passes.size(); ++i) {
      const ExactPass& pass = r.exact_passes[i];
      EXPECT_EQ(pass.within, last_mate - 2);
      EXPECT_GT(pass.nodes, 0);
      pass_nodes += pass.nodes;
      if (i + 1 < r.exact_passes.size()) {
        ASSERT_EQ(pass.status, SolveStatus::kMate);
        EXPECT_LE(pass.length, pass.within);
        last_mate = pass.length;
      } else {
        EXPECT_EQ(pass.status, SolveStatus::kNoMate);
      }
    }
    EXPECT_EQ(last_mate, r.length);
    EXPECT_LE(pass_nodes, r.nodes - r.first_mate_nodes);
  }
}

// A line swept before its pass (by default only lines of 100 plies or more, such as
// Microcosmos's) has each attacker position on it asked for a shorter mate, from the end up.
// zukou-082's first mate is 35 plies; its passes find 29, then one costs enough for a sweep,
// which finds the detours that take the line to 17: the pass after it proves 17, the exact
// length. Without sweeps the same length, every pass without one.
TEST(ZukouTest, SweepFindsTheShorterMatesAlongTheLine) {
  std::vector<Problem> problems = SomeZukouProblems({"zukou-082"});
  if (problems.empty()) GTEST_SKIP() << kZukouPath << " is absent";
  SolveOptions swept = Options(Rules::kTsume, 0, 64);
  swept.sweep_min_plies = 0;
  SolveResult r = Solver(swept).Solve(MustParse(problems[0].sfen));
  ASSERT_EQ(r.status, SolveStatus::kMate) << Describe(r);
  ASSERT_TRUE(r.length_exact);
  EXPECT_EQ(r.length, 17);
  int sweeps = 0;
  for (size_t i = 0; i < r.exact_passes.size(); ++i) {
    const ExactPass& pass = r.exact_passes[i];
    SCOPED_TRACE(i);
    EXPECT_LE(pass.sweep_nodes, pass.nodes);
    if (pass.sweep_shortening == 0) continue;
    ++sweeps;
    EXPECT_GT(pass.sweep_nodes, 0);
    EXPECT_EQ(pass.status, SolveStatus::kMate);
    EXPECT_EQ(pass.length, pass.within + 2 - pass.sweep_shortening);
    EXPECT_EQ(pass.length, r.length);
  }
  EXPECT_EQ(sweeps, 1);

  SolveOptions unswept = swept;
  unswept.sweep_min_plies = std::numeric_limits<int>::max();
  SolveResult plain = Solver(unswept).Solve(MustParse(problems[0].sfen));
  ASSERT_EQ(plain.status, SolveStatus::kMate) << Describe(plain);
  EXPECT_TRUE(plain.length_exact);
  EXPECT_EQ(plain.length, r.length);
  for (const ExactPass& pass : plain.exact_passes) EXPECT_EQ(pass.sweep_nodes, 0);
}

// A mate the depth-limited search finds first is exact at once: no passes.
TEST(LimitsTest, MateFoundByDeepeningNeedsNoExactPasses) {
  Solver solver(Options(Rules::kGame));
  SolveResult r = solver.Solve(MustParse("pk7/9/G8/2LKP4/9/9/9/9/9 b Bn 1"));
  ASSERT_EQ(r.status, SolveStatus::kMate) << Describe(r);
  EXPECT_EQ(r.length, 3);
  EXPECT_EQ(r.first_mate_length, 3);
  EXPECT_GT(r.first_mate_nodes, 0);
  EXPECT_TRUE(r.exact_passes.empty());
}

// Solves Zuko problem `id` under tsume rules with a table of `hash_mb` and expects an exact
// mate of `length` plies whose line leaves the attacker nothing in hand.
void ExpectZukouLineUsesEveryPiece(const std::string& id, int length, int64_t hash_mb) {
  SCOPED_TRACE(absl::StrCat(id, ", ", hash_mb, " MB"));
  std::vector<Problem> problems = ReadProblems(kZukouPath);
  if (problems.empty()) GTEST_SKIP() << kZukouPath << " is absent";
  const Problem* it = FindProblem(problems, id);
  ASSERT_NE(it, nullptr);
  Position root = MustParse(it->sfen);
  Solver solver(Options(Rules::kTsume, 0, hash_mb));
  SolveResult r = solver.Solve(root);
  ASSERT_EQ(r.status, SolveStatus::kMate) << Describe(r);
  ASSERT_TRUE(r.length_exact);
  EXPECT_EQ(r.length, length);
  EXPECT_TRUE(ValidMainLine(root, r, Rules::kTsume)) << Describe(r);
  Position end = root;
  for (Move m : r.moves) end.DoMove(m);
  EXPECT_TRUE(end.hand(root.side_to_move()).Empty()) << Describe(r);
}

// Among equally long defences the line takes one that leaves the attacker nothing in hand.
// zukou-007 (15 plies as we count; see solver_slow_test.cc) has longest lines that leave a
// piece over (the first one found, the line reported before this rule) and one that does not.
TEST(ZukouTest, LongestDefenceLeavingNothingInHandIsPreferred) {
  if (kSanitized) GTEST_SKIP() << "about a second in Release";
  ExpectZukouLineUsesEveryPiece("zukou-007", 15, 64);
}

// Near the end of the line the attacker, too, takes a mating check whose line leaves nothing
// in hand when there is one. zukou-015 (31 plies as we count) ends either way: which mating
// check the table offered first depended on its size, and with it whether the line left a gold
// over, so verify judged the problem 変長 (mate in 29) with one table and mate in 31 with
// another. Both sizes now give a line that uses every piece.
TEST(ZukouTest, AttackerMateLeavingNothingInHandIsPreferredWhateverTheTableSize) {
  if (kSanitized) GTEST_SKIP() << "about a second in Release";
  ExpectZukouLineUsesEveryPiece("zukou-015", 31, 1);
  ExpectZukouLineUsesEveryPiece("zukou-015", 31, 16);
}

// A short problem with many mating alternatives: practical mate5.txt:653 with the attacker's
// pawn given to the defender, a mate in 5 under tsume rules where rook drops mate from many
// squares at the first and third plies. Of its longest lines, those that use the rook and the
// pawn (R*3f 3d2d P*2e 2d1c 4a2c+) were found only after 122 others had been tried, past the
// 64 the line extraction once allowed per solve (brute force found the problem's 駒余り
// verdict wrong). Lines that cannot empty the hand (more pieces than attacker moves left) are
// no longer tried, positions where every line left pieces are not tried again, and tries near
// the end have a budget of their own.
TEST(RuleSpecialsTest, LineUsingEveryPieceIsFoundAmongManyAlternativeMates) {
  absl::StatusOr<Position> root =
      Position::FromSfen("l1K2B1pl/2+S+NG2+P1/9/6k2/1P1P4p/2p1PG2P/5P1+s1/p8/L6rL b RPb2g2s3n7p 1");
  ASSERT_TRUE(root.ok());
  SolveOptions options;
  options.hash_mb = 16;
  Solver solver(options);
  SolveResult r = solver.Solve(*root);
  ASSERT_EQ(r.status, SolveStatus::kMate);
  EXPECT_EQ(r.length, 5);
  EXPECT_TRUE(ValidMainLine(*root, r, Rules::kTsume)) << Describe(r);
  Position end = *root;
  for (Move m : r.moves) end.DoMove(m);
  EXPECT_TRUE(end.hand(kBlack).Empty()) << Describe(r);
  EXPECT_FALSE(r.ties_cut);
}

// A line takes the preferred moves where they are as good as the others. zukou-041: after the
// alternative N*5g 5f5g+ at ply 7 and the main line's 5c4d+ 4e4d 3c4c, the defender's 4b4c
// (the main line's move) and 5b4c hold out equally long; verification reads the alternative
// with the main line's moves to see that it only changes their order.
TEST(FollowUpTest, LineTakesPreferredMovesWhereTheyAreAsGood) {
  std::vector<Problem> problems = ReadProblems(kZukouPath);
  if (problems.empty()) GTEST_SKIP() << kZukouPath << " is absent";
  const Problem* it = FindProblem(problems, "zukou-041");
  ASSERT_NE(it, nullptr);
  ASSERT_GE(it->solution_usi.size(), 6u);
  Position pos = MustParse(it->sfen);
  std::vector<std::string> moves(it->solution_usi.begin(), it->solution_usi.begin() + 6);
  for (const char* usi : {"N*5g", "5f5g+", "5c4d+", "4e4d", "3c4c"}) moves.push_back(usi);
  for (const std::string& usi : moves) {
    absl::StatusOr<Move> m = pos.ParseUsiMove(usi);
    ASSERT_TRUE(m.ok()) << usi;
    pos.DoMove(*m);
  }
  Solver solver(Options(Rules::kTsume, 0, 64));
  constexpr int kRemaining = 12;
  ASSERT_EQ(solver.MateWithin(pos, kRemaining, false), SolveStatus::kMate);
  ASSERT_EQ(solver.MateWithin(pos, kRemaining - 2, false), SolveStatus::kNoMate);
  for (const char* usi : {"4b4c", "5b4c"}) {
    SCOPED_TRACE(usi);
    Move defence = *pos.ParseUsiMove(usi);
    Position after = pos;
    after.DoMove(defence);
    // Both hold out the whole remaining length.
    EXPECT_EQ(solver.MateWithin(after, kRemaining - 3, true), SolveStatus::kNoMate);
    std::vector<Move> line = solver.MateLine(pos, kRemaining, false, {defence});
    ASSERT_FALSE(line.empty());
    EXPECT_EQ(ToUsi(line[0]), usi);
    EXPECT_GE(int(line.size()), kRemaining);
  }
  EXPECT_FALSE(solver.limit_reached());
}

// An interposition square's real drops are searched beside its hypothetical captures (either
// settles the square). Selecting among such squares once picked whichever was offered last,
// whatever its numbers: the child then returned at once, again and again, and zukou-002 (found
// in about 10,000 nodes) was still unsolved after 13 million.
TEST(ZukouTest, InterpositionSquaresDoNotStallTheFirstMateSearch) {
  std::vector<Problem> problems = ReadProblems(kZukouPath);
  if (problems.empty()) GTEST_SKIP() << kZukouPath << " is absent";
  const Problem* it = FindProblem(problems, "zukou-002");
  ASSERT_NE(it, nullptr);
  SolveOptions o = Options(Rules::kTsume, 200000, 64);
  o.exact_length = false;
  Solver solver(o);
  SolveResult r = solver.Solve(MustParse(it->sfen));
  ASSERT_EQ(r.status, SolveStatus::kMate) << Describe(r);
  EXPECT_GE(r.length, *it->expected_length) << Describe(r);
}

// ---------------------------------------------------------------------------------------------
// Limits never turn into wrong answers.

struct Case {
  std::string sfen;
  Rules rules;
};

// Mate and no-mate positions that finish fast, under both rules.
std::vector<Case> LimitCases() {
  std::vector<Case> cases;
  for (const Problem& p : ReadProblems(kRulesPath)) {
    if (IsSlowRow(p) || p.notes.find("INVALID_OR_SPECIAL") != std::string::npos) continue;
    cases.push_back({p.sfen, Rules::kTsume});
    if (cases.size() % 3 == 0) cases.push_back({p.sfen, Rules::kGame});
  }
  for (const char* name : {"mate5.txt", "mate9.txt"}) {
    for (const Problem& p : ReadPractical(name, 3)) cases.push_back({p.sfen, Rules::kGame});
  }
  if (kSanitized) {
    std::vector<Case> fewer;
    for (size_t i = 0; i < cases.size(); i += 6) fewer.push_back(cases[i]);
    cases = fewer;
  }
  return cases;
}

// A mate in 9 (tsumeshogi-check) solved in a few thousand nodes under either rules.
constexpr char kMate9Sfen[] = "ln7/1k1+P5/1pp1S4/p8/9/2P6/9/9/9 b BGN2rbg2s2n3l13p 1";

TEST(LimitsTest, NodeLimitsNeverGiveAWrongAnswer) {
  std::vector<Case> cases = LimitCases();
  if (cases.empty()) GTEST_SKIP() << "no problem data";
  int limited = 0, false_answers = 0;
  for (const Case& c : cases) {
    SCOPED_TRACE(absl::StrCat(c.sfen, c.rules == Rules::kTsume ? " tsume" : " game"));
    Position root = MustParse(c.sfen);
    Solver solver(Options(c.rules, 3000000, 16));
    SolveResult reference = solver.Solve(root);
    if (reference.status == SolveStatus::kUnknown) continue;
    if (reference.status == SolveStatus::kMate && reference.length_exact) {
      EXPECT_EQ(reference.no_mate_within, std::max(reference.length - 2, 0));
    }
    for (int64_t max_nodes : {1, 3, 10, 50, 300, 2000}) {
      SCOPED_TRACE(absl::StrCat("max_nodes ", max_nodes));
      solver.set_options(Options(c.rules, max_nodes, 16));
      SolveResult r = solver.Solve(root);
      if (r.status != SolveStatus::kUnknown && r.status != reference.status) ++false_answers;
      if (reference.status == SolveStatus::kMate) {
        EXPECT_NE(r.status, SolveStatus::kNoMate) << "false no-mate: " << Describe(r);
      } else {
        EXPECT_NE(r.status, SolveStatus::kMate) << "false mate: " << Describe(r);
      }
      if (r.limit == LimitReason::kNone) {
        // Finished inside the limit: the very same search as without it.
        EXPECT_EQ(r.status, reference.status);
        EXPECT_EQ(r.length, reference.length);
        EXPECT_EQ(r.length_exact, reference.length_exact);
        EXPECT_EQ(r.moves, reference.moves);
        EXPECT_EQ(r.nodes, reference.nodes);
        continue;
      }
      ++limited;
      EXPECT_EQ(r.limit, LimitReason::kNodes);
      // The lower bound the limited search proved stays below the exact length.
      if (reference.status == SolveStatus::kMate && reference.length_exact) {
        EXPECT_LT(r.no_mate_within, reference.length) << Describe(r);
      }
      if (r.status == SolveStatus::kMate) {
        // A mate found before the limit: its length bounds the exact one from above.
        EXPECT_GE(r.length, reference.length) << Describe(r);
        if (r.length_exact) {
          EXPECT_EQ(r.length, reference.length) << Describe(r);
        }
      }
    }
  }
  EXPECT_EQ(false_answers, 0);
  EXPECT_GT(limited, 0);
}

// The bound a limited solve reports is a true one: an independent search finds no mate
// within it. Zuko 13 (23 plies here): the first mate comes within a few thousand nodes, the
// proof that none is shorter takes millions, so at 400k nodes only the bound is known.
TEST(LimitsTest, LowerBoundOfALimitedSolveHolds) {
  Position root = MustParse("2lS5/1kgp5/pB3+r3/3+b+P4/PlpgS4/9/9/9/9 b R2SP2g4n2l12p 1");
  Solver limited(Options(Rules::kTsume, 400000));
  SolveResult r = limited.Solve(root);
  ASSERT_EQ(r.status, SolveStatus::kMate) << Describe(r);
  ASSERT_FALSE(r.length_exact);
  ASSERT_GE(r.no_mate_within, 3);
  EXPECT_EQ(r.no_mate_within % 2, 1);  // the attacker moves first and last
  EXPECT_LT(r.no_mate_within, r.length);
  Solver check(Options(Rules::kTsume, 20000000));
  EXPECT_EQ(check.MateWithin(root, r.no_mate_within, true), SolveStatus::kNoMate);
}

TEST(LimitsTest, NodeCountStaysNearTheLimit) {
  Position root = MustParse(kMate9Sfen);
  for (int64_t max_nodes : {100, 1000, 3000}) {
    Solver solver(Options(Rules::kTsume, max_nodes));
    SolveResult r = solver.Solve(root);
    EXPECT_NE(r.status, SolveStatus::kNoMate);
    // Checked once per expanded node; a node may add its children's quick tests first.
    EXPECT_LE(r.nodes, max_nodes + kMaxMoves) << Describe(r);
  }
}

// A position that takes seconds: proving Zuko 13's mate (23 plies here) the shortest.
constexpr char kHardSfen[] = "2lS5/1kgp5/pB3+r3/3+b+P4/PlpgS4/9/9/9/9 b R2SP2g4n2l12p 1";

TEST(LimitsTest, TimeLimitStopsTheSearchWithoutAnAnswerItHasNot) {
  Position root = MustParse(kHardSfen);
  SolveOptions o = Options(Rules::kTsume);
  o.time_limit = absl::Milliseconds(50);
  Solver solver(o);
  absl::Time start = absl::Now();
  SolveResult r = solver.Solve(root);
  absl::Duration wall = absl::Now() - start;
  EXPECT_NE(r.status, SolveStatus::kNoMate);
  EXPECT_FALSE(r.length_exact);
  EXPECT_EQ(r.limit, LimitReason::kTime) << Describe(r);
  // Generous: the machine is shared.
  EXPECT_LT(wall, absl::Seconds(5));
}

TEST(LimitsTest, StopFlagEndsTheSearch) {
  Position root = MustParse(kHardSfen);
  std::atomic<bool> stop{true};
  SolveOptions o = Options(Rules::kTsume);
  o.stop = &stop;
  Solver solver(o);
  SolveResult r = solver.Solve(root);
  EXPECT_NE(r.status, SolveStatus::kNoMate);
  EXPECT_EQ(r.limit, LimitReason::kStopped) << Describe(r);

  // Raised from another thread while searching.
  stop = false;
  std::thread stopper([&stop] {
    absl::SleepFor(absl::Milliseconds(100));
    stop = true;
  });
  absl::Time start = absl::Now();
  r = solver.Solve(root);
  absl::Duration wall = absl::Now() - start;
  stopper.join();
  EXPECT_NE(r.status, SolveStatus::kNoMate);
  EXPECT_EQ(r.limit, LimitReason::kStopped) << Describe(r);
  EXPECT_LT(wall, absl::Seconds(5));
}

TEST(LimitsTest, FirstMateModeReportsAnUpperBound) {
  Position root = MustParse(kMate9Sfen);
  for (Rules rules : {Rules::kTsume, Rules::kGame}) {
    SolveOptions o = Options(rules);
    Solver exact_solver(o);
    SolveResult exact = exact_solver.Solve(root);
    ASSERT_EQ(exact.status, SolveStatus::kMate);
    o.exact_length = false;
    Solver first_solver(o);
    SolveResult first = first_solver.Solve(root);
    ASSERT_EQ(first.status, SolveStatus::kMate) << Describe(first);
    EXPECT_FALSE(first.length_exact);
    EXPECT_GE(first.length, exact.length);
    // The line follows the proof: a valid mating line, perhaps shorter than the bound.
    SolveResult as_line = first;
    as_line.length = int(first.moves.size() - first.uncounted.size());
    EXPECT_LE(as_line.length, first.length);
    EXPECT_TRUE(ValidMainLine(root, as_line, rules)) << Describe(first);
  }
}

// Solved under tsume rules with `max_nodes`, which stop the proof of the shortest mate: a mate
// of at least `shortest` plies, not proven shortest, with the line of its proof: legal, every
// attacker move a check, ending in mate, no longer than the bound.
void ExpectMateWithItsLineUnderNodeLimit(const char* sfen, int64_t max_nodes, int shortest) {
  Position root = MustParse(sfen);
  Solver solver(Options(Rules::kTsume, max_nodes));
  SolveResult r = solver.Solve(root);
  ASSERT_EQ(r.status, SolveStatus::kMate) << Describe(r);
  EXPECT_EQ(r.limit, LimitReason::kNodes);
  EXPECT_FALSE(r.length_exact);
  EXPECT_GE(r.length, shortest);
  ASSERT_FALSE(r.moves.empty()) << Describe(r);
  Position pos = root;
  for (size_t i = 0; i < r.moves.size(); ++i) {
    ASSERT_TRUE(pos.IsFullyLegal(r.moves[i])) << i << ": " << Describe(r);
    if (i % 2 == 0) {
      EXPECT_TRUE(pos.GivesCheck(r.moves[i])) << i << ": " << Describe(r);
    }
    pos.DoMove(r.moves[i]);
  }
  ASSERT_EQ(r.moves.size() % 2, 1u) << Describe(r);
  EXPECT_LE(int(r.moves.size() - r.uncounted.size()), r.length);
  Solver unlimited(Options(Rules::kTsume));
  EXPECT_EQ(unlimited.MateWithin(pos, 0, false), SolveStatus::kMate) << Describe(r);
}

TEST(LimitsTest, LimitInTheExactPassesStillGivesTheMateFoundWithItsLine) {
  // Zuko 13 (23 plies here): the first mate comes within a few thousand nodes, proving that none
  // is shorter takes millions. A limit in between must not lose the mate or its line.
  ExpectMateWithItsLineUnderNodeLimit("2lS5/1kgp5/pB3+r3/3+b+P4/PlpgS4/9/9/9/9 b R2SP2g4n2l12p 1",
                                      400000, 23);
}

TEST(LimitsTest, MateSlowToReadOutStillGetsItsLineWhenThePassesRunOut) {
  // zukou-021 (21 plies): the first mate (33 plies) is found within a few hundred thousand
  // nodes but takes about a million more to read out; the pass that would prove a shorter one
  // takes tens of millions. A node limit in between must leave the mate with a line.
  ExpectMateWithItsLineUnderNodeLimit(
      "3l+R4/1l1g5/2k1n4/1p+p2s3/4+r+B3/1G1s+p4/9/2N2+p3/9 b BGS2NPgs2l13p 1", 3000000, 21);
}

TEST(LimitsTest, MateWhoseLineTheLimitsCutShortComesWithoutALine) {
  // Practical mate 11 (mate11.txt line 222): exact within a thousand nodes or so, its line read
  // out a little later. A limit in between leaves the mate without a line: the part read out
  // would end before the mate. Whatever the limit, a line given is a whole mating line.
  Position root =
      MustParse("lnRgk1snl/3pp2b1/p4+N1gp/1p4p2/2PP3p1/2p2PP2/PP6P/2+bS1S1R1/L3K2NL b GPgs2p 69");
  auto solve = [&](int64_t limit) { return Solver(Options(Rules::kGame, limit)).Solve(root); };
  for (int64_t limit = 200; limit <= 3000; limit += 100) {
    SCOPED_TRACE(limit);
    SolveResult r = solve(limit);
    if (r.status != SolveStatus::kMate || r.moves.empty()) continue;
    Position pos = root;
    for (Move m : r.moves) {
      ASSERT_TRUE(pos.IsFullyLegal(m)) << Describe(r);
      pos.DoMove(m);
    }
    EXPECT_TRUE(IsCheckmate(pos)) << Describe(r);
  }
  // The least limit that proves the mate (the search is deterministic: any larger one proves
  // it too) leaves no node to read its line out with.
  int64_t lo = 200, hi = 3000;
  ASSERT_EQ(solve(hi).status, SolveStatus::kMate);
  ASSERT_NE(solve(lo).status, SolveStatus::kMate);
  while (hi - lo > 1) {
    int64_t mid = (lo + hi) / 2;
    (solve(mid).status == SolveStatus::kMate ? hi : lo) = mid;
  }
  SolveResult first = solve(hi);
  EXPECT_TRUE(first.moves.empty()) << Describe(first);
  EXPECT_NE(first.limit, LimitReason::kNone);
  EXPECT_TRUE(first.length_exact);
}

TEST(LimitsTest, ProgressIsReported) {
  // mog's longest-defence row: some 30,000 nodes under game rules.
  Position root = MustParse("9/9/6B2/6p2/5n1l1/5p1k1/9/5S+B2/9 b RPr4g3s3n3l15p 1");
  SolveOptions o = Options(Rules::kGame);
  std::vector<SearchProgress> reports;
  o.on_progress = [&reports](const SearchProgress& p) { reports.push_back(p); };
  o.progress_interval = absl::ZeroDuration();
  Solver solver(o);
  SolveResult r = solver.Solve(root);
  ASSERT_EQ(r.status, SolveStatus::kMate);
  ASSERT_FALSE(reports.empty()) << "no progress in " << r.nodes << " nodes";
  EXPECT_GT(reports.back().no_mate_within, 0);
  for (size_t i = 0; i < reports.size(); ++i) {
    EXPECT_LE(reports[i].nodes, r.nodes);
    if (i > 0) {
      EXPECT_GE(reports[i].nodes, reports[i - 1].nodes);
    }
    // 0 until a mate is proven, then the shortest proven so far.
    if (reports[i].mate_length != 0) {
      EXPECT_EQ(reports[i].mate_length % 2, 1);
      EXPECT_GE(reports[i].mate_length, r.length);
    }
    // The lower bound grows and stays below the exact length.
    EXPECT_LT(reports[i].no_mate_within, r.length);
    if (i > 0) {
      EXPECT_GE(reports[i].no_mate_within, reports[i - 1].no_mate_within);
    }
    EXPECT_GE(reports[i].hashfull, 0.0);
    EXPECT_LE(reports[i].hashfull, 1.0);
  }
}

TEST(LimitsTest, ProgressCarriesTheLineOfTheMateFound) {
  // zukou-051 (31 plies) is found by the unbounded search and then proven shortest: the
  // progress reports during those passes carry the line of the mate found.
  Position root = MustParse("9/9/9/9/G1p6/2g6/1kNS+R4/4r4/LP1+pG4 b NL2bg3s2n2l15p 1");
  SolveOptions o = Options(Rules::kTsume, 0, 64);
  std::vector<SearchProgress> reports;
  o.on_progress = [&reports](const SearchProgress& p) { reports.push_back(p); };
  o.progress_interval = absl::ZeroDuration();
  Solver solver(o);
  SolveResult r = solver.Solve(root);
  ASSERT_EQ(r.status, SolveStatus::kMate);
  int with_line = 0;
  for (const SearchProgress& p : reports) {
    if (p.pv.empty()) continue;
    ++with_line;
    EXPECT_GT(p.mate_length, 0);
    // A legal line from the root whose attacker moves all check.
    Position pos = root;
    for (size_t i = 0; i < p.pv.size(); ++i) {
      ASSERT_TRUE(pos.IsLegal(p.pv[i])) << "ply " << i + 1;
      if (i % 2 == 0) {
        EXPECT_TRUE(pos.GivesCheck(p.pv[i])) << "ply " << i + 1;
      }
      pos.DoMove(p.pv[i]);
    }
  }
  EXPECT_GT(with_line, 0) << reports.size() << " reports, none with a line";
}

TEST(FirstMateTest, LengthIsTheProvenBoundNotTheProofLinesLength) {
  // zukou-064: exact length 69. The first proof's line follows that proof, whose defences are
  // not the longest: it ends after 17 plies. A mate within 17 does not exist, so the length
  // reported must be the proof's bound, at least 69.
  Position root = MustParse("5l2S/9/1+B3pPRp/6+s1L/5G1R1/6LGG/4+p4/5Ssp1/5+B+p1k b G3Nnl12p 1");
  SolveOptions o = Options(Rules::kTsume, 0, 64);
  o.exact_length = false;
  Solver solver(o);
  SolveResult r = solver.Solve(root);
  ASSERT_EQ(r.status, SolveStatus::kMate);
  EXPECT_FALSE(r.length_exact);
  EXPECT_GE(r.length, 69) << Describe(r);
  EXPECT_LE(int(r.moves.size() - r.uncounted.size()), r.length) << Describe(r);
}

// A history Q, X, Y ending in `a` again, where Q is `a` after the plain move c1: the defender,
// the attacker (taking c1's piece back) and the defender move once each. Empty if none exists.
std::vector<Move> CycleBack(const Position& a, Move c1) {
  Position after = a;
  after.DoMove(c1);
  Position q = MustParse(after.Sfen());
  MoveList d_moves;
  GenerateLegal(q, d_moves);
  for (Move d : d_moves) {
    q.DoMove(d);
    MoveList back;
    GenerateLegal(q, back);
    for (Move b : back) {
      if (b.is_drop() || b.from() != c1.to() || b.to() != c1.from() || b.is_promotion()) continue;
      q.DoMove(b);
      MoveList returns;
      GenerateLegal(q, returns);
      for (Move r : returns) {
        q.DoMove(r);
        bool same = q.key() == a.key();
        q.UndoMove();
        if (same) return {d, b, r};
      }
      q.UndoMove();
    }
    q.UndoMove();
  }
  return {};
}

// Mate-in-3 positions whose every mate starts with one plain move: after a history in which
// the position that move leads to was already played, there is no mate within 3 (going back
// to it repeats a position under check); from the same position without that history there
// is. Path-dependent results of one query must not leak into the other, asked of one solver
// in turn.
TEST(RepetitionTest, AMateThroughAPositionOfTheGameCountsOnlyWithoutThatHistory) {
  std::ifstream in(TSUME_SOURCE_DIR "/problems/practical/sample.txt");
  ASSERT_TRUE(in) << "problems/practical/sample.txt";
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  Collection c = ParseCollection(text, "sample.txt", CollectionFormat::kPractical);
  int scenarios = 0;
  for (const Problem& p : c.problems) {
    if (p.expected_length != 3) continue;
    Position a = MustParse(p.sfen);
    Solver probe(Options(Rules::kGame));
    SolveResult r = probe.Solve(a);
    ASSERT_EQ(r.status, SolveStatus::kMate) << p.source;
    Move c1 = r.moves[0];
    if (c1.is_drop() || c1.is_promotion() || a.piece_on(c1.to()) != kNoPiece) continue;
    MoveList checks;
    GenerateChecks(a, checks);
    bool only_c1 = true;
    for (Move m : checks) {
      if (m == c1) continue;
      Position b = a;
      b.DoMove(m);
      if (probe.MateWithin(b, 2, false) != SolveStatus::kNoMate) only_c1 = false;
    }
    if (!only_c1) continue;
    std::vector<Move> cycle = CycleBack(a, c1);
    if (cycle.empty()) continue;
    Position after_c1 = a;
    after_c1.DoMove(c1);
    Position with_history = MustParse(after_c1.Sfen());
    for (Move m : cycle) with_history.DoMove(m);
    ASSERT_EQ(with_history.key(), a.key());
    SCOPED_TRACE(p.source);
    Solver shared(Options(Rules::kGame));
    EXPECT_EQ(shared.MateWithin(with_history, 3, true), SolveStatus::kNoMate);
    EXPECT_EQ(shared.MateWithin(a, 3, true), SolveStatus::kMate);
    EXPECT_EQ(shared.MateWithin(with_history, 3, true), SolveStatus::kNoMate);
    Solver reversed(Options(Rules::kGame));
    EXPECT_EQ(reversed.MateWithin(a, 3, true), SolveStatus::kMate);
    EXPECT_EQ(reversed.MateWithin(with_history, 3, true), SolveStatus::kNoMate);
    ++scenarios;
  }
  // The sample holds such positions; without any the test would prove nothing.
  EXPECT_GE(scenarios, 1);
}

// Follow-up queries after a solve agree with it: a mate within the exact length, none within
// two plies less, and a line of at most that length.
TEST(FollowUpTest, QueriesAgreeWithTheSolve) {
  for (Rules rules : {Rules::kTsume, Rules::kGame}) {
    Position root = MustParse(kMate9Sfen);
    Solver solver(Options(rules));
    SolveResult r = solver.Solve(root);
    ASSERT_EQ(r.status, SolveStatus::kMate);
    ASSERT_TRUE(r.length_exact);
    EXPECT_EQ(solver.MateWithin(root, r.length, true), SolveStatus::kMate);
    EXPECT_EQ(solver.MateWithin(root, r.length - 2, true), SolveStatus::kNoMate);
    std::vector<Move> line = solver.MateLine(root, r.length, true);
    EXPECT_FALSE(line.empty());
    if (rules == Rules::kGame) {
      // Under game rules every ply counts: the line is a main line like the solve's.
      SolveResult as_result = r;
      as_result.moves = line;
      EXPECT_TRUE(ValidMainLine(root, as_result, Rules::kGame));
    }
    // From the position after the first attacker move the defender holds out length - 1.
    Position after = root;
    after.DoMove(r.moves[0]);
    EXPECT_EQ(solver.MateWithin(after, r.length - 1, false), SolveStatus::kMate);
    EXPECT_EQ(solver.MateWithin(after, r.length - 3, false), SolveStatus::kNoMate);
    EXPECT_FALSE(solver.limit_reached());
  }
}

// ---------------------------------------------------------------------------------------------
// Answers do not depend on the table size nor on what was solved before.

// About 20 practical problems, 4 per length, past the ones the sample test uses.
std::vector<Problem> IndependenceSet() {
  std::vector<Problem> set;
  for (const char* name : {"mate3.txt", "mate5.txt", "mate7.txt", "mate9.txt", "mate11.txt"}) {
    for (Problem& p : ReadPractical(name, kSanitized ? 1 : 4, 20)) set.push_back(std::move(p));
  }
  return set;
}

TEST(IndependenceTest, AnswersDoNotDependOnTheTableSize) {
  std::vector<Problem> problems = IndependenceSet();
  if (problems.empty()) GTEST_SKIP() << kPracticalDir << " is absent";
  Solver small(Options(Rules::kGame, 0, 1));
  Solver large(Options(Rules::kGame, 0, 64));
  double max_fill = 0;
  for (const Problem& p : problems) {
    SCOPED_TRACE(absl::StrCat(p.id, " ", p.sfen));
    Position root = MustParse(p.sfen);
    SolveResult a = small.Solve(root);
    SolveResult b = large.Solve(root);
    max_fill = std::max(max_fill, a.hashfull);
    ASSERT_EQ(a.status, SolveStatus::kMate) << Describe(a);
    EXPECT_EQ(a.status, b.status);
    EXPECT_EQ(a.length, b.length) << "1 MB: " << Describe(a) << "\n64 MB: " << Describe(b);
    EXPECT_EQ(a.length_exact, b.length_exact);
    EXPECT_EQ(a.length, *p.expected_length);
    EXPECT_TRUE(ValidMainLine(root, a, Rules::kGame)) << Describe(a);
  }
  // The small table did fill up somewhere, or the test proves little.
  if (!kSanitized) {
    EXPECT_GT(max_fill, 0.5);
  }
}

TEST(IndependenceTest, AnswersDoNotDependOnTheOrderOfProblems) {
  std::vector<Problem> problems = IndependenceSet();
  if (problems.empty()) GTEST_SKIP() << kPracticalDir << " is absent";
  problems.resize(std::min<size_t>(problems.size(), 10));
  for (Rules rules : {Rules::kGame, Rules::kTsume}) {
    SolveOptions o = Options(rules, kSanitized ? 30000 : 300000, 16);
    Solver shared(o);
    std::map<std::string, SolveResult> forward, backward;
    for (const Problem& p : problems) forward[p.sfen] = shared.Solve(MustParse(p.sfen));
    for (auto it = problems.rbegin(); it != problems.rend(); ++it) {
      backward[it->sfen] = shared.Solve(MustParse(it->sfen));
    }
    for (const Problem& p : problems) {
      SCOPED_TRACE(absl::StrCat(p.id, " ", p.sfen));
      Solver fresh(o);
      SolveResult alone = fresh.Solve(MustParse(p.sfen));
      for (const SolveResult* r : {&forward[p.sfen], &backward[p.sfen]}) {
        EXPECT_EQ(r->status, alone.status);
        EXPECT_EQ(r->length, alone.length);
        EXPECT_EQ(r->length_exact, alone.length_exact);
        EXPECT_EQ(r->moves, alone.moves) << Describe(*r) << "\nalone: " << Describe(alone);
        // The same search step for step: nothing leaks from one problem to the next.
        EXPECT_EQ(r->nodes, alone.nodes);
      }
    }
  }
}

}  // namespace

INSTANTIATE_TEST_SUITE_P(Rows, RuleRowTest, ::testing::ValuesIn(RuleRows()),
                         [](const ::testing::TestParamInfo<RuleRow>& info) {
                           std::string name = info.param.name;
                           for (char& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(RuleRowTest);

}  // namespace tsume
