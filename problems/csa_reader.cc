// CSA problem files: "PI" or "P1".."P9" board rows, "P+"/"P-" piece lists (00 = hand, "00AL" =
// all remaining pieces), a "+" or "-" line for the side to move, then optionally moves such as
// "+2726FU" taken as the solution.
#include <string>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/position.h"
#include "problems/reader_internal.h"

namespace tsume::collection_internal {
namespace {

PieceType PieceFromCsa(absl::string_view code) {
  static constexpr std::pair<absl::string_view, PieceType> kCodes[] = {
      {"FU", kPawn},      {"KY", kLance},     {"KE", kKnight}, {"GI", kSilver},  {"KI", kGold},
      {"KA", kBishop},    {"HI", kRook},      {"OU", kKing},   {"TO", kProPawn}, {"NY", kProLance},
      {"NK", kProKnight}, {"NG", kProSilver}, {"UM", kHorse},  {"RY", kDragon}};
  for (const auto& [name, pt] : kCodes) {
    if (code == name) return pt;
  }
  return kNoPieceType;
}

// "XY" with X the file and Y the rank, 1..9 each; false for anything else.
bool ParseSquare(absl::string_view xy, int& file, int& rank) {
  if (xy.size() != 2 || xy[0] < '1' || xy[0] > '9' || xy[1] < '1' || xy[1] > '9') return false;
  file = xy[0] - '0';
  rank = xy[1] - '0';
  return true;
}

Square ToSquare(int file, int rank) { return MakeSquare(file - 1, rank - 1); }

std::string SquareUsi(int file, int rank) {
  return absl::StrCat(file, std::string(1, char('a' + rank - 1)));
}

class CsaReader {
 public:
  explicit CsaReader(Sink& sink) : sink_(sink) {}

  void Read(const std::vector<TextLine>& lines) {
    for (const TextLine& line : lines) {
      absl::string_view text = absl::StripTrailingAsciiWhitespace(line.text);
      if (text.empty() || absl::StartsWith(text, "'")) continue;
      // Board rows hold commas nowhere; other lines may hold several statements.
      std::vector<absl::string_view> statements =
          absl::StartsWith(text, "P") ? std::vector<absl::string_view>{text}
                                      : absl::StrSplit(text, ',', absl::SkipEmpty());
      for (absl::string_view statement : statements) {
        if (!ReadStatement(line.number, statement)) return;
      }
    }
    if (first_line_ == 0) {
      sink_.Error(lines.empty() ? 1 : lines.front().number,
                  "CSA: no position (expected 'PI' or 'P1'..'P9' rows)");
      return;
    }
    Finish();
  }

 private:
  bool Fail(int number, absl::string_view message) {
    sink_.Error(number, absl::StrCat("CSA: ", message));
    return false;
  }

  bool ReadStatement(int number, absl::string_view s) {
    if (s.empty()) return true;
    if (s[0] == 'P') {
      if (side_seen_) return Fail(number, "position line after the side to move");
      if (first_line_ == 0) first_line_ = number;
      if (s.size() >= 2 && s[1] == 'I') return ReadInitial(number, s.substr(2));
      if (s.size() >= 2 && s[1] >= '1' && s[1] <= '9')
        return ReadRow(number, s[1] - '0', s.substr(2));
      if (s.size() >= 2 && (s[1] == '+' || s[1] == '-')) {
        return ReadPieces(number, s[1] == '+' ? kBlack : kWhite, s.substr(2));
      }
      return Fail(number, absl::StrCat("bad position line '", s, "'"));
    }
    if (s == "+" || s == "-") {
      if (first_line_ == 0) return Fail(number, "side to move before the position");
      setup_.side = s == "+" ? kBlack : kWhite;
      side_seen_ = true;
      return true;
    }
    if (s[0] == '+' || s[0] == '-') {
      if (!side_seen_) return Fail(number, absl::StrCat("move '", s, "' before the side to move"));
      if (!stopped_) moves_.push_back({number, std::string(s)});
      return true;
    }
    if (s[0] == '%') {
      stopped_ = true;  // %TORYO, %TSUMI, ... end the move list
      return true;
    }
    // Version, player names, game information, times: nothing to do with the problem.
    if (s[0] == 'V' || s[0] == 'N' || s[0] == '$' || s[0] == 'T') return true;
    return Fail(number, absl::StrCat("unrecognized line '", s, "'"));
  }

  // "PI" followed by pieces removed from the initial position, e.g. "PI82HI22KA".
  bool ReadInitial(int number, absl::string_view removed) {
    static constexpr PieceType kBackRank[9] = {kLance, kKnight, kSilver, kGold, kKing,
                                               kGold,  kSilver, kKnight, kLance};
    for (int file = 1; file <= 9; ++file) {
      setup_.Put(ToSquare(file, 1), kWhite, kBackRank[file - 1]);
      setup_.Put(ToSquare(file, 9), kBlack, kBackRank[file - 1]);
      setup_.Put(ToSquare(file, 3), kWhite, kPawn);
      setup_.Put(ToSquare(file, 7), kBlack, kPawn);
    }
    setup_.Put(ToSquare(8, 2), kWhite, kRook);
    setup_.Put(ToSquare(2, 2), kWhite, kBishop);
    setup_.Put(ToSquare(2, 8), kBlack, kRook);
    setup_.Put(ToSquare(8, 8), kBlack, kBishop);
    for (; !removed.empty(); removed.remove_prefix(4)) {
      int file, rank;
      if (removed.size() < 4 || !ParseSquare(removed.substr(0, 2), file, rank)) {
        return Fail(number, absl::StrCat("bad square in '", removed.substr(0, 4), "'"));
      }
      Square sq = ToSquare(file, rank);
      if (setup_.type[sq] != PieceFromCsa(removed.substr(2, 2))) {
        return Fail(number, absl::StrCat("'", removed.substr(0, 4),
                                         "' names a piece not on that square initially"));
      }
      setup_.type[sq] = kNoPieceType;
    }
    return true;
  }

  // "P1-KY-KE-GI-KI-OU-KI-GI-KE-KY": 9 cells of 3 characters, file 9 first; " * " is empty.
  bool ReadRow(int number, int rank, absl::string_view cells) {
    std::string padded(cells);
    if (padded.size() < 27) padded.resize(27, ' ');  // trailing blanks are often trimmed
    if (padded.size() > 27)
      return Fail(number, absl::StrCat("row P", rank, " has more than 9 squares"));
    for (int column = 0; column < 9; ++column) {
      absl::string_view cell = absl::string_view(padded).substr(column * 3, 3);
      if (cell == " * " || cell == "   ") continue;
      PieceType pt = PieceFromCsa(cell.substr(1));
      if ((cell[0] != '+' && cell[0] != '-') || pt == kNoPieceType) {
        return Fail(number, absl::StrCat("row P", rank, ", column ", column + 1, ": bad cell '",
                                         cell, "' (expected ' * ', '+FU', '-OU' ...)"));
      }
      setup_.Put(ToSquare(9 - column, rank), cell[0] == '+' ? kBlack : kWhite, pt);
    }
    return true;
  }

  // "P+00KI00FU" (hand), "P-00AL" (all remaining pieces), "P+63FU" (on the board).
  bool ReadPieces(int number, Color c, absl::string_view items) {
    if (items.empty() || items.size() % 4 != 0) {
      return Fail(number, "piece list must be groups of 4 characters like '00KI' or '63FU'");
    }
    for (; !items.empty(); items.remove_prefix(4)) {
      absl::string_view item = items.substr(0, 4);
      if (item == "00AL") {
        setup_.rest_to[c] = true;
        continue;
      }
      PieceType pt = PieceFromCsa(item.substr(2));
      if (pt == kNoPieceType) return Fail(number, absl::StrCat("unknown piece in '", item, "'"));
      if (absl::StartsWith(item, "00")) {
        if (pt == kKing || IsPromoted(pt)) {
          return Fail(number, absl::StrCat("'", item, "': that piece cannot be in hand"));
        }
        ++setup_.hand[c][pt];
        continue;
      }
      int file, rank;
      if (!ParseSquare(item.substr(0, 2), file, rank)) {
        return Fail(number, absl::StrCat("bad square in '", item, "'"));
      }
      if (setup_.type[ToSquare(file, rank)] != kNoPieceType) {
        return Fail(number, absl::StrCat("'", item, "': square already occupied"));
      }
      setup_.Put(ToSquare(file, rank), c, pt);
    }
    return true;
  }

  void Finish() {
    absl::StatusOr<std::string> sfen = setup_.ToSfen();
    if (!sfen.ok()) {
      sink_.Error(first_line_, absl::StrCat("CSA: ", sfen.status().message()));
      return;
    }
    Problem problem;
    problem.id = sink_.DefaultId(first_line_);
    problem.source = sink_.Source(first_line_);
    problem.sfen = *sfen;
    Position pos = *Position::FromSfen(*sfen);
    for (size_t i = 0; i < moves_.size(); ++i) {
      const auto& [number, text] = moves_[i];
      absl::StatusOr<std::string> usi = ToUsi(pos, text);
      absl::StatusOr<Move> move =
          usi.ok() ? pos.ParseUsiMove(*usi) : absl::StatusOr<Move>(usi.status());
      if (!move.ok()) {
        sink_.Error(number,
                    absl::StrCat("CSA move ", i + 1, " '", text, "': ", move.status().message()));
        return;
      }
      pos.DoMove(*move);
      problem.solution_usi.push_back(*usi);
    }
    // A mate ends on the attacker's move, so only an odd-length list states a mate length.
    if (moves_.size() % 2 == 1) {
      problem.expected_length = int(moves_.size());
      problem.expected_mate = true;
    }
    sink_.Add(std::move(problem));
  }

  // "+2726FU": mover, origin (00 for a drop), destination, the piece after the move.
  static absl::StatusOr<std::string> ToUsi(const Position& pos, absl::string_view text) {
    if (text.size() < 7) return absl::InvalidArgumentError("expected '+XYXYPC'");
    Color mover = text[0] == '+' ? kBlack : kWhite;
    if (mover != pos.side_to_move()) return absl::InvalidArgumentError("wrong side to move");
    PieceType after = PieceFromCsa(text.substr(5, 2));
    int to_file, to_rank, from_file, from_rank;
    if (after == kNoPieceType || !ParseSquare(text.substr(3, 2), to_file, to_rank)) {
      return absl::InvalidArgumentError("bad destination or piece");
    }
    if (text.substr(1, 2) == "00") {
      static constexpr char kLetters[] = " PLNSBRG";
      if (IsPromoted(after) || after == kKing) {
        return absl::InvalidArgumentError("that piece cannot be dropped");
      }
      return absl::StrCat(std::string(1, kLetters[after]), "*", SquareUsi(to_file, to_rank));
    }
    if (!ParseSquare(text.substr(1, 2), from_file, from_rank)) {
      return absl::InvalidArgumentError("bad origin square");
    }
    PieceType before = TypeOf(pos.piece_on(ToSquare(from_file, from_rank)));
    bool promote = before != after && CanPromote(before) && Promote(before) == after;
    if (before != after && !promote) {
      return absl::InvalidArgumentError("the piece named is not the one on the origin square");
    }
    return absl::StrCat(SquareUsi(from_file, from_rank), SquareUsi(to_file, to_rank),
                        promote ? "+" : "");
  }

  Sink& sink_;
  BoardSetup setup_;
  int first_line_ = 0;
  bool side_seen_ = false, stopped_ = false;
  std::vector<std::pair<int, std::string>> moves_;
};

}  // namespace

void ReadCsa(const std::vector<TextLine>& lines, Sink& sink) { CsaReader(sink).Read(lines); }

}  // namespace tsume::collection_internal
