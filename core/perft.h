// Perft: counts the leaves of the legal move tree, the standard move-generator check.
#ifndef TSUME_CORE_PERFT_H_
#define TSUME_CORE_PERFT_H_

#include <cstdint>
#include <utility>
#include <vector>

#include "core/position.h"

namespace tsume {

// Leaves at `depth` plies, counting the last ply in bulk (the size of the legal move list).
uint64_t Perft(Position& pos, int depth);

// Perft split by the first move, in generation order.
std::vector<std::pair<Move, uint64_t>> PerftDivide(Position& pos, int depth);

}  // namespace tsume

#endif  // TSUME_CORE_PERFT_H_
