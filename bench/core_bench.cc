// Core benchmarks: perft (bulk-counted: the last ply is the size of the legal move list), the
// generators the solver lives on (checks, evasions, HasEvasion, mate in 1) over positions from
// the practical problems, making and unmaking moves, and the two ways of working out slider
// attacks.
//
//   build/release/bench/core_bench --benchmark_filter=Perft
//
// Rates ("nodes/s", "positions/s", "moves/s") are per second of CPU time.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "absl/strings/str_split.h"
#include "core/movegen.h"
#include "core/perft.h"
#include "core/position.h"

namespace tsume {
namespace {

constexpr const char* kMatsuri =
    "l6nl/5+P1gk/2np1S3/p1p4Pp/3P2Sp1/1PPb2P1P/P5GS1/R8/LN4bKL w GR5pnsg 1";

Position MustParse(const std::string& sfen) {
  absl::StatusOr<Position> pos = Position::FromSfen(sfen);
  if (!pos.ok()) {
    std::cerr << "core_bench: bad SFEN " << sfen << ": " << pos.status() << "\n";
    std::exit(2);
  }
  return *pos;
}

void BM_Perft(benchmark::State& state, const char* sfen) {
  Position pos = MustParse(sfen);
  int depth = int(state.range(0));
  uint64_t nodes = 0;
  for (auto _ : state) nodes += Perft(pos, depth);
  state.counters["nodes"] = double(nodes) / double(state.iterations());
  state.counters["nodes/s"] = benchmark::Counter(double(nodes), benchmark::Counter::kIsRate);
}
BENCHMARK_CAPTURE(BM_Perft, startpos, "startpos")->Arg(5)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Perft, startpos, "startpos")
    ->Arg(6)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Perft, matsuri, kMatsuri)->Arg(3)->Unit(benchmark::kMillisecond);
BENCHMARK_CAPTURE(BM_Perft, matsuri, kMatsuri)
    ->Arg(4)
    ->Iterations(1)
    ->Unit(benchmark::kMillisecond);

// Positions from the practical problems (the bundled sample, or the shared collection):
// every position along each solution line. Attacker-to-move positions are the even plies,
// the defender's (in check) the odd ones.
struct PositionSets {
  std::vector<Position> attacker;  // side to move is attacking (not in check)
  std::vector<Position> defender;  // side to move is in check
};

const PositionSets& Positions() {
  static const PositionSets sets = [] {
    PositionSets sets;
    std::string path;
    for (const char* candidate : {TSUME_SOURCE_DIR "/problems/practical/sample.txt",
                                  TSUME_SOURCE_DIR "/../shared/problems/practical/mate7.txt"}) {
      if (std::filesystem::exists(candidate)) {
        path = candidate;
        break;
      }
    }
    if (path.empty()) {
      std::cerr << "core_bench: no practical problems found\n";
      std::exit(2);
    }
    std::ifstream in(path);
    int lines = 0;
    for (std::string line; std::getline(in, line) && lines < 200; ++lines) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      std::vector<std::string> fields = absl::StrSplit(line, ' ', absl::SkipEmpty());
      if (fields.size() < 6) continue;
      Position pos = MustParse(fields[0] + " " + fields[1] + " " + fields[2] + " " + fields[3]);
      for (size_t i = 5; i < fields.size(); ++i) {
        (pos.in_check() ? sets.defender : sets.attacker).push_back(pos);
        absl::StatusOr<Move> m = pos.ParseUsiMove(fields[i]);
        if (!m.ok()) {
          std::cerr << "core_bench: " << path << ": " << m.status() << "\n";
          std::exit(2);
        }
        pos.DoMove(*m);
      }
    }
    return sets;
  }();
  return sets;
}

void BM_GenerateChecks(benchmark::State& state) {
  const std::vector<Position>& positions = Positions().attacker;
  int64_t moves = 0;
  MoveList list;
  for (auto _ : state) {
    for (const Position& pos : positions) {
      list.clear();
      GenerateChecks(pos, list);
      moves += list.size();
    }
  }
  state.counters["positions/s"] = benchmark::Counter(double(positions.size() * state.iterations()),
                                                     benchmark::Counter::kIsRate);
  state.counters["moves/s"] = benchmark::Counter(double(moves), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_GenerateChecks);

void BM_GenerateLegal(benchmark::State& state) {
  const std::vector<Position>& positions = Positions().attacker;
  int64_t moves = 0;
  MoveList list;
  for (auto _ : state) {
    for (const Position& pos : positions) {
      list.clear();
      GenerateLegal(pos, list);
      moves += list.size();
    }
  }
  state.counters["positions/s"] = benchmark::Counter(double(positions.size() * state.iterations()),
                                                     benchmark::Counter::kIsRate);
  state.counters["moves/s"] = benchmark::Counter(double(moves), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_GenerateLegal);

void BM_GenerateEvasions(benchmark::State& state) {
  const std::vector<Position>& positions = Positions().defender;
  int64_t moves = 0;
  MoveList list;
  for (auto _ : state) {
    for (const Position& pos : positions) {
      list.clear();
      GenerateEvasions(pos, list);
      moves += list.size();
    }
  }
  state.counters["positions/s"] = benchmark::Counter(double(positions.size() * state.iterations()),
                                                     benchmark::Counter::kIsRate);
  state.counters["moves/s"] = benchmark::Counter(double(moves), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_GenerateEvasions);

void BM_HasEvasion(benchmark::State& state) {
  const std::vector<Position>& positions = Positions().defender;
  int64_t any = 0;
  for (auto _ : state) {
    for (const Position& pos : positions) any += HasEvasion(pos);
  }
  benchmark::DoNotOptimize(any);
  state.counters["positions/s"] = benchmark::Counter(double(positions.size() * state.iterations()),
                                                     benchmark::Counter::kIsRate);
}
BENCHMARK(BM_HasEvasion);

void BM_FindMateIn1(benchmark::State& state) {
  std::vector<Position> positions = Positions().attacker;
  int64_t mates = 0;
  for (auto _ : state) {
    for (Position& pos : positions) mates += !FindMateIn1(pos).is_none();
  }
  state.counters["mates"] = double(mates) / double(state.iterations());
  state.counters["positions/s"] = benchmark::Counter(double(positions.size() * state.iterations()),
                                                     benchmark::Counter::kIsRate);
}
BENCHMARK(BM_FindMateIn1);

// The defender's replies to every check of every attacker position: estimated without making
// the check (the search's initial proof numbers), against making it and generating them.
struct ChecksOfPositions {
  std::vector<Position> positions;
  std::vector<MoveList> checks;
  int64_t count = 0;
};

const ChecksOfPositions& Checks() {
  static const ChecksOfPositions all = [] {
    ChecksOfPositions all;
    all.positions = Positions().attacker;
    for (const Position& pos : all.positions) {
      all.checks.emplace_back();
      GenerateChecks(pos, all.checks.back());
      all.count += all.checks.back().size();
    }
    return all;
  }();
  return all;
}

void BM_EstimateRepliesToCheck(benchmark::State& state) {
  const ChecksOfPositions& all = Checks();
  int64_t replies = 0;
  for (auto _ : state) {
    for (size_t i = 0; i < all.positions.size(); ++i) {
      for (Move m : all.checks[i]) replies += EstimateRepliesToCheck(all.positions[i], m);
    }
  }
  benchmark::DoNotOptimize(replies);
  state.counters["checks/s"] =
      benchmark::Counter(double(all.count * state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_EstimateRepliesToCheck);

void BM_MakeCheckAndGenerateReplies(benchmark::State& state) {
  ChecksOfPositions all = Checks();
  int64_t replies = 0;
  MoveList list;
  for (auto _ : state) {
    for (size_t i = 0; i < all.positions.size(); ++i) {
      Position& pos = all.positions[i];
      for (Move m : all.checks[i]) {
        pos.DoMove(m);
        list.clear();
        GenerateEvasions(pos, list);
        replies += list.size();
        pos.UndoMove();
      }
    }
  }
  benchmark::DoNotOptimize(replies);
  state.counters["checks/s"] =
      benchmark::Counter(double(all.count * state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_MakeCheckAndGenerateReplies);

// Every legal move of every position, made and unmade.
void BM_DoUndoMove(benchmark::State& state) {
  std::vector<Position> positions = Positions().attacker;
  const std::vector<Position>& defender = Positions().defender;
  positions.insert(positions.end(), defender.begin(), defender.end());
  std::vector<MoveList> moves(positions.size());
  for (size_t i = 0; i < positions.size(); ++i) GenerateLegal(positions[i], moves[i]);
  int64_t made = 0;
  for (auto _ : state) {
    for (size_t i = 0; i < positions.size(); ++i) {
      for (Move m : moves[i]) {
        positions[i].DoMove(m);
        positions[i].UndoMove();
      }
      made += moves[i].size();
    }
  }
  state.counters["moves/s"] = benchmark::Counter(double(made), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_DoUndoMove);

// The bishop's and the rook's attacks from every square of every position's board, worked out
// ray by ray and (where BMI2 is present) by PEXT and PDEP: which is faster depends on the CPU
// (PEXT is microcoded on AMD before Zen 3), and CMake's TSUME_PEXT picks one for the search.
template <Bitboard (*kBishop)(Square, Bitboard), Bitboard (*kRook)(Square, Bitboard)>
void BM_SliderAttacks(benchmark::State& state) {
  std::vector<Bitboard> boards;
  for (const Position& pos : Positions().attacker) boards.push_back(pos.occupied());
  int64_t looked_up = 0;
  for (auto _ : state) {
    Bitboard all;
    for (Bitboard occupied : boards) {
      for (Square sq = 0; sq < kNumSquares; ++sq) {
        all |= kBishop(sq, occupied) ^ kRook(sq, occupied);
      }
    }
    benchmark::DoNotOptimize(all);
    looked_up += int64_t(boards.size()) * kNumSquares * 2;
  }
  state.counters["attacks/s"] = benchmark::Counter(double(looked_up), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_SliderAttacks<bb_internal::BishopRays, bb_internal::RookRays>)->Name("BM_SliderRays");
#ifdef __BMI2__
BENCHMARK(BM_SliderAttacks<bb_internal::BishopLines, bb_internal::RookLines>)
    ->Name("BM_SliderLinesByPext");
#endif

}  // namespace
}  // namespace tsume
