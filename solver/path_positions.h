// The positions on the search's current path, by full key, with the ply each was reached at.
// df-pn asks it about every child (a repetition is a failure for the attacker) and adds and
// removes a position at every step down and up, so it is an open-addressing table of its own:
// the keys are already random (Zobrist), they come and go in stack order, and the table stays
// small enough for the processor's nearest caches. (In absl::flat_hash_map, hashing and
// group probes for these operations took about 3% of 寿's time in a profile.)
#ifndef TSUME_SOLVER_PATH_POSITIONS_H_
#define TSUME_SOLVER_PATH_POSITIONS_H_

#include <cstddef>
#include <cstdint>
#include <vector>

namespace tsume {

class PathPositions {
 public:
  PathPositions() : slots_(kInitialSlots), mask_(kInitialSlots - 1) {}

  // The ply stored for `key`, or -1 when it is not on the path.
  int Find(uint64_t key) const {
    for (size_t i = Home(key);; i = Next(i)) {
      const Slot& s = slots_[i];
      if (s.ply < 0) return -1;
      if (s.key == key) return s.ply;
    }
  }
  // Adds `key` at `ply` unless it is already there (then the ply stored first stays).
  void Insert(uint64_t key, int ply) {
    if (2 * (size_ + 1) > slots_.size()) Rehash(2 * slots_.size());
    size_t i = Home(key);
    for (; slots_[i].ply >= 0; i = Next(i)) {
      if (slots_[i].key == key) return;
    }
    slots_[i] = Slot{key, ply};
    ++size_;
  }
  // Removes `key` if present.
  void Erase(uint64_t key) {
    size_t i = Home(key);
    for (;; i = Next(i)) {
      if (slots_[i].ply < 0) return;
      if (slots_[i].key == key) break;
    }
    // Backward-shift deletion: later entries of the probe run move up, so that every entry
    // stays reachable from its home slot without tombstones.
    for (size_t j = Next(i);; j = Next(j)) {
      if (slots_[j].ply < 0) break;
      size_t home = Home(slots_[j].key);
      // Move slot j into the hole at i when its home does not lie cyclically in (i, j].
      bool home_in_between = i <= j ? (i < home && home <= j) : (i < home || home <= j);
      if (!home_in_between) {
        slots_[i] = slots_[j];
        i = j;
      }
    }
    slots_[i] = Slot{};
    --size_;
  }
  void Clear() {
    slots_.assign(slots_.size(), Slot{});
    size_ = 0;
  }
  size_t size() const { return size_; }

 private:
  struct Slot {
    uint64_t key = 0;
    int ply = -1;  // -1: empty
  };
  static constexpr size_t kInitialSlots = 1024;
  // The mask kept apart: from slots_.size() it took a subtraction and a shift more per use
  // (寿's first 300k nodes: 0.3% of all instructions).
  size_t Home(uint64_t key) const { return key & mask_; }
  size_t Next(size_t i) const { return (i + 1) & mask_; }
  // Out of line: rare, and it calls Insert, which then stays small enough to inline.
  [[gnu::noinline]] void Rehash(size_t slots) {
    std::vector<Slot> old = std::move(slots_);
    slots_.assign(slots, Slot{});
    mask_ = slots - 1;
    size_ = 0;
    for (const Slot& s : old) {
      if (s.ply >= 0) Insert(s.key, s.ply);
    }
  }

  std::vector<Slot> slots_;  // a power of two, at most half full
  size_t mask_;              // slots_.size() - 1
  size_t size_ = 0;
};

}  // namespace tsume

#endif  // TSUME_SOLVER_PATH_POSITIONS_H_
