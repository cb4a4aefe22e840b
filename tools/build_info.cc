#include "tools/build_info.h"

#include <fstream>
#include <string>
#include <thread>

#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/strip.h"
#include "core/bitboard.h"

namespace tsume {
namespace build_info_internal {
extern const char kVersion[];  // generated at build time (tools/version.cmake)
}  // namespace build_info_internal

std::string Version() { return build_info_internal::kVersion; }

std::string BuildDescription() {
#if defined(__clang__)
  std::string compiler =
      absl::StrCat("Clang ", __clang_major__, ".", __clang_minor__, ".", __clang_patchlevel__);
#elif defined(__GNUC__)
  std::string compiler =
      absl::StrCat("GCC ", __GNUC__, ".", __GNUC_MINOR__, ".", __GNUC_PATCHLEVEL__);
#else
  std::string compiler = "an unknown compiler";
#endif
  std::string type = TSUME_BUILD_TYPE;
  std::string text = absl::StrCat(compiler, ", ", type.empty() ? "no build type" : type);
#if defined(__SANITIZE_ADDRESS__)
  absl::StrAppend(&text, ", AddressSanitizer");
#endif
  if (TSUME_BUILD_NATIVE) absl::StrAppend(&text, ", tuned for the building CPU (-march=native)");
#ifdef TSUME_PEXT_SLIDERS
  absl::StrAppend(&text, ", slider attacks by PEXT");
#else
  absl::StrAppend(&text, ", slider attacks by rays");
#endif
  return text;
}

std::string HostDescription() {
  std::string model;
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; model.empty() && std::getline(cpuinfo, line);) {
    if (!absl::StartsWith(line, "model name")) continue;
    if (size_t colon = line.find(':'); colon != std::string::npos) {
      model = std::string(absl::StripAsciiWhitespace(line.substr(colon + 1)));
    }
  }
  if (model.empty()) model = "unknown CPU";
  unsigned threads = std::thread::hardware_concurrency();
  if (threads == 0) return model;
  return absl::StrCat(model, ", ", threads, threads == 1 ? " thread" : " threads");
}

std::string VersionText() {
  return absl::StrCat("tsume ", Version(), "\nbuilt with ", BuildDescription(), "\nrunning on ",
                      HostDescription(), "\n");
}

std::string RunContextText() {
  return absl::StrCat("tsume ", Version(), " (", BuildDescription(), ") on ", HostDescription());
}

nlohmann::ordered_json RunContextJson() {
  nlohmann::ordered_json j;
  j["version"] = Version();
  j["build"] = BuildDescription();
  j["cpu"] = HostDescription();
  return j;
}

}  // namespace tsume
