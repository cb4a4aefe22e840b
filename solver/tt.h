// The df-pn transposition table. Entries are keyed by the board key (board + side to move) and
// carry the attacker's hand, so look-ups can use hand dominance: a proof stored with proof
// pieces P proves the same board with any attacker hand holding P; a disproof stored with
// disproof pieces D disproves it for any hand that D holds.
//
// Memory is fixed at construction: a power-of-two array of buckets. When a bucket is full the
// entry that cost least to compute is replaced, so a full table makes the search slower, never
// wrong.
#ifndef TSUME_SOLVER_TT_H_
#define TSUME_SOLVER_TT_H_

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/types.h"

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

struct TTEntry {
  uint64_t board_key = 0;  // 0: empty slot
  uint32_t hand = 0;       // attacker hand (proof pieces when proven, disproof when disproven)
  PnDn pn = 1;
  PnDn dn = 1;
  // Proven: the mate length found (an upper bound of the exact length). Disproven: no mate
  // within this many plies (kInfiniteDepth: none at all). Unknown: unused.
  uint16_t length_or_depth = 0;
  uint16_t generation = 0;
  uint32_t amount = 0;  // search effort spent below this entry (replacement priority)

  bool proven() const { return pn == 0; }
  bool disproven() const { return dn == 0; }
};
static_assert(sizeof(TTEntry) == 32);

// What a look-up found for a position searched with a remaining depth.
struct TTProbe {
  PnDn pn = 1;
  PnDn dn = 1;
  uint16_t length = 0;  // when pn == 0
  uint16_t depth = 0;   // when dn == 0
  Hand pieces;          // proof or disproof pieces when final
  uint32_t amount = 0;
  bool found = false;
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
  // Look-up for `board_key` with attacker hand `hand`, needing a mate within `depth` plies.
  TTProbe Probe(uint64_t board_key, Hand hand, int depth) const;
  // Starts loading the bucket of `board_key` into the cache (probes follow shortly). A probe
  // reads the whole bucket, four cache lines: fetching them all at once took zukou-037's
  // first 10M nodes from 10.2 s to 7.0 s, and 6% off practical mate-in-11 problems.
  void Prefetch(uint64_t board_key) const {
    const char* bucket = reinterpret_cast<const char*>(Bucket(board_key));
    for (size_t line = 0; line < kBucketSize * sizeof(TTEntry); line += 64) {
      __builtin_prefetch(bucket + line);
    }
  }
  // Unknown result for exactly (board, hand).
  void StoreUnknown(uint64_t board_key, Hand hand, PnDn pn, PnDn dn, uint32_t amount);
  // Proof with proof pieces and mate length.
  void StoreProven(uint64_t board_key, Hand proof_pieces, int length, uint32_t amount);
  // Disproof with disproof pieces, valid for mates within `depth` plies.
  void StoreDisproven(uint64_t board_key, Hand disproof_pieces, int depth, uint32_t amount);

  // Fraction of slots in use, estimated from a sample.
  double Fill() const;
  int64_t capacity() const { return int64_t(buckets_) * kBucketSize; }

 private:
  static constexpr int kBucketSize = 8;
  TTEntry* Bucket(uint64_t board_key) const { return &entries_[(board_key & mask_) * kBucketSize]; }
  TTEntry* Slot(uint64_t board_key, Hand hand);

  // Anonymous memory: zero (empty) until first touched, so resident memory grows with use.
  // Huge pages only from kHugePageMinBytes: below it they gained nothing on practical
  // problems, and synchronous compaction once made the first solve of a process take up to a
  // second.
  static constexpr size_t kHugePageMinBytes = size_t(512) << 20;
  TTEntry* entries_ = nullptr;
  size_t bytes_ = 0;
  uint64_t buckets_ = 0;
  uint64_t mask_ = 0;
  // Entries carry the generation they were stored in: base_ or base_ + 1 (the unknown set
  // in use). Each clear moves base_ on by two, so older entries read as empty.
  uint16_t base_ = 1;
  uint16_t current_ = 1;
  bool Final(const TTEntry& e) const { return e.proven() || e.disproven(); }
  bool Valid(const TTEntry& e) const {
    if (e.board_key == 0) return false;
    if (Final(e)) return e.generation == base_ || e.generation == base_ + 1;
    return e.generation == current_;
  }
  // Valid in the other unknown set (kept, but the first to be replaced).
  bool OtherSet(const TTEntry& e) const {
    return e.board_key != 0 && !Final(e) && e.generation != current_ &&
           (e.generation == base_ || e.generation == base_ + 1);
  }
};

}  // namespace tsume

#endif  // TSUME_SOLVER_TT_H_
