#include "solver/verify.h"

#include <algorithm>
#include <map>
#include <optional>
#include <utility>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/time/clock.h"
#include "core/movegen.h"
#include "solver/dfpn.h"

namespace tsume {

const char* ToString(FlawKind kind) {
  switch (kind) {
    case FlawKind::kAlternativeMate:
      return "alternative_mate";
    case FlawKind::kShorterMate:
      return "shorter_mate";
    case FlawKind::kLongerThanStated:
      return "longer_than_stated";
    case FlawKind::kPiecesLeft:
      return "pieces_left";
    case FlawKind::kBadIntendedLine:
      return "bad_intended_line";
    case FlawKind::kTransposition:
      return "transposition";
    case FlawKind::kNonLimitation:
      return "non_limitation";
    case FlawKind::kSameLengthVariation:
      return "same_length_variation";
    case FlawKind::kLongerVariation:
      return "longer_variation";
    case FlawKind::kVariationAlternativeMate:
      return "variation_alternative_mate";
    case FlawKind::kIntendedLineLeavesPieces:
      return "intended_line_leaves_pieces";
    case FlawKind::kBadStatedVariation:
      return "bad_stated_variation";
  }
  return "";
}

std::optional<FlawKind> FlawKindFromString(std::string_view name) {
  for (int k = 0; k <= int(kLastFlawKind); ++k) {
    if (name == ToString(FlawKind(k))) return FlawKind(k);
  }
  return std::nullopt;
}

std::string JapaneseNameOf(std::string_view name) {
  std::optional<FlawKind> known = FlawKindFromString(name);
  return known ? JapaneseName(*known) : std::string(name);
}

const char* JapaneseName(FlawKind kind) {
  switch (kind) {
    case FlawKind::kAlternativeMate:
      return "余詰";
    case FlawKind::kShorterMate:
      return "早詰";
    case FlawKind::kLongerThanStated:
      return "手数不足";
    case FlawKind::kPiecesLeft:
      return "駒余り";
    case FlawKind::kBadIntendedLine:
      return "作意手順不正";
    case FlawKind::kTransposition:
      return "手順前後";
    case FlawKind::kNonLimitation:
      return "非限定";
    case FlawKind::kSameLengthVariation:
      return "変同";
    case FlawKind::kLongerVariation:
      return "変長";
    case FlawKind::kVariationAlternativeMate:
      return "変化別詰";
    case FlawKind::kIntendedLineLeavesPieces:
      return "作意駒余り";
    case FlawKind::kBadStatedVariation:
      return "変化手順不正";
  }
  return "";
}

const char* ToString(Verdict v) {
  switch (v) {
    case Verdict::kSound:
      return "sound";
    case Verdict::kFlawed:
      return "flawed";
    case Verdict::kNotMate:
      return "not a mate";
    case Verdict::kUnknown:
      return "unknown";
  }
  return "";
}

namespace {

bool UselessDropSquare(Solver& solver, Position& pos, Square s, int depth, bool& unknown);

// The first defence at `pos` (the defender in check) other than `except`, and no useless drop,
// after which there is no mate within `plies`; none when every one has a mate or the limits
// stop the queries.
std::optional<Move> DefenceWithoutMateWithin(Solver& solver, Position& pos, int plies,
                                             Move except = Move::None()) {
  Bitboard between;
  if (pos.checkers().Count() == 1) {
    between = Between(pos.king_square(pos.side_to_move()), pos.checkers().Lsb());
  }
  MoveList defences;
  GenerateEvasions(pos, defences);
  for (Move d : defences) {
    if (d == except) continue;
    bool unknown = false;
    if (IsDeferrableDrop(d, between) && UselessDropSquare(solver, pos, d.to(), plies - 1, unknown))
      continue;
    pos.DoMove(d);
    SolveStatus longer = solver.MateWithin(pos, plies, true);
    pos.UndoMove();
    if (longer == SolveStatus::kNoMate) return d;
  }
  return std::nullopt;
}

// A defence that holds out longer than the intended line allows. `pos` is the position after
// the intended line's first `played` plies, an attacker move after which the mate takes longer
// than the line's remaining plies. Along the line, the first defence whose intended reply
// still allows the mate in time while another reply (not a useless drop) does not: its 1-based
// ply and that reply. Nothing when the limits stop a query or the line gives out first.
std::optional<std::pair<int, Move>> FindLongerDefence(Solver& solver, Position pos,
                                                      const std::vector<Move>& intended,
                                                      int played) {
  int n = int(intended.size());
  for (int j = played; j < n; j += 2) {
    int after = n - j - 1;  // plies left after the defence at index j
    Move reply = intended[j];
    if (!pos.IsFullyLegal(reply)) return std::nullopt;
    pos.DoMove(reply);
    SolveStatus in_time = solver.MateWithin(pos, after, true);
    pos.UndoMove();
    if (in_time == SolveStatus::kUnknown) return std::nullopt;
    if (in_time == SolveStatus::kMate) {
      if (std::optional<Move> d = DefenceWithoutMateWithin(solver, pos, after, reply)) {
        return std::make_pair(j + 1, *d);
      }
      return std::nullopt;
    }
    // The intended reply holds out longer too: the fault lies further on.
    pos.DoMove(reply);
    if (j + 1 >= n || !pos.IsFullyLegal(intended[j + 1])) return std::nullopt;
    pos.DoMove(intended[j + 1]);
  }
  return std::nullopt;
}

// How much of the intended line CheckIntendedLine examines.
enum class LineCheck {
  kFull,
  // Defences that hold out longer than the line are left to the examination along the main
  // line (the 変長 case).
  kLongerDefencesAllowed,
  // No search: legal moves, checks, an odd number of plies and, when that needs no search, a
  // mate at the end (what can still be said once the limits have run out).
  kMovesOnly,
};

// Checks the intended line: legal, every attacker move a check that keeps the mate within the
// remaining length, every defence a longest one, and mate (under tsume rules) at the end.
// Returns a flaw, or nothing when the line is a correct solution of its own length (as far
// as `check` looks).
std::optional<Flaw> CheckIntendedLine(Solver& solver, const Position& problem,
                                      const std::vector<Move>& intended,
                                      LineCheck check = LineCheck::kFull) {
  Position pos = problem;
  int n = int(intended.size());
  auto flaw = [&](int ply, std::string detail) {
    return Flaw{FlawKind::kBadIntendedLine, ply, std::move(detail), {}};
  };
  if (n % 2 == 0) return flaw(0, "the line has an even number of plies: it ends on a defence");
  for (int i = 0; i < n; ++i) {
    Move m = intended[i];
    bool attacker = i % 2 == 0;
    if (!pos.IsFullyLegal(m)) return flaw(i + 1, absl::StrCat(ToUsi(m), " is not legal"));
    if (attacker && !pos.GivesCheck(m))
      return flaw(i + 1, absl::StrCat(ToUsi(m), " is not a check"));
    pos.DoMove(m);
    if (check == LineCheck::kMovesOnly) continue;
    int remaining = n - i - 1;
    if (attacker) {
      if (check == LineCheck::kFull &&
          solver.MateWithin(pos, remaining, false) == SolveStatus::kNoMate) {
        // Name the defence that holds out longer where it can be found: its ply, and the
        // defence as the flaw's line.
        if (auto longer = FindLongerDefence(solver, pos, intended, i + 1)) {
          auto [ply, defence] = *longer;
          return Flaw{
              FlawKind::kBadIntendedLine,
              ply,
              absl::StrCat(ToUsi(defence), " holds out longer than ", ToUsi(intended[ply - 1]),
                           ": no mate in the ", n - ply, " plies the line has left"),
              {defence}};
        }
        return flaw(i + 1, remaining == 0 ? absl::StrCat(ToUsi(m), " does not mate")
                                          : absl::StrCat("after ", ToUsi(m),
                                                         " there is no mate in ", remaining));
      }
    } else if (remaining >= 3 &&
               solver.MateWithin(pos, remaining - 2, true) == SolveStatus::kMate) {
      return flaw(i + 1, absl::StrCat(ToUsi(m), " is not the longest defence: mate in ",
                                      remaining - 2, " or less follows"));
    }
  }
  if (solver.MateWithin(pos, 0, false) == SolveStatus::kNoMate) {
    return flaw(n, "the line does not end in mate");
  }
  return std::nullopt;
}

// The attacker's hand after `line` is played from `pos`.
Hand HandAtEnd(Position pos, const std::vector<Move>& line, Color attacker) {
  for (Move m : line) pos.DoMove(m);
  return pos.hand(attacker);
}

std::vector<Move> Concat(Move first, const std::vector<Move>& rest) {
  std::vector<Move> line = {first};
  line.insert(line.end(), rest.begin(), rest.end());
  return line;
}

// The exact length of a mate from `pos` known to exist within `bound` plies: shortened two
// plies at a time until the shorter mate is disproven. Nothing when the limits stop it.
std::optional<int> ExactMateLength(Solver& solver, const Position& pos, int bound,
                                   bool attacker_to_move) {
  int least = attacker_to_move ? 1 : 0;
  int length = bound;
  while (length - 2 >= least) {
    SolveStatus shorter = solver.MateWithin(pos, length - 2, attacker_to_move);
    if (shorter == SolveStatus::kNoMate) break;
    if (shorter == SolveStatus::kUnknown) return std::nullopt;
    length -= 2;
  }
  return length;
}

// The positions of the main line (board, hands, side to move), each with the last ply after
// which it occurs.
class MainLinePositions {
 public:
  MainLinePositions(const Position& start, const std::vector<Move>& line) {
    Position pos = start;
    last_ply_[pos.Sfen()] = 0;
    for (int i = 0; i < int(line.size()); ++i) {
      pos.DoMove(line[i]);
      last_ply_[pos.Sfen()] = i + 1;
    }
  }

  // The first position of `alternative` (played from `from`) that occurs on the main line
  // once ply `ply` has been played: the main-line ply it follows, or 0 when there is none.
  int Rejoin(const Position& from, const std::vector<Move>& alternative, int ply) const {
    Position pos = from;
    for (Move m : alternative) {
      pos.DoMove(m);
      auto it = last_ply_.find(pos.Sfen());
      if (it != last_ply_.end() && it->second >= ply) return it->second;
    }
    return 0;
  }

 private:
  std::map<std::string, int> last_ply_;
};

// VerifyOptions::refutation_time's searches: along the intended line from its last attacker
// move up, each position after one asked for a mate within the plies left plus two. A flaw
// when one has none, naming the defence that holds out where a search finds it; nothing when
// every one has a mate, or the limits stop a search first.
std::optional<Flaw> RefuteIntendedLine(Solver& solver, const Position& problem,
                                       const std::vector<Move>& intended) {
  int n = int(intended.size());
  Position pos = problem;
  for (Move m : intended) {
    if (!pos.IsFullyLegal(m)) return std::nullopt;  // for CheckIntendedLine to say
    pos.DoMove(m);
  }
  // Deepest first: there the searches are cheapest, and a wrong defence is met soonest.
  for (int i = n - 1; i >= 0; pos.UndoMove(), --i) {
    if (i % 2 != 0) continue;
    int within = n - i - 1 + 2;
    SolveStatus status = solver.MateWithin(pos, within, false);
    if (status == SolveStatus::kUnknown) return std::nullopt;
    if (status == SolveStatus::kMate) continue;
    std::string why = absl::StrCat(" no mate within ", within, " plies (the line has ", within - 2,
                                   " left): the line is no solution, not even with a longer "
                                   "variation (変長)");
    Flaw flaw{FlawKind::kBadIntendedLine,
              i + 1,
              absl::StrCat("after ", ToUsi(intended[i]), " there is", why),
              {}};
    // The defence: the search above mostly left its disproof in the table.
    if (std::optional<Move> d = DefenceWithoutMateWithin(solver, pos, within - 1)) {
      flaw.ply = i + 2;
      flaw.detail = absl::StrCat("after ", ToUsi(intended[i]), ", ", ToUsi(*d), " holds out:", why);
      flaw.line = {*d};
    }
    return flaw;
  }
  return std::nullopt;
}

// Tsume rules: a drop on `s` (between the checker and the king) is useless when some attacker
// move to `s`, played as if the defender had passed, mates within `depth` plies. Sets `unknown`
// when the limits stopped a query.
bool UselessDropSquare(Solver& solver, Position& pos, Square s, int depth, bool& unknown) {
  if (depth < 0) return false;
  MoveList captures;
  HypotheticalCaptures(pos, s, captures);
  for (Move capture : captures) {
    EnterHypothetical(pos, capture);
    SolveStatus status = solver.MateWithin(pos, depth, false);
    LeaveHypothetical(pos);
    if (status == SolveStatus::kMate) return true;
    if (status == SolveStatus::kUnknown) unknown = true;
  }
  return false;
}

// 非限定: how `m` differs from the main line's move `main` (both checks from `pos`) when the
// difference is one tsume conventions count as a blemish rather than another solution: the
// same piece move with the other promotion choice, or the same lance, rook or bishop dropped
// on another square of the same line from the defender's king. Null otherwise.
const char* NonLimitation(const Position& pos, Move m, Move main) {
  if (!m.is_drop() && !main.is_drop() && m.from() == main.from() && m.to() == main.to()) {
    return "with the other promotion choice";
  }
  if (m.is_drop() && main.is_drop() && m.dropped_type() == main.dropped_type()) {
    PieceType type = m.dropped_type();
    Square king = pos.king_square(~pos.side_to_move());
    if ((type == kLance || type == kRook || type == kBishop) && king != kNoSquare &&
        (Between(king, m.to()).Test(main.to()) || Between(king, main.to()).Test(m.to()))) {
      return "dropped on another square of the same line from the king";
    }
  }
  return nullptr;
}

// 余詰, 手順前後 or 非限定 at the attacker's ply `ply` (1-based) of the main line, from `pos`
// where `remaining` counted plies are left: every other check that mates in time. Returns how
// many of them the limits left unclassified (listed as 余詰 all the same).
int CheckAlternativeMates(Solver& solver, Position& pos, int ply, int remaining,
                          const std::vector<Move>& main_line,
                          const MainLinePositions& main_positions, VerifyReport& report) {
  int unclassified = 0;
  MoveList checks;
  GenerateChecks(pos, checks);
  // The main line's piece dropped on other squares of its line makes one 非限定 note for each
  // length it mates in: the first such drop's, naming the others (zukou-012's R*2a at ply 25
  // has seven, R*3a to R*9a).
  std::map<std::string, size_t> drop_notes;  // by "in N plies": the note's index
  for (Move m : checks) {
    if (m == main_line[ply - 1]) continue;
    pos.DoMove(m);
    SolveStatus status = solver.MateWithin(pos, remaining - 1, false);
    if (status == SolveStatus::kUnknown) report.alternatives_complete = false;
    if (status != SolveStatus::kMate) {
      pos.UndoMove();
      continue;
    }
    // Its own line, attacker shortest and defender longest, needs the exact length: a longer
    // bound may give a line cut short.
    std::optional<int> exact = ExactMateLength(solver, pos, remaining - 1, false);
    // Read with the main line's moves where they are as good: if the alternative only changes
    // their order, the line then rejoins the main line whichever equally long defences the
    // table would have offered first (zukou-041's N*5g rejoins only after 4b4c, which holds
    // out as long as 5b4c).
    std::vector<Move> alternative =
        Concat(m, solver.MateLine(pos, exact.value_or(remaining - 1), false,
                                  std::vector<Move>(main_line.begin() + ply, main_line.end())));
    bool line_complete = exact && !solver.limit_reached();
    pos.UndoMove();
    int rejoin = line_complete ? main_positions.Rejoin(pos, alternative, ply) : 0;
    if (rejoin > 0) {
      report.notes.push_back(
          {FlawKind::kTransposition, ply,
           absl::StrCat(ToUsi(m), " also mates in ", *exact + 1, " plies but rejoins the main line",
                        " after ply ", rejoin),
           alternative});
    } else if (const char* difference = NonLimitation(pos, m, main_line[ply - 1])) {
      // A note whether or not the limits let its exact line be read: it mates in time.
      std::string mates = line_complete ? absl::StrCat("in ", *exact + 1, " plies")
                                        : absl::StrCat("within ", remaining, " plies");
      auto group = m.is_drop() ? drop_notes.find(mates) : drop_notes.end();
      if (group != drop_notes.end()) {
        Flaw& note = report.notes[group->second];
        note.others.push_back(m);
        std::vector<std::string> moves = {ToUsi(note.line[0])};
        for (Move other : note.others) moves.push_back(ToUsi(other));
        note.detail =
            absl::StrCat(absl::StrJoin(moves, ", "), " also mate ", mates,
                         "; each is the main line's ", ToUsi(main_line[ply - 1]), " ", difference);
      } else {
        if (m.is_drop()) drop_notes[mates] = report.notes.size();
        report.notes.push_back(
            {FlawKind::kNonLimitation, ply,
             absl::StrCat(ToUsi(m), " also mates ", mates, "; it is the main line's ",
                          ToUsi(main_line[ply - 1]), " ", difference),
             alternative});
      }
    } else if (line_complete) {
      report.flaws.push_back(
          {FlawKind::kAlternativeMate, ply,
           absl::StrCat(ToUsi(m), " also mates in ", *exact + 1, " plies (", remaining, " left)"),
           alternative});
    } else {
      // Limits stopped the classification: it does mate in time, but may only change the order.
      ++unclassified;
      report.alternatives_complete = false;
      report.flaws.push_back({FlawKind::kAlternativeMate, ply,
                              absl::StrCat(ToUsi(m), " also mates within ", remaining,
                                           " plies (limits stopped the search for its exact line)"),
                              alternative});
    }
  }
  return unclassified;
}

// A defence off the main line that is mated sooner (a variation, 変化), for the 変化別詰 pass.
struct ShorterDefence {
  int ply;       // the defender's 1-based ply of the main line
  Move defence;  // played instead of main_line[ply - 1]
  int bound;     // the attacker mates within this many plies after it
};

// 変同 at the defender's ply `ply` (1-based) of the main line, from `pos` where the main
// defence leaves `remaining_after` counted plies: every other defence that holds out exactly as
// long, useless drops left out. The defences mated sooner go to `shorter_defences`.
void CheckSameLengthDefences(Solver& solver, Position& pos, int ply, int remaining_after,
                             const std::vector<Move>& main_line, bool longer_allowed,
                             VerifyReport& report, std::vector<ShorterDefence>& shorter_defences) {
  Bitboard between;
  if (pos.checkers().Count() == 1) {
    between = Between(pos.king_square(pos.side_to_move()), pos.checkers().Lsb());
  }
  MoveList defences;
  GenerateEvasions(pos, defences);
  Bitboard useless_squares, tested_squares;
  // Drops of different pieces on one square make one note: the first, naming the others.
  std::map<Square, std::pair<size_t, std::string>> drop_notes;  // note index, other pieces
  int longer_note = -1;                                         // this ply's 変長 note
  std::string longer_others;                                    // the other defences it names
  for (Move d : defences) {
    if (d == main_line[ply - 1]) continue;
    if (IsDeferrableDrop(d, between)) {
      // As in the solver's lines: a drop whose hypothetical capture mates within one ply less
      // than the line through it does not count, so it is no variation.
      if (!tested_squares.Test(d.to())) {
        tested_squares.Set(d.to());
        bool unknown = false;
        if (UselessDropSquare(solver, pos, d.to(), remaining_after - 1, unknown)) {
          useless_squares.Set(d.to());
        }
        if (unknown) report.variations_complete = false;
      }
      if (useless_squares.Test(d.to())) continue;
    }
    pos.DoMove(d);
    SolveStatus shorter = remaining_after >= 3 ? solver.MateWithin(pos, remaining_after - 2, true)
                                               : SolveStatus::kNoMate;
    SolveStatus within = shorter == SolveStatus::kNoMate
                             ? solver.MateWithin(pos, remaining_after, true)
                             : SolveStatus::kUnknown;
    if (shorter == SolveStatus::kMate) {
      shorter_defences.push_back({ply, d, remaining_after - 2});
    } else if (shorter == SolveStatus::kUnknown ||
               (shorter == SolveStatus::kNoMate && within == SolveStatus::kUnknown)) {
      report.variations_complete = false;
    } else if (longer_allowed && shorter == SolveStatus::kNoMate &&
               within == SolveStatus::kNoMate) {
      // Longer than the main line (the composer's, two plies short of the longest defence):
      // 変長 when two plies longer with pieces left over, otherwise the line is too short.
      std::vector<Move> longer;
      if (solver.MateWithin(pos, remaining_after + 2, true) == SolveStatus::kMate) {
        longer = Concat(d, solver.MateLine(pos, remaining_after + 2, true));
      }
      pos.UndoMove();
      // A drop whose capture mates sooner than the line through it is useless: no variation.
      bool unknown = false;
      if (IsDeferrableDrop(d, between) &&
          UselessDropSquare(solver, pos, d.to(), remaining_after + 1, unknown)) {
        continue;
      }
      if (unknown) report.variations_complete = false;
      Color attacker = ~pos.side_to_move();
      if (longer.size() > 1 && !HandAtEnd(pos, longer, attacker).Empty()) {
        // One note per ply, naming the other defences that do the same.
        if (longer_note < 0) {
          longer_note = int(report.notes.size());
          report.notes.push_back({FlawKind::kLongerVariation, ply, ToUsi(d), longer});
        } else {
          absl::StrAppend(&longer_others, longer_others.empty() ? "" : ", ", ToUsi(d));
        }
      } else {
        report.flaws.push_back(
            {FlawKind::kLongerThanStated, ply,
             absl::StrCat(ToUsi(d), " holds out longer than ", ToUsi(main_line[ply - 1]),
                          longer.size() > 1 ? ", and its line leaves nothing in hand" : ""),
             longer.size() > 1 ? longer : std::vector<Move>{d}});
      }
      continue;
    } else if (within == SolveStatus::kMate) {
      auto same_square = d.is_drop() ? drop_notes.find(d.to()) : drop_notes.end();
      if (same_square != drop_notes.end()) {
        absl::StrAppend(&same_square->second.second, same_square->second.second.empty() ? "" : ", ",
                        ToUsi(d).substr(0, 1));
      } else {
        std::vector<Move> line = Concat(d, solver.MateLine(pos, remaining_after, true));
        if (solver.limit_reached()) report.variations_complete = false;
        if (d.is_drop()) drop_notes[d.to()] = {report.notes.size(), ""};
        report.notes.push_back({FlawKind::kSameLengthVariation, ply, ToUsi(d), line});
      }
    }
    pos.UndoMove();
  }
  if (longer_note >= 0) {
    absl::StrAppend(&report.notes[longer_note].detail, " holds out two plies longer than ",
                    ToUsi(main_line[ply - 1]), " and leaves pieces in the attacker's hand",
                    longer_others.empty() ? "" : absl::StrCat(" (as do ", longer_others, ")"));
  }
  for (const auto& [square, note] : drop_notes) {
    if (!note.second.empty()) {
      absl::StrAppend(&report.notes[note.first].detail, " (", note.second, " dropped there too)");
    }
  }
  // The notes of this ply were given their move only: finish the sentence.
  for (Flaw& f : report.notes) {
    if (f.kind != FlawKind::kSameLengthVariation || f.ply != ply) continue;
    absl::StrAppend(&f.detail, " holds out as long as ", ToUsi(main_line[ply - 1]), ": mate in ",
                    remaining_after, remaining_after == 1 ? " more ply" : " more plies");
  }
}

// A variation with other mates than the solver's (変化別詰).
struct VariationMates {
  int length = 0;            // the variation's exact length
  Move first;                // the solver's first attacker move in it
  std::vector<Move> others;  // the other checks that mate as fast
  std::vector<Move> line;    // the defence, then the first other mate's line
};

// 変化別詰 after the variation `v`, from `pos` (the position before v.ply): the variation's
// exact length m, and every check other than the solver's first move that mates within m plies
// (the last move excepted: m = 1), unless its line only changes the order of the variation's
// moves. Sets `complete` false when the limits stopped it.
std::optional<VariationMates> CheckVariationMates(Solver& solver, Position& pos,
                                                  const ShorterDefence& v, bool& complete) {
  std::optional<VariationMates> found;
  pos.DoMove(v.defence);
  std::optional<int> exact = ExactMateLength(solver, pos, v.bound, true);
  std::vector<Move> variation;
  if (exact && *exact > 1) variation = solver.MateLine(pos, *exact, true);
  if (!exact || solver.limit_reached()) {
    complete = false;
  } else if (!variation.empty()) {
    int m = *exact;
    MainLinePositions variation_positions(pos, variation);
    MoveList checks;
    GenerateChecks(pos, checks);
    for (Move c : checks) {
      if (c == variation[0]) continue;
      pos.DoMove(c);
      SolveStatus status = solver.MateWithin(pos, m - 1, false);
      std::vector<Move> line;
      if (status == SolveStatus::kMate) line = Concat(c, solver.MateLine(pos, m - 1, false));
      pos.UndoMove();
      if (status == SolveStatus::kUnknown || solver.limit_reached()) {
        complete = false;
        break;
      }
      if (status != SolveStatus::kMate) continue;
      // Only the order of the variation's moves changes: not another mate.
      if (variation_positions.Rejoin(pos, line, 1) > 0) continue;
      if (!found) found = VariationMates{m, variation[0], {}, Concat(v.defence, line)};
      found->others.push_back(c);
    }
  }
  pos.UndoMove();
  return found;
}

// The 変化別詰 notes: one per ply and set of mates, naming every defence that leads to it.
void AddVariationMateNotes(Solver& solver, const Position& problem, const std::vector<Move>& line,
                           const std::vector<ShorterDefence>& shorter_defences,
                           VerifyReport& report) {
  if (shorter_defences.empty()) return;
  if (solver.limit_reached()) {
    report.side_mates_complete = false;
    return;
  }
  // By ply and the sentence after the defences: the note's index and the defences' names.
  std::map<std::pair<int, std::string>, std::pair<size_t, std::string>> by_mates;
  Position before = problem;
  int played = 0;
  for (const ShorterDefence& v : shorter_defences) {
    for (; played < v.ply - 1; ++played) before.DoMove(line[played]);
    bool complete = true;
    std::optional<VariationMates> mates = CheckVariationMates(solver, before, v, complete);
    if (mates) {
      std::string names;
      bool promotion_only = true;
      for (Move c : mates->others) {
        absl::StrAppend(&names, names.empty() ? "" : ", ", ToUsi(c));
        promotion_only = promotion_only && !c.is_drop() && !mates->first.is_drop() &&
                         c.from() == mates->first.from() && c.to() == mates->first.to();
      }
      std::string sentence = absl::StrCat(
          " (mate in ", mates->length, "), ", names, mates->others.size() == 1 ? " mates" : " mate",
          " as well as ", ToUsi(mates->first), promotion_only ? " (promoting or not)" : "");
      auto [it, inserted] =
          by_mates.try_emplace({v.ply, sentence}, report.notes.size(), ToUsi(v.defence));
      if (inserted) {
        report.notes.push_back({FlawKind::kVariationAlternativeMate, v.ply, "", mates->line});
      } else {
        absl::StrAppend(&it->second.second, ", ", ToUsi(v.defence));
      }
    }
    if (!complete) {
      report.side_mates_complete = false;
      break;
    }
  }
  // "after D, D2, D3 (mate in m), X mates as well as Y".
  for (const auto& [key, note] : by_mates) {
    report.notes[note.first].detail = absl::StrCat("after ", note.second, key.second);
  }
}

// A stated variation that branches off at a defence, checked as a solution of the position
// after that defence (CheckIntendedLine) and for a shorter mate than it shows. Returns what is
// wrong with it (empty: nothing).
std::string CheckStatedDefenceVariation(Solver& solver, const Position& problem,
                                        const StatedVariation& v) {
  Position pos = problem;
  for (int i = 0; i < v.ply; ++i) pos.DoMove(v.line[i]);
  std::vector<Move> rest(v.line.begin() + v.ply, v.line.end());
  std::optional<Flaw> bad = CheckIntendedLine(solver, pos, rest);
  if (bad) {
    // The line's plies are counted from the problem.
    return bad->ply > 0 ? absl::StrCat("at ply ", v.ply + bad->ply, ", ", bad->detail)
                        : bad->detail;
  }
  if (rest.size() >= 3 &&
      solver.MateWithin(pos, int(rest.size()) - 2, true) == SolveStatus::kMate) {
    return absl::StrCat("a mate in ", rest.size() - 2, " or less follows ",
                        ToUsi(v.line[v.ply - 1]), ", where the variation shows ", rest.size());
  }
  return "";
}

// A stated variation that branches off at an attacker's move (紛れ): another check, shown
// failing. Every attacker move of it must be a check, and after each of its defences the
// attacker must have no mate within the plies the solution leaves there (the shortest mate
// from the position where it branches off; on the main line, what the main line leaves). A
// variation that ends in mate shows a mate, not a failure: only its checks are examined (the
// 余詰 search judges the mate). Returns what is wrong with it (empty: nothing).
std::string CheckStatedAttackerVariation(Solver& solver, const Position& problem,
                                         const StatedVariation& v, const VerifyReport& report) {
  const std::vector<Move>& main_line = report.main_line;
  Position pos = problem;
  for (int i = 0; i + 1 < v.ply; ++i) pos.DoMove(v.line[i]);
  bool on_main_line = int(main_line.size()) >= v.ply &&
                      std::equal(v.line.begin(), v.line.begin() + (v.ply - 1), main_line.begin());
  if (on_main_line && main_line[v.ply - 1] == v.line[v.ply - 1]) return "";  // not another move
  // The plies the solution leaves where the variation branches off.
  int leaves = report.length - (v.ply - 1);
  if (on_main_line) {
    if (main_line == report.solution.moves) {
      for (int i : report.solution.uncounted) leaves += i < v.ply - 1 ? 1 : 0;
    }
  } else if (solver.MateWithin(pos, leaves, true) == SolveStatus::kMate) {
    leaves = ExactMateLength(solver, pos, leaves, true).value_or(leaves);
  }
  const Position branch = pos;
  for (int i = v.ply - 1; i < int(v.line.size()); ++i) {
    Move m = v.line[i];
    if (i % 2 == 0 && !pos.GivesCheck(m)) {
      return absl::StrCat("at ply ", i + 1, ", ", ToUsi(m), " is not a check");
    }
    pos.DoMove(m);
  }
  if (pos.side_to_move() != problem.side_to_move() &&
      solver.MateWithin(pos, 0, false) == SolveStatus::kMate) {
    return "";
  }
  pos = branch;
  for (int i = v.ply - 1; i < int(v.line.size()); ++i) {
    pos.DoMove(v.line[i]);
    int left = leaves - (i + 2 - v.ply);
    if (i % 2 == 0 || left < 1) continue;
    if (solver.MateWithin(pos, left, true) == SolveStatus::kMate) {
      return absl::StrCat("at ply ", i + 1, ", ", ToUsi(v.line[i]),
                          " does not refute it: the attacker still mates within ", left,
                          left == 1 ? " ply" : " plies", ", as the solution does");
    }
  }
  return "";
}

// The stated variations: those that branch off at a defence checked as solutions of the
// position after it, those at an attacker's move (紛れ) as failing; a note for each that is
// wrong. Stops when the limits run out, with report.stated_variations_complete false.
void CheckStatedVariations(Solver& solver, const Position& problem,
                           const std::vector<StatedVariation>& variations, VerifyReport& report) {
  for (const StatedVariation& v : variations) {
    if (v.ply < 1 || int(v.line.size()) < v.ply) {  // no move of its own: nothing to check
      ++report.stated_variations_checked;
      continue;
    }
    std::string wrong = v.ply % 2 == 0 ? CheckStatedDefenceVariation(solver, problem, v)
                                       : CheckStatedAttackerVariation(solver, problem, v, report);
    if (solver.limit_reached()) {
      report.stated_variations_complete = false;
      return;
    }
    ++report.stated_variations_checked;
    if (!wrong.empty()) {
      report.notes.push_back({FlawKind::kBadStatedVariation, v.ply,
                              absl::StrCat("the variation ", ToUsi(v.line[v.ply - 1]), ": ", wrong),
                              v.line});
    }
  }
}

}  // namespace

TimeCut WhatTheTimeCut(const VerifyReport& report) {
  if (report.limit != LimitReason::kTime) return TimeCut::kNone;
  return report.verdict == Verdict::kUnknown ? TimeCut::kVerdict : TimeCut::kInformation;
}

// The kIntendedLineLeavesPieces note: where the intended line parts from the main line (both
// correct and as long, and they end with different hands, so neither is a prefix of the
// other), and the intended line from there.
Flaw IntendedLineNote(const std::vector<Move>& intended, const std::vector<Move>& main_line,
                      Hand intended_left) {
  auto [parted, main_parted] =
      std::mismatch(intended.begin(), intended.end(), main_line.begin(), main_line.end());
  int k = int(parted - intended.begin());
  return {
      FlawKind::kIntendedLineLeavesPieces, k + 1,
      absl::StrCat("the intended line (", ToUsi(*parted), " here) leaves ", intended_left.Total(),
                   " piece(s) in the attacker's hand; the main line's ", ToUsi(*main_parted),
                   k % 2 == 1 ? " holds out" : " mates", " as long and uses every piece"),
      std::vector<Move>(parted, intended.end())};
}

VerifyReport VerifyProblem(Solver& solver, const Position& problem,
                           std::optional<int> stated_length, const std::vector<Move>& intended,
                           const VerifyStageCallback& on_stage, const VerifyOptions& verify_options,
                           const std::vector<StatedVariation>& stated_variations) {
  absl::Time start = absl::Now();
  auto stage = [&](const char* name) {
    if (on_stage) on_stage(name);
  };
  if (solver.options().rules != Rules::kTsume) {
    SolveOptions options = solver.options();
    options.rules = Rules::kTsume;
    solver.set_options(options);
  }
  VerifyReport report;
  // The intended line alone first (VerifyOptions::refutation_time): its searches have their
  // own table, which the solve then clears, and their own share of the time.
  std::optional<Flaw> refuted;
  int64_t refutation_nodes = 0;
  absl::Duration time_limit = solver.options().time_limit;
  if (verify_options.refutation_time > absl::ZeroDuration() && !intended.empty() &&
      time_limit != absl::InfiniteDuration()) {
    stage("line alone");
    SolveOptions options = solver.options();
    options.time_limit = std::min(verify_options.refutation_time, time_limit);
    solver.set_options(options);
    solver.StartQueries();
    refuted = RefuteIntendedLine(solver, problem, intended);
    refutation_nodes = solver.nodes();
    // The rest of the time for the solve; once the searches have found the flaw, no more than
    // they took (the verdict is known: the solve only adds the length, or a bound of it).
    absl::Duration spent = absl::Now() - start;
    absl::Duration left = std::max(time_limit - spent, absl::ZeroDuration());
    options.time_limit = refuted ? std::min(left, spent) : left;
    solver.set_options(options);
  }
  auto finish = [&](Verdict verdict) {
    // The line's flaw, unless the checks after the solve found the line wrong themselves
    // (with no mate at all, it is listed already).
    if (refuted && verdict != Verdict::kNotMate &&
        std::none_of(report.flaws.begin(), report.flaws.end(),
                     [](const Flaw& f) { return f.kind == FlawKind::kBadIntendedLine; })) {
      report.flaws.push_back(*refuted);
      verdict = Verdict::kFlawed;
    }
    report.verdict = verdict;
    // (A limit that stopped the line's searches alone cost nothing the solve did not find.)
    report.limit = solver.first_limit_reason();
    report.nodes = refutation_nodes + solver.nodes();
    report.elapsed = absl::Now() - start;
    if (time_limit != solver.options().time_limit) {
      SolveOptions options = solver.options();
      options.time_limit = time_limit;
      solver.set_options(options);
    }
    return report;
  };
  stage("solve");
  report.solution = solver.Solve(problem);
  const SolveResult& solution = report.solution;
  if (solution.status == SolveStatus::kMate) report.length = solution.length;
  if (solution.status == SolveStatus::kNoMate) {
    // Where the intended line goes wrong: for a composer the useful part of the verdict.
    if (!intended.empty()) {
      stage("intended line");
      if (!refuted) refuted = CheckIntendedLine(solver, problem, intended);
      if (refuted) report.flaws.push_back(*refuted);
    }
    return finish(Verdict::kNotMate);
  }
  if (solution.status != SolveStatus::kMate || !solution.length_exact ||
      int(solution.moves.size()) - int(solution.uncounted.size()) != solution.length) {
    // The searches along the main line never ran; the proof's line is what there is.
    report.alternatives_complete = report.variations_complete = report.side_mates_complete = false;
    report.stated_variations_complete = stated_variations.empty();
    report.main_line = solution.moves;
    // What the intended line's moves alone show.
    if (!intended.empty()) {
      if (std::optional<Flaw> bad =
              CheckIntendedLine(solver, problem, intended, LineCheck::kMovesOnly)) {
        report.flaws.push_back(*bad);
      }
    }
    // The limits stopped the solve, but a mate proven within fewer plies than stated is 早詰
    // whatever the exact length turns out to be.
    if (solution.status == SolveStatus::kMate && stated_length &&
        solution.length < *stated_length) {
      report.flaws.push_back({FlawKind::kShorterMate, 0,
                              absl::StrCat(solution.length_exact ? "mate in " : "mate in at most ",
                                           solution.length, ", stated ", *stated_length),
                              solution.moves});
    }
    // Likewise a proven "no mate within" beyond the stated length: the defence holds out
    // longer. Only from four plies on: two plies longer may be 変長, which needs the exact
    // length to judge.
    if (stated_length && solution.no_mate_within >= int64_t(*stated_length) + 2) {
      report.flaws.push_back(
          {FlawKind::kLongerThanStated,
           0,
           absl::StrCat("no mate within ", solution.no_mate_within, ", stated ", *stated_length),
           {}});
    }
    return finish(report.flaws.empty() ? Verdict::kUnknown : Verdict::kFlawed);
  }
  int length = solution.length;
  Color attacker = problem.side_to_move();
  // 変長: the intended line is a correct line two plies short of the longest defence, ending
  // with nothing in hand where the solver's longest line (which avoids 駒余り where it can)
  // leaves pieces over. The intended line is then the solution, and each longer defence along
  // it a 変長 note when it too is two plies longer with pieces left over (a flaw otherwise).
  if (!intended.empty()) stage("intended line");
  bool longer_variation =
      stated_length && *stated_length == length - 2 && int(intended.size()) == *stated_length &&
      !CheckIntendedLine(solver, problem, intended, LineCheck::kLongerDefencesAllowed) &&
      HandAtEnd(problem, intended, attacker).Empty() &&
      !HandAtEnd(problem, solution.moves, attacker).Empty();
  if (longer_variation) {
    length = *stated_length;
  } else if (stated_length && *stated_length > length) {
    report.flaws.push_back({FlawKind::kShorterMate, 0,
                            absl::StrCat("mate in ", length, ", stated ", *stated_length),
                            solution.moves});
  } else if (stated_length && *stated_length < length) {
    report.flaws.push_back(
        {FlawKind::kLongerThanStated, 0,
         absl::StrCat("the defence holds out for ", length, " plies, stated ", *stated_length),
         solution.moves});
  }

  report.length = length;
  // The main line: the intended one when it is a correct solution of the exact length.
  report.main_line = solution.moves;
  report.main_line_searched = true;
  std::vector<int> uncounted = solution.uncounted;
  if (longer_variation) {
    report.main_line = intended;
    uncounted.clear();
  } else if (!intended.empty()) {
    std::optional<Flaw> bad = CheckIntendedLine(solver, problem, intended);
    if (bad) {
      report.flaws.push_back(*bad);
    } else if (int(intended.size()) == length) {
      // Among lines as long, the defender takes one that leaves the attacker nothing in hand:
      // when the intended line leaves pieces and the solver's does not, the solver's is the
      // main line (the problem has no 駒余り), and the intended line a note.
      Hand intended_left = HandAtEnd(problem, intended, attacker);
      if (!intended_left.Empty() && HandAtEnd(problem, solution.moves, attacker).Empty()) {
        report.notes.push_back(IntendedLineNote(intended, solution.moves, intended_left));
      } else {
        report.main_line = intended;
        uncounted.clear();
      }
    }
  }
  const std::vector<Move>& line = report.main_line;
  MainLinePositions main_positions(problem, line);

  // Walks the main line: visit(pos, i, remaining) at each counted ply i (0-based), `pos` the
  // position before it, `remaining` the counted plies from there.
  auto walk_main_line = [&](auto visit) {
    Position pos = problem;
    int remaining = length;
    for (int i = 0; i < int(line.size()); ++i) {
      bool counted = std::find(uncounted.begin(), uncounted.end(), i) == uncounted.end();
      if (counted) visit(pos, i, remaining);
      pos.DoMove(line[i]);
      if (counted) --remaining;
    }
    return pos;
  };
  // Along the main line, first what decides the verdict: at each attacker move but the last,
  // other checks that mate in time (余詰, or 手順前後 when they only change the order). Then,
  // at each defence, other defences as long (変同, information only, unless the main line is
  // the composer's two plies short of the longest defence: 変長). So the limits, when they
  // run out, cut the information short before the verdict (zukou-053's 変同 at ply 2 alone
  // took 14M nodes).
  int unclassified = 0;  // 余詰 that may be 手順前後: alone they leave the verdict unknown
  size_t flaws_before = report.flaws.size(), notes_before = report.notes.size();
  stage("余詰");
  Position end = walk_main_line([&](Position& pos, int i, int remaining) {
    if (pos.side_to_move() == attacker && remaining > 1) {
      unclassified +=
          CheckAlternativeMates(solver, pos, i + 1, remaining, line, main_positions, report);
    }
  });
  std::vector<ShorterDefence> shorter_defences;
  stage("変同");
  walk_main_line([&](Position& pos, int i, int remaining) {
    if (pos.side_to_move() != attacker) {
      CheckSameLengthDefences(solver, pos, i + 1, remaining - 1, line, longer_variation, report,
                              shorter_defences);
    }
  });
  // The walks' findings in the order of the line, as one walk would have found them (each
  // ply has findings of one walk only).
  auto by_ply = [](const Flaw& a, const Flaw& b) { return a.ply < b.ply; };
  std::stable_sort(report.flaws.begin() + flaws_before, report.flaws.end(), by_ply);
  std::stable_sort(report.notes.begin() + notes_before, report.notes.end(), by_ply);
  // 駒余り: pieces left in the attacker's hand at the end, named as an SFEN hand names them.
  Hand left = end.hand(attacker);
  if (!left.Empty()) {
    report.flaws.push_back({FlawKind::kPiecesLeft,
                            int(line.size()),
                            absl::StrCat(left.Total(), left.Total() == 1 ? " piece" : " pieces",
                                         " left in the attacker's hand: ",
                                         HandToSfen(left, kBlack),  // in capitals either way
                                         report.solution.ties_cut && line == report.solution.moves
                                             ? " (not every line as long was tried for one "
                                               "leaving none: the budget ran out)"
                                             : ""),
                            {}});
  }

  // With the composer's line two plies short, a longer defence the limits left unexamined
  // may be a flaw.
  bool complete = report.alternatives_complete && (!longer_variation || report.variations_complete);
  Verdict verdict = int(report.flaws.size()) > unclassified ? Verdict::kFlawed
                    : complete                              ? Verdict::kSound
                                                            : Verdict::kUnknown;
  // Last, on what the limits leave: 変化別詰 in the variations (information only).
  stage("変化別詰");
  AddVariationMateNotes(solver, problem, line, shorter_defences, report);
  if (!stated_variations.empty()) {
    stage("stated variations");
    CheckStatedVariations(solver, problem, stated_variations, report);
  }
  return finish(verdict);
}

}  // namespace tsume
