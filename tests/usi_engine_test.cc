// The USI engine driven as a GUI would: a scripted session over an in-process line sink, and a
// short session with the real `tsume usi` binary over pipes.
#include "tools/usi_engine.h"

#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <condition_variable>
#include <csignal>
#include <fstream>
#include <functional>
#include <mutex>
#include <optional>
#include <sstream>
#include <streambuf>
#include <string>
#include <thread>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/numbers.h"
#include "absl/strings/str_split.h"
#include "core/movegen.h"
#include "core/position.h"
#include "gtest/gtest.h"
#include "tools/build_info.h"

extern char** environ;

namespace tsume {
namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// Sanitized builds run several times slower: give answers more time to arrive.
constexpr int kSlowdown = TSUME_SANITIZED ? 10 : 1;
const milliseconds kAnswerTimeout(10000 * kSlowdown);

constexpr char kMate3[] = "9/4k4/9/5G3/4G4/4P4/9/9/9 b 2G2r2b4s4n4l17p 1";
// Only perpetual checks: no mate at any depth.
constexpr char kNoMate[] = "9/9/8l/8k/6KR1/8p/9/9/9 b - 1";
// Black to move is in check from the knight on 2c, and capturing it mates.
constexpr char kInCheckCounterMate[] = "4R4/8k/7n1/6GP1/6K2/9/9/9/9 b - 1";
// Black to move is in check and holds nothing: no mate.
constexpr char kInCheckNoMate[] = "k8/9/9/9/9/9/9/4r4/4K4 b - 1";

// From the rule tests (antma/tsumeshogi-check tsume1_futile_drops): 4b3b mates unless the
// defender's futile interposition counts.
constexpr char kFutileInterposition[] = "6Snl/5+Rg1k/6ppp/9/9/9/9/9/9 b r2b3g3s3n3l15p 1";

// The 611-ply zukou-100 (Kotobuki): far beyond a short time limit.
std::string HardSfen() {
  std::ifstream in(TSUME_SOURCE_DIR "/problems/classics/zukou.tsv");
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> fields = absl::StrSplit(line, '\t');
    if (fields.size() >= 3 && fields[0] == "zukou-100") return fields[2];
  }
  ADD_FAILURE() << "zukou-100 not found in zukou.tsv";
  return "";
}

// A thread-safe stream buffer collecting complete lines, which a test can wait for.
class LineSink : public std::streambuf {
 public:
  // The first line at index >= *cursor that satisfies `match`; *cursor moves past it.
  std::optional<std::string> WaitFor(const std::function<bool(const std::string&)>& match,
                                     size_t* cursor, milliseconds timeout) {
    std::unique_lock<std::mutex> lock(mutex_);
    std::optional<std::string> found;
    cv_.wait_for(lock, timeout, [&] {
      for (; *cursor < lines_.size(); ++*cursor) {
        if (match(lines_[*cursor])) {
          found = lines_[(*cursor)++];
          return true;
        }
      }
      return false;
    });
    return found;
  }
  std::vector<std::string> Lines() {
    std::lock_guard<std::mutex> lock(mutex_);
    return lines_;
  }

 protected:
  int_type overflow(int_type ch) override {
    if (ch != traits_type::eof()) {
      char c = char(ch);
      xsputn(&c, 1);
    }
    return ch;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (std::streamsize i = 0; i < n; ++i) {
        if (s[i] == '\n') {
          lines_.push_back(partial_);
          partial_.clear();
        } else {
          partial_ += s[i];
        }
      }
    }
    cv_.notify_all();
    return n;
  }

 private:
  std::mutex mutex_;
  std::condition_variable cv_;
  std::vector<std::string> lines_;
  std::string partial_;
};

// Plays the GUI: sends commands and reads the engine's answers in order.
class ScriptedGui {
 public:
  ScriptedGui() : out_(&sink_), engine_(out_) {}

  bool Send(const std::string& command) { return engine_.HandleLine(command); }

  // The next line starting with `prefix`; lines before it are skipped (see Skipped).
  std::string Expect(const std::string& prefix, milliseconds timeout = kAnswerTimeout) {
    size_t from = cursor_;
    std::optional<std::string> line = sink_.WaitFor(
        [&](const std::string& l) { return absl::StartsWith(l, prefix); }, &cursor_, timeout);
    std::vector<std::string> lines = sink_.Lines();
    skipped_.assign(lines.begin() + from, lines.begin() + (cursor_ - (line ? 1 : 0)));
    if (!line) {
      ADD_FAILURE() << "no line starting with '" << prefix << "' within " << timeout.count()
                    << " ms";
      return "";
    }
    return *line;
  }
  // True when a line starting with `prefix` arrives within `wait` (without failing).
  bool Arrives(const std::string& prefix, milliseconds wait) {
    size_t probe = cursor_;
    return sink_
        .WaitFor([&](const std::string& l) { return absl::StartsWith(l, prefix); }, &probe, wait)
        .has_value();
  }
  // The lines the last Expect passed over.
  const std::vector<std::string>& Skipped() const { return skipped_; }

  UsiEngine& engine() { return engine_; }

  // usi + small table + isready.
  void Handshake() {
    Send("usi");
    Expect("usiok");
    Send("setoption name USI_Hash value 16");
    Send("isready");
    Expect("readyok");
  }

 private:
  LineSink sink_;
  std::ostream out_;
  UsiEngine engine_;
  size_t cursor_ = 0;
  std::vector<std::string> skipped_;
};

std::vector<std::string> Words(const std::string& line) {
  return absl::StrSplit(line, ' ', absl::SkipEmpty());
}

// Checks that `moves` is a legal line from `sfen` of `length` plies: every attacker move checks,
// and the defender is checkmated at the end.
void ExpectMatingLine(const std::string& sfen, const std::vector<std::string>& moves,
                      size_t length) {
  ASSERT_EQ(moves.size(), length);
  absl::StatusOr<Position> pos = Position::FromSfen(sfen);
  ASSERT_TRUE(pos.ok()) << pos.status();
  for (size_t i = 0; i < moves.size(); ++i) {
    absl::StatusOr<Move> m = pos->ParseUsiMove(moves[i]);
    ASSERT_TRUE(m.ok()) << "ply " << i + 1 << " '" << moves[i] << "': " << m.status();
    pos->DoMove(*m);
    if (i % 2 == 0) {
      EXPECT_TRUE(pos->in_check()) << "attacker move " << moves[i] << " not a check";
    }
  }
  EXPECT_TRUE(IsCheckmate(*pos)) << "line does not end in checkmate";
}

// The moves of a `checkmate m1 m2 ...` line.
std::vector<std::string> CheckmateMoves(const std::string& line) {
  std::vector<std::string> words = Words(line);
  EXPECT_FALSE(words.empty());
  if (!words.empty()) words.erase(words.begin());
  return words;
}

// The value after `key` in an info line, or -1.
int64_t InfoField(const std::string& line, const std::string& key) {
  std::vector<std::string> words = Words(line);
  for (size_t i = 0; i + 1 < words.size(); ++i) {
    int64_t v;
    if (words[i] == key && absl::SimpleAtoi(words[i + 1], &v)) return v;
  }
  return -1;
}

// The engine's name, with the version where the build knows it.
std::string ExpectedIdName() {
  return Version() == "unknown" ? "id name tsume" : "id name tsume " + Version();
}

TEST(UsiEngineTest, HandshakeListsIdAndOptions) {
  ScriptedGui gui;
  gui.Send("usi");
  EXPECT_EQ(gui.Expect("id name"), ExpectedIdName());
  EXPECT_EQ(gui.Expect("id author"), "id author tsume developers");
  gui.Expect("usiok");
  const std::vector<std::string>& lines = gui.Skipped();
  auto has = [&](const std::string& l) {
    return std::find(lines.begin(), lines.end(), l) != lines.end();
  };
  EXPECT_TRUE(has("option name USI_Hash type spin default 256 min 1 max 65536"));
  EXPECT_TRUE(has("option name Rules type combo default tsume var tsume var game"));
  int options = 0;
  bool pv_interval = false, nodes_limit = false;
  for (const std::string& l : lines) {
    ASSERT_TRUE(absl::StartsWith(l, "option name ")) << l;
    ++options;
    EXPECT_FALSE(absl::StrContains(l, "Threads")) << "the search is single-threaded";
    if (absl::StartsWith(l, "option name PvInterval type spin default 1000 ")) pv_interval = true;
    if (absl::StartsWith(l, "option name NodesLimit type spin default 0 ")) nodes_limit = true;
  }
  EXPECT_EQ(options, 4);
  EXPECT_TRUE(pv_interval);
  EXPECT_TRUE(nodes_limit);
}

TEST(UsiEngineTest, SetOptionIsCaseInsensitiveAndWarnsOnBadInput) {
  ScriptedGui gui;
  gui.Send("setoption name usi_hash value 32");
  gui.Send("setoption name PVINTERVAL value 250");
  gui.Send("setoption name NodesLimit value 5000");
  gui.Send("setoption name rules value Game");
  EXPECT_EQ(gui.engine().options().hash_mb, 32);
  EXPECT_EQ(gui.engine().options().pv_interval_ms, 250);
  EXPECT_EQ(gui.engine().options().nodes_limit, 5000);
  EXPECT_EQ(gui.engine().options().rules, Rules::kGame);

  gui.Send("setoption name USI_Hash value lots");
  EXPECT_TRUE(absl::StrContains(gui.Expect("info string warning"), "USI_Hash"));
  gui.Send("setoption name USI_Hash value 0");
  gui.Expect("info string warning");
  EXPECT_EQ(gui.engine().options().hash_mb, 32);
  gui.Send("setoption name Rules value shogi");
  gui.Expect("info string warning");
  EXPECT_EQ(gui.engine().options().rules, Rules::kGame);
  gui.Send("setoption name Threads value 4");
  EXPECT_TRUE(absl::StrContains(gui.Expect("info string warning"), "Threads"));
  gui.Send("setoption value 3");
  gui.Expect("info string error");
  // GUIs send USI_Ponder unasked: accepted silently.
  gui.Send("setoption name USI_Ponder value false");
  gui.Send("isready");
  gui.Expect("readyok");
  for (const std::string& l : gui.Skipped()) EXPECT_FALSE(absl::StrContains(l, "USI_Ponder"));
}

TEST(UsiEngineTest, SessionSolvesSeveralProblems) {
  ScriptedGui gui;
  gui.Handshake();
  gui.Send("usinewgame");

  // A mate in 3: a legal mating line, announced by an info line with the same pv.
  gui.Send(std::string("position sfen ") + kMate3);
  gui.Send("go mate 10000");
  std::string answer = gui.Expect("checkmate");
  ExpectMatingLine(kMate3, CheckmateMoves(answer), 3);
  ASSERT_FALSE(gui.Skipped().empty());
  std::string pv_line = gui.Skipped().back();
  EXPECT_TRUE(absl::StartsWith(pv_line, "info ")) << pv_line;
  EXPECT_TRUE(absl::EndsWith(pv_line, " pv " + answer.substr(answer.find(' ') + 1))) << pv_line;
  EXPECT_GE(InfoField(pv_line, "nodes"), 1);

  // Perpetual check only: a complete disproof.
  gui.Send(std::string("position sfen ") + kNoMate);
  gui.Send("go mate 10000");
  EXPECT_EQ(gui.Expect("checkmate"), "checkmate nomate");
  for (const std::string& line : gui.Skipped()) EXPECT_FALSE(absl::StrContains(line, "no king"));

  // No king to mate: no mate, and the log says why.
  gui.Send("position sfen 9/9/9/9/9/9/9/9/4K4 b G 1");
  gui.Send("go mate 10000");
  EXPECT_EQ(gui.Expect("checkmate"), "checkmate nomate");
  ASSERT_FALSE(gui.Skipped().empty());
  EXPECT_EQ(gui.Skipped().back(), "info string White has no king");

  // Far too hard for 50 ms.
  gui.Send("position sfen " + HardSfen());
  auto start = Clock::now();
  gui.Send("go mate 50");
  EXPECT_EQ(gui.Expect("checkmate"), "checkmate timeout");
  EXPECT_LT(Clock::now() - start, milliseconds(2000 * kSlowdown));

  // The same engine still solves after a timeout (the table is cleared per problem).
  gui.Send(std::string("position startpos"));
  gui.Send(std::string("position sfen ") + kMate3 + " moves G*5c 5b4a");
  gui.Send("go mate infinite");
  std::vector<std::string> rest = CheckmateMoves(gui.Expect("checkmate"));
  ASSERT_EQ(rest.size(), 1u);
  std::vector<std::string> full = {"G*5c", "5b4a", rest[0]};
  ExpectMatingLine(kMate3, full, 3);

  gui.Send("gameover win");
  EXPECT_FALSE(gui.Send("quit"));
  EXPECT_FALSE(gui.Send("usi")) << "commands after quit are ignored";
}

TEST(UsiEngineTest, SideToMoveInCheck) {
  ScriptedGui gui;
  gui.Handshake();
  // A checking evasion that mates is a mate for the side to move.
  gui.Send(std::string("position sfen ") + kInCheckCounterMate);
  gui.Send("go mate 10000");
  ExpectMatingLine(kInCheckCounterMate, CheckmateMoves(gui.Expect("checkmate")), 1);
  gui.Send(std::string("position sfen ") + kInCheckNoMate);
  gui.Send("go mate 10000");
  EXPECT_EQ(gui.Expect("checkmate"), "checkmate nomate");
}

TEST(UsiEngineTest, RulesOptionDecidesWhetherFutileInterpositionsCount) {
  // Mate in 1 when the futile interposition is not counted (tsume), longer when it is (game).
  const std::string sfen = kFutileInterposition;
  ScriptedGui gui;
  gui.Handshake();
  gui.Send("position sfen " + sfen);
  gui.Send("go mate 10000");
  std::vector<std::string> tsume_line = CheckmateMoves(gui.Expect("checkmate"));
  EXPECT_EQ(tsume_line.size(), 1u);
  gui.Send("setoption name Rules value game");
  gui.Send("go mate 10000");
  std::vector<std::string> game_line = CheckmateMoves(gui.Expect("checkmate"));
  EXPECT_GT(game_line.size(), 1u);
  ExpectMatingLine(sfen, game_line, game_line.size());
}

// Starts `go mate infinite` on a problem no search settles soon; none answers within `quiet`.
void StartLongMateSearch(ScriptedGui& gui, milliseconds quiet) {
  gui.Handshake();
  gui.Send("position sfen " + HardSfen());
  gui.Send("go mate infinite");
  EXPECT_FALSE(gui.Arrives("checkmate", quiet));
  EXPECT_TRUE(gui.engine().searching());
}

TEST(UsiEngineTest, StopEndsAnInfiniteMateSearchPromptly) {
  ScriptedGui gui;
  StartLongMateSearch(gui, milliseconds(300));

  // isready is answered while the search runs.
  auto start = Clock::now();
  gui.Send("isready");
  gui.Expect("readyok", milliseconds(1000 * kSlowdown));
  EXPECT_LT(Clock::now() - start, milliseconds(500 * kSlowdown));
  EXPECT_TRUE(gui.engine().searching());

  start = Clock::now();
  gui.Send("stop");
  EXPECT_EQ(gui.Expect("checkmate"), "checkmate timeout");
  EXPECT_LT(Clock::now() - start, milliseconds(500 * kSlowdown));
}

// A go the engine cannot read, sent during a search: the search answers first, then the bad
// go, so the answers keep the order of the gos.
TEST(UsiEngineTest, BadGoDuringASearchIsAnsweredAfterIt) {
  ScriptedGui gui;
  StartLongMateSearch(gui, milliseconds(200));
  gui.Send("go mate soon");
  gui.Expect("info string error: go mate");
  std::vector<std::string> before = gui.Skipped();
  EXPECT_EQ(std::count(before.begin(), before.end(), "checkmate timeout"), 1) << before.size();
  EXPECT_EQ(gui.Expect("checkmate"), "checkmate timeout");
  EXPECT_FALSE(gui.engine().searching());
}

TEST(UsiEngineTest, NodesLimitEndsTheSearch) {
  ScriptedGui gui;
  gui.Handshake();
  gui.Send("setoption name NodesLimit value 20000");
  gui.Send("position sfen " + HardSfen());
  gui.Send("go mate infinite");
  EXPECT_EQ(gui.Expect("checkmate"), "checkmate timeout");
  // Before it, how far the search got: the deepest length proven free of mates.
  bool bound_said = false;
  for (const std::string& l : gui.Skipped()) {
    bound_said |= absl::StartsWith(l, "info string no mate within ");
  }
  EXPECT_TRUE(bound_said);
  // A limit does not spoil an easy problem.
  gui.Send(std::string("position sfen ") + kMate3);
  gui.Send("go mate infinite");
  ExpectMatingLine(kMate3, CheckmateMoves(gui.Expect("checkmate")), 3);
}

TEST(UsiEngineTest, ProgressLinesFollowPvInterval) {
  ScriptedGui gui;
  gui.Handshake();
  gui.Send("setoption name PvInterval value 50");
  gui.Send("position sfen " + HardSfen());
  gui.Send("go mate 600");
  gui.Expect("checkmate timeout");
  int progress_lines = 0;
  int64_t last_nodes = 0;
  for (const std::string& l : gui.Skipped()) {
    if (absl::StartsWith(l, "info string no mate within ")) continue;  // said at the end
    ASSERT_TRUE(absl::StartsWith(l, "info time ")) << l;
    int64_t nodes = InfoField(l, "nodes");
    EXPECT_GT(nodes, last_nodes) << l;
    last_nodes = nodes;
    EXPECT_GE(InfoField(l, "nps"), 0) << l;
    int64_t hashfull = InfoField(l, "hashfull");
    EXPECT_GE(hashfull, 0) << l;
    EXPECT_LE(hashfull, 1000) << l;
    ++progress_lines;
  }
  EXPECT_GE(progress_lines, 2);

  // PvInterval 0: no progress lines at all.
  gui.Send("setoption name PvInterval value 0");
  gui.Send("go mate 300");
  gui.Expect("checkmate timeout");
  for (const std::string& l : gui.Skipped()) {
    EXPECT_FALSE(absl::StartsWith(l, "info time ")) << l;
  }
}

// A rejected position is named; the go that follows is about it, so it is not answered with
// the mate of the position before (a GUI would show those moves on the wrong board): go mate
// says timeout (unknown), go resigns. The next good position is searched as usual.
TEST(UsiEngineTest, MalformedPositionsAreNotSearched) {
  ScriptedGui gui;
  gui.Handshake();
  gui.Send(std::string("position sfen ") + kMate3);
  const std::vector<std::string> bad = {
      "position",
      "position sfen",
      "position sfen xyz",
      "position sfen 9/4k4/9/9/9/9/9/9/9 x - 1",
      "position sfen 9/4k4/9/5G3/4G4/4P4/9/9/9 b 2G2r2b4s4n4l17p 1 moves 9a9b",
      "position startpos moves 7g7f 7g7f",
      "position fen 9/9/9/9/9/9/9/9/9 b - 1",
      "position sfen \x01\xff 9/9 b",
  };
  for (const std::string& line : bad) {
    gui.Send(line);
    std::string error = gui.Expect("info string error: ");
    EXPECT_GT(error.size(), std::string("info string error: ").size()) << line;
    EXPECT_EQ(error.find('\n'), std::string::npos);
    gui.Send("go mate 10000");
    gui.Expect("info string error: the last position was rejected");
    EXPECT_EQ(gui.Expect("checkmate"), "checkmate timeout") << line;
  }
  gui.Send("go btime 1000 wtime 1000");
  EXPECT_EQ(gui.Expect("bestmove"), "bestmove resign");
  gui.Send(std::string("position sfen ") + kMate3);
  gui.Send("go mate 10000");
  ExpectMatingLine(kMate3, CheckmateMoves(gui.Expect("checkmate")), 3);
}

TEST(UsiEngineTest, UnknownCommandsAndBadGoAreReported) {
  ScriptedGui gui;
  gui.Send("xyzzy 1 2");
  EXPECT_EQ(gui.Expect("info string"), "info string unknown command: xyzzy 1 2");
  gui.Send("   ");  // blank lines are ignored
  gui.Send("go mate soon");
  gui.Expect("info string error: go mate");
  EXPECT_EQ(gui.Expect("checkmate"), "checkmate timeout");
  gui.Send("ponderhit");
  gui.Send("setoption name USI_Hash value 16");
  gui.Send("isready");
  gui.Expect("readyok");
  EXPECT_TRUE(gui.Skipped().empty());
}

TEST(UsiEngineTest, OrdinaryGoAnswersBestmove) {
  ScriptedGui gui;
  gui.Handshake();
  gui.Send(std::string("position sfen ") + kMate3);
  gui.Send("go btime 1000 wtime 1000 byoyomi 1000");
  std::string best = gui.Expect("bestmove");
  ASSERT_FALSE(gui.Skipped().empty());
  std::string info = gui.Skipped().back();
  EXPECT_TRUE(absl::StrContains(info, "score mate +3")) << info;
  // The bestmove starts the announced mate, which is a real one.
  std::vector<std::string> pv = Words(info.substr(info.find(" pv ") + 4));
  ASSERT_FALSE(pv.empty());
  EXPECT_EQ(best, "bestmove " + pv[0]);
  ExpectMatingLine(kMate3, pv, 3);

  // No mate: resign rather than leave the GUI waiting.
  gui.Send(std::string("position sfen ") + kNoMate);
  gui.Send("go btime 0 wtime 0 byoyomi 500");
  EXPECT_EQ(gui.Expect("bestmove"), "bestmove resign");
  gui.Send("position startpos");
  gui.Send("go btime 60000 wtime 60000 binc 1000 winc 1000");
  EXPECT_EQ(gui.Expect("bestmove"), "bestmove resign");

  // Clocks as large as the numbers go: a long budget, not an overflow (the sanitizer build
  // checks the arithmetic).
  gui.Send(std::string("position sfen ") + kMate3);
  gui.Send("go btime 9223372036854775807 wtime 9223372036854775807 byoyomi 9223372036854775807");
  EXPECT_EQ(gui.Expect("bestmove"), best);
}

TEST(UsiEngineTest, OrdinaryGoInfiniteWaitsForStop) {
  ScriptedGui gui;
  gui.Handshake();
  gui.Send(std::string("position sfen ") + kMate3);
  gui.Send("go infinite");
  gui.Expect("info depth");                                  // the mate is found quickly...
  EXPECT_FALSE(gui.Arrives("bestmove", milliseconds(200)));  // ...but bestmove waits
  gui.Send("stop");
  std::string best = gui.Expect("bestmove");
  EXPECT_NE(best, "bestmove resign");
  EXPECT_TRUE(absl::StartsWith(best, "bestmove G*")) << best;
}

TEST(UsiEngineTest, QuitDuringSearchStopsIt) {
  ScriptedGui gui;
  gui.Handshake();
  gui.Send("position sfen " + HardSfen());
  gui.Send("go mate infinite");
  auto start = Clock::now();
  EXPECT_FALSE(gui.Send("quit"));
  EXPECT_LT(Clock::now() - start, milliseconds(1000 * kSlowdown));
  EXPECT_FALSE(gui.engine().searching());
}

TEST(UsiEngineTest, RunReadsAStreamAndEndOfInputQuits) {
  std::ostringstream out;
  {
    UsiEngine engine(out);
    std::istringstream in("usi\r\nquit\nusi\n");
    engine.Run(in);
  }
  std::string text = out.str();
  EXPECT_EQ(text.find("usiok"), text.rfind("usiok")) << "lines after quit were read";
  EXPECT_NE(text.find("usiok"), std::string::npos);

  // End of input during a search: stopped and answered, like quit.
  std::ostringstream out2;
  {
    UsiEngine engine(out2);
    std::istringstream in("setoption name USI_Hash value 8\nisready\nposition sfen " + HardSfen() +
                          "\ngo mate infinite\n");
    engine.Run(in);
    EXPECT_FALSE(engine.searching());
  }
  EXPECT_TRUE(absl::EndsWith(out2.str(), "checkmate timeout\n")) << out2.str();
}

// Commands piped in without waiting (a script, not a GUI): a go with a time limit that comes
// during the last search, or the end of input, lets that search finish, so each go gets its
// whole answer, in order. The mate in 11 takes about 10k nodes: stopped at once it would
// answer timeout.
TEST(UsiEngineTest, PipedSearchesWithLimitsFinishBeforeTheNext) {
  constexpr char kMate11[] = "9/9/6B2/6p2/5n1l1/5p1k1/9/5S+B2/9 b RPr4g3s3n3l15p 1";
  std::ostringstream out;
  {
    UsiEngine engine(out);
    std::istringstream in(absl::StrCat("setoption name USI_Hash value 8\nisready\n",
                                       "position sfen ", kMate11, "\ngo mate 60000\n",
                                       "position sfen ", kNoMate, "\ngo mate 60000\n",
                                       "position sfen ", kMate11, "\ngo mate 60000\n"));
    engine.Run(in);
    EXPECT_FALSE(engine.searching());
  }
  std::vector<std::string> answers;
  for (absl::string_view line : absl::StrSplit(out.str(), '\n')) {
    if (absl::StartsWith(line, "checkmate")) answers.emplace_back(line);
  }
  ASSERT_EQ(answers.size(), 3u) << out.str();
  ExpectMatingLine(kMate11, CheckmateMoves(answers[0]), 11);
  EXPECT_EQ(answers[1], "checkmate nomate");
  ExpectMatingLine(kMate11, CheckmateMoves(answers[2]), 11);
}

// ---- The real binary over pipes.

class ChildProcess {
 public:
  bool Start(const std::string& path, const std::vector<std::string>& args) {
    int to_child[2], from_child[2];
    if (pipe(to_child) != 0 || pipe(from_child) != 0) return false;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child[0], 0);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], 1);
    for (int fd : {to_child[0], to_child[1], from_child[0], from_child[1]}) {
      posix_spawn_file_actions_addclose(&actions, fd);
    }
    std::vector<char*> argv;
    argv.push_back(const_cast<char*>(path.c_str()));
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    int rc = posix_spawn(&pid_, path.c_str(), &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(to_child[0]);
    close(from_child[1]);
    write_fd_ = to_child[1];
    read_fd_ = from_child[0];
    return rc == 0;
  }
  ~ChildProcess() {
    if (write_fd_ >= 0) close(write_fd_);
    if (read_fd_ >= 0) close(read_fd_);
    if (pid_ > 0) {
      kill(pid_, SIGKILL);
      waitpid(pid_, nullptr, 0);
    }
  }
  void Send(const std::string& line) {
    std::string text = line + "\n";
    ASSERT_EQ(write(write_fd_, text.data(), text.size()), ssize_t(text.size()));
  }
  // The next line starting with `prefix`, or nullopt on timeout or end of output.
  std::optional<std::string> Expect(const std::string& prefix, milliseconds timeout) {
    auto deadline = Clock::now() + timeout;
    while (true) {
      size_t nl;
      while ((nl = buffer_.find('\n')) != std::string::npos) {
        std::string line = buffer_.substr(0, nl);
        buffer_.erase(0, nl + 1);
        if (absl::StartsWith(line, prefix)) return line;
      }
      auto left = std::chrono::duration_cast<milliseconds>(deadline - Clock::now());
      if (left.count() <= 0) return std::nullopt;
      pollfd p{read_fd_, POLLIN, 0};
      if (poll(&p, 1, int(left.count())) <= 0) return std::nullopt;
      char chunk[4096];
      ssize_t n = read(read_fd_, chunk, sizeof chunk);
      if (n <= 0) return std::nullopt;
      buffer_.append(chunk, size_t(n));
    }
  }
  // Closes the child's input and waits for it to exit; returns its exit status.
  int CloseAndWait(milliseconds timeout) {
    close(write_fd_);
    write_fd_ = -1;
    auto deadline = Clock::now() + timeout;
    int status = 0;
    while (Clock::now() < deadline) {
      if (waitpid(pid_, &status, WNOHANG) == pid_) {
        pid_ = -1;
        return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      }
      std::this_thread::sleep_for(milliseconds(10));
    }
    return -2;  // still running
  }

 private:
  pid_t pid_ = -1;
  int write_fd_ = -1;
  int read_fd_ = -1;
  std::string buffer_;
};

TEST(UsiEngineBinaryTest, HandshakeAndOneMateThroughPipes) {
  const std::string binary = TSUME_BINARY_DIR "/tsume";
  if (access(binary.c_str(), X_OK) != 0) GTEST_SKIP() << binary << " not built";
  std::signal(SIGPIPE, SIG_IGN);  // a dead child must fail the test, not kill it
  ChildProcess child;
  ASSERT_TRUE(child.Start(binary, {"usi"}));
  child.Send("usi");
  std::optional<std::string> id = child.Expect("id name", kAnswerTimeout);
  ASSERT_TRUE(id.has_value()) << "no USI handshake: is `usi` wired into tools/main.cc?";
  EXPECT_EQ(*id, ExpectedIdName());
  ASSERT_TRUE(child.Expect("usiok", kAnswerTimeout).has_value());
  child.Send("setoption name USI_Hash value 16");
  child.Send("isready");
  ASSERT_TRUE(child.Expect("readyok", kAnswerTimeout).has_value());
  child.Send(std::string("position sfen ") + kMate3);
  child.Send("go mate 10000");
  std::optional<std::string> answer = child.Expect("checkmate", kAnswerTimeout);
  ASSERT_TRUE(answer.has_value());
  ExpectMatingLine(kMate3, CheckmateMoves(*answer), 3);
  child.Send("quit");
  EXPECT_EQ(child.CloseAndWait(milliseconds(5000 * kSlowdown)), 0);
}

}  // namespace
}  // namespace tsume
