// The df-pn transposition table: hand dominance for proofs and disproofs, the depth rules of
// proven lengths and depth-limited disproofs, unknown entries, replacement in full buckets (a
// probe returns a stored fact that applies, or nothing) and Clear (generations, wrap-around).
#include "solver/tt.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <fstream>
#include <random>
#include <set>
#include <thread>
#include <tuple>
#include <vector>

#include "core/types.h"

namespace tsume {
namespace {

Hand MakeHand(int pawns, int lances, int knights, int silvers, int golds, int bishops, int rooks) {
  Hand h;
  h.Set(kPawn, pawns);
  h.Set(kLance, lances);
  h.Set(kKnight, knights);
  h.Set(kSilver, silvers);
  h.Set(kGold, golds);
  h.Set(kBishop, bishops);
  h.Set(kRook, rooks);
  return h;
}

constexpr uint64_t kKey = 0x123456789abcdef1ull;
constexpr uint64_t kOtherKey = 0x0fedcba987654321ull;
// Other boards: the table compares keys on their upper 56 bits.
constexpr uint64_t kHighBit1 = uint64_t(1) << 40;
constexpr uint64_t kHighBit2 = uint64_t(2) << 40;

TEST(TranspositionTableTest, EmptyTableFindsNothing) {
  TranspositionTable tt(1);
  TTProbe p = tt.Probe(kKey, Hand(), 5);
  EXPECT_FALSE(p.found);
  EXPECT_EQ(tt.Fill(), 0.0);
}

TEST(TranspositionTableTest, CapacityFollowsMegabytes) {
  // Whole buckets of 8 entries, as many as the budget holds (any size, not only powers of two).
  for (int64_t mb : {1, 3, 4, 256}) {
    int64_t buckets = (mb << 20) / int64_t(sizeof(TTBucket));
    EXPECT_EQ(TranspositionTable(mb).capacity(), buckets * TTBucket::kSize) << mb;
  }
  // Zero or negative sizes still give a table.
  EXPECT_EQ(TranspositionTable(0).capacity(), TranspositionTable(1).capacity());
}

TEST(TranspositionTableTest, KeysDifferingInAnyBitAreOtherBoards) {
  // Keys one bit apart share a bucket or do not; either way they are other boards (a tag of
  // the key's upper 56 bits took keys differing in the low byte for one board).
  for (int64_t megabytes : {1, 256}) {
    TranspositionTable tt(megabytes);
    tt.StoreProven(kKey, Hand(), 5, 1000);
    EXPECT_TRUE(tt.Probe(kKey, Hand(), 5).found);
    for (int bit = 0; bit < 64; ++bit) {
      EXPECT_FALSE(tt.Probe(kKey ^ uint64_t(1) << bit, Hand(), 5).found) << bit;
    }
  }
}

TEST(TranspositionTableTest, KeysSpreadOverEveryBucket) {
  TranspositionTable tt(1);
  const uint64_t buckets = uint64_t(tt.active_capacity()) / TTBucket::kSize;
  std::mt19937_64 rng(7);
  std::vector<int> hits(buckets);
  for (uint64_t i = 0; i < 64 * buckets; ++i) {
    uint64_t b = tt.BucketIndex(rng());
    ASSERT_LT(b, buckets);
    ++hits[b];
  }
  // 64 per bucket on average: none empty, none far above.
  EXPECT_GT(*std::min_element(hits.begin(), hits.end()), 16);
  EXPECT_LT(*std::max_element(hits.begin(), hits.end()), 160);
}

// Random boards, at most eight to a bucket of the table's starting part (whose buckets spread
// over distinct buckets as the table grows), so that none is replaced, before or after growth.
class DistinctBoards {
 public:
  DistinctBoards(TranspositionTable& tt, uint64_t seed)
      : tt_(tt), rng_(seed), per_bucket_(tt.active_capacity() / TTBucket::kSize) {}
  // A board not picked before, with room left in its bucket of the starting part.
  uint64_t NewKey() {
    while (true) {
      uint64_t key = rng_();
      if (Take(key)) return key;
    }
  }
  // Picks `key` if it was not picked and its bucket of the starting part has room left.
  bool Add(uint64_t key) {
    return std::find(keys_.begin(), keys_.end(), key) == keys_.end() && Take(key);
  }
  // Stores a proof of mate length `length` for a new board.
  void StoreProof(int length) { tt_.StoreProven(NewKey(), Hand(), length, 1); }
  const std::vector<uint64_t>& keys() const { return keys_; }

 private:
  bool Take(uint64_t key) {
    uint64_t b = uint64_t((unsigned __int128)key * per_bucket_.size() >> 64);
    if (per_bucket_[b] == TTBucket::kSize) return false;
    ++per_bucket_[b];
    keys_.push_back(key);
    return true;
  }

  TranspositionTable& tt_;
  std::mt19937_64 rng_;
  std::vector<int> per_bucket_;
  std::vector<uint64_t> keys_;
};

TEST(TranspositionTableTest, SearchStartsOnASmallPartAndGrowsKeepingItsEntries) {
  TranspositionTable tt(64);
  const int64_t initial = tt.active_capacity();
  ASSERT_LT(initial, tt.capacity());
  // Proofs until the table grows.
  DistinctBoards proofs(tt, 11);
  const std::vector<uint64_t>& keys = proofs.keys();
  while (tt.active_capacity() == initial) {
    proofs.StoreProof(int((keys.size() + 1) % 50) + 1);
    ASSERT_LT(keys.size(), size_t(tt.capacity()));
  }
  // It grew when half of the part in use was full, not before, and (as sixteen times the
  // part would be more than half of it) to the whole table.
  EXPECT_EQ(int64_t(keys.size()), initial / 2 + 1);
  EXPECT_EQ(tt.active_capacity(), tt.capacity());
  for (size_t i = 0; i < keys.size(); ++i) {
    TTProbe p = tt.Probe(keys[i], Hand(), 100);
    ASSERT_TRUE(p.found && p.pn == 0) << i;
    EXPECT_EQ(p.length, int(i + 1) % 50 + 1) << i;
  }
  EXPECT_FALSE(tt.Probe(std::mt19937_64(12)(), Hand(), 100).found);  // a board not stored
  // The fill is of the whole budget.
  EXPECT_NEAR(tt.Fill(), double(keys.size()) / double(tt.capacity()), 0.02);
  tt.Clear();
  EXPECT_EQ(tt.active_capacity(), initial);
  EXPECT_EQ(tt.Fill(), 0.0);
  EXPECT_FALSE(tt.Probe(keys[0], Hand(), 100).found);
}

TEST(TranspositionTableTest, GrowthKeepsTheKeysAtTheEdgesOfTheirBuckets) {
  // A tag keeps a key's lower 56 bits; a growth finds the rest from the bucket, whose keys
  // may differ in their top byte by one.
  TranspositionTable tt(64);
  const int64_t initial = tt.active_capacity();
  const uint64_t buckets = uint64_t(initial) / TTBucket::kSize;
  auto lowest_key = [&](uint64_t b) {
    return uint64_t((((unsigned __int128)b << 64) + buckets - 1) / buckets);
  };
  DistinctBoards boards(tt, 21);
  std::vector<uint64_t> edges;
  auto add = [&](uint64_t key) {
    if (boards.Add(key)) edges.push_back(key);
  };
  for (uint64_t b : {uint64_t(1), buckets / 3, buckets / 2, buckets - 1}) {
    ASSERT_EQ(tt.BucketIndex(lowest_key(b)), b);
    ASSERT_EQ(tt.BucketIndex(lowest_key(b) - 1), b - 1);
    add(lowest_key(b));
    add(lowest_key(b) - 1);
  }
  add(0);
  add(~uint64_t(0));
  int straddling = 0;
  for (uint64_t top : {1, 2, 17, 128, 200, 255}) {
    uint64_t key = top << 56;
    straddling += tt.BucketIndex(key) == tt.BucketIndex(key - 1);
    add(key);
    add(key - 1);
  }
  ASSERT_GT(straddling, 3);  // most such pairs share a bucket
  ASSERT_EQ(edges.size(), 22u);
  for (size_t i = 0; i < edges.size(); ++i) tt.StoreProven(edges[i], Hand(), int(i) + 1, 1);
  while (tt.active_capacity() == initial) boards.StoreProof(99);
  for (size_t i = 0; i < edges.size(); ++i) {
    TTProbe p = tt.Probe(edges[i], Hand(), 100);
    ASSERT_TRUE(p.found && p.pn == 0) << i;
    EXPECT_EQ(p.length, int(i) + 1) << i;
  }
}

// Resident memory of this process, in bytes.
int64_t ResidentBytes() {
  std::ifstream statm("/proc/self/statm");
  int64_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * sysconf(_SC_PAGESIZE);
}

TEST(TranspositionTableTest, MemoryOfTheNextGrowthIsMappedFromAQuarterFull) {
  TranspositionTable tt(64);
  const int64_t initial = tt.active_capacity();
  const int64_t before = ResidentBytes();
  DistinctBoards proofs(tt, 13);
  auto store_until = [&](int64_t count) {
    while (int64_t(proofs.keys().size()) < count) proofs.StoreProof(1);
  };
  // Below a quarter of the starting 16 MB nothing beyond it is touched.
  store_until(initial / 4 - 1);
  EXPECT_LT(ResidentBytes() - before, int64_t(24) << 20);
  // From a quarter, the 48 MB the table grows into are mapped by another thread.
  store_until(initial / 4 + 1);
  EXPECT_EQ(tt.active_capacity(), initial);
  const int64_t grown_part =
      (tt.capacity() - initial) / TTBucket::kSize * int64_t(sizeof(TTBucket));
  for (int i = 0; i < 600 && ResidentBytes() - before < grown_part; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  EXPECT_GE(ResidentBytes() - before, grown_part);
  // (That growing keeps the entries, with this thread at work, is the test above and the next.)
}

TEST(TranspositionTableTest, ATableOfHugePagesMapsItsStartingPartWhenMade) {
  // So that the first search does not pay for it (tables from 128 MB use huge pages; smaller
  // ones map pages as they are used).
  const int64_t before = ResidentBytes();
  TranspositionTable tt(256);
  const int64_t starting_part = tt.active_capacity() / TTBucket::kSize * int64_t(sizeof(TTBucket));
  ASSERT_LT(starting_part, int64_t(32) << 20);
  EXPECT_GE(ResidentBytes() - before, starting_part - (int64_t(1) << 20));
  EXPECT_LT(ResidentBytes() - before, starting_part + (int64_t(8) << 20));
  const int64_t with_table = ResidentBytes();
  TranspositionTable small(64);
  EXPECT_LT(ResidentBytes() - with_table, int64_t(1) << 20);
}

// The thread mapping the next growth's memory writes to its buckets while they are not in use;
// a growth that comes before it is done must stop those writes, or they would land on entries.
TEST(TranspositionTableTest, EntriesStoredWhileTheNextGrowthIsStillBeingMappedAreKept) {
  TranspositionTable tt(256);
  // The thread waits before its first page until the table has grown and been filled.
  std::atomic<bool> filled = false;
  std::atomic<int> pages_waited_for = 0;
  tt.SetPopulatePageHookForTesting([&] {
    if (filled) return;
    ++pages_waited_for;
    while (!filled) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  });
  const int64_t initial = tt.active_capacity();
  // Disproofs whose hands hold pawns, so that a byte of an entry written over is seen.
  DistinctBoards boards(tt, 100);
  auto hand_of = [](size_t i) {
    Hand h;
    h.Set(kPawn, int(i % 9) + 1);
    return h;
  };
  auto store_one = [&] {
    size_t i = boards.keys().size();
    tt.StoreDisproven(boards.NewKey(), hand_of(i), int(i % 50) + 1, 1);
  };
  // Past a quarter the thread starts on the next growth's 240 MB; the table grows at half.
  while (tt.active_capacity() == initial) store_one();
  while (int64_t(boards.keys().size()) < initial * 7 / 8) store_one();
  filled = true;
  tt.WaitForPopulatingForTesting();
  EXPECT_EQ(pages_waited_for.load(), 1);
  const std::vector<uint64_t>& keys = boards.keys();
  for (size_t i = 0; i < keys.size(); ++i) {
    int depth = int(i % 50) + 1;
    TTProbe p = tt.Probe(keys[i], hand_of(i), depth);
    ASSERT_TRUE(p.found && p.dn == 0) << "entry " << i;
    ASSERT_EQ(p.depth, depth) << "entry " << i;
    ASSERT_EQ(p.pieces, hand_of(i)) << "entry " << i;
  }
}

TEST(TranspositionTableTest, ProofAppliesToHandsHoldingTheProofPieces) {
  TranspositionTable tt(1);
  Hand proof_pieces = MakeHand(1, 0, 0, 1, 1, 0, 0);  // P S G
  tt.StoreProven(kKey, proof_pieces, 7, 10);

  // Exactly the proof pieces, and any superset.
  for (Hand h : {proof_pieces, MakeHand(3, 0, 0, 1, 1, 0, 0), MakeHand(1, 2, 1, 2, 1, 1, 1)}) {
    TTProbe p = tt.Probe(kKey, h, 7);
    ASSERT_TRUE(p.found);
    EXPECT_EQ(p.pn, 0u);
    EXPECT_EQ(p.length, 7);
    EXPECT_EQ(p.pieces, proof_pieces);
  }
  // A hand missing any one of the kinds is not covered.
  for (Hand h : {MakeHand(0, 0, 0, 1, 1, 0, 0), MakeHand(1, 0, 0, 0, 1, 0, 0),
                 MakeHand(1, 0, 0, 1, 0, 2, 2), Hand()}) {
    TTProbe p = tt.Probe(kKey, h, 99);
    EXPECT_FALSE(p.found && p.pn == 0) << "hand bits " << h.bits();
  }
  // Another board never sees it.
  EXPECT_FALSE(tt.Probe(kOtherKey, proof_pieces, 99).found);
}

TEST(TranspositionTableTest, ProofOfLengthLAnswersOnlyDepthsOfAtLeastL) {
  TranspositionTable tt(1);
  tt.StoreProven(kKey, Hand(), 9, 1);
  EXPECT_FALSE(tt.Probe(kKey, Hand(), 7).found);
  EXPECT_FALSE(tt.Probe(kKey, Hand(), 8).found);
  EXPECT_TRUE(tt.Probe(kKey, Hand(), 9).found);
  EXPECT_TRUE(tt.Probe(kKey, Hand(), 11).found);
  EXPECT_TRUE(tt.Probe(kKey, Hand(), kInfiniteDepth).found);
}

TEST(TranspositionTableTest, DisproofAppliesToHandsHeldByTheDisproofPieces) {
  TranspositionTable tt(1);
  Hand disproof_pieces = MakeHand(2, 1, 0, 0, 1, 0, 0);  // 2P L G
  tt.StoreDisproven(kKey, disproof_pieces, kInfiniteDepth, 10);

  for (Hand h :
       {disproof_pieces, Hand(), MakeHand(1, 0, 0, 0, 1, 0, 0), MakeHand(0, 1, 0, 0, 0, 0, 0)}) {
    TTProbe p = tt.Probe(kKey, h, 31);
    ASSERT_TRUE(p.found);
    EXPECT_EQ(p.dn, 0u);
    EXPECT_EQ(p.depth, kInfiniteDepth);
    EXPECT_EQ(p.pieces, disproof_pieces);
  }
  // One more of any kind may make a mate possible.
  for (Hand h : {MakeHand(3, 1, 0, 0, 1, 0, 0), MakeHand(2, 1, 1, 0, 1, 0, 0),
                 MakeHand(0, 0, 0, 0, 0, 0, 1)}) {
    TTProbe p = tt.Probe(kKey, h, 31);
    EXPECT_FALSE(p.found && p.dn == 0) << "hand bits " << h.bits();
  }
}

TEST(TranspositionTableTest, DepthLimitedDisproofAnswersOnlyDepthsUpToIt) {
  TranspositionTable tt(1);
  tt.StoreDisproven(kKey, Hand(), 5, 1);
  for (int depth : {0, 1, 3, 5}) {
    TTProbe p = tt.Probe(kKey, Hand(), depth);
    ASSERT_TRUE(p.found) << depth;
    EXPECT_EQ(p.dn, 0u);
    EXPECT_EQ(p.depth, 5);
  }
  for (int depth : {6, 7, 99, int(kInfiniteDepth)}) {
    EXPECT_FALSE(tt.Probe(kKey, Hand(), depth).found) << depth;
  }
}

TEST(TranspositionTableTest, UnknownEntriesMatchTheExactHandOnly) {
  TranspositionTable tt(1);
  Hand h = MakeHand(1, 0, 0, 0, 1, 0, 0);
  tt.StoreUnknown(kKey, h, 4, 9, 3);
  TTProbe p = tt.Probe(kKey, h, 5);
  ASSERT_TRUE(p.found);
  EXPECT_EQ(p.pn, 4u);
  EXPECT_EQ(p.dn, 9u);
  EXPECT_FALSE(tt.Probe(kKey, MakeHand(2, 0, 0, 0, 1, 0, 0), 5).found);
  EXPECT_FALSE(tt.Probe(kKey, Hand(), 5).found);

  // Storing again for the same hand updates the numbers in place.
  tt.StoreUnknown(kKey, h, 6, 2, 1);
  p = tt.Probe(kKey, h, 5);
  ASSERT_TRUE(p.found);
  EXPECT_EQ(p.pn, 6u);
  EXPECT_EQ(p.dn, 2u);
}

TEST(TranspositionTableTest, OtherHandsUnknownEntriesGiveFloors) {
  TranspositionTable tt(1);
  Hand h = MakeHand(1, 0, 0, 1, 0, 0, 0);
  // More pieces for the attacker: no harder to prove, so its proof number bounds ours.
  tt.StoreUnknown(kKey, MakeHand(2, 0, 0, 1, 0, 0, 0), 7, 3, 1);
  tt.StoreUnknown(kKey, MakeHand(1, 0, 0, 1, 1, 0, 0), 5, 2, 1);
  // Fewer: no harder to disprove, so its disproof number bounds ours.
  tt.StoreUnknown(kKey, MakeHand(0, 0, 0, 1, 0, 0, 0), 2, 11, 1);
  // Neither more nor less (a pawn more, the silver less): no bound either way.
  tt.StoreUnknown(kKey, MakeHand(2, 0, 0, 0, 0, 0, 0), 50, 60, 1);
  // Another board: nothing.
  tt.StoreUnknown(kKey ^ kHighBit1, MakeHand(3, 0, 0, 1, 0, 0, 0), 80, 90, 1);
  TTProbe p = tt.Probe(kKey, h, 5);
  EXPECT_FALSE(p.found);
  EXPECT_EQ(p.pn_floor, 7u);
  EXPECT_EQ(p.dn_floor, 11u);

  // The exact hand's entry is found as before (the floors are then left out: a search reads
  // them only for a position not found).
  tt.StoreUnknown(kKey, h, 4, 4, 1);
  p = tt.Probe(kKey, h, 5);
  ASSERT_TRUE(p.found);
  EXPECT_EQ(p.pn, 4u);
  EXPECT_EQ(p.dn, 4u);

  // The other unknown set's entries give none.
  tt.UseUnknownSet(1);
  p = tt.Probe(kKey, h, 5);
  EXPECT_EQ(p.pn_floor, 0u);
  EXPECT_EQ(p.dn_floor, 0u);
}

TEST(TranspositionTableTest, FinalsThatDoNotApplyLeaveTheUnknownResultAndFloors) {
  TranspositionTable tt(1);
  Hand h = MakeHand(1, 0, 0, 1, 0, 0, 0);
  // A proof longer than the depth, one needing a gold, a disproof too shallow and one of a
  // hand without the silver: none applies (stored first, as a final drops the unknown entries
  // it covers).
  tt.StoreProven(kKey, MakeHand(1, 0, 0, 0, 0, 0, 0), 9, 1);
  tt.StoreProven(kKey, MakeHand(0, 0, 0, 0, 1, 0, 0), 1, 1);
  tt.StoreDisproven(kKey, MakeHand(3, 0, 0, 1, 0, 0, 0), 3, 1);
  tt.StoreDisproven(kKey, MakeHand(3, 0, 0, 0, 0, 0, 0), 99, 1);
  tt.StoreUnknown(kKey, MakeHand(2, 0, 0, 1, 0, 0, 0), 7, 3, 1);
  tt.StoreUnknown(kKey, MakeHand(0, 0, 0, 1, 0, 0, 0), 2, 11, 1);
  TTProbe p = tt.Probe(kKey, h, 5);
  EXPECT_FALSE(p.found);
  EXPECT_EQ(p.pn_floor, 7u);
  EXPECT_EQ(p.dn_floor, 11u);
  tt.StoreUnknown(kKey, h, 4, 6, 1);
  p = tt.Probe(kKey, h, 5);
  ASSERT_TRUE(p.found);
  EXPECT_EQ(p.pn, 4u);
  EXPECT_EQ(p.dn, 6u);
  // At depth 9 the first proof applies, at depth 2 the first disproof.
  p = tt.Probe(kKey, h, 9);
  ASSERT_TRUE(p.found);
  EXPECT_EQ(p.pn, 0u);
  EXPECT_EQ(p.length, 9);
  p = tt.Probe(kKey, h, 2);
  ASSERT_TRUE(p.found);
  EXPECT_EQ(p.dn, 0u);
  EXPECT_EQ(p.depth, 3);
}

TEST(TranspositionTableTest, FinalResultsTakePrecedenceOverUnknownOnes) {
  TranspositionTable tt(1);
  Hand h = MakeHand(2, 0, 0, 1, 0, 0, 0);
  tt.StoreUnknown(kKey, h, 3, 3, 1);
  tt.StoreProven(kKey, MakeHand(1, 0, 0, 1, 0, 0, 0), 5, 1);
  TTProbe p = tt.Probe(kKey, h, 5);
  ASSERT_TRUE(p.found);
  EXPECT_EQ(p.pn, 0u);
  // Too shallow for the proof: the unknown entry it made redundant is gone or still unknown,
  // never a proof or a disproof.
  p = tt.Probe(kKey, h, 3);
  EXPECT_FALSE(p.found && (p.pn == 0 || p.dn == 0));

  TranspositionTable tt2(1);
  tt2.StoreUnknown(kKey, Hand(), 3, 3, 1);
  tt2.StoreDisproven(kKey, MakeHand(1, 0, 0, 0, 0, 0, 0), 9, 1);
  p = tt2.Probe(kKey, Hand(), 9);
  ASSERT_TRUE(p.found);
  EXPECT_EQ(p.dn, 0u);
}

TEST(TranspositionTableTest, ProbeReturnsTheShortestApplicableProof) {
  TranspositionTable tt(1);
  // A long mate with few pieces and a short one that needs more.
  tt.StoreProven(kKey, MakeHand(1, 0, 0, 0, 0, 0, 0), 11, 1);
  tt.StoreProven(kKey, MakeHand(1, 0, 0, 0, 1, 0, 0), 5, 1);
  TTProbe p = tt.Probe(kKey, MakeHand(1, 0, 0, 0, 1, 0, 0), kInfiniteDepth);
  ASSERT_TRUE(p.found);
  EXPECT_EQ(p.length, 5);
  // Without the gold only the long one applies.
  p = tt.Probe(kKey, MakeHand(5, 0, 0, 0, 0, 0, 0), kInfiniteDepth);
  ASSERT_TRUE(p.found);
  EXPECT_EQ(p.length, 11);
  // A depth limit between the two lengths: the short proof fits.
  p = tt.Probe(kKey, MakeHand(1, 0, 0, 0, 1, 0, 0), 7);
  ASSERT_TRUE(p.found);
  EXPECT_EQ(p.length, 5);
  // Depth 7 without the gold: no proof short enough.
  EXPECT_FALSE(tt.Probe(kKey, MakeHand(1, 0, 0, 0, 0, 0, 0), 7).found);
}

TEST(TranspositionTableTest, StrongerProofReplacesWeakerOneAndWeakerIsIgnored) {
  TranspositionTable tt(1);
  tt.StoreProven(kKey, MakeHand(1, 0, 0, 0, 1, 0, 0), 9, 1);
  // Fewer pieces, shorter: dominates the first.
  tt.StoreProven(kKey, MakeHand(1, 0, 0, 0, 0, 0, 0), 7, 1);
  TTProbe p = tt.Probe(kKey, MakeHand(1, 0, 0, 0, 1, 0, 0), kInfiniteDepth);
  ASSERT_TRUE(p.found);
  EXPECT_EQ(p.length, 7);
  EXPECT_EQ(p.pieces, MakeHand(1, 0, 0, 0, 0, 0, 0));
  // A weaker proof afterwards changes nothing.
  tt.StoreProven(kKey, MakeHand(2, 0, 0, 0, 0, 0, 0), 9, 1);
  p = tt.Probe(kKey, MakeHand(2, 0, 0, 0, 0, 0, 0), kInfiniteDepth);
  ASSERT_TRUE(p.found);
  EXPECT_EQ(p.length, 7);
  EXPECT_EQ(p.pieces, MakeHand(1, 0, 0, 0, 0, 0, 0));
}

TEST(TranspositionTableTest, StrongerDisproofReplacesWeakerOne) {
  TranspositionTable tt(1);
  tt.StoreDisproven(kKey, MakeHand(1, 0, 0, 0, 0, 0, 0), 5, 1);
  tt.StoreDisproven(kKey, MakeHand(2, 0, 0, 0, 0, 0, 0), 9, 1);
  TTProbe p = tt.Probe(kKey, MakeHand(1, 0, 0, 0, 0, 0, 0), 9);
  ASSERT_TRUE(p.found);
  EXPECT_EQ(p.dn, 0u);
  EXPECT_EQ(p.depth, 9);
  // Weaker afterwards: ignored, the stronger one still answers.
  tt.StoreDisproven(kKey, MakeHand(1, 0, 0, 0, 0, 0, 0), 3, 1);
  p = tt.Probe(kKey, MakeHand(2, 0, 0, 0, 0, 0, 0), 9);
  ASSERT_TRUE(p.found);
  EXPECT_EQ(p.depth, 9);
}

TEST(TranspositionTableTest, ClearEmptiesTheTable) {
  TranspositionTable tt(1);
  for (uint64_t k = 1; k <= 1000; ++k) tt.StoreProven(k * 0x9E3779B97F4A7C15ull, Hand(), 3, 1);
  EXPECT_GT(tt.Fill(), 0.0);
  ASSERT_TRUE(tt.Probe(1 * 0x9E3779B97F4A7C15ull, Hand(), 3).found);
  tt.Clear();
  EXPECT_EQ(tt.Fill(), 0.0);
  for (uint64_t k = 1; k <= 1000; ++k) {
    ASSERT_FALSE(tt.Probe(k * 0x9E3779B97F4A7C15ull, Hand(), 99).found) << k;
  }
  // The table works as before after a clear.
  tt.StoreDisproven(kKey, Hand(), 3, 1);
  EXPECT_TRUE(tt.Probe(kKey, Hand(), 3).found);
}

TEST(TranspositionTableTest, ClearStillEmptiesWhenTheGenerationCounterWraps) {
  TranspositionTable tt(1);
  for (int i = 0; i < 5; ++i) tt.Clear();
  tt.StoreProven(kKey, Hand(), 1, 1);
  tt.StoreDisproven(kOtherKey, Hand(), kInfiniteDepth, 1);
  tt.StoreUnknown(kKey ^ kHighBit1, Hand(), 2, 2, 1);
  // A 16-bit generation comes back to the same value after 65535 clears; stale entries of that
  // generation must not come back to life.
  for (int i = 0; i < 65535; ++i) {
    tt.Clear();
    if (i % 4096 == 0 || i >= 65530) {
      ASSERT_FALSE(tt.Probe(kKey, Hand(), 99).found) << "after " << i + 1 << " clears";
      ASSERT_FALSE(tt.Probe(kOtherKey, Hand(), 99).found) << "after " << i + 1 << " clears";
      ASSERT_FALSE(tt.Probe(kKey ^ kHighBit1, Hand(), 99).found) << "after " << i + 1 << " clears";
    }
  }
  EXPECT_EQ(tt.Fill(), 0.0);
}

TEST(TranspositionTableTest, UnknownSetsAreSeparateAndProofsAreShared) {
  TranspositionTable tt(1);
  tt.StoreProven(kKey, Hand(), 5, 1);
  tt.StoreUnknown(kKey ^ kHighBit1, Hand(), 4, 6, 1);
  tt.UseUnknownSet(1);
  tt.StoreDisproven(kOtherKey, Hand(), 7, 1);
  tt.StoreUnknown(kKey ^ kHighBit2, Hand(), 3, 9, 1);
  for (int set : {0, 1, 0, 1}) {
    SCOPED_TRACE(set);
    tt.UseUnknownSet(set);
    TTProbe proof = tt.Probe(kKey, Hand(), 5);
    ASSERT_TRUE(proof.found);
    EXPECT_EQ(proof.pn, 0u);
    EXPECT_EQ(proof.length, 5);
    TTProbe disproof = tt.Probe(kOtherKey, Hand(), 7);
    ASSERT_TRUE(disproof.found);
    EXPECT_EQ(disproof.dn, 0u);
    // Each unknown entry is seen only from its own set, with its own numbers.
    TTProbe mine = tt.Probe(set == 0 ? kKey ^ kHighBit1 : kKey ^ kHighBit2, Hand(), 5);
    ASSERT_TRUE(mine.found);
    EXPECT_EQ(mine.pn, set == 0 ? 4u : 3u);
    EXPECT_FALSE(tt.Probe(set == 0 ? kKey ^ kHighBit2 : kKey ^ kHighBit1, Hand(), 5).found);
  }
  // Clear empties both sets and the final results.
  tt.Clear();
  for (int set : {0, 1}) {
    tt.UseUnknownSet(set);
    EXPECT_FALSE(tt.Probe(kKey, Hand(), 99).found);
    EXPECT_FALSE(tt.Probe(kOtherKey, Hand(), 1).found);
    EXPECT_FALSE(tt.Probe(kKey ^ kHighBit1, Hand(), 5).found);
    EXPECT_FALSE(tt.Probe(kKey ^ kHighBit2, Hand(), 5).found);
  }
  EXPECT_EQ(tt.Fill(), 0.0);
}

// `count` keys of other boards that all fall into kKey's bucket.
std::vector<uint64_t> KeysSharingABucket(const TranspositionTable& tt, size_t count) {
  std::vector<uint64_t> keys;
  for (uint64_t k = kKey; keys.size() < count; k += 0x9E3779B97F4A7C15ull) {
    if (keys.empty() || tt.BucketIndex(k) == tt.BucketIndex(keys[0])) keys.push_back(k);
  }
  return keys;
}

TEST(TranspositionTableTest, OtherSetsUnknownEntriesAreReplacedFirst) {
  TranspositionTable tt(1);
  // Fill one bucket with nine keys that share it.
  std::vector<uint64_t> same_bucket = KeysSharingABucket(tt, 9);
  auto key = [&](uint64_t i) { return same_bucket[i]; };
  tt.UseUnknownSet(1);
  tt.StoreUnknown(key(0), Hand(), 2, 2, 1);
  tt.UseUnknownSet(0);
  for (uint64_t i = 1; i < 8; ++i) tt.StoreUnknown(key(i), Hand(), 2, 2, 100);
  // A new entry takes the slot of set 1's entry, not one of set 0's costlier ones.
  tt.StoreUnknown(key(8), Hand(), 2, 2, 1);
  for (uint64_t i = 1; i <= 8; ++i) EXPECT_TRUE(tt.Probe(key(i), Hand(), 5).found) << i;
  tt.UseUnknownSet(1);
  EXPECT_FALSE(tt.Probe(key(0), Hand(), 5).found);
}

// The bucket's slots are classified all at once (Classify); whichever slot an entry is in, a
// store finds it there.
TEST(TranspositionTableTest, OtherSetsUnknownEntryIsReplacedInAnySlot) {
  for (uint64_t slot = 0; slot < 8; ++slot) {
    TranspositionTable tt(1);
    std::vector<uint64_t> same_bucket = KeysSharingABucket(tt, 9);
    auto key = [&](uint64_t i) { return same_bucket[i]; };
    // Slots in storing order; set 1's entry in `slot`.
    for (uint64_t i = 0; i < 8; ++i) {
      tt.UseUnknownSet(i == slot ? 1 : 0);
      tt.StoreUnknown(key(i), Hand(), 2, 2, i == slot ? 1 : 100);
    }
    tt.UseUnknownSet(0);
    tt.StoreUnknown(key(8), Hand(), 2, 2, 1);
    for (uint64_t i = 0; i <= 8; ++i) {
      if (i != slot) {
        EXPECT_TRUE(tt.Probe(key(i), Hand(), 5).found) << slot << " " << i;
      }
    }
    tt.UseUnknownSet(1);
    EXPECT_FALSE(tt.Probe(key(slot), Hand(), 5).found) << slot;
  }
}

TEST(TranspositionTableTest, StoringAnUnknownEntryAgainUpdatesItInAnySlot) {
  TranspositionTable tt(1);
  std::vector<uint64_t> same_bucket = KeysSharingABucket(tt, 8);
  auto key = [&](uint64_t i) { return same_bucket[i]; };
  for (uint64_t i = 0; i < 8; ++i) tt.StoreUnknown(key(i), Hand(), 2, 2, 100);
  for (uint64_t i = 0; i < 8; ++i) tt.StoreUnknown(key(i), Hand(), 10 + i, 20 + i, 1);
  for (uint64_t i = 0; i < 8; ++i) {
    TTProbe probe = tt.Probe(key(i), Hand(), 5);
    ASSERT_TRUE(probe.found) << i;
    EXPECT_EQ(probe.pn, 10 + i);
    EXPECT_EQ(probe.dn, 20 + i);
  }
}

TEST(TranspositionTableTest, FullBucketReplacesTheFirstOfItsCheapestEntries) {
  TranspositionTable tt(1);
  std::vector<uint64_t> same_bucket = KeysSharingABucket(tt, 10);
  auto key = [&](uint64_t i) { return same_bucket[i]; };
  // Slots in storing order; the cheap entries are the second and the fourth.
  for (uint64_t i = 0; i < 8; ++i)
    tt.StoreUnknown(key(i), Hand(), 2, 2, i == 1 || i == 3 ? 5 : 100);
  tt.StoreUnknown(key(8), Hand(), 2, 2, 1);
  EXPECT_FALSE(tt.Probe(key(1), Hand(), 5).found);
  EXPECT_TRUE(tt.Probe(key(3), Hand(), 5).found);
  // The new entry (effort 1) is now the cheapest.
  tt.StoreUnknown(key(9), Hand(), 2, 2, 1);
  EXPECT_FALSE(tt.Probe(key(8), Hand(), 5).found);
  for (uint64_t i : {0, 2, 3, 4, 5, 6, 7, 9}) EXPECT_TRUE(tt.Probe(key(i), Hand(), 5).found) << i;
}

// What the model remembers having stored: board key, pieces, proven (else disproven), length
// or depth.
using Fact = std::tuple<uint64_t, uint32_t, bool, int>;

// A random hand with small counts, so dominance relations between hands are common.
Hand RandomHand(std::mt19937_64& rng) {
  Hand h;
  for (PieceType pt : kHandTypes) h.Set(pt, int(rng() % 3 == 0 ? rng() % 3 : 0));
  return h;
}

// With a 1 MB table (5461 buckets of 8) and keys confined to a few buckets, buckets overflow
// constantly. Every probe must return a stored fact that applies to the query, or nothing.
TEST(TranspositionTableTest, ReplacementInFullBucketsNeverInventsResults) {
  TranspositionTable tt(1);
  std::mt19937_64 rng(20240601);
  // 40 boards sharing 3 buckets.
  std::vector<uint64_t> keys;
  for (uint64_t k = rng(); keys.size() < 40; k = rng()) {
    if (tt.BucketIndex(k) < 3) keys.push_back(k);
  }

  // Each board has a hidden truth: it is mated in `mate_length[i]` plies with any hand holding
  // `threshold[i]`, and never with a hand that does not. Stored facts follow that truth, so no
  // two of them contradict each other and a probe answer can be checked against it.
  std::vector<Hand> threshold;
  std::vector<int> mate_length;
  for (size_t i = 0; i < keys.size(); ++i) {
    threshold.push_back(RandomHand(rng));
    mate_length.push_back(1 + 2 * int(rng() % 10));
  }
  std::set<Fact> facts;
  int checked = 0, found = 0;
  const int steps = TSUME_SANITIZED ? 20000 : 200000;
  for (int step = 0; step < steps; ++step) {
    size_t i = rng() % keys.size();
    uint64_t key = keys[i];
    Hand h = RandomHand(rng);
    int depth = rng() % 8 == 0 ? kInfiniteDepth : int(rng() % 25);
    uint32_t amount = uint32_t(rng() % 1000);
    switch (rng() % 4) {
      case 0:
        if (h.Dominates(threshold[i])) {
          // Proof pieces: the threshold (or more) and a length at least the true one.
          int length = mate_length[i] + 2 * int(rng() % 3);
          tt.StoreProven(key, threshold[i], length, amount);
          facts.insert({key, threshold[i].bits(), true, length});
        } else {
          // No mate at any depth for hands without the threshold: disprove with `h`, which
          // lacks some of it (so does every hand it holds).
          tt.StoreDisproven(key, h, kInfiniteDepth, amount);
          facts.insert({key, h.bits(), false, kInfiniteDepth});
        }
        break;
      case 1:
        if (h.Dominates(threshold[i]) && mate_length[i] > 1) {
          // Shorter than the true length: disproven to that depth for every hand.
          int d = int(rng() % mate_length[i]);
          Hand all;
          for (PieceType pt : kHandTypes) all.Set(pt, 2);
          tt.StoreDisproven(key, all, d, amount);
          facts.insert({key, all.bits(), false, d});
        }
        break;
      case 2:
        tt.StoreUnknown(key, h, PnDn(1 + rng() % 50), PnDn(1 + rng() % 50), amount);
        break;
      default: {
        ++checked;
        TTProbe p = tt.Probe(key, h, depth);
        if (!p.found) break;
        ++found;
        if (p.pn == 0) {
          // The truth agrees, and some stored proof justifies exactly this answer.
          ASSERT_TRUE(h.Dominates(threshold[i]));
          ASSERT_LE(p.length, depth);
          ASSERT_GE(p.length, mate_length[i]);
          ASSERT_TRUE(h.Dominates(p.pieces));
          ASSERT_TRUE(facts.contains({key, p.pieces.bits(), true, p.length}))
              << "proof that was never stored, step " << step;
        } else if (p.dn == 0) {
          ASSERT_TRUE(!h.Dominates(threshold[i]) || depth < mate_length[i])
              << "disproof contradicts a mate, step " << step;
          ASSERT_GE(p.depth, depth);
          ASSERT_TRUE(p.pieces.Dominates(h));
          ASSERT_TRUE(facts.contains({key, p.pieces.bits(), false, p.depth}))
              << "disproof that was never stored, step " << step;
        } else {
          // Unknown: only for exactly this hand.
          ASSERT_EQ(p.pieces, h);
        }
      }
    }
  }
  EXPECT_GT(checked, steps / 10);
  EXPECT_GT(found, steps / 100);  // the test did exercise hits, not only misses
  EXPECT_GT(tt.Fill(), 0.0);
}

TEST(TTBucketTest, HoldingMarksTheSlotsThatHoldTheBoard) {
  TTBucket bucket{};
  EXPECT_EQ(bucket.Holding(kKey), 0u);
  bucket.tags[1] = TTBucket::Tag(kKey, 0x35);
  bucket.tags[4] = TTBucket::Tag(kKey, 0xff);
  bucket.tags[6] = TTBucket::Tag(kKey ^ 1, 0x35);  // another board
  bucket.tags[7] = TTBucket::Tag(kKey, 0);
  EXPECT_EQ(bucket.Holding(kKey), 0b10010010u);
  EXPECT_EQ(bucket.Holding(kKey ^ 1), 0b01000000u);
  for (uint64_t key : {kKey, kKey ^ 1, kOtherKey, uint64_t(0x35)}) {
    for (int i = 0; i < TTBucket::kSize; ++i) {
      EXPECT_EQ((bucket.Holding(key) >> i & 1) != 0, bucket.Holds(i, key)) << i;
    }
  }
}

}  // namespace
}  // namespace tsume
