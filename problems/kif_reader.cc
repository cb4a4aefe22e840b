// KIF problem files: a framed board diagram, hand lines (持駒), the side to move (手番), and
// optionally a move list taken as the solution. The text is UTF-8 by now (Shift-JIS files are
// converted before this reader runs).
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
#include "core/position.h"
#include "problems/reader_internal.h"

namespace tsume::collection_internal {
namespace {

// Takes one UTF-8 code point off the front of `s` (0 at the end of the text).
char32_t TakeCodePoint(absl::string_view& s) {
  if (s.empty()) return 0;
  unsigned char c = s[0];
  int extra = c < 0x80 ? 0 : c < 0xE0 ? 1 : c < 0xF0 ? 2 : 3;
  if (size_t(extra) >= s.size()) extra = int(s.size()) - 1;
  char32_t cp = extra == 0 ? c : c & (0x3F >> extra);
  for (int k = 1; k <= extra; ++k) cp = cp << 6 | (s[k] & 0x3F);
  s.remove_prefix(extra + 1);
  return cp;
}

char32_t PeekCodePoint(absl::string_view s) { return TakeCodePoint(s); }

bool IsSpace(char32_t cp) { return cp == U' ' || cp == U'\t' || cp == U'\u3000'; }

void SkipSpaces(absl::string_view& s) {
  while (!s.empty() && IsSpace(PeekCodePoint(s))) TakeCodePoint(s);
}

// Piece kanji as used in diagrams and move lists.
PieceType PieceFromKanji(char32_t cp) {
  switch (cp) {
    case U'歩':
      return kPawn;
    case U'香':
      return kLance;
    case U'桂':
      return kKnight;
    case U'銀':
      return kSilver;
    case U'金':
      return kGold;
    case U'角':
      return kBishop;
    case U'飛':
      return kRook;
    case U'玉':
    case U'王':
      return kKing;
    case U'と':
      return kProPawn;
    case U'杏':
      return kProLance;
    case U'圭':
      return kProKnight;
    case U'全':
      return kProSilver;
    case U'馬':
      return kHorse;
    case U'龍':
    case U'竜':
      return kDragon;
    default:
      return kNoPieceType;
  }
}

// 一..九 (also １..９ and 1..9) to 1..9; 0 when it is none of these.
int DigitValue(char32_t cp) {
  static constexpr char32_t kKanji[] = U"一二三四五六七八九";
  for (int i = 0; i < 9; ++i) {
    if (cp == kKanji[i]) return i + 1;
  }
  if (cp >= U'１' && cp <= U'９') return int(cp - U'１') + 1;
  if (cp >= U'1' && cp <= U'9') return int(cp - U'1') + 1;
  return 0;
}

// A hand count: kanji (二, 十, 十八) or digits; 1 when nothing is written.
std::optional<int> TakeCount(absl::string_view& s) {
  if (s.empty() || IsSpace(PeekCodePoint(s))) return 1;
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
  if (!s.empty() && !IsSpace(PeekCodePoint(s))) {
    int d = DigitValue(PeekCodePoint(s));
    if (d == 0) return std::nullopt;
    TakeCodePoint(s);
    n += d;
  }
  return n;
}

std::string SquareUsi(int file, int rank) {
  return absl::StrCat(file, std::string(1, char('a' + rank - 1)));
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
    if (absl::StartsWith(stripped, "変化")) {
      in_variation_ = true;  // only the main line is the solution
      return true;
    }
    if (in_variation_) return true;
    if (absl::StrContains(stripped, "持駒")) return ReadHand(line.number, stripped);
    if (absl::StrContains(stripped, "後手番") || absl::StrContains(stripped, "上手番")) {
      setup_.side = kWhite;
      return true;
    }
    if (absl::StrContains(stripped, "先手番") || absl::StrContains(stripped, "下手番")) {
      setup_.side = kBlack;
      return true;
    }
    if (absl::StartsWith(stripped, "まで")) {
      absl::string_view rest = stripped.substr(strlen("まで"));
      size_t digits = 0;
      while (digits < rest.size() && absl::ascii_isdigit(rest[digits])) ++digits;
      int n;
      if (digits > 0 && absl::StartsWith(rest.substr(digits), "手で詰")) {
        if (!absl::SimpleAtoi(rest.substr(0, digits), &n) || n < 1 || n > kMaxStatedPlies) {
          sink_.Error(line.number, absl::StrCat("KIF: stated length ", rest.substr(0, digits),
                                                " is not 1 to ", kMaxStatedPlies, " plies"));
          return false;
        }
        stated_length_ = n;
      }
      return true;
    }
    if (absl::ascii_isdigit(stripped[0]) && board_done_) return ReadMove(line.number, stripped);
    for (absl::string_view key : {"表題", "作品名", "作者", "出典", "作品番号"}) {
      if (absl::StartsWith(stripped, key)) {
        notes_.emplace_back(stripped);
        break;
      }
    }
    return true;  // other header lines (開始日時, 手合割, ...) say nothing about the problem
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
      PieceType pt = PieceFromKanji(piece);
      bool white = mark == U'v' || mark == U'V';
      if (pt == kNoPieceType || !(white || IsSpace(mark) || mark == U'^')) {
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
      PieceType pt = PieceFromKanji(TakeCodePoint(items));
      std::optional<int> count = TakeCount(items);
      if (pt == kNoPieceType || pt == kKing || IsPromoted(pt) || !count || *count < 1 ||
          (!items.empty() && !IsSpace(PeekCodePoint(items)))) {
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

  // "   1 ２四桂打(00)   ( 0:00/00:00:00)", "   2 同　銀(23)", "   9 詰み".
  bool ReadMove(int number, absl::string_view text) {
    if (stopped_) return true;
    size_t digits = 0;
    while (digits < text.size() && absl::ascii_isdigit(text[digits])) ++digits;
    absl::string_view move = text.substr(digits);
    SkipSpaces(move);
    char32_t first = PeekCodePoint(move);
    if (first != U'同' && DigitValue(first) == 0) {
      stopped_ = true;  // 詰み, 投了, 中断 ... end the list
      return true;
    }
    int to_file, to_rank;
    if (first == U'同') {
      TakeCodePoint(move);
      SkipSpaces(move);
      if (last_to_file_ == 0) {
        sink_.Error(number, "KIF move: '同' with no previous move");
        return false;
      }
      to_file = last_to_file_;
      to_rank = last_to_rank_;
    } else {
      to_file = DigitValue(TakeCodePoint(move));
      to_rank = DigitValue(TakeCodePoint(move));
    }
    PieceType pt = kNoPieceType;
    if (PeekCodePoint(move) == U'成') {
      TakeCodePoint(move);
      PieceType base = PieceFromKanji(TakeCodePoint(move));
      if (base == kLance || base == kKnight || base == kSilver) pt = Promote(base);
    } else {
      pt = PieceFromKanji(TakeCodePoint(move));
    }
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
    if (to_file == 0 || to_rank == 0 || pt == kNoPieceType || (drop && promote) ||
        (!drop && (from_rank < 1 || from_rank > 9))) {
      sink_.Error(number, absl::StrCat("KIF move: cannot read '", text.substr(digits), "'"));
      return false;
    }
    std::string usi;
    if (drop) {
      static constexpr char kLetters[] = " PLNSBRG";
      if (IsPromoted(pt) || pt == kKing) {
        sink_.Error(number, "KIF move: only unpromoted pieces other than the king can be dropped");
        return false;
      }
      usi = absl::StrCat(std::string(1, kLetters[pt]), "*", SquareUsi(to_file, to_rank));
    } else {
      usi = absl::StrCat(SquareUsi(from_file, from_rank), SquareUsi(to_file, to_rank),
                         promote ? "+" : "");
      from_types_.push_back({int(moves_.size()), MakeSquare(from_file - 1, from_rank - 1), pt});
    }
    moves_.push_back(usi);
    move_lines_.push_back(number);
    last_to_file_ = to_file;
    last_to_rank_ = to_rank;
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
    if (!moves_.empty()) {
      // Replay to check legality and that each named piece is the one on the origin square.
      Position pos = *Position::FromSfen(*sfen);
      size_t next_from = 0;
      for (size_t i = 0; i < moves_.size(); ++i) {
        absl::StatusOr<Move> move = pos.ParseUsiMove(moves_[i]);
        std::string problem_text;
        if (!move.ok()) {
          problem_text = std::string(move.status().message());
        } else if (next_from < from_types_.size() && from_types_[next_from].index == int(i)) {
          PieceType on_board = TypeOf(pos.piece_on(from_types_[next_from].from));
          if (on_board != from_types_[next_from].type) {
            problem_text = "the piece named is not the one on the origin square";
          }
          ++next_from;
        }
        if (!problem_text.empty()) {
          sink_.Error(move_lines_[i],
                      absl::StrCat("KIF move ", i + 1, " (", moves_[i], "): ", problem_text));
          return;
        }
        pos.DoMove(*move);
      }
      problem.solution_usi = moves_;
    }
    // A mate ends on the attacker's move, so only an odd-length list states a mate length.
    if (stated_length_) {
      problem.expected_length = stated_length_;
    } else if (moves_.size() % 2 == 1) {
      problem.expected_length = int(moves_.size());
    }
    problem.expected_mate = problem.expected_length.has_value();
    sink_.Add(std::move(problem));
  }

  struct FromCheck {
    int index;
    Square from;
    PieceType type;
  };

  Sink& sink_;
  BoardSetup setup_;
  int board_top_ = 0;
  int rows_ = 0;
  bool in_board_ = false, board_done_ = false, in_variation_ = false, stopped_ = false;
  std::vector<std::string> moves_;
  std::vector<int> move_lines_;
  std::vector<FromCheck> from_types_;
  int last_to_file_ = 0, last_to_rank_ = 0;
  std::optional<int> stated_length_;
  std::vector<std::string> notes_;
};

}  // namespace

void ReadKif(const std::vector<TextLine>& lines, Sink& sink) { KifReader(sink).Read(lines); }

}  // namespace tsume::collection_internal
