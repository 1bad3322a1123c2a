// The control plane's event loop: a clock, a queue of callbacks, and timers. The Controller
// runs on exactly one EventLoop thread; other threads hand it work only through Post().
#pragma once

#include <functional>

#include "sched/core/clock.h"

namespace mrlocal {

class EventLoop : public Clock {
 public:
  using Callback = std::function<void()>;

  // Thread-safe: queues `fn` to run on the loop thread.
  virtual void Post(Callback fn) = 0;
  // Loop thread only: runs `fn` once Now() >= at.
  virtual void At(Time at, Callback fn) = 0;
  void After(Duration d, Callback fn) { At(Now() + d, std::move(fn)); }
  // Runs callbacks until Stop() is called.
  virtual void Run() = 0;
  // Loop thread only: Run() returns after the current callback.
  virtual void Stop() = 0;
};

}  // namespace mrlocal
