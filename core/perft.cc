#include "core/perft.h"

#include "core/movegen.h"

namespace tsume {

uint64_t Perft(Position& pos, int depth) {
  if (depth <= 0) return 1;
  MoveList list;
  GenerateLegal(pos, list);
  if (depth == 1) return list.size();
  uint64_t nodes = 0;
  for (Move m : list) {
    pos.DoMove(m);
    nodes += Perft(pos, depth - 1);
    pos.UndoMove();
  }
  return nodes;
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
