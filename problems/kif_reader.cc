// KIF problem files: a framed board diagram, hand lines (持駒), the side to move (手番), and
// optionally a move list taken as the solution, in KIF's numbered lines or in KI2's notation
// ("▲２四桂打　△同　銀"). The text is UTF-8 by now (Shift-JIS files are converted before this
// reader runs).
#include <algorithm>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "core/notation.h"
#include "core/position.h"
#include "problems/reader_internal.h"

namespace tsume::collection_internal {
namespace {

void SkipSpaces(absl::string_view& s) {
  while (!s.empty() && IsJapaneseSpace(PeekCodePoint(s))) TakeCodePoint(s);
}

// A hand count: kanji (二, 十, 十八) or digits; 1 when nothing is written.
std::optional<int> TakeCount(absl::string_view& s) {
  if (s.empty() || IsJapaneseSpace(PeekCodePoint(s))) return 1;
  if (absl::ascii_isdigit(s[0])) {
    int n = 0;
    while (!s.empty() && absl::ascii_isdigit(s[0])) {
      // Past any real count: kept from overflowing, and rejected as too many pieces.
      n = std::min(n * 10 + (s[0] - '0'), 1000);
      s.remove_prefix(1);
    }
    return n;
  }
  int n = 0;
  if (PeekCodePoint(s) == U'十') {
    TakeCodePoint(s);
    n = 10;
  }
  if (!s.empty() && !IsJapaneseSpace(PeekCodePoint(s))) {
    int d = JapaneseDigit(PeekCodePoint(s));
    if (d == 0) return std::nullopt;
    TakeCodePoint(s);
    n += d;
  }
  return n;
}

class KifReader {
 public:
  explicit KifReader(Sink& sink) : sink_(sink) {}

  void Read(const std::vector<TextLine>& lines) {
    for (const TextLine& line : lines) {
      if (!ReadLine(line)) return;
    }
    if (board_top_ == 0) {
      sink_.Error(lines.empty() ? 1 : lines.front().number,
                  "KIF: no board diagram (a framed 9x9 board between '+---...---+' lines)");
      return;
    }
    if (rows_ != 9 && !board_done_) {
      sink_.Error(board_top_, "KIF: board diagram is not closed by a '+---...---+' line");
      return;
    }
    Finish();
  }

 private:
  // A move of a list. Both kinds become moves on replay: a KIF one's 同 is the square of the
  // move before it in its line, and a KI2 one (Japanese notation) is read against the position
  // it is played in.
  struct ListedMove {
    int line = 0;
    // KIF: the square (kNoSquare: 同), the piece named, and a board move's origin.
    Square to = kNoSquare;
    PieceType named = kNoPieceType;
    Square from = kNoSquare;
    bool drop = false, promote = false;
    std::string japanese;  // KI2
  };
  // The main line (lines_[0], from ply 1) or a variation: the moves from `start_ply` on.
  struct ListedLine {
    int start_ply = 1;
    int header_line = 0;  // the variation's "変化" line
    std::vector<ListedMove> moves;
    bool stopped = false;  // its list has ended (詰み, 投了 ...)
  };

  // Returns false to stop reading (an error already reported).
  bool ReadLine(const TextLine& line) {
    absl::string_view text = absl::StripTrailingAsciiWhitespace(line.text);
    absl::string_view stripped = absl::StripLeadingAsciiWhitespace(text);
    if (stripped.empty() || absl::StartsWith(stripped, "#") || absl::StartsWith(stripped, "*") ||
        absl::StartsWith(stripped, "&")) {
      return true;
    }
    if (in_board_) return ReadBoardLine(line.number, stripped);
    if (absl::StartsWith(stripped, "+--")) {
      if (board_top_ != 0) {
        sink_.Error(line.number, "KIF: a second board diagram; a KIF file holds one problem");
        return false;
      }
      board_top_ = line.number;
      in_board_ = true;
      return true;
    }
    if (absl::StartsWith(stripped, "変化")) return ReadVariationHeader(line.number, stripped);
    if (lines_.size() > 1) {  // in a variation: only its moves
      if (absl::ascii_isdigit(stripped[0])) return ReadMove(line.number, stripped);
      if (IsSideMark(PeekCodePoint(stripped))) return ReadJapaneseMoves(line.number, stripped);
      return true;
    }
    if (absl::StrContains(stripped, "持駒")) return ReadHand(line.number, stripped);
    if (absl::StrContains(stripped, "後手番") || absl::StrContains(stripped, "上手番")) {
      setup_.side = kWhite;
      side_stated_ = true;
      return true;
    }
    if (absl::StrContains(stripped, "先手番") || absl::StrContains(stripped, "下手番")) {
      setup_.side = kBlack;
      side_stated_ = true;
      return true;
    }
    if (absl::StartsWith(stripped, "まで")) return ReadEnd(line.number, stripped);
    if (absl::ascii_isdigit(stripped[0]) && board_done_) return ReadMove(line.number, stripped);
    if (board_done_ && IsSideMark(PeekCodePoint(stripped))) {
      return ReadJapaneseMoves(line.number, stripped);
    }
    for (absl::string_view key : {"表題", "作品名", "作者", "出典", "作品番号"}) {
      if (absl::StartsWith(stripped, key)) {
        notes_.emplace_back(stripped);
        break;
      }
    }
    return true;  // other header lines (開始日時, 手合割, ...) say nothing about the problem
  }

  // "まで9手で詰み": the stated length.
  bool ReadEnd(int number, absl::string_view text) {
    if (lines_.size() > 1) return true;  // a variation's end says nothing of the solution
    absl::string_view rest = text.substr(strlen("まで"));
    size_t digits = 0;
    while (digits < rest.size() && absl::ascii_isdigit(rest[digits])) ++digits;
    int n;
    if (digits > 0 && absl::StartsWith(rest.substr(digits), "手で詰")) {
      if (!absl::SimpleAtoi(rest.substr(0, digits), &n) || n < 1 || n > kMaxStatedPlies) {
        sink_.Error(number, absl::StrCat("KIF: stated length ", rest.substr(0, digits),
                                         " is not 1 to ", kMaxStatedPlies, " plies"));
        return false;
      }
      stated_length_ = n;
    }
    return true;
  }

  static bool IsSideMark(char32_t cp) { return SideOfMark(cp).has_value(); }

  // KI2 moves, one or more to a line ("▲２四桂打　△同　銀　▲２三銀成"), perhaps ended by
  // "まで9手で詰み". Each is read against the position on replay (Finish).
  bool ReadJapaneseMoves(int number, absl::string_view text) {
    if (lines_.back().stopped) return true;
    while (!text.empty()) {
      if (absl::StartsWith(text, "まで")) return ReadEnd(number, text);
      if (!IsSideMark(PeekCodePoint(text))) {
        sink_.Error(number, absl::StrCat("KI2 move: cannot read '", text, "'"));
        return false;
      }
      if (lines_.size() == 1 && lines_[0].moves.empty() && !side_stated_) {
        // A problem file that does not say who is to move: its first move does.
        setup_.side = *SideOfMark(PeekCodePoint(text));
      }
      // The move runs to the next mark (spaces do not end it: 同 is followed by one).
      absl::string_view rest = text;
      TakeCodePoint(rest);
      while (!rest.empty() && !IsSideMark(PeekCodePoint(rest)) && !absl::StartsWith(rest, "まで")) {
        TakeCodePoint(rest);
      }
      ListedMove move;
      move.line = number;
      move.japanese = std::string(TrimSpaces(text.substr(0, text.size() - rest.size())));
      lines_.back().moves.push_back(std::move(move));
      text = rest;
    }
    return true;
  }

  // Without the half- and full-width spaces at its end.
  static absl::string_view TrimSpaces(absl::string_view s) {
    for (;;) {
      absl::string_view trimmed = s;
      if (absl::ConsumeSuffix(&trimmed, " ") || absl::ConsumeSuffix(&trimmed, "\t") ||
          absl::ConsumeSuffix(&trimmed, "　")) {
        s = trimmed;
      } else {
        return s;
      }
    }
  }

  bool ReadBoardLine(int number, absl::string_view text) {
    if (absl::StartsWith(text, "+--")) {
      if (rows_ != 9) {
        sink_.Error(number, absl::StrCat("KIF: board diagram has ", rows_, " rows, not 9"));
        return false;
      }
      in_board_ = false;
      board_done_ = true;
      return true;
    }
    if (!absl::ConsumePrefix(&text, "|")) {
      sink_.Error(number, "KIF: board row must start with '|'");
      return false;
    }
    if (rows_ == 9) {
      sink_.Error(number, "KIF: board diagram has more than 9 rows");
      return false;
    }
    int rank = rows_++;
    for (int column = 0; column < 9; ++column) {
      int file = 8 - column;
      char32_t mark = TakeCodePoint(text);
      char32_t piece = TakeCodePoint(text);
      if (piece == U'・') continue;
      PieceType pt = PieceTypeFromKanji(piece);
      bool white = mark == U'v' || mark == U'V';
      if (pt == kNoPieceType || !(white || IsJapaneseSpace(mark) || mark == U'^')) {
        sink_.Error(number, absl::StrCat("KIF: board row ", rank + 1, ", column ", column + 1,
                                         ": expected a piece like ' 歩' or 'v歩', or ' ・'"));
        return false;
      }
      setup_.Put(MakeSquare(file, rank), white ? kWhite : kBlack, pt);
    }
    if (!absl::StartsWith(text, "|")) {
      sink_.Error(number, absl::StrCat("KIF: board row ", rank + 1,
                                       " has more than 9 squares or "
                                       "lacks its closing '|'"));
      return false;
    }
    return true;
  }

  bool ReadHand(int number, absl::string_view text) {
    size_t at = text.find("持駒");
    absl::string_view who = text.substr(0, at);
    Color c = absl::StrContains(who, "後手") || absl::StrContains(who, "上手") ? kWhite : kBlack;
    absl::string_view items = text.substr(at + strlen("持駒"));
    if (!absl::ConsumePrefix(&items, "：")) absl::ConsumePrefix(&items, ":");
    SkipSpaces(items);
    if (absl::StartsWith(items, "なし") || items.empty()) return true;
    if (absl::StartsWith(items, "残り全部")) {
      setup_.rest_to[c] = true;
      return true;
    }
    while (!items.empty()) {
      absl::string_view item_start = items;
      PieceType pt = PieceTypeFromKanji(TakeCodePoint(items));
      std::optional<int> count = TakeCount(items);
      if (pt == kNoPieceType || pt == kKing || IsPromoted(pt) || !count || *count < 1 ||
          (!items.empty() && !IsJapaneseSpace(PeekCodePoint(items)))) {
        absl::string_view item = item_start.substr(0, item_start.find_first_of(" "));
        sink_.Error(number, absl::StrCat("KIF: bad hand item '", item,
                                         "' (expected a piece kanji and a count, like '歩十八')"));
        return false;
      }
      if (setup_.hand[c][pt] + *count > Hand::kMaxCount[pt]) {
        absl::string_view item = item_start.substr(0, item_start.find_first_of(" "));
        sink_.Error(number, absl::StrCat("KIF: hand item '", item, "' makes more than the ",
                                         Hand::kMaxCount[pt], " a set has"));
        return false;
      }
      setup_.hand[c][pt] += *count;
      SkipSpaces(items);
    }
    return true;
  }

  // "変化：3手": the moves that follow replace a line's from that ply on.
  bool ReadVariationHeader(int number, absl::string_view text) {
    absl::string_view rest = text.substr(strlen("変化"));
    if (!absl::ConsumePrefix(&rest, "：")) absl::ConsumePrefix(&rest, ":");
    SkipSpaces(rest);
    size_t digits = 0;
    while (digits < rest.size() && absl::ascii_isdigit(rest[digits])) ++digits;
    int ply = 0;
    if (digits == 0 || !absl::SimpleAtoi(rest.substr(0, digits), &ply) || ply < 1 ||
        ply > kMaxStatedPlies) {
      sink_.Error(number, "KIF: a variation's header reads '変化：<ply>手', like '変化：4手'");
      ply = 0;  // its moves are read and left out
    }
    lines_.push_back(ListedLine{ply, number, {}, false});
    return true;
  }

  // "   1 ２四桂打(00)   ( 0:00/00:00:00)", "   2 同　銀(23)", "   9 詰み".
  bool ReadMove(int number, absl::string_view text) {
    if (lines_.back().stopped) return true;
    size_t digits = 0;
    while (digits < text.size() && absl::ascii_isdigit(text[digits])) ++digits;
    absl::string_view move = text.substr(digits);
    SkipSpaces(move);
    char32_t first = PeekCodePoint(move);
    if (first != U'同' && JapaneseDigit(first) == 0) {
      lines_.back().stopped = true;  // 詰み, 投了, 中断 ... end the list
      return true;
    }
    int to_file = 0, to_rank = 0;
    bool same_square = first == U'同';  // the previous move's square, known on replay
    if (same_square) {
      TakeCodePoint(move);
      SkipSpaces(move);
    } else {
      to_file = JapaneseDigit(TakeCodePoint(move));
      to_rank = JapaneseDigit(TakeCodePoint(move));
    }
    PieceType pt = TakePieceName(move);
    bool promote = false, drop = false;
    if (absl::ConsumePrefix(&move, "不成")) {
    } else if (absl::ConsumePrefix(&move, "成")) {
      promote = true;
    } else if (absl::ConsumePrefix(&move, "打")) {
      drop = true;
    }
    int from_file = 0, from_rank = 0;
    if (absl::ConsumePrefix(&move, "(")) {
      if (move.size() < 3 || !absl::ascii_isdigit(move[0]) || !absl::ascii_isdigit(move[1]) ||
          move[2] != ')') {
        sink_.Error(number, "KIF move: bad origin, expected '(<file><rank>)'");
        return false;
      }
      from_file = move[0] - '0';
      from_rank = move[1] - '0';
    }
    if (from_file == 0) drop = true;  // "(00)" or no origin at all
    if ((!same_square && (to_file == 0 || to_rank == 0)) || pt == kNoPieceType ||
        (drop && promote) || (!drop && (from_rank < 1 || from_rank > 9))) {
      sink_.Error(number, absl::StrCat("KIF move: cannot read '", text.substr(digits), "'"));
      return false;
    }
    ListedMove listed;
    listed.line = number;
    listed.to = same_square ? kNoSquare : MakeSquare(to_file - 1, to_rank - 1);
    listed.named = pt;
    listed.promote = promote;
    if (drop) {
      if (IsPromoted(pt) || pt == kKing) {
        sink_.Error(number, "KIF move: only unpromoted pieces other than the king can be dropped");
        return false;
      }
      listed.drop = true;
    } else {
      listed.from = MakeSquare(from_file - 1, from_rank - 1);
    }
    lines_.back().moves.push_back(std::move(listed));
    return true;
  }

  // A KIF move in the position it is played in (同 is the last move's square) as USI, or why
  // it cannot be.
  static absl::StatusOr<std::string> KifMoveUsi(const Position& pos, const ListedMove& m) {
    Square to = m.to;
    if (to == kNoSquare) {
      if (pos.last_move().is_none()) return absl::InvalidArgumentError("同 with no move before it");
      to = pos.last_move().to();
    }
    if (m.drop) {
      static constexpr char kLetters[] = " PLNSBRG";
      return absl::StrCat(std::string(1, kLetters[m.named]), "*", SquareToUsi(to));
    }
    return absl::StrCat(SquareToUsi(m.from), SquareToUsi(to), m.promote ? "+" : "");
  }

  // Plays `moves` from `pos` (the first of them at ply `first_ply`), adding each to `usi`.
  // False after an error, reported with `what_prefix` before the move's own words ("KIF
  // variation at ply 4: KIF move 5 (3c5a): ...").
  bool Replay(Position& pos, const std::vector<ListedMove>& moves, int first_ply,
              const std::string& what_prefix, std::vector<std::string>& usi) {
    for (size_t i = 0; i < moves.size(); ++i) {
      const ListedMove& listed = moves[i];
      const bool japanese = !listed.japanese.empty();
      std::string text = listed.japanese;
      absl::StatusOr<Move> move = absl::InvalidArgumentError("");
      if (japanese) {
        move = ParseJapanese(pos, listed.japanese);
      } else if (absl::StatusOr<std::string> kif = KifMoveUsi(pos, listed); kif.ok()) {
        text = *kif;
        move = pos.ParseUsiMove(*kif);
        if (move.ok() && !listed.drop && TypeOf(pos.piece_on(listed.from)) != listed.named) {
          move = absl::InvalidArgumentError("the piece named is not the one on the origin square");
        }
      } else {
        move = kif.status();
        text = "同";
      }
      if (!move.ok()) {
        sink_.Error(listed.line,
                    absl::StrCat(what_prefix, japanese ? "KI2 move " : "KIF move ",
                                 first_ply + int(i), " (", text, "): ", move.status().message()));
        return false;
      }
      usi.push_back(ToUsi(*move));
      pos.DoMove(*move);
    }
    return true;
  }

  void Finish() {
    absl::StatusOr<std::string> sfen = setup_.ToSfen();
    if (!sfen.ok()) {
      sink_.Error(board_top_, absl::StrCat("KIF: ", sfen.status().message()));
      return;
    }
    Problem problem;
    problem.id = sink_.DefaultId(board_top_);
    problem.source = sink_.Source(board_top_);
    problem.sfen = *sfen;
    problem.notes = absl::StrJoin(notes_, "; ");
    // Replay to check legality and that each named piece is the one on the origin square;
    // KI2 moves are read here, against the position they are played in.
    const Position root = *Position::FromSfen(*sfen);
    Position pos = root;
    if (!Replay(pos, lines_[0].moves, 1, "", problem.solution_usi)) return;
    // Each variation branches off the latest line before it that has a move at its ply (the
    // main line or another variation); a bad one is reported and left out.
    std::vector<std::vector<std::string>> whole(lines_.size());  // each line from the root
    whole[0] = problem.solution_usi;
    for (size_t k = 1; k < lines_.size(); ++k) {
      const ListedLine& v = lines_[k];
      if (v.start_ply == 0) continue;  // its header was reported
      std::string where = absl::StrCat("KIF variation at ply ", v.start_ply, ": ");
      int parent = -1;
      for (int j = int(k) - 1; j >= 0 && parent < 0; --j) {
        // (A sibling that starts at the same ply shares the parent's moves before it.)
        if (lines_[j].start_ply > 0 && lines_[j].start_ply <= v.start_ply &&
            int(whole[j].size()) >= v.start_ply) {
          parent = j;
        }
      }
      if (parent < 0) {
        sink_.Error(v.header_line, where + "no line before it has a move at that ply");
        continue;
      }
      if (v.moves.empty()) {
        sink_.Error(v.header_line, where + "no moves");
        continue;
      }
      Position branch = root;
      std::vector<std::string> line(whole[parent].begin(),
                                    whole[parent].begin() + (v.start_ply - 1));
      for (const std::string& usi : line) branch.DoMove(*branch.ParseUsiMove(usi));
      if (!Replay(branch, v.moves, v.start_ply, where, line)) continue;
      whole[k] = line;
      problem.variations.push_back({v.start_ply, std::move(line)});
    }
    // A mate ends on the attacker's move, so only an odd-length list states a mate length.
    if (stated_length_) {
      problem.expected_length = stated_length_;
    } else if (lines_[0].moves.size() % 2 == 1) {
      problem.expected_length = int(lines_[0].moves.size());
    }
    problem.expected_mate = problem.expected_length.has_value();
    sink_.Add(std::move(problem));
  }

  Sink& sink_;
  BoardSetup setup_;
  int board_top_ = 0;
  int rows_ = 0;
  bool in_board_ = false, board_done_ = false;
  std::vector<ListedLine> lines_ = {ListedLine{}};
  bool side_stated_ = false;
  std::optional<int> stated_length_;
  std::vector<std::string> notes_;
};

}  // namespace

void ReadKif(const std::vector<TextLine>& lines, Sink& sink) { KifReader(sink).Read(lines); }

}  // namespace tsume::collection_internal
