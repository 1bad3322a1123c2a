#include "datasets/availability_profile.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <random>

namespace mrlocal {
namespace {

Status Bad(std::string_view field, const std::string& what) {
  return Status::InvalidArgument(std::string(field) + ": " + what);
}

std::string Num(double x) {
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
  return ec == std::errc() ? std::string(buf, end) : std::to_string(x);
}

Status CheckSteps(double until_s, double step_s) {
  if (until_s / step_s > static_cast<double>(kMaxProfileSteps))
    return Bad("until_s", "over " + std::to_string(kMaxProfileSteps) + " steps (" + Num(until_s) +
                              " s at one step every " + Num(step_s) +
                              " s): a longer step, or a shorter profile");
  return Status::OK();
}

// A uniform draw in (0, 1) from mt19937_64, whose output the standard fixes: the same
// bursts on every platform (std::exponential_distribution is not).
double Unit(std::mt19937_64& g) { return (static_cast<double>(g() >> 11) + 0.5) * 0x1.0p-53; }

std::vector<std::string_view> SplitCells(std::string_view line) {
  std::vector<std::string_view> cells;
  for (size_t from = 0;;) {
    const size_t comma = line.find(',', from);
    std::string_view cell = line.substr(from, comma == line.npos ? line.npos : comma - from);
    while (!cell.empty() && (cell.front() == ' ' || cell.front() == '\t')) cell.remove_prefix(1);
    while (!cell.empty() && (cell.back() == ' ' || cell.back() == '\t' || cell.back() == '\r'))
      cell.remove_suffix(1);
    cells.push_back(cell);
    if (comma == line.npos) return cells;
    from = comma + 1;
  }
}

std::optional<double> ParseNumber(std::string_view cell) {
  double x = 0;
  auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), x);
  if (ec != std::errc() || end != cell.data() + cell.size() || !std::isfinite(x))
    return std::nullopt;
  return x;
}

// Two rows further apart than twice the median step are a gap (a hole in the record).
Status CheckNoGaps(const std::vector<ProfileStep>& steps, const std::vector<size_t>& lines) {
  if (steps.size() < 3) return Status::OK();
  std::vector<double> gaps;
  for (size_t i = 1; i < steps.size(); ++i) gaps.push_back(steps[i].at_s - steps[i - 1].at_s);
  std::vector<double> sorted = gaps;
  std::nth_element(sorted.begin(), sorted.begin() + sorted.size() / 2, sorted.end());
  const double median = sorted[sorted.size() / 2];
  for (size_t i = 0; i < gaps.size(); ++i)
    if (gaps[i] > 2 * median)
      return Status::InvalidArgument("line " + std::to_string(lines[i + 1]) +
                                     ": time_s: a gap of " + Num(gaps[i]) +
                                     " s since the previous row, over twice the median step (" +
                                     Num(median) + " s): rows are missing");
  return Status::OK();
}

}  // namespace

Result<std::vector<ProfileStep>> ExpandSinusoid(const SinusoidProfile& p) {
  if (!(p.period_s > 0)) return Bad("period_s", "must be a positive number of seconds");
  if (!(p.max > 0 && p.max <= 1)) return Bad("max", "must be in (0, 1] (got " + Num(p.max) + ")");
  if (!(p.min > 0 && p.min <= p.max))
    return Bad("min", "must be in (0, max] (got " + Num(p.min) + ", max " + Num(p.max) + ")");
  const double step_s = p.step_s > 0 ? p.step_s : p.period_s / 96;
  if (!(p.until_s > 0)) return Bad("until_s", "must be a positive number of seconds");
  MRLOCAL_RETURN_IF_ERROR(CheckSteps(p.until_s, step_s));
  const double mid = (p.max + p.min) / 2, amplitude = (p.max - p.min) / 2;
  std::vector<ProfileStep> steps;
  for (double at = 0; at < p.until_s; at = static_cast<double>(steps.size()) * step_s) {
    const double middle = std::min(at + step_s / 2, p.until_s);
    const double a = mid - amplitude * std::cos(2 * M_PI * (middle - p.phase_s) / p.period_s);
    steps.push_back({at, std::clamp(a, p.min, p.max)});  // no rounding past the range
  }
  return steps;
}

Result<std::vector<ProfileStep>> ExpandBursts(const BurstProfile& p) {
  if (!(p.length_s > 0)) return Bad("length_s", "must be a positive number of seconds");
  if (!(p.every_s > p.length_s))
    return Bad("every_s", "must be longer than length_s (" + Num(p.length_s) +
                              " s): the mean time from one burst's start to the next's (got " +
                              Num(p.every_s) + ")");
  if (!(p.factor > 0 && p.factor <= 1))
    return Bad("factor", "must be in (0, 1] (got " + Num(p.factor) + ")");
  if (!(p.until_s > 0)) return Bad("until_s", "must be a positive number of seconds");
  MRLOCAL_RETURN_IF_ERROR(CheckSteps(p.until_s, p.every_s / 2));  // two steps a burst
  std::mt19937_64 g(p.seed);
  const double quiet_mean = p.every_s - p.length_s;
  std::vector<ProfileStep> steps;
  for (double end = 0;;) {
    const double quiet =
        p.gaps == BurstProfile::Gaps::kFixed ? quiet_mean : -quiet_mean * std::log(Unit(g));
    const double start = end + quiet;
    if (start >= p.until_s) return steps;
    if (steps.size() + 2 > kMaxProfileSteps)  // a run of short draws past the expectation
      return Bad("until_s", "over " + std::to_string(kMaxProfileSteps) + " steps");
    end = std::min(start + p.length_s, p.until_s);
    steps.push_back({start, p.factor});
    steps.push_back({end, 1.0});
  }
}

std::vector<ProfileStep> MultiplyProfiles(const std::vector<ProfileStep>& a,
                                          const std::vector<ProfileStep>& b) {
  std::vector<ProfileStep> product;
  double fa = 1.0, fb = 1.0;
  for (size_t i = 0, j = 0; i < a.size() || j < b.size();) {
    const double at = std::min(i < a.size() ? a[i].at_s : HUGE_VAL, j < b.size() ? b[j].at_s : HUGE_VAL);
    for (; i < a.size() && a[i].at_s == at; ++i) fa = a[i].factor;
    for (; j < b.size() && b[j].at_s == at; ++j) fb = b[j].factor;
    if (product.empty() || product.back().factor != fa * fb) product.push_back({at, fa * fb});
  }
  return product;
}

Result<std::vector<ProfileStep>> ParseAvailabilityCsv(std::string_view text) {
  std::vector<ProfileStep> steps;
  std::vector<size_t> lines;  // each step's line, for messages
  std::optional<size_t> time_col, value_col;
  bool busy = false;  // the value column is cpu_busy
  size_t columns = 0, line_no = 0;
  for (size_t from = 0; from < text.size();) {
    const size_t nl = text.find('\n', from);
    const std::string_view line = text.substr(from, nl == text.npos ? text.npos : nl - from);
    from = nl == text.npos ? text.size() : nl + 1;
    ++line_no;
    const std::vector<std::string_view> cells = SplitCells(line);
    if (cells.size() == 1 && cells[0].empty()) continue;  // blank lines
    const std::string at = "line " + std::to_string(line_no) + ": ";
    if (!time_col) {  // the header
      for (size_t c = 0; c < cells.size(); ++c) {
        if (cells[c] == "time_s") time_col = c;
        if (cells[c] != "availability" && cells[c] != "cpu_busy") continue;
        if (value_col)
          return Status::InvalidArgument(at +
                                         "give an availability or a cpu_busy column, not both");
        value_col = c;
        busy = cells[c] == "cpu_busy";
      }
      if (!time_col || !value_col)
        return Status::InvalidArgument(
            at + "the header must name a time_s column and an availability or cpu_busy column");
      columns = cells.size();
      continue;
    }
    if (steps.size() == kMaxProfileSteps)
      return Status::InvalidArgument(at + "over " + std::to_string(kMaxProfileSteps) + " rows");
    if (cells.size() != columns)
      return Status::InvalidArgument(at + std::to_string(cells.size()) +
                                     " cells where the header has " + std::to_string(columns));
    const std::string_view time_cell = cells[*time_col], value_cell = cells[*value_col];
    const std::string value_name = busy ? "cpu_busy" : "availability";
    if (time_cell.empty()) return Status::InvalidArgument(at + "time_s: empty cell (a gap)");
    if (value_cell.empty())
      return Status::InvalidArgument(at + value_name + ": empty cell (a gap)");
    const std::optional<double> t = ParseNumber(time_cell), v = ParseNumber(value_cell);
    if (!t || *t < 0)
      return Status::InvalidArgument(at + "time_s: must be a non-negative number (got '" +
                                     std::string(time_cell) + "')");
    if (!steps.empty() && *t <= steps.back().at_s)
      return Status::InvalidArgument(at + "time_s: times must be strictly increasing (got " +
                                     Num(*t) + " after " + Num(steps.back().at_s) + ")");
    if (!v || (busy ? !(*v >= 0 && *v < 1) : !(*v > 0 && *v <= 1)))
      return Status::InvalidArgument(at + value_name + ": must be in " +
                                     (busy ? "[0, 1)" : "(0, 1]") + " (got '" +
                                     std::string(value_cell) + "')");
    steps.push_back({*t, busy ? 1 - *v : *v});
    lines.push_back(line_no);
  }
  if (!time_col) return Status::InvalidArgument("empty: a header and one row at least");
  if (steps.empty()) return Status::InvalidArgument("no rows after the header");
  MRLOCAL_RETURN_IF_ERROR(CheckNoGaps(steps, lines));
  return steps;
}

}  // namespace mrlocal
