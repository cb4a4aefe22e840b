#include "core/notation.h"

#include <algorithm>

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

}  // namespace tsume
