// Japanese move notation as players write a solution ("▲２四桂", "△同　歩", "▲５二金右"),
// following the Japan Shogi Association's rules for 同, 成/不成, 打 and the disambiguators
// 右/左/直 and 上/寄/引.
#ifndef TSUME_CORE_NOTATION_H_
#define TSUME_CORE_NOTATION_H_

#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
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

// Reads one move in Japanese notation (as KI2 records write them) in `pos`: the inverse of
// ToJapanese, and lenient where players and other programs write otherwise. In order:
// - a side mark, optional (▲ or ☗ Black, △, ☖ or ▽ White, spaces after it allowed), which must
//   name the side to move;
// - the square ("２四", "2四", "24"), or 同 for the square of pos.last_move(), with or without
//   a space after it;
// - the piece as it stands before the move ("銀", "成銀" or "全", "竜" or "龍", "王");
// - the disambiguators 右/左/直 and 上/寄/引 (行 and 入 read as 上);
// - 成, 不成 (or 生) or 打; 打 may be left out when no piece on the board can move there;
// - the origin "(23)", optional.
// An error says which part cannot be read, or that no legal move, or more than one, fits.
absl::StatusOr<Move> ParseJapanese(const Position& pos, absl::string_view text);

// Text helpers for the readers of Japanese records (KIF, KI2).
// Takes one UTF-8 code point off the front of `s` (0 at the end of the text).
char32_t TakeCodePoint(absl::string_view& s);
inline char32_t PeekCodePoint(absl::string_view s) { return TakeCodePoint(s); }
// A half- or full-width space, or a tab.
inline bool IsJapaneseSpace(char32_t cp) { return cp == U' ' || cp == U'\t' || cp == U'\u3000'; }
// 一..九, １..９ and 1..9 as 1..9; 0 for anything else.
int JapaneseDigit(char32_t cp);
// A piece's one-character name, as diagrams and move lists write it (歩 ... 竜, 龍, 王, と, 杏,
// 圭, 全, 馬); kNoPieceType for anything else.
PieceType PieceTypeFromKanji(char32_t cp);
// Takes a piece's name as move lists write it off the front of `s`: one kanji, or 成 and 香,
// 桂 or 銀 ("成銀"); kNoPieceType when it is none.
PieceType TakePieceName(absl::string_view& s);
// The side a move's mark names: ▲ or ☗ Black, △, ☖ or ▽ White; nothing for any other.
std::optional<Color> SideOfMark(char32_t cp);

}  // namespace tsume

#endif  // TSUME_CORE_NOTATION_H_
