// Japanese move notation as players write a solution ("▲２四桂", "△同　歩", "▲５二金右"),
// following the Japan Shogi Association's rules for 同, 成/不成, 打 and the disambiguators
// 右/左/直 and 上/寄/引.
#ifndef TSUME_CORE_NOTATION_H_
#define TSUME_CORE_NOTATION_H_

#include <string>
#include <vector>

#include "core/position.h"
#include "core/types.h"

namespace tsume {

// A square as written in Japanese notation: file as a full-width digit, rank as a kanji ("２四").
std::string JapaneseSquare(Square sq);
// Where move m goes, as notation writes it: "同　" onto the square the last move went to
// (pos.last_move()), else the square.
std::string JapaneseDestination(const Position& pos, Move m);

// One move, e.g. "▲２四桂", "△同　歩", "▲３三角成", "▲２二銀不成", "▲５五角打", "▲５二金右".
// `pos` is the position before the move and `m` must be legal in it; the previous move (for 同)
// is pos.last_move(). Both kings are written 玉, the promoted rook 竜, and 同 is always followed
// by a full-width space as in KIF ("同　歩", "同　成銀").
std::string ToJapanese(const Position& pos, Move m);

// A whole line of legal moves played from `pos` (copied internally), separated by single spaces.
std::string LineToJapanese(const Position& pos, const std::vector<Move>& moves);

}  // namespace tsume

#endif  // TSUME_CORE_NOTATION_H_
