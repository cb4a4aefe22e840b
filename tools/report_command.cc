#include <fstream>
#include <iostream>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "tools/cli_args.h"
#include "tools/commands.h"
#include "tools/report.h"
#include "tools/solve_output.h"

namespace tsume {
namespace {

constexpr char kReportHelp[] =
    "usage: tsume report RESULTS.jsonl [BASELINE.jsonl] [--html FILE] [--json]\n"
    "Summarises batch results by stated mate length; with a baseline, compares the runs\n"
    "problem by problem. --json prints one JSON object; --html FILE also writes a\n"
    "self-contained HTML page with the tables and plots. Malformed lines are reported as\n"
    "FILE:LINE and skipped (exit status 2 at the end).\n";

}  // namespace

int RunReport(const CommandArgs& args, std::ostream& out, std::ostream& err) {
  absl::StatusOr<CliArgs> parsed = CliArgs::Parse(args, {"html"}, {"json"});
  if (!parsed.ok()) {
    err << "tsume report: " << parsed.status().message() << "\n";
    return kExitUsage;
  }
  if (parsed->Has("help")) {
    out << kReportHelp;
    return kExitOk;
  }
  const auto& files = parsed->positional();
  if (files.empty() || files.size() > 2) {
    err << "tsume report: expected RESULTS.jsonl and optionally BASELINE.jsonl\n";
    return kExitUsage;
  }
  if (files.size() == 2 && files[0] == "-" && files[1] == "-") {
    err << "tsume report: only one of the files can be stdin\n";
    return kExitUsage;
  }
  std::vector<RunResults> runs;
  bool bad_input = false;
  for (const std::string& path : files) {
    absl::StatusOr<RunResults> run = LoadResults(path);
    if (!run.ok()) {
      err << "tsume report: " << run.status().message() << "\n";
      return kExitUsage;
    }
    for (const std::string& message : run->bad_lines) err << message << "\n";
    bad_input |= !run->bad_lines.empty();
    // A problem written twice (overlapping shards, a file concatenated twice) counts twice:
    // said, as the figures then hold it twice.
    std::set<std::pair<std::string, std::string>> seen;
    int repeats = 0;
    std::string first_repeat;
    for (const ProblemResult& p : run->problems) {
      if (seen.insert({p.id, NormalSource(p.source)}).second) continue;
      if (repeats++ == 0) first_repeat = p.id.empty() ? p.source : p.id;
    }
    if (repeats > 0) {
      err << "tsume report: warning: " << path << ": " << repeats
          << " result(s) repeat a problem already in the file (same id and source; the first: "
          << first_repeat << "); each is counted\n";
    }
    runs.push_back(*std::move(run));
  }
  const RunResults& results = runs[0];
  const RunResults* baseline = runs.size() > 1 ? &runs[1] : nullptr;

  if (parsed->Has("json")) {
    auto run_json = [](const RunResults& run) {
      Summary summary = Summarize(run);
      return nlohmann::json{{"path", run.path},
                            {"problems", run.problems.size()},
                            {"bad_lines", run.bad_lines.size()},
                            {"summary", SummaryToJson(summary)},
                            {"node_split", NodeSplitToJson(summary)},
                            {"verify", VerdictsToJson(summary)}};
    };
    nlohmann::json j = {{"results", run_json(results)}};
    if (baseline) {
      j["baseline"] = run_json(*baseline);
      j["comparison"] = ComparisonToJson(Compare(results, *baseline));
    }
    out << JsonLine(j) << "\n";
  } else {
    out << "results: " << results.path << " (" << results.problems.size() << " problems)\n"
        << FormatSummaryText(Summarize(results));
    if (baseline) {
      out << "\nbaseline: " << baseline->path << " (" << baseline->problems.size() << " problems)\n"
          << FormatSummaryText(Summarize(*baseline)) << "\n"
          << FormatComparisonText(Compare(results, *baseline));
    }
  }

  if (parsed->Has("html")) {
    std::string html_path = parsed->Get("html");
    std::ofstream html(html_path, std::ios::binary | std::ios::trunc);
    html << RenderHtml(results, baseline);
    html.close();
    if (!html) {
      err << "tsume report: cannot write " << html_path << "\n";
      return kExitUsage;
    }
  }
  return bad_input ? kExitUsage : kExitOk;
}

}  // namespace tsume
