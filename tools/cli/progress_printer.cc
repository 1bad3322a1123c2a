#include "tools/cli/progress_printer.h"

#include <cmath>
#include <iomanip>
#include <optional>
#include <ostream>

#include "sched/core/job_progress.h"
#include "sched/core/units.h"

namespace mrlocal {

void ProgressPrinter::OnAdmission(const JobState& job, const Admission& a, Time) {
  if (a.guaranteed() && a.estimated_finish())
    estimates_[job.id] = *a.estimated_finish() - job.arrival;
  else
    estimates_.erase(job.id);
}

void ProgressPrinter::OnPlan(const JobState& job, const PartitionPlan&, Time now) {
  // The map phase just ended; a job without maps (an empty input) had none to tell of,
  // and is planned at its submission, before the admission is printed.
  if (job.M() > 0) Print(job, 1.0, 0.0, now);
}

void ProgressPrinter::OnTick(const ClusterState& state, const Executor& exec, Time now) {
  for (JobId id : state.active) {
    const JobState& job = state.job(id);
    auto [map, reduce] = JobProgress(job, state, exec);
    Print(job, map, reduce, now);
  }
}

void ProgressPrinter::OnJobFinished(const JobState& job, const JobOutcome&, Time now) {
  if (job.phase == JobPhase::kDone) Print(job, 1.0, 1.0, now);
}

namespace {

int Percent(double fraction) { return static_cast<int>(std::floor(fraction * 100)); }

}  // namespace

std::pair<int, int> ProgressPercents(double map, double reduce) {
  return {Percent(map), Percent(reduce)};
}

void PrintProgressLine(std::ostream& out, double map, double reduce, Duration elapsed,
                       std::optional<Duration> slack, std::optional<Duration> estimate) {
  // Work done so far, weighting the map phase 2/3 as Hadoop's progress does for jobs
  // dominated by their maps; the ETA extrapolates the rate.
  const double done = (2 * map + reduce) / 3;
  std::optional<Duration> eta;
  if (done > 0.02 && done < 1) eta = FromSeconds(Seconds(elapsed) * (1 - done) / done);
  const Duration none{0};
  const DurationScale in_line(
      {elapsed, eta.value_or(none), slack.value_or(none), estimate.value_or(none)});
  out << "mrlocal: map " << std::setw(3) << Percent(map) << "% reduce " << std::setw(3)
      << Percent(reduce) << "% | elapsed " << in_line(elapsed);
  if (eta) out << " | eta " << in_line(*eta);
  if (slack) out << " | slack " << in_line(*slack);
  if (estimate) out << " | est " << in_line(*estimate);
  out << "\n" << std::flush;
}

void ProgressPrinter::Print(const JobState& job, double map, double reduce, Time now) {
  const std::pair<int, int> percents = ProgressPercents(map, reduce);
  auto it = last_.find(job.id);
  if (it != last_.end() && it->second == percents) return;
  last_[job.id] = percents;
  std::optional<Duration> slack, estimate;
  if (auto d = job.absolute_deadline()) slack = *d - now;
  if (auto e = estimates_.find(job.id); e != estimates_.end()) estimate = e->second;
  PrintProgressLine(out_, map, reduce, now - job.arrival, slack, estimate);
}

}  // namespace mrlocal
