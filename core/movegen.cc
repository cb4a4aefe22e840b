#include "core/movegen.h"

namespace tsume {
namespace {

// Squares where a dropped piece of this type would have no move.
Bitboard DeadDropSquares(Color c, PieceType pt) {
  int last = c == kBlack ? 0 : 8;
  int second = c == kBlack ? 1 : 7;
  if (pt == kPawn || pt == kLance) return RankBB(last);
  if (pt == kKnight) return RankBB(last) | RankBB(second);
  return Bitboard();
}

// Adds every move of the piece on `from` to each target, with both promotion choices where
// the rules allow them.
inline void AddPieceMoves(Color us, PieceType pt, Square from, Bitboard targets, MoveList& list) {
  if (!CanPromote(pt)) {
    for (Square to : targets) list.push_back(Move::Normal(from, to, pt, false));
    return;
  }
  Bitboard zone = PromotionZone(us);
  Bitboard promoting = zone.Test(from) ? targets : targets & zone;
  for (Square to : promoting) list.push_back(Move::Normal(from, to, pt, true));
  Bitboard staying = targets.AndNot(DeadDropSquares(us, pt));
  for (Square to : staying) list.push_back(Move::Normal(from, to, pt, false));
}

// Files (as a mask) already holding an unpromoted pawn of colour c.
Bitboard PawnFiles(const Position& pos, Color c) {
  Bitboard files;
  for (Square sq : pos.pieces(c, kPawn)) files |= FileBB(FileOf(sq));
  return files;
}

// Drops of every piece in hand onto `targets` (empty squares), under the drop rules.
// `targets_by_type`, when given, restricts each type further (for checks).
template <typename TargetsFor>
void AddDrops(const Position& pos, TargetsFor targets_for, MoveList& list) {
  Color us = pos.side_to_move();
  Hand hand = pos.hand(us);
  if (hand.Empty()) return;
  for (PieceType pt : kHandTypes) {
    if (!hand.Has(pt)) continue;
    Bitboard targets = targets_for(pt).AndNot(DeadDropSquares(us, pt));
    if (pt == kPawn) {
      targets = targets.AndNot(PawnFiles(pos, us));
      // A pawn drop that checks may be a pawn-drop mate.
      Square them_king = pos.king_square(~us);
      if (them_king != kNoSquare) {
        Bitboard checking = targets & PawnAttacks(~us, them_king);
        if (checking.Any() && pos.IsPawnDropMate(checking.Lsb())) targets ^= checking;
      }
    }
    for (Square to : targets) list.push_back(Move::Drop(pt, to));
  }
}

template <bool kStopAtFirst>
bool GenerateEvasionsImpl(const Position& pos, MoveList* list) {
  Color us = pos.side_to_move(), them = ~us;
  Square ksq = pos.king_square(us);
  Bitboard occ = pos.occupied();
  Bitboard ours = pos.pieces(us);
  Bitboard checkers = pos.checkers();

  Bitboard occ_without_king = occ ^ SquareBB(ksq);
  for (Square to : KingAttacks(ksq).AndNot(ours)) {
    if (pos.AttackersTo(them, to, occ_without_king).None()) {
      if constexpr (kStopAtFirst) return true;
      list->push_back(Move::Normal(ksq, to, kKing, false));
    }
  }
  if (checkers.MoreThanOne()) return false;

  Square checker = checkers.Lsb();
  Bitboard between = Between(ksq, checker);
  Bitboard target = between | SquareBB(checker);
  Bitboard pinned = pos.pinned(us);
  MoveList scratch;
  MoveList& out = kStopAtFirst ? scratch : *list;
  for (Square from : ours.AndNot(SquareBB(ksq))) {
    PieceType pt = TypeOf(pos.piece_on(from));
    Bitboard targets = Attacks(us, pt, from, occ) & target;
    if (pinned.Test(from)) targets &= Line(from, ksq);
    if (targets.None()) continue;
    AddPieceMoves(us, pt, from, targets, out);
    if (kStopAtFirst && !out.empty()) return true;
  }
  if (between.Any()) {
    AddDrops(pos, [&](PieceType) { return between; }, out);
    if (kStopAtFirst && !out.empty()) return true;
  }
  return false;
}

}  // namespace

void GenerateEvasions(const Position& pos, MoveList& list) {
  GenerateEvasionsImpl<false>(pos, &list);
}

bool HasEvasion(const Position& pos) { return GenerateEvasionsImpl<true>(pos, nullptr); }

void GenerateLegal(const Position& pos, MoveList& list) {
  if (pos.in_check()) {
    GenerateEvasions(pos, list);
    return;
  }
  Color us = pos.side_to_move(), them = ~us;
  Square ksq = pos.king_square(us);
  Bitboard occ = pos.occupied();
  Bitboard ours = pos.pieces(us);
  Bitboard target = ~ours;
  Bitboard pinned = pos.pinned(us);
  Bitboard kings = pos.pieces(us, kKing);
  for (Square from : ours.AndNot(kings)) {
    PieceType pt = TypeOf(pos.piece_on(from));
    Bitboard targets = Attacks(us, pt, from, occ) & target;
    if (pinned.Test(from)) targets &= Line(from, ksq);
    AddPieceMoves(us, pt, from, targets, list);
  }
  if (ksq != kNoSquare) {
    Bitboard occ_without_king = occ ^ SquareBB(ksq);
    for (Square to : KingAttacks(ksq) & target) {
      if (pos.AttackersTo(them, to, occ_without_king).None()) {
        list.push_back(Move::Normal(ksq, to, kKing, false));
      }
    }
  }
  Bitboard empty = ~occ;
  AddDrops(pos, [&](PieceType) { return empty; }, list);
}

void GenerateChecks(const Position& pos, MoveList& list) {
  Color us = pos.side_to_move(), them = ~us;
  Square their_king = pos.king_square(them);
  if (their_king == kNoSquare) return;
  if (pos.in_check()) {
    MoveList evasions;
    GenerateEvasions(pos, evasions);
    for (Move m : evasions) {
      if (pos.GivesCheck(m)) list.push_back(m);
    }
    return;
  }
  Square ksq = pos.king_square(us);
  Bitboard occ = pos.occupied();
  Bitboard ours = pos.pieces(us);
  Bitboard target = ~ours;
  Bitboard pinned = pos.pinned(us);
  Bitboard discoverers = pos.blockers_for_king(them) & ours;
  Bitboard zone = PromotionZone(us);

  for (Square from : ours.AndNot(pos.pieces(us, kKing))) {
    PieceType pt = TypeOf(pos.piece_on(from));
    Bitboard reach = Attacks(us, pt, from, occ) & target;
    if (pinned.Test(from)) reach &= Line(from, ksq);
    if (reach.None()) continue;
    if (discoverers.Test(from)) {
      // Leaving the line to the king discovers check, whatever the piece does.
      Bitboard off_line = reach.AndNot(Line(from, their_king));
      AddPieceMoves(us, pt, from, off_line, list);
      reach &= Line(from, their_king);
    }
    Bitboard direct = reach & pos.check_squares(pt);
    if (CanPromote(pt)) {
      Bitboard promotable = zone.Test(from) ? reach : reach & zone;
      for (Square to : promotable & pos.check_squares(Promote(pt))) {
        list.push_back(Move::Normal(from, to, pt, true));
      }
      direct = direct.AndNot(DeadDropSquares(us, pt));
    }
    for (Square to : direct) list.push_back(Move::Normal(from, to, pt, false));
  }
  if (ksq != kNoSquare && discoverers.Test(ksq)) {
    Bitboard occ_without_king = occ ^ SquareBB(ksq);
    for (Square to : KingAttacks(ksq).AndNot(ours).AndNot(Line(ksq, their_king))) {
      if (pos.AttackersTo(them, to, occ_without_king).None()) {
        list.push_back(Move::Normal(ksq, to, kKing, false));
      }
    }
  }
  Bitboard empty = ~occ;
  AddDrops(pos, [&](PieceType pt) { return pos.check_squares(pt) & empty; }, list);
}

Move FindMateIn1(Position& pos) {
  MoveList checks;
  GenerateChecks(pos, checks);
  for (Move m : checks) {
    pos.DoMove(m);
    bool mate = !HasEvasion(pos);
    pos.UndoMove();
    if (mate) return m;
  }
  return Move::None();
}

}  // namespace tsume
