// KIF records written as files, one per problem, in the encoding the KIF format gives a .kif
// file (Shift-JIS), so that any shogi GUI opens them: `--kif-dir DIR` of solve and verify.
#ifndef TSUME_TOOLS_KIF_FILES_H_
#define TSUME_TOOLS_KIF_FILES_H_

#include <filesystem>
#include <optional>
#include <string>

#include "absl/container/flat_hash_set.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tools/cli_args.h"

namespace tsume {

// The file name a problem's id gives: the id with the characters that file systems refuse or
// treat specially (/ \ : * ? " < > |, spaces, control characters) as '_'; "problem" for an
// empty id. Other characters, Japanese ones included, are kept. A long id keeps its last 200
// bytes (its end tells the problems of one file apart).
std::string KifFileStem(absl::string_view id);

// A directory that receives one KIF record per problem.
class KifDirectory {
 public:
  // Makes the directory (and its parents) if missing. An error names the path and the reason.
  static absl::StatusOr<KifDirectory> Open(const std::string& path);

  // Writes `record` (UTF-8) to <dir>/<KifFileStem(id)>.kif in Shift-JIS, replacing a file of
  // that name; an id met before in this run gets "-2", "-3"... Returns the path written, or an
  // error naming it.
  absl::StatusOr<std::string> Write(absl::string_view id, absl::string_view record);

 private:
  explicit KifDirectory(std::filesystem::path dir) : dir_(std::move(dir)) {}
  std::filesystem::path dir_;
  absl::flat_hash_set<std::string> used_;
};

// The --kif-dir flag of solve and verify: its directory, made if missing, or nothing when the
// flag is not given. An error starts "flag --kif-dir: ".
absl::StatusOr<std::optional<KifDirectory>> KifDirectoryFromFlag(const CliArgs& args);

}  // namespace tsume

#endif  // TSUME_TOOLS_KIF_FILES_H_
