// Hadoop-style progress on stderr: "map 45% reduce 0%", elapsed, an ETA, the slack to the
// deadline and the admission's estimated finish, printed whenever the percentages move
// (checked on the controller's ticks). The admission itself is the job runner's to print.
#pragma once

#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <utility>

#include "sched/core/controller.h"

namespace mrlocal {

// The whole percentages a progress line shows for map and reduce progress in [0, 1]: a
// new line is printed only when they move.
std::pair<int, int> ProgressPercents(double map, double reduce);

// One progress line (map and reduce progress in [0, 1]), "mrlocal: map  45% reduce   0% |
// elapsed 1.20 s | eta 1.47 s | slack 27.3 s | est 4.10 s", for a job `elapsed` after its
// arrival: the ETA extrapolates the work done, the slack is to its deadline, the estimate
// the admission's finish.
void PrintProgressLine(std::ostream& out, double map, double reduce, Duration elapsed,
                       std::optional<Duration> slack, std::optional<Duration> estimate);

class ProgressPrinter final : public ControllerObserver {
 public:
  explicit ProgressPrinter(std::ostream& out) : out_(out) {}

  void OnAdmission(const JobState& job, const Admission& a, Time now) override;
  void OnPlan(const JobState& job, const PartitionPlan& plan, Time now) override;
  void OnTick(const ClusterState& state, const Executor& exec, Time now) override;
  void OnJobFinished(const JobState& job, const JobOutcome& outcome, Time now) override;

 private:
  void Print(const JobState& job, double map, double reduce, Time now);

  std::ostream& out_;
  std::map<JobId, std::pair<int, int>> last_;  // last printed percentages
  std::map<JobId, Duration> estimates_;        // admitted with an estimated finish: when
};

}  // namespace mrlocal
