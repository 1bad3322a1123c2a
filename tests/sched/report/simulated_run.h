// A small run under a real Controller on a simulated loop, for the report's tests: jobs
// "j0", "j1", ... all arrive at 0 under fifo on two nodes of one map and one reduce slot
// each; every job has two maps of 1 s and one reduce of 2 s.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "sched/core/controller.h"
#include "sched/partition/partitioner.h"
#include "sched/policy/fifo_policy.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/fake_executor.h"

namespace mrlocal::testing {

struct SimulatedRun {
  std::vector<SlotInfo> slots = {{0, SlotKind::kMap, 0, 1.0},
                                 {1, SlotKind::kReduce, 0, 1.0},
                                 {2, SlotKind::kMap, 1, 1.0},
                                 {3, SlotKind::kReduce, 1, 1.0}};
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
    JobSpec spec;
    spec.name = "j" + std::to_string(k);
    spec.app = "synthetic";
    spec.deadline = deadline;
    spec.input_bytes = 20;
    spec.reduces = 1;
    spec.partition_hashes = MakePartitionHashes(1, 1, 1);
    spec.maps = {{10, {}}, {10, {}}};
    c.Submit(std::move(spec));
  }
  c.RunUntilIdle();
  run.stats = c.stats();
  return run;
}

}  // namespace mrlocal::testing
