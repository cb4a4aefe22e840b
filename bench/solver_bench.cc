// Solver benchmarks: transposition-table probe and store throughput, and solving fixed sets of
// practical problems (the first 20 of mate5, mate7 and mate9 under game rules; the first 10 of
// mate5 under tsume rules) with time per problem and nodes per second.
//
//   build/release/bench/solver_bench
//   build/release/bench/solver_bench --benchmark_filter=Solve
//
// Rates are per second of wall time for the solve benchmarks (the search runs on its own
// thread) and of CPU time for the table ones.
#include <benchmark/benchmark.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <random>
#include <string>
#include <vector>

#include "core/position.h"
#include "core/types.h"
#include "solver/solver.h"
#include "solver/tt.h"

namespace tsume {
namespace {

// ---------------------------------------------------------------------------------------------
// Transposition table.

// Random board keys and hands, drawn once, shared by the table benchmarks.
struct TableWorkload {
  std::vector<uint64_t> keys;
  std::vector<Hand> hands;
};

const TableWorkload& Workload() {
  static const TableWorkload* workload = [] {
    auto* w = new TableWorkload;
    std::mt19937_64 rng(7);
    for (int i = 0; i < (1 << 20); ++i) {
      w->keys.push_back(rng() | 1);
      Hand h;
      for (PieceType pt : kHandTypes) h.Set(pt, int(rng() % 3));
      w->hands.push_back(h);
    }
    return w;
  }();
  return *workload;
}

// Probes on a table holding `state.range(1)` entries per 100 slots (hits and misses mixed),
// table size `state.range(0)` MB.
void BM_TTProbe(benchmark::State& state) {
  const TableWorkload& w = Workload();
  TranspositionTable tt(state.range(0));
  int64_t fill = tt.capacity() * state.range(1) / 100;
  for (int64_t i = 0; i < fill; ++i) {
    size_t j = size_t(i) % w.keys.size();
    uint64_t key = w.keys[j] + uint64_t(i / int64_t(w.keys.size()));
    switch (i % 3) {
      case 0:
        tt.StoreProven(key, w.hands[j], 9, 1);
        break;
      case 1:
        tt.StoreDisproven(key, w.hands[j], 7, 1);
        break;
      default:
        tt.StoreUnknown(key, w.hands[j], 3, 4, 1);
        break;
    }
  }
  size_t i = 0;
  int64_t found = 0;
  for (auto _ : state) {
    TTProbe p = tt.Probe(w.keys[i], w.hands[(i * 7) % w.hands.size()], 9);
    found += p.found;
    benchmark::DoNotOptimize(p);
    if (++i == w.keys.size()) i = 0;
  }
  state.counters["probes/s"] =
      benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["hit%"] = 100.0 * double(found) / double(state.iterations());
}
BENCHMARK(BM_TTProbe)->Args({64, 10})->Args({64, 90})->Args({1024, 50});

// Stores of each kind into a table `state.range(0)` MB (replacement starts once it is full).
void BM_TTStore(benchmark::State& state) {
  const TableWorkload& w = Workload();
  TranspositionTable tt(state.range(0));
  size_t i = 0;
  for (auto _ : state) {
    uint64_t key = w.keys[i];
    Hand h = w.hands[i];
    switch (i % 4) {
      case 0:
        tt.StoreProven(key, h, 9, uint32_t(i));
        break;
      case 1:
        tt.StoreDisproven(key, h, 7, uint32_t(i));
        break;
      default:
        tt.StoreUnknown(key, h, 3, 4, uint32_t(i));
        break;
    }
    if (++i == w.keys.size()) i = 0;
  }
  state.counters["stores/s"] =
      benchmark::Counter(double(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["fill%"] = 100.0 * tt.Fill();
}
BENCHMARK(BM_TTStore)->Arg(1)->Arg(64);

// ---------------------------------------------------------------------------------------------
// Solving practical problems.

const std::string kPracticalDir = TSUME_SOURCE_DIR "/../shared/problems/practical/";

// The first `count` positions of a practical file ("<sfen> moves ..."), parsed.
std::vector<Position> LoadPractical(const std::string& name, int count) {
  std::ifstream in(kPracticalDir + name);
  std::vector<Position> positions;
  std::string line;
  while (int(positions.size()) < count && std::getline(in, line)) {
    std::string sfen = line.substr(0, line.find(" moves"));
    absl::StatusOr<Position> pos = Position::FromSfen(sfen);
    if (!pos.ok()) {
      std::cerr << "solver_bench: " << name << ": bad SFEN " << sfen << ": " << pos.status()
                << "\n";
      std::exit(2);
    }
    positions.push_back(*pos);
  }
  return positions;
}

// Solves every problem of the set once per iteration with one solver (64 MB table, exact
// lengths). Counters: problems/s and its inverse s/problem, nodes/s, nodes per problem.
void BM_SolvePractical(benchmark::State& state, const char* file, int count, Rules rules) {
  std::vector<Position> positions = LoadPractical(file, count);
  if (positions.empty()) {
    state.SkipWithError((kPracticalDir + file + " is absent").c_str());
    return;
  }
  SolveOptions options;
  options.rules = rules;
  options.hash_mb = 64;
  Solver solver(options);
  int64_t nodes = 0, problems = 0, unsolved = 0;
  for (auto _ : state) {
    for (const Position& pos : positions) {
      SolveResult r = solver.Solve(pos);
      nodes += r.nodes;
      unsolved += r.status != SolveStatus::kMate;
      ++problems;
    }
  }
  using benchmark::Counter;
  state.counters["problems/s"] = Counter(double(problems), Counter::kIsRate);
  state.counters["s/problem"] = Counter(double(problems), Counter::kIsRate | Counter::kInvert);
  state.counters["nodes/s"] = Counter(double(nodes), Counter::kIsRate);
  state.counters["nodes/problem"] = double(nodes) / double(problems);
  if (unsolved > 0) state.counters["unsolved"] = double(unsolved);
}
BENCHMARK_CAPTURE(BM_SolvePractical, mate5_game, "mate5.txt", 20, Rules::kGame)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_SolvePractical, mate7_game, "mate7.txt", 20, Rules::kGame)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_SolvePractical, mate9_game, "mate9.txt", 20, Rules::kGame)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
BENCHMARK_CAPTURE(BM_SolvePractical, mate5_tsume, "mate5.txt", 10, Rules::kTsume)
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();

// The fixed cost of a solve: a mate in 1 with a 64 MB table (clear, thread start, line).
void BM_SolveMateIn1(benchmark::State& state) {
  absl::StatusOr<Position> pos = Position::FromSfen("4k4/9/4P4/9/9/9/9/9/9 b G 1");
  SolveOptions options;
  options.hash_mb = 64;
  Solver solver(options);
  for (auto _ : state) benchmark::DoNotOptimize(solver.Solve(*pos));
}
BENCHMARK(BM_SolveMateIn1)->Unit(benchmark::kMicrosecond)->UseRealTime();

}  // namespace
}  // namespace tsume
