#include "tools/build_info.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <string>
#include <vector>

#include "absl/strings/match.h"
#include "absl/strings/str_split.h"
#include "core/bitboard.h"
#include "gmock/gmock.h"
#include "gtest/gtest.h"

namespace tsume {
namespace {

using ::testing::MatchesRegex;

TEST(BuildInfoTest, VersionIsACommitNameOrUnknown) {
  // Built from this project's checkout, the version is `git describe` of it.
  EXPECT_THAT(Version(), MatchesRegex("unknown|[A-Za-z0-9._+-]*[0-9a-f]{7}(-dirty)?"));
}

TEST(BuildInfoTest, BuildDescriptionNamesTheSliderAttacksThisBuildUses) {
  std::string build = BuildDescription();
#ifdef TSUME_PEXT_SLIDERS
  EXPECT_THAT(build, ::testing::EndsWith("slider attacks by PEXT"));
#else
  EXPECT_THAT(build, ::testing::EndsWith("slider attacks by rays"));
#endif
  EXPECT_TRUE(absl::StartsWith(build, "GCC ") || absl::StartsWith(build, "Clang ")) << build;
}

TEST(BuildInfoTest, HostDescriptionNamesTheCpuAndItsThreads) {
  std::string host = HostDescription();
  EXPECT_FALSE(host.empty());
  EXPECT_THAT(host, MatchesRegex(".+, [0-9]+ threads?")) << host;
}

TEST(BuildInfoTest, TheProgramPrintsItsVersion) {
  const std::string binary = TSUME_BINARY_DIR "/tsume";
  if (access(binary.c_str(), X_OK) != 0) GTEST_SKIP() << binary << " not built";
  for (const char* flag : {"--version", "version"}) {
    FILE* out = popen((binary + " " + flag).c_str(), "r");
    ASSERT_NE(out, nullptr);
    std::string text;
    char buffer[256];
    while (size_t n = fread(buffer, 1, sizeof buffer, out)) text.append(buffer, n);
    int status = pclose(out);
    ASSERT_TRUE(WIFEXITED(status));
    EXPECT_EQ(WEXITSTATUS(status), 0) << flag;
    std::vector<std::string> lines = absl::StrSplit(text, '\n');
    ASSERT_EQ(lines.size(), 4u) << text;  // three lines and the empty rest after the last
    EXPECT_EQ(lines[0], "tsume " + Version());
    EXPECT_EQ(lines[1], "built with " + BuildDescription());
    EXPECT_EQ(lines[2], "running on " + HostDescription());
  }
}

}  // namespace
}  // namespace tsume
