// SimLoop's timers: time order, ties in scheduling order, cancellation.
#include "sched/sim/sim_loop.h"

#include <gtest/gtest.h>

#include <string>

namespace mrlocal {
namespace {

using std::chrono::seconds;

TEST(SimLoop, RunsTimersInTimeOrderAndTiesInSchedulingOrder) {
  SimLoop loop;
  std::string order;
  loop.At(seconds(2), [&] { order += "c"; });
  loop.At(seconds(1), [&] { order += "a"; });
  loop.At(seconds(1), [&] { order += "b"; });
  loop.Run();
  EXPECT_EQ(order, "abc");
  EXPECT_EQ(loop.Now(), seconds(2));
}

TEST(SimLoop, CancelledTimersDoNotRun) {
  SimLoop loop;
  std::string order;
  loop.At(seconds(1), [&] { order += "a"; });
  const TimerId b = loop.At(seconds(2), [&] { order += "b"; });
  loop.At(seconds(3), [&] { order += "c"; });
  EXPECT_NE(b, 0u);
  loop.Cancel(b);
  EXPECT_EQ(loop.pending(), 2u);
  loop.Run();
  EXPECT_EQ(order, "ac");
  EXPECT_EQ(loop.Now(), seconds(3)) << "a cancelled timer does not move the clock";
}

TEST(SimLoop, ATimerCanCancelALaterOne) {
  SimLoop loop;
  std::string order;
  TimerId later = 0;
  loop.At(seconds(1), [&] {
    order += "a";
    loop.Cancel(later);
  });
  later = loop.At(seconds(2), [&] { order += "b"; });
  loop.Run();
  EXPECT_EQ(order, "a");
}

TEST(SimLoop, CancellingAFiredOrUnknownTimerIsANoOp) {
  SimLoop loop;
  int runs = 0;
  const TimerId fired = loop.At(seconds(1), [&] { ++runs; });
  loop.Run();
  loop.Cancel(fired);
  loop.Cancel(fired + 1000);
  loop.Cancel(0);
  loop.At(seconds(2), [&] { ++runs; });
  loop.Run();
  EXPECT_EQ(runs, 2);
}

TEST(SimLoop, CancelledTimersDoNotAccumulateInTheQueue) {
  SimLoop loop;
  // A policy re-arming one wake-up a million times keeps one live timer, not a million.
  TimerId wake = 0;
  for (int i = 0; i < 100000; ++i) {
    loop.Cancel(wake);
    wake = loop.At(seconds(1000 + i), [] {});
  }
  EXPECT_EQ(loop.pending(), 1u);
  EXPECT_LE(loop.queued(), 2 * loop.pending() + 65);
}

TEST(SimLoop, PostRunsNowAfterWhatIsAlreadyDueNow) {
  SimLoop loop;
  std::string order;
  loop.At(seconds(1), [&] {
    loop.Post([&] { order += "p"; });
    order += "a";
  });
  loop.At(seconds(1), [&] { order += "b"; });
  loop.Run();
  EXPECT_EQ(order, "abp");
  EXPECT_EQ(loop.Now(), seconds(1));
}

}  // namespace
}  // namespace mrlocal
