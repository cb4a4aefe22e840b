#include "tools/usi_engine.h"

#include <algorithm>
#include <istream>
#include <ostream>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_join.h"
#include "absl/strings/str_split.h"
#include "absl/time/clock.h"
#include "tools/build_info.h"
#include "tools/solve_output.h"

namespace tsume {
namespace {

constexpr int64_t kMinHashMb = 1;
constexpr int64_t kMaxHashMb = 65536;
constexpr int64_t kMaxPvIntervalMs = 3600 * 1000;
// Some GUIs read spin values as 32-bit integers, so the node limit stops there.
constexpr int64_t kMaxNodesLimit = 2147483647;

// Time kept back from an ordinary `go` so bestmove arrives before the clock runs out.
constexpr absl::Duration kMaxSafetyMargin = absl::Milliseconds(300);
constexpr absl::Duration kMinSearchTime = absl::Milliseconds(10);
// The share of the remaining main time one move may use.
constexpr int kMainTimeShare = 30;

std::vector<absl::string_view> Tokens(absl::string_view text) {
  return absl::StrSplit(text, absl::ByAnyChar(" \t"), absl::SkipEmpty());
}

std::string MovesToUsi(const std::vector<Move>& moves) {
  return absl::StrJoin(moves, " ", [](std::string* out, Move m) { out->append(ToUsi(m)); });
}

// "time T nodes N nps X hashfull H" (hashfull in permille, as USI wants).
std::string StatsText(absl::Duration elapsed, int64_t nodes, double hashfull) {
  int64_t ms = absl::ToInt64Milliseconds(elapsed);
  int64_t nps = nodes * 1000 / std::max<int64_t>(ms, 1);
  int permille = std::clamp(int(hashfull * 1000 + 0.5), 0, 1000);
  return absl::StrCat("time ", ms, " nodes ", nodes, " nps ", nps, " hashfull ", permille);
}

}  // namespace

UsiEngine::UsiEngine(std::ostream& out) : out_(out) {}

UsiEngine::~UsiEngine() { StopAndJoin(); }

void UsiEngine::Send(absl::string_view line) {
  std::lock_guard<std::mutex> lock(out_mutex_);
  out_ << line << '\n';
  out_.flush();
}

void UsiEngine::Info(absl::string_view text) { Send(absl::StrCat("info string ", text)); }

void UsiEngine::Run(std::istream& in) {
  // A stream tied to an output would flush it from this thread, racing the search thread's
  // writes; every line written here is flushed anyway.
  std::ostream* tied = in.tie(nullptr);
  std::string line;
  bool running = true;
  while (running && std::getline(in, line)) running = HandleLine(line);
  if (running) {
    // End of input: as `quit`, once a search with a limit has answered (`echo "position
    // ...\ngo mate 5000" | tsume usi` gets its mate, not a search stopped at once).
    FinishOrStop();
    HandleQuit();
  }
  in.tie(tied);
}

bool UsiEngine::HandleLine(absl::string_view line) {
  if (quit_) return false;
  line = absl::StripAsciiWhitespace(line);  // also drops the '\r' of CRLF input
  if (line.empty()) return true;
  absl::string_view command = line.substr(0, line.find_first_of(" \t"));
  absl::string_view args = absl::StripLeadingAsciiWhitespace(line.substr(command.size()));
  if (command == "usi") {
    HandleUsi();
  } else if (command == "isready") {
    HandleIsReady();
  } else if (command == "setoption") {
    HandleSetOption(args);
  } else if (command == "usinewgame") {
    // Nothing to reset: the solver clears its table for every search.
  } else if (command == "position") {
    HandlePosition(line);
  } else if (command == "go") {
    HandleGo(args);
  } else if (command == "stop") {
    HandleStop();
  } else if (command == "ponderhit") {
    // bestmove never names a ponder move, so GUIs have no reason to send `go ponder`; a
    // ponderhit after one simply lets that search run on until `stop`.
  } else if (command == "gameover") {
    StopAndJoin();
  } else if (command == "quit") {
    HandleQuit();
    return false;
  } else {
    Info(absl::StrCat("unknown command: ", line));
  }
  return true;
}

void UsiEngine::HandleUsi() {
  // The version in the name (GUIs show it, and keep engines apart by it), where it is known.
  std::string version = Version();
  Send(version == "unknown" ? "id name tsume" : absl::StrCat("id name tsume ", version));
  Send("id author tsume developers");
  Send(absl::StrCat("option name USI_Hash type spin default ", UsiOptions().hash_mb, " min ",
                    kMinHashMb, " max ", kMaxHashMb));
  Send(absl::StrCat("option name PvInterval type spin default ", UsiOptions().pv_interval_ms,
                    " min 0 max ", kMaxPvIntervalMs));
  Send("option name Rules type combo default tsume var tsume var game");
  Send(absl::StrCat("option name NodesLimit type spin default 0 min 0 max ", kMaxNodesLimit));
  Send("usiok");
}

void UsiEngine::HandleSetOption(absl::string_view args) {
  // setoption name <name, may hold spaces> [value <value>]
  std::vector<absl::string_view> tokens = Tokens(args);
  if (tokens.empty() || tokens[0] != "name") {
    Info("error: setoption: expected 'setoption name <name> value <value>'");
    return;
  }
  auto value_at = std::find(tokens.begin(), tokens.end(), "value");
  std::string name = absl::StrJoin(tokens.begin() + 1, value_at, " ");
  std::string value =
      value_at == tokens.end() ? "" : absl::StrJoin(value_at + 1, tokens.end(), " ");

  auto parse_spin = [&](int64_t min, int64_t max, int64_t& target) {
    int64_t v;
    if (!absl::SimpleAtoi(value, &v) || v < min || v > max) {
      Info(absl::StrCat("warning: setoption ", name, ": expected an integer in [", min, ", ", max,
                        "], got '", value, "'; kept ", target));
      return;
    }
    target = v;
  };
  if (absl::EqualsIgnoreCase(name, "USI_Hash")) {
    parse_spin(kMinHashMb, kMaxHashMb, options_.hash_mb);
  } else if (absl::EqualsIgnoreCase(name, "PvInterval")) {
    parse_spin(0, kMaxPvIntervalMs, options_.pv_interval_ms);
  } else if (absl::EqualsIgnoreCase(name, "NodesLimit")) {
    parse_spin(0, kMaxNodesLimit, options_.nodes_limit);
  } else if (absl::EqualsIgnoreCase(name, "Rules")) {
    if (absl::EqualsIgnoreCase(value, "tsume")) {
      options_.rules = Rules::kTsume;
    } else if (absl::EqualsIgnoreCase(value, "game")) {
      options_.rules = Rules::kGame;
    } else {
      Info(absl::StrCat("warning: setoption Rules: expected 'tsume' or 'game', got '", value,
                        "'; kept ", options_.rules == Rules::kTsume ? "tsume" : "game"));
    }
  } else if (absl::EqualsIgnoreCase(name, "USI_Ponder")) {
    // GUIs send it unasked; this engine never ponders.
  } else {
    Info(absl::StrCat("warning: unknown option '", name, "' ignored"));
  }
}

bool UsiEngine::EnsureSolver() {
  if (solver_ != nullptr && solver_hash_mb_ == options_.hash_mb) return true;
  solver_.reset();  // free the old table before taking the new one
  for (int64_t mb = options_.hash_mb; mb >= kMinHashMb; mb /= 2) {
    SolveOptions solve_options;
    solve_options.hash_mb = mb;
    absl::StatusOr<std::unique_ptr<Solver>> solver = Solver::Create(solve_options);
    if (!solver.ok()) continue;
    solver_ = *std::move(solver);
    solver_hash_mb_ = mb;
    if (mb != options_.hash_mb) {
      Info(absl::StrCat("warning: could not allocate USI_Hash ", options_.hash_mb, " MB; using ",
                        mb, " MB"));
      options_.hash_mb = mb;  // so later isready does not retry the failed size
    }
    return true;
  }
  Info("error: could not allocate the solver's table");
  return false;
}

void UsiEngine::HandleIsReady() {
  // The table is allocated here rather than at start-up, after the GUI has set USI_Hash.
  // While a search runs the solver is in use: answer at once and resize at the next go.
  if (!searching_) {
    if (search_thread_.joinable()) search_thread_.join();
    EnsureSolver();
  }
  Send("readyok");
}

void UsiEngine::HandlePosition(absl::string_view line) {
  absl::StatusOr<Position> parsed = Position::FromUsiPosition(line);
  if (!parsed.ok()) {
    Info(absl::StrCat("error: ", parsed.status().message()));
    position_valid_ = false;
    return;
  }
  position_ = *std::move(parsed);
  position_valid_ = true;
}

void UsiEngine::HandleGo(absl::string_view args) {
  std::vector<absl::string_view> tokens = Tokens(args);
  SearchRequest request;
  if (!tokens.empty() && tokens[0] == "mate") {
    request.mate = true;
    if (tokens.size() < 2 || tokens[1] == "infinite") {
      request.infinite = true;
    } else {
      int64_t ms;
      if (!absl::SimpleAtoi(tokens[1], &ms) || ms < 0) {
        // Still answer, so the GUI does not wait for ever; a search still running answers
        // first, as for any go (StartSearch), so answers keep the order of the gos.
        FinishOrStop();
        Info(absl::StrCat("error: go mate: expected a time in ms or 'infinite', got '", tokens[1],
                          "'"));
        Send("checkmate timeout");
        return;
      }
      request.time_limit = absl::Milliseconds(ms);
    }
  } else {
    // An ordinary search: btime/wtime/binc/winc/byoyomi in ms, or infinite/ponder.
    int64_t time[2] = {-1, -1}, inc[2] = {0, 0}, byoyomi = 0, movetime = -1;
    bool any_clock = false;
    for (size_t i = 0; i < tokens.size(); ++i) {
      absl::string_view key = tokens[i];
      if (key == "infinite" || key == "ponder") {
        request.infinite = true;
        continue;
      }
      int64_t* target = key == "btime"      ? &time[kBlack]
                        : key == "wtime"    ? &time[kWhite]
                        : key == "binc"     ? &inc[kBlack]
                        : key == "winc"     ? &inc[kWhite]
                        : key == "byoyomi"  ? &byoyomi
                        : key == "movetime" ? &movetime
                                            : nullptr;
      if (target == nullptr) {
        Info(absl::StrCat("warning: go: '", key, "' ignored"));
        continue;
      }
      int64_t v;
      if (i + 1 >= tokens.size() || !absl::SimpleAtoi(tokens[i + 1], &v) || v < 0) {
        Info(absl::StrCat("warning: go: '", key, "' needs a non-negative number of ms"));
        continue;
      }
      *target = v;
      any_clock = true;
      ++i;
    }
    if (!request.infinite && any_clock) {
      absl::Duration budget;
      if (movetime >= 0) {
        budget = absl::Milliseconds(movetime);
      } else {
        Color us = position_.side_to_move();
        int64_t main_time = std::max<int64_t>(time[us], 0);
        // Durations saturate: a GUI's huge clock values give a long search, not an overflow.
        budget = absl::Milliseconds(main_time / kMainTimeShare) + absl::Milliseconds(inc[us]) +
                 absl::Milliseconds(byoyomi);
      }
      absl::Duration margin = std::min(kMaxSafetyMargin, budget / 10);
      request.time_limit = std::max(kMinSearchTime, budget - margin);
    } else if (!any_clock) {
      request.infinite = true;  // plain `go`: until stop
    }
  }
  StartSearch(request);
}

SolveOptions UsiEngine::MakeSolveOptions(const SearchRequest& request) {
  SolveOptions o;
  o.hash_mb = solver_hash_mb_;  // the size already allocated (EnsureSolver)
  o.rules = options_.rules;
  o.max_nodes = options_.nodes_limit;
  o.time_limit = request.time_limit;
  // Proving the length keeps the reported line the shortest mate; for play it also makes the
  // mate distance shrink move by move, so the engine cannot wander between longer mates.
  o.exact_length = true;
  o.stop = &stop_requested_;
  if (options_.pv_interval_ms > 0) {
    o.progress_interval = absl::Milliseconds(options_.pv_interval_ms);
    o.on_progress = [this](const SearchProgress& p) {
      std::string line = absl::StrCat("info ", StatsText(p.elapsed, p.nodes, p.hashfull));
      if (!p.pv.empty()) absl::StrAppend(&line, " pv ", MovesToUsi(p.pv));
      Send(line);
    };
  }
  return o;
}

void UsiEngine::StartSearch(const SearchRequest& request) {
  // A GUI sends stop before the next go; commands piped in may not: the old search answers
  // first (FinishOrStop), so every go gets exactly one answer, in order.
  FinishOrStop();
  if (!position_valid_) {
    Info("error: the last position was rejected; nothing to search");
    Send(request.mate ? "checkmate timeout" : "bestmove resign");
    return;
  }
  if (!EnsureSolver()) {
    Send(request.mate ? "checkmate timeout" : "bestmove resign");
    return;
  }
  solver_->set_options(MakeSolveOptions(request));
  stop_requested_ = false;
  // An ordinary infinite go holds its bestmove until stop; go mate infinite ends by itself
  // when NodesLimit bounds it.
  search_ends_by_itself_ = !request.infinite || (request.mate && options_.nodes_limit > 0);
  searching_ = true;
  search_thread_ = std::thread(&UsiEngine::SearchThread, this, request, position_);
}

void UsiEngine::SearchThread(SearchRequest request, Position position) {
  // The side to move is always the attacker. When it is itself in check (a GUI asking from the
  // defender's side), the solver still answers the question asked: it looks for a mate that
  // starts with a checking evasion, and otherwise proves there is none (checkmate nomate). We
  // do not try to report the defender's longest resistance instead: the USI answer would need
  // the evasion plus the opponent's mate, which the protocol has no clear form for.
  SolveResult result = solver_->Solve(position);
  if (request.mate) {
    ReportMate(result, position);
  } else {
    bool mate = result.status == SolveStatus::kMate && !result.moves.empty();
    if (mate) {
      Send(absl::StrCat("info depth ", result.moves.size(), " score mate +", result.length, " ",
                        StatsText(result.elapsed, result.nodes, result.hashfull), " pv ",
                        MovesToUsi(result.moves)));
    } else if (result.status == SolveStatus::kMate) {
      Info("mate proven, but the search stopped before its line was read out");
    } else {
      std::string why = result.status == SolveStatus::kNoMate ? NothingToMate(position) : "";
      Info(absl::StrCat("no mate found (", ToString(result.status), why.empty() ? "" : ": ", why,
                        ")"));
    }
    if (request.infinite) {
      // USI: after `go infinite` (or ponder) bestmove waits for stop.
      std::unique_lock<std::mutex> lock(stop_mutex_);
      stop_cv_.wait(lock, [this] { return stop_requested_.load(); });
    }
    Send(absl::StrCat("bestmove ", mate ? ToUsi(result.moves[0]) : "resign"));
  }
  searching_ = false;
}

void UsiEngine::ReportMate(const SolveResult& result, const Position& root) {
  switch (result.status) {
    case SolveStatus::kMate:
      // A line shorter than the length is the proof's line after a limit: still a mate.
      if (!result.moves.empty() && int(result.moves.size()) <= result.length) {
        if (!result.length_exact) {
          Info(absl::StrCat("mate found; the search stopped before proving it the shortest",
                            result.no_mate_within > 0
                                ? absl::StrCat(" (no mate within ", result.no_mate_within, ")")
                                : ""));
        }
        std::string moves = MovesToUsi(result.moves);
        Send(absl::StrCat("info ", StatsText(result.elapsed, result.nodes, result.hashfull), " pv ",
                          moves));
        Send(absl::StrCat("checkmate ", moves));
      } else {
        Info(absl::StrCat("mate in ", result.length,
                          " found, but the search stopped before the line was read out"));
        Send("checkmate timeout");
      }
      return;
    case SolveStatus::kNoMate:
      if (std::string why = NothingToMate(root); !why.empty()) Info(why);
      Send("checkmate nomate");
      return;
    case SolveStatus::kUnknown:
      // How far the search got: a proven lower bound, for the GUI's log.
      if (result.no_mate_within > 0) {
        Info(absl::StrCat("no mate within ", result.no_mate_within,
                          result.no_mate_within == 1 ? " ply" : " plies"));
      }
      Send("checkmate timeout");
      return;
  }
}

void UsiEngine::HandleStop() {
  // Answered by the search thread as soon as the solver sees the flag; the main loop does not
  // wait, so it keeps reading commands.
  {
    std::lock_guard<std::mutex> lock(stop_mutex_);
    stop_requested_ = true;
  }
  stop_cv_.notify_all();
}

void UsiEngine::StopAndJoin() {
  HandleStop();
  if (search_thread_.joinable()) search_thread_.join();
}

void UsiEngine::FinishOrStop() {
  if (!search_ends_by_itself_) HandleStop();
  if (search_thread_.joinable()) search_thread_.join();
}

void UsiEngine::HandleQuit() {
  StopAndJoin();
  quit_ = true;
}

}  // namespace tsume
