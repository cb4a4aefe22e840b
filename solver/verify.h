// Verification of a composed problem under tsume conventions: is it a mate, of the stated
// length, with a unique solution (no 余詰 before the last move), no shorter mate (早詰), no
// attacker pieces left over (駒余り), and is the intended line a correct solution? Findings that
// do not make a problem unsound (手順前後, 変同) are reported apart, as notes.
#ifndef TSUME_SOLVER_VERIFY_H_
#define TSUME_SOLVER_VERIFY_H_

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "absl/time/time.h"
#include "core/position.h"
#include "solver/solver.h"

namespace tsume {

enum class FlawKind {
  kAlternativeMate,   // 余詰: another attacker move also mates within the remaining length
  kShorterMate,       // 早詰: the exact length (or a proven bound of it) is shorter than stated
  kLongerThanStated,  // the defender can hold out longer than the stated length
  kPiecesLeft,        // 駒余り: the attacker holds pieces at the end of the main line
  kBadIntendedLine,   // the given line is not a correct solution line
  // Notes (never flaws):
  // 手順前後: another attacker move mates in time, but its line (attacker shortest, defender
  // longest) reaches a position of the main line after this ply: the moves only change order.
  kTransposition,
  // 非限定: another attacker move mates in time but differs from the main line's only in a way
  // tsume conventions count as a blemish, not as another solution: the same piece move with
  // the other promotion choice (成・不成), or the same lance, rook or bishop dropped on another
  // square of the same line from the king (打点).
  kNonLimitation,
  // 変同: another defence holds out exactly as long as the main line's.
  kSameLengthVariation,
  // 変長: the composer's line is two plies shorter than the longest defence and leaves nothing
  // in hand, where the longer line leaves pieces over; tradition keeps the composer's line as
  // the solution and counts the longer one as a variation.
  kLongerVariation,
  // 変化別詰: after a defence that gives up sooner than the main line's (a variation), more
  // than one attacker move mates in the variation's shortest length (its last move excepted).
  kVariationAlternativeMate,
  // 作意駒余り: the intended line is a correct solution of the exact length but leaves pieces in
  // the attacker's hand, where the main line, as long, uses every piece (from the ply where
  // they part: another defence as long, or another last move). The problem is judged on the
  // main line; the intended line is the note's.
  kIntendedLineLeavesPieces,
  // 変化手順不正: a variation the problem states (KIF 変化) is wrong. One that branches off at
  // a defence is not a correct solution from there: a move illegal or not a check, a defence
  // not the longest, no mate at its end, or a mate shorter than it shows. One that branches
  // off at an attacker's move (紛れ, a check shown failing) has a move that is not a check, or
  // a defence after which the attacker still mates within what the solution leaves. The
  // flaw's line is the variation's whole line from the problem; its ply, the variation's first.
  kBadStatedVariation,
};
// The last kind above: a kind added after it moves this too (FlawKindFromString reads up to it).
constexpr FlawKind kLastFlawKind = FlawKind::kBadStatedVariation;

// "alternative_mate", ..., "non_limitation", ..., "bad_stated_variation"
const char* ToString(FlawKind kind);
// "余詰", "早詰", ..., "非限定", "変同", "変長", "変化別詰", "作意駒余り", "変化手順不正"
const char* JapaneseName(FlawKind kind);
// The kind ToString names (as read back from a results file); nullopt for a name this build
// does not know.
std::optional<FlawKind> FlawKindFromString(std::string_view name);
// The JapaneseName of the kind an identifier names ("alternative_mate" -> "余詰"); a name this
// build does not know stays as written.
std::string JapaneseNameOf(std::string_view name);

struct Flaw {
  FlawKind kind;
  int ply = 0;         // 1-based ply of the main line where it occurs (0: whole problem)
  std::string detail;  // a sentence for people
  // From the position before `ply` (the problem itself for ply 0): the alternative mate, the
  // other defence and its mate, the solution of another length.
  std::vector<Move> line;
  // Other moves the finding stands for, each as line[0] is: a 非限定 drop note names every
  // square of the line the piece mates from as well (R*3a in `line`, R*4a and R*5a here).
  std::vector<Move> others = {};
};

enum class Verdict { kSound, kFlawed, kNotMate, kUnknown };
const char* ToString(Verdict v);  // "sound", "flawed", "not a mate", "unknown"

struct VerifyReport {
  Verdict verdict = Verdict::kUnknown;
  SolveResult solution;  // the solver's exact solution under tsume rules
  // The line the checks ran along (intended if correct). When the limits stopped the solve
  // before those checks could start (main_line_searched false): the line of its proof, a mate
  // within `length` whose defences are not proven longest, or empty when none was read out.
  std::vector<Move> main_line;
  // The solve proved the exact length and read out its line, so the searches along it ran.
  bool main_line_searched = false;
  // The solution's length: the solver's exact one, or with 変長 the intended line's (0: none);
  // when the limits stopped the solve before the mate was proven shortest, its upper bound.
  int length = 0;
  std::vector<Flaw> flaws;  // each one makes the verdict kFlawed
  // Information that leaves the verdict alone: kTransposition, kNonLimitation,
  // kSameLengthVariation, kLongerVariation, kVariationAlternativeMate, kIntendedLineLeavesPieces
  // and kBadStatedVariation.
  std::vector<Flaw> notes;
  // False when limits stopped these searches, or the solve before they could start.
  bool alternatives_complete = true;  // the 余詰 search
  bool variations_complete = true;    // the 変同 search
  // The 変化別詰 search runs last, on what the limits leave, so that it never costs the
  // verdict: false when they stopped it (some variations were not examined).
  bool side_mates_complete = true;
  // The stated variations' check runs last too: false when the limits stopped it.
  bool stated_variations_complete = true;
  // How many stated variations it examined, in their order (each wrong one is a
  // kBadStatedVariation note): the first stated_variations_checked of them.
  int stated_variations_checked = 0;
  // The first limit that stopped one of the verification's searches (kNone: none did).
  LimitReason limit = LimitReason::kNone;
  // The whole verification (solve, intended line, 余詰, 変同 and 変化別詰 searches).
  int64_t nodes = 0;
  absl::Duration elapsed;
};

// What more time could add to a verification the time limit cut short: its verdict (it is
// unknown), or only information (a verdict was reached, but some search behind the notes or the
// completeness flags was cut). Other limits (nodes, a stop) give kNone: more time would not
// change what they cut.
enum class TimeCut { kNone, kVerdict, kInformation };
TimeCut WhatTheTimeCut(const VerifyReport& report);

// Told each stage of a verification as it starts, for progress displays: "line alone" (with
// VerifyOptions::refutation_time), "solve", then, once
// the solve has proven the exact length with its line, "intended line" (when one is given),
// "余詰", "変同", "変化別詰" and "stated variations" (when the problem states some).
using VerifyStageCallback = std::function<void(const char* stage)>;

struct VerifyOptions {
  // With an intended line and a time limit: before the solve, up to this much of the time goes
  // to searches along the intended line alone, from its end up: after each of its attacker
  // moves, is there a mate within the plies the line has left plus two? None anywhere means
  // no solution begins with the line's moves up to there, not even one with a longer
  // variation (変長): the line is wrong and the problem flawed, whatever its exact length. Such
  // a search can be far cheaper than the solve's proof of the exact length (zukou-021: a
  // minute against hours). Once they find the flaw, the solve gets no more time than they
  // took (the verdict is known; the solve only adds what it can). Zero: no such searches.
  absl::Duration refutation_time = absl::ZeroDuration();
};

// A variation the problem states (KIF 変化): its whole line from the problem position, and the
// 1-based ply of its first own move.
struct StatedVariation {
  int ply = 0;
  std::vector<Move> line;
};

// Verifies the problem with `solver` (its options give the limits, which cover the whole
// verification; rules are forced to tsume). `stated_length` and `intended` are optional
// (empty line: none given). The stated variations are checked last, as information
// (kBadStatedVariation notes), once the exact length and its main line are known.
VerifyReport VerifyProblem(Solver& solver, const Position& problem,
                           std::optional<int> stated_length, const std::vector<Move>& intended,
                           const VerifyStageCallback& on_stage = nullptr,
                           const VerifyOptions& verify_options = {},
                           const std::vector<StatedVariation>& stated_variations = {});

}  // namespace tsume

#endif  // TSUME_SOLVER_VERIFY_H_
