#include "solver/tt.h"

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <new>

namespace tsume {

TranspositionTable::TranspositionTable(int64_t megabytes) {
  uint64_t bytes = uint64_t(std::max<int64_t>(megabytes, 1)) << 20;
  uint64_t buckets = bytes / (sizeof(TTEntry) * kBucketSize);
  buckets_ = std::bit_floor(std::max<uint64_t>(buckets, 1));
  mask_ = buckets_ - 1;
  bytes_ = buckets_ * kBucketSize * sizeof(TTEntry);
  void* memory = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (memory == MAP_FAILED) throw std::bad_alloc();
  entries_ = static_cast<TTEntry*>(memory);
  // Tables larger than the cache pay for address translation on top of the memory access
  // (not measured directly: this machine has no counters); huge pages took 寿 (1 GB) from
  // 20.4 s to 17.3 s and zukou-055 (4 GB) from 41 s to 37 s, same nodes. At 256 MB they gained
  // nothing (寿 17.7 s without, 18.1 s with), so such tables keep ordinary pages, which never
  // wait for the kernel to find free 2 MB blocks. Only advice: ignored where unsupported.
  if (bytes_ >= kHugePageMinBytes) madvise(memory, bytes_, MADV_HUGEPAGE);
  base_ = 1;
  current_ = 1;
}

TranspositionTable::~TranspositionTable() { munmap(entries_, bytes_); }

void TranspositionTable::Clear() {
  // Moving the base generation on empties the table in O(1); a full wipe only when it wraps.
  if (base_ >= 0xfffd) {
    // Handing the pages back empties them (zero pages are empty slots) and frees the memory.
    madvise(entries_, bytes_, MADV_DONTNEED);
    base_ = 1;
  } else {
    base_ += 2;
  }
  current_ = base_;
}

TTProbe TranspositionTable::Probe(uint64_t board_key, Hand hand, int depth) const {
  TTProbe result;
  const TTEntry* bucket = Bucket(board_key);
  int best_length = kInfiniteDepth;
  for (int i = 0; i < kBucketSize; ++i) {
    const TTEntry& e = bucket[i];
    if (e.board_key != board_key || !Valid(e)) continue;
    Hand eh(e.hand);
    if (e.proven()) {
      if (hand.Dominates(eh) && e.length_or_depth <= depth && e.length_or_depth < best_length) {
        best_length = e.length_or_depth;
        result = TTProbe{0, kInfinitePnDn, e.length_or_depth, 0, eh, e.amount, true};
      }
    } else if (e.disproven()) {
      if (best_length == kInfiniteDepth && eh.Dominates(hand) && e.length_or_depth >= depth) {
        result = TTProbe{kInfinitePnDn, 0, 0, e.length_or_depth, eh, e.amount, true};
        if (e.length_or_depth == kInfiniteDepth) return result;
      }
    } else if (!result.found && eh == hand) {
      result = TTProbe{e.pn, e.dn, 0, 0, eh, e.amount, true};
    }
  }
  return result;
}

TTEntry* TranspositionTable::Slot(uint64_t board_key, Hand hand) {
  TTEntry* bucket = Bucket(board_key);
  // Replacement order: empty or stale slots, then the other set's unknown entries, then the
  // entry that cost least to compute.
  TTEntry* victim = nullptr;
  int victim_rank = 3;
  for (int i = 0; i < kBucketSize; ++i) {
    TTEntry& e = bucket[i];
    bool valid = Valid(e);
    if (valid && e.board_key == board_key && e.hand == hand.bits() && !Final(e)) return &e;
    int rank = valid ? 2 : OtherSet(e) ? 1 : 0;
    if (rank < victim_rank || (rank == 2 && victim_rank == 2 && e.amount < victim->amount)) {
      victim = &e;
      victim_rank = rank;
    }
  }
  *victim = TTEntry{};
  victim->board_key = board_key;
  victim->generation = current_;
  victim->hand = hand.bits();
  return victim;
}

void TranspositionTable::StoreUnknown(uint64_t board_key, Hand hand, PnDn pn, PnDn dn,
                                      uint32_t amount) {
  TTEntry* e = Slot(board_key, hand);
  e->pn = pn;
  e->dn = dn;
  e->amount = std::max(e->amount, amount);
}

void TranspositionTable::StoreProven(uint64_t board_key, Hand pieces, int length, uint32_t amount) {
  TTEntry* bucket = Bucket(board_key);
  for (int i = 0; i < kBucketSize; ++i) {
    const TTEntry& e = bucket[i];
    if (e.board_key == board_key && Valid(e) && e.proven() && pieces.Dominates(Hand(e.hand)) &&
        e.length_or_depth <= length) {
      return;  // an at least as strong proof is already stored
    }
  }
  // Drop what this proof makes redundant: unknown entries it covers and weaker proofs.
  for (int i = 0; i < kBucketSize; ++i) {
    TTEntry& e = bucket[i];
    if (e.board_key != board_key || !Valid(e) || e.disproven()) continue;
    Hand eh(e.hand);
    if (eh.Dominates(pieces) && (!e.proven() || e.length_or_depth >= length)) {
      amount = std::max(amount, e.amount);
      e = TTEntry{};
    }
  }
  TTEntry* e = Slot(board_key, pieces);
  e->pn = 0;
  e->dn = kInfinitePnDn;
  e->length_or_depth = uint16_t(length);
  e->amount = amount;
}

void TranspositionTable::StoreDisproven(uint64_t board_key, Hand pieces, int depth,
                                        uint32_t amount) {
  TTEntry* bucket = Bucket(board_key);
  for (int i = 0; i < kBucketSize; ++i) {
    const TTEntry& e = bucket[i];
    if (e.board_key == board_key && Valid(e) && e.disproven() && Hand(e.hand).Dominates(pieces) &&
        e.length_or_depth >= depth) {
      return;  // an at least as strong disproof is already stored
    }
  }
  for (int i = 0; i < kBucketSize; ++i) {
    TTEntry& e = bucket[i];
    if (e.board_key != board_key || !Valid(e) || e.proven()) continue;
    Hand eh(e.hand);
    if (pieces.Dominates(eh) && (!e.disproven() || e.length_or_depth <= depth)) {
      amount = std::max(amount, e.amount);
      e = TTEntry{};
    }
  }
  TTEntry* e = Slot(board_key, pieces);
  e->pn = kInfinitePnDn;
  e->dn = 0;
  e->length_or_depth = uint16_t(depth);
  e->amount = amount;
}

double TranspositionTable::Fill() const {
  uint64_t sample = std::min<uint64_t>(buckets_, 1024);
  uint64_t used = 0;
  for (uint64_t i = 0; i < sample * kBucketSize; ++i) used += Valid(entries_[i]);
  return double(used) / double(sample * kBucketSize);
}

}  // namespace tsume
