// Shared by movegen_test.cc and movegen_slow_test.cc: problem data loading, a naive reference
// move generator, and a checker that compares every generator with brute force at a position.
#ifndef TSUME_TESTS_MOVEGEN_TEST_UTIL_H_
#define TSUME_TESTS_MOVEGEN_TEST_UTIL_H_

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "core/bitboard.h"
#include "core/movegen.h"
#include "core/position.h"

namespace tsume::testing_util {

// ---------------------------------------------------------------------------------------------
// Problem data: the project's copy first, then the shared collection beside the repository.

inline const std::vector<std::string>& DataRoots() {
  static const std::vector<std::string> roots = {TSUME_SOURCE_DIR "/problems/",
                                                 TSUME_SOURCE_DIR "/../shared/problems/"};
  return roots;
}

inline std::string FindDataFile(const std::string& relative) {
  for (const std::string& root : DataRoots()) {
    if (std::filesystem::exists(root + relative)) return root + relative;
  }
  return "";
}

// Problem files as paths relative to a data root: every practical/*.txt except the licence
// (each name from the first root that has it), then the classics and the rule tests.
inline std::vector<std::string> ProblemFiles() {
  std::map<std::string, bool> practical;
  for (const std::string& root : DataRoots()) {
    std::error_code ec;
    for (const auto& entry : std::filesystem::directory_iterator(root + "practical", ec)) {
      std::string name = entry.path().filename().string();
      if (entry.path().extension() == ".txt" && name.rfind("LICENSE", 0) != 0) {
        practical[name] = true;
      }
    }
  }
  std::vector<std::string> files;
  for (const auto& [name, unused] : practical) files.push_back("practical/" + name);
  for (const char* file : {"classics/zukou.tsv", "classics/microcosmos.tsv",
                           "classics/last_judgment.tsv", "rules/rule_tests.tsv"}) {
    files.push_back(file);
  }
  return files;
}

// A test-name-safe form of a problem file path: "practical/mate3.txt" -> "practical_mate3".
inline std::string ProblemFileName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = std::filesystem::path(info.param).replace_extension().string();
  for (char& ch : name) {
    if (!isalnum(static_cast<unsigned char>(ch))) ch = '_';
  }
  return name;
}

struct ProblemLine {
  std::string where;               // file:line, for messages
  std::string sfen;                // with move number
  std::vector<std::string> moves;  // the solution line (may be empty)
  bool practical = false;          // game-rule mate: every attacker move checks, ends in mate
  bool composed = false;           // tsume problem: every attacker move checks
};

// The problems of one file (path relative to a data root), every `stride`-th line.
inline std::vector<ProblemLine> ProblemLines(const std::string& relative, int stride = 1) {
  std::vector<ProblemLine> problems;
  std::string path = FindDataFile(relative);
  if (path.empty()) {
    ADD_FAILURE() << "missing data file " << relative << " (looked in "
                  << absl::StrJoin(DataRoots(), ", ") << ")";
    return problems;
  }
  bool practical = relative.rfind("practical/", 0) == 0;
  bool composed = relative.rfind("classics/", 0) == 0;
  std::ifstream in(path);
  int line_number = 0, taken = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.empty() || line[0] == '#') continue;
    if (taken++ % stride != 0) continue;
    ProblemLine problem;
    problem.where = relative + ":" + std::to_string(line_number);
    problem.practical = practical;
    problem.composed = composed;
    if (practical) {
      // <board> <side> <hand> <ply> moves m1 ... mN
      std::vector<std::string> fields = absl::StrSplit(line, ' ', absl::SkipEmpty());
      if (fields.size() < 4) continue;
      problem.sfen = absl::StrJoin(fields.begin(), fields.begin() + 4, " ");
      if (fields.size() > 5 && fields[4] == "moves") {
        problem.moves.assign(fields.begin() + 5, fields.end());
      }
    } else {
      // TSV: the SFEN in column 3, the solution in column 4.
      std::vector<std::string> columns = absl::StrSplit(line, '\t');
      if (columns.size() < 3) continue;
      problem.sfen = columns[2];
      if (columns.size() > 3) {
        problem.moves = absl::StrSplit(columns[3], ' ', absl::SkipEmpty());
      }
    }
    problems.push_back(problem);
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// Naive reference generation: straight from the rules, one move at a time.

// True when a piece of colour `by` attacks `target` (every piece's attacks tried in turn).
inline bool NaiveAttacked(const Position& pos, Color by, Square target) {
  Bitboard occupied = pos.occupied();
  for (Square sq : pos.pieces(by)) {
    if (Attacks(by, TypeOf(pos.piece_on(sq)), sq, occupied).Test(target)) return true;
  }
  return false;
}

inline bool NaiveInCheck(const Position& pos, Color c) {
  return pos.has_king(c) && NaiveAttacked(pos, ~c, pos.king_square(c));
}

// Whether colour c has an unpromoted pawn on `file` (a pawn drop there would be nifu).
inline bool PawnOnFile(const Position& pos, Color c, int file) {
  for (int rank = 0; rank < 9; ++rank) {
    if (pos.piece_on(MakeSquare(file, rank)) == MakePiece(c, kPawn)) return true;
  }
  return false;
}

// Every move the pieces can make and every drop the drop rules allow (nifu, dead squares),
// without regard to the mover's king.
inline std::vector<Move> NaivePseudoMoves(const Position& pos) {
  std::vector<Move> moves;
  Color us = pos.side_to_move();
  Bitboard occupied = pos.occupied();
  for (Square from = 0; from < kNumSquares; ++from) {
    Piece p = pos.piece_on(from);
    if (p == kNoPiece || ColorOf(p) != us) continue;
    PieceType pt = TypeOf(p);
    for (Square to : Attacks(us, pt, from, occupied)) {
      Piece target = pos.piece_on(to);
      if (target != kNoPiece && ColorOf(target) == us) continue;
      if (CanPromote(pt) && (InPromotionZone(us, from) || InPromotionZone(us, to))) {
        moves.push_back(Move::Normal(from, to, pt, true));
      }
      if (!IsDeadSquare(us, pt, to)) moves.push_back(Move::Normal(from, to, pt, false));
    }
  }
  for (PieceType pt : kHandTypes) {
    if (pos.hand(us).Count(pt) == 0) continue;
    for (Square to = 0; to < kNumSquares; ++to) {
      if (pos.piece_on(to) != kNoPiece || IsDeadSquare(us, pt, to)) continue;
      if (pt == kPawn) {
        if (PawnOnFile(pos, us, FileOf(to))) continue;  // nifu
      }
      moves.push_back(Move::Drop(pt, to));
    }
  }
  return moves;
}

// Whether colour c's king is attacked: piece by piece (naive), or by Position::AttackersTo (which
// the naive test checks at every "deep" position).
inline bool KingAttacked(const Position& pos, Color c, bool naive) {
  if (naive) return NaiveInCheck(pos, c);
  return pos.has_king(c) && pos.IsAttacked(~c, pos.king_square(c));
}

// The legal moves: pseudo moves that leave the mover's king unattacked, without pawn-drop mates
// (a checking pawn drop after which the opponent has no legal move).
inline std::vector<Move> NaiveLegalMoves(Position& pos, bool naive_attacks = true) {
  std::vector<Move> legal;
  Color us = pos.side_to_move();
  for (Move m : NaivePseudoMoves(pos)) {
    pos.DoMove(m);
    bool ok = !KingAttacked(pos, us, naive_attacks);
    if (ok && m.is_drop() && m.dropped_type() == kPawn && KingAttacked(pos, ~us, naive_attacks)) {
      ok = !NaiveLegalMoves(pos, naive_attacks).empty();
    }
    pos.UndoMove();
    if (ok) legal.push_back(m);
  }
  return legal;
}

// "" when `got` and `want` hold the same moves and `got` has no duplicates; else what differs.
inline std::string DiffMoves(std::vector<Move> got, std::vector<Move> want) {
  auto less = [](Move a, Move b) { return a.bits() < b.bits(); };
  std::sort(got.begin(), got.end(), less);
  std::sort(want.begin(), want.end(), less);
  std::vector<std::string> missing, extra, duplicate;
  for (size_t i = 1; i < got.size(); ++i) {
    if (got[i] == got[i - 1]) duplicate.push_back(ToUsi(got[i]));
  }
  got.erase(std::unique(got.begin(), got.end()), got.end());
  std::vector<Move> diff;
  std::set_difference(want.begin(), want.end(), got.begin(), got.end(), std::back_inserter(diff),
                      less);
  for (Move m : diff) missing.push_back(ToUsi(m));
  diff.clear();
  std::set_difference(got.begin(), got.end(), want.begin(), want.end(), std::back_inserter(diff),
                      less);
  for (Move m : diff) extra.push_back(ToUsi(m));
  if (missing.empty() && extra.empty() && duplicate.empty()) return "";
  return "missing [" + absl::StrJoin(missing, " ") + "] extra [" + absl::StrJoin(extra, " ") +
         "] duplicate [" + absl::StrJoin(duplicate, " ") + "]";
}

inline std::vector<Move> ToVector(const MoveList& list) {
  return std::vector<Move>(list.begin(), list.end());
}

// ---------------------------------------------------------------------------------------------
// The checker.

struct CheckCounts {
  int64_t positions = 0;  // positions checked
  int64_t in_check = 0;   // of which the side to move was in check
  int64_t deep = 0;       // of which were checked in depth (naive attacks, every move made)
  int64_t moves = 0;      // legal moves seen
  int64_t checks = 0;     // checking moves seen
  int64_t mates = 0;      // mate-in-1 moves seen
  int64_t estimates = 0;  // reply estimates compared with the exact count
};

// The replies `replies` to a check at `pos` as EstimateRepliesToCheck counts them: drops on one
// square once, and a pawn drop in between that GenerateEvasions leaves out (pawn-drop mate:
// nothing else keeps a drop in between from being legal) counted as if it were legal.
inline int CountRepliesAsEstimated(const Position& pos, const MoveList& replies) {
  Bitboard drop_squares;
  int moves = 0;
  for (Move m : replies) {
    if (m.is_drop()) {
      drop_squares.Set(m.to());
    } else {
      ++moves;
    }
  }
  Color us = pos.side_to_move();
  Bitboard checkers = pos.checkers();
  if (pos.hand(us).Has(kPawn) && checkers.Any() && !checkers.MoreThanOne()) {
    for (Square to : Between(pos.king_square(us), checkers.Lsb())) {
      if (drop_squares.Test(to) || IsDeadSquare(us, kPawn, to)) continue;
      if (!PawnOnFile(pos, us, FileOf(to))) drop_squares.Set(to);
    }
  }
  return moves + drop_squares.Count();
}

class PositionChecker {
 public:
  // Every position is checked: GenerateLegal has no duplicates; GenerateChecks equals the legal
  // moves that GivesCheck accepts; mate in 1 and HasEvasion agree with making each check and
  // generating the replies. Positions in check also compare GenerateLegal (= the evasions)
  // with the naive generator (its king test by AttackersTo). Every `deep_every`-th position is
  // checked in depth: the naive generator with piece-by-piece attack tests, IsLegal on every
  // pseudo move, and GivesCheck against making every legal move.
  PositionChecker(uint64_t seed, int deep_every) : rng_(seed), deep_every_(deep_every) {}

  // Checks every generator at `pos` (restored on return). Afterwards legal() and checks() hold
  // the reference legal moves and checking moves, mates() the moves that mate.
  void Check(Position& pos) {
    ++counts_.positions;
    bool in_check = pos.in_check();
    bool deep = counts_.positions % deep_every_ == 0;
    counts_.in_check += in_check;
    counts_.deep += deep;
    Color us = pos.side_to_move();
    uint64_t key = pos.key();
    int ply = pos.ply();

    MoveList list;
    GenerateLegal(pos, list);
    legal_ = ToVector(list);
    counts_.moves += legal_.size();
    ASSERT_EQ(DiffMoves(legal_, legal_), "") << "GenerateLegal duplicates at " << pos.Sfen();
    if (deep || in_check) {
      ASSERT_EQ(in_check, NaiveInCheck(pos, us)) << pos.Sfen();
      std::string diff = DiffMoves(legal_, NaiveLegalMoves(pos, /*naive_attacks=*/deep));
      ASSERT_EQ(diff, "") << "GenerateLegal vs naive at " << pos.Sfen();
    }
    if (deep) {
      for (Move m : NaivePseudoMoves(pos)) {
        pos.DoMove(m);
        bool safe = !NaiveInCheck(pos, us);
        pos.UndoMove();
        ASSERT_EQ(pos.IsLegal(m), safe) << "IsLegal(" << ToUsi(m) << ") at " << pos.Sfen();
      }
    }

    // Brute force: the checks are the legal moves GivesCheck accepts (verified against making
    // the move at deep positions); a check mates when the opponent has no legal reply.
    checks_.clear();
    mates_.clear();
    drops_only_.clear();
    for (Move m : legal_) {
      bool gives_check = pos.GivesCheck(m);
      if (deep) {
        pos.DoMove(m);
        bool check = NaiveInCheck(pos, ~us);
        ASSERT_EQ(pos.in_check(), check) << "checkers after " << ToUsi(m) << ": " << pos.Sfen();
        pos.UndoMove();
        ASSERT_EQ(gives_check, check) << "GivesCheck(" << ToUsi(m) << ") at " << pos.Sfen();
      }
      if (!gives_check) continue;
      checks_.push_back(m);
      pos.DoMove(m);
      ASSERT_TRUE(pos.in_check()) << ToUsi(m) << " at " << pos.Sfen();
      MoveList replies;
      GenerateLegal(pos, replies);
      bool has_reply = !replies.empty();
      ASSERT_EQ(HasEvasion(pos), has_reply) << "after " << ToUsi(m) << ": " << pos.Sfen();
      bool only_drops = true;
      if (!replies.empty()) {
        Bitboard between = Between(pos.king_square(pos.side_to_move()), pos.checkers().Lsb());
        for (Move r : replies) only_drops &= r.is_drop() && between.Test(r.to());
      }
      pos.UndoMove();
      ASSERT_EQ(OnlyDropsAnswerCheck(pos, m), only_drops)
          << "OnlyDropsAnswerCheck(" << ToUsi(m) << ") at " << pos.Sfen();
      pos.DoMove(m);
      // The estimate is exact, pawn-drop mates aside, unless a pinned piece of theirs has a
      // move (which it leaves out).
      pos.UndoMove();
      int estimate = EstimateRepliesToCheck(pos, m);
      pos.DoMove(m);
      if (pos.pinned(pos.side_to_move()).None()) {
        ASSERT_EQ(estimate, CountRepliesAsEstimated(pos, replies))
            << "EstimateRepliesToCheck(" << ToUsi(m) << ") at " << pos.Sfen();
        ++counts_.estimates;
      } else {
        ASSERT_LE(estimate, CountRepliesAsEstimated(pos, replies))
            << "EstimateRepliesToCheck(" << ToUsi(m) << ") at " << pos.Sfen();
      }
      ASSERT_EQ(IsCheckmate(pos), !has_reply) << "after " << ToUsi(m) << ": " << pos.Sfen();
      pos.UndoMove();
      if (!has_reply) mates_.push_back(m);
      if (has_reply && only_drops) drops_only_.push_back(m);
    }
    counts_.checks += checks_.size();
    counts_.mates += mates_.size();

    list.clear();
    GenerateChecks(pos, list);
    ASSERT_EQ(DiffMoves(ToVector(list), checks_), "") << "GenerateChecks at " << pos.Sfen();
    if (in_check) {
      list.clear();
      GenerateEvasions(pos, list);
      ASSERT_EQ(DiffMoves(ToVector(list), legal_), "") << "GenerateEvasions at " << pos.Sfen();
      ASSERT_EQ(HasEvasion(pos), !legal_.empty()) << pos.Sfen();
    }
    ASSERT_EQ(IsCheckmate(pos), in_check && legal_.empty()) << pos.Sfen();

    Move mate = FindMateIn1(pos);
    ASSERT_EQ(pos.key(), key) << "FindMateIn1 did not restore " << pos.Sfen();
    ASSERT_EQ(pos.ply(), ply);
    if (mates_.empty()) {
      ASSERT_TRUE(mate.is_none()) << "FindMateIn1 found " << ToUsi(mate) << " at " << pos.Sfen();
    } else {
      ASSERT_TRUE(std::find(mates_.begin(), mates_.end(), mate) != mates_.end())
          << "FindMateIn1 returned " << ToUsi(mate) << ", mates are " << DiffMoves({}, mates_)
          << " at " << pos.Sfen();
    }
    // Asked for them, it lists the checks before the mate it returns that only drops in
    // between answer.
    list.clear();
    GenerateChecks(pos, list);
    MoveList drops_only;
    Move mate_among = FindMateIn1(pos, list, &drops_only);
    ASSERT_EQ(mate_among, FindMateIn1(pos, list)) << pos.Sfen();
    std::vector<Move> expected;
    for (Move m : list) {
      if (m == mate_among) break;
      if (std::find(drops_only_.begin(), drops_only_.end(), m) != drops_only_.end()) {
        expected.push_back(m);
      }
    }
    ASSERT_EQ(ToVector(drops_only), expected) << "FindMateIn1's drop-only checks at " << pos.Sfen();
  }

  // Plays up to `plies` random moves from `start`, checking every position. A third of the
  // moves are checks when there are any, so positions in check are common.
  void RandomGame(Position pos, int plies) {
    std::bernoulli_distribution prefer_check(1.0 / 3);
    for (int ply = 0; ply <= plies; ++ply) {
      Check(pos);
      if (::testing::Test::HasFatalFailure() || legal_.empty() || ply == plies) return;
      const std::vector<Move>& pool = !checks_.empty() && prefer_check(rng_) ? checks_ : legal_;
      pos.DoMove(pool[std::uniform_int_distribution<size_t>(0, pool.size() - 1)(rng_)]);
    }
  }

  void Report() const {
    std::cout << "positions " << counts_.positions << ", in check " << counts_.in_check
              << ", in depth " << counts_.deep << ", legal moves " << counts_.moves << ", checks "
              << counts_.checks << ", mates in 1 " << counts_.mates << ", reply estimates "
              << counts_.estimates << "\n";
  }

  const CheckCounts& counts() const { return counts_; }
  const std::vector<Move>& legal() const { return legal_; }
  const std::vector<Move>& checks() const { return checks_; }
  const std::vector<Move>& mates() const { return mates_; }

 private:
  std::mt19937_64 rng_;
  int deep_every_;
  CheckCounts counts_;
  std::vector<Move> legal_, checks_, mates_;
  std::vector<Move> drops_only_;  // checks that do not mate and leave only drops in between
};

// Replays every solution line through the checker: every move must parse as legal; in the
// practical and composed problems every attacker move checks; a practical line ends in
// checkmate with its last move among the mates in 1. Returns the number of lines replayed.
inline int CheckSolutionLines(const std::vector<ProblemLine>& problems, PositionChecker& checker) {
  int replayed = 0;
  for (const ProblemLine& problem : problems) {
    absl::StatusOr<Position> parsed = Position::FromSfen(problem.sfen);
    if (!parsed.ok() || problem.moves.empty()) continue;
    Position pos = *parsed;
    for (size_t i = 0; i < problem.moves.size(); ++i) {
      checker.Check(pos);
      if (::testing::Test::HasFatalFailure()) return replayed;
      absl::StatusOr<Move> m = pos.ParseUsiMove(problem.moves[i]);
      if (!m.ok()) {
        ADD_FAILURE() << problem.where << ": move " << i + 1 << ": " << m.status();
        break;
      }
      bool attacker = i % 2 == 0;
      if (attacker && (problem.practical || problem.composed)) {
        EXPECT_TRUE(pos.GivesCheck(*m))
            << problem.where << ": move " << i + 1 << " " << problem.moves[i] << " does not check";
      }
      if (problem.practical && i + 1 == problem.moves.size()) {
        const auto& mates = checker.mates();
        EXPECT_TRUE(std::find(mates.begin(), mates.end(), *m) != mates.end())
            << problem.where << ": the last move " << problem.moves[i] << " is not a mate";
      }
      pos.DoMove(*m);
    }
    checker.Check(pos);
    if (problem.practical) {
      EXPECT_TRUE(IsCheckmate(pos)) << problem.where << ": no mate at the end";
    }
    ++replayed;
  }
  return replayed;
}

}  // namespace tsume::testing_util

#endif  // TSUME_TESTS_MOVEGEN_TEST_UTIL_H_
