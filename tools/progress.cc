#include "tools/progress.h"

#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <iostream>

#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "core/position.h"

namespace tsume {
namespace {

// The one process-wide flag a signal handler may touch.
std::atomic<bool> g_interrupted{false};

void OnInterrupt(int) {
  g_interrupted.store(true);
  std::signal(SIGINT, SIG_DFL);
}

}  // namespace

ProgressLine::ProgressLine(std::ostream& out)
    : out_(out),
      enabled_(&out == &std::cerr ? isatty(STDERR_FILENO)
                                  : &out == &std::cout && isatty(STDOUT_FILENO)) {}

ProgressLine::~ProgressLine() { Clear(); }

void ProgressLine::Show(const std::string& text) {
  if (!enabled_) return;
  out_ << "\r\033[K" << text << std::flush;
  shown_ = true;
}

void ProgressLine::Clear() {
  if (!enabled_ || !shown_) return;
  out_ << "\r\033[K" << std::flush;
  shown_ = false;
}

StopOnInterrupt::StopOnInterrupt() {
  g_interrupted.store(false);
  std::signal(SIGINT, OnInterrupt);
}

StopOnInterrupt::~StopOnInterrupt() { std::signal(SIGINT, SIG_DFL); }

const std::atomic<bool>* StopOnInterrupt::flag() const { return &g_interrupted; }

bool StopOnInterrupt::interrupted() const { return g_interrupted.load(); }

std::string FormatProgress(const SearchProgress& p) {
  double seconds = absl::ToDoubleSeconds(p.elapsed);
  std::string line =
      absl::StrFormat("nodes %d  nps %.0f  hash %.1f%%  %.1fs", p.nodes,
                      seconds > 0 ? p.nodes / seconds : 0.0, p.hashfull * 100, seconds);
  if (p.no_mate_within > 0) absl::StrAppendFormat(&line, "  none within %d", p.no_mate_within);
  if (p.mate_length > 0) absl::StrAppendFormat(&line, "  mate %d", p.mate_length);
  if (!p.pv.empty()) {
    // The start of the line: the whole of a long one would not fit on a terminal line.
    constexpr size_t kShownMoves = 8;
    absl::StrAppend(&line, "  pv");
    for (size_t i = 0; i < std::min(p.pv.size(), kShownMoves); ++i) {
      absl::StrAppend(&line, " ", ToUsi(p.pv[i]));
    }
    if (p.pv.size() > kShownMoves) absl::StrAppend(&line, " ...");
  }
  return line;
}

}  // namespace tsume
