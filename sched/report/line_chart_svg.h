// A line chart as a standalone SVG file: several named series of (x, y) points, each point
// with an optional min-max whisker or band (spread across runs), axis titles, ticks at round
// numbers, a legend, and an optional logarithmic x axis. Output is deterministic: same
// chart, same bytes. The benchmarks' figures use it (tools/bench/plot_csv).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "engine/status.h"

namespace mrlocal {

struct LinePoint {
  double x = 0, y = 0;
  std::optional<double> low, high;  // whisker, e.g. min and max across runs
};

struct LineSeries {
  std::string name;
  std::vector<LinePoint> points;  // drawn in ascending x, whatever the order given
};

struct LineChart {
  std::string title;
  std::string subtitle;  // a smaller second line, e.g. what the whiskers are
  std::string x_label;
  std::string y_label;
  std::vector<LineSeries> series;
  bool log_x = false;  // every x must then be > 0
  // Each series' low-high as a translucent band in its colour instead of whiskers (points
  // without both stay out of the band).
  bool bands = false;
  bool y_from_zero = true;  // the y axis starts at 0 (or below, for negative values)
};

// InvalidArgument when there is nothing to draw (no series, or no point in any), when a
// coordinate is not finite, or when log_x meets an x <= 0.
Result<std::string> LineChartSvg(const LineChart& chart);

}  // namespace mrlocal
