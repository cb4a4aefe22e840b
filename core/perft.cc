#include "core/perft.h"

#include <memory>

#include "core/movegen.h"

namespace tsume {

namespace {

// `lists` holds one move list per remaining ply, allocated once per call of Perft: a MoveList
// is large, and constructing one per node would cost more than generating its moves.
uint64_t PerftWithLists(Position& pos, int depth, MoveList* lists) {
  MoveList& list = lists[0];
  list.clear();
  GenerateLegal(pos, list);
  if (depth == 1) return list.size();
  uint64_t nodes = 0;
  for (Move m : list) {
    pos.DoMove(m);
    nodes += PerftWithLists(pos, depth - 1, lists + 1);
    pos.UndoMove();
  }
  return nodes;
}

}  // namespace

uint64_t Perft(Position& pos, int depth) {
  if (depth <= 0) return 1;
  auto lists = std::make_unique<MoveList[]>(depth);
  return PerftWithLists(pos, depth, lists.get());
}

std::vector<std::pair<Move, uint64_t>> PerftDivide(Position& pos, int depth) {
  std::vector<std::pair<Move, uint64_t>> result;
  MoveList list;
  GenerateLegal(pos, list);
  for (Move m : list) {
    pos.DoMove(m);
    result.emplace_back(m, Perft(pos, depth - 1));
    pos.UndoMove();
  }
  return result;
}

}  // namespace tsume
