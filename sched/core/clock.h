// Time for the control plane. Policies read time only through a Clock, which is what lets
// the same policy code run on real jobs (AsioLoop) and in simulation (SimLoop), and be
// tested against a FakeClock.
#pragma once

#include <chrono>
#include <cstdint>

namespace mrlocal {

// Nanoseconds since the owning loop's epoch (its start), as a chrono duration.
using Time = std::chrono::nanoseconds;
using Duration = std::chrono::nanoseconds;

inline double Seconds(Duration d) { return std::chrono::duration<double>(d).count(); }
inline Duration FromSeconds(double s) {
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(s));
}

class Clock {
 public:
  virtual ~Clock() = default;
  virtual Time Now() const = 0;
};

// The host's monotonic clock from the moment it was made: for a process that runs slots
// but no loop (a rank of a distributed run, sched/dist). Thread-safe.
class SteadyClock final : public Clock {
 public:
  Time Now() const override { return std::chrono::steady_clock::now() - epoch_; }

 private:
  std::chrono::steady_clock::time_point epoch_ = std::chrono::steady_clock::now();
};

// A clock that moves only when told to: for policy tests.
class FakeClock final : public Clock {
 public:
  Time Now() const override { return now_; }
  void Set(Time t) { now_ = t; }
  void Advance(Duration d) { now_ += d; }

 private:
  Time now_{0};
};

}  // namespace mrlocal
