// Depth-first proof-number search (Nagai's df-pn) with the 1+epsilon threshold trick, hand
// dominance through proof and disproof pieces, an optional depth limit ("a mate within N
// plies") and path-aware repetition handling.
//
// Repetition: a position repeated on the current path is a failure for the attacker (perpetual
// check). That verdict depends on the path, so a disproof that used it is "tainted": it is
// never stored in the main table, only in two caches: one keyed by the path (the hash of the
// move sequence from the root), where the same history gives the same answer, and one keyed
// by the position with the set of positions it depends on, which must be on the path again
// for the answer to hold (so other paths through the same loop share it). Except at the
// repeated position itself: returning to it cannot help a mate from it (a shortest mate tree
// never revisits its root), so its disproof is path-independent and goes to the main table
// (Kishimoto & Müller's observation on GHI; it keeps long loopy problems from re-searching).
#ifndef TSUME_SOLVER_DFPN_H_
#define TSUME_SOLVER_DFPN_H_

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "absl/container/flat_hash_map.h"
#include "absl/time/time.h"
#include "core/movegen.h"
#include "core/position.h"
#include "solver/path_positions.h"
#include "solver/solver.h"
#include "solver/tt.h"

namespace tsume {

// A node's outcome.
struct NodeResult {
  PnDn pn = 1;
  PnDn dn = 1;
  int length = 0;        // when proven: a mate length (upper bound of the exact one)
  int depth = 0;         // when disproven: no mate within this many plies
  Hand pieces;           // proof or disproof pieces when final
  bool tainted = false;  // disproof depends on the path (repetition)
  // When tainted: the ply (Position::ply) of the earliest repeated position it depends on.
  // The node at that ply drops the taint: a shortest mate never passes its start again.
  int loop_ply = 0;
  bool proven() const { return pn == 0; }
  bool disproven() const { return dn == 0; }
};

struct SearchLimits {
  int64_t max_nodes = 0;  // 0: none
  absl::Time deadline = absl::InfiniteFuture();
  const std::atomic<bool>* stop = nullptr;
  std::function<void(int64_t nodes)> on_tick;  // called every few thousand nodes
};

class DfpnSearch {
 public:
  DfpnSearch(TranspositionTable& tt, Rules rules, SearchLimits limits);

  // Searches `pos` for a mate within `depth` plies (kInfiniteDepth: any length). `or_node`:
  // the attacker is to move. `pos` keeps its history: positions already played count for
  // repetition, and `path_key` identifies that history.
  // `budget` > 0: give up (unknown, not a limit) after that many more nodes.
  NodeResult Run(Position& pos, int depth, bool or_node, uint64_t path_key, int64_t budget = 0);

  // What the table alone knows about `pos` for a mate within `depth` plies (no search; a
  // position on the current path is not looked at). Unknown when nothing is stored.
  NodeResult Peek(const Position& pos, int depth, bool or_node) const;

  int64_t nodes() const { return nodes_; }
  // How often a child took a repetition-dependent disproof from the cache of those kept by
  // the positions they depend on (for tests and diagnostics).
  int64_t segment_disproofs_found() const { return segment_disproofs_found_; }

  // For depth-limited searches that mostly end in a disproof: an OR node with at most `plies`
  // plies left searches a check it picks until that check is settled (0: never). Such a node
  // is disproven only once every check is, so switching between its checks is wasted there.
  void set_settle_or_plies(int plies) { settle_or_plies_ = plies; }
  LimitReason limit_reason() const { return limit_; }
  // The first limit any Run of this search stopped on (kNone: none did). Unlike the last
  // Run's, it stays: a Run after the deadline that needs fewer than the nodes between two
  // looks at the clock still finishes.
  LimitReason first_limit_reason() const {
    return first_limit_ != LimitReason::kNone ? first_limit_ : limit_;
  }
  bool limit_reached() const { return limit_ != LimitReason::kNone; }

  static uint64_t ChildPathKey(uint64_t path_key, Move m);

 private:
  enum class ChildKind : uint8_t {
    kReal,          // a move
    kHypothetical,  // tsume rules: `move` (an attacker capture on `square`) instead of a drop
    kUnavailable,   // a hypothetical child replaced by the real interpositions
  };
  struct Child {
    // Not value-initialised: Mid makes children in place and fills in the keys (zeroing them
    // first cost more).
    Child() {}
    ChildKind kind = ChildKind::kReal;
    Square square = kNoSquare;
    Move move;
    uint64_t board_key;
    uint64_t full_key;  // board and hands (real children only)
    uint64_t path_key;
    // OR nodes: the index of the same check with the other promotion choice (-1: none).
    int twin = -1;
    Hand hand;  // attacker hand in the child
    NodeResult result;
    // A new child's numbers start no lower than the other hands' entries allow (TTProbe;
    // the proof number's only in the unbounded search). Set by LookUp when it finds nothing.
    PnDn pn_floor = 0, dn_floor = 0;
    void RaiseToFloors(NodeResult& r) const {
      r.pn = std::max(r.pn, pn_floor);
      r.dn = std::max(r.dn, dn_floor);
    }
    // A hypothetical capture on `square`, whatever its kind has become since.
    bool was_hypothetical() const { return square != kNoSquare && !move.is_drop(); }
  };

  NodeResult Mid(Position& pos, PnDn thpn, PnDn thdn, int depth, bool or_node, uint64_t path_key);
  // `ply`: pos.ply(), the node's (read once per node: it costs a division).
  void InitChild(Position& pos, int ply, Child& child, int child_depth, bool child_or);
  // Repetition, path table and TT look-up for a child; false when nothing is known.
  // `parent_ply`: the last ply on the path before the child.
  bool LookUp(Child& child, uint64_t full_key, int child_depth, int parent_ply);
  // The defender to move is mated: no legal reply, or (tsume rules) only useless drops.
  // `evasions`: the defender's legal moves when already generated.
  bool IsMatedUnderRules(Position& pos, int nesting = 0, const MoveList* evasions = nullptr);
  // The rest of IsMatedUnderRules, out of line: the defender, in check from a ranged piece,
  // has legal moves.
  bool OnlyUselessDrops(Position& pos, int nesting, const MoveList* evasions);
  // Mate-in-1 / no-check test of an OR node just reached; returns a final result or unknown.
  NodeResult QuickOrNode(Position& pos, int depth);
  // True when the search must stop. Inline for its common case: no limit reached and no
  // clock or tick due at this node count.
  bool CheckLimits() {
    if ((nodes_ & 1023) != 0 && nodes_ < node_limit_ && limit_ == LimitReason::kNone &&
        !budget_spent_) {
      return false;
    }
    return CheckLimitsInFull();
  }
  bool CheckLimitsInFull();
  void MarkPathFromHistory(const Position& pos);

  TranspositionTable& tt_;
  Rules rules_;
  SearchLimits limits_;
  int64_t nodes_ = 0;
  LimitReason limit_ = LimitReason::kNone;
  LimitReason first_limit_ = LimitReason::kNone;
  int64_t budget_end_ = 0;  // node count ending this Run's budget (0: none)
  // The node count at which the budget or the node limit ends this Run, whichever is first.
  int64_t node_limit_ = 0;
  bool budget_spent_ = false;
  // Full keys of the positions on the current path (the game before the root included) ->
  // their Position::ply.
  PathPositions path_;
  // The keys MarkPathFromHistory put in path_: the next Run takes them out one by one, where
  // clearing the whole table (1024 slots or more) took 8% of a batch of mates in 3.
  std::vector<uint64_t> history_keys_;
  // Disproofs that depend on repetitions (tainted), in two caches. By path key: valid where
  // the same moves from the root lead to the same node.
  struct PathDisproof {
    int depth;
    int loop_ply;
  };
  absl::flat_hash_map<uint64_t, PathDisproof> path_table_;
  // A bit per path key in path_table_, so that most look-ups skip hashing into the map (寿's
  // first 300k nodes: 1.3% fewer instructions; at the end of its solve 14k entries had set 35%
  // of the bits, and a false hit only costs the look-up that was always made).
  static constexpr size_t kPathFilterWords = 512;
  std::array<uint64_t, kPathFilterWords> path_filter_{};
  uint64_t& PathFilterWord(uint64_t path_key) {
    return path_filter_[(path_key >> 20) % kPathFilterWords];
  }
  static uint64_t PathFilterBit(uint64_t path_key) { return uint64_t(1) << (path_key >> 58); }
  // False when path_table_ holds no entry for `path_key`.
  bool MayHavePathDisproof(uint64_t path_key) {
    return (PathFilterWord(path_key) & PathFilterBit(path_key)) != 0;
  }
  // By position: valid wherever the positions of the last `plies` plies of the path (which
  // hold every repeated position the disproof met) are on the path again, whatever came
  // before them or in which order (more positions on the path only hinder the attacker).
  // Microcosmos's passes met one position again and again along different paths.
  struct SegmentDisproof {
    uint64_t segment;  // SegmentHash of those positions
    uint32_t key_tag;  // upper half of the full position key (the bucket holds more bits)
    uint16_t plies;    // 0: empty
    uint16_t depth;
  };
  // Four to a cache line, 1 MB in all, allocated at the first tainted disproof: small enough
  // to stay in the processor's cache (with 24 MB, 寿 took 10% longer for the same nodes).
  // Bounded, it loses little: Microcosmos with 4 GB took 86.8M nodes with an unbounded map of
  // such disproofs, 86.2M with this cache.
  struct alignas(64) SegmentBucket {
    SegmentDisproof entry[4];
  };
  static constexpr size_t kSegmentBuckets = size_t(1) << 14;
  std::vector<SegmentBucket> segment_cache_;
  static uint32_t SegmentBucketIndex(uint64_t key) {
    return uint32_t((MixKey(key) >> 20) & (kSegmentBuckets - 1));
  }
  SegmentBucket& BucketOf(uint64_t key) { return segment_cache_[SegmentBucketIndex(key)]; }
  // A bit per full key the cache has held (set, never cleared), so that most look-ups, made
  // for every child the table settles nothing for, skip the cache's line: 寿 asks 25.9M times
  // and stores 14.7k entries (11% of these bits).
  static constexpr size_t kSegmentFilterWords = 2048;  // 16 KB
  std::array<uint64_t, kSegmentFilterWords> segment_filter_{};
  int64_t segment_disproofs_found_ = 0;
  uint64_t& SegmentFilterWord(uint64_t key) {
    return segment_filter_[(key >> 6) % kSegmentFilterWords];
  }
  static uint64_t SegmentFilterBit(uint64_t key) { return uint64_t(1) << (key & 63); }
  bool MayHaveSegmentDisproof(uint64_t key) {
    return (SegmentFilterWord(key) & SegmentFilterBit(key)) != 0;
  }
  // A disproof for the child `key` at `child_ply` (its depth at least `child_depth`) whose
  // positions are on the path; `from`: the ply where they start.
  const SegmentDisproof* FindSegmentDisproof(uint64_t key, int child_depth, int child_ply,
                                             int parent_ply, int* from);
  void StoreSegmentDisproof(uint64_t key, uint64_t segment, int plies, int depth);
  // Set hash of the path's positions: segment_hash_[p + 1] combines those up to ply p.
  std::vector<uint64_t> segment_hash_;
  // The set hash of the path's positions from ply `from` to ply `to`, plus `extra` (0: none).
  uint64_t SegmentHash(int from, int to, uint64_t extra) const {
    return segment_hash_[to + 1] ^ segment_hash_[from] ^ (extra ? MixKey(extra) : 0);
  }
  static uint64_t MixKey(uint64_t key);
  void PushSegment(int ply, uint64_t key, bool after_null);
  std::vector<std::vector<Child>> child_pool_;  // per-ply scratch
  int ply_ = 0;
  int settle_or_plies_ = 0;
};

// Thresholds (exposed for tests). They go up to one above the cap of ordinary values: a child
// whose value reached the cap (sums over a DAG can grow that far) must still get a threshold
// above its value, or its parent would call it again and again without progress; with that
// threshold it runs until it is proven or disproven.
constexpr PnDn kMaxThreshold = kPnDnCap + 1;
// The 1+epsilon trick: the best child may run until it is `quarters` quarters worse than the
// second (one by default).
PnDn SecondBestThreshold(PnDn second, int quarters = 1);
// The threshold left to a child when the parent's own threshold binds.
PnDn ChildThreshold(PnDn parent_threshold, PnDn parent_value, PnDn child_value);

// The index in `moves` of moves[i] with the other promotion choice, or -1 (exposed for tests).
// An OR node counts such a pair of checks once in its disproof number.
int PromotionTwin(std::span<const Move> moves, int i);

// Proof-piece and disproof-piece rules (exposed for tests).
// Proof pieces for a mated defender (in check, no evasion): nothing, except that when an
// interposition square exists, every kind the defender lacks must stay with the attacker.
Hand MatedProofPieces(const Position& defender_to_move, Hand attacker_hand);
// Disproof pieces for an OR node whose checks are all refuted, `from_checks` being the bound
// they give (the whole hand when there is no check): holding more of a kind already held adds
// no move, nor does a kind whose drop could not give check (no empty square from which it
// attacks the king), so those stay; any other kind the attacker lacks must stay lacking.
// KomoringHeights' rule; with only kinds held kept, 寿 took 15.28M nodes, with it 14.89M.
Hand OrDisproofPieces(const Position& attacker_to_move, Hand from_checks);

// Useless-interposition support (tsume rules). For a defender in check from a ranged piece and
// an empty square s between it and the king: the attacker moves that, played as if the defender
// had passed, move a piece to s and give check — the captures of a piece dropped on s.
void HypotheticalCaptures(Position& pos, Square s, MoveList& out);
// A defender's drop that may be useless: one on a square in `between` (even one that checks:
// the hypothetical capture takes the checking piece away too).
bool IsDeferrableDrop(Move m, Bitboard between);
// Passes for the defender and plays `capture`; LeaveHypothetical undoes both.
void EnterHypothetical(Position& pos, Move capture);
void LeaveHypothetical(Position& pos);

}  // namespace tsume

#endif  // TSUME_SOLVER_DFPN_H_
