// A discrete-event EventLoop: virtual time that jumps from event to event. Deterministic:
// events at the same time run in the order they were scheduled. Single-threaded: Post()
// from another thread is not allowed here (simulated executors run on the loop thread).
#pragma once

#include <cstdint>
#include <vector>

#include "sched/core/event_loop.h"

namespace mrlocal {

class SimLoop final : public EventLoop {
 public:
  Time Now() const override { return now_; }
  void Post(Callback fn) override { At(now_, std::move(fn)); }
  void At(Time at, Callback fn) override;
  // Runs events in time order until Stop() or until none is left.
  void Run() override;
  void Stop() override { stopped_ = true; }

  size_t pending() const { return events_.size(); }

 private:
  struct Event {
    Time at;
    uint64_t seq;
    Callback fn;
  };
  struct Later {
    bool operator()(const Event& a, const Event& b) const {
      return a.at != b.at ? a.at > b.at : a.seq > b.seq;
    }
  };
  // A binary heap (std::push_heap/pop_heap) rather than std::priority_queue, whose const
  // top() would force a copy of every callback.
  std::vector<Event> events_;
  Time now_{0};
  uint64_t seq_ = 0;
  bool stopped_ = false;
};

}  // namespace mrlocal
