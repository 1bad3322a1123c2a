// Throttle's arithmetic, as far as it shows without a fake clock (engine/throttle.h reads
// the thread's CPU clock and CLOCK_MONOTONIC itself): it sleeps to an absolute target, the sum of
// each chunk's work over its speed, so a task of chunks w_i at speeds s_i takes at least sum(w_i /
// s_i) on any machine however loaded. How close to that it stays is bench_throttle's business.
#include "engine/throttle.h"

#include <gtest/gtest.h>

#include <vector>

namespace mrlocal {
namespace {

// Busy for at least `ns` of this thread's CPU: work as a task does it, not sleep.
void Work(int64_t ns) {
  const int64_t until = Throttle::ThreadCpuNs() + ns;
  while (Throttle::ThreadCpuNs() < until) {
  }
}

TEST(Throttle, ATaskTakesAtLeastEachChunksWorkOverItsSpeed) {
  struct Chunk {
    int64_t work_ns;
    double speed;
  };
  // The speed changes between chunks, as an availability profile changes it.
  const std::vector<Chunk> chunks = {
      {2'000'000, 0.5}, {1'000'000, 0.25}, {3'000'000, 1.0}, {1'000'000, 0.5}, {500'000, 0.1}};
  int64_t owed = 0;
  for (const Chunk& c : chunks)
    owed += static_cast<int64_t>(static_cast<double>(c.work_ns) / c.speed);

  const int64_t t0 = Throttle::NowNs();
  Throttle throttle;
  throttle.Start();
  for (const Chunk& c : chunks) {
    Work(c.work_ns);
    throttle.EndChunk(c.speed);
  }
  EXPECT_GE(Throttle::NowNs() - t0, owed);
}

// A chunk that waits (here asleep; on a busy machine, for a core) owes its CPU time over
// the speed, not its wall time: 50 ms of waiting at speed 0.05 would otherwise owe a
// second. The bound is loose so that a loaded machine cannot fail it.
TEST(Throttle, WaitingInAChunkIsNotMultipliedBySlowness) {
  const int64_t t0 = Throttle::NowNs();
  Throttle throttle;
  throttle.Start();
  const timespec wait{0, 50'000'000};
  nanosleep(&wait, nullptr);
  throttle.EndChunk(0.05);
  EXPECT_LT(Throttle::NowNs() - t0, 500'000'000);
}

// EndChunk's arithmetic on a simulated clock where every sleep wakes `late` ns after its
// target: the task ends at sum(w_i / s_i) plus at most the last chunk's lateness, because
// the target ignores when each chunk began.
TEST(Throttle, AnOversleepIsPaidBackByTheNextChunk) {
  struct Chunk {
    int64_t work_ns;
    double speed;
  };
  const std::vector<Chunk> chunks = {
      {2'000'000, 0.5}, {1'000'000, 1.0}, {1'000'000, 0.5}, {3'000'000, 0.25}, {1'000'000, 1.0}};
  const int64_t late = 1'000'000;
  int64_t now = 0, target = 0, owed = 0;
  for (const Chunk& c : chunks) {
    now += c.work_ns;
    target = Throttle::NextTarget(target, c.work_ns, c.speed);
    owed += static_cast<int64_t>(static_cast<double>(c.work_ns) / c.speed);
    EXPECT_EQ(target, owed);
    if (target > now) now = target + late;
  }
  // Chunk 1 wakes at 5 ms, 1 ms late; chunk 2 (1 ms at full speed) owes no sleep, so the
  // task is back on schedule. Chunk 4 wakes 1 ms late again, and chunk 5, at full speed,
  // has no sleep left to absorb it: the task ends at sum(w/s) = 20 ms plus that 1 ms.
  EXPECT_EQ(owed, 20'000'000);
  EXPECT_EQ(now, owed + late);
}

TEST(Throttle, FullSpeedOwesExactlyTheWorkAndQuarterSpeedFourTimesIt) {
  EXPECT_EQ(Throttle::NextTarget(5, 1000, 1.0), 1005);
  EXPECT_EQ(Throttle::NextTarget(5, 1000, 0.25), 4005);
  EXPECT_EQ(Throttle::NextTarget(0, 1000, 0.5), 2000);
}

}  // namespace
}  // namespace mrlocal
