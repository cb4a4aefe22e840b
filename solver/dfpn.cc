#include "solver/dfpn.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>

#include "absl/time/clock.h"
#include "core/movegen.h"

namespace tsume {
namespace {

constexpr int kMaxPly = 8000;
constexpr int kMaxHypotheticalNesting = 8;  // enough for the 7 squares of a full line
constexpr size_t kMaxRepetitionEntries = 4 << 20;

int ChildDepth(int depth) { return depth == kInfiniteDepth ? kInfiniteDepth : depth - 1; }
int ParentDepth(int depth) { return depth == kInfiniteDepth ? kInfiniteDepth : depth + 1; }

Hand FullHand() {
  Hand h;
  for (PieceType pt : kHandTypes) h.Set(pt, Hand::kMaxCount[pt]);
  return h;
}

// The least of some values, which child has it, and the second least.
// (Indices may be negative: groups are offered as -2 - their index.)
struct LeastTwo {
  PnDn least = kInfinitePnDn, second = kInfinitePnDn;
  int index = -1;
  bool any = false;
  void Offer(PnDn v, int i) {
    if (!any || v < least) {
      second = any ? least : kInfinitePnDn;
      least = v;
      index = i;
      any = true;
    } else {
      second = std::min(second, v);
    }
  }
};

// A sum of proof or disproof numbers, the same as SaturatingAdd term by term from 0 (capping
// is monotone, so capping once at the end gives the same), with fewer tests per term. With the
// children counted once per pass: 寿's first 300k nodes, 0.36% fewer instructions.
struct SaturatingSum {
  uint64_t sum = 0;
  PnDn most = 0;
  void Add(PnDn v) {
    sum += v;
    most = std::max(most, v);
  }
  PnDn value() const {
    if (most >= kInfinitePnDn) return kInfinitePnDn;
    return PnDn(std::min<uint64_t>(sum, kPnDnCap));
  }
};

// The children of an AND node on one interposition square (tsume rules): OR(hypothetical
// captures, AND(real drops)).
struct SquareGroup {
  bool has_h = false, has_d = false;
  PnDn h_pn = kInfinitePnDn, h_dn = 0;  // OR over the hypothetical children
  PnDn d_pn = 0, d_dn = kInfinitePnDn;  // AND over the drops
  LeastTwo h_by_pn, d_by_dn;
  bool empty() const { return !has_h && !has_d; }
  PnDn pn() const {
    if (has_h && has_d) return std::min(h_pn, d_pn);
    return has_h ? h_pn : d_pn;
  }
  PnDn dn() const {
    if (has_h && has_d) return SaturatingAdd(h_dn, d_dn);
    return has_h ? h_dn : d_dn;
  }
  // Child i, a hypothetical capture or a real drop on the square.
  void Offer(bool hypothetical, PnDn pn, PnDn dn, int i) {
    if (hypothetical) {
      has_h = true;
      h_dn = SaturatingAdd(h_dn, dn);
      h_by_pn.Offer(pn, i);
      h_pn = h_by_pn.least;
    } else {
      has_d = true;
      d_pn = SaturatingAdd(d_pn, pn);
      d_by_dn.Offer(dn, i);
      d_dn = d_by_dn.least;
    }
  }
};

// The groups of one AND node's interposition squares (at most 7 between king and checker).
struct SquareGroups {
  // The groups are left uninitialised: most nodes have none, and initialising seven of them
  // was a 364-byte copy at every node (with CheckLimits inline, 0.7% of 寿's instructions).
  SquareGroups() {}
  int count = 0;
  Square square[7];
  union {
    SquareGroup group[7];
  };
  SquareGroup* Find(Square s) {
    for (int k = 0; k < count; ++k) {
      if (square[k] == s) return &group[k];
    }
    return nullptr;
  }
};

// True when the defender, in check, could block with a drop somewhere.
bool InterpositionSquareExists(const Position& pos) {
  Bitboard checkers = pos.checkers();
  if (checkers.None() || checkers.MoreThanOne()) return false;
  return Between(pos.king_square(pos.side_to_move()), checkers.Lsb()).Any();
}

// At a proven AND node: kinds the defender lacks could have been dropped in between had the
// attacker held fewer, so the proof needs the attacker's full count of those.
Hand RequireMissingInterposers(const Position& pos, Hand proof, Hand attacker_hand) {
  if (!InterpositionSquareExists(pos)) return proof;
  Hand defender = pos.hand(pos.side_to_move());
  for (PieceType pt : kHandTypes) {
    if (defender.Count(pt) == 0) proof.Set(pt, attacker_hand.Count(pt));
  }
  return proof;
}

// df-pn+ initial values from the number of moves at a new node (at least 1).
PnDn InitialProofNumber(int evasions) { return PnDn(std::max(1, evasions)); }
PnDn InitialDisproofNumber(int checks) { return PnDn(std::max(1, checks)); }

// The king's distance (in king steps) between two squares, looked up: FileOf and RankOf cost a
// division each.
constexpr auto kKingDistance = [] {
  std::array<std::array<int8_t, kNumSquares>, kNumSquares> table{};
  for (Square a = 0; a < kNumSquares; ++a) {
    for (Square b = 0; b < kNumSquares; ++b) {
      int files = FileOf(a) - FileOf(b), ranks = RankOf(a) - RankOf(b);
      table[a][b] = int8_t(std::max(files < 0 ? -files : files, ranks < 0 ? -ranks : ranks));
    }
  }
  return table;
}();

// Order in which equally promising children are tried (lower first; the selection takes the
// first of equal values). Checks: strong pieces close to the king first, a pawn, bishop or
// rook that could promote and does not last. Evasions: captures, king moves, other moves,
// drops (drops on one square keep their generation order, weakest first). Measured: Zuko at
// 3M nodes -1% in total (geometric mean -2.3%), practical mate 9/11 -2.7%.
[[gnu::always_inline]] inline int BriefMoveScore(const Position& pos, Move m, bool or_node) {
  static constexpr int kValue[16] = {0, 1, 2, 2, 3, 5, 5, 4, 0, 4, 4, 4, 4, 8, 8, 0};
  if (!or_node) {
    if (m.is_drop()) return 3;
    if (pos.piece_on(m.to()) != kNoPiece) return 0;
    return m.from() == pos.king_square(pos.side_to_move()) ? 1 : 2;
  }
  Square king = pos.king_square(~pos.side_to_move());
  int score = kKingDistance[king][m.to()] - kValue[m.after_type()];
  if (!m.is_drop() && !m.is_promotion()) {
    PieceType pt = m.moved_type();
    Color us = pos.side_to_move();
    if ((pt == kPawn || pt == kBishop || pt == kRook) &&
        (InPromotionZone(us, m.from()) || InPromotionZone(us, m.to()))) {
      score += 100;
    }
  }
  return score;
}

// A stable insertion sort in place: lists are short, and nothing is initialised beyond them.
// `keys[i]` goes with moves[i] (the board key after it). One loop per node kind, so that the
// kind is not tested per move.
template <bool kOrNode>
void OrderMovesAt(const Position& pos, MoveList& moves, uint64_t* keys) {
  Move* list = moves.begin();
  // scores[-1] is lower than any score: the insertion stops there without testing j.
  int score_slots[kMaxMoves + 1];
  int* scores = score_slots + 1;
  scores[-1] = std::numeric_limits<int>::min();
  for (int i = 0; i < moves.size(); ++i) {
    Move m = list[i];
    uint64_t key = keys[i];
    int score = BriefMoveScore(pos, m, kOrNode);
    int j = i;
    for (; scores[j - 1] > score; --j) {
      scores[j] = scores[j - 1];
      list[j] = list[j - 1];
      keys[j] = keys[j - 1];
    }
    scores[j] = score;
    list[j] = m;
    keys[j] = key;
  }
}
void OrderMoves(const Position& pos, MoveList& moves, uint64_t* keys, bool or_node) {
  // Nothing to order: a single evasion is common (寿's first 300k nodes: 0.2% of all
  // instructions).
  if (moves.size() < 2) return;
  or_node ? OrderMovesAt<true>(pos, moves, keys) : OrderMovesAt<false>(pos, moves, keys);
}

}  // namespace

PnDn SecondBestThreshold(PnDn second, int quarters) {
  if (second >= kInfinitePnDn) return kInfinitePnDn;
  return PnDn(std::min<int64_t>(kMaxThreshold, second + int64_t(second) * quarters / 4 + 1));
}

PnDn ChildThreshold(PnDn parent_threshold, PnDn parent_value, PnDn child_value) {
  if (parent_threshold >= kInfinitePnDn) return kInfinitePnDn;
  int64_t t = int64_t(parent_threshold) - int64_t(parent_value) + int64_t(child_value);
  return PnDn(std::clamp<int64_t>(t, 1, kMaxThreshold));
}

Hand OrDisproofPieces(const Position& attacker_to_move, Hand from_checks) {
  const Position& pos = attacker_to_move;
  Hand held = pos.hand(pos.side_to_move());
  Bitboard empty = ~pos.occupied();
  for (PieceType pt : kHandTypes) {
    if (held.Count(pt) == 0 && (pos.check_squares(pt) & empty).Any()) from_checks.Set(pt, 0);
  }
  return from_checks;
}

Hand MatedProofPieces(const Position& pos, Hand attacker_hand) {
  return RequireMissingInterposers(pos, Hand(), attacker_hand);
}

uint64_t DfpnSearch::ChildPathKey(uint64_t path_key, Move m) {
  uint64_t x = path_key ^ (uint64_t(m.bits()) * 0x9E3779B97F4A7C15ull);
  x ^= x >> 29;
  x *= 0xBF58476D1CE4E5B9ull;
  return x ^ (x >> 32);
}

DfpnSearch::DfpnSearch(TranspositionTable& tt, Rules rules, SearchLimits limits)
    : tt_(tt), rules_(rules), limits_(std::move(limits)), child_pool_(kMaxPly + 1) {}

bool DfpnSearch::CheckLimitsInFull() {
  if (limit_ != LimitReason::kNone || budget_spent_) return true;
  if (budget_end_ > 0 && nodes_ >= budget_end_) {
    budget_spent_ = true;
    return true;
  }
  if (limits_.max_nodes > 0 && nodes_ >= limits_.max_nodes) {
    limit_ = LimitReason::kNodes;
  } else if ((nodes_ & 1023) == 0) {
    if (limits_.stop != nullptr && limits_.stop->load(std::memory_order_relaxed)) {
      limit_ = LimitReason::kStopped;
    } else if (limits_.deadline != absl::InfiniteFuture() && absl::Now() >= limits_.deadline) {
      limit_ = LimitReason::kTime;
    }
    if ((nodes_ & 4095) == 0 && limits_.on_tick) limits_.on_tick(nodes_);
  }
  return limit_ != LimitReason::kNone;
}

uint64_t DfpnSearch::MixKey(uint64_t x) {
  x ^= x >> 31;
  x *= 0x9E3779B97F4A7C15ull;
  x ^= x >> 29;
  return x | 1;  // never 0, which SegmentHash reads as "none"
}

void DfpnSearch::PushSegment(int ply, uint64_t key, bool after_null) {
  if (after_null) segment_hash_[ply] = segment_hash_[ply - 1];  // the null ply holds nothing
  segment_hash_[ply + 1] = segment_hash_[ply] ^ MixKey(key);
}

void DfpnSearch::MarkPathFromHistory(const Position& pos) {
  // The search below the last root took out what it put in: only the history is left.
  for (uint64_t key : history_keys_) path_.Erase(key);
  if (path_.size() != 0) path_.Clear();
  history_keys_.clear();
  auto insert = [&](uint64_t key, int ply) {
    size_t before = path_.size();
    path_.Insert(key, ply);
    if (path_.size() != before) history_keys_.push_back(key);
  };
  // Every position of the game so far, the current one included: returning to any of them
  // repeats a position under continuous check.
  Position& p = const_cast<Position&>(pos);
  // Room for the game so far and the search's plies below it (a hypothetical child takes
  // two), sized before the history is undone.
  size_t plies = size_t(p.ply()) + 2 * kMaxPly + 4;
  if (segment_hash_.size() < plies) segment_hash_.resize(plies);
  std::vector<Move> undone;
  insert(p.key(), p.ply());
  while (p.ply() > 0) {
    undone.push_back(p.last_move());
    p.UndoMove();
    insert(p.key(), p.ply());  // a position met twice keeps its latest ply
  }
  segment_hash_[0] = 0;
  PushSegment(0, p.key(), false);
  for (auto it = undone.rbegin(); it != undone.rend(); ++it) {
    if (it->is_none()) {
      p.DoNullMove();
    } else {
      p.DoMove(*it);
    }
    PushSegment(p.ply(), p.key(), false);
  }
}

NodeResult DfpnSearch::Run(Position& pos, int depth, bool or_node, uint64_t path_key,
                           int64_t budget) {
  if (first_limit_ == LimitReason::kNone) first_limit_ = limit_;
  limit_ = LimitReason::kNone;
  budget_spent_ = false;
  budget_end_ = budget > 0 ? nodes_ + budget : 0;
  node_limit_ = std::numeric_limits<int64_t>::max();
  if (budget_end_ > 0) node_limit_ = budget_end_;
  if (limits_.max_nodes > 0) node_limit_ = std::min(node_limit_, limits_.max_nodes);
  MarkPathFromHistory(pos);
  ply_ = 0;
  NodeResult result;
  if (or_node) {
    result = QuickOrNode(pos, depth);
    if (result.proven() || result.disproven()) return result;
  }
  while (!CheckLimits()) {
    result = Mid(pos, kInfinitePnDn, kInfinitePnDn, depth, or_node, path_key);
    if (result.proven() || result.disproven()) break;
  }
  return result;
}

NodeResult DfpnSearch::Peek(const Position& pos, int depth, bool or_node) const {
  NodeResult r;
  Color attacker = or_node ? pos.side_to_move() : ~pos.side_to_move();
  TTProbe probe = tt_.Probe(pos.board_key(), pos.hand(attacker), depth);
  if (probe.found && (probe.pn == 0 || probe.dn == 0)) {
    r.pn = probe.pn;
    r.dn = probe.dn;
    r.length = probe.length;
    r.depth = probe.depth;
    r.pieces = probe.pieces;
  }
  return r;
}

bool IsDeferrableDrop(Move m, Bitboard between) { return m.is_drop() && between.Test(m.to()); }

namespace {

// Where GenerateLegal lists a move of the side to move, not in check, from `from` (lower
// first): pawns; the unpinned pieces type by type (lances, knights, silvers, gold-movers,
// bishops, rooks, horses, dragons); the other pinned pieces; the king. By square within each,
// a promotion before the plain move.
int LegalOrderRank(const Position& pos, PieceType pt, Square from, bool promotion) {
  static constexpr int kGroup[kNumPieceTypes] = {0, 0, 1, 2, 3, 5, 6, 4, 10, 4, 4, 4, 4, 7, 8};
  int group = kGroup[pt];
  if (pt != kPawn && pt != kKing && pos.pinned(pos.side_to_move()).Test(from)) group = 9;
  return (group * kNumSquares + from) * 2 + (promotion ? 0 : 1);
}

}  // namespace

void HypotheticalCaptures(Position& pos, Square s, MoveList& out) {
  pos.DoNullMove();
  if (pos.in_check()) {
    // Not met in a search (the attacker's last move left it out of check); the evasions.
    MoveList moves;
    GenerateLegal(pos, moves);
    for (Move m : moves) {
      if (!m.is_drop() && m.to() == s && pos.GivesCheck(m)) out.push_back(m);
    }
    pos.UndoMove();
    return;
  }
  // The legal moves onto s that check, in GenerateLegal's order, from the pieces attacking s
  // (GenerateLegal's whole list and a pass over it took 1.5-2% of 寿's instructions).
  Color us = pos.side_to_move();
  int first = out.size();
  int ranks[kMaxMoves];  // of the moves appended, by their index in `out`
  for (Square from : pos.AttackersTo(us, s)) {
    PieceType pt = TypeOf(pos.piece_on(from));
    bool may_promote = CanPromote(pt) && (InPromotionZone(us, from) || InPromotionZone(us, s));
    for (bool promote : {true, false}) {
      if (promote ? !may_promote : IsDeadSquare(us, pt, s)) continue;
      Move m = Move::Normal(from, s, pt, promote);
      if (!pos.IsLegal(m) || !pos.GivesCheck(m)) continue;
      int rank = LegalOrderRank(pos, pt, from, promote);
      int j = out.size();
      out.push_back(m);
      Move* list = out.begin();
      for (; j > first && ranks[j - 1] > rank; --j) {
        ranks[j] = ranks[j - 1];
        list[j] = list[j - 1];
      }
      ranks[j] = rank;
      list[j] = m;
    }
  }
  pos.UndoMove();
}

void EnterHypothetical(Position& pos, Move capture) {
  pos.DoNullMove();
  pos.DoMove(capture);
}

void LeaveHypothetical(Position& pos) {
  pos.UndoMove();
  pos.UndoMove();
}

// Inline: most calls end at its first tests (the defender has a move other than a drop in
// between), and the call cost more than they do.
inline bool DfpnSearch::IsMatedUnderRules(Position& pos, int nesting, const MoveList* evasions) {
  if (evasions ? evasions->empty() : !HasEvasion(pos)) return true;
  if (rules_ != Rules::kTsume || !InterpositionSquareExists(pos)) return false;
  return OnlyUselessDrops(pos, nesting, evasions);
}

bool DfpnSearch::OnlyUselessDrops(Position& pos, int nesting, const MoveList* evasions) {
  // Each hypothetical capture may uncover another ranged checker; bound the chain (beyond
  // it the drops simply count) so pieces uncovering each other in turn cannot recurse forever.
  if (nesting >= kMaxHypotheticalNesting) return false;
  Bitboard between = Between(pos.king_square(pos.side_to_move()), pos.checkers().Lsb());
  MoveList generated;
  if (!evasions) {
    GenerateEvasions(pos, generated);
    evasions = &generated;
  }
  Bitboard squares;
  for (Move m : *evasions) {
    if (!IsDeferrableDrop(m, between)) return false;
    squares.Set(m.to());
  }
  // Only drops in between: mated if each is useless with nothing left to play after it.
  for (Square s : squares) {
    MoveList captures;
    HypotheticalCaptures(pos, s, captures);
    bool mated = false;
    for (Move capture : captures) {
      EnterHypothetical(pos, capture);
      mated = IsMatedUnderRules(pos, nesting + 1);
      LeaveHypothetical(pos);
      if (mated) break;
    }
    if (!mated) return false;
  }
  return true;
}

NodeResult DfpnSearch::QuickOrNode(Position& pos, int depth) {
  NodeResult r;
  Color attacker = pos.side_to_move();
  Hand h0 = pos.hand(attacker);
  if (depth <= 0) {
    r.pn = kInfinitePnDn;
    r.dn = 0;
    r.depth = 0;
    r.pieces = FullHand();
    return r;
  }
  MoveList checks;
  GenerateChecks(pos, checks);
  if (checks.empty()) {
    // No check at all.
    r.pn = kInfinitePnDn;
    r.dn = 0;
    r.depth = kInfiniteDepth;
    r.pieces = OrDisproofPieces(pos, FullHand());
    return r;
  }
  // A mate under game rules is one under tsume rules too; the fast test (no move played for
  // most checks) first. Tsume rules add the checks leaving only drops in between, which mate
  // when those drops are useless.
  MoveList candidates;
  Move game_mate = FindMateIn1(pos, checks, rules_ == Rules::kTsume ? &candidates : nullptr);
  if (!game_mate.is_none()) {
    candidates.clear();
    candidates.push_back(game_mate);
  }
  for (Move m : candidates) {
    Piece captured = m.is_drop() ? kNoPiece : pos.piece_on(m.to());
    pos.DoMove(m);
    bool mate = !game_mate.is_none() || IsMatedUnderRules(pos);
    Hand proof;
    if (mate) proof = MatedProofPieces(pos, pos.hand(attacker));
    pos.UndoMove();
    if (mate) {
      if (m.is_drop()) proof.Add(m.dropped_type());
      if (captured != kNoPiece && proof.Has(Unpromote(TypeOf(captured)))) {
        proof.Remove(Unpromote(TypeOf(captured)));
      }
      r.pn = 0;
      r.dn = kInfinitePnDn;
      r.length = 1;
      r.pieces = proof;
      return r;
    }
  }
  if (depth == 1) {
    r.pn = kInfinitePnDn;
    r.dn = 0;
    r.depth = 1;
    r.pieces = h0;
    return r;
  }
  // Unknown. df-pn+ estimate: every check has to be refuted to disprove.
  r.dn = InitialDisproofNumber(checks.size());
  return r;
}

// Inline in its one caller, LookUp: out of line, the call (five arguments, registers saved
// and restored) cost more than the search it makes (寿: 0.85% of all instructions).
[[gnu::always_inline]] inline const DfpnSearch::SegmentDisproof* DfpnSearch::FindSegmentDisproof(
    uint64_t key, int child_depth, int child_ply, int parent_ply, int* from) {
  if (!MayHaveSegmentDisproof(key)) return nullptr;  // the cache is made by the first store
  for (const SegmentDisproof& t : BucketOf(key).entry) {
    // The tag first: it rejects nearly every entry.
    if (t.key_tag != uint32_t(key >> 32) || t.plies == 0 || t.depth < child_depth) continue;
    int start = child_ply - t.plies;
    if (start < 0 || start > parent_ply) continue;
    if (SegmentHash(start, parent_ply, key) == t.segment) {
      *from = start;
      return &t;
    }
  }
  return nullptr;
}

void DfpnSearch::StoreSegmentDisproof(uint64_t key, uint64_t segment, int plies, int depth) {
  if (plies > 0xffff) return;  // a game history longer than the entry counts: not kept
  if (segment_cache_.empty()) segment_cache_.resize(kSegmentBuckets);
  SegmentFilterWord(key) |= SegmentFilterBit(key);
  SegmentBucket& bucket = BucketOf(key);
  SegmentDisproof entry{segment, uint32_t(key >> 32), uint16_t(plies), uint16_t(depth)};
  SegmentDisproof* victim = nullptr;
  for (SegmentDisproof& t : bucket.entry) {
    if (t.plies == plies && t.key_tag == entry.key_tag && t.segment == segment) {
      t.depth = std::max(t.depth, entry.depth);
      return;
    }
    if (t.plies == 0 && victim == nullptr) victim = &t;
  }
  // A full bucket: any entry (they are alike in value; a lost one is searched again).
  if (victim == nullptr) victim = &bucket.entry[segment % 4];
  *victim = entry;
}

// Inline in InitChild, its one caller (twice): out of line, the call (registers saved and
// restored, the result through memory) cost 0.9% of 寿's instructions.
[[gnu::always_inline]] inline bool DfpnSearch::LookUp(Child& c, uint64_t full_key, int child_depth,
                                                      int parent_ply) {
  // Repetition of a position on the path: the attacker fails on this path.
  if (int ply = path_.Find(full_key); ply >= 0) {
    c.result = NodeResult{kInfinitePnDn, 0, 0, kInfiniteDepth, c.hand, true, ply};
    return true;
  }
  if (MayHavePathDisproof(c.path_key)) {
    if (auto it = path_table_.find(c.path_key);
        it != path_table_.end() && it->second.depth >= child_depth) {
      c.result =
          NodeResult{kInfinitePnDn, 0, 0, it->second.depth, c.hand, true, it->second.loop_ply};
      return true;
    }
  }
  TTProbe probe = tt_.Probe(c.board_key, c.hand, child_depth);
  if (probe.found && (probe.pn == 0 || probe.dn == 0)) {
    c.result.pn = probe.pn;
    c.result.dn = probe.dn;
    c.result.length = probe.length;
    c.result.depth = probe.depth;
    c.result.pieces = probe.pieces;
    return true;
  }
  // Only when the table settles nothing: most look-ups end above, and this one costs a
  // memory access (寿: 12% of the time when it came first).
  int child_ply = parent_ply + (c.kind == ChildKind::kHypothetical ? 2 : 1);
  int from;
  if (const SegmentDisproof* t =
          FindSegmentDisproof(full_key, child_depth, child_ply, parent_ply, &from)) {
    ++segment_disproofs_found_;
    c.result = NodeResult{kInfinitePnDn, 0, 0, t->depth, c.hand, true, from};
    return true;
  }
  if (probe.found) {
    c.result.pn = probe.pn;
    c.result.dn = probe.dn;
    return true;
  }
  // The proof number's floor only in the unbounded search: in depth-limited ones a stronger
  // hand's proof number from elsewhere says little about a mate within the depth (the exact
  // passes search in the unbounded search's set of unknown entries; zukou-006's pass proving
  // none within 79 took 22.0M nodes without floors, 653.7M with this one).
  if (child_depth == kInfiniteDepth) c.pn_floor = std::min(probe.pn_floor, kPnDnCap);
  c.dn_floor = std::min(probe.dn_floor, kPnDnCap);
  return false;
}

// Inline in Mid (the frame does not grow: QuickOrNode, with its move lists, stays a call).
[[gnu::always_inline]] inline void DfpnSearch::InitChild(Position& pos, int ply, Child& c,
                                                         int child_depth, bool child_or) {
  if (c.kind == ChildKind::kHypothetical) {
    // An attacker piece moved to the interposition square instead, the defender keeping the
    // piece it would have dropped.
    EnterHypothetical(pos, c.move);
    c.board_key = pos.board_key();
    if (!LookUp(c, pos.key(), child_depth, ply)) {
      c.result = NodeResult{};
      if (IsMatedUnderRules(pos)) {
        c.result = NodeResult{0, kInfinitePnDn, 0, 0, MatedProofPieces(pos, c.hand), false};
      }
    }
    LeaveHypothetical(pos);
    return;
  }
  if (LookUp(c, c.full_key, child_depth, ply)) return;
  // A new child's numbers below start at least at the floors the other hands' entries give
  // (as KomoringHeights does; LookUp). Measured: 寿 16.31M -> 15.30M nodes, zukou-006 22.95M
  // -> 21.54M, zukou-037 25.40M -> 24.16M, zukou-053 30.46M -> 29.35M, zukou-095 about 240M
  // -> 200.3M, Zuko at 3M nodes -1.0% in total (geometric mean -1.4%, 72 exact instead of 70).
  // With the proof number's floor in depth-limited searches too: 寿 14.86M, but zukou-006
  // 653.7M; the disproof number's alone: 寿 15.53M, 006 18.47M, 095 197.8M, Zuko at 3M -0.7%
  // (71 exact). Applied to entries already stored as well: Zuko at 3M +7.1%, six fewer exact.
  if (child_or) {
    // Kaneko's fixed-depth test at new nodes: mate in 1, or no check at all.
    pos.DoMove(c.move);
    ++nodes_;
    NodeResult quick = QuickOrNode(pos, child_depth);
    pos.UndoMove();
    if (quick.proven()) {
      tt_.StoreProven(c.board_key, quick.pieces, quick.length, 1);
    } else if (quick.disproven()) {
      tt_.StoreDisproven(c.board_key, quick.pieces, quick.depth, 1);
    } else {
      c.RaiseToFloors(quick);
      // Remember that the quick test failed, so a revisit does not repeat it.
      tt_.StoreUnknown(c.board_key, c.hand, quick.pn, quick.dn, 1);
    }
    c.result = quick;
    return;
  }
  c.result = NodeResult{};
  if (!child_or && c.kind == ChildKind::kReal) {
    // df-pn+ estimate after a check: every reply has to be mated to prove. Not for a check
    // that leaves two plies: one visit settles its node (each reply's mate-in-1 test decides),
    // so the estimate would only order the checks, and with 1 each the parent goes on to
    // settle them all at once rather than give up at a threshold and come back. Measured: Zuko
    // at 3M nodes -4% nodes in total (geometric mean -11%, one more exact), zukou-037 33.3M ->
    // 27.8M nodes, practical mate 11 -13.5% nodes, 12.2 -> 9.6 ms; 寿 +3% (15.9M -> 16.4M).
    // Leaving four plies as well: zukou-037 32.5M, 寿 17.0M.
    c.result.pn = child_depth <= 2 ? 1 : InitialProofNumber(EstimateRepliesToCheck(pos, c.move));
    c.RaiseToFloors(c.result);
    tt_.StoreUnknown(c.board_key, c.hand, c.result.pn, c.result.dn, 1);
  }
}

int PromotionTwin(std::span<const Move> moves, int i) {
  Move m = moves[i];
  if (m.is_drop()) return -1;
  // The other choice differs in the promotion flag alone (the same piece moves from and to the
  // same squares): one compare per move (寿's first 300k nodes: 0.25% of all instructions).
  const uint32_t other = m.bits() ^ Move::Normal(0, 0, kNoPieceType, true).bits();
  for (int j = 0; j < int(moves.size()); ++j) {
    if (moves[j].bits() == other) return j;
  }
  return -1;
}

NodeResult DfpnSearch::Mid(Position& pos, PnDn thpn, PnDn thdn, int depth, bool or_node,
                           uint64_t path_key) {
  ++nodes_;
  int64_t nodes_at_entry = nodes_;
  Color attacker = or_node ? pos.side_to_move() : ~pos.side_to_move();
  Hand h0 = pos.hand(attacker);
  uint64_t key = pos.board_key();
  NodeResult result;

  MoveList moves;
  // Drops between the king and a ranged checker are many and alike: they are tried one square
  // at a time, weakest piece first, the next one only once the previous one is mated. Under
  // tsume rules they also wait behind one hypothetical child per square: if that position is
  // a mate, they are useless.
  Bitboard interposition;
  if (or_node) {
    if (depth <= 1) return QuickOrNode(pos, depth);
    GenerateChecks(pos, moves);
    if (moves.empty()) return QuickOrNode(pos, depth);
  } else {
    GenerateEvasions(pos, moves);
    if (InterpositionSquareExists(pos)) {
      interposition = Between(pos.king_square(pos.side_to_move()), pos.checkers().Lsb());
    }
    // IsMatedUnderRules(pos, 0, &moves), with the squares in between found once for it and
    // the children (寿's first 300k nodes: 0.27% of all instructions with it inline).
    if (moves.empty() ||
        (rules_ == Rules::kTsume && interposition.Any() && OnlyUselessDrops(pos, 0, &moves))) {
      result.pn = 0;
      result.dn = kInfinitePnDn;
      result.length = 0;
      result.pieces = MatedProofPieces(pos, h0);
      tt_.StoreProven(key, result.pieces, 0, 1);
      return result;
    }
    if (depth < 2) {
      // Every reply leaves the attacker no plies to mate in.
      result.pn = kInfinitePnDn;
      result.dn = 0;
      result.depth = depth;
      result.pieces = h0;
      return result;
    }
  }
  if (ply_ >= kMaxPly) {
    limit_ = LimitReason::kNodes;  // pathological depth: give up, never claim a result
    return result;
  }

  // The children's table buckets are loaded while the moves are ordered, not after: the
  // look-ups follow soon, and a random access to a large table is slow (on this VM 236-306 ns
  // over 256 MB, 380-394 ns over 1 GB, about half of it address translation). Measured with
  // two runs at once, one on each core, then swapped: 寿's first 4M nodes 3-6% faster,
  // Microcosmos's first 15M (1 GB) 6-10%. Drops in between mostly wait: their keys are
  // computed and their buckets loaded when they become children (0 here).
  uint64_t child_board_keys[kMaxMoves];
  // Without interposition squares (most nodes) no move waits: the tests per move are left out
  // here and where the children are made, each in a loop of its own (寿's first 300k nodes:
  // 0.9% of all instructions; a test of the flag per move kept a third of it).
  const bool any_interposition = interposition.Any();
  if (!any_interposition) {
    for (int i = 0; i < moves.size(); ++i) {
      child_board_keys[i] = pos.BoardKeyAfter(moves[i]);
      tt_.Prefetch(child_board_keys[i]);
    }
  } else {
    for (int i = 0; i < moves.size(); ++i) {
      if (IsDeferrableDrop(moves[i], interposition)) {
        child_board_keys[i] = 0;
      } else {
        child_board_keys[i] = pos.BoardKeyAfter(moves[i]);
        tt_.Prefetch(child_board_keys[i]);
      }
    }
  }
  OrderMoves(pos, moves, child_board_keys, or_node);
  // The node's ply, read once: Position::ply() divides by the size of a state (once per child
  // and per step down, 0.56% of 寿's first 300k nodes' instructions).
  const int ply = pos.ply();
  std::vector<Child>& children = child_pool_[ply_];
  children.clear();
  int child_depth = ChildDepth(depth);
  Bitboard deferred = rules_ == Rules::kTsume ? interposition : Bitboard();
  Bitboard hypothetical_squares, exposed_squares;
  // Fills in a new child where it is stored (a copy of the whole Child cost more).
  // `may_wait`: the node has interposition squares.
  auto make_child = [&](Child& c, int index, bool may_wait = true) {
    Move m = moves[index];
    c.move = m;
    c.board_key = child_board_keys[index];
    if (may_wait && IsDeferrableDrop(m, interposition)) {
      c.square = m.to();
      c.board_key = pos.BoardKeyAfter(m);
      tt_.Prefetch(c.board_key);
    }
    c.full_key = c.board_key ^ pos.HandKeyAfter(m);
    if (MayHaveSegmentDisproof(c.full_key)) __builtin_prefetch(&BucketOf(c.full_key));
    c.path_key = ChildPathKey(path_key, m);
    c.hand = or_node ? pos.HandAfter(m) : h0;
  };
  if (!any_interposition) {
    for (int i = 0; i < moves.size(); ++i) make_child(children.emplace_back(), i, false);
  } else {
    for (int i = 0; i < moves.size(); ++i) {
      Move m = moves[i];
      if (IsDeferrableDrop(m, deferred)) {
        hypothetical_squares.Set(m.to());
        continue;
      }
      if (IsDeferrableDrop(m, interposition)) {
        if (exposed_squares.Test(m.to())) continue;
        exposed_squares.Set(m.to());
      }
      make_child(children.emplace_back(), i);
    }
  }
  // Adds the drop on s that follows `after` in generation order (the first one when `after`
  // is none), and the ones after it while each is found mated at once.
  // Squares whose drops a proven hypothetical capture made useless, and squares whose drops
  // are in the list.
  Bitboard useless_squares, revealed_drops;
  auto expose_drops = [&](Square s, Move after) {
    if (useless_squares.Test(s)) return;
    revealed_drops.Set(s);
    bool passed = after.is_none();
    for (int i = 0; i < moves.size(); ++i) {
      Move m = moves[i];
      if (!passed) {
        passed = m == after;
        continue;
      }
      if (!m.is_drop() || m.to() != s) continue;
      Child& c = children.emplace_back();
      make_child(c, i);
      InitChild(pos, ply, c, child_depth, true);
      if (!c.result.proven()) return;
    }
  };
  Bitboard revealed_squares;
  for (Square s : hypothetical_squares) {
    MoveList captures;
    HypotheticalCaptures(pos, s, captures);
    if (captures.empty()) revealed_squares.Set(s);
    for (Move capture : captures) {
      Child c;
      c.kind = ChildKind::kHypothetical;
      c.square = s;
      c.move = capture;
      c.path_key = ChildPathKey(~path_key, capture);
      c.hand = h0;
      children.push_back(c);
    }
  }
  // Adds the first real drop on s (more follow as each is mated).
  auto reveal_drops = [&](Square s) { expose_drops(s, Move::None()); };
  // A mated drop on an interposition square lets the next piece be tried there.
  auto expose_after = [&](int i) {
    const Child& c = children[i];
    if (c.kind == ChildKind::kReal && c.square != kNoSquare && c.result.proven()) {
      expose_drops(c.square, c.move);
    }
  };
  // An interposition square (tsume rules) is settled either way: its hypothetical children
  // form an OR group, and one mate among them makes the drops there useless (they and the
  // other hypothetical children are dropped); or every real drop there is mated, which proves
  // the square too (the drops then count: a bound, which the exact passes refine). The two
  // are searched side by side. A hypothetical child found no mate is dropped.
  auto settle_hypothetical = [&](int i) {
    const Child& h = children[i];
    if (h.kind != ChildKind::kHypothetical) return;
    Square s = h.square;
    if (h.result.proven()) {
      useless_squares.Set(s);
      for (Child& other : children) {
        if (&other != &h && other.square == s) other.kind = ChildKind::kUnavailable;
      }
    } else if (h.result.disproven()) {
      children[i].kind = ChildKind::kUnavailable;
      if (!revealed_drops.Test(s)) reveal_drops(s);
    }
  };
  int initialised = int(children.size());
  bool settled = false;
  for (Square s : revealed_squares) reveal_drops(s);
  for (int i = 0; i < initialised; ++i) {
    Child& c = children[i];
    if (c.kind == ChildKind::kUnavailable) continue;
    bool hypothetical = c.kind == ChildKind::kHypothetical;
    InitChild(pos, ply, c, hypothetical ? depth : child_depth, !or_node);
    if (hypothetical) {
      settle_hypothetical(i);
      continue;
    }
    if (!or_node) expose_after(i);
    // A proven child of an OR node or a disproven child of an AND node settles the node.
    if (or_node ? children[i].result.proven() : children[i].result.disproven()) {
      settled = true;
      break;
    }
  }
  if (!settled) {
    for (Square s : hypothetical_squares) {
      if (!revealed_drops.Test(s)) reveal_drops(s);
    }
  }

  // AND nodes under tsume rules: the children on an interposition square s form a group,
  // OR(hypothetical children, AND(real drops on s)), counted as one child of the node.
  auto in_group = [&](const Child& c) {
    return c.square != kNoSquare && hypothetical_squares.Test(c.square);
  };
  // The groups, rebuilt from the children in one pass.
  auto combine_squares = [&](SquareGroups& groups) {
    groups.count = 0;
    for (Square s : hypothetical_squares) {
      groups.square[groups.count] = s;
      groups.group[groups.count++] = SquareGroup();
    }
    for (int i = 0; i < int(children.size()); ++i) {
      const Child& c = children[i];
      if (c.kind == ChildKind::kUnavailable || !in_group(c)) continue;
      groups.Find(c.square)->Offer(c.kind == ChildKind::kHypothetical, c.result.pn, c.result.dn, i);
    }
  };
  // The child to search at such an AND node, with its thresholds: the least disproof number
  // among the plain children and the groups; within a group the branch with the smaller
  // proof number; within that branch its best child.
  auto select_and_child = [&](const SquareGroups& groups, PnDn node_pn, PnDn node_thpn,
                              PnDn node_thdn, PnDn& out_thpn, PnDn& out_thdn) {
    // Plain children by index, groups as -2 - their index.
    LeastTwo by_dn;
    for (int i = 0; i < int(children.size()); ++i) {
      const Child& c = children[i];
      if (c.kind == ChildKind::kUnavailable || in_group(c)) continue;
      by_dn.Offer(c.result.dn, i);
    }
    for (int k = 0; k < groups.count; ++k) {
      if (!groups.group[k].empty()) by_dn.Offer(groups.group[k].dn(), -2 - k);
    }
    PnDn sel_thdn = std::min(node_thdn, SecondBestThreshold(by_dn.second));
    if (by_dn.index >= 0) {
      out_thdn = sel_thdn;
      out_thpn = ChildThreshold(node_thpn, node_pn, children[by_dn.index].result.pn);
      return by_dn.index;
    }
    const SquareGroup& g = groups.group[-2 - by_dn.index];
    PnDn sel_thpn = ChildThreshold(node_thpn, node_pn, g.pn());
    bool use_h = g.has_h && (!g.has_d || g.h_pn <= g.d_pn);
    PnDn branch_thpn = sel_thpn, branch_thdn = sel_thdn;
    if (g.has_h && g.has_d) {
      branch_thpn = std::min(sel_thpn, SecondBestThreshold(use_h ? g.d_pn : g.h_pn));
      branch_thdn = ChildThreshold(sel_thdn, g.dn(), use_h ? g.h_dn : g.d_dn);
    }
    if (use_h) {
      int i = g.h_by_pn.index;
      out_thpn = std::min(branch_thpn, SecondBestThreshold(g.h_by_pn.second));
      out_thdn = ChildThreshold(branch_thdn, g.h_dn, children[i].result.dn);
      return i;
    }
    int i = g.d_by_dn.index;
    out_thdn = std::min(branch_thdn, SecondBestThreshold(g.d_by_dn.second));
    out_thpn = ChildThreshold(branch_thpn, g.d_pn, children[i].result.pn);
    return i;
  };

  // A check with promotion and the same check without are mostly refuted alike: counting
  // both disproof numbers in full counts one refutation twice, and steers the defender's
  // choice away from such checks. A pair counts as the larger of the two (as KomoringHeights
  // treats similar moves). Measured: 寿 17.18M -> 16.60M nodes, Microcosmos (1 GB) 84.83M ->
  // 82.07M, Zuko at 3M nodes -0.7% in total (geometric mean -1.2%, the same problems exact),
  // practical mate 9 and 11 (first 2000 of each) -0.3%. The defender's promotion pairs
  // likewise: 寿 16.07M but zukou-053 +10%.
  // Most OR nodes have no pair: their disproof numbers are then summed without the twin
  // tests (寿's first 300k nodes: 0.25% fewer instructions).
  bool any_twin = false;
  if (or_node) {
    // An OR node's children are its checks, in the order of `moves`; each pair is found from
    // its promotion.
    std::span<const Move> checks(moves.begin(), size_t(moves.size()));
    for (int i = 0; i < int(checks.size()); ++i) {
      if (!checks[i].is_promotion()) continue;
      if (int j = PromotionTwin(checks, i); j >= 0) {
        children[i].twin = j;
        children[j].twin = i;
        any_twin = true;
      }
    }
  }
  auto twin_dn = [&](int i) {
    const Child& c = children[i];
    return c.twin < 0 ? c.result.dn : std::max(c.result.dn, children[c.twin].result.dn);
  };
  SquareGroups groups;
  PnDn pn = 1, dn = 1;
  while (true) {
    // Combine the children and select the most promising one with the second-best value, in
    // one pass where the node has no interposition groups (the same numbers as a pass for
    // each). Only AND nodes with hypothetical squares have unavailable or grouped children.
    int best = -1;
    PnDn best_value = kInfinitePnDn + 1, second = kInfinitePnDn;
    const int count = int(children.size());
    if (or_node) {
      SaturatingSum dn_sum;
      for (int i = 0; i < count; ++i) {
        const Child& c = children[i];
        PnDn v = c.result.pn;
        if (v < best_value) {
          second = best_value;
          best_value = v;
          best = i;
        } else if (v < second) {
          second = v;
        }
        if (!any_twin) {
          dn_sum.Add(c.result.dn);
        } else if (c.twin < 0 || c.twin > i) {
          dn_sum.Add(twin_dn(i));
        }
      }
      dn = dn_sum.value();
      pn = std::min(best_value, kInfinitePnDn);
    } else if (hypothetical_squares.None()) {
      SaturatingSum pn_sum;
      PnDn best_pn = 0;
      for (int i = 0; i < count; ++i) {
        const Child& c = children[i];
        pn_sum.Add(c.result.pn);
        PnDn v = c.result.dn;
        if (v < best_value) {
          second = best_value;
          best_value = v;
          best = i;
          best_pn = c.result.pn;
        } else {
          if (v < second) second = v;
          // Among defences as easy to disprove, the one hardest to prove mated is likelier to
          // refute. Zuko at 3M nodes: -1.1% (geometric mean), one more exact; zukou-055 -3.5%;
          // but 寿 +1.2%, practical mate 11 +0.3%, Microcosmos +2% (1 GB), +9.5% (256 MB).
          if (v == best_value && c.result.pn > best_pn) {
            best = i;
            best_pn = c.result.pn;
          }
        }
      }
      pn = pn_sum.value();
      dn = std::min(best_value, kInfinitePnDn);
    } else {
      pn = 0;
      dn = kInfinitePnDn;
      for (const Child& c : children) {
        if (c.kind == ChildKind::kUnavailable || in_group(c)) continue;
        pn = SaturatingAdd(pn, c.result.pn);
        dn = std::min(dn, c.result.dn);
      }
      combine_squares(groups);
      for (int k = 0; k < groups.count; ++k) {
        const SquareGroup& g = groups.group[k];
        if (g.empty()) continue;
        pn = SaturatingAdd(pn, g.pn());
        dn = std::min(dn, g.dn());
      }
    }
    if (pn == 0 || dn == 0 || pn >= thpn || dn >= thdn) break;
    if (CheckLimits()) break;

    second = std::min(second, kInfinitePnDn);
    PnDn child_thpn, child_thdn;
    if (or_node) {
      // A depth-limited search mostly disproves (each pass short of the exact length, and
      // the final one), and an OR node is disproven only once every check is: switching
      // checks early is mostly wasted, so a check runs until it is three quarters worse than
      // the second. Measured against a quarter: 寿 19.01M -> 15.93M nodes, zukou-055
      // 28.67M -> 26.89M, Zuko at 3M nodes -1.7% in total (geometric mean -5.9%, same
      // problems exact); a half: 寿 18.17M; a whole: 17.6M, but zukou-086 +24%. In the
      // unbounded search, which proves, three quarters gained nothing.
      int quarters = depth == kInfiniteDepth ? 1 : 3;
      child_thpn = std::min(thpn, SecondBestThreshold(second, quarters));
      child_thdn = ChildThreshold(thdn, dn, twin_dn(best));
      if (depth <= settle_or_plies_) child_thpn = child_thdn = kInfinitePnDn;
    } else if (hypothetical_squares.None()) {
      const Child& c = children[best];
      child_thdn = std::min(thdn, SecondBestThreshold(second));
      child_thpn = ChildThreshold(thpn, pn, c.result.pn);
    } else {
      best = select_and_child(groups, pn, thpn, thdn, child_thpn, child_thdn);
    }
    const Child& c = children[best];
    bool hypothetical = c.kind == ChildKind::kHypothetical;
    uint64_t child_path = c.path_key;
    if (hypothetical) {
      EnterHypothetical(pos, c.move);
    } else {
      pos.DoMove(c.move);
    }
    uint64_t full_key = pos.key();
    const int child_ply = ply + (hypothetical ? 2 : 1);  // pos.ply()
    path_.Insert(full_key, child_ply);
    PushSegment(child_ply, full_key, hypothetical);
    ++ply_;
    NodeResult r = hypothetical
                       ? Mid(pos, child_thpn, child_thdn, depth, false, child_path)
                       : Mid(pos, child_thpn, child_thdn, child_depth, !or_node, child_path);
    --ply_;
    path_.Erase(full_key);
    if (hypothetical) {
      LeaveHypothetical(pos);
    } else {
      pos.UndoMove();
    }
    children[best].result = r;
    settle_hypothetical(best);
    if (!or_node) expose_after(best);
  }

  const std::vector<Child>& kids = children;
  uint32_t amount = uint32_t(std::min<int64_t>(nodes_ - nodes_at_entry + 1, 0xffffffff));
  if (pn == 0) {
    result.pn = 0;
    result.dn = kInfinitePnDn;
    if (or_node) {
      const Child* proof_child = nullptr;
      for (const Child& c : kids) {
        if (c.result.proven() && (!proof_child || c.result.length < proof_child->result.length)) {
          proof_child = &c;
        }
      }
      Hand proof = proof_child->result.pieces;
      Move m = proof_child->move;
      if (m.is_drop()) proof.Add(m.dropped_type());
      Piece captured = m.is_drop() ? kNoPiece : pos.piece_on(m.to());
      if (captured != kNoPiece && proof.Has(Unpromote(TypeOf(captured)))) {
        proof.Remove(Unpromote(TypeOf(captured)));
      }
      result.pieces = proof;
      result.length = proof_child->result.length + 1;
    } else {
      Hand proof;
      int longest = 0;
      for (const Child& c : kids) {
        // Unproven children here are hypothetical ones of a square whose drops were all mated.
        if (c.kind == ChildKind::kUnavailable || !c.result.proven()) continue;
        proof = Hand::Max(proof, c.result.pieces);
        // A useless interposition is not counted: its square's hypothetical position is.
        int length = c.kind == ChildKind::kHypothetical ? c.result.length : c.result.length + 1;
        longest = std::max(longest, length);
      }
      result.pieces = RequireMissingInterposers(pos, proof, h0);
      result.length = longest;
    }
    tt_.StoreProven(key, result.pieces, result.length, amount);
  } else if (dn == 0) {
    result.pn = kInfinitePnDn;
    result.dn = 0;
    if (or_node) {
      Hand disproof = FullHand();
      int shallowest = kInfiniteDepth;
      bool tainted = false;
      int loop_ply = kMaxPly;
      for (const Child& c : kids) {
        Hand d = c.result.pieces;
        Move m = c.move;
        if (m.is_drop()) {
          PieceType pt = m.dropped_type();
          if (d.Count(pt) < Hand::kMaxCount[pt]) d.Add(pt);
        } else if (Piece captured = pos.piece_on(m.to()); captured != kNoPiece) {
          PieceType pt = Unpromote(TypeOf(captured));
          if (d.Has(pt)) d.Remove(pt);
        }
        disproof = Hand::Min(disproof, d);
        shallowest = std::min(shallowest, ParentDepth(c.result.depth));
        if (c.result.tainted) {
          tainted = true;
          loop_ply = std::min(loop_ply, c.result.loop_ply);
        }
      }
      result.pieces = OrDisproofPieces(pos, disproof);
      result.depth = shallowest;
      result.tainted = tainted;
      result.loop_ply = loop_ply;
    } else {
      // Prefer an untainted refutation (or one tainted only by this node), then the deepest.
      auto taint = [&](const Child& c) {
        return c.result.tainted && c.result.loop_ply < pos.ply() ? pos.ply() - c.result.loop_ply
                                                                 : 0;
      };
      // A drop refutes only once no hypothetical capture on its square is left open.
      Bitboard open_squares;
      for (const Child& c : kids) {
        if (c.kind == ChildKind::kHypothetical) open_squares.Set(c.square);
      }
      // How deep a refutation holds. A drop on an interposition square holds only as deep as
      // the hypothetical captures there were disproven (searched at this node's depth, they
      // may be no mate only within it): deeper, one of them may mate and make the drop
      // useless. (Without this bound zukou-025's verification once read "no mate" where
      // there was one.)
      auto refuted_depth = [&](const Child& c) {
        int d = ParentDepth(c.result.depth);
        if (c.square == kNoSquare || !c.move.is_drop()) return d;
        for (const Child& h : kids) {
          if (h.was_hypothetical() && h.square == c.square && h.result.disproven()) {
            d = std::min(d, h.result.depth);
          }
        }
        return d;
      };
      const Child* refutation = nullptr;
      int refutation_depth = 0;
      for (const Child& c : kids) {
        if (c.kind != ChildKind::kReal || !c.result.disproven()) continue;
        if (c.square != kNoSquare && c.move.is_drop() && open_squares.Test(c.square)) continue;
        int d = refuted_depth(c);
        if (!refutation || taint(c) < taint(*refutation) ||
            (taint(c) == taint(*refutation) && d > refutation_depth)) {
          refutation = &c;
          refutation_depth = d;
        }
      }
      Hand d = refutation->result.pieces;
      if (refutation->move.is_drop()) {
        PieceType pt = refutation->move.dropped_type();
        d.Set(pt, std::min(d.Count(pt), h0.Count(pt)));
      }
      // Tsume rules: whether a drop was useless depends on the defender's hand too.
      if (rules_ == Rules::kTsume && deferred.Any()) d = Hand::Min(d, h0);
      result.pieces = d;
      result.depth = refutation_depth;
      result.tainted = refutation->result.tainted;
      result.loop_ply = refutation->result.loop_ply;
      // A hypothetical capture found no mate only on this path: the drops it let in may
      // then count only on this path too.
      for (const Child& c : kids) {
        if (c.was_hypothetical() && c.result.disproven() && c.result.tainted) {
          result.loop_ply =
              result.tainted ? std::min(result.loop_ply, c.result.loop_ply) : c.result.loop_ply;
          result.tainted = true;
        }
      }
    }
    // Repetitions of this very position do not depend on the path: a shortest mate from it
    // never comes back to it.
    if (result.tainted && result.loop_ply >= pos.ply()) result.tainted = false;
    if (result.tainted) {
      // Only a cache (a lost entry is searched again), so its memory stays bounded even
      // within one long run.
      if (path_table_.size() >= kMaxRepetitionEntries) {
        path_table_.clear();
        path_filter_.fill(0);
      }
      path_table_[path_key] = {result.depth, result.loop_ply};
      PathFilterWord(path_key) |= PathFilterBit(path_key);
      StoreSegmentDisproof(pos.key(), SegmentHash(result.loop_ply, pos.ply(), 0),
                           pos.ply() - result.loop_ply, result.depth);
    } else {
      tt_.StoreDisproven(key, result.pieces, result.depth, amount);
    }
  } else {
    result.pn = pn;
    result.dn = dn;
    tt_.StoreUnknown(key, h0, pn, dn, amount);
  }
  return result;
}

}  // namespace tsume
