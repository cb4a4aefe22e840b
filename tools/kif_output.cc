#include "tools/kif_output.h"

#include <algorithm>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "core/notation.h"

namespace tsume {
namespace {

constexpr const char* kKanjiNumbers[11] = {"",   "一", "二", "三", "四", "五",
                                           "六", "七", "八", "九", "十"};
// Names in moves, by piece type (the type moved, before any promotion).
constexpr const char* kMoveNames[kNumPieceTypes] = {
    "", "歩", "香", "桂", "銀", "角", "飛", "金", "玉", "と", "成香", "成桂", "成銀", "馬", "龍"};
// One character per piece type in the diagram.
constexpr const char* kDiagramNames[kNumPieceTypes] = {
    "", "歩", "香", "桂", "銀", "角", "飛", "金", "玉", "と", "杏", "圭", "全", "馬", "龍"};

// 1 to 18 as KIF writes counts in hand: "" for one, then 二 ... 十八.
std::string HandCount(int n) {
  if (n <= 1) return "";
  if (n <= 10) return kKanjiNumbers[n];
  return absl::StrCat("十", kKanjiNumbers[n - 10]);
}

std::string HandLine(const Position& pos, Color c) {
  // The order KIF writes hands in: strongest first.
  static constexpr PieceType kOrder[kNumHandTypes] = {kRook,   kBishop, kGold, kSilver,
                                                      kKnight, kLance,  kPawn};
  std::string line = c == kBlack ? "先手の持駒：" : "後手の持駒：";
  Hand hand = pos.hand(c);
  bool any = false;
  for (PieceType pt : kOrder) {
    int n = hand.Count(pt);
    if (n == 0) continue;
    absl::StrAppend(&line, kDiagramNames[pt], HandCount(n), "　");
    any = true;
  }
  if (!any) line += "なし";
  return line;
}

std::string Diagram(const Position& pos) {
  std::string out = absl::StrCat(HandLine(pos, kWhite), "\n");
  out += "  ９ ８ ７ ６ ５ ４ ３ ２ １\n+---------------------------+\n";
  for (int rank = 0; rank < 9; ++rank) {
    out += "|";
    for (int file = 8; file >= 0; --file) {
      Piece p = pos.piece_on(MakeSquare(file, rank));
      if (p == kNoPiece) {
        out += " ・";
      } else {
        absl::StrAppend(&out, ColorOf(p) == kWhite ? "v" : " ", kDiagramNames[TypeOf(p)]);
      }
    }
    absl::StrAppend(&out, "|", kKanjiNumbers[rank + 1], "\n");
  }
  out += "+---------------------------+\n";
  absl::StrAppend(&out, HandLine(pos, kBlack), "\n");
  if (pos.side_to_move() == kWhite) out += "後手番\n";
  return out;
}

std::string MoveText(const Position& pos, Move m) {
  std::string out = JapaneseDestination(pos, m);
  if (m.is_drop()) return absl::StrCat(out, kMoveNames[m.dropped_type()], "打");
  PieceType pt = m.moved_type();
  Color us = pos.side_to_move();
  absl::StrAppend(&out, kMoveNames[pt]);
  if (m.is_promotion()) {
    out += "成";
  } else if (CanPromote(pt) && (InPromotionZone(us, m.from()) || InPromotionZone(us, m.to()))) {
    out += "不成";
  }
  absl::StrAppend(&out, "(", FileOf(m.from()) + 1, RankOf(m.from()) + 1, ")");
  return out;
}

}  // namespace

std::string SolutionKif(const Position& root, const std::vector<Move>& moves, bool mate,
                        const std::string& comment, const std::vector<std::string>& notes,
                        const std::vector<KifVariation>& variations) {
  std::string out = "# KIF形式棋譜ファイル\n";
  if (!comment.empty()) absl::StrAppend(&out, "# ", comment, "\n");
  out += Diagram(root);
  if (moves.empty() && notes.empty()) return out;
  out += "手数----指手---------消費時間--\n";
  for (const std::string& note : notes) absl::StrAppend(&out, "*", note, "\n");
  if (moves.empty()) return out;
  Position pos = root;
  for (size_t i = 0; i < moves.size(); ++i) {
    absl::StrAppend(&out, absl::StrFormat("%4d ", i + 1), MoveText(pos, moves[i]), "\n");
    pos.DoMove(moves[i]);
  }
  absl::StrAppend(&out, "まで", moves.size(), mate ? "手で詰み\n" : "手\n");
  // Later plies first: each block then branches off the record's line, whether a reader takes
  // the last line read (a sibling or an earlier-ply block shares the record's moves before it)
  // or the record itself.
  std::vector<const KifVariation*> order;
  for (const KifVariation& v : variations) {
    if (v.ply >= 1 && v.ply <= int(moves.size()) && !v.moves.empty()) order.push_back(&v);
  }
  std::stable_sort(order.begin(), order.end(),
                   [](const KifVariation* a, const KifVariation* b) { return a->ply > b->ply; });
  for (const KifVariation* v : order) {
    absl::StrAppend(&out, "\n変化：", v->ply, "手\n");
    Position branch = root;
    for (int i = 0; i < v->ply - 1; ++i) branch.DoMove(moves[i]);
    for (size_t i = 0; i < v->moves.size(); ++i) {
      absl::StrAppend(&out, absl::StrFormat("%4d ", v->ply + int(i)), MoveText(branch, v->moves[i]),
                      "\n");
      if (i == 0 && !v->comment.empty()) absl::StrAppend(&out, "*", v->comment, "\n");
      branch.DoMove(v->moves[i]);
    }
  }
  return out;
}

}  // namespace tsume
