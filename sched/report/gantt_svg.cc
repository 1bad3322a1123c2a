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

// A promise broken: a best-effort job's miss is not one.
bool MissedDeadline(const JobRecord* j) {
  return j && j->guaranteed() && j->deadline && j->finished && !j->met_deadline();
}

// A run's time range, in seconds, mapped onto the plot's pixels.
struct TimeAxis {
  double lo, hi, left, width;
  double X(double t) const { return left + (t - lo) / (hi - lo) * width; }
};

}  // namespace

std::string JobLabel(const JobRecord* j, JobId id) {
  std::string label = "job " + std::to_string(id);
  if (j && !j->name.empty()) label = j->name + " (" + label + ")";
  return label;
}

std::string JobColorKey(const std::vector<JobRecord>& jobs, size_t shown, size_t columns,
                        double left, double top,
                        const std::function<std::string(const JobRecord&)>& label) {
  std::ostringstream o;
  for (size_t k = 0; k < shown; ++k) {
    const JobRecord& j = jobs[k];
    const double x = left + 300.0 * static_cast<double>(k % columns);
    const double y = top + 16 * static_cast<double>(k / columns);
    o << "<rect x=\"" << SvgNumber(x) << "\" y=\"" << SvgNumber(y)
      << "\" width=\"12\" height=\"12\" fill=\"" << JobColor(j.id) << "\"/><text x=\""
      << SvgNumber(x + 16) << "\" y=\"" << SvgNumber(y + 10) << "\">" << XmlEscape(label(j))
      << "</text>\n";
  }
  if (jobs.size() > shown) {
    const double rows = std::ceil(static_cast<double>(shown) / static_cast<double>(columns));
    o << "<text x=\"" << SvgNumber(left) << "\" y=\"" << SvgNumber(top + 16 * rows + 10)
      << "\">and " << jobs.size() - shown << " more jobs</text>\n";
  }
  return o.str();
}

std::string JobColor(JobId id) {
  // HSL with the golden angle between consecutive ids; lightness cycles over three levels
  // so that ids whose hues come close again still differ.
  const double h = std::fmod(static_cast<double>(id) * 137.508, 360.0) / 60.0;
  const double s = 0.62, l = 0.42 + 0.1 * static_cast<double>(id % 3);
  const double c = (1 - std::abs(2 * l - 1)) * s;
  const double x = c * (1 - std::abs(std::fmod(h, 2.0) - 1));
  double r = 0, g = 0, b = 0;
  switch (static_cast<int>(h) % 6) {
    case 0:
      r = c, g = x;
      break;
    case 1:
      r = x, g = c;
      break;
    case 2:
      g = c, b = x;
      break;
    case 3:
      g = x, b = c;
      break;
    case 4:
      r = x, b = c;
      break;
    default:
      r = c, b = x;
      break;
  }
  const double m = l - c / 2;
  auto byte = [m](double v) { return static_cast<int>(std::lround((v + m) * 255.0)); };
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", byte(r), byte(g), byte(b));
  return buf;
}

namespace {

// What one chart draws and where: the rows, the bars kept, the time range and the layout.
// Each Write* method adds one part of the SVG, in the order GanttSvg calls them.
class GanttChart {
 public:
  GanttChart(const RunRecorder& recorder, const std::vector<SlotInfo>& slots,
             const GanttOptions& options)
      : recorder_(recorder), slots_(slots), options_(options) {
    SelectBars();
    FindTimeRange();
    Lay();
  }

  std::string Svg() {
    o_ << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << SvgNumber(width_)
       << "\" height=\"" << SvgNumber(height_) << "\" viewBox=\"0 0 " << SvgNumber(width_) << ' '
       << SvgNumber(height_) << "\" font-family=\"sans-serif\" font-size=\"11\">\n";
    WriteTitle();
    WriteRows();
    WriteAxis();
    WriteDeadlines();
    WriteBars();
    WriteLegend();
    o_ << "</svg>\n";
    return o_.str();
  }

 private:
  const std::vector<AttemptRecord>& attempts() const { return recorder_.attempts(); }
  bool Earlier(uint32_t a, uint32_t b) const {
    return attempts()[a].start != attempts()[b].start ? attempts()[a].start < attempts()[b].start
                                                      : a < b;
  }

  // Rows: the first max_slots slots. Bars: the earliest-starting attempts on drawn rows
  // (ties by report order).
  void SelectBars() {
    rows_ = std::min(slots_.size(), options_.max_slots);
    for (size_t i = 0; i < rows_; ++i) row_of_.emplace(slots_[i].id, i);
    order_.reserve(attempts().size());
    for (size_t i = 0; i < attempts().size(); ++i)
      if (row_of_.count(attempts()[i].slot)) order_.push_back(static_cast<uint32_t>(i));
    off_rows_ = attempts().size() - order_.size();
    if (order_.size() > options_.max_bars) {
      auto earlier = [this](uint32_t a, uint32_t b) { return Earlier(a, b); };
      std::nth_element(order_.begin(), order_.begin() + static_cast<ptrdiff_t>(options_.max_bars),
                       order_.end(), earlier);
      cutoff_ = Seconds(attempts()[order_[options_.max_bars]].start);
      omitted_bars_ = order_.size() - options_.max_bars;
      order_.resize(options_.max_bars);
    }
  }

  // From the first arrival or start to the last end or finish (or the cutoff).
  void FindTimeRange() {
    bool any = false;
    auto widen = [&](double t) {
      lo_ = any ? std::min(lo_, t) : t;
      hi_ = any ? std::max(hi_, t) : t;
      any = true;
    };
    for (const JobRecord& j : recorder_.jobs()) {
      widen(Seconds(j.arrival));
      if (j.finished && !cutoff_) widen(Seconds(j.finish));
    }
    for (uint32_t i : order_) {
      widen(Seconds(attempts()[i].start));
      widen(cutoff_ ? std::min(*cutoff_, Seconds(attempts()[i].end)) : Seconds(attempts()[i].end));
    }
    if (cutoff_) hi_ = *cutoff_;
    lo_ = std::min(lo_, 0.0);  // the run's clock starts at 0
    if (!cutoff_) {
      // Deadlines a little after the last finish show the slack left; far ones would squash
      // the bars, and get a marker at the right edge instead.
      const double reach = hi_ + 0.25 * (hi_ - lo_);
      for (const JobRecord& j : recorder_.jobs())
        if (j.deadline && Seconds(*j.deadline) <= reach) hi_ = std::max(hi_, Seconds(*j.deadline));
    }
    if (!(hi_ > lo_)) hi_ = lo_ + 1;
  }

  void Lay() {
    row_h_ = std::clamp(std::floor(2400.0 / std::max<size_t>(rows_, 1)), 6.0, 18.0);
    font_ = std::min(11.0, row_h_ - 1);
    rows_bottom_ = kRowsTop + row_h_ * static_cast<double>(rows_);
    legend_top_ = rows_bottom_ + 44;
    axis_ = TimeAxis{lo_, hi_, kLeft, options_.plot_width};
    width_ = kLeft + options_.plot_width + kRight;
    // Legend entries: the first jobs by id, for their colours.
    legend_jobs_ = std::min<size_t>(recorder_.jobs().size(), 24);
    legend_cols_ = std::max<size_t>(1, static_cast<size_t>(options_.plot_width / 300));
    legend_job_h_ =
        16 * std::ceil(static_cast<double>(legend_jobs_) / static_cast<double>(legend_cols_));
    height_ = legend_top_ + 5 * 16 + legend_job_h_ + 16 + 12;
  }

  // The title, with what was left out.
  void WriteTitle() {
    std::string summary = std::to_string(recorder_.attempts_seen()) + " task attempts on " +
                          std::to_string(slots_.size()) + " slots, " + SvgNumber(lo_, 3) + "-" +
                          SvgNumber(hi_, 3) + " s";
    std::string omitted;
    if (!recorder_.keeps_attempts())
      omitted = "task attempts were not recorded; only deadlines are shown";
    if (slots_.size() > rows_ || off_rows_ > 0) {
      omitted += (omitted.empty() ? "" : "; ") + std::to_string(slots_.size() - rows_) +
                 " slots after the first " + std::to_string(rows_) + " with their " +
                 std::to_string(off_rows_) + " attempts";
    }
    if (omitted_bars_ > 0) {
      omitted += (omitted.empty() ? "" : "; ") + std::to_string(omitted_bars_) +
                 " attempts starting at or after " + SvgNumber(*cutoff_, 3) + " s";
    }
    std::string title = options_.title + ": " + summary;
    if (!omitted.empty()) title += " (not drawn: " + omitted + "; tasks.csv has everything)";
    o_ << "<title>" << XmlEscape(title) << "</title>\n";
    o_ << "<style>.p{fill-opacity:.45;stroke:#000;stroke-width:.8;stroke-dasharray:3 2}"
          ".f{fill-opacity:.45;stroke:#000;stroke-width:.8}"
          ".m{stroke:#d00000;stroke-width:1.5}</style>\n";
    o_ << "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    o_ << "<text x=\"10\" y=\"20\" font-size=\"15\" font-weight=\"bold\">"
       << XmlEscape(options_.title) << "</text>\n";
    o_ << "<text x=\"10\" y=\"38\">" << XmlEscape(summary) << "</text>\n";
    if (!omitted.empty()) {
      o_ << "<text x=\"10\" y=\"52\" fill=\"#a00\">not drawn: " << XmlEscape(omitted)
         << " (tasks.csv has everything)</text>\n";
    }
  }

  // Row shading and labels.
  void WriteRows() {
    o_ << "<g font-size=\"" << SvgNumber(font_) << "\">\n";
    for (size_t i = 0; i < rows_; ++i) {
      const double y = kRowsTop + row_h_ * static_cast<double>(i);
      if (i % 2 == 1) {
        o_ << "<rect x=\"" << SvgNumber(kLeft) << "\" y=\"" << SvgNumber(y) << "\" width=\""
           << SvgNumber(options_.plot_width) << "\" height=\"" << SvgNumber(row_h_)
           << "\" fill=\"#f3f3f3\"/>\n";
      }
      o_ << "<text x=\"" << SvgNumber(kLeft - 6) << "\" y=\""
         << SvgNumber(y + row_h_ / 2 + font_ / 3) << "\" text-anchor=\"end\">"
         << XmlEscape(SlotLabel(slots_[i])) << "</text>\n";
    }
    o_ << "</g>\n";
  }

  // Grid lines through the rows, tick labels below them.
  void WriteAxis() {
    std::vector<double> ticks = NiceTicks(lo_, hi_, 10);
    const int tick_decimals = ticks.size() > 1 && ticks[1] - ticks[0] < 1 ? 3 : 0;
    for (double t : ticks) {
      if (t < lo_ - 1e-9 || t > hi_ + 1e-9) continue;
      const std::string x = SvgNumber(axis_.X(t), 1);
      o_ << "<line x1=\"" << x << "\" x2=\"" << x << "\" y1=\"" << SvgNumber(kLaneTop) << "\" y2=\""
         << SvgNumber(rows_bottom_) << "\" stroke=\"#ccc\" stroke-width=\"0.5\"/>\n";
      o_ << "<text x=\"" << x << "\" y=\"" << SvgNumber(rows_bottom_ + 14)
         << "\" text-anchor=\"middle\">" << SvgNumber(t, tick_decimals) << "</text>\n";
    }
    o_ << "<line x1=\"" << SvgNumber(kLeft) << "\" x2=\"" << SvgNumber(kLeft + options_.plot_width)
       << "\" y1=\"" << SvgNumber(rows_bottom_) << "\" y2=\"" << SvgNumber(rows_bottom_)
       << "\" stroke=\"black\"/>\n";
    o_ << "<text x=\"" << SvgNumber(kLeft + options_.plot_width / 2) << "\" y=\""
       << SvgNumber(rows_bottom_ + 30) << "\" text-anchor=\"middle\">time (s)</text>\n";
  }

  void WriteDeadlines() {
    o_ << "<text x=\"" << SvgNumber(kLeft - 6) << "\" y=\"" << SvgNumber(kLaneTop + kLaneH / 2 + 4)
       << "\" text-anchor=\"end\" font-style=\"italic\">deadlines</text>\n";
    size_t drawn = 0, later = 0;
    for (const JobRecord& j : recorder_.jobs()) {
      if (!j.deadline) continue;
      const double d = Seconds(*j.deadline);
      if (d > hi_ || drawn >= options_.max_deadlines) {
        ++later;
        continue;
      }
      ++drawn;
      const char* verdict = !j.admitted        ? "rejected"
                            : !j.finished      ? "unfinished"
                            : j.met_deadline() ? (j.best_effort ? "met, best effort" : "met")
                            : j.best_effort    ? "missed, best effort"
                                               : "missed";
      o_ << "<rect x=\"" << SvgNumber(axis_.X(d) - 1, 1) << "\" y=\"" << SvgNumber(kLaneTop + 2)
         << "\" width=\"2\" height=\"" << SvgNumber(kLaneH - 4) << "\" fill=\"" << JobColor(j.id)
         << "\"" << (MissedDeadline(&j) ? " class=\"m\"" : "") << "><title>deadline of "
         << XmlEscape(JobLabel(&j, j.id)) << ": " << SvgNumber(d, 3) << " s, " << verdict
         << "</title></rect>\n";
    }
    if (later > 0) {
      o_ << "<text x=\"" << SvgNumber(kLeft + options_.plot_width + 2) << "\" y=\""
         << SvgNumber(kLaneTop + kLaneH / 2 + 4) << "\" font-size=\"9\">&#9656;<title>" << later
         << " deadlines not drawn (after " << SvgNumber(hi_, 3)
         << " s or over the cap)</title></text>\n";
    }
  }

  // Bars, grouped by job so that the colour is written once per job (a slot runs one
  // attempt at a time, so bars never overlap and the drawing order does not matter).
  void WriteBars() {
    std::sort(order_.begin(), order_.end(), [&](uint32_t a, uint32_t b) {
      return attempts()[a].job != attempts()[b].job ? attempts()[a].job < attempts()[b].job
                                                    : Earlier(a, b);
    });
    std::optional<JobId> group;
    for (uint32_t i : order_) {
      const AttemptRecord& a = attempts()[i];
      if (group != a.job) {
        o_ << (group ? "</g>\n" : "") << "<g fill=\"" << JobColor(a.job) << "\">\n";
        group = a.job;
      }
      WriteBar(a);
    }
    if (group) o_ << "</g>\n";
  }

  void WriteBar(const AttemptRecord& a) {
    const JobRecord* j = recorder_.job(a.job);
    const double s = Seconds(a.start), e = std::min(Seconds(a.end), hi_);
    // A small gap after wide bars keeps back-to-back attempts of one job apart.
    double w = axis_.X(e) - axis_.X(s);
    w = w >= 3 ? w - 0.6 : std::max(0.6, w);
    const double y = kRowsTop + row_h_ * static_cast<double>(row_of_.at(a.slot)) + 1;
    std::string cls = a.preempted() ? "p" : !a.ok() ? "f" : "";
    if (MissedDeadline(j)) cls += cls.empty() ? "m" : " m";
    o_ << "<rect x=\"" << SvgNumber(axis_.X(s), 1) << "\" y=\"" << SvgNumber(y, 1) << "\" width=\""
       << SvgNumber(w, 1) << "\" height=\"" << SvgNumber(std::max(1.0, row_h_ - 2), 1) << "\"";
    if (!cls.empty()) o_ << " class=\"" << cls << "\"";
    o_ << "><title>" << XmlEscape(JobLabel(j, a.job)) << ": " << ToString(a.kind) << ' ' << a.index
       << " attempt " << a.attempt << ", " << SvgNumber(s, 3) << "-" << SvgNumber(Seconds(a.end), 3)
       << " s"
       << (a.preempted() ? ", preempted"
           : !a.ok()     ? ", failed"
                         : "")
       << (MissedDeadline(j) ? ", job missed its deadline" : "") << "</title></rect>\n";
  }

  void WriteLegend() {
    double ly = legend_top_;
    auto entry = [&](const std::string& swatch, const std::string& text) {
      o_ << swatch << "<text x=\"" << SvgNumber(kLeft + 28) << "\" y=\"" << SvgNumber(ly + 10)
         << "\">" << XmlEscape(text) << "</text>\n";
      ly += 16;
    };
    auto box = [&](const std::string& attrs) {
      return "<rect x=\"" + SvgNumber(kLeft) + "\" y=\"" + SvgNumber(ly) +
             "\" width=\"20\" height=\"12\" " + attrs + "/>";
    };
    o_ << "<text x=\"" << SvgNumber(kLeft - 6) << "\" y=\"" << SvgNumber(ly + 10)
       << "\" text-anchor=\"end\" font-weight=\"bold\">legend</text>\n";
    entry(box("fill=\"#888\""), "a task attempt, coloured by its job (hover for job, task, times)");
    entry(box("fill=\"#888\" class=\"m\""), "attempt of a job that missed its deadline");
    entry(box("fill=\"#888\" class=\"p\""), "preempted attempt (killed and requeued)");
    entry(box("fill=\"#888\" class=\"f\""), "failed attempt");
    entry("<rect x=\"" + SvgNumber(kLeft + 9) + "\" y=\"" + SvgNumber(ly) +
              "\" width=\"2\" height=\"12\" fill=\"#888\"/>",
          "deadlines lane: a job's absolute deadline, in its colour (red outline: missed)");
    o_ << JobColorKey(recorder_.jobs(), legend_jobs_, legend_cols_, kLeft, ly,
                      [](const JobRecord& j) { return JobLabel(&j, j.id); });
  }

  // Fixed geometry, in pixels.
  static constexpr double kLeft = 200, kRight = 30, kTitleH = 58, kLaneH = 22;
  static constexpr double kLaneTop = kTitleH, kRowsTop = kTitleH + kLaneH + 6;

  const RunRecorder& recorder_;
  const std::vector<SlotInfo>& slots_;
  const GanttOptions& options_;
  size_t rows_ = 0;
  std::unordered_map<SlotId, size_t> row_of_;
  std::vector<uint32_t> order_;  // the attempts drawn
  size_t off_rows_ = 0, omitted_bars_ = 0;
  std::optional<double> cutoff_;
  double lo_ = 0, hi_ = 0;
  double row_h_ = 0, font_ = 0, rows_bottom_ = 0, legend_top_ = 0, width_ = 0, height_ = 0;
  TimeAxis axis_{};
  size_t legend_jobs_ = 0, legend_cols_ = 1;
  double legend_job_h_ = 0;
  std::ostringstream o_;
};

}  // namespace

std::string GanttSvg(const RunRecorder& recorder, const std::vector<SlotInfo>& slots,
                     const GanttOptions& options) {
  return GanttChart(recorder, slots, options).Svg();
}

}  // namespace mrlocal
