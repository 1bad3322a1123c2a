#include "sched/sim_loop.h"

#include <algorithm>

namespace mrlocal {

void SimLoop::At(Time at, Callback fn) {
  events_.push(Event{std::max(at, now_), seq_++, std::move(fn)});
}

void SimLoop::Run() {
  stopped_ = false;
  while (!stopped_ && !events_.empty()) {
    // priority_queue::top() is const; the callback is moved out through a copy of the node.
    Event e = events_.top();
    events_.pop();
    now_ = e.at;
    e.fn();
  }
}

}  // namespace mrlocal
