#include "core/movegen.h"

#include <array>
#include <bit>
#include <cassert>

#include "core/bitboard.h"

// Generation runs per piece type, with the side to move as a template parameter so that
// directions and zones are constants: pawns in bulk by a shift, the other pieces one by one,
// drops type by type. Moves are built from a per-piece "base" (from square and type) or'ed
// with the destination. Answers to checks (evasions, HasEvasion, mate in 1) work square by
// square from the attackers of the checker and of the squares between.

namespace tsume {
namespace {

// Move bits, as laid out by Move (types.h): to | from << 7 | promote << 14 | drop << 15 |
// moved type << 16. A piece's moves share a base (from square and type) and differ in `to`.
constexpr uint32_t kPromoteBit = 1u << 14;
constexpr uint32_t NormalBase(Square from, PieceType pt) {
  return uint32_t(from) << 7 | uint32_t(pt) << 16;
}
constexpr uint32_t DropBase(PieceType pt) {
  return uint32_t(pt) << 7 | 1u << 15 | uint32_t(pt) << 16;
}
static_assert(Move::Normal(3, 5, kSilver, true).bits() ==
              (NormalBase(3, kSilver) | kPromoteBit | 5));
static_assert(Move::Normal(80, 0, kDragon, false).bits() == NormalBase(80, kDragon));
static_assert(Move::Drop(kGold, 40).bits() == (DropBase(kGold) | 40));
static_assert(sizeof(Move) == sizeof(uint32_t));

inline void Add(MoveList& list, uint32_t bits) { list.push_back(std::bit_cast<Move>(bits)); }

// One move per square of `targets`, each `base | to`.
inline void AddTargets(MoveList& list, uint32_t base, Bitboard targets) {
  ForEachSquare(targets, [&](Square to) { Add(list, base | to); });
}

// The same written at `out`, returning the new end: a generator that adds many such runs keeps
// the end of its list in a register instead of storing the size after every move. Called only
// with some targets (many runs have none, and the test is cheaper than the call).
[[gnu::noinline]] Move* WriteSomeTargets(Move* out, uint32_t base, Bitboard targets) {
  for (uint64_t lo = uint64_t(targets.bits()); lo != 0; lo &= lo - 1) {
    *out++ = std::bit_cast<Move>(base | uint32_t(std::countr_zero(lo)));
  }
  for (uint64_t hi = uint64_t(targets.bits() >> 64); hi != 0; hi &= hi - 1) {
    *out++ = std::bit_cast<Move>(base | uint32_t(64 + std::countr_zero(hi)));
  }
  return out;
}
inline Move* WriteTargets(Move* out, uint32_t base, Bitboard targets) {
  return targets.Any() ? WriteSomeTargets(out, base, targets) : out;
}

// Per-colour constants.
template <Color Us>
struct Side {
  static constexpr Color kThem = Us == kBlack ? kWhite : kBlack;
  // Rank index of the last and second-to-last rank (where pawns/lances resp. knights die).
  static constexpr int kLastRank = Us == kBlack ? 0 : 8;
  static constexpr int kSecondRank = Us == kBlack ? 1 : 7;
  // A pawn's step as a square delta.
  static constexpr int kForward = Us == kBlack ? -1 : 1;
  static Bitboard Zone() { return PromotionZone(Us); }
  static Bitboard LastRank() { return RankBB(kLastRank); }
  static Bitboard LastTwoRanks() { return RankBB(kLastRank) | RankBB(kSecondRank); }
  // Every pawn one step forward. No pawn stands on its last rank, so nothing crosses a file.
  static Bitboard PawnPushes(Bitboard pawns) {
    return Us == kBlack ? Bitboard(pawns.bits() >> 1) : Bitboard(pawns.bits() << 1);
  }
};

// Squares from which a non-sliding piece can attack a neighbour of the king: two files either
// side, three ranks either way (a knight two ranks beyond a neighbour).
constexpr std::array<Bitboard, kNumSquares> kKingNeighbourhood = [] {
  std::array<Bitboard, kNumSquares> table{};
  for (Square ksq = 0; ksq < kNumSquares; ++ksq) {
    for (int df = -2; df <= 2; ++df) {
      for (int dr = -3; dr <= 3; ++dr) {
        int f = FileOf(ksq) + df, r = RankOf(ksq) + dr;
        if (OnBoard(f, r)) table[ksq].Set(MakeSquare(f, r));
      }
    }
  }
  return table;
}();

// Squares on a line (file, rank or diagonal) through the king's square or a neighbour: only a
// slider standing there can attack a square the king might step to.
constexpr std::array<Bitboard, kNumSquares> kKingLines = [] {
  std::array<Bitboard, kNumSquares> table{};
  for (Square ksq = 0; ksq < kNumSquares; ++ksq) {
    for (int nf = -1; nf <= 1; ++nf) {
      for (int nr = -1; nr <= 1; ++nr) {
        int f0 = FileOf(ksq) + nf, r0 = RankOf(ksq) + nr;
        if (!OnBoard(f0, r0)) continue;
        for (int df = -1; df <= 1; ++df) {
          for (int dr = -1; dr <= 1; ++dr) {
            if (df == 0 && dr == 0) continue;
            for (int f = f0 + df, r = r0 + dr; OnBoard(f, r); f += df, r += dr) {
              table[ksq].Set(MakeSquare(f, r));
            }
          }
        }
      }
    }
  }
  return table;
}();

// The squares of `targets` that side C's lances, bishops (and horses) and rooks (and dragons)
// attack through `occupied`, by their lines only: a slider whose empty-board reach misses the
// targets is skipped before its attacks are worked out (a few bit extractions each).
template <Color C>
[[gnu::always_inline]] inline Bitboard SlidersAttackOf(Bitboard lances, Bitboard bishops,
                                                       Bitboard rooks, Bitboard targets,
                                                       Bitboard occupied) {
  Bitboard attacked;
  ForEachSquare(lances, [&](Square s) {
    if ((StepAttacks(C, kLance, s) & targets).Any()) attacked |= LanceAttacks(C, s, occupied);
  });
  ForEachSquare(bishops, [&](Square s) {
    if ((StepAttacks(C, kBishop, s) & targets).Any()) attacked |= BishopAttacks(s, occupied);
  });
  ForEachSquare(rooks, [&](Square s) {
    if ((StepAttacks(C, kRook, s) & targets).Any()) attacked |= RookAttacks(s, occupied);
  });
  return attacked & targets;
}

// The squares that C's stepping pieces among `pieces` attack next to the king on ksq (horses
// and dragons by their steps; lances, bishops and rooks are left to the slider tests): only
// pieces within kKingNeighbourhood can reach a square next to it.
template <Color C>
[[gnu::always_inline]] inline Bitboard StepAttacksNearKing(const Position& pos, Square ksq,
                                                           Bitboard pieces) {
  Bitboard steppers = (kKingNeighbourhood[ksq] & pieces)
                          .AndNot(pos.pieces(kLance) | pos.pieces(kBishop) | pos.pieces(kRook));
  Bitboard attacked;
  ForEachSquare(steppers,
                [&](Square sq) { attacked |= StepAttacks(C, TypeOf(pos.piece_on(sq)), sq); });
  return attacked;
}

// The targets the enemy does not attack once our king has left ksq. The steps of their
// non-sliding pieces near the king first; then, on the targets left, their sliders on a line
// through the king's neighbourhood, each one's attacks worked out once (a few bit extractions)
// when its empty-board reach meets a target, rather than a look along every line through every
// target.
template <Color Us>
Bitboard SafeKingTargets(const Position& pos, Square ksq, Bitboard targets) {
  constexpr Color kThem = Side<Us>::kThem;
  Bitboard them = pos.pieces(kThem);
  Bitboard lances = pos.pieces(kLance) & them;
  Bitboard bishops = (pos.pieces(kBishop) | pos.pieces(kHorse)) & them;
  Bitboard rooks = (pos.pieces(kRook) | pos.pieces(kDragon)) & them;
  // Horses and dragons count here with their one-step moves (StepAttacks) as well.
  Bitboard safe = targets.AndNot(StepAttacksNearKing<kThem>(pos, ksq, them));
  Bitboard lines = kKingLines[ksq];
  if (safe.None() || ((lances | bishops | rooks) & lines).None()) return safe;
  return safe.AndNot(SlidersAttackOf<kThem>(lances & lines, bishops & lines, rooks & lines, safe,
                                            pos.occupied() ^ SquareBB(ksq)));
}

// King moves to targets that the enemy does not attack once the king has left its square.
template <Color Us>
void AddKingMoves(const Position& pos, Square ksq, Bitboard targets, MoveList& list) {
  list.set_end(
      WriteTargets(list.end(), NormalBase(ksq, kKing), SafeKingTargets<Us>(pos, ksq, targets)));
}

template <Color Us>
bool AnyKingMove(const Position& pos, Square ksq, Bitboard targets) {
  return SafeKingTargets<Us>(pos, ksq, targets).Any();
}

// Moves of one piece that may promote (silver, bishop, rook): promotion when it starts or
// ends in the zone, and always the plain move.
template <Color Us>
inline void AddPromotableMoves(uint32_t base, bool from_in_zone, Bitboard targets, MoveList& list) {
  Bitboard promoting = from_in_zone ? targets : targets & Side<Us>::Zone();
  AddTargets(list, base | kPromoteBit, promoting);
  AddTargets(list, base, targets);
}

// Every move of one piece (type pt on `from`) to `targets`, with both promotion choices where
// the rules allow them.
template <Color Us>
inline void AddAllMoves(PieceType pt, Square from, Bitboard targets, MoveList& list) {
  using S = Side<Us>;
  uint32_t base = NormalBase(from, pt);
  if (!CanPromote(pt)) {
    AddTargets(list, base, targets);
    return;
  }
  Bitboard promoting = S::Zone().Test(from) ? targets : targets & S::Zone();
  AddTargets(list, base | kPromoteBit, promoting);
  Bitboard dead = pt == kKnight                   ? S::LastTwoRanks()
                  : (pt == kPawn || pt == kLance) ? S::LastRank()
                                                  : Bitboard();
  AddTargets(list, base, targets.AndNot(dead));
}

// The moves of one piece (type pt on `from`) to the square `to`, as AddAllMoves makes them for
// a single target (the promotion first), with square tests instead of boards.
template <Color Us>
inline Move* WriteMovesTo(PieceType pt, Square from, Square to, Move* out) {
  uint32_t move = NormalBase(from, pt) | to;
  if (CanPromote(pt) && (InPromotionZone(Us, from) || InPromotionZone(Us, to))) {
    *out++ = std::bit_cast<Move>(move | kPromoteBit);
  }
  if (!IsDeadSquare(Us, pt, to)) *out++ = std::bit_cast<Move>(move);
  return out;
}

// Moves of every piece except the king onto `target` (when not in check). Pinned pieces keep
// to the line through their king.
template <Color Us>
void AddPieceMoves(const Position& pos, Bitboard target, MoveList& list) {
  using S = Side<Us>;
  Bitboard occupied = pos.occupied();
  Square ksq = pos.king_square(Us);
  Bitboard zone = S::Zone();
  Bitboard pinned = pos.pinned(Us);
  Bitboard unpinned = pos.pieces(Us).AndNot(pinned);

  // Pawns, in bulk. A pinned pawn on its king's file stays on the line when it steps.
  Bitboard pawns = pos.pieces(kPawn) & unpinned;
  if (pinned.Any()) pawns |= pos.pieces(kPawn) & pinned & FileBB(FileOf(ksq));
  Bitboard pushes = S::PawnPushes(pawns) & target;
  auto pawn_move = [](Square to) { return NormalBase(to - S::kForward, kPawn) | to; };
  ForEachSquare(pushes.AndNot(zone), [&](Square to) { Add(list, pawn_move(to)); });
  ForEachSquare(pushes & zone, [&](Square to) { Add(list, pawn_move(to) | kPromoteBit); });
  ForEachSquare((pushes & zone).AndNot(S::LastRank()),
                [&](Square to) { Add(list, pawn_move(to)); });

  // The other unpinned pieces, type by type.
  ForEachSquare(unpinned & pos.pieces(kLance), [&](Square from) {
    Bitboard targets = LanceAttacks(Us, from, occupied) & target;
    uint32_t base = NormalBase(from, kLance);
    AddTargets(list, base | kPromoteBit, targets & zone);
    AddTargets(list, base, targets.AndNot(S::LastRank()));
  });
  ForEachSquare(unpinned & pos.pieces(kKnight), [&](Square from) {
    Bitboard targets = KnightAttacks(Us, from) & target;
    uint32_t base = NormalBase(from, kKnight);
    AddTargets(list, base | kPromoteBit, targets & zone);
    AddTargets(list, base, targets.AndNot(S::LastTwoRanks()));
  });
  ForEachSquare(unpinned & pos.pieces(kSilver), [&](Square from) {
    AddPromotableMoves<Us>(NormalBase(from, kSilver), zone.Test(from),
                           SilverAttacks(Us, from) & target, list);
  });
  ForEachSquare(unpinned & pos.golds(), [&](Square from) {
    AddTargets(list, NormalBase(from, TypeOf(pos.piece_on(from))), GoldAttacks(Us, from) & target);
  });
  ForEachSquare(unpinned & pos.pieces(kBishop), [&](Square from) {
    AddPromotableMoves<Us>(NormalBase(from, kBishop), zone.Test(from),
                           BishopAttacks(from, occupied) & target, list);
  });
  ForEachSquare(unpinned & pos.pieces(kRook), [&](Square from) {
    AddPromotableMoves<Us>(NormalBase(from, kRook), zone.Test(from),
                           RookAttacks(from, occupied) & target, list);
  });
  ForEachSquare(unpinned & pos.pieces(kHorse), [&](Square from) {
    AddTargets(list, NormalBase(from, kHorse),
               (BishopAttacks(from, occupied) | KingAttacks(from)) & target);
  });
  ForEachSquare(unpinned & pos.pieces(kDragon), [&](Square from) {
    AddTargets(list, NormalBase(from, kDragon),
               (RookAttacks(from, occupied) | KingAttacks(from)) & target);
  });

  // Pinned pieces other than pawns (rare): only along the line through their king.
  if (pinned.None()) return;
  ForEachSquare(pinned.AndNot(pos.pieces(kPawn)), [&](Square from) {
    PieceType pt = TypeOf(pos.piece_on(from));
    AddAllMoves<Us>(pt, from, Attacks(Us, pt, from, occupied) & target & Line(from, ksq), list);
  });
}

// Files (as a mask) holding one of `pawns`, all files at once: a file is 9 bits, and adding
// 0xff to its lower 8 carries into the top bit exactly when one of them is set (never beyond).
Bitboard PawnFiles(Bitboard pawns) {
  using Bits = Bitboard::Bits;
  constexpr Bits kTop = [] {
    Bits b = 0;
    for (int file = 0; file < 9; ++file) b |= Bits(1) << MakeSquare(file, 8);
    return b;
  }();
  constexpr Bits kLow = Bitboard::All().bits() & ~kTop;
  Bits p = pawns.bits();
  Bits first = (((p & kLow) + kLow) | p) & kTop;  // a file's top bit when it holds a pawn
  first >>= 8;                                    // moved to its bottom square
  return Bitboard((first << 9) - first);          // each spread over its file's 9 bits
}

template <Color Us>
bool PawnDropMates(const Position& pos, Square sq);

// Pawn drops onto `targets` (empty squares): not on the last rank, not on a file holding one
// of our pawns, and not a pawn-drop mate.
template <Color Us>
Bitboard PawnDropTargets(const Position& pos, Bitboard targets) {
  targets = targets.AndNot(Side<Us>::LastRank()).AndNot(PawnFiles(pos.pieces(Us, kPawn)));
  Square their_king = pos.king_square(Side<Us>::kThem);
  if (their_king != kNoSquare) {
    // Only the square in front of their king checks.
    Bitboard checking = targets & PawnAttacks(Side<Us>::kThem, their_king);
    if (checking.Any() && PawnDropMates<Us>(pos, checking.Lsb())) targets ^= checking;
  }
  return targets;
}

// Drops of every piece in hand onto `targets` (empty squares), under the drop rules, written
// at `out`; returns the new end.
template <Color Us>
Move* WriteDrops(const Position& pos, Bitboard targets, Move* out) {
  using S = Side<Us>;
  Hand hand = pos.hand(Us);
  if (hand.Empty() || targets.None()) return out;
  if (hand.Has(kPawn)) out = WriteTargets(out, DropBase(kPawn), PawnDropTargets<Us>(pos, targets));
  if (hand.Has(kLance)) out = WriteTargets(out, DropBase(kLance), targets.AndNot(S::LastRank()));
  if (hand.Has(kKnight)) {
    out = WriteTargets(out, DropBase(kKnight), targets.AndNot(S::LastTwoRanks()));
  }
  for (PieceType pt : {kSilver, kGold, kBishop, kRook}) {
    if (hand.Has(pt)) out = WriteSomeTargets(out, DropBase(pt), targets);
  }
  return out;
}
template <Color Us>
void AddDrops(const Position& pos, Bitboard targets, MoveList& list) {
  list.set_end(WriteDrops<Us>(pos, targets, list.end()));
}

// Steps of every piece of a set at once, by shifts of the whole board: one square along a file
// is an index step of 1 (kept off the rank edges), one across files a step of 9 (the bits shifted
// past the last file masked off).
namespace shifts {
using Bits = Bitboard::Bits;
constexpr Bits RankMask(int rank) {
  Bits b = 0;
  for (int file = 0; file < 9; ++file) b |= Bits(1) << MakeSquare(file, rank);
  return b;
}
constexpr Bits kAll = Bitboard::All().bits();
// Toward rank 0 (Black's forward) and toward rank 8.
constexpr Bits North(Bits b) { return (b & ~RankMask(0)) >> 1; }
constexpr Bits South(Bits b) { return (b & ~RankMask(8)) << 1; }
constexpr Bits Across(Bits b) { return ((b << 9) & kAll) | b >> 9; }  // both neighbouring files
template <Color C>
constexpr Bits Forward(Bits b) {
  return C == kBlack ? North(b) : South(b);
}
template <Color C>
constexpr Bits Backward(Bits b) {
  return C == kBlack ? South(b) : North(b);
}
}  // namespace shifts

// The pieces of one colour grouped by how they attack, for attack tests on a position that
// differs from `pos` by a moved or captured piece: built from the pieces on `mask`, then
// adjusted with Toggle.
template <Color C>
class AttackerSets {
 public:
  [[gnu::always_inline]] AttackerSets(const Position& pos, Bitboard mask)
      : pawns_(pos.pieces(kPawn) & mask),
        knights_(pos.pieces(kKnight) & mask),
        silvers_(pos.pieces(kSilver) & mask),
        golds_(pos.golds() & mask),
        kings_((pos.pieces(kKing) | pos.pieces(kHorse) | pos.pieces(kDragon)) & mask),
        lances_(pos.pieces(kLance) & mask),
        rooks_((pos.pieces(kRook) | pos.pieces(kDragon)) & mask),
        bishops_((pos.pieces(kBishop) | pos.pieces(kHorse)) & mask) {}

  // Adds (or, for a piece that is there, removes) a piece of type pt on sq.
  void Toggle(PieceType pt, Square sq) {
    Bitboard b = SquareBB(sq);
    switch (pt) {
      case kPawn:
        pawns_ ^= b;
        break;
      case kLance:
        lances_ ^= b;
        break;
      case kKnight:
        knights_ ^= b;
        break;
      case kSilver:
        silvers_ ^= b;
        break;
      case kBishop:
        bishops_ ^= b;
        break;
      case kRook:
        rooks_ ^= b;
        break;
      case kKing:
        kings_ ^= b;
        break;
      case kHorse:
        bishops_ ^= b;
        kings_ ^= b;
        break;
      case kDragon:
        rooks_ ^= b;
        kings_ ^= b;
        break;
      default:  // gold and the promoted minor pieces
        golds_ ^= b;
        break;
    }
  }

  // Pieces attacking sq given the occupancy (a horse or dragon next to sq counts by its step).
  Bitboard AttackersTo(Square sq, Bitboard occupied) const {
    constexpr Color kOther = C == kBlack ? kWhite : kBlack;
    Bitboard attackers = (PawnAttacks(kOther, sq) & pawns_) |
                         (KnightAttacks(kOther, sq) & knights_) |
                         (SilverAttacks(kOther, sq) & silvers_) |
                         (GoldAttacks(kOther, sq) & golds_) | (KingAttacks(sq) & kings_);
    ForEachSquare(Snipers(sq), [&](Square s) {
      if ((Between(s, sq) & occupied).None()) attackers.Set(s);
    });
    return attackers;
  }

  bool Attacks(Square sq, Bitboard occupied) const {
    constexpr Color kOther = C == kBlack ? kWhite : kBlack;
    Bitboard steps = (PawnAttacks(kOther, sq) & pawns_) | (KnightAttacks(kOther, sq) & knights_) |
                     (SilverAttacks(kOther, sq) & silvers_) | (GoldAttacks(kOther, sq) & golds_) |
                     (KingAttacks(sq) & kings_);
    return steps.Any() || SlidersAttack(sq, occupied);
  }

  // Whether one of the sliders attacks sq through `occupied`.
  bool SlidersAttack(Square sq, Bitboard occupied) const {
    for (Square s : Snipers(sq)) {
      if ((Between(s, sq) & occupied).None()) return true;
    }
    return false;
  }

  // Every square a non-sliding piece attacks (horses and dragons by their steps), all pieces at
  // once.
  Bitboard StepTargets() const {
    using namespace shifts;
    Bits golds = (golds_ | kings_).bits();  // straight back and sideways, as kings do too
    Bits forward = Forward<C>((silvers_ | golds_ | kings_).bits());  // and on to the diagonals
    Bits back = Backward<C>((silvers_ | kings_).bits());             // only the diagonals
    Bits knight = Forward<C>(Forward<C>(knights_.bits()));
    Bits across = forward | golds | back | knight;
    return Bitboard(forward | Forward<C>(pawns_.bits()) | Backward<C>(golds) | Across(across));
  }

  // Sliders on a line through sq along which they move (a lance of colour C moves toward sq
  // from the side where a lance of the other colour would go).
  Bitboard Snipers(Square sq) const {
    constexpr Color kOther = C == kBlack ? kWhite : kBlack;
    return (StepAttacks(kOther, kLance, sq) & lances_) | (StepAttacks(kOther, kRook, sq) & rooks_) |
           (StepAttacks(kOther, kBishop, sq) & bishops_);
  }

 private:
  Bitboard pawns_, knights_, silvers_, golds_, kings_, lances_, rooks_, bishops_;
};

// The pieces among `pieces` (all of colour C) that attack sq through `occupied`, read off the
// position's boards: for a square or two, cheaper than gathering the pieces into AttackerSets.
// RepliesAfterCheck::TheirAttackersTo has the same shape (kings left out); built on this function
// it took 0.48% more instructions on 寿 (the reply estimate's inner loop compiled worse).
template <Color C>
Bitboard AttackersAmong(const Position& pos, Bitboard pieces, Square sq, Bitboard occupied) {
  constexpr Color kOther = C == kBlack ? kWhite : kBlack;
  Bitboard steps =
      (PawnAttacks(kOther, sq) & pos.pieces(kPawn)) |
      (KnightAttacks(kOther, sq) & pos.pieces(kKnight)) |
      (SilverAttacks(kOther, sq) & pos.pieces(kSilver)) | (GoldAttacks(kOther, sq) & pos.golds()) |
      (KingAttacks(sq) & (pos.pieces(kKing) | pos.pieces(kHorse) | pos.pieces(kDragon)));
  Bitboard attackers = steps & pieces;
  Bitboard snipers =
      ((StepAttacks(kOther, kLance, sq) & pos.pieces(kLance)) |
       (StepAttacks(kOther, kRook, sq) & (pos.pieces(kRook) | pos.pieces(kDragon))) |
       (StepAttacks(kOther, kBishop, sq) & (pos.pieces(kBishop) | pos.pieces(kHorse)))) &
      pieces;
  ForEachSquare(snipers, [&](Square s) {
    if ((Between(s, sq) & occupied).None()) attackers.Set(s);
  });
  return attackers;
}

template <Color Us>
[[gnu::always_inline]] inline void GenerateEvasionsFor(const Position& pos, MoveList& list) {
  Square ksq = pos.king_square(Us);
  Bitboard checkers = pos.checkers();
  // King moves written in place: a call for them costs more than the few stores.
  Move* out = list.end();
  uint32_t king_base = NormalBase(ksq, kKing);
  ForEachSquare(SafeKingTargets<Us>(pos, ksq, KingAttacks(ksq).AndNot(pos.pieces(Us))),
                [&](Square to) { *out++ = std::bit_cast<Move>(king_base | to); });
  if (checkers.MoreThanOne()) {
    list.set_end(out);
    return;
  }
  Square checker = checkers.Lsb();
  Bitboard between = Between(ksq, checker);
  // Capturing the checker or interposing by a move: square by square, the unpinned pieces that
  // attack it (no pinned piece can answer a check: it would leave its line).
  Bitboard movers = pos.pieces(Us).AndNot(pos.pinned(Us) | SquareBB(ksq));
  Bitboard occupied = pos.occupied();
  ForEachSquare(between | checkers, [&](Square to) {
    ForEachSquare(AttackersAmong<Us>(pos, movers, to, occupied), [&](Square from) {
      out = WriteMovesTo<Us>(TypeOf(pos.piece_on(from)), from, to, out);
    });
  });
  if (between.Any()) out = WriteDrops<Us>(pos, between, out);
  list.set_end(out);
}

template <Color Us>
bool HasEvasionFor(const Position& pos) {
  using S = Side<Us>;
  Square ksq = pos.king_square(Us);
  Bitboard checkers = pos.checkers();
  if (AnyKingMove<Us>(pos, ksq, KingAttacks(ksq).AndNot(pos.pieces(Us)))) return true;
  if (checkers.MoreThanOne()) return false;
  Square checker = checkers.Lsb();
  Bitboard between = Between(ksq, checker);

  // Every piece moves the way it attacks, and a move to any square has a legal form
  // (promotion where the plain move would leave it dead), so capturing or interposing by a
  // piece is possible exactly when an unpinned piece other than the king attacks the square.
  AttackerSets<Us> movers(pos, pos.pieces(Us).AndNot(pos.pinned(Us) | SquareBB(ksq)));
  Bitboard occupied = pos.occupied();
  if (movers.Attacks(checker, occupied)) return true;
  if (between.None()) return false;

  Hand hand = pos.hand(Us);
  if (!hand.Empty()) {
    if (hand.Has(kSilver) || hand.Has(kGold) || hand.Has(kBishop) || hand.Has(kRook)) return true;
    if (hand.Has(kLance) && between.AndNot(S::LastRank()).Any()) return true;
    if (hand.Has(kKnight) && between.AndNot(S::LastTwoRanks()).Any()) return true;
  }
  for (Square sq : between) {
    if (movers.Attacks(sq, occupied)) return true;
  }
  // Last, as it may have to try the drop: a pawn interposing.
  return hand.Has(kPawn) && PawnDropTargets<Us>(pos, between).Any();
}

template <Color Us>
void GenerateLegalFor(const Position& pos, MoveList& list) {
  Bitboard target = ~pos.pieces(Us);
  AddPieceMoves<Us>(pos, target, list);
  Square ksq = pos.king_square(Us);
  if (ksq != kNoSquare) AddKingMoves<Us>(pos, ksq, KingAttacks(ksq) & target, list);
  AddDrops<Us>(pos, ~pos.occupied(), list);
}

// Squares from which a non-sliding piece of colour c (or a lance) might check the king on ksq,
// as it is or promoted: at most `files` files either side, `min_back` to `max_back` ranks
// behind the king as c sees it. Pieces elsewhere are skipped before their attacks are looked
// up; the bounds only need to hold every such square.
constexpr std::array<Bitboard, kNumSquares> CheckerBox(Color c, int files, int min_back,
                                                       int max_back) {
  std::array<Bitboard, kNumSquares> table{};
  int back = c == kBlack ? 1 : -1;  // rank index delta pointing behind, as c sees it
  for (Square ksq = 0; ksq < kNumSquares; ++ksq) {
    for (int df = -files; df <= files; ++df) {
      for (int dr = min_back; dr <= max_back; ++dr) {
        int f = FileOf(ksq) + df, r = RankOf(ksq) + dr * back;
        if (OnBoard(f, r)) table[ksq].Set(MakeSquare(f, r));
      }
    }
  }
  return table;
}
// Silvers and golds check from next to a square next to the king; a knight jumps two ranks
// forward onto a square at most one rank behind the king (or two, for a plain knight check);
// a lance moves forward onto a file next to the king or its own.
constexpr std::array<Bitboard, kNumSquares> kSilverGoldCheckers = CheckerBox(kBlack, 2, -2, 2);
template <Color Us>
constexpr std::array<Bitboard, kNumSquares> kKnightCheckers = CheckerBox(Us, 2, 1, 4);
template <Color Us>
constexpr std::array<Bitboard, kNumSquares> kLanceCheckers = CheckerBox(Us, 1, 1, 8);

// Checking moves of one piece on `from` that reaches `reach` (already restricted to legal
// targets): direct checks by the piece as it is and as promoted.
template <Color Us>
inline Move* WriteDirectChecks(const Position& pos, PieceType pt, Square from, Bitboard reach,
                               Move* out) {
  using S = Side<Us>;
  uint32_t base = NormalBase(from, pt);
  if (CanPromote(pt)) {
    Bitboard promotable = S::Zone().Test(from) ? reach : reach & S::Zone();
    out = WriteTargets(out, base | kPromoteBit, promotable & pos.check_squares(Promote(pt)));
    Bitboard dead = pt == kKnight                   ? S::LastTwoRanks()
                    : (pt == kPawn || pt == kLance) ? S::LastRank()
                                                    : Bitboard();
    reach = reach.AndNot(dead);
  }
  return WriteTargets(out, base, reach & pos.check_squares(pt));
}

// The checks of our discoverers and pinned pieces (few), one by one, written at `out` (the end
// of `list`); returns the new end. Leaving the line to their king discovers check, whatever the
// piece does; on the line it can still check directly. Kept out of GenerateChecksFor: rare, and
// inline it cost the common case registers.
template <Color Us>
[[gnu::noinline]] Move* WriteChecksOffLines(const Position& pos, Bitboard discoverers,
                                            Bitboard pinned, MoveList& list, Move* out) {
  Square their_king = pos.king_square(Side<Us>::kThem);
  Square ksq = pos.king_square(Us);
  Bitboard occupied = pos.occupied();
  Bitboard ours = pos.pieces(Us);
  Bitboard target = ~ours;
  ForEachSquare((discoverers | pinned).AndNot(pos.pieces(kKing)), [&](Square from) {
    PieceType pt = TypeOf(pos.piece_on(from));
    Bitboard reach = Attacks(Us, pt, from, occupied) & target;
    if (pinned.Test(from)) reach &= Line(from, ksq);
    if (discoverers.Test(from)) {
      Bitboard line = Line(from, their_king);
      list.set_end(out);
      AddAllMoves<Us>(pt, from, reach.AndNot(line), list);
      out = list.end();
      reach &= line;
    }
    out = WriteDirectChecks<Us>(pos, pt, from, reach, out);
  });
  if (ksq != kNoSquare && discoverers.Test(ksq)) {
    list.set_end(out);
    AddKingMoves<Us>(pos, ksq, KingAttacks(ksq).AndNot(ours).AndNot(Line(ksq, their_king)), list);
    out = list.end();
  }
  return out;
}

template <Color Us>
void GenerateChecksFor(const Position& pos, MoveList& list) {
  using S = Side<Us>;
  constexpr Color kThem = S::kThem;
  Square their_king = pos.king_square(kThem);
  assert(their_king != kNoSquare);
  Bitboard occupied = pos.occupied();
  Bitboard ours = pos.pieces(Us);
  Bitboard target = ~ours;
  Bitboard zone = S::Zone();
  Bitboard pinned = pos.pinned(Us);
  Bitboard discoverers = pos.blockers_for_king(kThem) & ours;
  // Check squares, from the two slider boards the position keeps and the step tables (their
  // king is on the board: GenerateChecks asks).
  Bitboard bishop_checks = pos.check_squares(kBishop), rook_checks = pos.check_squares(kRook);
  Move* out = list.end();
  auto checks = [&](PieceType pt) {
    return Position::CheckSquares(kThem, their_king, bishop_checks, rook_checks, pt);
  };

  if ((discoverers | pinned).Any()) {
    out = WriteChecksOffLines<Us>(pos, discoverers, pinned, list, out);
  }

  // Every other piece checks directly or not at all: type by type, onto the squares from which
  // it (or its promoted form) attacks their king. No check square is a dead square for the
  // piece standing on it (it would attack the king from beyond the board edge).
  Bitboard others = ours.AndNot(discoverers | pinned);
  Bitboard pushes = S::PawnPushes(others & pos.pieces(kPawn)) & target;
  auto pawn_move = [](Square to) { return NormalBase(to - S::kForward, kPawn) | to; };
  ForEachSquare(pushes & checks(kPawn),
                [&](Square to) { *out++ = std::bit_cast<Move>(pawn_move(to)); });
  ForEachSquare(pushes & zone & checks(kProPawn),
                [&](Square to) { *out++ = std::bit_cast<Move>(pawn_move(to) | kPromoteBit); });

  Bitboard gold_checks = checks(kGold);
  ForEachSquare(others & pos.pieces(kLance) & kLanceCheckers<Us>[their_king], [&](Square from) {
    Bitboard reach = LanceAttacks(Us, from, occupied) & target;
    uint32_t base = NormalBase(from, kLance);
    out = WriteTargets(out, base | kPromoteBit, reach & zone & gold_checks);
    out = WriteTargets(out, base, reach & checks(kLance));
  });
  ForEachSquare(others & pos.pieces(kKnight) & kKnightCheckers<Us>[their_king], [&](Square from) {
    Bitboard reach = KnightAttacks(Us, from) & target;
    uint32_t base = NormalBase(from, kKnight);
    out = WriteTargets(out, base | kPromoteBit, reach & zone & gold_checks);
    out = WriteTargets(out, base, reach & checks(kKnight));
  });
  Bitboard near = others & kSilverGoldCheckers[their_king];
  ForEachSquare(near & pos.pieces(kSilver), [&](Square from) {
    Bitboard reach = SilverAttacks(Us, from) & target;
    uint32_t base = NormalBase(from, kSilver);
    out = WriteTargets(out, base | kPromoteBit,
                       (zone.Test(from) ? reach : reach & zone) & gold_checks);
    out = WriteTargets(out, base, reach & checks(kSilver));
  });
  ForEachSquare(near & pos.golds(), [&](Square from) {
    out = WriteTargets(out, NormalBase(from, TypeOf(pos.piece_on(from))),
                       GoldAttacks(Us, from) & target & gold_checks);
  });
  // Sliders: skip those whose empty-board reach misses every check square.
  Bitboard horse_checks = checks(kHorse);
  ForEachSquare(others & pos.pieces(kBishop), [&](Square from) {
    if ((StepAttacks(Us, kBishop, from) & horse_checks).None()) return;
    Bitboard reach = BishopAttacks(from, occupied) & target;
    uint32_t base = NormalBase(from, kBishop);
    out = WriteTargets(out, base | kPromoteBit,
                       (zone.Test(from) ? reach : reach & zone) & horse_checks);
    out = WriteTargets(out, base, reach & bishop_checks);
  });
  ForEachSquare(others & pos.pieces(kHorse), [&](Square from) {
    if (((StepAttacks(Us, kBishop, from) | KingAttacks(from)) & horse_checks).None()) return;
    out = WriteTargets(out, NormalBase(from, kHorse),
                       (BishopAttacks(from, occupied) | KingAttacks(from)) & target & horse_checks);
  });
  Bitboard dragon_checks = checks(kDragon);
  ForEachSquare(others & pos.pieces(kRook), [&](Square from) {
    if ((StepAttacks(Us, kRook, from) & dragon_checks).None()) return;
    Bitboard reach = RookAttacks(from, occupied) & target;
    uint32_t base = NormalBase(from, kRook);
    out = WriteTargets(out, base | kPromoteBit,
                       (zone.Test(from) ? reach : reach & zone) & dragon_checks);
    out = WriteTargets(out, base, reach & rook_checks);
  });
  ForEachSquare(others & pos.pieces(kDragon), [&](Square from) {
    if (((StepAttacks(Us, kRook, from) | KingAttacks(from)) & dragon_checks).None()) return;
    out = WriteTargets(out, NormalBase(from, kDragon),
                       (RookAttacks(from, occupied) | KingAttacks(from)) & target & dragon_checks);
  });

  // Drops onto empty check squares.
  Hand hand = pos.hand(Us);
  if (hand.Empty()) {
    list.set_end(out);
    return;
  }
  Bitboard empty = ~occupied;
  // The one square a pawn checks from is never on our last rank: just nifu and pawn-drop mate.
  Bitboard pawn_drop = checks(kPawn) & empty;
  if (hand.Has(kPawn) && pawn_drop.Any()) {
    Square to = pawn_drop.Lsb();
    if ((pos.pieces(Us, kPawn) & FileBB(FileOf(to))).None() && !PawnDropMates<Us>(pos, to)) {
      *out++ = std::bit_cast<Move>(DropBase(kPawn) | to);
    }
  }
  for (PieceType pt : {kLance, kKnight, kSilver, kGold, kBishop, kRook}) {
    if (hand.Has(pt)) out = WriteTargets(out, DropBase(pt), checks(pt) & empty);
  }
  list.set_end(out);
}

// kDropsOnly: no mate, but every reply is a drop between the king and the checker (told apart
// from kNoMate only when asked for).
enum class MateAnswer { kNoMate, kMate, kUnknown, kDropsOnly };

// The squares (when empty) where a piece in hand other than a pawn may be dropped by side C.
template <Color C>
Bitboard PieceDropSquares(Hand hand) {
  using S = Side<C>;
  if (hand.Has(kSilver) || hand.Has(kGold) || hand.Has(kBishop) || hand.Has(kRook)) {
    return ~Bitboard();
  }
  Bitboard squares;
  if (hand.Has(kLance)) squares |= ~S::LastRank();
  if (hand.Has(kKnight)) squares |= ~S::LastTwoRanks();
  return squares;
}
// The squares where side C may drop a pawn (pawn-drop mate aside) once its pieces on
// `captured` are gone.
template <Color C>
Bitboard PawnDropSquaresAfter(const Position& pos, Bitboard captured) {
  if (!pos.hand(C).Has(kPawn)) return Bitboard();
  return (~Side<C>::LastRank()).AndNot(PawnFiles(pos.pieces(C, kPawn).AndNot(captured)));
}

// The pieces among `theirs` pinned to their king on ksq by `snipers`, our sliders on a line
// toward it along which they move.
template <Color Us>
Bitboard PinnedBy(Bitboard snipers, Square ksq, Bitboard occupied, Bitboard theirs) {
  Bitboard pinned;
  ForEachSquare(snipers, [&](Square s) {
    Bitboard b = Between(ksq, s) & occupied;
    if (!b.MoreThanOne()) pinned |= b & theirs;
  });
  return pinned;
}

// The position as it would be after our legal checking move m, worked out without making m:
// our pieces (`ours_now` before m) and the occupancy after it, and their replies piece by piece.
template <Color Us>
class AfterCheck {
 public:
  using T = Side<Side<Us>::kThem>;
  static constexpr Color kThem = Side<Us>::kThem;

  [[gnu::always_inline]] AfterCheck(const Position& pos, const AttackerSets<Us>& ours_now, Move m)
      : pos_(pos), king_(pos.king_square(kThem)), to_bb_(SquareBB(m.to())), ours_(ours_now) {
    Bitboard from_bb;
    if (!m.is_drop()) {
      from_bb = SquareBB(m.from());
      ours_.Toggle(m.moved_type(), m.from());
    }
    ours_.Toggle(m.after_type(), m.to());
    occupied_ = (pos.occupied() | to_bb_).AndNot(from_bb);
    theirs_ = pos.pieces(kThem).AndNot(to_bb_);  // less what m captures
  }

  // Whether their king can step to (or capture on) a square we do not attack: the steps of our
  // pieces all at once, then our sliders square by square on what is left.
  bool AnyKingEscape() const {
    Bitboard without_king = occupied_ ^ SquareBB(king_);
    for (Square escape : EscapesFromSteps()) {
      if (!ours_.SlidersAttack(escape, without_king)) return true;
    }
    return false;
  }
  Bitboard Checkers() const { return ours_.AttackersTo(king_, occupied_); }
  // Their pieces other than the king that may move: not pinned to it by our sliders (a pinned
  // piece can neither take a checker nor step between it and the king).
  AttackerSets<kThem> Movers() const {
    return AttackerSets<kThem>(pos_, theirs_.AndNot(Pinned() | SquareBB(king_)));
  }
  // Their pieces pinned to the king by our sliders.
  Bitboard Pinned() const { return PinnedBy<Us>(ours_.Snipers(king_), king_, occupied_, theirs_); }
  // The squares (when empty) where some piece in their hand other than a pawn may be dropped,
  // and where a pawn may be (pawn-drop mate aside).
  Bitboard NonPawnDropSquares() const { return PieceDropSquares<kThem>(pos_.hand(kThem)); }
  Bitboard PawnDropSquares() const { return PawnDropSquaresAfter<kThem>(pos_, to_bb_); }

  Square king() const { return king_; }
  Bitboard occupied() const { return occupied_; }

 private:
  // The king's neighbours free of their pieces and of our steps (sliders not looked at).
  Bitboard EscapesFromSteps() const {
    return KingAttacks(king_).AndNot(theirs_).AndNot(ours_.StepTargets());
  }

  const Position& pos_;
  Square king_;
  Bitboard to_bb_;
  AttackerSets<Us> ours_;
  Bitboard occupied_, theirs_;
};

// The squares their king could step to now, were it not in check: free of their pieces and
// not attacked by ours (with the king gone from its square). Found once per position, so a check
// that leaves one of them free is told apart without working out the position after it. The
// steps of our stepping pieces near the king one by one (looked up: 0.37% fewer instructions on
// 寿 than the steps of all our pieces at once by shifts, AttackerSets::StepTargets), then the
// squares on the lines of each slider of ours near enough to matter (a few sliders, rather than
// a slider test per square).
template <Color Us>
Bitboard FreeKingSquares(const Position& pos) {
  Square king = pos.king_square(Side<Us>::kThem);
  Bitboard free = KingAttacks(king)
                      .AndNot(pos.pieces(Side<Us>::kThem))
                      .AndNot(StepAttacksNearKing<Us>(pos, king, pos.pieces(Us)));
  if (free.None()) return free;
  Bitboard without_king = pos.occupied() ^ SquareBB(king);
  auto cover = [&](Bitboard sliders, PieceType reach_type) {
    ForEachSquare(sliders, [&](Square s) {
      ForEachSquare(StepAttacks(Us, reach_type, s) & free, [&](Square sq) {
        if ((Between(s, sq) & without_king).None()) free.Clear(sq);
      });
    });
  };
  Bitboard mine = pos.pieces(Us) & kKingLines[king];
  cover(mine & (pos.pieces(kRook) | pos.pieces(kDragon)), kRook);
  cover(mine & (pos.pieces(kBishop) | pos.pieces(kHorse)), kBishop);
  cover(mine & pos.pieces(kLance), kLance);
  return free;
}

// The part of KeepsFreeKingSquare past its first test, out of line: most checks are told apart
// by that test, and the loop calling it stays free of this part's registers.
template <Color Us>
[[gnu::noinline]] bool KeepsFreeKingSquareOnLines(const Position& pos, Bitboard free, Move m,
                                                  Bitboard left, Bitboard from_lines) {
  PieceType pt = m.after_type();
  Square to = m.to();
  bool slider = pt == kLance || pt == kBishop || pt == kRook || pt == kHorse || pt == kDragon;
  if (!slider && left.None()) return false;
  Square king = pos.king_square(Side<Us>::kThem);
  Bitboard occupied = (pos.occupied() ^ SquareBB(king)) | SquareBB(to);
  if (!m.is_drop()) occupied.Clear(m.from());
  if (slider) {
    // The free squares on the slider's empty-board reach (`left` holds the others) that a piece
    // blocks: a look along the line to each (a few squares), not a call for the slider's attacks
    // (寿 300k nodes: 931.82M -> 929.87M instructions).
    ForEachSquare(free.AndNot(left | SquareBB(to)), [&](Square e) {
      if ((Between(to, e) & occupied).Any()) left.Set(e);
    });
    if (left.AndNot(from_lines).Any()) return true;
  }
  // What is left lies on a line through m.from(): a slider might now see past it. Our sliders
  // as they stand before m, read off the position's boards.
  Bitboard ours = pos.pieces(Us);
  Bitboard lances = pos.pieces(kLance) & ours;
  Bitboard bishops = (pos.pieces(kBishop) | pos.pieces(kHorse)) & ours;
  Bitboard rooks = (pos.pieces(kRook) | pos.pieces(kDragon)) & ours;
  constexpr Color kThem = Side<Us>::kThem;
  for (Square e : left) {
    Bitboard snipers = (StepAttacks(kThem, kLance, e) & lances) |
                       (StepAttacks(kThem, kRook, e) & rooks) |
                       (StepAttacks(kThem, kBishop, e) & bishops);
    bool attacked = false;
    for (Square s : snipers) {
      if ((Between(s, e) & occupied).None()) {
        attacked = true;
        break;
      }
    }
    if (!attacked) return true;
  }
  return false;
}

// Whether their king keeps one of the `free` squares (FreeKingSquares) after our check m: a
// sufficient test, never true where the king has no escape. Only the piece arriving on m.to()
// and our sliders seeing past m.from() can attack a free square anew: every other change m
// makes (a piece leaving, a square blocked, a piece of theirs taken) frees squares, never
// covers them. The square m.to() itself is not counted. Inline, its first test only: that one
// settles most checks.
template <Color Us>
[[gnu::always_inline]] inline bool KeepsFreeKingSquare(const Position& pos, Bitboard free, Move m) {
  PieceType pt = m.after_type();
  Square to = m.to();
  // The squares left by the arriving piece's empty-board reach: its attack for a stepping piece,
  // a superset of it for a slider. Only when those alone do not settle it are the slider's
  // attacks worked out.
  Bitboard reach = StepAttacks(Us, pt, to);
  if (pt == kHorse) reach |= StepAttacks(Us, kBishop, to);
  if (pt == kDragon) reach |= StepAttacks(Us, kRook, to);
  Bitboard left = free.AndNot(reach | SquareBB(to));
  // The lines through m.from() from the small step table, not a look-up in the large Line table
  // per square (a cache miss, once most of this test's time).
  Bitboard from_lines = m.is_drop() ? Bitboard() : LinesThrough(m.from());
  if (left.AndNot(from_lines).Any()) return true;
  return KeepsFreeKingSquareOnLines<Us>(pos, free, m, left, from_lines);
}

// Whether the legal checking move m leaves the opponent without a legal reply, answered on the
// position as it would be after m without making it.
// kUnknown only when the one remaining defence is a pawn drop that might itself be a pawn-drop
// mate. `kClassifyDrops`: a check that only drops in between answer reads kDropsOnly (kUnknown
// stays kUnknown), not kNoMate. Out of line: the tests before it settle about 29 checks in 30,
// and inline it cost their loop in FindMateIn1For registers (0.67% of the instructions on 寿).
template <Color Us, bool kClassifyDrops = false>
[[gnu::noinline]] MateAnswer MateAfterCheck(const Position& pos, Move m) {
  AfterCheck<Us> after(pos, AttackerSets<Us>(pos, pos.pieces(Us)), m);
  if (after.AnyKingEscape()) return MateAnswer::kNoMate;
  Bitboard checkers = after.Checkers();
  if (checkers.MoreThanOne()) return MateAnswer::kMate;
  Square checker = checkers.Lsb();
  Bitboard occupied = after.occupied();
  AttackerSets<AfterCheck<Us>::kThem> movers = after.Movers();
  if (movers.AttackersTo(checker, occupied).Any()) return MateAnswer::kNoMate;
  Bitboard between = Between(after.king(), checker);
  if (between.None()) return MateAnswer::kMate;
  constexpr MateAnswer kDropAnswers = kClassifyDrops ? MateAnswer::kDropsOnly : MateAnswer::kNoMate;
  // Without classifying, a piece to drop in between settles it before the moves are looked at.
  bool piece_drops = (between & after.NonPawnDropSquares()).Any();
  if (!kClassifyDrops && piece_drops) return MateAnswer::kNoMate;
  for (Square sq : between) {
    if (movers.Attacks(sq, occupied)) return MateAnswer::kNoMate;
  }
  if (piece_drops) return kDropAnswers;
  Bitboard pawn_drops = between & after.PawnDropSquares();
  if (pawn_drops.None()) return MateAnswer::kMate;
  // Their pawn dropped in front of our king might be a pawn-drop mate: leave it to the full test.
  Square our_king = pos.king_square(Us);
  bool may_mate = our_king != kNoSquare && (pawn_drops & PawnAttacks(Us, our_king)).Any();
  return may_mate ? MateAnswer::kUnknown : kDropAnswers;
}

// Whether some piece of ours among `guards` attacks sq through `occupied`, read off the
// position's boards. Not Position::AttackersTo: the steps answer most calls, and a slider's
// line is then tested through Between without working out its attacks (with AttackersTo the
// mate-in-1 test cost 1.0% more instructions, 寿 and Microcosmos at 300k nodes).
template <Color Us>
bool GuardedBy(const Position& pos, Bitboard guards, Square sq, Bitboard occupied) {
  constexpr Color kThem = Side<Us>::kThem;
  Bitboard steps =
      (PawnAttacks(kThem, sq) & pos.pieces(kPawn)) |
      (KnightAttacks(kThem, sq) & pos.pieces(kKnight)) |
      (SilverAttacks(kThem, sq) & pos.pieces(kSilver)) | (GoldAttacks(kThem, sq) & pos.golds()) |
      (KingAttacks(sq) & (pos.pieces(kKing) | pos.pieces(kHorse) | pos.pieces(kDragon)));
  if ((steps & guards).Any()) return true;
  Bitboard snipers =
      ((StepAttacks(kThem, kLance, sq) & pos.pieces(kLance)) |
       (StepAttacks(kThem, kRook, sq) & (pos.pieces(kRook) | pos.pieces(kDragon))) |
       (StepAttacks(kThem, kBishop, sq) & (pos.pieces(kBishop) | pos.pieces(kHorse)))) &
      guards;
  for (Square s : snipers) {
    if ((Between(s, sq) & occupied).None()) return true;
  }
  return false;
}

// Whether their king can take the piece our check m puts next to it, no other piece of ours
// guarding m.to() once m is made: the commonest answer to a check, found without working out
// the position after m.
template <Color Us>
bool KingTakesChecker(const Position& pos, Move m) {
  Square king = pos.king_square(Side<Us>::kThem);
  if (!KingAttacks(king).Test(m.to())) return false;
  Bitboard occupied = (pos.occupied() ^ SquareBB(king)) | SquareBB(m.to());
  Bitboard guards = pos.pieces(Us);
  if (!m.is_drop()) {
    occupied.Clear(m.from());
    guards.Clear(m.from());
  }
  return !GuardedBy<Us>(pos, guards, m.to(), occupied);
}

// Whether our pawn dropped on sq, checking their king, leaves them no reply. The pawn touches
// the king, so there is nothing to drop in between and the answer is never unknown.
template <Color Us>
bool PawnDropMates(const Position& pos, Square sq) {
  // Most such drops leave the king a square to step to (the pawn's own square included, when
  // nothing of ours guards it); looked for first, square by square, before the whole test. The
  // pawn attacks no square the king might step to.
  Square king = pos.king_square(Side<Us>::kThem);
  Bitboard occupied = (pos.occupied() | SquareBB(sq)) ^ SquareBB(king);
  for (Square e : KingAttacks(king).AndNot(pos.pieces(Side<Us>::kThem))) {
    if (!GuardedBy<Us>(pos, pos.pieces(Us), e, occupied)) return false;
  }
  return MateAfterCheck<Us>(pos, Move::Drop(kPawn, sq)) == MateAnswer::kMate;
}

template <Color Us, bool kClassifyDrops>
Move FindMateIn1For(Position& pos, const MoveList& checks, MoveList* drops_only) {
  // No check (nor a king to check) means no mate; FreeKingSquares needs the king.
  if (checks.empty()) return Move::None();
  Bitboard free = FreeKingSquares<Us>(pos);
  for (Move m : checks) {
    // A checking pawn drop that mates is illegal (and not generated); it touches the king, so
    // nothing can be dropped in between either.
    if (m.is_drop() && m.dropped_type() == kPawn) continue;
    if (free.Any() && KeepsFreeKingSquare<Us>(pos, free, m)) continue;
    if (KingTakesChecker<Us>(pos, m)) continue;
    MateAnswer answer = MateAfterCheck<Us, kClassifyDrops>(pos, m);
    if (answer == MateAnswer::kUnknown) {
      pos.DoMove(m);
      bool mated = !HasEvasion(pos);
      pos.UndoMove();
      answer = mated            ? MateAnswer::kMate
               : kClassifyDrops ? MateAnswer::kDropsOnly
                                : MateAnswer::kNoMate;
    }
    if (answer == MateAnswer::kMate) return m;
    if (kClassifyDrops && answer == MateAnswer::kDropsOnly) drops_only->push_back(m);
  }
  return Move::None();
}

// The position after our legal checking move m as the reply estimate reads it: lighter than
// AfterCheck, which groups all our pieces into AttackerSets and shifts them all for their steps.
// Only our pieces that can reach a square next to their king are looked at: the stepping ones
// near it, the sliders on a line through its neighbourhood.
template <Color Us>
class RepliesAfterCheck {
 public:
  static constexpr Color kThem = Side<Us>::kThem;
  using T = Side<kThem>;

  [[gnu::always_inline]] RepliesAfterCheck(const Position& pos, Move m)
      : pos_(pos), king_(pos.king_square(kThem)), to_(m.to()), arriving_(m.after_type()) {
    Bitboard to_bb = SquareBB(to_);
    Bitboard from_bb = m.is_drop() ? Bitboard() : SquareBB(m.from());
    occupied_ = (pos.occupied() | to_bb).AndNot(from_bb);
    theirs_ = pos.pieces(kThem).AndNot(to_bb);  // less what m captures
    staying_ = pos.pieces(Us).AndNot(from_bb);  // our pieces but the one that moves
    Bitboard on_lines = staying_ & kKingLines[king_];
    lances_ = pos.pieces(kLance) & on_lines;
    bishops_ = (pos.pieces(kBishop) | pos.pieces(kHorse)) & on_lines;
    rooks_ = (pos.pieces(kRook) | pos.pieces(kDragon)) & on_lines;
    if (arriving_ == kLance) lances_ |= to_bb;
    if (arriving_ == kBishop || arriving_ == kHorse) bishops_ |= to_bb;
    if (arriving_ == kRook || arriving_ == kDragon) rooks_ |= to_bb;
  }

  // The squares their king can step to (or capture on) that we do not attack. A horse or dragon
  // counts here by its steps off its lines (StepAttacks) and below by its lines, which hold the
  // other squares next to it whatever stands where.
  int CountKingEscapes() const {
    bool arriving_steps = arriving_ != kLance && arriving_ != kBishop && arriving_ != kRook;
    Bitboard attacked = arriving_steps ? StepAttacks(Us, arriving_, to_) : Bitboard();
    attacked |= StepAttacksNearKing<Us>(pos_, king_, staying_);
    Bitboard escapes = KingAttacks(king_).AndNot(theirs_).AndNot(attacked);
    if (escapes.None()) return 0;
    Bitboard without_king = occupied_ ^ SquareBB(king_);
    return escapes.AndNot(SlidersAttackOf<Us>(lances_, bishops_, rooks_, escapes, without_king))
        .Count();
  }
  // Their pieces other than the king that attack sq, pinned ones included (a caller takes out
  // Pinned where it finds any). Read off the position's boards: their pieces stand where they
  // did before m, but for the one m captures.
  Bitboard TheirAttackersTo(Square sq) const {
    const Position& p = pos_;
    Bitboard steps =
        (PawnAttacks(Us, sq) & p.pieces(kPawn)) | (KnightAttacks(Us, sq) & p.pieces(kKnight)) |
        (SilverAttacks(Us, sq) & p.pieces(kSilver)) | (GoldAttacks(Us, sq) & p.golds()) |
        (KingAttacks(sq) & (p.pieces(kHorse) | p.pieces(kDragon)));
    Bitboard attackers = steps & theirs_;
    Bitboard snipers = ((StepAttacks(Us, kLance, sq) & p.pieces(kLance)) |
                        (StepAttacks(Us, kRook, sq) & (p.pieces(kRook) | p.pieces(kDragon))) |
                        (StepAttacks(Us, kBishop, sq) & (p.pieces(kBishop) | p.pieces(kHorse)))) &
                       theirs_;
    ForEachSquare(snipers, [&](Square s) {
      if ((Between(s, sq) & occupied_).None()) attackers.Set(s);
    });
    return attackers;
  }
  // Their pieces pinned to the king by our sliders.
  Bitboard Pinned() const {
    Bitboard snipers = (StepAttacks(kThem, kLance, king_) & lances_) |
                       (StepAttacks(kThem, kRook, king_) & rooks_) |
                       (StepAttacks(kThem, kBishop, king_) & bishops_);
    return PinnedBy<Us>(snipers, king_, occupied_, theirs_);
  }
  // The empty squares where they can drop some piece (pawn-drop mate aside).
  Bitboard DropSquares() const {
    return PieceDropSquares<kThem>(pos_.hand(kThem)) |
           PawnDropSquaresAfter<kThem>(pos_, SquareBB(to_));
  }

  Square king() const { return king_; }

 private:
  const Position& pos_;
  Square king_;
  Square to_;
  PieceType arriving_;
  Bitboard occupied_, theirs_, staying_;
  // Our sliders after m on a line through a square next to their king.
  Bitboard lances_, bishops_, rooks_;
};

// Our pieces checking their king after our move m. Out of line: needed only for a move off a
// line between their king and our slider (rare), and inline its registers cost the estimate.
template <Color Us>
[[gnu::noinline]] Bitboard CheckersAfter(const Position& pos, Move m) {
  return AfterCheck<Us>(pos, AttackerSets<Us>(pos, pos.pieces(Us)), m).Checkers();
}

template <Color Us>
int EstimateRepliesToCheckFor(const Position& pos, Move m) {
  RepliesAfterCheck<Us> after(pos, m);
  int replies = after.CountKingEscapes();
  // A drop, or a move from off every line between their king and our sliders, checks only by
  // the piece arriving (their king is not in check before m): m being a check, that piece
  // checks.
  Bitboard checkers = SquareBB(m.to());
  if (!m.is_drop() && pos.blockers_for_king(RepliesAfterCheck<Us>::kThem).Test(m.from())) {
    checkers = CheckersAfter<Us>(pos, m);
  }
  assert(checkers.Any());
  if (checkers.MoreThanOne()) return replies;
  Square checker = checkers.Lsb();
  using T = typename RepliesAfterCheck<Us>::T;
  constexpr Color kThem = RepliesAfterCheck<Us>::kThem;
  // Pinned pieces are looked for only once some piece of theirs can reach a square at all.
  Bitboard pinned;
  bool pinned_known = false;
  // Moves of their pieces to sq, each promotion choice counted: a piece that may promote there
  // counts twice, unless it would be dead there unpromoted.
  // Inline: as a call of its own it cost 2.4M more instructions on 寿 at 300k nodes.
  auto moves_to = [&](Square sq) __attribute__((always_inline)) {
    Bitboard from = after.TheirAttackersTo(sq);
    if (from.None()) return 0;
    if (!pinned_known) {
      pinned = after.Pinned();
      pinned_known = true;
    }
    from = from.AndNot(pinned);
    // The boards hold both colours' pieces, `from` only theirs.
    Bitboard pawns_lances = pos.pieces(kPawn) | pos.pieces(kLance);
    Bitboard knights = pos.pieces(kKnight);
    Bitboard twice = from & (pawns_lances | knights | pos.pieces(kSilver) | pos.pieces(kBishop) |
                             pos.pieces(kRook));
    if (!T::Zone().Test(sq)) twice &= T::Zone();
    int rank = RelativeRank(kThem, sq);
    if (rank == 0) {
      twice = twice.AndNot(pawns_lances | knights);
    } else if (rank == 1) {
      twice = twice.AndNot(knights);
    }
    return from.Count() + twice.Count();
  };
  replies += moves_to(checker);
  Bitboard between = Between(after.king(), checker);
  if (between.None()) return replies;  // spares working out the drop squares
  for (Square sq : between) replies += moves_to(sq);
  return replies + (between & after.DropSquares()).Count();
}

template <Color Us>
bool OnlyDropsAnswerCheckFor(const Position& pos, Move m) {
  AfterCheck<Us> after(pos, AttackerSets<Us>(pos, pos.pieces(Us)), m);
  if (after.AnyKingEscape()) return false;
  Bitboard checkers = after.Checkers();
  if (checkers.MoreThanOne()) return true;
  Square checker = checkers.Lsb();
  Bitboard occupied = after.occupied();
  AttackerSets<AfterCheck<Us>::kThem> movers = after.Movers();
  if (movers.AttackersTo(checker, occupied).Any()) return false;
  for (Square sq : Between(after.king(), checker)) {
    if (movers.Attacks(sq, occupied)) return false;
  }
  return true;
}

}  // namespace

int EstimateRepliesToCheck(const Position& pos, Move m) {
  return pos.side_to_move() == kBlack ? EstimateRepliesToCheckFor<kBlack>(pos, m)
                                      : EstimateRepliesToCheckFor<kWhite>(pos, m);
}

bool OnlyDropsAnswerCheck(const Position& pos, Move m) {
  return pos.side_to_move() == kBlack ? OnlyDropsAnswerCheckFor<kBlack>(pos, m)
                                      : OnlyDropsAnswerCheckFor<kWhite>(pos, m);
}

void GenerateEvasions(const Position& pos, MoveList& list) {
  pos.side_to_move() == kBlack ? GenerateEvasionsFor<kBlack>(pos, list)
                               : GenerateEvasionsFor<kWhite>(pos, list);
}

bool HasEvasion(const Position& pos) {
  return pos.side_to_move() == kBlack ? HasEvasionFor<kBlack>(pos) : HasEvasionFor<kWhite>(pos);
}

void GenerateLegal(const Position& pos, MoveList& list) {
  if (pos.in_check()) {
    GenerateEvasions(pos, list);
    return;
  }
  pos.side_to_move() == kBlack ? GenerateLegalFor<kBlack>(pos, list)
                               : GenerateLegalFor<kWhite>(pos, list);
}

void GenerateChecks(const Position& pos, MoveList& list) {
  if (!pos.has_king(~pos.side_to_move())) return;
  if (pos.in_check()) {
    MoveList evasions;
    GenerateEvasions(pos, evasions);
    for (Move m : evasions) {
      if (pos.GivesCheck(m)) list.push_back(m);
    }
    return;
  }
  pos.side_to_move() == kBlack ? GenerateChecksFor<kBlack>(pos, list)
                               : GenerateChecksFor<kWhite>(pos, list);
}

Move FindMateIn1(Position& pos) {
  MoveList checks;
  GenerateChecks(pos, checks);
  return FindMateIn1(pos, checks);
}

Move FindMateIn1(Position& pos, const MoveList& checks, MoveList* drops_only) {
  if (drops_only) {
    return pos.side_to_move() == kBlack ? FindMateIn1For<kBlack, true>(pos, checks, drops_only)
                                        : FindMateIn1For<kWhite, true>(pos, checks, drops_only);
  }
  return pos.side_to_move() == kBlack ? FindMateIn1For<kBlack, false>(pos, checks, nullptr)
                                      : FindMateIn1For<kWhite, false>(pos, checks, nullptr);
}

}  // namespace tsume
