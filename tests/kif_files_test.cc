// KIF records as files: file names from problem ids, one file per problem, in Shift-JIS.
#include "tools/kif_files.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "absl/strings/match.h"
#include "problems/collection.h"

namespace tsume {
namespace {

std::string ReadBytes(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  std::stringstream bytes;
  bytes << file.rdbuf();
  return bytes.str();
}

std::string TempDir(const std::string& name) {
  std::string dir = ::testing::TempDir() + "kif_files_" + std::to_string(getpid()) + "_" + name;
  std::filesystem::remove_all(dir);
  return dir;
}

TEST(KifFileStemTest, KeepsWhatFileSystemsTake) {
  EXPECT_EQ(KifFileStem("zukou-001"), "zukou-001");
  EXPECT_EQ(KifFileStem("mate3.txt:15"), "mate3.txt_15");
  EXPECT_EQ(KifFileStem("dir/a b\\c*?\"<>|\t"), "dir_a_b_c_______");
  EXPECT_EQ(KifFileStem("寿"), "寿");
  EXPECT_EQ(KifFileStem(""), "problem");
  EXPECT_EQ(KifFileStem(".."), "problem");
  // A long id (a deep path and a line) keeps its end, cut where a character starts.
  std::string deep;
  for (int i = 0; i < 40; ++i) deep += "/詰将棋";  // 10 bytes each
  std::string stem = KifFileStem(deep + "/a.kif:15");
  EXPECT_LE(stem.size(), 200u);
  EXPECT_GE(stem.size(), 190u);
  EXPECT_TRUE(absl::EndsWith(stem, "_詰将棋_a.kif_15")) << stem;
  EXPECT_NE(static_cast<unsigned char>(stem[0]) & 0xC0, 0x80) << "starts inside a character";
}

TEST(KifFileNamesTest, NumbersRepeatedNamesInInputOrder) {
  EXPECT_THAT(KifFileNames({"a:1", "b", "a:1", "a:1-2", "a:1"}),
              testing::ElementsAre("a_1", "b", "a_1-2", "a_1-2-2", "a_1-3"));
  // Ids that differ only where a file system refuses a character get one stem.
  EXPECT_THAT(KifFileNames({"x y", "x/y", "x_y"}), testing::ElementsAre("x_y", "x_y-2", "x_y-3"));
  EXPECT_THAT(KifFileNames({}), testing::IsEmpty());
}

TEST(KifDirectoryTest, WritesOneFilePerProblemInShiftJis) {
  const std::string dir = TempDir("write") + "/nested";
  absl::StatusOr<KifDirectory> kifs = KifDirectory::Open(dir);
  ASSERT_TRUE(kifs.ok()) << kifs.status();
  absl::StatusOr<std::string> first = kifs->Write("a_1", "まで1手で詰み\n");
  absl::StatusOr<std::string> second = kifs->Write("a_1-2", "まで3手で詰み\n");
  ASSERT_TRUE(first.ok() && second.ok());
  EXPECT_EQ(*first, dir + "/a_1.kif");
  EXPECT_EQ(*second, dir + "/a_1-2.kif");
  EXPECT_EQ(ReadBytes(*first), *EncodeShiftJis("まで1手で詰み\n"));
  EXPECT_EQ(ReadBytes(*second), *EncodeShiftJis("まで3手で詰み\n"));
  // A later run replaces the files.
  absl::StatusOr<KifDirectory> later = KifDirectory::Open(dir);
  ASSERT_TRUE(later.ok());
  ASSERT_TRUE(later->Write("a_1", "y\n").ok());
  EXPECT_EQ(ReadBytes(*first), "y\n");
  std::filesystem::remove_all(TempDir("write"));
}

TEST(KifDirectoryTest, AFileInTheWayIsAnErrorNamingThePath) {
  const std::string file = TempDir("in_the_way");
  std::ofstream(file) << "x";
  absl::StatusOr<KifDirectory> kifs = KifDirectory::Open(file);
  ASSERT_FALSE(kifs.ok());
  EXPECT_THAT(kifs.status().message(), testing::HasSubstr("'" + file + "'"));
  std::filesystem::remove(file);
}

}  // namespace
}  // namespace tsume
