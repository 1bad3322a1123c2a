#include "tools/cli/progress_printer.h"

#include <cmath>
#include <iomanip>
#include <optional>
#include <ostream>

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

std::pair<double, double> ProgressPrinter::Progress(const JobState& job, const ClusterState& state,
                                                    const Executor& exec) {
  double map = job.maps_done, reduce = job.reduces_done;
  for (const SlotState& s : state.slots) {
    if (!s.task || s.task->job != job.id) continue;
    (s.task->kind == TaskKind::kMap ? map : reduce) += exec.Progress(s.info.id);
  }
  map = job.M() ? map / job.M() : 1.0;
  reduce = job.R() ? reduce / job.R() : 1.0;
  return {std::min(map, 1.0), std::min(reduce, 1.0)};
}

void ProgressPrinter::OnTick(const ClusterState& state, const Executor& exec, Time now) {
  for (JobId id : state.active) {
    const JobState& job = state.job(id);
    auto [map, reduce] = Progress(job, state, exec);
    Print(job, map, reduce, now);
  }
}

void ProgressPrinter::OnJobFinished(const JobState& job, const JobOutcome&, Time now) {
  if (job.phase == JobPhase::kDone) Print(job, 1.0, 1.0, now);
}

void ProgressPrinter::Print(const JobState& job, double map, double reduce, Time now) {
  int m = static_cast<int>(std::floor(map * 100)), r = static_cast<int>(std::floor(reduce * 100));
  auto it = last_.find(job.id);
  if (it != last_.end() && it->second == std::make_pair(m, r)) return;
  last_[job.id] = {m, r};
  const Duration elapsed = now - job.arrival;
  // Work done so far, weighting the map phase 2/3 as Hadoop's progress does for jobs
  // dominated by their maps; the ETA extrapolates the rate.
  const double done = (2 * map + reduce) / 3;
  std::optional<Duration> eta, slack, estimate;
  if (done > 0.02 && done < 1) eta = FromSeconds(Seconds(elapsed) * (1 - done) / done);
  if (auto d = job.absolute_deadline()) slack = *d - now;
  if (auto e = estimates_.find(job.id); e != estimates_.end()) estimate = e->second;
  const Duration none{0};
  const DurationScale in_line(
      {elapsed, eta.value_or(none), slack.value_or(none), estimate.value_or(none)});
  out_ << "mrlocal: map " << std::setw(3) << m << "% reduce " << std::setw(3) << r << "% | elapsed "
       << in_line(elapsed);
  if (eta) out_ << " | eta " << in_line(*eta);
  if (slack) out_ << " | slack " << in_line(*slack);
  if (estimate) out_ << " | est " << in_line(*estimate);
  out_ << "\n" << std::flush;
}

}  // namespace mrlocal
