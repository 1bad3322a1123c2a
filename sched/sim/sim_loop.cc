#include "sched/sim/sim_loop.h"

#include <algorithm>

namespace mrlocal {

void SimLoop::At(Time at, Callback fn) {
  events_.push_back(Event{std::max(at, now_), seq_++, std::move(fn)});
  std::push_heap(events_.begin(), events_.end(), Later{});
}

void SimLoop::Run() {
  stopped_ = false;
  while (!stopped_ && !events_.empty()) {
    std::pop_heap(events_.begin(), events_.end(), Later{});
    Event e = std::move(events_.back());
    events_.pop_back();
    now_ = e.at;
    e.fn();
  }
}

}  // namespace mrlocal
