// JobSpec::shuffle_delay, MarS's map->reduce delay d (eq. 2: S_v >= S_u + p_u + d): the
// reduces become runnable d after the map stage ends and hold no slot meanwhile, so that a
// machine runs another job's task in the gap, as the LP assumes.
#include <gtest/gtest.h>

#include "sched/core/cluster_spec.h"
#include "sched/core/controller.h"
#include "sched/policy/policy_registry.h"
#include "sched/sim/sim_executor.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/job_builder.h"

namespace mrlocal {
namespace {

TEST(ShuffleDelay, TheMachineRunsAnotherTaskDuringTheDelay) {
  // One machine that runs one task at a time.
  const ClusterSpec cluster = *ClusterSpec::Parse("1x(1m,1r,1.0,1t)");
  SimLoop loop;
  SimExecutor ex(loop, cluster.Slots());
  auto policy = MakePolicy("fifo");
  ControllerOptions options;
  options.observer_tick = Duration::zero();
  options.node_task_limits = cluster.NodeTaskLimits();
  Controller c(loop, ex, **policy, cluster.Slots(), 1, std::move(MakePartitioner("hash")).value(),
               options);
  // Job A: a map of 1 s, then 2 s of delay, then a reduce of 1 s. Job B, at 1 s: a map of 2 s.
  JobId a = 0, b = 0;
  auto submit = [&](Time at, double map_s, uint32_t reduces, Duration delay, JobId* id) {
    c.SubmitAt(at, [&ex, map_s, reduces, delay, id](JobId given) {
      *id = given;
      JobSpec spec = testing::JobBuilder().Maps(1).Reduces(reduces).Build();
      spec.shuffle_delay = delay;
      SimJob model;
      model.map_work_s = {map_s};
      model.reduce_work_s.assign(reduces, 1.0);
      ex.AddJob(given, model);
      return spec;
    });
  };
  submit(Time{0}, 1.0, 1, FromSeconds(2), &a);
  submit(FromSeconds(1), 2.0, 0, Duration::zero(), &b);
  c.RunUntilIdle();
  const JobState& ja = c.state().job(a);
  const JobState& jb = c.state().job(b);
  ASSERT_EQ(ja.phase, JobPhase::kDone);
  ASSERT_EQ(jb.phase, JobPhase::kDone);
  EXPECT_EQ(jb.maps[0].start, FromSeconds(1)) << "the machine is free during A's delay";
  EXPECT_EQ(jb.finish, FromSeconds(3));
  EXPECT_EQ(ja.map_phase_end, FromSeconds(1));
  EXPECT_EQ(ja.reduces[0].start, FromSeconds(3));
  EXPECT_EQ(ja.finish, FromSeconds(4));
}

}  // namespace
}  // namespace mrlocal
