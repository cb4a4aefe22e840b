// `tsume usi`: the solver as a USI engine, so shogi GUIs (ShogiGUI, Shogidokoro, ShogiHome) can
// ask it for mates with `go mate`. Ordinary `go` commands are answered too (the first move of a
// mate, or resign), so a GUI that starts a game with it never hangs.
#ifndef TSUME_TOOLS_USI_ENGINE_H_
#define TSUME_TOOLS_USI_ENGINE_H_

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "absl/strings/string_view.h"
#include "absl/time/time.h"
#include "core/position.h"
#include "solver/solver.h"
#include "tools/commands.h"

namespace tsume {

// The engine's USI options (see UsiEngine for their meaning).
struct UsiOptions {
  int64_t hash_mb = 256;          // USI_Hash
  int64_t pv_interval_ms = 1000;  // PvInterval: ms between progress lines, 0 = none
  Rules rules = Rules::kTsume;    // Rules: tsume | game
  int64_t nodes_limit = 0;        // NodesLimit: 0 = none
};

// One USI session. Commands come in one line at a time (HandleLine, or Run over a stream); every
// answer is a whole line written to `out` under a mutex and flushed. Searches run on their own
// thread, so `stop`, `isready` and `quit` are answered while a search is running.
class UsiEngine {
 public:
  explicit UsiEngine(std::ostream& out);
  ~UsiEngine();  // stops a running search and joins its thread
  UsiEngine(const UsiEngine&) = delete;
  UsiEngine& operator=(const UsiEngine&) = delete;

  // Reads commands until `quit` or the end of the input (which counts as quit).
  void Run(std::istream& in);

  // Handles one command line. Returns false once the engine has quit.
  bool HandleLine(absl::string_view line);

  bool searching() const { return searching_.load(); }
  const UsiOptions& options() const { return options_; }

 private:
  // What a `go` asks for.
  struct SearchRequest {
    bool mate = false;      // `go mate`: answer with `checkmate ...`; else `bestmove ...`
    bool infinite = false;  // until `stop` (ordinary go: bestmove only after stop)
    absl::Duration time_limit = absl::InfiniteDuration();
  };

  void Send(absl::string_view line);
  void Info(absl::string_view text);  // "info string <text>"

  void HandleUsi();
  void HandleSetOption(absl::string_view args);
  void HandleIsReady();
  void HandlePosition(absl::string_view line);
  void HandleGo(absl::string_view args);
  void HandleStop();
  void HandleQuit();

  // Allocates (or re-allocates) the solver's table for the current USI_Hash. Main thread only,
  // with no search running. False when the allocation failed (reported as info string).
  bool EnsureSolver();
  SolveOptions MakeSolveOptions(const SearchRequest& request);
  void StartSearch(const SearchRequest& request);
  void SearchThread(SearchRequest request, Position position);
  void ReportMate(const SolveResult& result, const Position& root);  // the answer to go mate
  // Stops a running search (its answer is still sent) and joins the thread.
  void StopAndJoin();
  // Before the next search, or at the end of input: a running search that ends by itself (a
  // time or node limit) is waited for, so piped commands each get a whole answer; one that
  // waits for `stop` (infinite) is stopped.
  void FinishOrStop();

  std::ostream& out_;
  std::mutex out_mutex_;

  UsiOptions options_;
  Position position_;
  // False after a `position` command that was rejected: the GUI's next `go` is about that
  // position, so it is not answered with the previous one's mate.
  bool position_valid_ = true;
  std::unique_ptr<Solver> solver_;
  int64_t solver_hash_mb_ = 0;  // the table size solver_ was made with

  std::thread search_thread_;
  std::atomic<bool> searching_{false};
  bool search_ends_by_itself_ = false;  // the last search started has a limit
  std::atomic<bool> stop_requested_{false};
  // An ordinary `go infinite` holds its bestmove until `stop`; it waits on this.
  std::mutex stop_mutex_;
  std::condition_variable stop_cv_;
  bool quit_ = false;
};

// Runs a USI session on standard input, answering on `out`; `err` gets usage messages.
int RunUsi(const CommandArgs& args, std::ostream& out, std::ostream& err);

}  // namespace tsume

#endif  // TSUME_TOOLS_USI_ENGINE_H_
