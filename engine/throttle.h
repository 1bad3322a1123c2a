// Slows a task down to a slot's speed s in (0, 1] (DESIGN.md §4, in the shared design notes beside
// the repository).
//
// A task runs in chunks. After a chunk that took t seconds at full speed the slot sleeps
// until the task's total elapsed time equals sum(t_i / s_i): the sleep target is absolute,
// so an oversleep in one chunk is paid back in the next instead of accumulating, and s may
// change between chunks (availability profiles, stragglers).
//
// t is the chunk's CPU time (this thread's clock), not its wall time: on a machine with
// more busy threads than cores, a chunk that waited 10 ms for a core would otherwise sleep
// another 10 ms x (1/s - 1) more, 70 ms at s = 0.125 — contention multiplied by the
// slowness. With CPU time the wait is absorbed into the sleep the slot owes anyway.
#pragma once

#include <time.h>

#include <cerrno>
#include <chrono>
#include <cstdint>

namespace mrlocal {

class Throttle {
 public:
  // Starts measuring a task's first chunk now.
  void Start() {
    target_ = NowNs();
    chunk_cpu_start_ = ThreadCpuNs();
  }

  // Ends the current chunk: sleeps as long as speed `s` requires and starts the next one.
  void EndChunk(double s) {
    const int64_t cpu = ThreadCpuNs();
    target_ = NextTarget(target_, cpu - chunk_cpu_start_, s);
    chunk_cpu_start_ = cpu;
    if (target_ > NowNs()) {
      timespec ts{static_cast<time_t>(target_ / 1000000000),
                  static_cast<long>(target_ % 1000000000)};
      while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
      }
      chunk_cpu_start_ = ThreadCpuNs();  // the sleep's own CPU is not the task's work
    }
  }

  // When a task that was due at `target` should reach the end of a chunk that took
  // `worked` ns of CPU at full speed on a slot of speed s: EndChunk's arithmetic, without the
  // clock. The target ignores when the chunk began, which is what pays an oversleep back.
  static int64_t NextTarget(int64_t target, int64_t worked, double s) {
    return target + (s >= 1.0 ? worked : static_cast<int64_t>(static_cast<double>(worked) / s));
  }

  static int64_t NowNs() { return ClockNs(CLOCK_MONOTONIC); }
  static int64_t ThreadCpuNs() { return ClockNs(CLOCK_THREAD_CPUTIME_ID); }

 private:
  static int64_t ClockNs(clockid_t clock) {
    timespec ts;
    clock_gettime(clock, &ts);
    return int64_t{ts.tv_sec} * 1000000000 + ts.tv_nsec;
  }

  int64_t chunk_cpu_start_ = 0;
  int64_t target_ = 0;  // when the task should reach this point at its slot's speed
};

}  // namespace mrlocal
