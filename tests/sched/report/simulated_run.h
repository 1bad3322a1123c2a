// A small run under a real Controller on a simulated loop, for the report's tests: jobs
// "j0", "j1", ... all arrive at 0 under fifo on two nodes of one map and one reduce slot
// each (map slots 0 and 1, reduce slots 2 and 3); every job has two maps of 1 s and one
// reduce of 2 s.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sched/core/controller.h"
#include "sched/partition/partitioner.h"
#include "sched/policy/fifo_policy.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/cluster.h"
#include "tests/util/fake_executor.h"
#include "tests/util/job_builder.h"

namespace mrlocal::testing {

struct SimulatedRun {
  std::vector<SlotInfo> slots = ClusterSlots("2x(1m,1r,1.0)");
  SchedulerStats stats;
};

inline SimulatedRun Simulate(ControllerObserver& observer, int jobs,
                             std::optional<Duration> deadline) {
  using std::chrono::seconds;
  SimulatedRun run;
  SimLoop loop;
  FakeExecutor exec(loop, run.slots, [](const TaskRef& t) -> Duration {
    return t.kind == TaskKind::kMap ? seconds(1) : seconds(2);
  });
  FifoPolicy fifo;
  Controller c(loop, exec, fifo, run.slots, 2, std::move(MakePartitioner("hash")).value());
  c.AddObserver(&observer);
  for (int k = 0; k < jobs; ++k) {
    // std::string("j"): GCC 12 warns (-Wrestrict, wrongly) on "j" + std::string here.
    c.Submit(JobBuilder()
                 .Name(std::string("j") + std::to_string(k))
                 .Deadline(deadline)
                 .InputBytes(20)
                 .Maps(2, 10)
                 .Build());
  }
  c.RunUntilIdle();
  run.stats = c.stats();
  return run;
}

}  // namespace mrlocal::testing
