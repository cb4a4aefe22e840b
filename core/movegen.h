// Move generation: every legal move, and the two generators the mate search lives on: checks
// (the attacker's candidate moves) and evasions (the defender's replies to a check).
#ifndef TSUME_CORE_MOVEGEN_H_
#define TSUME_CORE_MOVEGEN_H_

#include "core/position.h"
#include "core/types.h"

namespace tsume {

// The most legal moves any shogi position has is 593.
constexpr int kMaxMoves = 600;

class MoveList {
 public:
  // The array is left uninitialised: lists are built at every search node.
  MoveList() {}
  void push_back(Move m) { moves_[size_++] = m; }
  void clear() { size_ = 0; }
  // For generators that write at end() through a pointer of their own: the list ends at `end`.
  void set_end(Move* end) { size_ = int(end - moves_); }
  int size() const { return size_; }
  bool empty() const { return size_ == 0; }
  Move operator[](int i) const { return moves_[i]; }
  Move* begin() { return moves_; }
  Move* end() { return moves_ + size_; }
  const Move* begin() const { return moves_; }
  const Move* end() const { return moves_ + size_; }
  bool contains(Move m) const {
    for (int i = 0; i < size_; ++i)
      if (moves_[i] == m) return true;
    return false;
  }

 private:
  union {
    Move moves_[kMaxMoves];
  };
  int size_ = 0;
};

// Every legal move of the side to move: all promotions and every non-promotion that leaves the
// piece a move, drops under the nifu and dead-square rules, no pawn-drop mate, no self-check.
// Appends to `list`.
void GenerateLegal(const Position& pos, MoveList& list);

// Every legal move that gives check. When the side to move is itself in check, only the
// evasions that also give check.
void GenerateChecks(const Position& pos, MoveList& list);

// Every legal move of a side in check. Requires pos.in_check().
void GenerateEvasions(const Position& pos, MoveList& list);

// True when the side to move, in check, has any legal reply.
bool HasEvasion(const Position& pos);

// True when the side to move is checkmated (in check with no legal reply).
inline bool IsCheckmate(const Position& pos) { return pos.in_check() && !HasEvasion(pos); }

// A checking move after which the opponent has no legal reply, or Move::None(). Consistent with
// the pawn-drop mate rule (a pawn drop is never returned). `pos` is restored before returning.
Move FindMateIn1(Position& pos);
// The same among `checks`, the output of GenerateChecks(pos) (for callers that need the list
// anyway): the first of them that mates. With `drops_only`, the checks before it that do not
// mate but leave the opponent only drops between its king and the checker are appended there,
// in order (those OnlyDropsAnswerCheck holds for): under tsume rules they may still mate.
Move FindMateIn1(Position& pos, const MoveList& checks, MoveList* drops_only = nullptr);

// About how many replies the opponent has after the legal checking move m, drops on one square
// counted once, worked out without making m: king steps to squares left unattacked, captures
// of a single checker, and per square in between the pieces that can move there plus one if a
// piece in hand can be dropped there, each promotion choice counted. Pieces pinned to the king
// and pawn-drop mate are not looked at. The exact count needs GenerateEvasions after m.
int EstimateRepliesToCheck(const Position& pos, Move m);

// Whether, after the legal checking move m, every legal reply of the opponent is a drop
// between its king and the checker (true when it has no reply at all), worked out without
// making m. Under tsume rules only such a check can mate by making the drops useless.
bool OnlyDropsAnswerCheck(const Position& pos, Move m);

}  // namespace tsume

#endif  // TSUME_CORE_MOVEGEN_H_
