#include "core/notation.h"

#include <algorithm>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/strip.h"
#include "core/movegen.h"

namespace tsume {
namespace {

constexpr const char* kFileDigits[9] = {"１", "２", "３", "４", "５", "６", "７", "８", "９"};
constexpr const char* kRankKanji[9] = {"一", "二", "三", "四", "五", "六", "七", "八", "九"};
constexpr const char* kPieceNames[kNumPieceTypes] = {
    "", "歩", "香", "桂", "銀", "角", "飛", "金", "玉", "と", "成香", "成桂", "成銀", "馬", "竜"};

int Sign(int x) { return (x > 0) - (x < 0); }

// +1 when `sq` stands on the mover's left of `ref`, -1 on the right, 0 on the same file. Black's
// left is the high-numbered files; White, facing the other way, has them on the right.
int SideOf(Color us, Square sq, Square ref) {
  int d = Sign(FileOf(sq) - FileOf(ref));
  return us == kBlack ? d : -d;
}

// +1 when the move from `from` to `to` advances toward the enemy (上), 0 when it stays on the
// rank (寄), -1 when it retreats (引).
int Advance(Color us, Square from, Square to) {
  int d = Sign(RankOf(from) - RankOf(to));
  return us == kBlack ? d : -d;
}

const char* MotionWord(int advance) { return advance > 0 ? "上" : advance == 0 ? "寄" : "引"; }

// Squares holding another piece of the mover's, of the type `pt`, with a legal move to `to`.
std::vector<Square> OtherSources(const Position& pos, PieceType pt, Square to, Square from) {
  MoveList legal;
  GenerateLegal(pos, legal);
  std::vector<Square> sources;
  for (Move x : legal) {
    if (x.is_drop() || x.to() != to || x.moved_type() != pt || x.from() == from) continue;
    if (std::find(sources.begin(), sources.end(), x.from()) == sources.end()) {
      sources.push_back(x.from());
    }
  }
  return sources;
}

// The disambiguator for a board move when other pieces of the same kind can reach the square.
// Movement (上/寄/引) comes first; when another candidate moves the same way, the position
// (右/左, 直 for a gold-mover or silver going straight forward) decides, with the movement added
// when another candidate stands on the same side as well ("左上").
std::string Disambiguator(const Position& pos, Move m) {
  Color us = pos.side_to_move();
  Square from = m.from(), to = m.to();
  std::vector<Square> others = OtherSources(pos, m.moved_type(), to, from);
  if (others.empty()) return "";

  int advance = Advance(us, from, to);
  auto same_advance = std::find_if(others.begin(), others.end(),
                                   [&](Square sq) { return Advance(us, sq, to) == advance; });
  if (same_advance == others.end()) return MotionWord(advance);

  PieceType pt = m.moved_type();
  if (pt == kDragon || pt == kHorse) {
    // At most two exist, and they never share both movement and file, so their files relative
    // to each other decide; 直 is not used for them.
    return SideOf(us, from, *same_advance) > 0 ? "左" : "右";
  }
  int side = SideOf(us, from, to);
  if (side == 0) return "直";
  std::string word = side > 0 ? "左" : "右";
  bool side_shared = std::any_of(others.begin(), others.end(),
                                 [&](Square sq) { return SideOf(us, sq, to) == side; });
  if (side_shared) word += MotionWord(advance);
  return word;
}

// 打 is written only when a piece of the same kind on the board could also move there.
bool DropNeedsMark(const Position& pos, Move m) {
  MoveList legal;
  GenerateLegal(pos, legal);
  return std::any_of(legal.begin(), legal.end(), [&](Move x) {
    return !x.is_drop() && x.to() == m.to() && x.moved_type() == m.dropped_type();
  });
}

}  // namespace

std::string JapaneseSquare(Square sq) {
  return std::string(kFileDigits[FileOf(sq)]) + kRankKanji[RankOf(sq)];
}

std::string JapaneseDestination(const Position& pos, Move m) {
  Move previous = pos.last_move();
  if (!previous.is_none() && previous.to() == m.to()) return "同　";
  return JapaneseSquare(m.to());
}

std::string ToJapanese(const Position& pos, Move m) {
  Color us = pos.side_to_move();
  std::string out = us == kBlack ? "▲" : "△";
  out += JapaneseDestination(pos, m);
  if (m.is_drop()) {
    out += kPieceNames[m.dropped_type()];
    if (DropNeedsMark(pos, m)) out += "打";
    return out;
  }
  PieceType pt = m.moved_type();
  out += kPieceNames[pt];
  out += Disambiguator(pos, m);
  if (m.is_promotion()) {
    out += "成";
  } else if (CanPromote(pt) && (InPromotionZone(us, m.from()) || InPromotionZone(us, m.to()))) {
    out += "不成";
  }
  return out;
}

std::string LineToJapanese(const Position& pos, const std::vector<Move>& moves) {
  Position line = pos;
  std::string out;
  for (Move m : moves) {
    if (!out.empty()) out += ' ';
    out += ToJapanese(line, m);
    line.DoMove(m);
  }
  return out;
}

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

int JapaneseDigit(char32_t cp) {
  static constexpr char32_t kKanji[] = U"一二三四五六七八九";
  for (int i = 0; i < 9; ++i) {
    if (cp == kKanji[i]) return i + 1;
  }
  if (cp >= U'１' && cp <= U'９') return int(cp - U'１') + 1;
  if (cp >= U'1' && cp <= U'9') return int(cp - U'1') + 1;
  return 0;
}

PieceType PieceTypeFromKanji(char32_t cp) {
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

PieceType TakePieceName(absl::string_view& s) {
  char32_t cp = TakeCodePoint(s);
  if (cp != U'成') return PieceTypeFromKanji(cp);
  PieceType base = PieceTypeFromKanji(TakeCodePoint(s));
  return base == kLance || base == kKnight || base == kSilver ? Promote(base) : kNoPieceType;
}

std::optional<Color> SideOfMark(char32_t cp) {
  if (cp == U'▲' || cp == U'☗') return kBlack;
  if (cp == U'△' || cp == U'☖' || cp == U'▽') return kWhite;
  return std::nullopt;
}

namespace {

// What a move's text says, word by word (ParseJapanese).
struct JapaneseMoveWords {
  Square to = kNoSquare;
  PieceType type = kNoPieceType;
  bool right = false, left = false, straight = false;
  int advance = 2;  // 1 上, 0 寄, -1 引; 2 when not written
  bool promote = false, no_promote = false, drop = false;
  Square from = kNoSquare;
  bool Disambiguated() const { return right || left || straight || advance != 2; }
};

absl::StatusOr<JapaneseMoveWords> ReadJapaneseWords(const Position& pos, absl::string_view text) {
  JapaneseMoveWords w;
  absl::string_view s = text;
  auto skip_spaces = [&] {
    while (!s.empty() && IsJapaneseSpace(PeekCodePoint(s))) TakeCodePoint(s);
  };
  skip_spaces();
  if (std::optional<Color> marked = SideOfMark(PeekCodePoint(s))) {
    TakeCodePoint(s);
    if (*marked != pos.side_to_move()) {
      return absl::InvalidArgumentError(
          absl::StrCat(*marked == kBlack ? "a move of Black's (▲)" : "a move of White's (△)",
                       ", but ", pos.side_to_move() == kBlack ? "Black" : "White", " is to move"));
    }
    skip_spaces();
  }
  if (PeekCodePoint(s) == U'同') {
    TakeCodePoint(s);
    skip_spaces();
    Move previous = pos.last_move();
    if (previous.is_none()) return absl::InvalidArgumentError("同 with no move before it");
    w.to = previous.to();
  } else {
    int file = JapaneseDigit(TakeCodePoint(s));
    int rank = JapaneseDigit(TakeCodePoint(s));
    if (file == 0 || rank == 0) {
      return absl::InvalidArgumentError("expected a square like ２四, or 同");
    }
    w.to = MakeSquare(file - 1, rank - 1);
  }
  w.type = TakePieceName(s);
  if (w.type == kNoPieceType) {
    return absl::InvalidArgumentError("expected a piece after the square, like 歩 or 成銀");
  }
  for (bool more = true; more;) {
    switch (PeekCodePoint(s)) {
      case U'右':
        w.right = true;
        break;
      case U'左':
        w.left = true;
        break;
      case U'直':
        w.straight = true;
        break;
      case U'上':
      case U'行':
      case U'入':
        w.advance = 1;
        break;
      case U'寄':
        w.advance = 0;
        break;
      case U'引':
        w.advance = -1;
        break;
      default:
        more = false;
        continue;
    }
    TakeCodePoint(s);
  }
  if (absl::ConsumePrefix(&s, "不成") || absl::ConsumePrefix(&s, "生")) {
    w.no_promote = true;
  } else if (absl::ConsumePrefix(&s, "成")) {
    w.promote = true;
  } else if (absl::ConsumePrefix(&s, "打")) {
    w.drop = true;
  }
  if (absl::ConsumePrefix(&s, "(")) {
    if (s.size() < 3 || JapaneseDigit(s[0]) == 0 || JapaneseDigit(s[1]) == 0 || s[2] != ')') {
      return absl::InvalidArgumentError("expected the origin as (<file><rank>), like (23)");
    }
    w.from = MakeSquare(s[0] - '1', s[1] - '1');
    s.remove_prefix(3);
  }
  skip_spaces();
  if (!s.empty()) {
    return absl::InvalidArgumentError(absl::StrCat("cannot read '", s, "'"));
  }
  if (w.drop && (w.Disambiguated() || w.from != kNoSquare)) {
    return absl::InvalidArgumentError("a drop (打) with an origin or a disambiguator");
  }
  return w;
}

// Whether board move m, one of `candidates`, fits the disambiguators written.
bool FitsDisambiguators(const JapaneseMoveWords& w, Color us, Move m,
                        const std::vector<Move>& candidates) {
  Square from = m.from();
  if (w.from != kNoSquare && from != w.from) return false;
  if (w.advance != 2 && Advance(us, from, m.to()) != w.advance) return false;
  if (w.straight && (FileOf(from) != FileOf(m.to()) || Advance(us, from, m.to()) <= 0)) {
    return false;
  }
  if (!w.right && !w.left) return true;
  int wanted = w.left ? 1 : -1;
  if (m.moved_type() == kDragon || m.moved_type() == kHorse) {
    // Left or right of the other one (ToJapanese's Disambiguator), not of the square.
    return std::none_of(candidates.begin(), candidates.end(), [&](Move other) {
      return other != m && SideOf(us, other.from(), from) == wanted;
    });
  }
  return SideOf(us, from, m.to()) == wanted;
}

}  // namespace

absl::StatusOr<Move> ParseJapanese(const Position& pos, absl::string_view text) {
  absl::StatusOr<JapaneseMoveWords> read = ReadJapaneseWords(pos, text);
  if (!read.ok()) return read.status();
  const JapaneseMoveWords& w = *read;
  MoveList legal;
  GenerateLegal(pos, legal);
  std::vector<Move> board, drops;
  for (Move m : legal) {
    if (m.to() != w.to) continue;
    if (m.is_drop()) {
      if (m.dropped_type() == w.type) drops.push_back(m);
    } else if (m.moved_type() == w.type && m.is_promotion() == w.promote) {
      board.push_back(m);
    }
  }
  std::vector<Move> fitting;
  if (!w.drop) {
    for (Move m : board) {
      if (FitsDisambiguators(w, pos.side_to_move(), m, board)) fitting.push_back(m);
    }
  }
  // Without 打, a drop only where no piece on the board of that kind can move there.
  bool may_drop = w.drop || (board.empty() && !w.Disambiguated() && w.from == kNoSquare &&
                             !w.promote && !w.no_promote);
  if (may_drop) fitting.insert(fitting.end(), drops.begin(), drops.end());
  if (fitting.size() == 1) return fitting[0];
  if (fitting.empty()) return absl::InvalidArgumentError("no legal move fits it");
  std::vector<std::string> usi;
  for (Move m : fitting) usi.push_back(ToUsi(m));
  return absl::InvalidArgumentError(
      absl::StrCat("ambiguous: ", absl::StrJoin(usi, ", "), " all fit it"));
}

}  // namespace tsume
