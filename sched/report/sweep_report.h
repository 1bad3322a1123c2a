// A figure swept over one parameter (`mrlocal compare --sweep`): for every value x of the
// parameter and every series (a policy), one measure per seed. Rendered as a Markdown
// table (rows x, columns series) and as the CSV that tools/bench/plot_csv draws as lines.
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
};

// "| concurrency | edf | fifo |" then one row per x: "mean (min–max)" over the seeds, one
// decimal; the mean alone for one seed.
std::string SweepMarkdown(const SweepResult& sweep);
// "series,x,y,ymin,ymax": one line per series and x; y the mean over seeds.
std::string SweepCsv(const SweepResult& sweep);
// Creates `dir` if needed and writes sweep.md and sweep.csv.
Status WriteSweepReport(const std::filesystem::path& dir, const SweepResult& sweep);

}  // namespace mrlocal
