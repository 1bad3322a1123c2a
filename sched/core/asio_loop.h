// The real-time EventLoop: a Boost.Asio io_context on the calling thread, steady-clock
// timers, and a short spin before blocking so that a slot's "task finished" event reaches
// the controller in microseconds rather than after a futex wake-up.
#pragma once

#include <chrono>
#include <memory>
#include <unordered_map>

#include "sched/core/asio.h"
#include "sched/core/event_loop.h"

namespace mrlocal {

class AsioLoop final : public EventLoop {
 public:
  static constexpr std::chrono::microseconds kDefaultSpin{50};
  // `spin`: how long Run polls after the last event before it blocks. Worth it where slots
  // answer within microseconds (threads of this process); waste where answers cross MPI
  // ranks and take longer (sched/dist), when the spin takes a core another rank needs.
  explicit AsioLoop(std::chrono::microseconds spin = kDefaultSpin);
  ~AsioLoop() override;

  Time Now() const override;
  void Post(Callback fn) override;
  TimerId At(Time at, Callback fn) override;
  void Cancel(TimerId id) override;
  void Run() override;
  void Stop() override;

  // The steady-clock instant this loop calls Time{0}.
  std::chrono::steady_clock::time_point epoch() const { return epoch_; }

 private:
  boost::asio::io_context io_;
  // The timers that have neither run nor been cancelled. Loop thread only.
  std::unordered_map<TimerId, std::unique_ptr<boost::asio::steady_timer>> timers_;
  TimerId last_id_ = 0;
  std::chrono::steady_clock::time_point epoch_;
  const std::chrono::microseconds spin_;
  bool stopped_ = false;
};

}  // namespace mrlocal
