#include "sched/report/line_chart_svg.h"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "sched/report/bar_chart_svg.h"

namespace mrlocal {
namespace {

// Tableau 10, as the bar chart: distinct for up to ten series, then repeats.
constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

// 1, 2 and 5 x 10^k within [lo, hi] (REQUIRES: 0 < lo < hi); the two ends when fewer than
// two of those fall inside.
std::vector<double> LogTicks(double lo, double hi) {
  std::vector<double> ticks;
  for (int k = static_cast<int>(std::floor(std::log10(lo)));
       k <= static_cast<int>(std::ceil(std::log10(hi))); ++k) {
    for (double m : {1.0, 2.0, 5.0}) {
      const double v = m * std::pow(10.0, k);
      if (v >= lo * (1 - 1e-9) && v <= hi * (1 + 1e-9)) ticks.push_back(v);
    }
  }
  if (ticks.size() < 2) ticks = {lo, hi};
  return ticks;
}

// Enough decimals to tell neighbouring ticks apart (at most 6).
int TickDecimals(const std::vector<double>& ticks) {
  double step = 0;
  for (size_t i = 1; i < ticks.size(); ++i) {
    const double d = std::abs(ticks[i] - ticks[i - 1]);
    if (d > 0 && (step == 0 || d < step)) step = d;
  }
  if (step == 0 || step >= 1) return 0;
  return std::min(6, static_cast<int>(std::ceil(-std::log10(step) - 1e-9)));
}

// One axis: its range and ticks, data values to pixels along [pixel_lo, pixel_hi].
struct Axis {
  double lo = 0, hi = 1;
  bool log = false;
  std::vector<double> ticks;
  double pixel_lo = 0, pixel_hi = 1;
  double pad = 0;  // pixels kept free at both ends, so that markers clear the axes
  double At(double v) const {
    const double f = log ? (std::log10(v) - std::log10(lo)) / (std::log10(hi) - std::log10(lo))
                         : (v - lo) / (hi - lo);
    const double dir = pixel_hi > pixel_lo ? 1 : -1;
    return pixel_lo + dir * pad + f * (pixel_hi - pixel_lo - 2 * dir * pad);
  }
};

// The range [lo, hi] of the data, widened to round ticks (linear) or kept (log).
Axis MakeAxis(double lo, double hi, bool log, int target) {
  Axis a;
  a.log = log;
  if (hi <= lo) {  // a single value: give it room on both sides
    if (log) {
      lo /= 2;
      hi = lo * 4;
    } else {
      lo -= 0.5;
      hi = lo + 1;
    }
  }
  a.ticks = log ? LogTicks(lo, hi) : NiceTicks(lo, hi, target);
  a.lo = log ? lo : std::min(lo, a.ticks.front());
  a.hi = log ? hi : std::max(hi, a.ticks.back());
  return a;
}

Status CheckChart(const LineChart& chart) {
  size_t points = 0;
  for (const LineSeries& s : chart.series) {
    for (const LinePoint& p : s.points) {
      ++points;
      for (double v : {p.x, p.y, p.low.value_or(0), p.high.value_or(0)})
        if (!std::isfinite(v))
          return Status::InvalidArgument("line chart: series '" + s.name +
                                         "' has a coordinate that is not a finite number");
      if (chart.log_x && p.x <= 0)
        return Status::InvalidArgument("line chart: series '" + s.name + "' has x = " +
                                       SvgNumber(p.x, 6) + ", not > 0, on a logarithmic x axis");
    }
  }
  if (points == 0) return Status::InvalidArgument("line chart: no points to draw");
  return Status::OK();
}

void WriteAxes(std::ostringstream& o, const LineChart& chart, const Axis& x, const Axis& y) {
  const int xd = TickDecimals(x.ticks), yd = TickDecimals(y.ticks);
  for (double t : y.ticks) {
    o << "<line x1=\"" << SvgNumber(x.pixel_lo) << "\" x2=\"" << SvgNumber(x.pixel_hi) << "\" y1=\""
      << SvgNumber(y.At(t)) << "\" y2=\"" << SvgNumber(y.At(t)) << "\" stroke=\"#ddd\"/>\n";
    o << "<text x=\"" << SvgNumber(x.pixel_lo - 6) << "\" y=\"" << SvgNumber(y.At(t) + 4)
      << "\" text-anchor=\"end\">" << SvgNumber(t, yd) << "</text>\n";
  }
  for (double t : x.ticks) {
    o << "<line x1=\"" << SvgNumber(x.At(t)) << "\" x2=\"" << SvgNumber(x.At(t)) << "\" y1=\""
      << SvgNumber(y.pixel_hi) << "\" y2=\"" << SvgNumber(y.pixel_lo) << "\" stroke=\"#eee\"/>\n";
    o << "<text x=\"" << SvgNumber(x.At(t)) << "\" y=\"" << SvgNumber(y.pixel_lo + 18)
      << "\" text-anchor=\"middle\">" << SvgNumber(t, xd) << "</text>\n";
  }
  o << "<path d=\"M" << SvgNumber(x.pixel_lo) << ' ' << SvgNumber(y.pixel_hi) << " V"
    << SvgNumber(y.pixel_lo) << " H" << SvgNumber(x.pixel_hi)
    << "\" fill=\"none\" stroke=\"black\"/>\n";
  o << "<text transform=\"translate(18 " << SvgNumber((y.pixel_lo + y.pixel_hi) / 2)
    << ") rotate(-90)\" text-anchor=\"middle\">" << XmlEscape(chart.y_label) << "</text>\n";
  o << "<text x=\"" << SvgNumber((x.pixel_lo + x.pixel_hi) / 2) << "\" y=\""
    << SvgNumber(y.pixel_lo + 40) << "\" text-anchor=\"middle\">" << XmlEscape(chart.x_label)
    << (x.log ? " (log scale)" : "") << "</text>\n";
}

// The band between the points' lows and highs: along the highs, back along the lows.
void WriteBand(std::ostringstream& o, const std::vector<LinePoint>& sorted, const Axis& x,
               const Axis& y) {
  std::vector<const LinePoint*> spread;
  for (const LinePoint& p : sorted)
    if (p.low && p.high) spread.push_back(&p);
  if (spread.size() < 2) return;
  o << "<polygon class=\"band\" stroke=\"none\" fill-opacity=\"0.18\" points=\"";
  for (size_t i = 0; i < spread.size(); ++i)
    o << (i ? " " : "") << SvgNumber(x.At(spread[i]->x)) << ','
      << SvgNumber(y.At(*spread[i]->high));
  for (size_t i = spread.size(); i-- > 0;)
    o << ' ' << SvgNumber(x.At(spread[i]->x)) << ',' << SvgNumber(y.At(*spread[i]->low));
  o << "\"/>\n";
}

// A series: its band or per point a whisker (min-max), its line, a marker per point with a
// tooltip.
void WriteSeries(std::ostringstream& o, const LineSeries& s, const char* color, bool bands,
                 const Axis& x, const Axis& y) {
  std::vector<LinePoint> points = s.points;
  std::stable_sort(points.begin(), points.end(),
                   [](const LinePoint& a, const LinePoint& b) { return a.x < b.x; });
  o << "<g class=\"series\" stroke=\"" << color << "\" fill=\"" << color << "\">\n";
  if (bands) WriteBand(o, points, x, y);
  if (points.size() > 1) {
    o << "<polyline fill=\"none\" stroke-width=\"2\" points=\"";
    for (size_t i = 0; i < points.size(); ++i)
      o << (i ? " " : "") << SvgNumber(x.At(points[i].x)) << ',' << SvgNumber(y.At(points[i].y));
    o << "\"/>\n";
  }
  for (const LinePoint& p : points) {
    const double px = x.At(p.x);
    if (p.low && p.high && !bands) {
      const double lo = y.At(*p.low), hi = y.At(*p.high);
      o << "<path class=\"whisker\" d=\"M" << SvgNumber(px) << ' ' << SvgNumber(lo) << " V"
        << SvgNumber(hi) << " M" << SvgNumber(px - 4) << ' ' << SvgNumber(lo) << " h8 M"
        << SvgNumber(px - 4) << ' ' << SvgNumber(hi) << " h8\" fill=\"none\"/>\n";
    }
    o << "<circle cx=\"" << SvgNumber(px) << "\" cy=\"" << SvgNumber(y.At(p.y))
      << "\" r=\"3.5\"><title>" << XmlEscape(s.name) << ": x " << SvgNumber(p.x, 6) << ", y "
      << SvgNumber(p.y, 6);
    if (p.low && p.high)
      o << " (min " << SvgNumber(*p.low, 6) << ", max " << SvgNumber(*p.high, 6) << ")";
    o << "</title></circle>\n";
  }
  o << "</g>\n";
}

void WriteLegend(std::ostringstream& o, const LineChart& chart, double left, double top) {
  for (size_t i = 0; i < chart.series.size(); ++i) {
    const double y = top + 20.0 * static_cast<double>(i);
    const char* color = kPalette[i % 10];
    o << "<g class=\"legend\" stroke=\"" << color << "\" fill=\"" << color << "\"><line x1=\""
      << SvgNumber(left) << "\" x2=\"" << SvgNumber(left + 24) << "\" y1=\"" << SvgNumber(y)
      << "\" y2=\"" << SvgNumber(y) << "\" stroke-width=\"2\"/><circle cx=\""
      << SvgNumber(left + 12) << "\" cy=\"" << SvgNumber(y) << "\" r=\"3.5\"/></g>\n";
    o << "<text x=\"" << SvgNumber(left + 30) << "\" y=\"" << SvgNumber(y + 4) << "\">"
      << XmlEscape(chart.series[i].name) << "</text>\n";
  }
}

}  // namespace

Result<std::string> LineChartSvg(const LineChart& chart) {
  MRLOCAL_RETURN_IF_ERROR(CheckChart(chart));
  double x_lo = INFINITY, x_hi = -INFINITY, y_lo = chart.y_from_zero ? 0 : INFINITY,
         y_hi = chart.y_from_zero ? 0 : -INFINITY;
  for (const LineSeries& s : chart.series) {
    for (const LinePoint& p : s.points) {
      x_lo = std::min(x_lo, p.x);
      x_hi = std::max(x_hi, p.x);
      for (double v : {p.y, p.low.value_or(p.y), p.high.value_or(p.y)}) {
        y_lo = std::min(y_lo, v);
        y_hi = std::max(y_hi, v);
      }
    }
  }
  Axis x = MakeAxis(x_lo, x_hi, chart.log_x, 8);
  Axis y = MakeAxis(y_lo, y_hi, false, 5);

  size_t longest_name = 0;
  for (const LineSeries& s : chart.series) longest_name = std::max(longest_name, s.name.size());
  const double left = 80, top = chart.subtitle.empty() ? 44.0 : 60.0, plot_w = 480, plot_h = 280;
  const double legend_w = 7.0 * static_cast<double>(longest_name) + 50;
  // Wide enough for the title too (about 9 px per character at 15 px bold).
  const double width =
      std::max(left + plot_w + legend_w,
               9.0 * static_cast<double>(std::max(chart.title.size(), chart.subtitle.size())) + 20);
  const double height = top + plot_h + 56;
  x.pixel_lo = left;
  x.pixel_hi = left + plot_w;
  x.pad = 12;
  y.pixel_lo = top + plot_h;  // y grows upwards
  y.pixel_hi = top;

  std::ostringstream o;
  o << SvgChartHeader(width, height, chart.title, chart.subtitle);
  WriteAxes(o, chart, x, y);
  for (size_t i = 0; i < chart.series.size(); ++i)
    WriteSeries(o, chart.series[i], kPalette[i % 10], chart.bands, x, y);
  WriteLegend(o, chart, left + plot_w + 16, top + 10);
  o << "</svg>\n";
  return o.str();
}

}  // namespace mrlocal
