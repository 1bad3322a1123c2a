// A bar chart as a standalone SVG file: one bar per category (a policy, for `mrlocal
// compare`), with optional min-max whiskers (spread across seeds), labelled axes and the
// value printed on each bar. Output is deterministic: same chart, same bytes.
//
// Also the few SVG text helpers the report's charts share (gantt_svg uses them).
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace mrlocal {

struct BarChartBar {
  std::string label;
  double value = 0;
  std::optional<double> low, high;  // whisker, e.g. min and max across seeds
};

struct BarChart {
  std::string title;
  std::string subtitle;  // a smaller second line, e.g. what the whiskers are
  std::string x_label = "policy";
  std::string y_label;
  std::vector<BarChartBar> bars;
  bool percent = false;    // values are ratios in [0, 1], shown as percentages
  int value_decimals = 3;  // for the printed values (after the x100 of percent)
};

std::string BarChartSvg(const BarChart& chart);

// ---- SVG text helpers shared by the report's charts ----

// Escapes &, <, >, " and ' for XML text and attribute values; control bytes other than
// tab and newline (not allowed in XML 1.0) become '?'.
std::string XmlEscape(std::string_view s);

// `v` with at most `decimals` decimals, trailing zeros dropped ("12.5", "3", "-0.25");
// locale independent. Non-finite values print as "0" (SVG has no NaN).
std::string SvgNumber(double v, int decimals = 2);

// The opening of a chart's SVG: the <svg> element (width x height px, 12 px sans-serif),
// its <title>, a white background, the title centred in bold and the subtitle (if any)
// below it. The caller closes it with "</svg>\n".
std::string SvgChartHeader(double width, double height, std::string_view title,
                           std::string_view subtitle);

// Round tick positions covering [lo, hi]: multiples of 1, 2 or 5 x 10^k, about `target`
// of them. lo == hi gives a single tick.
std::vector<double> NiceTicks(double lo, double hi, int target = 6);

}  // namespace mrlocal
