#include "solver/tt.h"

#include <sys/mman.h>

#include <algorithm>
#include <bit>
#include <cstddef>
#include <limits>
#include <new>
#include <system_error>

#ifdef __AVX2__
#include <immintrin.h>
#endif

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

// The board key whose tag bucket `b` of `buckets` holds: the tag keeps the key's lower 56
// bits, the bucket tells the rest, as a bucket's keys span less than 2^56 (more than 256
// buckets). The key's top byte is the top byte of the bucket's lowest key, or one more.
uint64_t KeyOfTag(uint64_t tag, uint64_t b, uint64_t buckets) {
  constexpr uint64_t kTopByteStep = uint64_t(1) << 56;
  auto index = [buckets](uint64_t key) { return uint64_t((unsigned __int128)key * buckets >> 64); };
  uint64_t key = ((b << 8) / buckets) << 56 | tag >> 8;
  if (index(key) < b) key += kTopByteStep;
  return key;
}

// A bucket's slots for Slot, bit i for slot i. Entries are told apart by their generations:
// base and base + 1 are the table's present contents, `current` (one of them) the unknown set
// in use.
struct SlotMasks {
  uint32_t live = 0;          // TranspositionTable::Live
  uint32_t other_set = 0;     // live, and TranspositionTable::OtherSet
  uint32_t same_unknown = 0;  // live unknown entry of the set in use, of exactly the hand asked
};

#ifdef __AVX2__
// A bucket's entries' fields side by side, one 32-bit lane per slot in the slot order, for
// Classify and Probe to test all eight at once.
struct EntryLanes {
  __m256i hands, pns, dns;
  __m256i lengths_and_generations;  // length_or_depth in the low half, generation above
};

[[gnu::always_inline]] inline EntryLanes Transpose(const TTBucket& bucket) {
  static_assert(offsetof(TTEntry, hand) == 0 && offsetof(TTEntry, pn) == 4 &&
                offsetof(TTEntry, dn) == 8 && offsetof(TTEntry, length_or_depth) == 12 &&
                offsetof(TTEntry, generation) == 14);
  // Each 128-bit half is transposed on its own, so the low halves are loaded with slots 0-3
  // and the high ones with 4-7 (loaded in order, the lanes came out as 0, 2, 4, 6, 1, 3, 5, 7,
  // and putting the masks back in order took more instructions than these loads).
  const __m128i* entries = reinterpret_cast<const __m128i*>(bucket.entries);
  auto slots_i_and_4_more = [entries](int i) {
    return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_load_si128(entries + i)),
                                   _mm_load_si128(entries + i + 4), 1);
  };
  __m256i v0 = slots_i_and_4_more(0), v1 = slots_i_and_4_more(1);
  __m256i v2 = slots_i_and_4_more(2), v3 = slots_i_and_4_more(3);
  __m256i t0 = _mm256_unpacklo_epi32(v0, v1), t1 = _mm256_unpackhi_epi32(v0, v1);
  __m256i t2 = _mm256_unpacklo_epi32(v2, v3), t3 = _mm256_unpackhi_epi32(v2, v3);
  return {_mm256_unpacklo_epi64(t0, t2), _mm256_unpackhi_epi64(t0, t2),
          _mm256_unpacklo_epi64(t1, t3), _mm256_unpackhi_epi64(t1, t3)};
}
#endif

SlotMasks Classify(const TTBucket& bucket, uint16_t base, uint16_t current, Hand hand) {
  uint32_t present = 0, other_set = 0, same_unknown = 0, empty = 0;
#ifdef __AVX2__
  // All eight at once: a slot by slot loop spent most of Slot's time in its branches.
  const auto [hands, pns, dns, lengths_and_generations] = Transpose(bucket);
  __m256i generations = _mm256_srli_epi32(lengths_and_generations, 16);
  const __m256i zero = _mm256_setzero_si256();
  __m256i is_final = _mm256_or_si256(_mm256_cmpeq_epi32(pns, zero), _mm256_cmpeq_epi32(dns, zero));
  __m256i in_use = _mm256_cmpeq_epi32(generations, _mm256_set1_epi32(current));
  auto slots = [](__m256i lanes) {
    return uint32_t(_mm256_movemask_ps(_mm256_castsi256_ps(lanes)));
  };
  present = slots(_mm256_or_si256(_mm256_cmpeq_epi32(generations, _mm256_set1_epi32(base)),
                                  _mm256_cmpeq_epi32(generations, _mm256_set1_epi32(base + 1))));
  other_set = ~slots(_mm256_or_si256(is_final, in_use));
  same_unknown =
      slots(_mm256_and_si256(_mm256_andnot_si256(is_final, in_use),
                             _mm256_cmpeq_epi32(hands, _mm256_set1_epi32(int32_t(hand.bits())))));
  const __m256i* tags = reinterpret_cast<const __m256i*>(bucket.tags);
  empty = uint32_t(_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(tags[0], zero)))) |
          uint32_t(_mm256_movemask_pd(_mm256_castsi256_pd(_mm256_cmpeq_epi64(tags[1], zero)))) << 4;
#else
  for (int i = 0; i < TTBucket::kSize; ++i) {
    const TTEntry& e = bucket.entries[i];
    bool is_final = e.proven() || e.disproven();
    bool in_use = e.generation == current;
    present |= uint32_t(e.generation == base || e.generation == base + 1) << i;
    other_set |= uint32_t(!is_final && !in_use) << i;
    same_unknown |= uint32_t(!is_final && in_use && e.hand == hand.bits()) << i;
    empty |= uint32_t(bucket.Empty(i)) << i;
  }
#endif
  // An entry of the present contents is either valid or of the other set.
  uint32_t live = present & ~empty & ((1u << TTBucket::kSize) - 1);
  return {live, live & other_set, live & same_unknown};
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
  if (bytes_ >= kHugePageMinBytes) {
    // The starting part's pages are mapped now, by a write to each, not by the first search,
    // which paid for them in its own time: the first problem of a batch (a mate in 3, 10
    // nodes) took 37 ms where the others took 0.06. Smaller tables map 4 KB pages as used.
    char* start = reinterpret_cast<char*>(buckets_array_);
    char* end = reinterpret_cast<char*>(buckets_array_ + active_buckets_);
    for (char* p = start; p < end; p += 4096) *reinterpret_cast<volatile char*>(p) = 0;
  }
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
  may_write_ = true;
  constexpr uintptr_t kPage = 4096;
  // From the first bucket itself: the page it starts on may hold active buckets too.
  char* first = reinterpret_cast<char*>(buckets_array_ + from);
  char* end = reinterpret_cast<char*>(buckets_array_ + to);
  auto populate = [this, first, end] {
    // A write to each page while the buckets are not in use: the system maps the page on the
    // fault, which holds only that mapping's lock, where MADV_POPULATE_WRITE holds the
    // process's memory-map lock for its whole range, and the search thread waited for it at
    // every growth of its heap (malloc's mprotect): 0.36 s of 寿's first 1.8 s under strace,
    // and a 300 ms solve found a third of the nodes when the system zeroed pages slowly.
    char* p = first;
    while (p < end && !stop_populating_.load(std::memory_order_relaxed)) {
      if (populate_page_hook_) populate_page_hook_();
      std::lock_guard<std::mutex> lock(populate_mutex_);
      if (!may_write_) break;
      *reinterpret_cast<volatile char*>(p) = 0;  // zero already: never used since reserved
      p = reinterpret_cast<char*>((reinterpret_cast<uintptr_t>(p) & ~(kPage - 1)) + kPage);
    }
    // In use since (Grow): the rest is asked of the system, which leaves contents alone, a
    // huge page at a time so that the lock is not held long.
    p = reinterpret_cast<char*>(reinterpret_cast<uintptr_t>(p) & ~(kPage - 1));
    constexpr size_t kStep = size_t(2) << 20;
    while (p < end && !stop_populating_.load(std::memory_order_relaxed)) {
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
  {
    // The buckets being populated may become active: from now on they are not written to.
    std::lock_guard<std::mutex> lock(populate_mutex_);
    may_write_ = false;
  }
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
      TTBucket& to = BucketFor(KeyOfTag(moving.tags[i], b, old_buckets));
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
  const TTBucket& bucket = BucketFor(board_key);
  const uint32_t held = bucket.Holding(board_key);
  if (held == 0) return TTProbe{};
#ifdef __AVX2__
  // The held slots side by side, as in Classify. Without a proof or disproof that may apply
  // (most probes), the result is the exact hand's unknown entry and the other hands' floors,
  // found without a branch per slot; else the slots are read in order (ProbeSlots). 寿, 300k
  // nodes: Probe took 68.6M instructions slot by slot, 56.5M so (ProbeSlots included).
  const auto [hands, pns, dns, lengths_and_generations] = Transpose(bucket);
  __m256i generations = _mm256_srli_epi32(lengths_and_generations, 16);
  const __m256i zero = _mm256_setzero_si256();
  // The generations' halves cleared (a blend: one instruction where a mask took four).
  __m256i lengths = _mm256_blend_epi16(lengths_and_generations, zero, 0xaa);
  auto slots = [](__m256i lanes) {
    return uint32_t(_mm256_movemask_ps(_mm256_castsi256_ps(lanes)));
  };
  // From memory: a folded load, where a broadcast took three instructions.
  constexpr uint32_t kGuards = Hand::kGuards;
  alignas(32) static constexpr uint32_t kGuardLanes[8] = {kGuards, kGuards, kGuards, kGuards,
                                                          kGuards, kGuards, kGuards, kGuards};
  const __m256i guards = _mm256_load_si256(reinterpret_cast<const __m256i*>(kGuardLanes));
  const __m256i probe_hand = _mm256_set1_epi32(int32_t(hand.bits()));
  // Lanes whose hand holds the probe's, and whose hand the probe's holds (Hand::Dominates).
  __m256i above =
      _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_sub_epi32(hands, probe_hand), guards), zero);
  __m256i below =
      _mm256_cmpeq_epi32(_mm256_and_si256(_mm256_sub_epi32(probe_hand, hands), guards), zero);
  __m256i proven = _mm256_cmpeq_epi32(pns, zero);
  __m256i disproven = _mm256_cmpeq_epi32(dns, zero);
  __m256i depth_v = _mm256_set1_epi32(depth);
  // A superset of the finals ProbeSlots would take: proofs within the depth of a hand the
  // probe's holds, disproofs to at least the depth of a hand holding the probe's, of any
  // generation (a stale one of the same board is rare).
  __m256i may_prove =
      _mm256_andnot_si256(_mm256_cmpgt_epi32(lengths, depth_v), _mm256_and_si256(proven, below));
  __m256i may_disprove =
      _mm256_andnot_si256(_mm256_cmpgt_epi32(depth_v, lengths), _mm256_and_si256(disproven, above));
  uint32_t finals = slots(_mm256_or_si256(may_prove, may_disprove));
  if ((finals & held) != 0) return ProbeSlots(bucket, held, hand, depth);
  // The unknown entries of the set in use.
  __m256i unknown =
      _mm256_andnot_si256(_mm256_or_si256(proven, disproven),
                          _mm256_cmpeq_epi32(generations, _mm256_set1_epi32(current_)));
  __m256i same = _mm256_cmpeq_epi32(hands, probe_hand);
  TTProbe result;
  uint32_t exact = slots(_mm256_and_si256(unknown, same)) & held;
  if (exact != 0) {
    // The floors are read only for a position not found: not worked out.
    const TTEntry& e = bucket.entries[std::countr_zero(exact)];
    result.pn = e.pn;
    result.dn = e.dn;
    result.pieces = hand;
    result.found = true;
    return result;
  }
  // The floors: the largest proof number of a stronger hand, disproof number of a weaker one
  // (a lane of the exact hand counts as neither, as it holds and is held by the probe's).
  const __m256i held_lanes =
      _mm256_cmpgt_epi32(_mm256_and_si256(_mm256_set1_epi32(int32_t(held)),
                                          _mm256_setr_epi32(1, 2, 4, 8, 16, 32, 64, 128)),
                         zero);
  __m256i others = _mm256_andnot_si256(same, _mm256_and_si256(unknown, held_lanes));
  __m256i pn_lanes = _mm256_and_si256(pns, _mm256_and_si256(others, above));
  __m256i dn_lanes =
      _mm256_and_si256(dns, _mm256_andnot_si256(above, _mm256_and_si256(others, below)));
  // Both maxima at once: pn lanes in the low half, dn lanes in the high half.
  __m256i m = _mm256_max_epu32(_mm256_permute2x128_si256(pn_lanes, dn_lanes, 0x20),
                               _mm256_permute2x128_si256(pn_lanes, dn_lanes, 0x31));
  m = _mm256_max_epu32(m, _mm256_shuffle_epi32(m, 0x4e));
  m = _mm256_max_epu32(m, _mm256_shuffle_epi32(m, 0xb1));
  result.pn_floor = PnDn(_mm256_extract_epi32(m, 0));
  result.dn_floor = PnDn(_mm256_extract_epi32(m, 4));
  return result;
#else
  return ProbeSlots(bucket, held, hand, depth);
#endif
}

// Inline in Probe: as a call, GCC realigned Probe's stack for its vectors on every probe (寿 300k
// nodes: 931.82M -> 927.46M instructions).
[[gnu::always_inline]] inline TTProbe TranspositionTable::ProbeSlots(const TTBucket& bucket,
                                                                     uint32_t held, Hand hand,
                                                                     int depth) const {
  TTProbe result;
  int best_length = kInfiniteDepth;
  for (; held != 0; held &= held - 1) {
    int i = std::countr_zero(held);
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
  SlotMasks masks = Classify(bucket, base_, current_, hand);
  for (uint32_t same = masks.same_unknown; same != 0; same &= same - 1) {
    int i = std::countr_zero(same);
    if (!bucket.Holds(i, board_key)) continue;
    bucket.tags[i] = std::max(bucket.tags[i], TTBucket::Tag(board_key, amount));
    return &bucket.entries[i];
  }
  // Replacement order: empty or stale slots, then the other set's unknown entries, then the
  // entry that cost least to compute (the first of the least).
  uint32_t free = ~masks.live & ((1u << TTBucket::kSize) - 1);
  int victim = 0;
  if (free != 0) {
    victim = std::countr_zero(free);
    ++used_;
  } else if (masks.other_set != 0) {
    victim = std::countr_zero(masks.other_set);
  } else {
    for (int i = 1; i < TTBucket::kSize; ++i) {
      if (bucket.Amount(i) < bucket.Amount(victim)) victim = i;
    }
  }
  bucket.tags[victim] = TTBucket::Tag(board_key, amount);
  TTEntry& e = bucket.entries[victim];
  e = TTEntry{};
  e.generation = current_;
  e.hand = hand.bits();
  return &e;
}

void TranspositionTable::StoreUnknown(uint64_t board_key, Hand hand, PnDn pn, PnDn dn,
                                      uint32_t amount) {
  // The growth events in a call of their own, at the end: the common store then calls nothing
  // and saves fewer registers (寿 300k nodes: 984.12M -> 981.97M instructions).
  if (used_ >= next_event_) [[unlikely]]
    return StoreUnknownAfterFill(board_key, hand, pn, dn, amount);
  TTEntry* e = Slot(BucketFor(board_key), board_key, hand, AmountScale(amount));
  e->pn = pn;
  e->dn = dn;
}

void TranspositionTable::StoreUnknownAfterFill(uint64_t board_key, Hand hand, PnDn pn, PnDn dn,
                                               uint32_t amount) {
  OnFill();
  TTEntry* e = Slot(BucketFor(board_key), board_key, hand, AmountScale(amount));
  e->pn = pn;
  e->dn = dn;
}

void TranspositionTable::StoreProven(uint64_t board_key, Hand pieces, int length, uint32_t amount) {
  BeforeStore();
  TTBucket& bucket = BucketFor(board_key);
  uint8_t scaled = AmountScale(amount);
  const uint32_t held = bucket.Holding(board_key);
  for (uint32_t rest = held; rest != 0; rest &= rest - 1) {
    const TTEntry& e = bucket.entries[std::countr_zero(rest)];
    if (Valid(e) && e.proven() && pieces.Dominates(Hand(e.hand)) && e.length_or_depth <= length) {
      return;  // an at least as strong proof is already stored
    }
  }
  // Drop what this proof makes redundant: unknown entries it covers and weaker proofs.
  for (uint32_t rest = held; rest != 0; rest &= rest - 1) {
    int i = std::countr_zero(rest);
    TTEntry& e = bucket.entries[i];
    if (!Valid(e) || e.disproven()) continue;
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
  const uint32_t held = bucket.Holding(board_key);
  for (uint32_t rest = held; rest != 0; rest &= rest - 1) {
    const TTEntry& e = bucket.entries[std::countr_zero(rest)];
    if (Valid(e) && e.disproven() && Hand(e.hand).Dominates(pieces) && e.length_or_depth >= depth) {
      return;  // an at least as strong disproof is already stored
    }
  }
  for (uint32_t rest = held; rest != 0; rest &= rest - 1) {
    int i = std::countr_zero(rest);
    TTEntry& e = bucket.entries[i];
    if (!Valid(e) || e.proven()) continue;
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
