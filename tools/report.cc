#include "tools/report.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <limits>
#include <map>
#include <sstream>

#include "absl/algorithm/container.h"
#include "absl/status/status.h"
#include "absl/strings/match.h"
#include "absl/strings/str_cat.h"
#include "absl/strings/str_format.h"
#include "absl/strings/str_join.h"
#include "solver/verify.h"

namespace tsume {
namespace {

using nlohmann::json;

// --- Parsing -------------------------------------------------------------------------------

absl::Status FieldError(const std::string& name, const std::string& what) {
  return absl::InvalidArgumentError(absl::StrCat("field \"", name, "\": ", what));
}

// Reads a string field; absent and null leave `out` untouched.
absl::Status ReadString(const json& j, const std::string& name, bool required, std::string* out) {
  auto it = j.find(name);
  if (it == j.end() || it->is_null()) {
    return required ? FieldError(name, "missing") : absl::OkStatus();
  }
  if (!it->is_string()) return FieldError(name, "expected a string");
  *out = it->get<std::string>();
  return absl::OkStatus();
}

// Bounds on what one result may claim, far past any real run (2^50 nodes are 18 years at 2M
// nodes/s; 10^12 ms are 31 years), so that sums, rates and plots stay finite numbers.
constexpr int64_t kMaxNodes = int64_t(1) << 50;
// The unsound problems the text summary lists (JSON and HTML list them all).
constexpr size_t kMaxUnsoundListed = 50;
// verify's verdicts, in the order the summary counts them.
const std::vector<std::string> kVerdicts = {"sound", "flawed", "not a mate", "unknown"};
constexpr double kMaxTimeMs = 1e12;

// a + b, held at INT64_MAX rather than overflowing (both non-negative).
int64_t SaturatingSum(int64_t a, int64_t b) {
  return b > std::numeric_limits<int64_t>::max() - a ? std::numeric_limits<int64_t>::max() : a + b;
}

// Reads an optional whole-number field in [min, max]; absent and null leave `out` untouched.
absl::Status ReadInt(const json& j, const std::string& name, int64_t min, int64_t max,
                     std::optional<int64_t>* out) {
  auto it = j.find(name);
  if (it == j.end() || it->is_null()) return absl::OkStatus();
  if (!it->is_number_integer()) return FieldError(name, "expected a whole number");
  // Unsigned values beyond int64 would wrap in get<int64_t>; check them as unsigned first.
  if (it->is_number_unsigned() && it->get<uint64_t>() > uint64_t(max)) {
    return FieldError(name, absl::StrCat("out of range ", min, "..", max));
  }
  int64_t v = it->get<int64_t>();
  if (v < min || v > max) return FieldError(name, absl::StrCat("out of range ", min, "..", max));
  *out = v;
  return absl::OkStatus();
}

// A mate's first_mate {length, nodes} and exact_passes [{result, nodes, ...}] into r.split;
// absent fields leave it unset.
absl::Status ReadNodeSplit(const json& j, ProblemResult& r) {
  auto first = j.find("first_mate");
  if (first == j.end() || first->is_null() || r.result != Outcome::kMate) return absl::OkStatus();
  if (!first->is_object()) return FieldError("first_mate", "expected an object");
  std::optional<int64_t> nodes;
  if (absl::Status s = ReadInt(*first, "nodes", 0, kMaxNodes, &nodes); !s.ok() || !nodes) {
    return FieldError("first_mate", "needs a whole number of nodes");
  }
  NodeSplit split;
  split.first_mate = *nodes;
  if (auto passes = j.find("exact_passes"); passes != j.end() && !passes->is_null()) {
    if (!passes->is_array()) return FieldError("exact_passes", "expected an array");
    for (const json& pass : *passes) {
      std::optional<int64_t> pass_nodes;
      std::string result;
      if (!pass.is_object() || !ReadInt(pass, "nodes", 0, kMaxNodes, &pass_nodes).ok() ||
          !pass_nodes || !ReadString(pass, "result", true, &result).ok()) {
        return FieldError("exact_passes", "each pass needs a result and a whole number of nodes");
      }
      int64_t& stage = result == "mate" ? split.shorter : split.no_shorter;
      stage = SaturatingSum(stage, *pass_nodes);
    }
  }
  r.split = split;
  return absl::OkStatus();
}

// A value from the file as an error quotes it: cut short, so the error stays a readable line.
std::string QuotedValue(const std::string& value) {
  constexpr size_t kShown = 40;
  return absl::StrCat("\"", value.size() > kShown ? value.substr(0, kShown) + "..." : value, "\"");
}

std::string ShortJsonMessage(const std::string& what) {
  // nlohmann prefixes "[json.exception.parse_error.101] "; the reader does not need it.
  size_t close = what.find("] ");
  return absl::StartsWith(what, "[json.exception") && close != std::string::npos
             ? what.substr(close + 2)
             : what;
}

// --- Statistics ----------------------------------------------------------------------------

// Where the mates' nodes went, as one sentence (empty when no line records a first mate): the
// exact length's cost beside the first mate's, which in long problems it dwarfs.
std::string NodeSplitSentence(const Summary& summary) {
  if (summary.split_problems == 0) return "";
  double total = double(std::max<int64_t>(summary.split_nodes, 1));
  const NodeSplit& s = summary.split;
  // In doubles: totals held at INT64_MAX (no real run) must not overflow here either.
  double rest =
      double(summary.split_nodes) - double(s.first_mate) - double(s.shorter) - double(s.no_shorter);
  return absl::StrFormat(
      "nodes of the %d mates: first mate %.1f%%, passes to shorter mates %.1f%%, passes finding "
      "none %.1f%%, reading lines out %.1f%%",
      summary.split_problems, 100 * s.first_mate / total, 100 * s.shorter / total,
      100 * s.no_shorter / total, 100 * rest / total);
}

// verify's verdicts and the kinds of flaws, as one line (empty when no line is verify's). A kind
// goes by its Japanese name, with the results' name after it: "余詰 (alternative_mate) 10".
std::string VerdictSentence(const Summary& summary) {
  if (summary.verdicts.empty()) return "";
  std::vector<std::string> verdicts, flaws;
  for (const auto& [verdict, count] : summary.verdicts) {
    verdicts.push_back(absl::StrCat(verdict, " ", count));
  }
  for (const auto& [kind, count] : summary.flaw_kinds) {
    std::string name = JapaneseNameOf(kind);
    flaws.push_back(name == kind ? absl::StrCat(kind, " ", count)
                                 : absl::StrCat(name, " (", kind, ") ", count));
  }
  std::string out = absl::StrCat("verdicts: ", absl::StrJoin(verdicts, ", "));
  if (!flaws.empty())
    absl::StrAppend(&out, "; problems with each flaw: ", absl::StrJoin(flaws, ", "));
  return out;
}

double Median(const std::vector<double>& sorted) {
  if (sorted.empty()) return 0;
  size_t n = sorted.size();
  return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

// Nearest-rank percentile of ascending `sorted`.
double Percentile(const std::vector<double>& sorted, double fraction) {
  if (sorted.empty()) return 0;
  size_t rank = size_t(std::ceil(fraction * double(sorted.size())));
  return sorted[std::clamp<size_t>(rank, 1, sorted.size()) - 1];
}

SummaryRow MakeRow(const std::string& label, const std::vector<const ProblemResult*>& problems) {
  SummaryRow row;
  row.label = label;
  std::vector<double> times;
  for (const ProblemResult* p : problems) {
    ++row.count;
    if (p->result == Outcome::kMate) ++row.solved;
    if (IsMatch(*p)) ++row.matches;
    if (IsWrong(*p)) ++row.wrong;
    if (p->result == Outcome::kUnknown) ++row.unknown;
    if (p->result == Outcome::kError) {
      ++row.errors;
      continue;
    }
    times.push_back(p->time_ms);
    row.total_nodes = SaturatingSum(row.total_nodes, p->nodes);
    row.total_ms += p->time_ms;
  }
  row.timed = int(times.size());
  if (!times.empty()) {
    std::sort(times.begin(), times.end());
    row.mean_ms = row.total_ms / double(times.size());
    row.median_ms = Median(times);
    row.p90_ms = Percentile(times, 0.9);
    row.max_ms = times.back();
  }
  if (row.total_ms > 0) {
    row.nodes_per_second = int64_t(std::min(double(row.total_nodes) * 1000.0 / row.total_ms,
                                            double(std::numeric_limits<int64_t>::max() / 2)));
  }
  return row;
}

std::string FormatMs(double ms) {
  if (ms < 1) return absl::StrFormat("%.3f", ms);
  if (ms < 100) return absl::StrFormat("%.2f", ms);
  if (ms < 10000) return absl::StrFormat("%.1f", ms);
  return absl::StrFormat("%.0f", ms);
}

std::vector<std::string> SummaryHeader() {
  return {"length", "count",   "solved",    "match",  "wrong",  "unknown",
          "errors", "mean_ms", "median_ms", "p90_ms", "max_ms", "nodes/s"};
}

std::vector<std::string> SummaryCells(const SummaryRow& r) {
  return {r.label,
          absl::StrCat(r.count),
          absl::StrCat(r.solved),
          absl::StrCat(r.matches),
          absl::StrCat(r.wrong),
          absl::StrCat(r.unknown),
          absl::StrCat(r.errors),
          FormatMs(r.mean_ms),
          FormatMs(r.median_ms),
          FormatMs(r.p90_ms),
          FormatMs(r.max_ms),
          absl::StrCat(r.nodes_per_second)};
}

// --- HTML helpers --------------------------------------------------------------------------

std::string Escape(const std::string& text) {
  std::string out;
  out.reserve(text.size());
  for (char c : text) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

std::string Num(double v) { return absl::StrFormat("%.1f", v); }

constexpr char kResultsColour[] = "#1f77b4";
constexpr char kBaselineColour[] = "#d62728";

struct PlotRun {
  std::string name;  // legend text
  std::string css_class;
  std::string colour;
  const RunResults* run;
};

// Plot frame: the SVG is kWidth x kHeight, the data area inset by the margins.
constexpr double kWidth = 760, kHeight = 440;
constexpr double kLeft = 78, kRight = 24, kTop = 24, kBottom = 56;
constexpr double kPlotW = kWidth - kLeft - kRight, kPlotH = kHeight - kTop - kBottom;

// Times below this plot on the axis floor (a log axis has no zero).
constexpr double kPlotFloorMs = 0.001;

// A log10 axis spanning whole decades that cover [lo, hi].
struct LogAxis {
  int first_decade = 0, last_decade = 1;
  static LogAxis Covering(double lo, double hi) {
    LogAxis axis;
    lo = std::max(lo, kPlotFloorMs);
    hi = std::max(hi, lo);
    axis.first_decade = int(std::floor(std::log10(lo) + 1e-9));
    axis.last_decade = int(std::ceil(std::log10(hi) - 1e-9));
    if (axis.last_decade <= axis.first_decade) axis.last_decade = axis.first_decade + 1;
    return axis;
  }
  // Position in [0, 1] along the axis.
  double Fraction(double ms) const {
    double v = std::log10(std::max(ms, kPlotFloorMs));
    return (v - first_decade) / double(last_decade - first_decade);
  }
};

std::string TimeLabel(int decade) {
  // Decades of milliseconds, printed in the unit that keeps them short.
  if (decade < 0) return absl::StrCat(std::lround(std::pow(10.0, decade + 3)), " µs");
  if (decade < 3) return absl::StrCat(std::lround(std::pow(10.0, decade)), " ms");
  return absl::StrCat(std::llround(std::pow(10.0, decade - 3)), " s");
}

// A "nice" step (1, 2 or 5 times a power of ten) giving at most about `max_ticks` ticks.
double NiceStep(double span, int max_ticks) {
  double raw = span / std::max(1, max_ticks);
  double power = std::pow(10.0, std::floor(std::log10(std::max(raw, 1e-9))));
  for (double m : {1.0, 2.0, 5.0}) {
    if (m * power >= raw) return m * power;
  }
  return 10 * power;
}

void OpenSvg(std::ostringstream& s, const std::string& css_class, const std::string& title) {
  s << "<svg class=\"" << css_class << "\" width=\"" << kWidth << "\" height=\"" << kHeight
    << "\" viewBox=\"0 0 " << kWidth << " " << kHeight << "\" role=\"img\" aria-label=\""
    << Escape(title) << "\">\n";
  s << "<rect x=\"" << kLeft << "\" y=\"" << kTop << "\" width=\"" << kPlotW << "\" height=\""
    << kPlotH << "\" class=\"frame\"/>\n";
}

void XTick(std::ostringstream& s, double x, const std::string& label) {
  s << "<line class=\"grid\" x1=\"" << Num(x) << "\" y1=\"" << kTop << "\" x2=\"" << Num(x)
    << "\" y2=\"" << kTop + kPlotH << "\"/>"
    << "<line class=\"tick\" x1=\"" << Num(x) << "\" y1=\"" << kTop + kPlotH << "\" x2=\"" << Num(x)
    << "\" y2=\"" << kTop + kPlotH + 5 << "\"/>"
    << "<text class=\"xtick\" x=\"" << Num(x) << "\" y=\"" << kTop + kPlotH + 18 << "\">"
    << Escape(label) << "</text>\n";
}

void YTick(std::ostringstream& s, double y, const std::string& label) {
  s << "<line class=\"grid\" x1=\"" << kLeft << "\" y1=\"" << Num(y) << "\" x2=\"" << kLeft + kPlotW
    << "\" y2=\"" << Num(y) << "\"/>"
    << "<line class=\"tick\" x1=\"" << kLeft - 5 << "\" y1=\"" << Num(y) << "\" x2=\"" << kLeft
    << "\" y2=\"" << Num(y) << "\"/>"
    << "<text class=\"ytick\" x=\"" << kLeft - 8 << "\" y=\"" << Num(y + 4) << "\">"
    << Escape(label) << "</text>\n";
}

void AxisLabels(std::ostringstream& s, const std::string& x_label, const std::string& y_label) {
  s << "<text class=\"axis-label\" x=\"" << Num(kLeft + kPlotW / 2) << "\" y=\"" << kHeight - 12
    << "\">" << Escape(x_label) << "</text>\n";
  double y_mid = kTop + kPlotH / 2;
  s << "<text class=\"axis-label\" x=\"18\" y=\"" << Num(y_mid) << "\" transform=\"rotate(-90 18 "
    << Num(y_mid) << ")\">" << Escape(y_label) << "</text>\n";
}

void Legend(std::ostringstream& s, const std::vector<PlotRun>& runs, bool lines) {
  s << "<g class=\"legend\">\n";
  // A pale box keeps the entries readable over the data beneath.
  size_t longest = 0;
  for (const PlotRun& r : runs) longest = std::max(longest, r.name.size());
  s << "<rect class=\"legend-box\" x=\"" << kLeft + 6 << "\" y=\"" << kTop + 4 << "\" width=\""
    << Num(34 + 6.6 * double(longest)) << "\" height=\"" << 18 * runs.size() + 6 << "\"/>\n";
  double y = kTop + 16;
  for (const PlotRun& r : runs) {
    double x = kLeft + 12;
    if (lines) {
      s << "<line x1=\"" << x << "\" y1=\"" << y - 4 << "\" x2=\"" << x + 18 << "\" y2=\"" << y - 4
        << "\" stroke=\"" << r.colour << "\" stroke-width=\"2.5\"/>";
    } else {
      s << "<circle cx=\"" << x + 9 << "\" cy=\"" << y - 4 << "\" r=\"4\" fill=\"" << r.colour
        << "\"/>";
    }
    s << "<text class=\"legend-entry\" x=\"" << x + 24 << "\" y=\"" << y << "\">" << Escape(r.name)
      << "</text>\n";
    y += 18;
  }
  s << "</g>\n";
}

std::vector<double> SolvedTimes(const RunResults& run) {
  std::vector<double> times;
  for (const ProblemResult& p : run.problems) {
    if (p.result == Outcome::kMate) times.push_back(p.time_ms);
  }
  std::sort(times.begin(), times.end());
  return times;
}

void NoDataNote(std::ostringstream& s) {
  s << "<text class=\"axis-label\" x=\"" << Num(kLeft + kPlotW / 2) << "\" y=\""
    << Num(kTop + kPlotH / 2) << "\">no solved problems</text>\n";
}

// Solve time (log) against found mate length, one colour per run. Runs are nudged sideways so
// the same length in two runs does not overprint.
std::string ScatterPlot(const std::vector<PlotRun>& runs) {
  int min_len = 0, max_len = 0;
  double min_ms = 0, max_ms = 0;
  size_t points = 0;
  for (const PlotRun& r : runs) {
    for (const ProblemResult& p : r.run->problems) {
      if (p.result != Outcome::kMate) continue;
      if (points++ == 0) {
        min_len = max_len = p.length;
        min_ms = max_ms = p.time_ms;
      }
      min_len = std::min(min_len, p.length);
      max_len = std::max(max_len, p.length);
      min_ms = std::min(min_ms, p.time_ms);
      max_ms = std::max(max_ms, p.time_ms);
    }
  }
  std::ostringstream s;
  OpenSvg(s, "plot scatter", "solve time against mate length");
  double x_lo = std::max(0, min_len - 1), x_hi = max_len + 1;
  LogAxis y_axis = LogAxis::Covering(points ? min_ms : 1, points ? max_ms : 1000);
  auto px = [&](double len) { return kLeft + (len - x_lo) / (x_hi - x_lo) * kPlotW; };
  auto py = [&](double ms) { return kTop + kPlotH - y_axis.Fraction(ms) * kPlotH; };
  double step = std::max(1.0, NiceStep(x_hi - x_lo, 12));
  for (double t = std::ceil(x_lo / step) * step; t <= x_hi + 1e-9; t += step) {
    XTick(s, px(t), absl::StrCat(int64_t(t)));
  }
  for (int d = y_axis.first_decade; d <= y_axis.last_decade; ++d) {
    YTick(s, py(std::pow(10.0, d)), TimeLabel(d));
  }
  AxisLabels(s, "mate length (plies)", "solve time (log scale)");
  if (points == 0) NoDataNote(s);
  // Tooltips cost ~50 bytes a point; keep them for pages a browser opens comfortably.
  bool titles = points <= 5000;
  double nudge = runs.size() > 1 ? 0.15 * std::min(1.0, 20.0 / (x_hi - x_lo)) : 0;
  for (size_t i = 0; i < runs.size(); ++i) {
    const PlotRun& r = runs[i];
    double offset = (double(i) - double(runs.size() - 1) / 2) * 2 * nudge;
    s << "<g class=\"points " << r.css_class << "\" fill=\"" << r.colour
      << "\" fill-opacity=\"0.55\">\n";
    for (const ProblemResult& p : r.run->problems) {
      if (p.result != Outcome::kMate) continue;
      s << "<circle cx=\"" << Num(px(p.length + offset)) << "\" cy=\"" << Num(py(p.time_ms))
        << "\" r=\"2.5\"";
      if (titles) {
        s << "><title>" << Escape(p.id.empty() ? p.source : p.id) << ": " << p.length << " plies, "
          << FormatMs(p.time_ms) << " ms</title></circle>\n";
      } else {
        s << "/>\n";
      }
    }
    s << "</g>\n";
  }
  Legend(s, runs, /*lines=*/false);
  s << "</svg>\n";
  return s.str();
}

// Cumulative number of problems solved against time (log), one step curve per run.
std::string CactusPlot(const std::vector<PlotRun>& runs) {
  std::vector<std::vector<double>> times;
  double min_ms = 0, max_ms = 0;
  size_t most_solved = 0;
  bool any = false;
  for (const PlotRun& r : runs) {
    times.push_back(SolvedTimes(*r.run));
    const std::vector<double>& t = times.back();
    if (t.empty()) continue;
    min_ms = any ? std::min(min_ms, t.front()) : t.front();
    max_ms = any ? std::max(max_ms, t.back()) : t.back();
    most_solved = std::max(most_solved, t.size());
    any = true;
  }
  std::ostringstream s;
  OpenSvg(s, "plot cactus", "problems solved against time");
  LogAxis x_axis = LogAxis::Covering(any ? min_ms : 1, any ? max_ms : 1000);
  double y_step = std::max(1.0, std::round(NiceStep(double(std::max<size_t>(most_solved, 1)), 8)));
  double y_hi = std::max(1.0, std::ceil(double(most_solved) / y_step) * y_step);
  auto px = [&](double ms) { return kLeft + x_axis.Fraction(ms) * kPlotW; };
  auto py = [&](double n) { return kTop + kPlotH - n / y_hi * kPlotH; };
  for (int d = x_axis.first_decade; d <= x_axis.last_decade; ++d) {
    XTick(s, px(std::pow(10.0, d)), TimeLabel(d));
  }
  for (double n = 0; n <= y_hi + 1e-9; n += y_step) YTick(s, py(n), absl::StrCat(int64_t(n)));
  AxisLabels(s, "time per problem (log scale)", "problems solved");
  if (!any) NoDataNote(s);
  for (size_t i = 0; i < runs.size(); ++i) {
    const std::vector<double>& t = times[i];
    if (t.empty()) continue;
    // A step up at each solve time. Runs of points in one pixel column collapse to their first
    // and last, which keeps 40,000-problem runs small without changing the drawing.
    std::vector<std::pair<double, double>> pts;
    auto add = [&pts](double x, double y) {
      if (pts.size() >= 2 && std::abs(pts[pts.size() - 1].first - x) < 0.5 &&
          std::abs(pts[pts.size() - 2].first - x) < 0.5) {
        pts.back() = {x, y};
      } else {
        pts.push_back({x, y});
      }
    };
    for (size_t k = 0; k < t.size(); ++k) {
      add(px(t[k]), py(double(k)));
      add(px(t[k]), py(double(k + 1)));
    }
    s << "<polyline class=\"curve " << runs[i].css_class << "\" fill=\"none\" stroke=\""
      << runs[i].colour << "\" stroke-width=\"2\" points=\"";
    for (size_t k = 0; k < pts.size(); ++k) {
      s << (k ? " " : "") << Num(pts[k].first) << "," << Num(pts[k].second);
    }
    s << "\"/>\n";
  }
  Legend(s, runs, /*lines=*/true);
  s << "</svg>\n";
  return s.str();
}

void HtmlKeyList(std::ostringstream& s, const std::string& title,
                 const std::vector<std::string>& keys) {
  constexpr size_t kMaxListed = 200;
  s << "<h3>" << Escape(title) << " (" << keys.size() << ")</h3>\n";
  if (keys.empty()) return;
  s << "<ul class=\"keys\">";
  for (size_t i = 0; i < keys.size() && i < kMaxListed; ++i) {
    s << "<li>" << Escape(keys[i]) << "</li>";
  }
  if (keys.size() > kMaxListed) s << "<li>… and " << keys.size() - kMaxListed << " more</li>";
  s << "</ul>\n";
}

void HtmlSummaryTable(std::ostringstream& s, const Summary& summary) {
  s << "<table class=\"summary\">\n<thead><tr>";
  for (const std::string& h : SummaryHeader()) s << "<th>" << Escape(h) << "</th>";
  s << "</tr></thead>\n<tbody>\n";
  for (const SummaryRow& row : summary.rows) {
    s << "<tr" << (row.label == "all" ? " class=\"total\"" : "") << ">";
    for (const std::string& cell : SummaryCells(row)) s << "<td>" << Escape(cell) << "</td>";
    s << "</tr>\n";
  }
  s << "</tbody>\n</table>\n";
  if (std::string split = NodeSplitSentence(summary); !split.empty()) {
    s << "<p class=\"split\">" << Escape(split) << "</p>\n";
  }
  if (std::string verdicts = VerdictSentence(summary); !verdicts.empty()) {
    s << "<p class=\"verdicts\">" << Escape(verdicts) << "</p>\n";
    std::vector<std::string> unsound;
    for (const UnsoundProblem& p : summary.unsound) unsound.push_back(UnsoundText(p, true));
    HtmlKeyList(s, "Unsound problems", unsound);
  }
}

void HtmlComparison(std::ostringstream& s, const Comparison& c) {
  s << "<h2>Comparison with the baseline</h2>\n<table class=\"comparison\"><tbody>\n";
  auto row = [&s](const std::string& name, const std::string& value) {
    s << "<tr><th>" << Escape(name) << "</th><td>" << Escape(value) << "</td></tr>\n";
  };
  row("matched by", c.matched_by);
  row("matched problems", absl::StrCat(c.matched));
  row("only in results", absl::StrCat(c.only_in_results));
  row("only in baseline", absl::StrCat(c.only_in_baseline));
  row("faster (by >10% and ≥1 ms)", absl::StrCat(c.faster));
  row("slower (by >10% and ≥1 ms)", absl::StrCat(c.slower));
  row("solved in both", absl::StrCat(c.solved_in_both));
  row("geometric-mean speed-up", absl::StrFormat("%.3fx", c.geomean_speedup));
  s << "</tbody></table>\n";
  HtmlKeyList(s, "Newly solved", c.newly_solved);
  HtmlKeyList(s, "Newly unsolved", c.newly_unsolved);
  if (!c.changed_verdicts.empty()) HtmlKeyList(s, "Changed verdicts", c.changed_verdicts);
  s << "<h3>Changed lengths (" << c.changed_lengths.size() << ")</h3>\n";
  if (!c.changed_lengths.empty()) {
    s << "<table class=\"changes\"><thead><tr><th>problem</th><th>baseline</th><th>now</th>"
         "<th>sfen</th></tr></thead><tbody>\n";
    for (const LengthChange& ch : c.changed_lengths) {
      s << "<tr><td>" << Escape(ch.key) << "</td><td>" << ch.baseline_length << "</td><td>"
        << ch.length << "</td><td class=\"sfen\">" << Escape(ch.sfen) << "</td></tr>\n";
    }
    s << "</tbody></table>\n";
  }
}

constexpr char kCss[] = R"(body{font-family:system-ui,sans-serif;margin:2em;color:#222}
h1{font-size:1.5em}h2{font-size:1.2em;margin-top:1.6em}h3{font-size:1em}
table{border-collapse:collapse;margin:.5em 0}
th,td{border:1px solid #ccc;padding:.25em .6em;text-align:right}
th{background:#f2f2f2}tr.total td{font-weight:bold}
table.comparison th{text-align:left}td.sfen{text-align:left;font-family:monospace}
ul.keys{columns:4;font-family:monospace;font-size:.9em}
svg.plot{display:block;margin:.5em 0;font-size:12px}
svg .frame{fill:#fff;stroke:#444}svg .grid{stroke:#e4e4e4}svg .tick{stroke:#444}
svg .xtick,svg .axis-label{text-anchor:middle}svg .ytick{text-anchor:end}
svg .legend-entry{text-anchor:start}svg .legend-box{fill:#fff;fill-opacity:.85;stroke:#bbb}
.bad{color:#a00}
)";

}  // namespace

// --- Parsing -------------------------------------------------------------------------------

absl::StatusOr<ProblemResult> ParseResultLine(const std::string& line) {
  json j;
  try {
    j = json::parse(line);
  } catch (const json::exception& e) {  // a syntax error, or a number too large (1e400)
    return absl::InvalidArgumentError(absl::StrCat("invalid JSON: ", ShortJsonMessage(e.what())));
  }
  if (!j.is_object()) return absl::InvalidArgumentError("not a JSON object");
  ProblemResult r;
  if (absl::Status s = ReadString(j, "id", true, &r.id); !s.ok()) return s;
  if (absl::Status s = ReadString(j, "source", false, &r.source); !s.ok()) return s;
  if (absl::Status s = ReadString(j, "sfen", false, &r.sfen); !s.ok()) return s;

  std::optional<int64_t> v;
  if (absl::Status s = ReadInt(j, "expected_length", 1, 1000000, &v); !s.ok()) return s;
  if (v) r.expected_length = int(*v);
  v.reset();
  if (absl::Status s = ReadInt(j, "nomate_within", 1, 1000000, &v); !s.ok()) return s;
  if (v) r.nomate_within = int(*v);
  std::string expected;
  if (absl::Status s = ReadString(j, "expected", false, &expected); !s.ok()) return s;
  if (!expected.empty()) {
    if (expected != "mate" && expected != "nomate") {
      return FieldError("expected",
                        "must be \"mate\", \"nomate\" or null, got " + QuotedValue(expected));
    }
    r.expected = expected;
  }

  // verify's lines: the verdict stands for the result, and the stated length is named so.
  if (absl::Status s = ReadString(j, "verdict", false, &r.verdict); !s.ok()) return s;
  if (!r.verdict.empty()) {
    if (std::find(kVerdicts.begin(), kVerdicts.end(), r.verdict) == kVerdicts.end()) {
      return FieldError(
          "verdict", "must be sound, flawed, not a mate or unknown, got " + QuotedValue(r.verdict));
    }
    v.reset();
    if (absl::Status s = ReadInt(j, "stated_length", 1, 1000000, &v); !s.ok()) return s;
    if (v) r.expected_length = int(*v);
    if (auto it = j.find("flaws"); it != j.end() && !it->is_null()) {
      if (!it->is_array()) return FieldError("flaws", "expected an array of objects");
      for (const json& flaw : *it) {
        auto kind = flaw.is_object() ? flaw.find("kind") : flaw.end();
        if (kind == flaw.end() || !kind->is_string()) {
          return FieldError("flaws", "expected objects with a \"kind\" string");
        }
        if (std::find(r.flaw_kinds.begin(), r.flaw_kinds.end(), kind->get<std::string>()) ==
            r.flaw_kinds.end()) {
          r.flaw_kinds.push_back(kind->get<std::string>());
        }
      }
    }
  }
  std::string result;
  if (absl::Status s = ReadString(j, "result", r.verdict.empty(), &result); !s.ok()) return s;
  if (result.empty()) {
    // A verdict with a length has a mate (proven shortest or not); "not a mate" is proven.
    int64_t length = 0;
    if (auto it = j.find("length"); it != j.end() && it->is_number_integer()) {
      length = it->get<int64_t>();
    }
    result = r.verdict == "not a mate" ? "nomate" : length > 0 ? "mate" : "unknown";
  }
  if (result == "mate") {
    r.result = Outcome::kMate;
  } else if (result == "nomate") {
    r.result = Outcome::kNoMate;
  } else if (result == "unknown") {
    r.result = Outcome::kUnknown;
  } else if (result == "error") {
    r.result = Outcome::kError;
  } else {
    return FieldError("result",
                      "must be mate, nomate, unknown or error, got " + QuotedValue(result));
  }

  v.reset();
  if (absl::Status s = ReadInt(j, "length", 0, 1000000, &v); !s.ok()) return s;
  // The length only means something for a mate; other results carry 0.
  if (r.result == Outcome::kMate) {
    if (!v || *v < 1) return FieldError("length", "a mate needs a length of at least 1");
    r.length = int(*v);
  }

  if (auto it = j.find("length_exact"); it != j.end() && !it->is_null()) {
    if (!it->is_boolean()) return FieldError("length_exact", "expected true, false or null");
    r.length_exact = it->get<bool>();
  }
  v.reset();
  if (absl::Status s = ReadInt(j, "no_mate_within", 0, 1000000, &v); !s.ok()) return s;
  r.no_mate_within = int(v.value_or(0));

  if (auto it = j.find("match"); it != j.end() && !it->is_null()) {
    if (!it->is_boolean()) return FieldError("match", "expected true, false or null");
    r.match = it->get<bool>();
  }
  v.reset();
  if (absl::Status s = ReadInt(j, "nodes", 0, kMaxNodes, &v); !s.ok()) return s;
  r.nodes = v.value_or(0);
  v.reset();
  if (absl::Status s = ReadInt(j, "nps", 0, INT64_MAX, &v); !s.ok()) return s;
  r.nps = v.value_or(0);

  auto time = j.find("time_ms");
  if (time == j.end() || time->is_null()) return FieldError("time_ms", "missing");
  if (!time->is_number()) return FieldError("time_ms", "expected a number");
  r.time_ms = time->get<double>();
  if (!std::isfinite(r.time_ms) || r.time_ms < 0 || r.time_ms > kMaxTimeMs) {
    return FieldError("time_ms", absl::StrCat("must be a number from 0 to ", kMaxTimeMs));
  }

  if (auto it = j.find("moves"); it != j.end() && !it->is_null()) {
    if (!it->is_array()) return FieldError("moves", "expected an array of strings");
    for (const json& m : *it) {
      if (!m.is_string()) return FieldError("moves", "expected an array of strings");
      r.moves.push_back(m.get<std::string>());
    }
  }
  if (absl::Status s = ReadString(j, "limit", false, &r.limit); !s.ok()) return s;
  if (absl::Status s = ReadString(j, "error", false, &r.error); !s.ok()) return s;
  if (absl::Status s = ReadNodeSplit(j, r); !s.ok()) return s;
  // The split is the solve's: verify's lines count their other searches in "nodes" too.
  r.solve_nodes = r.nodes;
  if (!r.verdict.empty()) {
    v.reset();
    if (absl::Status s = ReadInt(j, "solve_nodes", 0, kMaxNodes, &v); !s.ok()) return s;
    r.solve_nodes = v.value_or(r.nodes);  // lines without it: all of them
  }
  if (r.split && SaturatingSum(SaturatingSum(r.split->first_mate, r.split->shorter),
                               r.split->no_shorter) > r.solve_nodes) {
    return FieldError("first_mate", "with exact_passes, more nodes than the solve's nodes");
  }
  return r;
}

RunResults ParseResults(std::istream& in, const std::string& path) {
  RunResults run;
  run.path = path;
  std::string line;
  int line_number = 0;
  while (std::getline(in, line)) {
    ++line_number;
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (line.find_first_not_of(" \t") == std::string::npos) continue;
    absl::StatusOr<ProblemResult> r = ParseResultLine(line);
    if (!r.ok()) {
      run.bad_lines.push_back(absl::StrCat(path, ":", line_number, ": ", r.status().message()));
      continue;
    }
    r->line = line_number;
    run.problems.push_back(*std::move(r));
  }
  return run;
}

absl::StatusOr<RunResults> LoadResults(const std::string& path) {
  if (path == "-") return ParseResults(std::cin, path);
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) {
    return absl::InvalidArgumentError(absl::StrCat("cannot read ", path, ": is a directory"));
  }
  std::ifstream in(path);
  if (!in) {
    return absl::NotFoundError(absl::StrCat("cannot read ", path, ": ", std::strerror(errno)));
  }
  RunResults run = ParseResults(in, path);
  if (in.bad()) return absl::DataLossError(absl::StrCat("cannot read ", path, ": read error"));
  return run;
}

// --- Classification ------------------------------------------------------------------------

bool StatesNoMate(const ProblemResult& r) { return r.expected == "nomate"; }

bool StatesMate(const ProblemResult& r) {
  return !StatesNoMate(r) && (r.expected_length.has_value() || r.expected == "mate");
}

StatementCheck Judge(const Statement& stated, Outcome result, int64_t length, bool length_exact,
                     int64_t no_mate_within) {
  StatementCheck v;
  bool mate = result == Outcome::kMate, nomate = result == Outcome::kNoMate;
  if (stated.nomate) {
    v.match = nomate;
    v.wrong = mate;
  } else if (stated.length) {
    v.match = mate && length == *stated.length;
    // A found mate is an upper bound on the shortest; only a proven one also bounds it below.
    v.wrong = nomate || no_mate_within >= *stated.length ||
              (mate && (length < *stated.length || (length_exact && length != *stated.length)));
  } else if (stated.mate) {
    v.match = mate;
    v.wrong = nomate;
  } else if (stated.nomate_within) {
    v.match = nomate || no_mate_within >= *stated.nomate_within ||
              (mate && length_exact && length > *stated.nomate_within);
    v.wrong = mate && length <= *stated.nomate_within;
  }
  return v;
}

namespace {

StatementCheck JudgeProblem(const ProblemResult& r) {
  Statement stated;
  stated.nomate = StatesNoMate(r);
  stated.mate = r.expected == "mate";
  if (r.expected_length) stated.length = *r.expected_length;
  if (r.nomate_within) stated.nomate_within = *r.nomate_within;
  return Judge(stated, r.result, r.length, r.length_exact, r.no_mate_within);
}

}  // namespace

bool IsMatch(const ProblemResult& r) { return JudgeProblem(r).match.value_or(false); }
bool IsWrong(const ProblemResult& r) { return JudgeProblem(r).wrong; }

// --- Summary -------------------------------------------------------------------------------

std::string UnsoundText(const UnsoundProblem& problem, bool japanese) {
  std::string text = absl::StrCat(problem.key, ": ", problem.verdict);
  if (problem.flaw_kinds.empty()) return text;
  std::vector<std::string> kinds;
  for (const std::string& kind : problem.flaw_kinds)
    kinds.push_back(japanese ? JapaneseNameOf(kind) : kind);
  return absl::StrCat(text, " (", absl::StrJoin(kinds, ", "), ")");
}

Summary Summarize(const RunResults& run) {
  std::map<int, std::vector<const ProblemResult*>> by_length;
  std::vector<const ProblemResult*> unstated, all;
  for (const ProblemResult& p : run.problems) {
    all.push_back(&p);
    if (p.expected_length) {
      by_length[*p.expected_length].push_back(&p);
    } else {
      unstated.push_back(&p);
    }
  }
  Summary summary;
  for (const auto& [length, problems] : by_length) {
    summary.rows.push_back(MakeRow(absl::StrCat(length), problems));
  }
  if (!unstated.empty()) summary.rows.push_back(MakeRow("none", unstated));
  summary.rows.push_back(MakeRow("all", all));
  std::map<std::string, int> verdicts, flaw_kinds;
  for (const ProblemResult& p : run.problems) {
    if (p.verdict.empty()) continue;
    ++verdicts[p.verdict];
    for (const std::string& kind : p.flaw_kinds) ++flaw_kinds[kind];
    if (p.verdict == "flawed" || p.verdict == "not a mate") {
      summary.unsound.push_back({p.id.empty() ? p.source : p.id, p.verdict, p.flaw_kinds});
    }
  }
  if (!verdicts.empty()) {
    for (const std::string& verdict : kVerdicts)
      summary.verdicts.push_back({verdict, verdicts[verdict]});
    summary.flaw_kinds.assign(flaw_kinds.begin(), flaw_kinds.end());
    std::stable_sort(summary.flaw_kinds.begin(), summary.flaw_kinds.end(),
                     [](const auto& a, const auto& b) { return a.second > b.second; });
  }
  for (const ProblemResult& p : run.problems) {
    if (!p.split) continue;
    ++summary.split_problems;
    summary.split_nodes = SaturatingSum(summary.split_nodes, p.solve_nodes);
    summary.split.first_mate = SaturatingSum(summary.split.first_mate, p.split->first_mate);
    summary.split.shorter = SaturatingSum(summary.split.shorter, p.split->shorter);
    summary.split.no_shorter = SaturatingSum(summary.split.no_shorter, p.split->no_shorter);
  }
  return summary;
}

std::string FormatSummaryText(const Summary& summary) {
  std::vector<std::vector<std::string>> table = {SummaryHeader()};
  for (const SummaryRow& row : summary.rows) table.push_back(SummaryCells(row));
  std::vector<size_t> widths(table[0].size(), 0);
  for (const auto& cells : table) {
    for (size_t i = 0; i < cells.size(); ++i) widths[i] = std::max(widths[i], cells[i].size());
  }
  std::string out;
  for (const auto& cells : table) {
    std::string line;
    for (size_t i = 0; i < cells.size(); ++i) {
      // The label column reads left to right; numbers line up on the right.
      std::string pad(widths[i] - cells[i].size(), ' ');
      line += i == 0 ? cells[i] + pad : "  " + pad + cells[i];
    }
    absl::StrAppend(&out, line, "\n");
  }
  if (std::string split = NodeSplitSentence(summary); !split.empty()) {
    absl::StrAppend(&out, split, "\n");
  }
  if (std::string verdicts = VerdictSentence(summary); !verdicts.empty()) {
    absl::StrAppend(&out, verdicts, "\n");
  }
  for (size_t i = 0; i < summary.unsound.size() && i < kMaxUnsoundListed; ++i) {
    absl::StrAppend(&out, "unsound: ", UnsoundText(summary.unsound[i], true), "\n");
  }
  if (summary.unsound.size() > kMaxUnsoundListed) {
    absl::StrAppend(&out, "... and ", summary.unsound.size() - kMaxUnsoundListed,
                    " more unsound (all of them in --json)\n");
  }
  return out;
}

json SummaryToJson(const Summary& summary) {
  json rows = json::array();
  for (const SummaryRow& r : summary.rows) {
    rows.push_back({{"length", r.label},
                    {"count", r.count},
                    {"solved", r.solved},
                    {"matches", r.matches},
                    {"wrong", r.wrong},
                    {"unknown", r.unknown},
                    {"errors", r.errors},
                    {"timed", r.timed},
                    {"mean_ms", r.mean_ms},
                    {"median_ms", r.median_ms},
                    {"p90_ms", r.p90_ms},
                    {"max_ms", r.max_ms},
                    {"total_nodes", r.total_nodes},
                    {"total_ms", r.total_ms},
                    {"nps", r.nodes_per_second}});
  }
  return rows;
}

json VerdictsToJson(const Summary& summary) {
  if (summary.verdicts.empty()) return nullptr;
  json verdicts = json::object(), flaws = json::object();
  for (const auto& [verdict, count] : summary.verdicts) verdicts[verdict] = count;
  for (const auto& [kind, count] : summary.flaw_kinds) flaws[kind] = count;
  json unsound = json::array();
  for (const UnsoundProblem& p : summary.unsound) unsound.push_back(UnsoundText(p, false));
  return {{"verdicts", verdicts}, {"flaws", flaws}, {"unsound", unsound}};
}

json NodeSplitToJson(const Summary& summary) {
  if (summary.split_problems == 0) return nullptr;
  return {{"problems", summary.split_problems},
          {"nodes", summary.split_nodes},
          {"first_mate", summary.split.first_mate},
          {"shorter_passes", summary.split.shorter},
          {"no_shorter_passes", summary.split.no_shorter}};
}

// --- Comparison ----------------------------------------------------------------------------

std::string NormalSource(const std::string& source) {
  size_t colon = source.rfind(':');
  if (colon == std::string::npos || colon == 0 || colon + 1 == source.size() ||
      !absl::c_all_of(source.substr(colon + 1), [](char c) { return c >= '0' && c <= '9'; })) {
    return source;
  }
  std::error_code ec;
  std::filesystem::path path = std::filesystem::absolute(source.substr(0, colon), ec);
  if (ec) return source;
  return path.lexically_normal().string() + source.substr(colon);
}

Comparison Compare(const RunResults& results, const RunResults& baseline) {
  auto ids_unique = [](const RunResults& run) {
    std::map<std::string, int> seen;
    for (const ProblemResult& p : run.problems) {
      if (p.id.empty() || seen[p.id]++ > 0) return false;
    }
    return true;
  };
  Comparison c;
  bool by_id = ids_unique(results) && ids_unique(baseline);
  c.matched_by = by_id ? "id" : "source";
  // Matched by the source with its path normalised (`./x.txt:3` is `x.txt:3`), named by the
  // results' own spelling.
  auto key_of = [by_id](const ProblemResult& p) { return by_id ? p.id : NormalSource(p.source); };

  std::map<std::string, std::vector<const ProblemResult*>> base_by_key;
  for (const ProblemResult& p : baseline.problems) base_by_key[key_of(p)].push_back(&p);
  std::map<std::string, size_t> occurrence;
  double log_sum = 0;
  for (const ProblemResult& now : results.problems) {
    std::string key = key_of(now);
    size_t k = occurrence[key]++;
    auto it = base_by_key.find(key);
    if (it == base_by_key.end() || k >= it->second.size()) {
      ++c.only_in_results;
      continue;
    }
    const ProblemResult& base = *it->second[k];
    ++c.matched;
    const std::string& name = by_id ? now.id : now.source;
    std::string label = k == 0 ? name : absl::StrCat(name, " #", k + 1);
    if (now.result != Outcome::kError && base.result != Outcome::kError) {
      double gain = base.time_ms - now.time_ms;
      double threshold = kSignificantFraction * base.time_ms;
      if (gain > threshold && gain >= kSignificantMs) ++c.faster;
      if (-gain > threshold && -gain >= kSignificantMs) ++c.slower;
    }
    if (!now.verdict.empty() && !base.verdict.empty() && now.verdict != base.verdict) {
      c.changed_verdicts.push_back(absl::StrCat(label, ": ", base.verdict, " -> ", now.verdict));
    }
    bool solved_now = now.result == Outcome::kMate;
    bool solved_before = base.result == Outcome::kMate;
    if (solved_now && !solved_before) c.newly_solved.push_back(label);
    if (!solved_now && solved_before) c.newly_unsolved.push_back(label);
    if (solved_now && solved_before) {
      ++c.solved_in_both;
      log_sum +=
          std::log(std::max(base.time_ms, kTimeFloorMs) / std::max(now.time_ms, kTimeFloorMs));
      if (now.length != base.length) {
        c.changed_lengths.push_back(
            {label, now.sfen.empty() ? base.sfen : now.sfen, base.length, now.length});
      }
    }
  }
  for (const auto& [key, problems] : base_by_key) {
    auto used = occurrence.find(key);
    size_t paired = used == occurrence.end() ? 0 : std::min(used->second, problems.size());
    c.only_in_baseline += int(problems.size() - paired);
  }
  if (c.solved_in_both > 0) c.geomean_speedup = std::exp(log_sum / c.solved_in_both);
  return c;
}

std::string FormatComparisonText(const Comparison& c) {
  std::string out = absl::StrCat("comparison with baseline (matched by ", c.matched_by,
                                 "): ", c.matched, " matched, ", c.only_in_results,
                                 " only in results, ", c.only_in_baseline, " only in baseline\n");
  absl::StrAppend(&out, "  faster ", c.faster, ", slower ", c.slower,
                  " (by more than 10% and at least 1 ms)\n");
  absl::StrAppend(&out, "  solved in both ", c.solved_in_both,
                  absl::StrFormat(", geometric-mean speed-up %.3fx\n", c.geomean_speedup));
  absl::StrAppend(&out, "  newly solved ", c.newly_solved.size(),
                  c.newly_solved.empty() ? "" : ": ", absl::StrJoin(c.newly_solved, " "), "\n");
  absl::StrAppend(&out, "  newly unsolved ", c.newly_unsolved.size(),
                  c.newly_unsolved.empty() ? "" : ": ", absl::StrJoin(c.newly_unsolved, " "), "\n");
  absl::StrAppend(&out, "  changed lengths ", c.changed_lengths.size(),
                  c.changed_lengths.empty() ? "\n" : ":\n");
  for (const LengthChange& ch : c.changed_lengths) {
    absl::StrAppend(&out, "    ", ch.key, "  ", ch.baseline_length, " -> ", ch.length, "  ",
                    ch.sfen, "\n");
  }
  if (!c.changed_verdicts.empty()) {
    absl::StrAppend(&out, "  changed verdicts ", c.changed_verdicts.size(), ":\n");
    for (const std::string& change : c.changed_verdicts)
      absl::StrAppend(&out, "    ", change, "\n");
  }
  return out;
}

json ComparisonToJson(const Comparison& c) {
  json changes = json::array();
  for (const LengthChange& ch : c.changed_lengths) {
    changes.push_back({{"key", ch.key},
                       {"sfen", ch.sfen},
                       {"baseline_length", ch.baseline_length},
                       {"length", ch.length}});
  }
  return {{"matched_by", c.matched_by},
          {"matched", c.matched},
          {"only_in_results", c.only_in_results},
          {"only_in_baseline", c.only_in_baseline},
          {"faster", c.faster},
          {"slower", c.slower},
          {"newly_solved", c.newly_solved},
          {"newly_unsolved", c.newly_unsolved},
          {"changed_lengths", changes},
          {"changed_verdicts", c.changed_verdicts},
          {"solved_in_both", c.solved_in_both},
          {"geomean_speedup", c.geomean_speedup}};
}

// --- HTML ----------------------------------------------------------------------------------

std::string RenderHtml(const RunResults& results, const RunResults* baseline) {
  std::vector<PlotRun> runs = {
      {"results: " + results.path, "run-results", kResultsColour, &results}};
  if (baseline) {
    runs.push_back({"baseline: " + baseline->path, "run-baseline", kBaselineColour, baseline});
  }
  std::ostringstream s;
  s << "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
    << "<title>tsume report: " << Escape(results.path) << "</title>\n<style>\n"
    << kCss << "</style>\n</head>\n<body>\n<h1>tsume report</h1>\n";
  for (const PlotRun& r : runs) {
    s << "<h2>" << Escape(r.name) << " (" << r.run->problems.size() << " problems)</h2>\n";
    if (!r.run->bad_lines.empty()) {
      s << "<p class=\"bad\">" << r.run->bad_lines.size() << " malformed line(s) skipped</p>\n";
    }
    HtmlSummaryTable(s, Summarize(*r.run));
  }
  if (baseline) HtmlComparison(s, Compare(results, *baseline));
  s << "<h2>Solve time against mate length</h2>\n" << ScatterPlot(runs);
  s << "<h2>Cactus plot: problems solved against time</h2>\n" << CactusPlot(runs);
  s << "</body>\n</html>\n";
  return s.str();
}

}  // namespace tsume
