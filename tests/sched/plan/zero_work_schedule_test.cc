// Zero-work tasks are valid (MarS's NP-hardness proof uses zero-time maps): one takes no
// time on its machine, even when it starts with another task.
#include <gtest/gtest.h>

#include "sched/plan/instance.h"

namespace mrlocal {
namespace {

TEST(CheckSchedule, AZeroWorkTaskStartingWithAnotherIsNoOverlap) {
  PlanInstance in;
  in.machine_speeds = {1.0};
  in.jobs.push_back({0, 1, 0, {5}, {}});
  in.jobs.push_back({0, 1, 0, {0}, {0}});
  // All three start at 0 on one machine: the 5 s map and the two tasks of no work.
  for (const Schedule& s : {Schedule{{0, 0, 0}, {0, 0, 0}}, Schedule{{0, 0, 0}, {0, 5, 5}}})
    EXPECT_TRUE(CheckSchedule(in, s).ok()) << CheckSchedule(in, s).message();
  EXPECT_FALSE(CheckSchedule(in, {{0, 0, 0}, {0, 4, 5}}).ok()) << "inside the 5 s map";
}

}  // namespace
}  // namespace mrlocal
