#include "sched/report/sweep_report.h"

#include <algorithm>
#include <numeric>

#include "engine/atomic_file.h"
#include "sched/report/fixed.h"
#include "sched/report/workload_report.h"

namespace mrlocal {
namespace {

struct Spread {
  double mean = 0, min = 0, max = 0;
};

Spread Of(const std::vector<double>& v) {
  if (v.empty()) return {};
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return {std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size()), *lo, *hi};
}

// An x value as written: up to 3 decimals, without trailing zeros (2, 1.5, 0.125).
std::string XText(double x) {
  std::string text = Fixed(x, 3);
  text.erase(text.find_last_not_of('0') + 1);
  if (text.back() == '.') text.pop_back();
  return text;
}

// Appends every piece: "literal" + std::string trips GCC 12's -Wrestrict.
template <typename... Pieces>
void Append(std::string& out, const Pieces&... pieces) {
  (out.append(pieces), ...);
}

}  // namespace

std::string SweepMarkdown(const SweepResult& sweep) {
  std::string out, rule = "|---:|";
  Append(out, "| ", sweep.parameter, " |");
  for (const SweepSeries& s : sweep.series) {
    Append(out, " ", s.name, " |");
    rule += "---:|";
  }
  Append(out, "\n", rule, "\n");
  size_t seeds = 0;
  for (size_t i = 0; i < sweep.x.size(); ++i) {
    Append(out, "| ", XText(sweep.x[i]), " |");
    for (const SweepSeries& s : sweep.series) {
      const Spread v = Of(s.at[i]);
      seeds = std::max(seeds, s.at[i].size());
      Append(out, " ", Fixed(v.mean, 1));
      if (s.at[i].size() > 1) Append(out, " (", Fixed(v.min, 1), "–", Fixed(v.max, 1), ")");
      out += " |";
    }
    out += "\n";
  }
  Append(out, "\nEach cell: ", sweep.measure);
  if (seeds > 1)
    Append(out, ", the mean over ", std::to_string(seeds), " seeds (min–max across seeds).\n");
  else
    out += ", one seed.\n";
  return out;
}

std::string SweepCsv(const SweepResult& sweep) {
  std::string out = "series,x,y,ymin,ymax\n";
  for (const SweepSeries& s : sweep.series)
    for (size_t i = 0; i < sweep.x.size(); ++i) {
      const Spread v = Of(s.at[i]);
      Append(out, CsvField(s.name), ",", XText(sweep.x[i]), ",", Fixed(v.mean, 3), ",",
             Fixed(v.min, 3), ",", Fixed(v.max, 3), "\n");
    }
  return out;
}

Status WriteSweepReport(const std::filesystem::path& dir, const SweepResult& sweep) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec)
    return Status::IoError("cannot create report directory " + dir.string() + ": " + ec.message());
  MRLOCAL_RETURN_IF_ERROR(WriteFileAtomically((dir / "sweep.md").string(), SweepMarkdown(sweep)));
  return WriteFileAtomically((dir / "sweep.csv").string(), SweepCsv(sweep));
}

}  // namespace mrlocal
