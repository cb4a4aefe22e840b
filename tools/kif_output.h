// A solved line as a KIF record, the text format of Kifu for Windows that shogi GUIs and
// collections use, so that a solution can be opened and replayed in a GUI.
#ifndef TSUME_TOOLS_KIF_OUTPUT_H_
#define TSUME_TOOLS_KIF_OUTPUT_H_

#include <string>
#include <vector>

#include "core/position.h"
#include "core/types.h"

namespace tsume {

// The record of `moves` (legal, in order) played from `root`: the starting position as a board
// diagram with both hands written out and, when White is to move, 後手番; the moves numbered
// from 1 with their origins ("４四角成(33)", "同　玉(15)", "１四香打"); then "まで N手で詰み" when
// `mate` (the line ends in mate), else "まで N手"; no moves, the diagram alone. `comment` (one
// line, may be empty) goes in a "#" line at the top.
// A line branching off the record's moves (a KIF 変化): its moves from the 1-based ply `ply`
// on, the moves before it being the record's, and a comment (may be empty) on its first move.
struct KifVariation {
  int ply = 0;
  std::vector<Move> moves;
  std::string comment;
};

// `notes` (may be empty) are "*" comment lines on the starting position, one each; the
// `variations` follow the record as 変化 blocks, those of later plies first, so that each
// branches off the record's line in any reader.
std::string SolutionKif(const Position& root, const std::vector<Move>& moves, bool mate,
                        const std::string& comment, const std::vector<std::string>& notes = {},
                        const std::vector<KifVariation>& variations = {});

}  // namespace tsume

#endif  // TSUME_TOOLS_KIF_OUTPUT_H_
