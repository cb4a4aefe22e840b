#include "tools/kif_files.h"

#include <iconv.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>
#include <utility>

#include "absl/status/status.h"
#include "absl/strings/str_cat.h"

namespace tsume {
namespace {

// The length of the UTF-8 sequence that starts with `lead` (1 for a byte that starts none).
size_t Utf8SequenceLength(unsigned char lead) {
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  if (lead >= 0xE0) return lead <= 0xEF ? 3 : 1;
  if (lead >= 0xC2) return 2;
  return 1;
}

}  // namespace

std::string Utf8ToShiftJis(absl::string_view utf8) {
  std::string out;
  iconv_t cd = iconv_open("CP932", "UTF-8");
  if (cd == iconv_t(-1)) {
    // No converter (a minimal C library): ASCII passes, the rest is lost.
    for (char c : utf8) out.push_back(static_cast<unsigned char>(c) < 0x80 ? c : '?');
    return out;
  }
  std::string in(utf8);
  char* in_ptr = in.data();
  size_t in_left = in.size();
  char buffer[4096];
  while (in_left > 0) {
    char* out_ptr = buffer;
    size_t out_left = sizeof(buffer);
    size_t r = iconv(cd, &in_ptr, &in_left, &out_ptr, &out_left);
    out.append(buffer, out_ptr - buffer);
    if (r != size_t(-1) || errno == E2BIG) continue;
    // EILSEQ (no code, or not UTF-8) or EINVAL (cut short at the end): one '?' for the
    // character, and on after it.
    out.push_back('?');
    size_t skip = std::min(in_left, Utf8SequenceLength(static_cast<unsigned char>(*in_ptr)));
    in_ptr += skip;
    in_left -= skip;
  }
  iconv_close(cd);
  return out;
}

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

absl::StatusOr<std::string> KifDirectory::Write(absl::string_view id, absl::string_view record) {
  std::string stem = KifFileStem(id);
  std::string name = stem;
  for (int n = 2; !used_.insert(name).second; ++n) name = absl::StrCat(stem, "-", n);
  std::string path = (dir_ / (name + ".kif")).string();
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (file) file << Utf8ToShiftJis(record);
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
