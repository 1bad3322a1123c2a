#include "sched/report/goals_svg.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <sstream>
#include <unordered_map>

#include "sched/report/bar_chart_svg.h"
#include "sched/report/gantt_svg.h"

namespace mrlocal {
namespace {

// f(t) from `at` on, per SlotKind (map, reduce).
struct CapacityStep {
  double at = 0;
  std::array<double, 2> capacity{};
};

size_t KindIndex(SlotKind kind) { return kind == SlotKind::kMap ? 0 : 1; }

// The step function f(t): the slots' base speeds summed per node, each node's sum moved by
// its availability's steps in time order (every factor is 1.0 before its first step).
std::vector<CapacityStep> Capacity(const std::vector<SlotInfo>& slots,
                                   const std::map<NodeId, SpeedProfile>& availability) {
  std::map<NodeId, std::array<double, 2>> rate;
  CapacityStep now;
  for (const SlotInfo& s : slots) {
    rate[s.node][KindIndex(s.kind)] += s.speed;
    now.capacity[KindIndex(s.kind)] += s.speed;
  }
  struct Change {
    double at;
    NodeId node;
    double from, to;
  };
  std::vector<Change> changes;
  for (const auto& [node, profile] : availability) {
    if (!rate.count(node)) continue;
    double before = 1.0;
    for (size_t i = 0; i < profile.size(); ++i) {
      changes.push_back({Seconds(profile.times()[i]), node, before, profile.factors()[i]});
      before = profile.factors()[i];
    }
  }
  std::stable_sort(changes.begin(), changes.end(),
                   [](const Change& a, const Change& b) { return a.at < b.at; });
  std::vector<CapacityStep> steps{now};
  for (const Change& c : changes) {
    for (size_t k : {0, 1}) now.capacity[k] += rate[c.node][k] * (c.to - c.from);
    now.at = std::max(0.0, c.at);
    if (steps.back().at == now.at)
      steps.back() = now;
    else
      steps.push_back(now);
  }
  return steps;
}

// Goal verdicts as the legend and the tooltips say them.
const char* GoalVerdict(const JobRecord& j) {
  return j.met_goal()     ? "met"
         : !j.admitted    ? "missed (rejected)"
         : !j.finished    ? "missed (unfinished)"
         : !j.completed() ? "missed (failed)"
                          : "missed (late)";
}

// One job's band: its average number of busy slots per time bin, over bins [first, last].
struct Band {
  size_t job = 0;  // position in the recorder's jobs
  size_t first = 0;
  std::vector<double> slots;
};

class GoalsChart {
 public:
  GoalsChart(const RunRecorder& recorder, const std::vector<SlotInfo>& slots,
             const std::map<NodeId, SpeedProfile>& availability, const GoalsOptions& options)
      : recorder_(recorder),
        slots_(slots),
        options_(options),
        capacity_(Capacity(slots, availability)) {
    FindTimeRange();
    MakeBands();
    Lay();
  }

  std::string Svg() {
    o_ << SvgChartHeader(width_, height_, options_.title, Summary());
    WriteCapacity();
    WriteBands();
    WriteTimeAxis();
    WriteGoals();
    WriteLegend();
    o_ << "</svg>\n";
    return o_.str();
  }

 private:
  double X(double t) const { return kLeft + (t - lo_) / (hi_ - lo_) * options_.plot_width; }
  static double Y(double v, double v_max, double top, double height) {
    return top + height - v / v_max * height;
  }

  // From 0 to the last arrival, attempt end or finish; goals up to a quarter of that
  // further are drawn, later ones counted.
  void FindTimeRange() {
    for (const JobRecord& j : recorder_.jobs()) {
      hi_ = std::max(hi_, Seconds(j.arrival));
      if (j.finished) hi_ = std::max(hi_, Seconds(j.finish));
    }
    for (const AttemptRecord& a : recorder_.attempts()) hi_ = std::max(hi_, Seconds(a.end));
    const double reach = hi_ * 1.25;
    for (const JobRecord& j : recorder_.jobs())
      if (j.goal && Seconds(*j.goal) <= reach) hi_ = std::max(hi_, Seconds(*j.goal));
    if (!(hi_ > lo_)) hi_ = lo_ + 1;
  }

  // Each attempt adds its overlap with every bin it covers, as a share of the bin.
  void MakeBands() {
    bins_ = std::max<size_t>(1, static_cast<size_t>(options_.plot_width / kBinPixels));
    const double bin_s = (hi_ - lo_) / static_cast<double>(bins_);
    std::unordered_map<JobId, size_t> band_of;
    auto bin = [&](double t) {
      return std::min(bins_ - 1, static_cast<size_t>(std::max(0.0, (t - lo_) / bin_s)));
    };
    for (const AttemptRecord& a : recorder_.attempts()) {
      const JobRecord* job = recorder_.job(a.job);
      if (!job) continue;  // not the recorder's: nothing to name it by
      auto [it, added] = band_of.emplace(a.job, bands_.size());
      if (added) {
        const auto position = static_cast<size_t>(job - recorder_.jobs().data());
        bands_.push_back({position, bin(Seconds(a.start)), {}});
      }
      Band& band = bands_[it->second];
      const double s = Seconds(a.start), e = std::min(Seconds(a.end), hi_);
      const size_t b0 = bin(s), b1 = bin(e);
      if (b0 < band.first) {
        band.slots.insert(band.slots.begin(), band.first - b0, 0.0);
        band.first = b0;
      }
      if (b1 - band.first >= band.slots.size()) band.slots.resize(b1 - band.first + 1, 0.0);
      for (size_t b = b0; b <= b1 && e > s; ++b) {
        const double from = std::max(s, lo_ + bin_s * static_cast<double>(b));
        const double to = std::min(e, lo_ + bin_s * static_cast<double>(b + 1));
        if (to > from) band.slots[b - band.first] += (to - from) / bin_s;
      }
    }
    std::sort(bands_.begin(), bands_.end(),
              [](const Band& a, const Band& b) { return a.job < b.job; });
  }

  void Lay() {
    for (const CapacityStep& s : capacity_)
      capacity_max_ = std::max({capacity_max_, s.capacity[0], s.capacity[1]});
    // Each panel's top at a round tick, so that it is labelled.
    capacity_max_ = NiceTicks(0, capacity_max_ > 0 ? capacity_max_ : 1, 4).back();
    slots_max_ = NiceTicks(0, std::max(1.0, static_cast<double>(slots_.size())), 4).back();
    width_ = kLeft + options_.plot_width + kRight;
    legend_jobs_ = std::min(recorder_.jobs().size(), options_.legend_jobs);
    legend_cols_ = std::max<size_t>(1, static_cast<size_t>(options_.plot_width / 300));
    const double job_rows = std::ceil(static_cast<double>(legend_jobs_) / legend_cols_);
    legend_top_ = kBandsTop + kBandsH + 48;
    height_ = legend_top_ + 16 * (5 + job_rows + 1) + 12;
  }

  std::string Summary() const {
    size_t goals = 0, met = 0;
    for (const JobRecord& j : recorder_.jobs()) {
      goals += j.goal.has_value();
      met += j.met_goal();
    }
    const size_t jobs = recorder_.jobs().size();
    std::string s = std::to_string(jobs) + (jobs == 1 ? " job, " : " jobs, ") +
                    std::to_string(goals) + " with a goal: " + std::to_string(met) + " met, " +
                    std::to_string(goals - met) + " missed; 0-" + SvgNumber(hi_, 3) + " s";
    if (!recorder_.keeps_attempts()) s += " (attempts not recorded: no allocation drawn)";
    return s;
  }

  // A panel's frame, its y ticks and label.
  void WritePanel(double top, double height, double v_max, const std::string& label) {
    for (double v : NiceTicks(0, v_max, 4)) {
      if (v > v_max + 1e-9) continue;
      const std::string y = SvgNumber(Y(v, v_max, top, height), 1);
      o_ << "<line x1=\"" << SvgNumber(kLeft) << "\" x2=\""
         << SvgNumber(kLeft + options_.plot_width) << "\" y1=\"" << y << "\" y2=\"" << y
         << "\" stroke=\"#e4e4e4\"/>\n";
      o_ << "<text x=\"" << SvgNumber(kLeft - 6) << "\" y=\""
         << SvgNumber(Y(v, v_max, top, height) + 4, 1) << "\" text-anchor=\"end\">"
         << SvgNumber(v, 2) << "</text>\n";
    }
    o_ << "<path d=\"M" << SvgNumber(kLeft) << ' ' << SvgNumber(top) << " V"
       << SvgNumber(top + height) << " H" << SvgNumber(kLeft + options_.plot_width)
       << "\" fill=\"none\" stroke=\"black\"/>\n";
    o_ << "<text transform=\"translate(16 " << SvgNumber(top + height / 2)
       << ") rotate(-90)\" text-anchor=\"middle\">" << XmlEscape(label) << "</text>\n";
  }

  bool HasSlots(size_t kind) const {
    return std::any_of(capacity_.begin(), capacity_.end(),
                       [kind](const CapacityStep& s) { return s.capacity[kind] > 0; });
  }

  // f(t) per slot kind as a step line; a kind without slots is left out.
  void WriteCapacity() {
    WritePanel(kCapacityTop, kCapacityH, capacity_max_, "capacity f(t)");
    for (size_t k : {0, 1}) {
      if (!HasSlots(k)) continue;
      o_ << "<path class=\"capacity " << (k == 0 ? "map" : "reduce") << "\" d=\"";
      for (size_t i = 0; i < capacity_.size() && capacity_[i].at <= hi_; ++i) {
        const std::string y =
            SvgNumber(Y(capacity_[i].capacity[k], capacity_max_, kCapacityTop, kCapacityH), 1);
        if (i == 0)
          o_ << 'M' << SvgNumber(X(lo_), 1) << ' ' << y;
        else
          o_ << " H" << SvgNumber(X(capacity_[i].at), 1) << " V" << y;
      }
      o_ << " H" << SvgNumber(X(hi_), 1) << "\" fill=\"none\" stroke=\"" << kCapacityColor[k]
         << "\" stroke-width=\"2\"" << (k == 1 ? " stroke-dasharray=\"6 4\"" : "")
         << "><title>f(t) of the " << (k == 0 ? "map" : "reduce")
         << " slots: base speed x availability, summed</title></path>\n";
    }
  }

  // Stacked bands: each starts on the top of those before it.
  void WriteBands() {
    WritePanel(kBandsTop, kBandsH, slots_max_, "slots running the job");
    std::vector<double> floor(bins_, 0.0);
    const double bin_px = options_.plot_width / static_cast<double>(bins_);
    auto y = [&](double v) { return SvgNumber(Y(v, slots_max_, kBandsTop, kBandsH), 1); };
    auto x = [&](size_t b) { return SvgNumber(kLeft + bin_px * static_cast<double>(b), 1); };
    for (const Band& band : bands_) {
      const size_t end = band.first + band.slots.size();
      o_ << "<path fill=\"" << JobColor(recorder_.jobs()[band.job].id) << "\" d=\"M"
         << x(band.first) << ' ' << y(floor[band.first]);
      std::string last;
      for (size_t b = band.first; b < end; ++b) {  // the top edge, left to right
        const std::string top = y(floor[b] + band.slots[b - band.first]);
        if (top != last) o_ << " V" << top;
        o_ << " H" << x(b + 1);
        last = top;
      }
      for (size_t b = end; b-- > band.first;) {  // the bottom edge, back
        const std::string bottom = y(floor[b]);
        if (bottom != last) o_ << " V" << bottom;
        o_ << " H" << x(b);
        last = bottom;
      }
      const double peak = *std::max_element(band.slots.begin(), band.slots.end());
      o_ << " Z\"><title>" << XmlEscape(BandTitle(recorder_.jobs()[band.job], peak))
         << "</title></path>\n";
      for (size_t b = band.first; b < end; ++b) floor[b] += band.slots[b - band.first];
    }
  }

  std::string BandTitle(const JobRecord& j, double peak) const {
    std::string s = JobLabel(&j, j.id) + ": arrived " + SvgNumber(Seconds(j.arrival), 3) + " s";
    if (j.finished) s += ", ended " + SvgNumber(Seconds(j.finish), 3) + " s";
    if (j.goal) s += ", goal " + SvgNumber(Seconds(*j.goal), 3) + " s " + GoalVerdict(j);
    return s + ", peak " + SvgNumber(peak, 2) + " slots";
  }

  void WriteTimeAxis() {
    const double bottom = kBandsTop + kBandsH;
    const std::vector<double> ticks = NiceTicks(lo_, hi_, 10);
    const int decimals = ticks.size() > 1 && ticks[1] - ticks[0] < 1 ? 3 : 0;
    for (double t : ticks) {
      if (t > hi_ + 1e-9) continue;
      const std::string x = SvgNumber(X(t), 1);
      o_ << "<line x1=\"" << x << "\" x2=\"" << x << "\" y1=\"" << SvgNumber(kCapacityTop)
         << "\" y2=\"" << SvgNumber(bottom) << "\" stroke=\"#000\" stroke-opacity=\".12\"/>\n";
      o_ << "<text x=\"" << x << "\" y=\"" << SvgNumber(bottom + 16) << "\" text-anchor=\"middle\">"
         << SvgNumber(t, decimals) << "</text>\n";
    }
    o_ << "<text x=\"" << SvgNumber(kLeft + options_.plot_width / 2) << "\" y=\""
       << SvgNumber(bottom + 34) << "\" text-anchor=\"middle\">time (s)</text>\n";
  }

  // A vertical line through the bands at each goal, with a dot (met) or a cross (missed)
  // above them.
  void WriteGoals() {
    size_t later = 0;
    for (const JobRecord& j : recorder_.jobs()) {
      if (!j.goal) continue;
      const double g = Seconds(*j.goal);
      if (g > hi_) {
        ++later;
        continue;
      }
      o_ << GoalMarker(X(g), kBandsTop, kBandsTop + kBandsH, JobColor(j.id), j.met_goal())
         << "<title>goal of " << XmlEscape(JobLabel(&j, j.id)) << ": " << SvgNumber(g, 3) << " s, "
         << GoalVerdict(j) << "</title></g>\n";
    }
    if (later > 0) {
      o_ << "<text x=\"" << SvgNumber(kLeft + options_.plot_width + 2) << "\" y=\""
         << SvgNumber(kBandsTop + 4) << "\" font-size=\"10\">&#9656;<title>" << later
         << " goals after " << SvgNumber(hi_, 3) << " s not drawn</title></text>\n";
    }
  }

  // The opening of a goal's <g>, its line from y0 to y1 and its mark at y0; the caller
  // adds a <title> and closes it.
  static std::string GoalMarker(double x, double y0, double y1, const std::string& color,
                                bool met) {
    const std::string xs = SvgNumber(x, 1);
    std::string s = std::string("<g class=\"goal ") + (met ? "met" : "missed") + "\" stroke=\"" +
                    color + "\"><line x1=\"" + xs + "\" x2=\"" + xs + "\" y1=\"" +
                    SvgNumber(y0 - 4) + "\" y2=\"" + SvgNumber(y1) + "\" stroke-width=\"1.5\"" +
                    (met ? "" : " stroke-dasharray=\"4 3\"") + "/>";
    if (met) {
      s += "<circle cx=\"" + xs + "\" cy=\"" + SvgNumber(y0 - 8) + "\" r=\"4\" fill=\"" + color +
           "\"/>";
    } else {
      s += "<path d=\"M" + SvgNumber(x - 4, 1) + ' ' + SvgNumber(y0 - 12) + " l8 8 m0 -8 l-8 8\"" +
           " stroke=\"#d00000\" stroke-width=\"2\"/>";
    }
    return s;
  }

  void WriteLegend() {
    double ly = legend_top_;
    auto entry = [&](const std::string& swatch, const std::string& text) {
      o_ << swatch << "<text x=\"" << SvgNumber(kLeft + 30) << "\" y=\"" << SvgNumber(ly + 10)
         << "\">" << XmlEscape(text) << "</text>\n";
      ly += 16;
    };
    auto line = [&](size_t kind) {
      return "<line x1=\"" + SvgNumber(kLeft) + "\" x2=\"" + SvgNumber(kLeft + 22) + "\" y1=\"" +
             SvgNumber(ly + 6) + "\" y2=\"" + SvgNumber(ly + 6) + "\" stroke=\"" +
             kCapacityColor[kind] + "\" stroke-width=\"2\"" +
             (kind == 1 ? " stroke-dasharray=\"6 4\"" : "") + "/>";
    };
    entry(line(0),
          "f(t) of the map slots: the capacity left to MapReduce, in "
          "slots at speed 1.0 (base speed x availability, summed)");
    if (HasSlots(1)) entry(line(1), "f(t) of the reduce slots");
    entry("<rect x=\"" + SvgNumber(kLeft) + "\" y=\"" + SvgNumber(ly) +
              "\" width=\"22\" height=\"12\" fill=\"#999\"/>",
          "a job's slots over time, a slot counting 1 at any speed, stacked in arrival order "
          "(hover for the job's times)");
    entry(GoalMarker(kLeft + 11, ly + 12, ly + 12, "#666", true) + "</g>",
          "a goal that was met (solid line, dot)");
    entry(GoalMarker(kLeft + 11, ly + 12, ly + 12, "#666", false) + "</g>",
          "a goal that was missed: late, failed, rejected or unfinished (dashed line, cross)");
    o_ << JobColorKey(
        recorder_.jobs(), legend_jobs_, legend_cols_, kLeft, ly, [](const JobRecord& j) {
          std::string text = JobLabel(&j, j.id);
          if (j.goal) text += ": goal " + SvgNumber(Seconds(*j.goal), 3) + " s " + GoalVerdict(j);
          return text;
        });
  }

  // Fixed geometry, in pixels.
  static constexpr double kLeft = 70, kRight = 40, kCapacityTop = 62, kCapacityH = 130;
  static constexpr double kBandsTop = kCapacityTop + kCapacityH + 34, kBandsH = 260;
  static constexpr double kBinPixels = 2;
  static constexpr const char* kCapacityColor[2] = {"#1f5fa8", "#e07b00"};

  const RunRecorder& recorder_;
  const std::vector<SlotInfo>& slots_;
  const GoalsOptions& options_;
  std::vector<CapacityStep> capacity_;
  double lo_ = 0, hi_ = 0;
  size_t bins_ = 1;
  std::vector<Band> bands_;
  double capacity_max_ = 0, slots_max_ = 1, width_ = 0, height_ = 0, legend_top_ = 0;
  size_t legend_jobs_ = 0, legend_cols_ = 1;
  std::ostringstream o_;
};

}  // namespace

bool WantsGoalsChart(const RunRecorder& recorder,
                     const std::map<NodeId, SpeedProfile>& availability) {
  for (const JobRecord& j : recorder.jobs())
    if (j.goal) return true;
  for (const auto& [node, profile] : availability)
    for (double f : profile.factors())
      if (f != 1.0) return true;
  return false;
}

std::string GoalsSvg(const RunRecorder& recorder, const std::vector<SlotInfo>& slots,
                     const std::map<NodeId, SpeedProfile>& availability,
                     const GoalsOptions& options) {
  return GoalsChart(recorder, slots, availability, options).Svg();
}

}  // namespace mrlocal
