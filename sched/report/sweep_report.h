// A figure swept over one parameter (`mrlocal compare --sweep`, `--load`): for every value
// x of the parameter and every series (a policy), one measure per seed. Rendered as a
// Markdown table (rows x, columns series), as the CSV that tools/bench/plot_csv draws as
// lines, and as an SVG line chart with min-max bands.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "engine/status.h"

namespace mrlocal {

struct SweepSeries {
  std::string name;
  std::vector<std::vector<double>> at;  // at[i]: one value per seed at SweepResult::x[i]
};

struct SweepResult {
  std::string parameter;  // the x axis, e.g. "concurrency"
  std::string measure;    // the y axis, e.g. "deadline misses (%)"
  std::vector<double> x;
  std::vector<SweepSeries> series;
  std::string key = "sweep";  // the report's file names: key.csv (and key.svg)
  bool chart = false;         // the report draws it as key.svg
};

// "| concurrency | edf | fifo |" then one row per x: "mean (min–max)" over the seeds, one
// decimal; the mean alone for one seed.
std::string SweepMarkdown(const SweepResult& sweep);
// Every measure's table, in order, a blank line between them.
std::string SweepMarkdown(const std::vector<SweepResult>& sweeps);
// "series,x,y,ymin,ymax": one line per series and x; y the mean over seeds.
std::string SweepCsv(const SweepResult& sweep);
// A line per series against x with its min-max band; the x axis logarithmic when the
// values span 8x or more (all > 0). InvalidArgument as LineChartSvg.
Result<std::string> SweepChartSvg(const SweepResult& sweep);
// Creates `dir` if needed and writes sweep.md (every measure's table, in order) and per
// measure key.csv, and key.svg when it is charted. The keys must differ.
Status WriteSweepReport(const std::filesystem::path& dir, const std::vector<SweepResult>& sweeps);

}  // namespace mrlocal
