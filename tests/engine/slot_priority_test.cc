// SlotPriority: a slot at kIdle runs its tasks at SCHED_IDLE (so that a CpuBurner on its
// CPU goes first), one at kNormal at the normal policy.
#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <future>

#include "engine/slot_worker.h"

namespace mrlocal {
namespace {

int PolicyOfATask(SlotPriority priority) {
  SlotWorker w(0, -1, 1.0, priority);
  std::promise<int> policy;
  w.Run(1, [&](TaskContext&) {
    int p;
    sched_param param;
    pthread_getschedparam(pthread_self(), &p, &param);
    policy.set_value(p);
  });
  return policy.get_future().get();
}

TEST(SlotPriority, AnIdleSlotRunsItsTasksAtSchedIdle) {
  EXPECT_EQ(PolicyOfATask(SlotPriority::kIdle), SCHED_IDLE);
  EXPECT_EQ(PolicyOfATask(SlotPriority::kNormal), SCHED_OTHER);
}

}  // namespace
}  // namespace mrlocal
