#include "engine/cpu_burner.h"

#include <time.h>

#include <algorithm>
#include <cerrno>

#include "engine/slot_worker.h"
#include "engine/throttle.h"

namespace mrlocal {

namespace {

double Clamp01(double d) { return std::clamp(d, 0.0, 1.0); }

void SleepUntil(int64_t ns) {
  timespec ts{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
  while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nullptr) == EINTR) {
  }
}

}  // namespace

CpuBurner::CpuBurner(int cpu, double duty) : cpu_(cpu), duty_(Clamp01(duty)) {
  thread_ = std::thread([this] { Loop(); });
}

double CpuBurner::DutyFor(double availability, double base_speed) {
  return Clamp01(1.0 - availability * base_speed);
}

void CpuBurner::SetDuty(double duty) {
  duty_.store(Clamp01(duty), std::memory_order_relaxed);
  Notify();
}

void CpuBurner::Stop() {
  stop_.store(true, std::memory_order_relaxed);
  Notify();
  if (thread_.joinable()) thread_.join();
}

void CpuBurner::Notify() {
  changes_.fetch_add(1, std::memory_order_release);
  changes_.notify_all();
}

void CpuBurner::Loop() {
  PinCurrentThread(cpu_);
  constexpr int64_t window = std::chrono::nanoseconds(kWindow).count();
  int64_t window_start = Throttle::NowNs();
  while (!stop_.load(std::memory_order_relaxed)) {
    const uint32_t seen = changes_.load(std::memory_order_acquire);
    const double d = duty();
    if (d <= 0) {
      cpu_ns_.store(Throttle::ThreadCpuNs(), std::memory_order_relaxed);
      if (!stop_.load(std::memory_order_relaxed)) changes_.wait(seen, std::memory_order_acquire);
      window_start = Throttle::NowNs();
      continue;
    }
    // d x window of this thread's CPU, not of wall time: a burst that another thread
    // preempts runs on, up to the window's end, as a request of a web load would.
    const int64_t busy_cpu = Throttle::ThreadCpuNs() + static_cast<int64_t>(d * window);
    while (Throttle::ThreadCpuNs() < busy_cpu && Throttle::NowNs() < window_start + window &&
           !stop_.load(std::memory_order_relaxed)) {
    }
    window_start += window;
    // A window lost to preemption is not made up with a longer burst later.
    if (const int64_t now = Throttle::NowNs(); now > window_start + window) window_start = now;
    if (d < 1) SleepUntil(window_start);
    cpu_ns_.store(Throttle::ThreadCpuNs(), std::memory_order_relaxed);
  }
  cpu_ns_.store(Throttle::ThreadCpuNs(), std::memory_order_relaxed);
}

}  // namespace mrlocal
