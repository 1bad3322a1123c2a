// A job as a policy first sees it, made by the real Controller: tests that hand policies
// JobStates get them from the code that builds them for real, not from a copy of it.
#pragma once

#include <gtest/gtest.h>

#include <optional>
#include <utility>
#include <vector>

#include "sched/core/controller.h"
#include "sched/policy/fifo_policy.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/cluster.h"
#include "tests/util/fake_executor.h"

namespace mrlocal::testing {

// The JobState a policy's Admit is given when `spec` arrives at `arrival` on a cluster of
// `nodes` nodes: its map tasks (splits, replicas, ready times), its reduce tasks and the
// pending-map index, as the Controller makes them. Renumbered as job `id`.
inline JobState ArrivingJob(JobSpec spec, JobId id = 1, Time arrival = Time{0}, int nodes = 1) {
  struct Capture final : ControllerObserver {
    void OnAdmission(const JobState& job, const Admission&, Time) override { arrived = job; }
    std::optional<JobState> arrived;
  };
  SimLoop loop;
  const std::vector<SlotInfo> slots = OneNode(1, 1);
  FakeExecutor executor(loop, slots, [](const TaskRef&) { return Duration::zero(); });
  FifoPolicy admit_all;
  Controller controller(loop, executor, admit_all, slots, nodes,
                        std::move(MakePartitioner("hash")).value());
  Capture capture;
  controller.AddObserver(&capture);
  controller.SubmitAt(arrival, [&spec](JobId) { return std::move(spec); });
  loop.Run();  // the arrival only: nothing runs before RunUntilIdle
  EXPECT_TRUE(capture.arrived.has_value());
  JobState job = capture.arrived.value_or(JobState{});
  job.id = id;
  return job;
}

}  // namespace mrlocal::testing
