#include "sched/sim/sim_loop.h"

#include <algorithm>

namespace mrlocal {

TimerId SimLoop::At(Time at, Callback fn) {
  const TimerId id = ++last_id_;
  callbacks_.emplace(id, std::move(fn));
  queue_.push_back(Entry{std::max(at, now_), id});
  std::push_heap(queue_.begin(), queue_.end(), Later{});
  return id;
}

void SimLoop::Cancel(TimerId id) {
  if (callbacks_.erase(id) == 0) return;
  if (queue_.size() > 2 * callbacks_.size() + 64) DropCancelled();
}

void SimLoop::DropCancelled() {
  std::erase_if(queue_, [this](const Entry& e) { return !callbacks_.contains(e.id); });
  std::make_heap(queue_.begin(), queue_.end(), Later{});
}

void SimLoop::SetProgressHook(uint64_t every, Callback fn) {
  progress_ = std::move(fn);
  progress_every_ = every;
  until_progress_ = every > 0 && progress_ ? every : ~uint64_t{0};
}

void SimLoop::Run() {
  stopped_ = false;
  while (!stopped_ && !queue_.empty()) {
    std::pop_heap(queue_.begin(), queue_.end(), Later{});
    const Entry e = queue_.back();
    queue_.pop_back();
    auto it = callbacks_.find(e.id);
    if (it == callbacks_.end()) continue;  // cancelled
    Callback fn = std::move(it->second);
    callbacks_.erase(it);
    now_ = e.at;
    fn();
    if (--until_progress_ == 0) {
      until_progress_ = progress_every_;
      progress_();
    }
  }
}

}  // namespace mrlocal
