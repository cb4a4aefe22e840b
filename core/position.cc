#include "core/position.h"

#include <bit>
#include <cassert>
#include <mutex>

#include "absl/strings/ascii.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_split.h"
#include "absl/strings/strip.h"
#include "core/movegen.h"

namespace tsume {

namespace zobrist {
uint64_t psq[kPieceNB][kNumSquares];
uint64_t hand[2][8];
uint64_t side;
}  // namespace zobrist

namespace {

uint64_t SplitMix64(uint64_t& state) {
  uint64_t z = (state += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

void InitZobrist() {
  uint64_t seed = 0x7473756d65ull;  // fixed: keys are the same in every run
  for (auto& row : zobrist::psq)
    for (auto& k : row) k = SplitMix64(seed);
  for (auto& row : zobrist::hand)
    for (auto& k : row) k = SplitMix64(seed);
  zobrist::side = SplitMix64(seed);
}

void InitTables() {
  static std::once_flag once;
  std::call_once(once, [] {
    InitBitboards();
    InitZobrist();
  });
}

constexpr absl::string_view kPieceLetters = " PLNSBRGK";

PieceType PieceTypeFromLetter(char upper) {
  size_t i = kPieceLetters.find(upper);
  return i == absl::string_view::npos || i == 0 ? kNoPieceType : PieceType(i);
}

char PieceLetter(PieceType pt, Color c) {
  char ch = kPieceLetters[Unpromote(pt)];
  return c == kWhite ? absl::ascii_tolower(ch) : ch;
}

std::string SquareName(Square sq) {
  return absl::StrCat(FileOf(sq) + 1, std::string(1, char('a' + RankOf(sq))));
}

// Every square for the types that move like a gold, none for the others, so that
// gold_movers_ is updated without a branch.
constexpr auto kGoldMoverMask = [] {
  std::array<Bitboard, kNumPieceTypes> t{};
  for (int pt = 0; pt < kNumPieceTypes; ++pt) {
    if (MovesLikeGold(PieceType(pt))) t[pt] = Bitboard::All();
  }
  return t;
}();

// A board as a vector of two 64-bit halves, for the piece updates below: in vector registers
// they need no pair of general registers per board (MovePiece saved and restored five).
using BoardVector = uint64_t __attribute__((vector_size(16)));
inline BoardVector AsVector(Bitboard b) { return std::bit_cast<BoardVector>(b.bits()); }
inline void XorInto(Bitboard& b, BoardVector x) {
  b = Bitboard(std::bit_cast<Bitboard::Bits>(AsVector(b) ^ x));
}

}  // namespace

std::string SquareToUsi(Square sq) { return SquareName(sq); }

std::string ToUsi(Move m) {
  if (m.is_none()) return "none";
  if (m.is_drop()) {
    return absl::StrCat(std::string(1, kPieceLetters[m.dropped_type()]), "*", SquareName(m.to()));
  }
  return absl::StrCat(SquareName(m.from()), SquareName(m.to()), m.is_promotion() ? "+" : "");
}

Position::Position() { *this = *FromSfen(kStartSfen); }

void Position::PutPiece(Square sq, Piece p) {
  board_[sq] = p;
  Color c = ColorOf(p);
  PieceType pt = TypeOf(p);
  by_color_[c].Set(sq);
  by_type_[pt].Set(sq);
  if (MovesLikeGold(pt)) gold_movers_.Set(sq);
  if (pt == kKing) king_[c] = sq;
}

void Position::TogglePiece(Square sq, Piece p) {
  BoardVector b = AsVector(SquareBB(sq));
  XorInto(by_color_[ColorOf(p)], b);
  XorInto(by_type_[TypeOf(p)], b);
  XorInto(gold_movers_, b & AsVector(kGoldMoverMask[TypeOf(p)]));
}

void Position::MovePiece(Square from, Square to, Piece p, Piece moved) {
  BoardVector from_bb = AsVector(SquareBB(from)), to_bb = AsVector(SquareBB(to));
  // One read-modify-write per board touched.
  XorInto(by_color_[ColorOf(p)], from_bb | to_bb);
  if (p == moved) {
    XorInto(by_type_[TypeOf(p)], from_bb | to_bb);
  } else {
    XorInto(by_type_[TypeOf(p)], from_bb);
    XorInto(by_type_[TypeOf(moved)], to_bb);
  }
  XorInto(gold_movers_, (from_bb & AsVector(kGoldMoverMask[TypeOf(p)])) |
                            (to_bb & AsVector(kGoldMoverMask[TypeOf(moved)])));
}

namespace {

// A control character inside (a newline in a command-line argument, an escape sequence) is no
// SFEN, and quoted in an error it would break the error's one line or the terminal.
absl::Status RejectControlCharacters(absl::string_view text, absl::string_view what) {
  for (size_t i = 0; i < text.size(); ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if ((c < 0x20 && c != '\t') || c == 0x7f) {
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: control character 0x%02x at byte %d", what, c, i + 1));
    }
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<Position> Position::FromSfen(absl::string_view sfen) {
  InitTables();
  sfen = absl::StripAsciiWhitespace(sfen);
  if (absl::Status s = RejectControlCharacters(sfen, "SFEN"); !s.ok()) return s;
  if (absl::ConsumePrefix(&sfen, "sfen ")) sfen = absl::StripLeadingAsciiWhitespace(sfen);
  if (sfen == "startpos") sfen = kStartSfen;
  std::vector<absl::string_view> fields = absl::StrSplit(sfen, ' ', absl::SkipEmpty());
  if (fields.size() < 3 || fields.size() > 4) {
    return absl::InvalidArgumentError(absl::StrCat(
        "SFEN needs 3 or 4 fields (board, side, hand, [move number]), got ", fields.size()));
  }
  Position pos{EmptyTag{}};
  pos.board_.fill(kNoPiece);
  for (auto& b : pos.by_type_) b = Bitboard();
  pos.by_color_[0] = pos.by_color_[1] = pos.gold_movers_ = Bitboard();
  pos.king_[0] = pos.king_[1] = kNoSquare;
  pos.hands_[0] = pos.hands_[1] = Hand();

  // Board: ranks a..i separated by '/', each listed from file 9 to file 1.
  std::vector<absl::string_view> ranks = absl::StrSplit(fields[0], '/');
  if (ranks.size() != 9) {
    return absl::InvalidArgumentError(
        absl::StrCat("SFEN board: expected 9 ranks separated by '/', got ", ranks.size()));
  }
  for (int rank = 0; rank < 9; ++rank) {
    int file = 8;
    bool promoted = false;
    for (char ch : ranks[rank]) {
      std::string where = absl::StrCat("SFEN board, rank ", rank + 1, " ('", ranks[rank], "')");
      if (ch >= '1' && ch <= '9') {
        if (promoted)
          return absl::InvalidArgumentError(absl::StrCat(where, ": '+' before a digit"));
        file -= ch - '0';
        if (file < -1)
          return absl::InvalidArgumentError(absl::StrCat(where, ": more than 9 squares"));
        continue;
      }
      if (ch == '+') {
        if (promoted) return absl::InvalidArgumentError(absl::StrCat(where, ": '++'"));
        promoted = true;
        continue;
      }
      PieceType pt = PieceTypeFromLetter(absl::ascii_toupper(ch));
      if (pt == kNoPieceType) {
        return absl::InvalidArgumentError(
            absl::StrCat(where, ": unknown piece letter '", std::string(1, ch), "'"));
      }
      if (file < 0) return absl::InvalidArgumentError(absl::StrCat(where, ": more than 9 squares"));
      if (promoted) {
        if (!CanPromote(pt)) {
          return absl::InvalidArgumentError(
              absl::StrCat(where, ": '", std::string(1, ch), "' cannot be promoted"));
        }
        pt = Promote(pt);
        promoted = false;
      }
      Color c = absl::ascii_isupper(ch) ? kBlack : kWhite;
      Square sq = MakeSquare(file, rank);
      if (pt == kKing && pos.king_[c] != kNoSquare) {
        return absl::InvalidArgumentError(
            absl::StrCat("SFEN board: two ", c == kBlack ? "Black" : "White", " kings (",
                         SquareName(pos.king_[c]), " and ", SquareName(sq), ")"));
      }
      pos.PutPiece(sq, MakePiece(c, pt));
      --file;
    }
    if (promoted)
      return absl::InvalidArgumentError(
          absl::StrCat("SFEN board, rank ", rank + 1, ": trailing '+'"));
    if (file != -1) {
      return absl::InvalidArgumentError(absl::StrCat("SFEN board, rank ", rank + 1, " ('",
                                                     ranks[rank], "'): ", 8 - file,
                                                     " squares instead of 9"));
    }
  }

  if (fields[1] == "b") {
    pos.side_ = kBlack;
  } else if (fields[1] == "w") {
    pos.side_ = kWhite;
  } else {
    return absl::InvalidArgumentError(
        absl::StrCat("SFEN side to move: expected 'b' or 'w', got '", fields[1], "'"));
  }

  if (fields[2] != "-") {
    int count = 0;
    bool have_count = false;
    for (char ch : fields[2]) {
      if (ch >= '0' && ch <= '9') {
        count = count * 10 + (ch - '0');
        have_count = true;
        if (count > 18) {
          return absl::InvalidArgumentError(
              absl::StrCat("SFEN hand '", fields[2], "': count too large"));
        }
        continue;
      }
      PieceType pt = PieceTypeFromLetter(absl::ascii_toupper(ch));
      if (pt == kNoPieceType || pt == kKing) {
        return absl::InvalidArgumentError(absl::StrCat("SFEN hand '", fields[2], "': '",
                                                       std::string(1, ch),
                                                       "' is not a piece that can be held"));
      }
      if (have_count && count == 0) {
        return absl::InvalidArgumentError(absl::StrCat("SFEN hand '", fields[2], "': zero count"));
      }
      Color c = absl::ascii_isupper(ch) ? kBlack : kWhite;
      int n = have_count ? count : 1;
      if (pos.hands_[c].Count(pt) + n > Hand::kMaxCount[pt]) {
        return absl::InvalidArgumentError(
            absl::StrCat("SFEN hand '", fields[2], "': too many '", std::string(1, ch), "'"));
      }
      pos.hands_[c].Add(pt, n);
      count = 0;
      have_count = false;
    }
    if (have_count) {
      return absl::InvalidArgumentError(
          absl::StrCat("SFEN hand '", fields[2], "': trailing count"));
    }
  }
  if (fields.size() == 4) {
    int n;
    if (!absl::SimpleAtoi(fields[3], &n) || n < 0) {
      return absl::InvalidArgumentError(
          absl::StrCat("SFEN move number: expected a number, got '", fields[3], "'"));
    }
  }

  if (absl::Status s = pos.Validate(); !s.ok()) return s;

  State s{};
  s.board_key = pos.side_ == kWhite ? zobrist::side : 0;
  for (Square sq = 0; sq < kNumSquares; ++sq) {
    if (pos.board_[sq] != kNoPiece) s.board_key ^= zobrist::psq[pos.board_[sq]][sq];
  }
  for (Color c : {kBlack, kWhite}) {
    for (PieceType pt : kHandTypes) s.hand_key += zobrist::hand[c][pt] * pos.hands_[c].Count(pt);
  }
  s.move = Move::None();
  s.captured = kNoPiece;
  pos.states_.Reset(s);
  pos.ComputeCheckInfo(pos.st());
  return pos;
}

absl::Status Position::Validate() const {
  int counts[kNumPieceTypes] = {};
  for (Square sq = 0; sq < kNumSquares; ++sq) {
    Piece p = board_[sq];
    if (p == kNoPiece) continue;
    PieceType pt = TypeOf(p);
    ++counts[Unpromote(pt)];
    if (IsDeadSquare(ColorOf(p), pt, sq)) {
      return absl::InvalidArgumentError(
          absl::StrCat("illegal position: ", std::string(1, PieceLetter(pt, ColorOf(p))), " on ",
                       SquareName(sq), " can never move"));
    }
  }
  for (Color c : {kBlack, kWhite}) {
    for (PieceType pt : kHandTypes) counts[pt] += hands_[c].Count(pt);
  }
  for (PieceType pt : kHandTypes) {
    if (counts[pt] > Hand::kMaxCount[pt]) {
      return absl::InvalidArgumentError(absl::StrCat(
          "illegal position: ", counts[pt], " pieces of kind '",
          std::string(1, PieceLetter(pt, kBlack)), "' (a set has ", Hand::kMaxCount[pt], ")"));
    }
  }
  for (Color c : {kBlack, kWhite}) {
    for (int file = 0; file < 9; ++file) {
      if ((pieces(c, kPawn) & FileBB(file)).MoreThanOne()) {
        return absl::InvalidArgumentError(absl::StrCat("illegal position: two unpromoted ",
                                                       c == kBlack ? "Black" : "White",
                                                       " pawns on file ", file + 1, " (nifu)"));
      }
    }
  }
  Color them = ~side_;
  if (has_king(them) && AttackersTo(side_, king_[them]).Any()) {
    return absl::InvalidArgumentError(absl::StrCat("illegal position: the side not to move (",
                                                   them == kBlack ? "Black" : "White",
                                                   ") is in check at ", SquareName(king_[them])));
  }
  return absl::OkStatus();
}

absl::StatusOr<Position> Position::FromUsiPosition(absl::string_view line) {
  line = absl::StripAsciiWhitespace(line);
  if (absl::Status s = RejectControlCharacters(line, "position"); !s.ok()) return s;
  absl::ConsumePrefix(&line, "position");
  line = absl::StripLeadingAsciiWhitespace(line);
  absl::string_view setup = line, moves;
  if (size_t i = line.find(" moves"); i != absl::string_view::npos) {
    setup = line.substr(0, i);
    moves = line.substr(i + 6);
  } else if (absl::EndsWith(line, "moves")) {
    setup = line.substr(0, line.size() - 5);
  }
  setup = absl::StripAsciiWhitespace(setup);
  if (setup != "startpos" && !absl::StartsWith(setup, "sfen ")) {
    return absl::InvalidArgumentError("position: expected 'startpos' or 'sfen <sfen>'");
  }
  absl::StatusOr<Position> pos = FromSfen(setup);
  if (!pos.ok()) return pos.status();
  int index = 0;
  for (absl::string_view usi : absl::StrSplit(moves, ' ', absl::SkipEmpty())) {
    ++index;
    absl::StatusOr<Move> m = pos->ParseUsiMove(usi);
    if (!m.ok()) {
      return absl::InvalidArgumentError(
          absl::StrCat("position: move ", index, " '", usi, "': ", m.status().message()));
    }
    pos->DoMove(*m);
  }
  return pos;
}

std::string Position::Sfen(int move_number) const {
  std::string out;
  for (int rank = 0; rank < 9; ++rank) {
    int empty = 0;
    for (int file = 8; file >= 0; --file) {
      Piece p = board_[MakeSquare(file, rank)];
      if (p == kNoPiece) {
        ++empty;
        continue;
      }
      if (empty) absl::StrAppend(&out, empty);
      empty = 0;
      if (IsPromoted(TypeOf(p))) out += '+';
      out += PieceLetter(TypeOf(p), ColorOf(p));
    }
    if (empty) absl::StrAppend(&out, empty);
    if (rank < 8) out += '/';
  }
  out += side_ == kBlack ? " b " : " w ";
  std::string hands = HandToSfen(hands_[kBlack], kBlack) + HandToSfen(hands_[kWhite], kWhite);
  absl::StrAppend(&out, hands.empty() ? "-" : hands, " ", move_number);
  return out;
}

std::string HandToSfen(Hand hand, Color c) {
  static constexpr PieceType kOrder[] = {kRook, kBishop, kGold, kSilver, kKnight, kLance, kPawn};
  std::string out;
  for (PieceType pt : kOrder) {
    int n = hand.Count(pt);
    if (n == 0) continue;
    if (n > 1) absl::StrAppend(&out, n);
    out += PieceLetter(pt, c);
  }
  return out;
}

Bitboard Position::AttackersTo(Color c, Square sq, Bitboard occ) const {
  Color them = ~c;
  Bitboard bishops = by_type_[kBishop] | by_type_[kHorse];
  Bitboard rooks = by_type_[kRook] | by_type_[kDragon];
  Bitboard kings = by_type_[kKing] | by_type_[kHorse] | by_type_[kDragon];
  Bitboard a =
      (PawnAttacks(them, sq) & by_type_[kPawn]) | (KnightAttacks(them, sq) & by_type_[kKnight]) |
      (SilverAttacks(them, sq) & by_type_[kSilver]) | (GoldAttacks(them, sq) & gold_movers_) |
      (KingAttacks(sq) & kings) | (LanceAttacks(them, sq, occ) & by_type_[kLance]) |
      (BishopAttacks(sq, occ) & bishops) | (RookAttacks(sq, occ) & rooks);
  return a & by_color_[c];
}

Bitboard Position::SliderBlockers(Color king_color, Square ksq) const {
  // In vector registers: the eleven boards took two general registers and an operation each
  // (寿 300k nodes: 993.39M -> 990.61M instructions). The snipers' loop too, and the enemy's
  // pieces read here rather than passed in two general registers (which went through the stack
  // to a vector one): 927.46M -> 922.19M.
  const Bitboard* reach = bb_internal::step_attacks[king_color][ksq];
  BoardVector snipers_v =
      ((AsVector(reach[kLance]) & AsVector(by_type_[kLance])) |
       (AsVector(reach[kBishop]) & (AsVector(by_type_[kBishop]) | AsVector(by_type_[kHorse]))) |
       (AsVector(reach[kRook]) & (AsVector(by_type_[kRook]) | AsVector(by_type_[kDragon])))) &
      AsVector(by_color_[~king_color]);
  BoardVector occ = AsVector(by_color_[0]) | AsVector(by_color_[1]);
  BoardVector blockers = {0, 0};
  auto add = [&](Square s) {
    BoardVector b = AsVector(Between(ksq, s)) & occ;
    if (std::popcount(b[0]) + std::popcount(b[1]) == 1) blockers |= b;
  };
  for (uint64_t lo = snipers_v[0]; lo != 0; lo &= lo - 1) add(Square(std::countr_zero(lo)));
  for (uint64_t hi = snipers_v[1]; hi != 0; hi &= hi - 1) add(Square(64 + std::countr_zero(hi)));
  return Bitboard(std::bit_cast<Bitboard::Bits>(blockers));
}

void Position::ComputeCheckInfo(State& s) const {
  // For a root or a null move (DoMove works out its checkers itself).
  Color us = side_, them = ~side_;
  s.checkers = has_king(us) ? AttackersTo(them, king_[us]) : Bitboard();
  for (Color c : {kBlack, kWhite}) {
    s.blockers[c] = has_king(c) ? SliderBlockers(c, king_[c]) : Bitboard();
  }
  ComputeCheckSquares(s);
}

// Inline in DoMove: as a call it saved and restored registers on every move.
[[gnu::always_inline]] inline void Position::ComputeCheckSquares(State& s) const {
  Square ksq = king_[~side_];
  if (ksq == kNoSquare) {
    s.bishop_checks = s.rook_checks = Bitboard();
    return;
  }
  Bitboard occ = occupied();
  s.bishop_checks = BishopAttacks(ksq, occ);
  s.rook_checks = RookAttacks(ksq, occ);
}

bool Position::IsLegal(Move m) const {
  Color us = side_;
  if (!has_king(us)) return true;
  Square ksq = king_[us];
  Square to = m.to();
  Bitboard checkers = st().checkers;
  if (m.is_drop()) {
    if (checkers.None()) return true;
    if (checkers.MoreThanOne()) return false;
    return Between(ksq, checkers.Lsb()).Test(to);
  }
  Square from = m.from();
  if (from == ksq) {
    return AttackersTo(~us, to, occupied() ^ SquareBB(from)).None();
  }
  if (checkers.Any()) {
    if (checkers.MoreThanOne()) return false;
    Square checker = checkers.Lsb();
    if (to != checker && !Between(ksq, checker).Test(to)) return false;
  }
  if (pinned(us).Test(from)) return Aligned(from, to, ksq);
  return true;
}

bool Position::GivesCheck(Move m) const {
  if (!has_king(~side_)) return false;
  return check_squares(m.after_type()).Test(m.to()) || DiscoversCheck(m);
}

bool Position::DiscoversCheck(Move m) const {
  if (m.is_drop()) return false;
  Square from = m.from();
  return blockers_for_king(~side_).Test(from) && by_color_[side_].Test(from) &&
         !Aligned(from, m.to(), king_[~side_]);
}

bool Position::IsFullyLegal(Move m) const {
  MoveList list;
  GenerateLegal(*this, list);
  for (Move legal : list) {
    if (legal == m) return true;
  }
  return false;
}

absl::StatusOr<Move> Position::ParseUsiMove(absl::string_view usi) const {
  auto parse_square = [](char f, char r) -> Square {
    if (f < '1' || f > '9' || r < 'a' || r > 'i') return kNoSquare;
    return MakeSquare(f - '1', r - 'a');
  };
  Move m;
  if (usi.size() == 4 && usi[1] == '*') {
    PieceType pt = PieceTypeFromLetter(usi[0]);
    Square to = parse_square(usi[2], usi[3]);
    if (pt == kNoPieceType || pt == kKing || to == kNoSquare) {
      return absl::InvalidArgumentError(absl::StrCat("malformed USI drop '", usi, "'"));
    }
    m = Move::Drop(pt, to);
  } else if ((usi.size() == 4 || (usi.size() == 5 && usi[4] == '+'))) {
    Square from = parse_square(usi[0], usi[1]);
    Square to = parse_square(usi[2], usi[3]);
    if (from == kNoSquare || to == kNoSquare) {
      return absl::InvalidArgumentError(absl::StrCat("malformed USI move '", usi, "'"));
    }
    Piece p = board_[from];
    if (p == kNoPiece || ColorOf(p) != side_) {
      return absl::InvalidArgumentError(absl::StrCat(
          "illegal move '", usi, "': no piece of the side to move on ", SquareName(from)));
    }
    m = Move::Normal(from, to, TypeOf(p), usi.size() == 5);
  } else {
    return absl::InvalidArgumentError(absl::StrCat("malformed USI move '", usi, "'"));
  }
  if (!IsFullyLegal(m)) {
    return absl::InvalidArgumentError(absl::StrCat("illegal move '", usi, "' in ", Sfen()));
  }
  return m;
}

Hand Position::HandAfter(Move m) const {
  Hand h = hands_[side_];
  if (m.is_drop()) {
    h.Remove(m.dropped_type());
  } else if (board_[m.to()] != kNoPiece) {
    h.Add(Unpromote(TypeOf(board_[m.to()])));
  }
  return h;
}

uint64_t Position::KeyAfter(Move m) const { return BoardKeyAfter(m) ^ HandKeyAfter(m); }

void Position::DoMove(Move m) {
  Color us = side_, them = ~side_;
  Square to = m.to();
  // GivesCheck, its discovered part kept apart (asked before the new state is pushed).
  bool discovered = has_king(them) && DiscoversCheck(m);
  bool check = discovered || check_squares(m.after_type()).Test(to);  // none without a king
  State& next = states_.Push();
  const State& prev = (&next)[-1];
  next.board_key = prev.board_key ^ zobrist::side;
  next.hand_key = prev.hand_key;
  next.move = m;
  next.captured = kNoPiece;
  if (m.is_drop()) {
    PieceType pt = m.dropped_type();
    hands_[us].Remove(pt);
    next.hand_key -= zobrist::hand[us][pt];
    Piece p = MakePiece(us, pt);
    board_[to] = p;
    TogglePiece(to, p);
    next.board_key ^= zobrist::psq[p][to];
  } else {
    Square from = m.from();
    Piece p = board_[from];
    Piece captured = board_[to];
    if (captured != kNoPiece) {
      PieceType hand_type = Unpromote(TypeOf(captured));
      TogglePiece(to, captured);
      next.board_key ^= zobrist::psq[captured][to];
      hands_[us].Add(hand_type);
      next.hand_key += zobrist::hand[us][hand_type];
      next.captured = captured;
    }
    Piece moved = m.is_promotion() ? Piece(p | kPromotedBit) : p;
    board_[from] = kNoPiece;
    board_[to] = moved;
    MovePiece(from, to, p, moved);
    if (TypeOf(p) == kKing) king_[us] = to;
    next.board_key ^= zobrist::psq[p][from] ^ zobrist::psq[moved][to];
  }
  side_ = them;
  // The mover's pieces attacked the king before the move only after a null move (a pass
  // while in check); otherwise a direct check is the moved piece alone, and only a discovered
  // one needs the attacker scan.
  if (!check) {
    next.checkers = Bitboard();
  } else if (discovered || prev.move.is_none()) {
    next.checkers = AttackersTo(us, king_[them]);
  } else {
    next.checkers = SquareBB(to);
  }
  assert(next.checkers == (check ? AttackersTo(us, king_[them]) : Bitboard()));
  // A king's blockers change only when the king moves or a square on one of its lines does.
  Bitboard changed = m.is_drop() ? SquareBB(to) : SquareBB(to) | SquareBB(m.from());
  for (Color c : {kBlack, kWhite}) {
    if (!has_king(c)) {
      next.blockers[c] = Bitboard();
      continue;
    }
    Square ksq = king_[c];
    if ((LinesThrough(ksq) & changed).Any() || changed.Test(ksq)) {
      next.blockers[c] = SliderBlockers(c, ksq);
    } else {
      next.blockers[c] = prev.blockers[c];
    }
    assert(next.blockers[c] == SliderBlockers(c, ksq));
  }
  ComputeCheckSquares(next);
}

void Position::DoNullMove() {
  State& next = states_.Push();
  next = (&next)[-1];
  next.move = Move::None();
  next.captured = kNoPiece;
  next.board_key ^= zobrist::side;
  side_ = ~side_;
  ComputeCheckInfo(next);
}

int Position::continuous_checks(Color c) const {
  // The state at a ply holds checkers exactly when the move that led there gave check; the
  // plies of c's moves are every other one, down from the current ply or the one below.
  int ply = this->ply();
  bool c_moved_last = c != side_;
  int checks = 0;
  for (int p = c_moved_last ? ply : ply - 1; p >= 0; p -= 2) {
    const State& s = states_.at(p);
    if (s.checkers.None() || (p > 0 && s.move.is_none())) break;  // a null move never checks
    ++checks;
  }
  return checks;
}

void Position::UndoMove() {
  const State& s = st();
  Move m = s.move;
  Color us = ~side_;  // the side that made the move
  side_ = us;
  states_.Pop();
  if (m.is_none()) return;
  Square to = m.to();
  if (m.is_drop()) {
    TogglePiece(to, board_[to]);
    board_[to] = kNoPiece;
    hands_[us].Add(m.dropped_type());
  } else {
    Square from = m.from();
    Piece moved = board_[to];
    Piece original = m.is_promotion() ? Piece(moved & ~kPromotedBit) : moved;
    MovePiece(to, from, moved, original);
    board_[from] = original;
    board_[to] = s.captured;
    if (TypeOf(original) == kKing) king_[us] = from;
    if (s.captured != kNoPiece) {
      TogglePiece(to, s.captured);
      hands_[us].Remove(Unpromote(TypeOf(s.captured)));
    }
  }
}

}  // namespace tsume
