// A discrete-event EventLoop: virtual time that jumps from event to event. Deterministic:
// events at the same time run in the order they were scheduled. Single-threaded: Post()
// from another thread is not allowed here (simulated executors run on the loop thread).
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "sched/core/event_loop.h"

namespace mrlocal {

class SimLoop final : public EventLoop {
 public:
  Time Now() const override { return now_; }
  void Post(Callback fn) override { At(now_, std::move(fn)); }
  TimerId At(Time at, Callback fn) override;
  void Cancel(TimerId id) override;
  // Runs events in time order until Stop() or until none is left.
  void Run() override;
  void Stop() override { stopped_ = true; }

  // Calls `fn` between events, after every `every` events run (0: never again): a front
  // end's progress report, paced by the simulation's own work. `fn` must not schedule
  // events, so that a run is the same with or without it.
  void SetProgressHook(uint64_t every, Callback fn);

  // Events still to run (cancelled ones excluded).
  size_t pending() const { return callbacks_.size(); }
  // Entries of the time-ordered queue, including cancelled ones not yet dropped: bounded
  // by a small multiple of pending().
  size_t queued() const { return queue_.size(); }

 private:
  struct Entry {
    Time at;
    TimerId id;  // given in scheduling order: it breaks ties between equal times
  };
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.at != b.at ? a.at > b.at : a.id > b.id;
    }
  };
  void DropCancelled();

  // A binary heap (std::push_heap/pop_heap) of times; the callbacks live beside it, so
  // that cancelling is erasing one. A cancelled entry stays in the heap until it comes up,
  // or until cancelled entries outnumber live ones and DropCancelled rebuilds the heap.
  std::vector<Entry> queue_;
  std::unordered_map<TimerId, Callback> callbacks_;
  Time now_{0};
  TimerId last_id_ = 0;
  bool stopped_ = false;
  Callback progress_;
  uint64_t progress_every_ = 0;
  uint64_t until_progress_ = ~uint64_t{0};  // events left before the hook; never reaches 0 unset
};

}  // namespace mrlocal
