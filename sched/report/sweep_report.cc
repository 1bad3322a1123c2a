#include "sched/report/sweep_report.h"

#include <algorithm>
#include <numeric>

#include "engine/atomic_file.h"
#include "sched/report/fixed.h"
#include "sched/report/line_chart_svg.h"
#include "sched/report/workload_report.h"

namespace mrlocal {
namespace {

struct Spread {
  double mean = 0, min = 0, max = 0;
};

Spread Of(const std::vector<double>& v) {
  if (v.empty()) return {};
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return {std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size()), *lo, *hi};
}

// An x value as written: up to 3 decimals, without trailing zeros (2, 1.5, 0.125).
std::string XText(double x) {
  std::string text = Fixed(x, 3);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text;
}

// Appends every piece: "literal" + std::string trips GCC 12's -Wrestrict.
template <typename... Pieces>
void Append(std::string& out, const Pieces&... pieces) {
  (out.append(pieces), ...);
}

}  // namespace

std::string SweepMarkdown(const SweepResult& sweep) {
  std::string out, rule = "|---:|";
  Append(out, "| ", sweep.parameter, " |");
  for (const SweepSeries& s : sweep.series) {
    Append(out, " ", s.name, " |");
    rule += "---:|";
  }
  Append(out, "\n", rule, "\n");
  size_t seeds = 0;
  for (size_t i = 0; i < sweep.x.size(); ++i) {
    Append(out, "| ", XText(sweep.x[i]), " |");
    for (const SweepSeries& s : sweep.series) {
      const Spread v = Of(s.at[i]);
      seeds = std::max(seeds, s.at[i].size());
      Append(out, " ", Fixed(v.mean, 1));
      if (s.at[i].size() > 1) Append(out, " (", Fixed(v.min, 1), "–", Fixed(v.max, 1), ")");
      out += " |";
    }
    out += "\n";
  }
  Append(out, "\nEach cell: ", sweep.measure);
  if (seeds > 1)
    Append(out, ", the mean over ", std::to_string(seeds), " seeds (min–max across seeds).\n");
  else
    out += ", one seed.\n";
  return out;
}

std::string SweepMarkdown(const std::vector<SweepResult>& sweeps) {
  std::string out;
  for (const SweepResult& sweep : sweeps)
    Append(out, out.empty() ? "" : "\n", SweepMarkdown(sweep));
  return out;
}

std::string SweepCsv(const SweepResult& sweep) {
  std::string out = "series,x,y,ymin,ymax\n";
  for (const SweepSeries& s : sweep.series)
    for (size_t i = 0; i < sweep.x.size(); ++i) {
      const Spread v = Of(s.at[i]);
      Append(out, CsvField(s.name), ",", XText(sweep.x[i]), ",", Fixed(v.mean, 3), ",",
             Fixed(v.min, 3), ",", Fixed(v.max, 3), "\n");
    }
  return out;
}

Result<std::string> SweepChartSvg(const SweepResult& sweep) {
  LineChart chart;
  chart.title = sweep.measure + " against " + sweep.parameter;
  chart.x_label = sweep.parameter;
  chart.y_label = sweep.measure;
  chart.bands = true;
  size_t seeds = 0;
  for (const SweepSeries& s : sweep.series) {
    LineSeries line{s.name, {}};
    for (size_t i = 0; i < sweep.x.size(); ++i) {
      const Spread v = Of(s.at[i]);
      seeds = std::max(seeds, s.at[i].size());
      line.points.push_back({sweep.x[i], v.mean, v.min, v.max});
    }
    chart.series.push_back(std::move(line));
  }
  chart.subtitle =
      seeds > 1 ? "the mean over " + std::to_string(seeds) + " seeds; bands: min–max across seeds"
                : "one seed";
  if (!sweep.x.empty()) {
    const auto [lo, hi] = std::minmax_element(sweep.x.begin(), sweep.x.end());
    chart.log_x = *lo > 0 && *hi >= 8 * *lo;
  }
  return LineChartSvg(chart);
}

Status WriteSweepReport(const std::filesystem::path& dir, const std::vector<SweepResult>& sweeps) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return Status::IoError("cannot create report directory " + dir.string() + ": " + ec.message());
  RemoveStaleTemporariesIn(dir.string());  // files a killed report left half-written
  for (const SweepResult& sweep : sweeps) {
    MRLOCAL_RETURN_IF_ERROR(
        WriteFileAtomically((dir / (sweep.key + ".csv")).string(), SweepCsv(sweep)));
    if (!sweep.chart) continue;
    auto svg = SweepChartSvg(sweep);
    if (!svg.ok()) return svg.status();
    MRLOCAL_RETURN_IF_ERROR(WriteFileAtomically((dir / (sweep.key + ".svg")).string(), *svg));
  }
  return WriteFileAtomically((dir / "sweep.md").string(), SweepMarkdown(sweeps));
}

}  // namespace mrlocal
