#include "sched/report/bar_chart_svg.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <sstream>

#include "sched/report/fixed.h"

namespace mrlocal {
namespace {

// Tableau 10: distinct for up to ten policies, then repeats.
constexpr const char* kPalette[] = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                                    "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"};

// A printed value: exactly `decimals` decimals, so that bars of one chart line up.
std::string Value(double v, int decimals) {
  const std::string s = Fixed(v, decimals);
  return s.empty() ? "0" : s;  // SVG has no NaN
}

}  // namespace

std::string XmlEscape(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
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
        out += "&apos;";
        break;
      default:
        if (static_cast<unsigned char>(c) < 0x20 && c != '\t' && c != '\n')
          out += '?';
        else
          out += c;
    }
  }
  return out;
}

std::string SvgNumber(double v, int decimals) {
  if (!std::isfinite(v)) return "0";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
  if (ec != std::errc()) return "0";
  std::string s(buf, end);
  if (s.find('.') != std::string::npos) {
    while (s.back() == '0') s.pop_back();
    if (s.back() == '.') s.pop_back();
  }
  if (s == "-0") s = "0";
  return s;
}

std::string SvgChartHeader(double width, double height, std::string_view title,
                           std::string_view subtitle) {
  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << SvgNumber(width) << "\" height=\""
    << SvgNumber(height) << "\" viewBox=\"0 0 " << SvgNumber(width) << ' ' << SvgNumber(height)
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n";
  o << "<title>" << XmlEscape(title) << "</title>\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o << "<text x=\"" << SvgNumber(width / 2) << "\" y=\"24\" text-anchor=\"middle\" "
    << "font-size=\"15\" font-weight=\"bold\">" << XmlEscape(title) << "</text>\n";
  if (!subtitle.empty()) {
    o << "<text x=\"" << SvgNumber(width / 2) << "\" y=\"42\" text-anchor=\"middle\">"
      << XmlEscape(subtitle) << "</text>\n";
  }
  return o.str();
}

std::vector<double> NiceTicks(double lo, double hi, int target) {
  if (!std::isfinite(lo) || !std::isfinite(hi)) return {0};
  if (hi < lo) std::swap(lo, hi);
  if (hi == lo) return {lo};
  const double raw = (hi - lo) / std::max(target, 1);
  const double mag = std::pow(10.0, std::floor(std::log10(raw)));
  double step = mag;
  for (double f : {1.0, 2.0, 5.0, 10.0}) {
    step = f * mag;
    if (step >= raw) break;
  }
  std::vector<double> ticks;
  const double first = std::floor(lo / step);
  const double last = std::ceil(hi / step - 1e-9);
  for (double k = first; k <= last && ticks.size() < 1000; k += 1) ticks.push_back(k * step);
  return ticks;
}

namespace {

// The plot area and its value axis: values (already scaled) to pixels.
struct ValuePlot {
  double left, top, width, height;
  double lo, hi;  // the axis' range
  double scale;   // 100 for percentages
  std::string unit;
  double Y(double v) const { return top + height - (v - lo) / (hi - lo) * height; }
};

// Grid lines at `ticks`, both axes and their labels.
void WriteAxes(std::ostringstream& o, const BarChart& chart, const ValuePlot& p,
               const std::vector<double>& ticks) {
  const int tick_decimals = (ticks.size() > 1 && ticks[1] - ticks[0] < 1) ? 3 : 0;
  for (double t : ticks) {
    o << "<line x1=\"" << SvgNumber(p.left) << "\" x2=\"" << SvgNumber(p.left + p.width)
      << "\" y1=\"" << SvgNumber(p.Y(t)) << "\" y2=\"" << SvgNumber(p.Y(t))
      << "\" stroke=\"#ddd\"/>\n";
    o << "<text x=\"" << SvgNumber(p.left - 6) << "\" y=\"" << SvgNumber(p.Y(t) + 4)
      << "\" text-anchor=\"end\">" << SvgNumber(t, tick_decimals) << p.unit << "</text>\n";
  }
  o << "<line x1=\"" << SvgNumber(p.left) << "\" x2=\"" << SvgNumber(p.left) << "\" y1=\""
    << SvgNumber(p.top) << "\" y2=\"" << SvgNumber(p.top + p.height) << "\" stroke=\"black\"/>\n";
  o << "<line x1=\"" << SvgNumber(p.left) << "\" x2=\"" << SvgNumber(p.left + p.width) << "\" y1=\""
    << SvgNumber(p.Y(0)) << "\" y2=\"" << SvgNumber(p.Y(0)) << "\" stroke=\"black\"/>\n";
  o << "<text transform=\"translate(18 " << SvgNumber(p.top + p.height / 2)
    << ") rotate(-90)\" text-anchor=\"middle\">" << XmlEscape(chart.y_label) << "</text>\n";
  o << "<text x=\"" << SvgNumber(p.left + p.width / 2) << "\" y=\""
    << SvgNumber(p.top + p.height + 44) << "\" text-anchor=\"middle\">" << XmlEscape(chart.x_label)
    << "</text>\n";
}

// Bar i centred at cx, bar_w wide: the bar, its whisker (min-max), its value, its label.
void WriteBar(std::ostringstream& o, const BarChart& chart, const ValuePlot& p, int i, double cx,
              double bar_w) {
  const BarChartBar& b = chart.bars[static_cast<size_t>(i)];
  const double v = std::isfinite(b.value) ? b.value * p.scale : 0;
  const double y0 = p.Y(std::max(0.0, p.lo)), y1 = p.Y(v);
  const std::string value_text = Value(v, chart.value_decimals) + p.unit;
  o << "<rect x=\"" << SvgNumber(cx - bar_w / 2) << "\" y=\"" << SvgNumber(std::min(y0, y1))
    << "\" width=\"" << SvgNumber(bar_w) << "\" height=\"" << SvgNumber(std::abs(y1 - y0))
    << "\" fill=\"" << kPalette[i % 10] << "\"><title>" << XmlEscape(b.label) << ": " << value_text;
  if (b.low && b.high) {
    o << " (min " << Value(*b.low * p.scale, chart.value_decimals) << p.unit << ", max "
      << Value(*b.high * p.scale, chart.value_decimals) << p.unit << ")";
  }
  o << "</title></rect>\n";
  double label_y = std::min(y0, y1);
  if (b.low && b.high) {
    const double wl = p.Y(*b.low * p.scale), wh = p.Y(*b.high * p.scale);
    o << "<g stroke=\"black\"><line x1=\"" << SvgNumber(cx) << "\" x2=\"" << SvgNumber(cx)
      << "\" y1=\"" << SvgNumber(wl) << "\" y2=\"" << SvgNumber(wh) << "\"/>";
    for (double wy : {wl, wh}) {
      o << "<line x1=\"" << SvgNumber(cx - 8) << "\" x2=\"" << SvgNumber(cx + 8) << "\" y1=\""
        << SvgNumber(wy) << "\" y2=\"" << SvgNumber(wy) << "\"/>";
    }
    o << "</g>\n";
    label_y = std::min(label_y, std::min(wl, wh));
  }
  o << "<text x=\"" << SvgNumber(cx) << "\" y=\"" << SvgNumber(label_y - 5)
    << "\" text-anchor=\"middle\">" << XmlEscape(value_text) << "</text>\n";
  o << "<text x=\"" << SvgNumber(cx) << "\" y=\"" << SvgNumber(p.top + p.height + 18)
    << "\" text-anchor=\"middle\">" << XmlEscape(b.label) << "</text>\n";
}

}  // namespace

std::string BarChartSvg(const BarChart& chart) {
  const int n = static_cast<int>(chart.bars.size());
  // A bar's slot holds its label (about 7 px per character at 12 px): labels such as
  // "rtmr:estimate-margin=4" (compare's variants) do not run into each other.
  size_t longest = 0;
  for (const BarChartBar& b : chart.bars) longest = std::max(longest, b.label.size());
  const double left = 80, right = 20, bottom = 64;
  const double slot_w = std::max(90.0, 7.0 * static_cast<double>(longest) + 14);
  // Wide enough for the bars and for the title (about 9 px per character at 15 px bold).
  const double title_w =
      9.0 * static_cast<double>(std::max(chart.title.size(), chart.subtitle.size())) + 20;
  ValuePlot p{left,
              chart.subtitle.empty() ? 44.0 : 60.0,
              std::max({360.0, slot_w * n, title_w - left - right}),
              260,
              0,
              0,
              chart.percent ? 100.0 : 1.0,
              chart.percent ? "%" : ""};
  const double width = left + p.width + right, height = p.top + p.height + bottom;

  for (const BarChartBar& b : chart.bars) {
    for (double v : {b.value, b.low.value_or(b.value), b.high.value_or(b.value)}) {
      if (!std::isfinite(v)) continue;
      p.lo = std::min(p.lo, v * p.scale);
      p.hi = std::max(p.hi, v * p.scale);
    }
  }
  if (p.hi == p.lo) p.hi = p.lo + 1;  // all zero: an axis from 0 to 1
  const std::vector<double> ticks = NiceTicks(p.lo, p.hi, 5);
  p.lo = std::min(p.lo, ticks.front());
  p.hi = std::max(p.hi, ticks.back());

  std::ostringstream o;
  o << SvgChartHeader(width, height, chart.title, chart.subtitle);
  WriteAxes(o, chart, p, ticks);
  const double step = p.width / std::max(n, 1);
  const double bar_w = std::min(56.0, step * 0.6);
  for (int i = 0; i < n; ++i) WriteBar(o, chart, p, i, p.left + step * (i + 0.5), bar_w);
  o << "</svg>\n";
  return o.str();
}

}  // namespace mrlocal
