#include "sched/report/gantt_svg.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <optional>
#include <sstream>
#include <unordered_map>

#include "sched/report/bar_chart_svg.h"

namespace mrlocal {
namespace {

std::string SlotLabel(const SlotInfo& s) {
  return "node " + std::to_string(s.node) + " " + std::string(ToString(s.kind)) + " slot " +
         std::to_string(s.id);
}

std::string JobLabel(const JobRecord* j, JobId id) {
  std::string label = "job " + std::to_string(id);
  if (j && !j->name.empty()) label = j->name + " (" + label + ")";
  return label;
}

bool MissedDeadline(const JobRecord* j) {
  return j && j->admitted && j->deadline && j->finished && !j->met_deadline();
}

// A run's time range, in seconds, mapped onto the plot's pixels.
struct TimeAxis {
  double lo, hi, left, width;
  double X(double t) const { return left + (t - lo) / (hi - lo) * width; }
};

}  // namespace

std::string JobColor(JobId id) {
  // HSL with the golden angle between consecutive ids; lightness cycles over three levels
  // so that ids whose hues come close again still differ.
  const double h = std::fmod(static_cast<double>(id) * 137.508, 360.0) / 60.0;
  const double s = 0.62, l = 0.42 + 0.1 * static_cast<double>(id % 3);
  const double c = (1 - std::abs(2 * l - 1)) * s;
  const double x = c * (1 - std::abs(std::fmod(h, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  switch (static_cast<int>(h) % 6) {
    case 0: r = c, g = x; break;
    case 1: r = x, g = c; break;
    case 2: g = c, b = x; break;
    case 3: g = x, b = c; break;
    case 4: r = x, b = c; break;
    default: r = c, b = x; break;
  }
  const double m = l - c / 2;
  auto byte = [m](double v) { return static_cast<int>(std::lround((v + m) * 255.0)); };
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", byte(r), byte(g), byte(b));
  return buf;
}

std::string GanttSvg(const RunRecorder& recorder, const std::vector<SlotInfo>& slots,
                     const GanttOptions& options) {
  // Rows: the first max_slots slots.
  const size_t rows = std::min(slots.size(), options.max_slots);
  std::unordered_map<SlotId, size_t> row_of;
  for (size_t i = 0; i < rows; ++i) row_of.emplace(slots[i].id, i);

  // Bars: the earliest-starting attempts on drawn rows (ties by report order).
  const std::vector<AttemptRecord>& attempts = recorder.attempts();
  std::vector<uint32_t> order;
  order.reserve(attempts.size());
  for (size_t i = 0; i < attempts.size(); ++i)
    if (row_of.count(attempts[i].slot)) order.push_back(static_cast<uint32_t>(i));
  const size_t off_rows = attempts.size() - order.size();
  auto earlier = [&](uint32_t a, uint32_t b) {
    return attempts[a].start != attempts[b].start ? attempts[a].start < attempts[b].start : a < b;
  };
  size_t omitted_bars = 0;
  std::optional<double> cutoff;
  if (order.size() > options.max_bars) {
    std::nth_element(order.begin(), order.begin() + static_cast<ptrdiff_t>(options.max_bars),
                     order.end(), earlier);
    cutoff = Seconds(attempts[order[options.max_bars]].start);
    omitted_bars = order.size() - options.max_bars;
    order.resize(options.max_bars);
  }

  // Time range: from the first arrival or start to the last end or finish (or the cutoff).
  double lo = 0, hi = 0;
  bool any = false;
  auto widen = [&](double t) {
    lo = any ? std::min(lo, t) : t;
    hi = any ? std::max(hi, t) : t;
    any = true;
  };
  for (const JobRecord& j : recorder.jobs()) {
    widen(Seconds(j.arrival));
    if (j.finished && !cutoff) widen(Seconds(j.finish));
  }
  for (uint32_t i : order) {
    widen(Seconds(attempts[i].start));
    widen(cutoff ? std::min(*cutoff, Seconds(attempts[i].end)) : Seconds(attempts[i].end));
  }
  if (cutoff) hi = *cutoff;
  lo = std::min(lo, 0.0);  // the run's clock starts at 0
  if (!cutoff) {
    // Deadlines a little after the last finish show the slack left; far ones would squash
    // the bars, and get a marker at the right edge instead.
    const double reach = hi + 0.25 * (hi - lo);
    for (const JobRecord& j : recorder.jobs())
      if (j.deadline && Seconds(*j.deadline) <= reach) hi = std::max(hi, Seconds(*j.deadline));
  }
  if (!(hi > lo)) hi = lo + 1;

  // Geometry.
  const double left = 200, right = 30, title_h = 58, lane_h = 22;
  const double row_h = std::clamp(std::floor(2400.0 / std::max<size_t>(rows, 1)), 6.0, 18.0);
  const double font = std::min(11.0, row_h - 1);
  const double lane_top = title_h, rows_top = title_h + lane_h + 6;
  const double rows_bottom = rows_top + row_h * static_cast<double>(rows);
  const double legend_top = rows_bottom + 44;
  const TimeAxis axis{lo, hi, left, options.plot_width};
  const double width = left + options.plot_width + right;

  // Legend entries: the first jobs by id, for their colours.
  const size_t legend_jobs = std::min<size_t>(recorder.jobs().size(), 24);
  const size_t legend_cols = std::max<size_t>(1, static_cast<size_t>(options.plot_width / 300));
  const double legend_job_h =
      16 * std::ceil(static_cast<double>(legend_jobs) / static_cast<double>(legend_cols));
  const double legend_h = 5 * 16 + legend_job_h + 16 + 12;
  const double height = legend_top + legend_h;

  std::ostringstream o;
  o << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << SvgNumber(width) << "\" height=\""
    << SvgNumber(height) << "\" viewBox=\"0 0 " << SvgNumber(width) << ' ' << SvgNumber(height)
    << "\" font-family=\"sans-serif\" font-size=\"11\">\n";

  // Title, with what was left out.
  std::string summary = std::to_string(recorder.attempts_seen()) + " task attempts on " +
                        std::to_string(slots.size()) + " slots, " + SvgNumber(lo, 3) + "-" +
                        SvgNumber(hi, 3) + " s";
  std::string omitted;
  if (!recorder.keeps_attempts())
    omitted = "task attempts were not recorded; only deadlines are shown";
  if (slots.size() > rows || off_rows > 0) {
    omitted += (omitted.empty() ? "" : "; ") + std::to_string(slots.size() - rows) +
               " slots after the first " + std::to_string(rows) + " with their " +
               std::to_string(off_rows) + " attempts";
  }
  if (omitted_bars > 0) {
    omitted += (omitted.empty() ? "" : "; ") + std::to_string(omitted_bars) +
               " attempts starting at or after " + SvgNumber(*cutoff, 3) + " s";
  }
  std::string title = options.title + ": " + summary;
  if (!omitted.empty()) title += " (not drawn: " + omitted + "; tasks.csv has everything)";
  o << "<title>" << XmlEscape(title) << "</title>\n";
  o << "<style>.p{fill-opacity:.45;stroke:#000;stroke-width:.8;stroke-dasharray:3 2}"
       ".f{fill-opacity:.45;stroke:#000;stroke-width:.8}"
       ".m{stroke:#d00000;stroke-width:1.5}</style>\n";
  o << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  o << "<text x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">"
    << XmlEscape(options.title) << "</text>\n";
  o << "<text x=\"10\" y=\"38\">" << XmlEscape(summary) << "</text>\n";
  if (!omitted.empty()) {
    o << "<text x=\"10\" y=\"52\" fill=\"#a00\">not drawn: " << XmlEscape(omitted)
      << " (tasks.csv has everything)</text>\n";
  }

  // Row shading and labels.
  o << "<g font-size=\"" << SvgNumber(font) << "\">\n";
  for (size_t i = 0; i < rows; ++i) {
    const double y = rows_top + row_h * static_cast<double>(i);
    if (i % 2 == 1) {
      o << "<rect x=\"" << SvgNumber(left) << "\" y=\"" << SvgNumber(y) << "\" width=\""
        << SvgNumber(options.plot_width) << "\" height=\"" << SvgNumber(row_h)
        << "\" fill=\"#f3f3f3\"/>\n";
    }
    o << "<text x=\"" << SvgNumber(left - 6) << "\" y=\"" << SvgNumber(y + row_h / 2 + font / 3)
      << "\" text-anchor=\"end\">" << XmlEscape(SlotLabel(slots[i])) << "</text>\n";
  }
  o << "</g>\n";

  // Time axis: grid lines through the rows, tick labels below them.
  std::vector<double> ticks = NiceTicks(lo, hi, 10);
  const int tick_decimals = ticks.size() > 1 && ticks[1] - ticks[0] < 1 ? 3 : 0;
  for (double t : ticks) {
    if (t < lo - 1e-9 || t > hi + 1e-9) continue;
    const std::string x = SvgNumber(axis.X(t), 1);
    o << "<line x1=\"" << x << "\" x2=\"" << x << "\" y1=\"" << SvgNumber(lane_top) << "\" y2=\""
      << SvgNumber(rows_bottom) << "\" stroke=\"#ccc\" stroke-width=\"0.5\"/>\n";
    o << "<text x=\"" << x << "\" y=\"" << SvgNumber(rows_bottom + 14)
      << "\" text-anchor=\"middle\">" << SvgNumber(t, tick_decimals) << "</text>\n";
  }
  o << "<line x1=\"" << SvgNumber(left) << "\" x2=\"" << SvgNumber(left + options.plot_width)
    << "\" y1=\"" << SvgNumber(rows_bottom) << "\" y2=\"" << SvgNumber(rows_bottom)
    << "\" stroke=\"black\"/>\n";
  o << "<text x=\"" << SvgNumber(left + options.plot_width / 2) << "\" y=\""
    << SvgNumber(rows_bottom + 30) << "\" text-anchor=\"middle\">time (s)</text>\n";

  // Deadline lane.
  o << "<text x=\"" << SvgNumber(left - 6) << "\" y=\"" << SvgNumber(lane_top + lane_h / 2 + 4)
    << "\" text-anchor=\"end\" font-style=\"italic\">deadlines</text>\n";
  size_t deadlines_drawn = 0, deadlines_later = 0;
  for (const JobRecord& j : recorder.jobs()) {
    if (!j.deadline) continue;
    const double d = Seconds(*j.deadline);
    if (d > hi || deadlines_drawn >= options.max_deadlines) {
      ++deadlines_later;
      continue;
    }
    ++deadlines_drawn;
    const char* verdict = !j.admitted       ? "rejected"
                          : !j.finished     ? "unfinished"
                          : j.met_deadline() ? "met"
                                             : "missed";
    o << "<rect x=\"" << SvgNumber(axis.X(d) - 1, 1) << "\" y=\"" << SvgNumber(lane_top + 2)
      << "\" width=\"2\" height=\"" << SvgNumber(lane_h - 4) << "\" fill=\"" << JobColor(j.id)
      << "\"" << (MissedDeadline(&j) ? " class=\"m\"" : "") << "><title>deadline of "
      << XmlEscape(JobLabel(&j, j.id)) << ": " << SvgNumber(d, 3) << " s, " << verdict
      << "</title></rect>\n";
  }
  if (deadlines_later > 0) {
    o << "<text x=\"" << SvgNumber(left + options.plot_width + 2) << "\" y=\""
      << SvgNumber(lane_top + lane_h / 2 + 4) << "\" font-size=\"9\">&#9656;<title>"
      << deadlines_later << " deadlines not drawn (after " << SvgNumber(hi, 3)
      << " s or over the cap)</title></text>\n";
  }

  // Bars.
  // Bars, grouped by job so that the colour is written once per job (a slot runs one
  // attempt at a time, so bars never overlap and the drawing order does not matter).
  std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
    return attempts[a].job != attempts[b].job ? attempts[a].job < attempts[b].job
                                              : earlier(a, b);
  });
  const double bar_h = std::max(1.0, row_h - 2);
  std::optional<JobId> group;
  for (uint32_t i : order) {
    const AttemptRecord& a = attempts[i];
    const JobRecord* j = recorder.job(a.job);
    if (group != a.job) {
      o << (group ? "</g>\n" : "") << "<g fill=\"" << JobColor(a.job) << "\">\n";
      group = a.job;
    }
    const double s = Seconds(a.start), e = std::min(Seconds(a.end), hi);
    // A small gap after wide bars keeps back-to-back attempts of one job apart.
    double w = axis.X(e) - axis.X(s);
    w = w >= 3 ? w - 0.6 : std::max(0.6, w);
    const double x = axis.X(s);
    const double y = rows_top + row_h * static_cast<double>(row_of.at(a.slot)) + 1;
    std::string cls = a.preempted() ? "p" : !a.ok() ? "f" : "";
    if (MissedDeadline(j)) cls += cls.empty() ? "m" : " m";
    o << "<rect x=\"" << SvgNumber(x, 1) << "\" y=\"" << SvgNumber(y, 1) << "\" width=\""
      << SvgNumber(w, 1) << "\" height=\"" << SvgNumber(bar_h, 1) << "\"";
    if (!cls.empty()) o << " class=\"" << cls << "\"";
    o << "><title>" << XmlEscape(JobLabel(j, a.job)) << ": " << ToString(a.kind) << ' '
      << a.index << " attempt " << a.attempt << ", " << SvgNumber(s, 3) << "-"
      << SvgNumber(Seconds(a.end), 3) << " s"
      << (a.preempted() ? ", preempted" : !a.ok() ? ", failed" : "")
      << (MissedDeadline(j) ? ", job missed its deadline" : "") << "</title></rect>\n";
  }
  if (group) o << "</g>\n";

  // Legend.
  double ly = legend_top;
  auto entry = [&](const std::string& swatch, const std::string& text) {
    o << swatch << "<text x=\"" << SvgNumber(left + 28) << "\" y=\"" << SvgNumber(ly + 10)
      << "\">" << XmlEscape(text) << "</text>\n";
    ly += 16;
  };
  auto box = [&](const std::string& attrs) {
    return "<rect x=\"" + SvgNumber(left) + "\" y=\"" + SvgNumber(ly) +
           "\" width=\"20\" height=\"12\" " + attrs + "/>";
  };
  o << "<text x=\"" << SvgNumber(left - 6) << "\" y=\"" << SvgNumber(ly + 10)
    << "\" text-anchor=\"end\" font-weight=\"bold\">legend</text>\n";
  entry(box("fill=\"#888\""), "a task attempt, coloured by its job (hover for job, task, times)");
  entry(box("fill=\"#888\" class=\"m\""), "attempt of a job that missed its deadline");
  entry(box("fill=\"#888\" class=\"p\""), "preempted attempt (killed and requeued)");
  entry(box("fill=\"#888\" class=\"f\""), "failed attempt");
  entry("<rect x=\"" + SvgNumber(left + 9) + "\" y=\"" + SvgNumber(ly) +
            "\" width=\"2\" height=\"12\" fill=\"#888\"/>",
        "deadlines lane: a job's absolute deadline, in its colour (red outline: missed)");
  for (size_t k = 0; k < legend_jobs; ++k) {
    const JobRecord& j = recorder.jobs()[k];
    const double x = left + 300.0 * static_cast<double>(k % legend_cols);
    const double y = ly + 16 * static_cast<double>(k / legend_cols);
    o << "<rect x=\"" << SvgNumber(x) << "\" y=\"" << SvgNumber(y)
      << "\" width=\"12\" height=\"12\" fill=\"" << JobColor(j.id) << "\"/><text x=\""
      << SvgNumber(x + 16) << "\" y=\"" << SvgNumber(y + 10) << "\">"
      << XmlEscape(JobLabel(&j, j.id)) << "</text>\n";
  }
  if (recorder.jobs().size() > legend_jobs) {
    o << "<text x=\"" << SvgNumber(left) << "\" y=\""
      << SvgNumber(ly + legend_job_h + 10) << "\">and "
      << recorder.jobs().size() - legend_jobs << " more jobs</text>\n";
  }
  o << "</svg>\n";
  return o.str();
}

}  // namespace mrlocal
