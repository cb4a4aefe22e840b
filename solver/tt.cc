#include "solver/tt.h"

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <new>
#include <system_error>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23  // Linux 5.14
#endif

namespace tsume {
namespace {

// Effort (nodes) on a log scale in 8 bits, 8 steps per doubling: enough to tell cheap entries
// from costly ones, and never decreasing with the effort.
uint8_t AmountScale(uint32_t amount) {
  if (amount < 16) return uint8_t(amount);
  int width = std::bit_width(amount);  // 5..32
  return uint8_t(16 + (width - 5) * 8 + ((amount >> (width - 4)) & 7));
}

}  // namespace

TranspositionTable::TranspositionTable(int64_t megabytes) {
  uint64_t bytes = uint64_t(std::max<int64_t>(megabytes, 1)) << 20;
  buckets_ = std::max<uint64_t>(bytes / sizeof(TTBucket), 1);
  bytes_ = buckets_ * sizeof(TTBucket);
  void* memory = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  buckets_array_ = static_cast<TTBucket*>(memory);
  // Tables larger than the cache pay for address translation on top of the memory access
  // (not measured directly: this machine has no counters); huge pages took 寿 (1 GB) from
  // 20.4 s to 17.3 s and zukou-055 (4 GB) from 41 s to 37 s, same nodes. At the default
  // 256 MB (which once fell just short of the threshold, as the buckets do not fill it
  // exactly): 寿 13.6 -> 13.2 s, zukou-037 29.7 -> 28.8 s, practical mate 11 (first 1000 in
  // one batch) 12.6 -> 11.8 ms mean. Only advice: ignored where unsupported.
  // The price is paid on first touch, whole 2 MB pages zeroed at once: Microcosmos's first 600k
  // nodes take 16.9 s with 8 GB (2.5 s without), but its whole solve with 4 GB 245 s (264 s),
  // measured before the repetition caches made that solve 115 s; with 256 MB the first
  // practical problem of a batch took 42 ms instead of 13.
  if (bytes_ >= kHugePageMinBytes) madvise(memory, bytes_, MADV_HUGEPAGE);
  base_ = 1;
  current_ = 1;
  ResetActive();
}

void TranspositionTable::SetActive(uint64_t buckets) {
  active_buckets_ = std::clamp<uint64_t>(buckets, 1, buckets_);
  grow_at_ =
      active_buckets_ < buckets_ ? active_capacity() / 2 : std::numeric_limits<int64_t>::max();
  // A quarter full: time to map the next growth's memory, unless it is mapped (or there is none).
  next_event_ = std::max(populated_buckets_, active_buckets_) < GrownBuckets()
                    ? active_capacity() / 4
                    : grow_at_;
}

uint64_t TranspositionTable::GrownBuckets() const {
  // One step of sixteen from 16 MB: Zuko at 3M nodes each took 121.1 s so, 122.4 s with steps
  // of sixteen from 1 MB, 123.4 s with steps of four from 1 MB (growing at a quarter full), and
  // 118.8 s with the whole table from the start (the same memory, already touched by the
  // problems before). No small last step: it would move the whole table to gain nothing.
  uint64_t grown = active_buckets_ * 16;
  return grown * 2 > buckets_ ? buckets_ : grown;
}

void TranspositionTable::OnFill() {
  if (used_ >= grow_at_) {
    Grow();
    return;
  }
  StartPopulating(std::max(populated_buckets_, active_buckets_), GrownBuckets());
  next_event_ = grow_at_;
}

void TranspositionTable::StartPopulating(uint64_t from, uint64_t to) {
  if (from >= to) return;
  StopPopulating();
  populated_buckets_ = to;
  stop_populating_ = false;
  constexpr uintptr_t kPage = 4096;
  char* begin =
      reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(buckets_array_ + from) & ~(kPage - 1));
  char* end = reinterpret_cast<char*>(buckets_array_ + to);
  auto populate = [this, begin, end] {
    // In steps of a few huge pages, so that a stop waits little.
    constexpr size_t kStep = size_t(8) << 20;
    for (char* p = begin; p < end && !stop_populating_.load(std::memory_order_relaxed);) {
      size_t n = (std::min<size_t>(kStep, size_t(end - p)) + kPage - 1) & ~(kPage - 1);
      if (madvise(p, n, MADV_POPULATE_WRITE) != 0) return;  // unsupported: mapped on use
      p += n;
    }
  };
  try {
    populating_ = std::thread(populate);
  } catch (const std::system_error&) {
    // No thread to spare: the memory is mapped on first use, as without this.
  }
}

void TranspositionTable::StopPopulating() {
  if (!populating_.joinable()) return;
  stop_populating_ = true;
  populating_.join();
}

void TranspositionTable::ResetActive() {
  SetActive(kInitialActiveBytes / sizeof(TTBucket));
  used_ = 0;
}

void TranspositionTable::Grow() {
  uint64_t old_buckets = active_buckets_;
  SetActive(GrownBuckets());
  // A bucket's entries move to buckets at or after its own index (the index scales with the
  // bucket count), and only its neighbour's may land there too: going from the last bucket
  // down, every bucket written to has been emptied already or lies beyond the old part.
  used_ = 0;
  for (uint64_t b = old_buckets; b-- > 0;) {
    TTBucket moving = buckets_array_[b];
    for (uint64_t& tag : buckets_array_[b].tags) tag = 0;
    for (int i = 0; i < TTBucket::kSize; ++i) {
      if (!Live(moving, i)) continue;
      TTBucket& to = BucketFor(moving.tags[i]);
      // A free slot, else (only where two buckets' entries meet) the one that cost least.
      int slot = -1;
      bool free = false;
      for (int j = 0; j < TTBucket::kSize && !free; ++j) {
        free = !Live(to, j);
        if (free || slot < 0 || to.Amount(j) < to.Amount(slot)) slot = j;
      }
      used_ += free;
      to.tags[slot] = moving.tags[i];
      to.entries[slot] = moving.entries[i];
    }
  }
}

TranspositionTable::~TranspositionTable() {
  StopPopulating();
  munmap(buckets_array_, bytes_);
}

void TranspositionTable::Clear() {
  // Moving the base generation on empties the table in O(1); a full wipe only when it wraps.
  if (base_ >= 0xfffd) {
    // Handing the pages back empties them (zero pages are empty slots) and frees the memory.
    StopPopulating();
    madvise(buckets_array_, bytes_, MADV_DONTNEED);
    populated_buckets_ = 0;
    base_ = 1;
  } else {
    base_ += 2;
  }
  current_ = base_;
  ResetActive();
}

TTProbe TranspositionTable::Probe(uint64_t board_key, Hand hand, int depth) const {
  TTProbe result;
  const TTBucket& bucket = BucketFor(board_key);
  int best_length = kInfiniteDepth;
  for (int i = 0; i < TTBucket::kSize; ++i) {
    if (!bucket.Holds(i, board_key)) continue;
    const TTEntry& e = bucket.entries[i];
    if (!Valid(e)) continue;
    Hand eh(e.hand);
    if (e.proven()) {
      if (hand.Dominates(eh) && e.length_or_depth <= depth && e.length_or_depth < best_length) {
        best_length = e.length_or_depth;
        result = TTProbe{0, kInfinitePnDn, e.length_or_depth, 0, eh, true};
      }
    } else if (e.disproven()) {
      if (best_length == kInfiniteDepth && eh.Dominates(hand) && e.length_or_depth >= depth) {
        result = TTProbe{kInfinitePnDn, 0, 0, e.length_or_depth, eh, true};
        if (e.length_or_depth == kInfiniteDepth) return result;
      }
    } else if (eh == hand) {
      if (!result.found) {
        result.pn = e.pn;
        result.dn = e.dn;
        result.pieces = eh;
        result.found = true;
      }
    } else if (eh.Dominates(hand)) {
      result.pn_floor = std::max(result.pn_floor, e.pn);
    } else if (hand.Dominates(eh)) {
      result.dn_floor = std::max(result.dn_floor, e.dn);
    }
  }
  return result;
}

TTEntry* TranspositionTable::Slot(TTBucket& bucket, uint64_t board_key, Hand hand, uint8_t amount) {
  // Replacement order: empty or stale slots, then the other set's unknown entries, then the
  // entry that cost least to compute.
  int victim = -1;
  int victim_rank = 3;
  for (int i = 0; i < TTBucket::kSize; ++i) {
    TTEntry& e = bucket.entries[i];
    bool valid = !bucket.Empty(i) && Valid(e);
    if (valid && bucket.Holds(i, board_key) && e.hand == hand.bits() && !Final(e)) {
      bucket.tags[i] = std::max(bucket.tags[i], (board_key & ~TTBucket::kAmountMask) | amount);
      return &e;
    }
    int rank = valid ? 2 : !bucket.Empty(i) && OtherSet(e) ? 1 : 0;
    if (rank < victim_rank ||
        (rank == 2 && victim_rank == 2 && bucket.Amount(i) < bucket.Amount(victim))) {
      victim = i;
      victim_rank = rank;
    }
  }
  if (victim_rank == 0) ++used_;
  bucket.tags[victim] = (board_key & ~TTBucket::kAmountMask) | amount;
  TTEntry& e = bucket.entries[victim];
  e = TTEntry{};
  e.generation = current_;
  e.hand = hand.bits();
  return &e;
}

void TranspositionTable::StoreUnknown(uint64_t board_key, Hand hand, PnDn pn, PnDn dn,
                                      uint32_t amount) {
  BeforeStore();
  TTEntry* e = Slot(BucketFor(board_key), board_key, hand, AmountScale(amount));
  e->pn = pn;
  e->dn = dn;
}

void TranspositionTable::StoreProven(uint64_t board_key, Hand pieces, int length, uint32_t amount) {
  BeforeStore();
  TTBucket& bucket = BucketFor(board_key);
  uint8_t scaled = AmountScale(amount);
  for (int i = 0; i < TTBucket::kSize; ++i) {
    const TTEntry& e = bucket.entries[i];
    if (bucket.Holds(i, board_key) && Valid(e) && e.proven() && pieces.Dominates(Hand(e.hand)) &&
        e.length_or_depth <= length) {
      return;  // an at least as strong proof is already stored
    }
  }
  // Drop what this proof makes redundant: unknown entries it covers and weaker proofs.
  for (int i = 0; i < TTBucket::kSize; ++i) {
    TTEntry& e = bucket.entries[i];
    if (!bucket.Holds(i, board_key) || !Valid(e) || e.disproven()) continue;
    Hand eh(e.hand);
    if (eh.Dominates(pieces) && (!e.proven() || e.length_or_depth >= length)) {
      scaled = std::max(scaled, bucket.Amount(i));
      bucket.tags[i] = 0;
      --used_;
    }
  }
  TTEntry* e = Slot(bucket, board_key, pieces, scaled);
  e->pn = 0;
  e->dn = kInfinitePnDn;
  e->length_or_depth = uint16_t(length);
}

void TranspositionTable::StoreDisproven(uint64_t board_key, Hand pieces, int depth,
                                        uint32_t amount) {
  BeforeStore();
  TTBucket& bucket = BucketFor(board_key);
  uint8_t scaled = AmountScale(amount);
  for (int i = 0; i < TTBucket::kSize; ++i) {
    const TTEntry& e = bucket.entries[i];
    if (bucket.Holds(i, board_key) && Valid(e) && e.disproven() && Hand(e.hand).Dominates(pieces) &&
        e.length_or_depth >= depth) {
      return;  // an at least as strong disproof is already stored
    }
  }
  for (int i = 0; i < TTBucket::kSize; ++i) {
    TTEntry& e = bucket.entries[i];
    if (!bucket.Holds(i, board_key) || !Valid(e) || e.proven()) continue;
    Hand eh(e.hand);
    if (pieces.Dominates(eh) && (!e.disproven() || e.length_or_depth <= depth)) {
      scaled = std::max(scaled, bucket.Amount(i));
      bucket.tags[i] = 0;
      --used_;
    }
  }
  TTEntry* e = Slot(bucket, board_key, pieces, scaled);
  e->pn = kInfinitePnDn;
  e->dn = 0;
  e->length_or_depth = uint16_t(depth);
}

double TranspositionTable::Fill() const {
  // Buckets past the active ones hold nothing of the present search.
  uint64_t sample = std::min<uint64_t>(active_buckets_, 1024);
  uint64_t used = 0;
  for (uint64_t b = 0; b < sample; ++b) {
    const TTBucket& bucket = buckets_array_[b];
    for (int i = 0; i < TTBucket::kSize; ++i) {
      used += !bucket.Empty(i) && Valid(bucket.entries[i]);
    }
  }
  return double(used) / double(sample * TTBucket::kSize) * double(active_buckets_) /
         double(buckets_);
}

}  // namespace tsume
