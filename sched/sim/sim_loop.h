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
  size_t pending() const { return live_; }
  // Entries of the time-ordered queue, including cancelled ones not yet dropped: bounded
  // by a small multiple of pending().
  size_t queued() const { return queue_.size(); }

 private:
  // A TimerId is the event's sequence number (which breaks ties between equal times) above
  // the index of the cell holding its callback: no lookup structure, no allocation per event
  // (an unordered_map of callbacks was a fifth of a large simulation's time, issue 23).
  static constexpr int kCellBits = 28;  // 268 M events pending at once; 2^36 in a run
  static constexpr TimerId kCellMask = (TimerId{1} << kCellBits) - 1;
  struct Entry {
    Time at;
    TimerId id;
  };
  struct Later {
    bool operator()(const Entry& a, const Entry& b) const {
      return a.at != b.at ? a.at > b.at : a.id > b.id;
    }
  };
  struct Cell {
    TimerId id = 0;  // the event it holds; 0: free
    Callback fn;
  };
  bool Live(TimerId id) const { return cells_[id & kCellMask].id == id; }
  void DropCancelled();

  // A binary heap (std::push_heap/pop_heap) of times; the callbacks live in cells beside
  // it, so that cancelling is emptying one. A cancelled entry stays in the heap until it comes up, or
  // until cancelled entries outnumber live ones and DropCancelled rebuilds it.
  std::vector<Entry> queue_;
  std::vector<Cell> cells_;
  std::vector<uint32_t> free_cells_;
  size_t live_ = 0;
  Time now_{0};
  TimerId last_id_ = 0;
  bool stopped_ = false;
  Callback progress_;
  uint64_t progress_every_ = 0;
  uint64_t until_progress_ = ~uint64_t{0};  // events left before the hook; never reaches 0 unset
};

}  // namespace mrlocal
