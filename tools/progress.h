// Terminal progress lines and Ctrl-C handling for long commands.
#ifndef TSUME_TOOLS_PROGRESS_H_
#define TSUME_TOOLS_PROGRESS_H_

#include <atomic>
#include <iosfwd>
#include <string>

#include "solver/solver.h"

namespace tsume {

// A single self-overwriting status line on a terminal; silent when the stream is not a
// terminal (piped or redirected), so logs stay clean.
class ProgressLine {
 public:
  explicit ProgressLine(std::ostream& out);
  ~ProgressLine();
  bool enabled() const { return enabled_; }
  void Show(const std::string& text);
  void Clear();

 private:
  std::ostream& out_;
  bool enabled_;
  bool shown_ = false;
};

// While alive, the first Ctrl-C (SIGINT) sets a flag instead of killing the process, so the
// current search ends and what is known gets printed; a second Ctrl-C kills as usual.
class StopOnInterrupt {
 public:
  StopOnInterrupt();
  ~StopOnInterrupt();
  const std::atomic<bool>* flag() const;
  bool interrupted() const;
};

std::string FormatProgress(const SearchProgress& p);

}  // namespace tsume

#endif  // TSUME_TOOLS_PROGRESS_H_
