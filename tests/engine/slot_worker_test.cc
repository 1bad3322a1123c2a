// SlotWorker: runs work on its thread, cancels only the attempt it is told to, and keeps
// running tasks one after another. Timing is the benchmark's business (bench_throttle).
#include "engine/slot_worker.h"

#include <gtest/gtest.h>

#include <atomic>
#include <functional>
#include <future>
#include <vector>

namespace mrlocal {
namespace {

TEST(SlotWorker, RunsWorkOnItsOwnThreadOneTaskAfterAnother) {
  SlotWorker w(0, -1, 1.0);
  for (uint64_t token = 1; token <= 100; ++token) {
    std::promise<std::thread::id> ran;
    w.Run(token, [&](TaskContext& ctx) {
      EXPECT_TRUE(ctx.Checkpoint(1.0));
      ran.set_value(std::this_thread::get_id());
    });
    EXPECT_NE(ran.get_future().get(), std::this_thread::get_id());
  }
}

// Runs `work` as attempt `token` and waits until it has returned.
void RunAndWait(SlotWorker& w, uint64_t token, std::function<void(TaskContext&)> work) {
  std::promise<void> done;
  w.Run(token, [&](TaskContext& ctx) {
    work(ctx);
    done.set_value();
  });
  done.get_future().wait();
}

// Attempt 7 takes one checkpoint per step the test thread allows, while the test cancels
// around it: the finished attempt before it, itself, and one not started yet.
TEST(SlotWorker, CancelStopsTheNamedAttemptAtItsNextCheckpointOnly) {
  SlotWorker w(0, -1, 1.0);
  RunAndWait(w, 6, [](TaskContext&) {});
  std::atomic<int> allowed{0}, taken{0};
  bool go_on[2] = {false, false};
  std::promise<void> started, returned;
  w.Run(7, [&](TaskContext& ctx) {
    started.set_value();
    for (int i = 0; i < 3; ++i) {
      while (allowed.load() <= i) std::this_thread::yield();
      if (i < 2) go_on[i] = ctx.Checkpoint(0.5);
      taken = i + 1;
    }
    returned.set_value();
  });
  auto step = [&](int n) {
    allowed = n;
    while (taken.load() < n) std::this_thread::yield();
  };
  started.get_future().wait();
  w.Cancel(6);  // stale: attempt 6 has finished
  step(1);
  EXPECT_TRUE(go_on[0]) << "the cancel of attempt 6 stopped attempt 7";
  w.Cancel(7);
  step(2);
  EXPECT_FALSE(go_on[1]) << "attempt 7 went on after its cancel";
  w.Cancel(8);  // attempt 8 has not started: ignored
  step(3);
  returned.get_future().wait();

  bool next = false;
  RunAndWait(w, 8, [&](TaskContext& ctx) { next = ctx.Checkpoint(1.0); });
  EXPECT_TRUE(next) << "a cancel sent before attempt 8 ran stopped it";
}

TEST(SlotWorker, PublishesProgressAndSpeed) {
  SlotWorker w(3, -1, 0.5);
  EXPECT_EQ(w.id(), 3);
  EXPECT_DOUBLE_EQ(w.speed(), 0.5);
  w.SetSpeed(1.0);
  std::promise<void> done;
  w.Run(1, [&](TaskContext& ctx) {
    ctx.Checkpoint(0.25);
    done.set_value();
  });
  done.get_future().wait();
  EXPECT_DOUBLE_EQ(w.progress(), 0.25);
}

TEST(AllowedCpus, ListsAtLeastOneCpu) { EXPECT_FALSE(AllowedCpus().empty()); }

}  // namespace
}  // namespace mrlocal
