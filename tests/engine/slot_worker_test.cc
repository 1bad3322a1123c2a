// SlotWorker: runs work on its thread, cancels only the attempt it is told to, and keeps
// running tasks one after another. Timing is the benchmark's business (bench_throttle).
#include "engine/slot_worker.h"

#include <gtest/gtest.h>

#include <future>

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

TEST(SlotWorker, CancelStopsTheNamedAttemptAtItsNextCheckpointOnly) {
  SlotWorker w(0, -1, 1.0);
  std::promise<void> started, stopped;
  std::atomic<bool> go{false};
  w.Run(7, [&](TaskContext& ctx) {
    started.set_value();
    while (!go.load()) std::this_thread::yield();
    int chunks = 0;
    while (ctx.Checkpoint(0.5)) ++chunks;
    stopped.set_value();
  });
  started.get_future().wait();
  w.Cancel(6);  // a stale token: ignored
  w.Cancel(7);
  go = true;
  stopped.get_future().wait();

  // The next attempt is not affected by the earlier cancel.
  std::promise<bool> next;
  w.Run(8, [&](TaskContext& ctx) { next.set_value(ctx.Checkpoint(1.0)); });
  EXPECT_TRUE(next.get_future().get());
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
