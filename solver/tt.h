// The df-pn transposition table. Entries are keyed by the board key (board + side to move) and
// carry the attacker's hand, so look-ups can use hand dominance: a proof stored with proof
// pieces P proves the same board with any attacker hand holding P; a disproof stored with
// disproof pieces D disproves it for any hand that D holds.
//
// Memory is reserved at construction: an array of 192-byte buckets. A search starts on 16 MB
// of it and spreads over sixteen times as many buckets whenever half its slots are in use, up
// to the whole: a short search touches (and the system zeroes) only the little memory it
// needs. From a quarter full, another thread has the system map the memory of the next step,
// so that the search does not wait for it when it grows. When a bucket is full the entry that cost
// least to compute is replaced, so a full table makes the search slower, never wrong.
#ifndef TSUME_SOLVER_TT_H_
#define TSUME_SOLVER_TT_H_

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "core/types.h"

#ifdef __AVX2__
#include <immintrin.h>
#endif

namespace tsume {

using PnDn = uint32_t;
// "Infinite" proof/disproof number. Ordinary numbers are capped at kPnDnCap, far below it, so a
// sum can never turn into a proof or disproof by overflow.
constexpr PnDn kInfinitePnDn = 0x7fffffff;
constexpr PnDn kPnDnCap = 0x3fffffff;
// Depth meaning "no limit": a disproof with this depth means no mate at any length.
constexpr uint16_t kInfiniteDepth = 0xffff;

inline PnDn SaturatingAdd(PnDn a, PnDn b) {
  if (a >= kInfinitePnDn || b >= kInfinitePnDn) return kInfinitePnDn;
  PnDn s = a + b;
  return s > kPnDnCap ? kPnDnCap : s;
}

// One stored result, without its board key (the bucket keeps the keys apart: see TTBucket).
struct TTEntry {
  uint32_t hand = 0;  // attacker hand (proof pieces when proven, disproof when disproven)
  PnDn pn = 1;
  PnDn dn = 1;
  // Proven: the mate length found (an upper bound of the exact one). Disproven: no mate
  // within this many plies (kInfiniteDepth: none at all). Unknown: unused.
  uint16_t length_or_depth = 0;
  uint16_t generation = 0;

  bool proven() const { return pn == 0; }
  bool disproven() const { return dn == 0; }
};
static_assert(sizeof(TTEntry) == 16);

// Eight entries: their tags first, one cache line, then the entries in two more. A tag is the board
// key's lower 56 bits, shifted up (0: empty slot), and, in its low byte, the search effort spent
// below the entry on a log scale (the replacement priority). The bucket stands for the key's upper
// bits (see BucketIndex), so a tag and its bucket tell apart any two keys; a tag of the upper 56
// bits repeated what the bucket says and told apart only the bits below (36 bits at 256 MB, 35 at
// 512 MB: Microcosmos's 55M look-ups of boards not stored with 512 MB expected 0.02 false matches,
// each a wrong result or a lost entry if its hand fits). A probe of a board that is not stored
// (most probes of new children) needs only the tags; a hit one entry line more. With the keys
// inside 32-byte entries a bucket took four lines: at 4 GB zukou-055 ran at 692k nodes/s, with this
// layout 956k (38.3 s -> 28.7 s); at 1 GB and 256 MB no change in time.
struct alignas(64) TTBucket {
  static constexpr int kSize = 8;
  static constexpr uint64_t kAmountMask = 0xff;
  uint64_t tags[kSize];
  TTEntry entries[kSize];
  // The tag of `board_key` with the replacement priority `amount`.
  static uint64_t Tag(uint64_t board_key, uint8_t amount) { return board_key << 8 | amount; }
  bool Holds(int i, uint64_t board_key) const {
    return (tags[i] ^ Tag(board_key, 0)) <= kAmountMask;
  }
  // The slots that Holds `board_key`, bit i for slot i: a probe looks at those only (most
  // probes of new children find none).
  uint32_t Holding(uint64_t board_key) const {
#ifdef __AVX2__
    const __m256i* four = reinterpret_cast<const __m256i*>(tags);
    const __m256i board_bits = _mm256_set1_epi64x(int64_t(~kAmountMask));
    const __m256i board = _mm256_set1_epi64x(int64_t(Tag(board_key, 0)));
    __m256i low = _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_load_si256(four), board_bits), board);
    __m256i high =
        _mm256_cmpeq_epi64(_mm256_and_si256(_mm256_load_si256(four + 1), board_bits), board);
    return uint32_t(_mm256_movemask_pd(_mm256_castsi256_pd(low))) |
           uint32_t(_mm256_movemask_pd(_mm256_castsi256_pd(high))) << 4;
#else
    uint32_t held = 0;
    for (int i = 0; i < kSize; ++i) held |= uint32_t(Holds(i, board_key)) << i;
    return held;
#endif
  }
  bool Empty(int i) const { return tags[i] == 0; }
  uint8_t Amount(int i) const { return uint8_t(tags[i] & kAmountMask); }
};
static_assert(sizeof(TTBucket) == 192);

// What a look-up found for a position searched with a remaining depth.
struct TTProbe {
  PnDn pn = 1;
  PnDn dn = 1;
  uint16_t length = 0;  // when pn == 0
  uint16_t depth = 0;   // when dn == 0
  Hand pieces;          // proof or disproof pieces when final
  bool found = false;
  // Bounds from the unknown entries of the same board with other attacker hands, for a
  // position met for the first time: one whose attacker holds more is no harder to prove, so
  // its proof number bounds this one's from below (pn_floor); one whose attacker holds less is
  // no harder to disprove (dn_floor). 0: no such entry. Only when nothing is found (a search
  // reads them for a new position only): with a result they may be left 0.
  PnDn pn_floor = 0;
  PnDn dn_floor = 0;
};

class TranspositionTable {
 public:
  explicit TranspositionTable(int64_t megabytes);
  ~TranspositionTable();
  TranspositionTable(const TranspositionTable&) = delete;
  TranspositionTable& operator=(const TranspositionTable&) = delete;

  void Clear();
  // Unknown entries belong to one of two sets, and probes see only those of the set in use:
  // the proof and disproof numbers of depth-limited and unbounded searches mislead each other.
  // Proofs and disproofs are seen from both. Clear() empties both and selects set 0.
  void UseUnknownSet(int set) { current_ = uint16_t(base_ + (set & 1)); }
  // Look-up for `board_key` with attacker hand `hand`, needing a mate within `depth` plies:
  // a proof or disproof that applies, else the unknown entry of exactly that hand; and the
  // floors from the other hands' unknown entries.
  TTProbe Probe(uint64_t board_key, Hand hand, int depth) const;
  // Starts loading the bucket of `board_key` into the cache (probes follow shortly): every
  // line of it, as a hit needs an entry line soon after the tags (fetching the tag line alone:
  // 寿 at 256 MB ran at 910k nodes/s instead of 975k).
  void Prefetch(uint64_t board_key) const {
    const char* bucket = reinterpret_cast<const char*>(&BucketFor(board_key));
    for (size_t line = 0; line < sizeof(TTBucket); line += 64) __builtin_prefetch(bucket + line);
  }
  // Unknown result for exactly (board, hand).
  void StoreUnknown(uint64_t board_key, Hand hand, PnDn pn, PnDn dn, uint32_t amount);
  // Proof with proof pieces and mate length.
  void StoreProven(uint64_t board_key, Hand proof_pieces, int length, uint32_t amount);
  // Disproof with disproof pieces, valid for mates within `depth` plies.
  void StoreDisproven(uint64_t board_key, Hand disproof_pieces, int depth, uint32_t amount);

  // Fraction of all the slots in use, estimated from a sample.
  double Fill() const;
  int64_t capacity() const { return int64_t(buckets_) * TTBucket::kSize; }
  // Slots of the part of the table in use now (all of it once grown).
  int64_t active_capacity() const { return int64_t(active_buckets_) * TTBucket::kSize; }
  // Which bucket holds `board_key` (exposed for tests): the key's high bits scaled to the
  // active bucket count, which need not be a power of two, so the whole budget is used.
  uint64_t BucketIndex(uint64_t board_key) const {
    return uint64_t((unsigned __int128)board_key * active_buckets_ >> 64);
  }
  // Called by the thread that maps the memory of the next growth before each page it writes
  // to, outside any lock: lets a test hold that thread back while the table grows.
  void SetPopulatePageHookForTesting(std::function<void()> hook) { populate_page_hook_ = hook; }
  // Waits until that thread has gone over all of its memory.
  void WaitForPopulatingForTesting() {
    if (populating_.joinable()) populating_.join();
  }

 private:
  TTBucket& BucketFor(uint64_t board_key) const { return buckets_array_[BucketIndex(board_key)]; }
  // Called before a store, never while a bucket is held: at a quarter of the active slots in
  // use the memory of the next growth starts being mapped (StartPopulating); at half, Grow.
  void BeforeStore() {
    if (used_ >= next_event_) OnFill();
  }
  void OnFill();
  // StoreUnknown when a growth event is due.
  [[gnu::noinline]] void StoreUnknownAfterFill(uint64_t board_key, Hand hand, PnDn pn, PnDn dn,
                                               uint32_t amount);
  // Spreads the entries over sixteen times as many buckets (all of them when that is more
  // than half).
  void Grow();
  // How many buckets the next growth makes active.
  uint64_t GrownBuckets() const;
  // Has the system map (and zero) the buckets [from, to) on a thread of its own: the first
  // touch of fresh memory is slow on this VM (the search spent 5.6% of 寿's first 6M nodes
  // zeroing pages as it grew). Contents are not changed: the thread writes zeros to buckets
  // not yet in use, and once they are (Grow) it only asks the system to map the rest.
  void StartPopulating(uint64_t from, uint64_t to);
  void StopPopulating();
  void SetActive(uint64_t buckets);
  void ResetActive();
  // Probe's reading of the slots `held` one by one, in order.
  TTProbe ProbeSlots(const TTBucket& bucket, uint32_t held, Hand hand, int depth) const;
  // The slot for an unknown result of exactly (board, hand), or the one to replace; its tag
  // is set to the board with at least `amount` (scaled).
  TTEntry* Slot(TTBucket& bucket, uint64_t board_key, Hand hand, uint8_t amount);

  // Anonymous memory: zero (empty) until first touched, so resident memory grows with use.
  // Huge pages only from kHugePageMinBytes: small tables (tests, quick solves) do not pay
  // for zeroing whole 2 MB pages, nor for the kernel's compaction, which on a fragmented
  // machine once made the first solve of a process take up to a second.
  static constexpr size_t kHugePageMinBytes = size_t(128) << 20;
  TTBucket* buckets_array_ = nullptr;
  size_t bytes_ = 0;
  uint64_t buckets_ = 0;
  // The first active_buckets_ buckets hold the entries; used_ counts the slots filled since the
  // last clear or growth (an estimate: it ignores entries that went stale); at grow_at_ the
  // table grows.
  static constexpr uint64_t kInitialActiveBytes = uint64_t(16) << 20;
  uint64_t active_buckets_ = 0;
  int64_t used_ = 0;
  int64_t grow_at_ = 0;
  int64_t next_event_ = 0;  // grow_at_, or a quarter of the active slots before populating
  std::thread populating_;
  std::atomic<bool> stop_populating_{false};
  // Whether the populating thread may still write to the buckets it populates (they are not
  // active yet); Grow clears it, under the mutex the thread holds while it writes.
  std::mutex populate_mutex_;
  bool may_write_ = false;
  std::function<void()> populate_page_hook_;
  uint64_t populated_buckets_ = 0;  // buckets below this are mapped (or being mapped)
  // Entries carry the generation they were stored in: base_ or base_ + 1 (the unknown set
  // in use). Each clear moves base_ on by two, so older entries read as empty.
  uint16_t base_ = 1;
  uint16_t current_ = 1;
  bool Final(const TTEntry& e) const { return e.proven() || e.disproven(); }
  // Whether an entry (whose tag is not empty) belongs to the table's present contents.
  bool Valid(const TTEntry& e) const {
    if (Final(e)) return e.generation == base_ || e.generation == base_ + 1;
    return e.generation == current_;
  }
  // Valid in the other unknown set (kept, but the first to be replaced).
  bool OtherSet(const TTEntry& e) const {
    return !Final(e) && e.generation != current_ &&
           (e.generation == base_ || e.generation == base_ + 1);
  }
  // Slot i holds an entry of the present contents, of either unknown set.
  bool Live(const TTBucket& bucket, int i) const {
    const TTEntry& e = bucket.entries[i];
    return !bucket.Empty(i) && (Valid(e) || OtherSet(e));
  }
};

}  // namespace tsume

#endif  // TSUME_SOLVER_TT_H_
