// A shogi position: board, hands, side to move, Zobrist keys and the check information the move
// generators need. Moves are made and unmade in place; the undo information lives on an internal
// stack, so a search never copies the position.
#ifndef TSUME_CORE_POSITION_H_
#define TSUME_CORE_POSITION_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "core/bitboard.h"
#include "core/types.h"

namespace tsume {

class Position {
 public:
  // Per-ply state that cannot be recomputed cheaply when a move is undone, plus check info.
  struct State {
    uint64_t board_key;
    uint64_t hand_key;
    Move move;          // the move that led here (none at the root)
    Piece captured;     // what that move captured
    Bitboard checkers;  // pieces giving check to the side to move
    // Pieces of either colour that alone stand between king `c` and an enemy slider.
    Bitboard blockers[2];
    // Squares from which a bishop, resp. a rook, of the side to move would attack the enemy
    // king (empty without one). The other types' check squares are read off the step tables
    // when asked for (check_squares): two boards to fill per move instead of fifteen.
    Bitboard bishop_checks, rook_checks;
  };

  static constexpr absl::string_view kStartSfen =
      "lnsgkgsnl/1r5b1/ppppppppp/9/9/9/PPPPPPPPP/1B5R1/LNSGKGSNL b - 1";

  Position();  // the initial position

  // Parses an SFEN ("<board> <side> <hands> [move number]", "startpos" also accepted) and checks
  // that the position is legal; errors name the field and the character or square at fault.
  static absl::StatusOr<Position> FromSfen(absl::string_view sfen);
  // Parses a USI "position" argument: "startpos|sfen <sfen> [moves m1 m2 ...]" (the leading word
  // "position" is optional).
  static absl::StatusOr<Position> FromUsiPosition(absl::string_view line);

  std::string Sfen(int move_number = 1) const;

  // --- Board queries.
  Piece piece_on(Square sq) const { return board_[sq]; }
  Bitboard occupied() const { return by_color_[0] | by_color_[1]; }
  Bitboard pieces(Color c) const { return by_color_[c]; }
  Bitboard pieces(PieceType pt) const { return by_type_[pt]; }
  Bitboard pieces(Color c, PieceType pt) const { return by_color_[c] & by_type_[pt]; }
  Hand hand(Color c) const { return hands_[c]; }
  Color side_to_move() const { return side_; }
  // kNoSquare when colour c has no king (allowed for the attacker in tsume problems).
  Square king_square(Color c) const { return king_[c]; }
  bool has_king(Color c) const { return king_[c] != kNoSquare; }

  // Gold-movers (gold and promoted minors), horses+dragons etc. grouped for attack tests.
  Bitboard golds() const { return gold_movers_; }

  // --- Keys. The board key covers board and side to move; the hand key both hands. The solver
  // indexes its table by board key and compares hands; repetition uses both.
  uint64_t board_key() const { return st().board_key; }
  uint64_t hand_key() const { return st().hand_key; }
  uint64_t key() const { return st().board_key ^ st().hand_key; }

  // --- Check information.
  Bitboard checkers() const { return st().checkers; }
  bool in_check() const { return st().checkers.Any(); }
  Bitboard blockers_for_king(Color c) const { return st().blockers[c]; }
  Bitboard pinned(Color c) const { return st().blockers[c] & by_color_[c]; }
  // Squares from which a piece of the side to move of type pt would attack the enemy king.
  Bitboard check_squares(PieceType pt) const {
    Square ksq = king_[~side_];
    if (ksq == kNoSquare) return Bitboard();
    return CheckSquares(~side_, ksq, st().bishop_checks, st().rook_checks, pt);
  }
  // The same from a king's square and its bishop's and rook's check squares (a move generator
  // reads the two boards once and asks for each type).
  static Bitboard CheckSquares(Color them, Square their_king, Bitboard bishop_checks,
                               Bitboard rook_checks, PieceType pt) {
    switch (pt) {
      case kNoPieceType:
      case kKing:
        return Bitboard();
      case kLance:  // the rook's ray toward the side to move
        return rook_checks & StepAttacks(them, kLance, their_king);
      case kBishop:
        return bishop_checks;
      case kRook:
        return rook_checks;
      case kHorse:
        return bishop_checks | KingAttacks(their_king);
      case kDragon:
        return rook_checks | KingAttacks(their_king);
      default:  // the step pieces, the promoted minor ones included
        return StepAttacks(them, pt, their_king);
    }
  }

  // Pieces of colour c that attack sq, given the occupancy.
  Bitboard AttackersTo(Color c, Square sq, Bitboard occupied) const;
  Bitboard AttackersTo(Color c, Square sq) const { return AttackersTo(c, sq, occupied()); }
  bool IsAttacked(Color by, Square sq) const { return AttackersTo(by, sq).Any(); }

  // --- Moves.
  // For a move produced by a generator (pseudo-legal): true when it does not leave the mover's
  // king attacked. Pawn-drop mate is checked by the generators, not here.
  bool IsLegal(Move m) const;
  // True when the pseudo-legal move m gives check.
  bool GivesCheck(Move m) const;
  // Full legality of an arbitrary move (e.g. parsed from USI): piece ownership, geometry, drop
  // rules, nifu, dead squares, self-check and pawn-drop mate.
  bool IsFullyLegal(Move m) const;

  // The board key and the mover's hand after move m, without making it.
  uint64_t BoardKeyAfter(Move m) const;
  Hand HandAfter(Move m) const;
  // The hand key after move m (a caller that has the board key after m already saves
  // computing it again).
  uint64_t HandKeyAfter(Move m) const;
  // The full key (board and both hands) after move m, for repetition checks.
  uint64_t KeyAfter(Move m) const;

  void DoMove(Move m);
  void UndoMove();
  // Passes the turn (the side to move may be in check: used for hypothetical positions, such
  // as "the checker had moved there instead"). Undo with UndoMove.
  void DoNullMove();

  // Parses a USI move ("7g7f", "8h2b+", "P*5e") in this position; checks full legality.
  absl::StatusOr<Move> ParseUsiMove(absl::string_view usi) const;

  // Number of plies made since construction, and the move history.
  int ply() const { return states_.ply(); }
  Move last_move() const { return st().move; }
  const State& state_at(int ply) const { return states_.at(ply); }
  // Consecutive checks given by colour c, ending at the current ply (a null move by c ends
  // them; a root position in check counts as one check by the side not to move). Read back
  // through the states, not kept per ply: the search never asks.
  int continuous_checks(Color c) const;

 private:
  struct EmptyTag {};
  explicit Position(EmptyTag) {}
  // The states of plies 0..ply(). Slots above the current ply are kept when a move is undone
  // and overwritten by the next move, so making a move neither constructs nor copies a State;
  // a pointer to the current state saves index arithmetic on every access.
  class StateStack {
   public:
    StateStack() = default;
    StateStack(const StateStack& o) { *this = o; }
    StateStack& operator=(const StateStack& o) {
      if (this != &o) {
        states_.assign(o.states_.begin(), o.states_.begin() + o.ply() + 1);
        top_ = states_.data() + o.ply();
      }
      return *this;
    }
    // Moving a vector keeps its buffer, so top_ stays valid.
    StateStack(StateStack&& o) noexcept : states_(std::move(o.states_)), top_(o.top_) {
      o.top_ = nullptr;
    }
    StateStack& operator=(StateStack&& o) noexcept {
      states_ = std::move(o.states_);
      top_ = o.top_;
      o.top_ = nullptr;
      return *this;
    }

    void Reset(const State& root) {
      states_.assign(1, root);
      top_ = states_.data();
    }
    int ply() const { return int(top_ - states_.data()); }
    const State& at(int ply) const { return states_[ply]; }
    const State& top() const { return *top_; }
    State& top() { return *top_; }
    // The slot above the current state, which becomes the current state.
    State& Push() {
      if (top_ + 1 == states_.data() + states_.size()) Grow();
      return *++top_;
    }
    void Pop() { --top_; }

   private:
    void Grow() {
      int ply = this->ply();
      states_.emplace_back();
      top_ = states_.data() + ply;
    }
    std::vector<State> states_;
    State* top_ = nullptr;
  };

  const State& st() const { return states_.top(); }
  State& st() { return states_.top(); }
  void PutPiece(Square sq, Piece p);
  // Adds or removes p on sq in the bitboards (not board_, king_).
  void TogglePiece(Square sq, Piece p);
  // Moves p from `from` to `to`, where it becomes `moved`, in the bitboards.
  void MovePiece(Square from, Square to, Piece p, Piece moved);
  void ComputeCheckInfo(State& s) const;
  void ComputeCheckSquares(State& s) const;
  // Whether the legal move m gives check by uncovering a slider (the part of GivesCheck that
  // is not the moved piece's own attack).
  bool DiscoversCheck(Move m) const;
  absl::Status Validate() const;
  // Pieces of either colour that alone stand between king `king_color` on ksq and an enemy slider.
  Bitboard SliderBlockers(Color king_color, Square ksq) const;

  std::array<Piece, kNumSquares> board_{};
  Bitboard by_color_[2];
  Bitboard by_type_[kNumPieceTypes];
  Bitboard gold_movers_;
  Hand hands_[2];
  Color side_ = kBlack;
  Square king_[2] = {kNoSquare, kNoSquare};
  StateStack states_;
};

// Zobrist keys (fixed seeds, so keys are stable across runs).
namespace zobrist {
extern uint64_t psq[kPieceNB][kNumSquares];
extern uint64_t hand[2][8];
extern uint64_t side;
}  // namespace zobrist

// Inline: Mid asks for every child.
inline uint64_t Position::BoardKeyAfter(Move m) const {
  uint64_t key = st().board_key ^ zobrist::side;
  Color us = side_;
  Square to = m.to();
  if (m.is_drop()) return key ^ zobrist::psq[MakePiece(us, m.dropped_type())][to];
  Piece p = board_[m.from()];
  if (board_[to] != kNoPiece) key ^= zobrist::psq[board_[to]][to];
  Piece moved = m.is_promotion() ? Piece(p | kPromotedBit) : p;
  return key ^ zobrist::psq[p][m.from()] ^ zobrist::psq[moved][to];
}

inline uint64_t Position::HandKeyAfter(Move m) const {
  uint64_t hand_key = st().hand_key;
  if (m.is_drop()) {
    hand_key -= zobrist::hand[side_][m.dropped_type()];
  } else if (board_[m.to()] != kNoPiece) {
    hand_key += zobrist::hand[side_][Unpromote(TypeOf(board_[m.to()]))];
  }
  return hand_key;
}

// USI move string, e.g. "7g7f", "8h2b+", "P*5e".
std::string ToUsi(Move m);
// A hand as SFEN writes it, strongest piece first: "R2G3P" for Black, "r2g3p" for White; ""
// when empty.
std::string HandToSfen(Hand hand, Color c);
std::string SquareToUsi(Square sq);

}  // namespace tsume

#endif  // TSUME_CORE_POSITION_H_
