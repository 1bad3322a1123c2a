// AsioLoop's timers: they run in time order, cancelled ones never run, and Post reaches
// the loop from another thread. No timing is asserted: only order and what ran.
#include "sched/core/asio_loop.h"

#include <gtest/gtest.h>

#include <string>
#include <thread>

namespace mrlocal {
namespace {

using std::chrono::milliseconds;

TEST(AsioLoop, RunsTimersInTimeOrderAndSkipsCancelledOnes) {
  AsioLoop loop;
  std::string order;
  // Absolute times (At, not After): a slow machine may pause between these calls, which
  // must not reorder them; timers already due when the loop runs go in time order too.
  loop.At(Time{milliseconds(3)}, [&] { order += "c"; });
  loop.At(Time{milliseconds(1)}, [&] { order += "a"; });
  const TimerId b = loop.At(Time{milliseconds(2)}, [&] { order += "b"; });
  loop.At(Time{milliseconds(5)}, [&] {
    order += "d";
    loop.Stop();
  });
  loop.Cancel(b);
  loop.Run();
  EXPECT_EQ(order, "acd");
}

TEST(AsioLoop, ATimerCancelledAfterItExpiredDoesNotRun) {
  AsioLoop loop;
  bool ran = false;
  // Both are due when the loop starts; the first to run cancels the other, whose wait
  // may already have completed.
  TimerId second = 0;
  loop.At(Time{0}, [&] {
    loop.Cancel(second);
    loop.After(milliseconds(1), [&] { loop.Stop(); });
  });
  second = loop.At(Time{1}, [&] { ran = true; });
  loop.Run();
  EXPECT_FALSE(ran);
}

TEST(AsioLoop, CancellingAFiredOrUnknownTimerIsANoOp) {
  AsioLoop loop;
  int runs = 0;
  TimerId first = 0;
  first = loop.After(milliseconds(1), [&] {
    ++runs;
    loop.Post([&] {
      loop.Cancel(first);  // fired already
      loop.Cancel(first + 1000);
      loop.Cancel(0);
      loop.Stop();
    });
  });
  loop.Run();
  EXPECT_EQ(runs, 1);
}

TEST(AsioLoop, PostFromAnotherThreadReachesTheLoop) {
  AsioLoop loop;
  std::thread::id ran_on;
  std::thread poster([&] {
    loop.Post([&] {
      ran_on = std::this_thread::get_id();
      loop.Stop();
    });
  });
  loop.Run();
  poster.join();
  EXPECT_EQ(ran_on, std::this_thread::get_id());
}

}  // namespace
}  // namespace mrlocal
