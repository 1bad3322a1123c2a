// MSJO's precedence as a plan places tasks one by one (eqs. 1-2): which tasks may be placed
// next and the earliest each may start. Shared by the list and dispatch drivers.
#pragma once

#include <vector>

#include "sched/plan/instance.h"

namespace mrlocal {

class Precedence {
 public:
  // REQUIRES: `tasks` is FlattenTasks(instance); both outlive this object.
  Precedence(const PlanInstance& instance, const std::vector<PlanTask>& tasks);

  // The tasks placeable before any is placed: every map, and the reduces of jobs without maps.
  const std::vector<int>& Initial() const { return initial_; }

  // Records task u placed, ending at `end`. Returns the tasks it makes placeable: its job's
  // reduces, once its last map is placed (else none).
  const std::vector<int>& Place(int u, double end);

  // S_earliest of a placeable task (Algorithm 2, lines 7-10): its release (PlanTask), and
  // for a reduce at least the end of the job's last map plus the delay.
  double Earliest(int u) const;

 private:
  const PlanInstance& instance_;
  const std::vector<PlanTask>& tasks_;
  std::vector<int> initial_;
  std::vector<int> maps_left_;
  std::vector<double> maps_end_;
  std::vector<std::vector<int>> waiting_reduces_;
  const std::vector<int> none_;
};

}  // namespace mrlocal
