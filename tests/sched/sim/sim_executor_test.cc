// The simulation's task model: work over speed, integrated across availability steps;
// shuffle delay; noise that depends only on (seed, task, attempt).
#include "sched/sim/sim_executor.h"

#include <gtest/gtest.h>

#include "sched/core/controller.h"
#include "sched/partition/partitioner.h"
#include "sched/policy/policy_registry.h"
#include "tests/util/cluster.h"
#include "tests/util/job_builder.h"

namespace mrlocal {
namespace {

// Map slot 0 (node 0, speed 1.0), map slot 1 (node 1, 0.5), reduce slot 2 (node 0).
std::vector<SlotInfo> Slots() { return testing::ClusterSlots("1x(1m,1r,1.0)+1x(1m,0r,0.5)"); }

TEST(SimExecutor, EndIntegratesSpeedOverTheAvailabilitySteps) {
  SimLoop loop;
  SimExecutorOptions o;
  // Node 0 runs at half speed from 5 s to 20 s, then at a quarter.
  o.availability[0] = {{FromSeconds(5), FromSeconds(20)}, {0.5, 0.25}};
  SimExecutor ex(loop, Slots(), o);
  // 10 s of work from 0 on slot 0: 5 s at full speed, then 5 s of work at half = 10 s.
  EXPECT_EQ(ex.EndOf(0, Time{0}, 10.0), FromSeconds(15));
  // 20 s of work: 5 done by 5 s, 7.5 more by 20 s, the last 7.5 at 0.25 take 30 s: 50 s.
  EXPECT_EQ(ex.EndOf(0, Time{0}, 20.0), FromSeconds(50));
  // Slot 1 (speed 0.5, node 1 has no profile): twice the work's time.
  EXPECT_EQ(ex.EndOf(1, FromSeconds(3), 4.0), FromSeconds(11));
}

TEST(SimExecutor, RunsAJobWithShuffleDelayAndReportsOnTheLoop) {
  SimLoop loop;
  SimExecutor ex(loop, Slots());
  auto policy = MakePolicy("fifo");
  Controller c(loop, ex, **policy, Slots(), 2, std::move(MakePartitioner("hash")).value());
  JobSpec spec = testing::JobBuilder().Maps(2).Reduces(1).Build();
  spec.shuffle_delay = FromSeconds(1.5);
  SimJob model;
  model.map_work_s = {4.0, 1.0};  // map 0 on slot 0 (4 s), map 1 on slot 1 (2 s)
  model.reduce_work_s = {3.0};
  JobId id = c.next_job_id();
  ex.AddJob(id, model);
  c.Submit(spec);
  c.RunUntilIdle();
  const JobState& job = c.state().job(id);
  ASSERT_EQ(job.phase, JobPhase::kDone);
  // Maps end at 4 s; the reduce starts 1.5 s later (no slot held meanwhile), computes 3 s.
  EXPECT_EQ(job.map_phase_end, FromSeconds(4));
  EXPECT_EQ(job.reduces[0].start, FromSeconds(5.5));
  EXPECT_EQ(job.finish, FromSeconds(8.5));
  EXPECT_EQ(ex.task_events(), 6u);  // 3 starts, 3 ends
}

TEST(SimExecutor, NoiseIsSeededPerTaskNotPerEventOrder) {
  auto finish = [](uint64_t seed, std::vector<double> work) {
    SimLoop loop;
    SimExecutorOptions o;
    o.noise = 0.3;
    o.seed = seed;
    const std::vector<SlotInfo> one = testing::OneNode(1, 1);
    SimExecutor ex(loop, one, o);
    auto policy = MakePolicy("fifo");
    Controller c(loop, ex, **policy, one, 1, std::move(MakePartitioner("hash")).value());
    JobSpec spec = testing::JobBuilder().Maps(work.size()).Reduces(0).Build();
    SimJob model;
    model.map_work_s = work;
    ex.AddJob(c.next_job_id(), model);
    c.Submit(spec);
    c.RunUntilIdle();
    return c.state().jobs.begin()->second.finish;
  };
  EXPECT_EQ(finish(1, {1, 1, 1}), finish(1, {1, 1, 1}));
  EXPECT_NE(finish(1, {1, 1, 1}), finish(2, {1, 1, 1}));
  EXPECT_NE(finish(1, {1, 1, 1}), FromSeconds(3));  // the noise does something
}

}  // namespace
}  // namespace mrlocal
