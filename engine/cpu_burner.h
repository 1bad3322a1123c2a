// A CPU load beside the slots: one thread, pinned to one CPU, busy for a duty fraction d of
// every window of kWindow (it spins for d x 10 ms of its CPU time, or until the window
// ends when other threads keep it off the CPU, then sleeps the rest), the way a web or
// transactional load takes a share of a node's CPU. It stands for what the paper's
// experiments run beside MapReduce (the Reverse-Adaptive paper's transactional workload).
//
// What a duty means to the slots on that CPU: their throttles (engine/throttle.h) count
// CPU time, so a slot that waits for the CPU absorbs the wait into the sleep it owes, and a
// burner of duty 1 - a does NOT slow slots of speed s to a x s: they only need s of the CPU.
// To run the slots pinned to a CPU at a x their base speeds s_i, the burner takes what they
// would not use at that speed, d = 1 - a x sum(s_i) (clamped to [0, 1]; DutyFor), and the
// slots must yield to it: they run at SCHED_IDLE (SlotPriority::kIdle), the burner at the
// normal policy, so the slots get what the load leaves. Other processes on the machine
// then go before the slots as well: measure on an otherwise idle machine.
//
// Thread safety: SetDuty, duty and cpu_ns from any thread; Stop from the owner's.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <thread>

namespace mrlocal {

class CpuBurner {
 public:
  static constexpr std::chrono::milliseconds kWindow{10};

  // cpu < 0: not pinned. duty is clamped to [0, 1].
  CpuBurner(int cpu, double duty);
  ~CpuBurner() { Stop(); }
  CpuBurner(const CpuBurner&) = delete;
  CpuBurner& operator=(const CpuBurner&) = delete;

  // Takes effect from the next window, or at once from duty 0 (the thread then sleeps
  // until a change: no busy-wait). Clamped to [0, 1].
  void SetDuty(double duty);
  double duty() const { return duty_.load(std::memory_order_relaxed); }

  // Ends the thread within a window and joins it. Idempotent.
  void Stop();

  // CPU time the thread has used, as of its last window (its whole life once stopped).
  int64_t cpu_ns() const { return cpu_ns_.load(std::memory_order_relaxed); }
  int cpu() const { return cpu_; }

  // The duty that makes slots of base speeds summing to `base_speed`, pinned to the
  // burner's CPU, run at `availability` x their base speeds (see the top of this file).
  static double DutyFor(double availability, double base_speed);

 private:
  void Loop();
  void Notify();

  const int cpu_;
  std::atomic<double> duty_;
  std::atomic<bool> stop_{false};
  std::atomic<uint32_t> changes_{0};  // bumped by SetDuty and Stop; waited on at duty 0
  std::atomic<int64_t> cpu_ns_{0};
  std::thread thread_;
};

}  // namespace mrlocal
