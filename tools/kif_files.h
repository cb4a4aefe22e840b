// KIF records written as files, one per problem, in the encoding the KIF format gives a .kif
// file (Shift-JIS), so that any shogi GUI opens them: `--kif-dir DIR` of solve and verify.
#ifndef TSUME_TOOLS_KIF_FILES_H_
#define TSUME_TOOLS_KIF_FILES_H_

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "tools/cli_args.h"

namespace tsume {

// The file name a problem's id gives: the id with the characters that file systems refuse or
// treat specially (/ \ : * ? " < > |, spaces, control characters) as '_'; "problem" for an
// empty id. Other characters, Japanese ones included, are kept. A long id keeps its last 200
// bytes (its end tells the problems of one file apart).
std::string KifFileStem(absl::string_view id);

// The file names (without ".kif") of a run's problems, given their ids in input order: each
// id's KifFileStem, a repeated one with "-2", "-3"... in input order. Named before anything
// runs, so that a problem's file does not depend on the order the records are finished in
// (several jobs, second tries) nor on which problems --resume or --shard leave out.
std::vector<std::string> KifFileNames(const std::vector<std::string>& ids);

// KifFileNames of the problems' ids (problems of any kind with an `id` string), in their order.
template <typename WithId>
std::vector<std::string> KifFileNamesOf(const std::vector<WithId>& problems) {
  std::vector<std::string> ids;
  ids.reserve(problems.size());
  for (const WithId& problem : problems) ids.push_back(problem.id);
  return KifFileNames(ids);
}

// A directory that receives one KIF record per problem.
class KifDirectory {
 public:
  // Makes the directory (and its parents) if missing. An error names the path and the reason.
  static absl::StatusOr<KifDirectory> Open(const std::string& path);

  // Writes `record` (UTF-8) to <dir>/<name>.kif in Shift-JIS, replacing a file of that name;
  // `name` is one of KifFileNames. Returns the path written, or an error naming it.
  absl::StatusOr<std::string> Write(absl::string_view name, absl::string_view record) const;

 private:
  explicit KifDirectory(std::filesystem::path dir) : dir_(std::move(dir)) {}
  std::filesystem::path dir_;
};

// The --kif-dir flag of solve and verify: its directory, made if missing, or nothing when the
// flag is not given. An error starts "flag --kif-dir: ".
absl::StatusOr<std::optional<KifDirectory>> KifDirectoryFromFlag(const CliArgs& args);

}  // namespace tsume

#endif  // TSUME_TOOLS_KIF_FILES_H_
