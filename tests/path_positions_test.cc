// The search path's position set: finds, inserts that keep an earlier ply, erases (backward
// shift keeps colliding keys reachable) and growth, against a std::map model.
#include "solver/path_positions.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <map>
#include <random>
#include <vector>

namespace tsume {
namespace {

TEST(PathPositionsTest, FindsWhatWasInsertedAndKeepsTheFirstPly) {
  PathPositions path;
  EXPECT_EQ(path.Find(42), -1);
  path.Insert(42, 3);
  path.Insert(42, 9);  // already there: the earlier ply stays
  EXPECT_EQ(path.Find(42), 3);
  EXPECT_EQ(path.size(), 1u);
  path.Erase(42);
  EXPECT_EQ(path.Find(42), -1);
  path.Erase(42);  // absent: nothing happens
  EXPECT_EQ(path.size(), 0u);
}

TEST(PathPositionsTest, KeyZeroAndPlyZeroAreOrdinary) {
  PathPositions path;
  path.Insert(0, 0);
  EXPECT_EQ(path.Find(0), 0);
  EXPECT_EQ(path.Find(1024), -1);  // same home slot as 0
}

TEST(PathPositionsTest, ErasingFromAProbeRunKeepsTheRestReachable) {
  PathPositions path;
  // Keys sharing a home slot (the low bits), and one whose home is inside their run.
  const std::vector<uint64_t> keys = {5, 5 + 1024, 5 + 2048, 6, 5 + 3072};
  for (int i = 0; i < int(keys.size()); ++i) path.Insert(keys[i], i);
  path.Erase(5 + 1024);
  for (int i = 0; i < int(keys.size()); ++i) {
    EXPECT_EQ(path.Find(keys[i]), keys[i] == 5 + 1024 ? -1 : i) << keys[i];
  }
  path.Erase(5);
  EXPECT_EQ(path.Find(6), 3);
  EXPECT_EQ(path.Find(5 + 3072), 4);
}

// Stack-order and random use against a model, with keys crowded into few home slots and
// enough of them to make the table grow.
TEST(PathPositionsTest, AgreesWithAMapModel) {
  std::mt19937_64 rng(7);
  PathPositions path;
  std::map<uint64_t, int> model;
  std::vector<uint64_t> stack;
  for (int step = 0; step < 200000; ++step) {
    int op = int(rng() % 10);
    if (op < 5 || stack.empty()) {
      // Crowded keys: few distinct low bits, so probe runs are long and wrap around.
      uint64_t key = (rng() % 4000) << 10 | (rng() % 8 == 0 ? 1023 : rng() % 4);
      int ply = int(rng() % 5000);
      path.Insert(key, ply);
      model.emplace(key, ply);
      stack.push_back(key);
    } else if (op < 8) {
      path.Erase(stack.back());
      model.erase(stack.back());
      stack.pop_back();
    } else {
      uint64_t key = stack[rng() % stack.size()];
      path.Erase(key);
      model.erase(key);
    }
    uint64_t probe = (rng() % 4000) << 10 | (rng() % 4);
    auto it = model.find(probe);
    ASSERT_EQ(path.Find(probe), it == model.end() ? -1 : it->second) << "step " << step;
    ASSERT_EQ(path.size(), model.size());
  }
  for (const auto& [key, ply] : model) EXPECT_EQ(path.Find(key), ply);
  path.Clear();
  EXPECT_EQ(path.size(), 0u);
  for (const auto& [key, ply] : model) EXPECT_EQ(path.Find(key), -1);
}

}  // namespace
}  // namespace tsume
