#include "sched/report/lof_snapshot_svg.h"

#include <algorithm>
#include <cmath>
#include <set>
#include <sstream>

#include "sched/report/bar_chart_svg.h"

namespace mrlocal {
namespace {

constexpr double kWidth = 820, kLeft = 70, kRight = 150, kPanelHeight = 170, kGap = 60;
constexpr double kTop = 70;
constexpr const char* kHealthy = "#4e79a7";
constexpr const char* kOverloaded = "#e15759";

// A line across the plot at height y, with `style` (its stroke attributes).
void HorizontalLine(std::ostringstream& o, double y, const char* style) {
  o << "<line x1=\"" << SvgNumber(kLeft) << "\" y1=\"" << SvgNumber(y) << "\" x2=\""
    << SvgNumber(kWidth - kRight) << "\" y2=\"" << SvgNumber(y) << "\" " << style << "/>\n";
}

// One panel: a bar per task of `value(t)`, a y axis from 0 with round ticks, and an
// optional dashed line at `line`.
template <typename Value>
void Panel(std::ostringstream& o, const LofEvaluation& s, double top, const std::string& label,
           Value value, double line) {
  // LOF is infinite for a value apart from duplicates (their density is infinite): its bar
  // reaches the top and says so.
  double hi = line;
  bool any_infinite = false;
  for (const TaskOutlier& t : s.tasks) {
    if (std::isfinite(value(t)))
      hi = std::max(hi, value(t));
    else
      any_infinite = true;
  }
  if (any_infinite) hi *= 1.5;  // well above everything finite
  const std::vector<double> ticks = NiceTicks(0, hi > 0 ? hi : 1, 4);
  const double y_max = ticks.back();
  const double plot_w = kWidth - kLeft - kRight;
  auto y_of = [&](double v) { return top + kPanelHeight * (1 - v / y_max); };
  for (double t : ticks) {
    HorizontalLine(o, y_of(t), "stroke=\"#e5e5e5\"");
    o << "<text x=\"" << SvgNumber(kLeft - 6) << "\" y=\"" << SvgNumber(y_of(t) + 4)
      << "\" text-anchor=\"end\">" << SvgNumber(t, 3) << "</text>\n";
  }
  o << "<text transform=\"translate(18," << SvgNumber(top + kPanelHeight / 2)
    << ") rotate(-90)\" text-anchor=\"middle\">" << XmlEscape(label) << "</text>\n";
  const double step = plot_w / std::max<size_t>(s.tasks.size(), 1);
  for (size_t i = 0; i < s.tasks.size(); ++i) {
    const TaskOutlier& t = s.tasks[i];
    const bool infinite = !std::isfinite(value(t));
    const double v = infinite ? y_max : std::max(0.0, value(t));
    o << "<rect x=\"" << SvgNumber(kLeft + step * i + step * 0.15) << "\" y=\""
      << SvgNumber(y_of(v)) << "\" width=\"" << SvgNumber(step * 0.7) << "\" height=\""
      << SvgNumber(top + kPanelHeight - y_of(v)) << "\" fill=\""
      << (t.node_overloaded ? kOverloaded : kHealthy) << "\"><title>" << ToString(t.task.kind)
      << ' ' << t.task.index << " on node " << t.node << ", slot " << t.slot << ": slowdown "
      << SvgNumber(t.value, 3) << ", LOF "
      << (std::isfinite(t.lof) ? SvgNumber(t.lof, 3) : std::string("infinite"))
      << "</title></rect>\n";
    if (infinite)
      o << "<text x=\"" << SvgNumber(kLeft + step * (i + 0.5)) << "\" y=\"" << SvgNumber(top - 4)
        << "\" text-anchor=\"middle\">&#8734;</text>\n";
  }
  if (line > 0) {
    HorizontalLine(o, y_of(line), "stroke=\"black\" stroke-dasharray=\"5,4\"");
    o << "<text x=\"" << SvgNumber(kLeft + plot_w + 6) << "\" y=\"" << SvgNumber(y_of(line) + 4)
      << "\">threshold " << SvgNumber(line, 3) << "</text>\n";
  }
  HorizontalLine(o, top + kPanelHeight, "stroke=\"black\"");
}

}  // namespace

std::string LofSnapshotSvg(const LofEvaluation& s, const std::string& job_name) {
  std::set<NodeId> marked;
  for (const TaskOutlier& t : s.tasks)
    if (t.node_overloaded) marked.insert(t.node);
  std::string nodes;
  for (NodeId n : marked) nodes += (nodes.empty() ? "" : ", ") + std::to_string(n);
  const double height = kTop + 2 * kPanelHeight + kGap + 50;
  std::ostringstream o;
  o << SvgChartHeader(kWidth, height, "Overload detection: " + job_name,
                      std::to_string(s.tasks.size()) + " tasks at " + SvgNumber(Seconds(s.at), 3) +
                          " s; " +
                          (marked.empty() ? std::string("no node marked overloaded")
                                          : "overloaded: node " + nodes));
  if (s.tasks.empty()) {
    o << "</svg>\n";
    return o.str();
  }
  Panel(
      o, s, kTop, "slowdown (measured / estimated)", [](const TaskOutlier& t) { return t.value; },
      0);
  Panel(
      o, s, kTop + kPanelHeight + kGap, "local outlier factor",
      [](const TaskOutlier& t) { return t.lof; }, s.lof_threshold);
  const double legend_y = kTop + 2 * kPanelHeight + kGap + 30;
  o << "<text x=\"" << SvgNumber((kWidth - kRight + kLeft) / 2) << "\" y=\"" << SvgNumber(legend_y)
    << "\" text-anchor=\"middle\">tasks of the job, oldest first</text>\n";
  const double lx = kWidth - kRight + 16;
  o << "<rect x=\"" << SvgNumber(lx) << "\" y=\"" << SvgNumber(kTop) << "\" width=\"12\" "
    << "height=\"12\" fill=\"" << kHealthy << "\"/><text x=\"" << SvgNumber(lx + 18) << "\" y=\""
    << SvgNumber(kTop + 10) << "\">healthy node</text>\n";
  o << "<rect x=\"" << SvgNumber(lx) << "\" y=\"" << SvgNumber(kTop + 20) << "\" width=\"12\" "
    << "height=\"12\" fill=\"" << kOverloaded << "\"/><text x=\"" << SvgNumber(lx + 18) << "\" y=\""
    << SvgNumber(kTop + 30) << "\">overloaded node</text>\n";
  o << "</svg>\n";
  return o.str();
}

}  // namespace mrlocal
