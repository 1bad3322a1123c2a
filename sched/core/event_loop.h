// The control plane's event loop: a clock, a queue of callbacks, and timers. The Controller
// runs on exactly one EventLoop thread; other threads hand it work only through Post().
#pragma once

#include <cstdint>
#include <functional>

#include "sched/core/clock.h"

namespace mrlocal {

// Names a timer of one loop; never 0, never reused by that loop.
using TimerId = uint64_t;

class EventLoop : public Clock {
 public:
  using Callback = std::function<void()>;

  // Thread-safe: queues `fn` to run on the loop thread.
  virtual void Post(Callback fn) = 0;
  // Loop thread only: runs `fn` once Now() >= at, unless cancelled first.
  virtual TimerId At(Time at, Callback fn) = 0;
  TimerId After(Duration d, Callback fn) { return At(Now() + d, std::move(fn)); }
  // Loop thread only: the timer's callback will not run. A timer that already ran, or an
  // id this loop never gave, is not an error: nothing happens.
  virtual void Cancel(TimerId id) = 0;
  // Runs callbacks until Stop() is called.
  virtual void Run() = 0;
  // Loop thread only: Run() returns after the current callback.
  virtual void Stop() = 0;
};

}  // namespace mrlocal
