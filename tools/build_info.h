// What this program is and what it runs on: its version (the source tree's commit when it was
// built), how it was built, and the CPU. For `tsume --version`, the USI engine's name and the
// records of benchmark runs: one search runs at very different speeds on different CPUs and
// builds (寿: 6.5 s on one host of this project's VM, 12.4 s on another).
#ifndef TSUME_TOOLS_BUILD_INFO_H_
#define TSUME_TOOLS_BUILD_INFO_H_

#include <string>

#include "nlohmann/json.hpp"

namespace tsume {

// `git describe` of the tree built: "5af5422", "5af5422-dirty" with uncommitted changes,
// "unknown" when it was built outside a git checkout.
std::string Version();

// The compiler, build type and the CPU-dependent choices: "GCC 12.2.0, Release, tuned for
// the building CPU (-march=native), slider attacks by rays".
std::string BuildDescription();

// The CPU this process runs on, from /proc/cpuinfo: "AMD EPYC, 2 threads" ("unknown CPU"
// where it cannot be read).
std::string HostDescription();

// `tsume --version`: "tsume VERSION", then "built with ..." and "running on ..." lines.
std::string VersionText();

// The same on one line, for the summaries of batch and verify: "tsume VERSION (BUILD) on HOST".
std::string RunContextText();
// And as JSON: {"version", "build", "cpu"}.
nlohmann::ordered_json RunContextJson();

}  // namespace tsume

#endif  // TSUME_TOOLS_BUILD_INFO_H_
