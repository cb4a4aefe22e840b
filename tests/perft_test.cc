// Perft: leaf counts of the legal move tree against the published values in perft.tsv, and the
// per-leaf statistics (captures, promotions, checks, checkmates) where the table has them.
#include "core/perft.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "core/movegen.h"
#include "core/position.h"
#include "nlohmann/json.hpp"
#include "tools/commands.h"

namespace tsume {
namespace {

struct PerftRow {
  int line = 0;
  std::string name;
  std::string sfen;
  int depth = 0;
  uint64_t nodes = 0;
  bool has_stats = false;
  uint64_t captures = 0, promotions = 0, checks = 0, checkmates = 0;
};

// Shown by GoogleTest (and ctest) for each parameterised row.
void PrintTo(const PerftRow& row, std::ostream* os) {
  *os << row.name << " depth " << row.depth << " (perft.tsv line " << row.line << ")";
}

// The project's copy first; the shared collection beside the repository as a fallback.
std::string PerftTablePath() {
  for (const char* path : {TSUME_SOURCE_DIR "/problems/perft/perft.tsv",
                           TSUME_SOURCE_DIR "/../shared/problems/perft/perft.tsv"}) {
    if (std::filesystem::exists(path)) return path;
  }
  return "";
}

std::vector<PerftRow> LoadPerftTable() {
  std::vector<PerftRow> rows;
  std::string path = PerftTablePath();
  if (path.empty()) return rows;
  std::ifstream in(path);
  int line_number = 0;
  for (std::string line; std::getline(in, line);) {
    ++line_number;
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> columns = absl::StrSplit(line, '\t');
    PerftRow row;
    row.line = line_number;
    if (columns.size() < 4 || !absl::SimpleAtoi(columns[2], &row.depth) ||
        !absl::SimpleAtoi(columns[3], &row.nodes)) {
      ADD_FAILURE() << path << ":" << line_number << ": malformed row";
      continue;
    }
    row.name = columns[0];
    row.sfen = columns[1];
    row.has_stats = columns.size() >= 8 && absl::SimpleAtoi(columns[4], &row.captures) &&
                    absl::SimpleAtoi(columns[5], &row.promotions) &&
                    absl::SimpleAtoi(columns[6], &row.checks) &&
                    absl::SimpleAtoi(columns[7], &row.checkmates);
    rows.push_back(row);
  }
  return rows;
}

// Unit tests run the rows below 10^8 leaves (10^6 under the sanitizers).
constexpr uint64_t kMaxNodes = TSUME_SANITIZED ? 1'000'000 : 100'000'000;

struct Stats {
  uint64_t nodes = 0, captures = 0, promotions = 0, checks = 0, checkmates = 0;
};

// A plain recursive perft that classifies every leaf by its last move.
void PerftWithStats(Position& pos, int depth, Stats& stats) {
  MoveList moves;
  GenerateLegal(pos, moves);
  for (Move m : moves) {
    if (depth > 1) {
      pos.DoMove(m);
      PerftWithStats(pos, depth - 1, stats);
      pos.UndoMove();
      continue;
    }
    ++stats.nodes;
    if (!m.is_drop() && pos.piece_on(m.to()) != kNoPiece) ++stats.captures;
    if (m.is_promotion()) ++stats.promotions;
    if (pos.GivesCheck(m)) {
      ++stats.checks;
      pos.DoMove(m);
      if (!HasEvasion(pos)) ++stats.checkmates;
      pos.UndoMove();
    }
  }
}

TEST(PerftTableTest, TableIsFoundAndComplete) {
  ASSERT_FALSE(PerftTablePath().empty())
      << "perft.tsv not found under " TSUME_SOURCE_DIR "/problems/perft or "
      << TSUME_SOURCE_DIR "/../shared/problems/perft";
  std::vector<PerftRow> rows = LoadPerftTable();
  EXPECT_GE(rows.size(), 16u);
  int runnable = 0;
  for (const PerftRow& row : rows) runnable += row.nodes < kMaxNodes;
  EXPECT_GE(runnable, TSUME_SANITIZED ? 8 : 11);
}

class PerftRowTest : public ::testing::TestWithParam<PerftRow> {};

TEST_P(PerftRowTest, LeafCountMatches) {
  const PerftRow& row = GetParam();
  if (row.nodes >= kMaxNodes) GTEST_SKIP() << row.nodes << " nodes: benchmark-sized";
  absl::StatusOr<Position> pos = Position::FromSfen(row.sfen);
  ASSERT_TRUE(pos.ok()) << pos.status();
  std::string sfen = pos->Sfen();
  EXPECT_EQ(Perft(*pos, row.depth), row.nodes) << row.name << " depth " << row.depth;
  EXPECT_EQ(pos->Sfen(), sfen);  // perft leaves the position as it found it
  EXPECT_EQ(pos->ply(), 0);
}

TEST_P(PerftRowTest, LeafStatisticsMatch) {
  const PerftRow& row = GetParam();
  if (!row.has_stats) GTEST_SKIP() << "no statistics in the table";
  if (row.nodes >= kMaxNodes) GTEST_SKIP() << row.nodes << " nodes: benchmark-sized";
  absl::StatusOr<Position> pos = Position::FromSfen(row.sfen);
  ASSERT_TRUE(pos.ok()) << pos.status();
  Stats stats;
  PerftWithStats(*pos, row.depth, stats);
  EXPECT_EQ(stats.nodes, row.nodes);
  EXPECT_EQ(stats.captures, row.captures);
  EXPECT_EQ(stats.promotions, row.promotions);
  EXPECT_EQ(stats.checks, row.checks);
  EXPECT_EQ(stats.checkmates, row.checkmates);
}

std::string RowName(const ::testing::TestParamInfo<PerftRow>& info) {
  return info.param.name + "_depth" + std::to_string(info.param.depth);
}

INSTANTIATE_TEST_SUITE_P(Table, PerftRowTest, ::testing::ValuesIn(LoadPerftTable()), RowName);

TEST(PerftTest, DivideSumsToPerft) {
  for (const char* sfen :
       {"startpos", "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1"}) {
    absl::StatusOr<Position> pos = Position::FromSfen(sfen);
    ASSERT_TRUE(pos.ok());
    auto divide = PerftDivide(*pos, 2);
    MoveList legal;
    GenerateLegal(*pos, legal);
    ASSERT_EQ(int(divide.size()), legal.size());
    uint64_t sum = 0;
    for (int i = 0; i < legal.size(); ++i) {
      EXPECT_EQ(divide[i].first, legal[i]);
      pos->DoMove(legal[i]);
      MoveList replies;
      GenerateLegal(*pos, replies);
      pos->UndoMove();
      EXPECT_EQ(divide[i].second, uint64_t(replies.size())) << ToUsi(legal[i]);
      sum += divide[i].second;
    }
    EXPECT_EQ(sum, Perft(*pos, 2));
  }
}

TEST(PerftTest, DepthZeroAndOne) {
  Position pos;
  EXPECT_EQ(Perft(pos, 0), 1u);
  EXPECT_EQ(Perft(pos, 1), 30u);
  // Checkmated: no legal moves at all.
  absl::StatusOr<Position> mated = Position::FromSfen("4k4/4G4/4P4/9/9/9/9/9/4K4 w - 1");
  ASSERT_TRUE(mated.ok());
  EXPECT_EQ(Perft(*mated, 1), 0u);
  EXPECT_EQ(Perft(*mated, 3), 0u);
}

// The command takes a position as `solve` does: an SFEN, startpos, or a USI position command
// with moves, whose leaves are those of the position after the moves.
TEST(PerftCommandTest, TakesAPositionWithMoves) {
  auto run = [](std::vector<std::string> args, std::string& out_text) {
    std::ostringstream out, err;
    int code = RunPerft(args, out, err);
    out_text = out.str() + err.str();
    return code;
  };
  std::string after_move, with_moves, startpos_moves, bad;
  // 7g7f played on the start position.
  ASSERT_EQ(
      run({"--json", "2", "lnsgkgsnl/1r5b1/ppppppppp/9/9/2P6/PP1PPPPPP/1B5R1/LNSGKGSNL w - 2"},
          after_move),
      kExitOk)
      << after_move;
  ASSERT_EQ(run({"--json", "2",
                 "position sfen lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1 "
                 "moves 7g7f"},
                with_moves),
            kExitOk)
      << with_moves;
  ASSERT_EQ(run({"--json", "2", "startpos", "moves", "7g7f"}, startpos_moves), kExitOk)
      << startpos_moves;
  auto nodes = [](const std::string& json) {
    return nlohmann::json::parse(json)["nodes"].get<uint64_t>();
  };
  Position start;
  absl::StatusOr<Move> move = start.ParseUsiMove("7g7f");
  ASSERT_TRUE(move.ok());
  start.DoMove(*move);
  EXPECT_EQ(nodes(after_move), Perft(start, 2));
  EXPECT_EQ(nodes(with_moves), nodes(after_move));
  EXPECT_EQ(nodes(startpos_moves), nodes(after_move));
  EXPECT_EQ(run({"2", "startpos moves 7g7e"}, bad), kExitUsage);
  EXPECT_THAT(bad, testing::HasSubstr("7g7e"));
}

}  // namespace
}  // namespace tsume
