// A slot's worker thread: pinned to one CPU, runs one task at a time, throttled to the
// slot's speed s(t). The control plane decides what runs; the worker only runs it.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

#include "engine/task_context.h"
#include "engine/throttle.h"

namespace mrlocal {

// kIdle: the thread runs at SCHED_IDLE, so that any other runnable thread on its CPU goes
// first: beside a CpuBurner (engine/cpu_burner.h) the slot gets what the load leaves.
enum class SlotPriority { kNormal, kIdle };

class SlotWorker {
 public:
  // The work for one task attempt. It gets the slot's TaskContext and must call
  // Checkpoint() between chunks (that is where throttling and cancellation happen).
  using Work = std::function<void(TaskContext&)>;

  // How long an idle worker spins for its next task before it sleeps: worth it where the
  // controller answers a report within microseconds (one process), waste where the answer
  // takes longer than the spin (slots on MPI ranks, sched/dist).
  static constexpr std::chrono::microseconds kDefaultSpin{50};

  // cpu < 0: not pinned. speed in (0, 1].
  SlotWorker(int id, int cpu, double speed, SlotPriority priority = SlotPriority::kNormal,
             std::chrono::microseconds spin = kDefaultSpin);
  ~SlotWorker();  // finishes the running task, then joins the thread
  SlotWorker(const SlotWorker&) = delete;
  SlotWorker& operator=(const SlotWorker&) = delete;

  // Thread-safe. Starts `work` as attempt `token` on this worker.
  // REQUIRES: the previous work has returned (the controller never double-books a slot).
  void Run(uint64_t token, Work work);

  // Thread-safe: the running attempt `token`'s next Checkpoint() returns false. A token that
  // is no longer running is ignored, so a late cancel cannot hit the next task.
  void Cancel(uint64_t token);

  // Thread-safe; takes effect at the running task's next chunk.
  void SetSpeed(double s) { speed_.store(s, std::memory_order_relaxed); }
  double speed() const { return speed_.load(std::memory_order_relaxed); }

  // Progress in [0, 1] last published by the running task.
  double progress() const { return progress_.load(std::memory_order_relaxed); }

  int id() const { return id_; }
  int cpu() const { return cpu_; }

 private:
  class Context;
  void Loop();

  const int id_;
  const int cpu_;
  const SlotPriority priority_;
  const std::chrono::microseconds spin_;
  std::atomic<double> speed_;
  std::atomic<double> progress_{0};
  std::atomic<uint64_t> running_token_{0};
  std::atomic<uint64_t> cancelled_token_{0};

  std::mutex mu_;
  Work pending_;                     // guarded by mu_
  uint64_t pending_token_ = 0;       // guarded by mu_
  bool shutdown_ = false;            // guarded by mu_
  std::condition_variable wake_;     // the worker sleeps on it when posted_ is unchanged
  std::atomic<uint32_t> posted_{0};  // bumped under mu_ by each Run(); spun on, then waited for

  std::thread thread_;
};

// The CPUs this process may run on (sched_getaffinity), in ascending order.
std::vector<int> AllowedCpus();

// Pins the calling thread to `cpu`, best effort; cpu < 0: leaves it free.
void PinCurrentThread(int cpu);

}  // namespace mrlocal
