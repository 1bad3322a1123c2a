// ScaleTime: --time-scale multiplies every time a spec names, queue events included, and
// refuses one that lands past the latest time a run reaches instead of overflowing the
// clock's nanoseconds.
#include <gtest/gtest.h>

#include "tools/runtime/workload_runner.h"

namespace mrlocal {
namespace {

WorkloadSpec WithEvent(double at_s) {
  WorkloadSpec spec;
  WorkloadJob job;
  job.name = "a";
  job.arrival_s = 10;
  job.deadline_s = 4;
  spec.jobs.push_back(job);
  spec.queues.queues.push_back({"q", std::nullopt, 1});
  spec.queues.events.push_back({FromSeconds(at_s), QueueEvent::Kind::kSetRate, {"q", {}, 0}, 2});
  return spec;
}

TEST(ScaleTime, ScalesArrivalsDeadlinesAndQueueEvents) {
  auto scaled = ScaleTime(WithEvent(60), 0.5);
  ASSERT_TRUE(scaled.ok()) << scaled.status().message();
  EXPECT_EQ(scaled->jobs[0].arrival_s, 5);
  EXPECT_EQ(scaled->jobs[0].deadline_s, 2);
  EXPECT_EQ(scaled->queues.events[0].at, std::chrono::seconds(30));
}

TEST(ScaleTime, AQueueEventPastTheLatestTimeIsRefusedNotOverflowed) {
  auto scaled = ScaleTime(WithEvent(1e9), 1000);
  ASSERT_FALSE(scaled.ok());
  EXPECT_EQ(scaled.status().message(),
            "a queue event at 1e+12 s is past the latest time a run reaches (1e+09 s, 31 years; "
            "--load and --time-scale included)");
}

}  // namespace
}  // namespace mrlocal
