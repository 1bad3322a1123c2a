#include "engine/slot_worker.h"

#include <pthread.h>
#include <sched.h>

#include <chrono>
#include <vector>

namespace mrlocal {

class SlotWorker::Context final : public TaskContext {
 public:
  Context(SlotWorker& w, uint64_t token) : w_(w), token_(token) { throttle_.Start(); }

  bool Checkpoint(double progress) override {
    w_.progress_.store(progress, std::memory_order_relaxed);
    throttle_.EndChunk(w_.speed());
    return w_.cancelled_token_.load(std::memory_order_acquire) != token_;
  }

 private:
  SlotWorker& w_;
  uint64_t token_;
  Throttle throttle_;
};

SlotWorker::SlotWorker(int id, int cpu, double speed, SlotPriority priority,
                       std::chrono::microseconds spin)
    : id_(id), cpu_(cpu), priority_(priority), spin_(spin), speed_(speed) {
  thread_ = std::thread([this] { Loop(); });
}

SlotWorker::~SlotWorker() {
  {
    std::lock_guard lock(mu_);
    shutdown_ = true;
    posted_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_one();
  thread_.join();
}

void SlotWorker::Run(uint64_t token, Work work) {
  {
    std::lock_guard lock(mu_);
    pending_ = std::move(work);
    pending_token_ = token;
    posted_.fetch_add(1, std::memory_order_release);
  }
  wake_.notify_one();
}

void SlotWorker::Cancel(uint64_t token) {
  if (running_token_.load(std::memory_order_acquire) == token)
    cancelled_token_.store(token, std::memory_order_release);
}

void SlotWorker::Loop() {
  PinCurrentThread(cpu_);
  if (priority_ == SlotPriority::kIdle) {
    sched_param none{};
    pthread_setschedparam(pthread_self(), SCHED_IDLE, &none);  // lowering needs no privilege
  }
  uint32_t seen = 0;
  for (;;) {
    // Spin briefly before sleeping: the controller usually answers a finished task with the
    // next one within microseconds, and a futex wake-up costs more than that.
    auto spin_until = std::chrono::steady_clock::now() + spin_;
    while (posted_.load(std::memory_order_acquire) == seen &&
           std::chrono::steady_clock::now() < spin_until) {
    }
    Work work;
    uint64_t token;
    {
      // Shutdown ends the wait by itself: a Run and the destructor posted before this
      // thread woke are seen as one post, and after running that work nothing would come.
      std::unique_lock lock(mu_);
      wake_.wait(lock,
                 [&] { return shutdown_ || posted_.load(std::memory_order_relaxed) != seen; });
      seen = posted_.load(std::memory_order_relaxed);
      if (shutdown_ && !pending_) return;
      if (!pending_) continue;
      work = std::move(pending_);
      pending_ = nullptr;
      token = pending_token_;
    }
    progress_.store(0, std::memory_order_relaxed);
    running_token_.store(token, std::memory_order_release);
    Context ctx(*this, token);
    work(ctx);
    running_token_.store(0, std::memory_order_release);
  }
}

std::vector<int> AllowedCpus() {
  std::vector<int> cpus;
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0) {
    for (int c = 0; c < CPU_SETSIZE; ++c)
      if (CPU_ISSET(c, &set)) cpus.push_back(c);
  }
  if (cpus.empty()) cpus.push_back(0);
  return cpus;
}

void PinCurrentThread(int cpu) {
  if (cpu < 0) return;
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(cpu, &set);
  pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
}

}  // namespace mrlocal
