#include "tools/kif_files.h"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>
#include <utility>

#include "absl/container/flat_hash_set.h"
#include "absl/status/status.h"
#include "absl/strings/str_cat.h"
#include "problems/collection.h"

namespace tsume {

std::string KifFileStem(absl::string_view id) {
  std::string stem;
  for (char c : id) {
    unsigned char u = static_cast<unsigned char>(c);
    bool refused = u < 0x20 || u == 0x7F || c == ' ' || std::strchr("/\\:*?\"<>|", c) != nullptr;
    stem.push_back(refused ? '_' : c);
  }
  // File systems take names of up to 255 bytes, the ".kif" and a "-N" included: the id's end,
  // which tells problems of one file apart ("...:15"), is kept, cut at a character's start.
  constexpr size_t kMaxStem = 200;
  if (stem.size() > kMaxStem) {
    size_t from = stem.size() - kMaxStem;
    while (from < stem.size() && (static_cast<unsigned char>(stem[from]) & 0xC0) == 0x80) ++from;
    stem.erase(0, from);
  }
  // "." and ".." name directories.
  if (stem.empty() || stem == "." || stem == "..") stem = "problem";
  return stem;
}

absl::StatusOr<KifDirectory> KifDirectory::Open(const std::string& path) {
  std::error_code error;
  std::filesystem::create_directories(path, error);
  if (error || !std::filesystem::is_directory(path, error)) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot make the directory '", path, "'",
                     error ? absl::StrCat(": ", error.message()) : ": a file has that name"));
  }
  return KifDirectory(path);
}

std::vector<std::string> KifFileNames(const std::vector<std::string>& ids) {
  std::vector<std::string> names;
  names.reserve(ids.size());
  absl::flat_hash_set<std::string> used;
  for (const std::string& id : ids) {
    std::string stem = KifFileStem(id);
    std::string name = stem;
    for (int n = 2; !used.insert(name).second; ++n) name = absl::StrCat(stem, "-", n);
    names.push_back(std::move(name));
  }
  return names;
}

absl::StatusOr<std::string> KifDirectory::Write(absl::string_view name,
                                                absl::string_view record) const {
  std::string path = (dir_ / absl::StrCat(name, ".kif")).string();
  absl::StatusOr<std::string> bytes = EncodeShiftJis(record);
  if (!bytes.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot write '", path, "': ", bytes.status().message()));
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (file) file << *bytes;
  file.close();
  if (!file) {
    return absl::InvalidArgumentError(
        absl::StrCat("cannot write '", path, "': ", std::strerror(errno)));
  }
  return path;
}

absl::StatusOr<std::optional<KifDirectory>> KifDirectoryFromFlag(const CliArgs& args) {
  if (!args.Has("kif-dir")) return std::nullopt;
  absl::StatusOr<KifDirectory> opened = KifDirectory::Open(args.Get("kif-dir"));
  if (!opened.ok()) {
    return absl::InvalidArgumentError(absl::StrCat("flag --kif-dir: ", opened.status().message()));
  }
  return std::optional<KifDirectory>(std::move(*opened));
}

}  // namespace tsume
