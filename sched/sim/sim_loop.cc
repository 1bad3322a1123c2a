#include "sched/sim/sim_loop.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace mrlocal {

TimerId SimLoop::At(Time at, Callback fn) {
  uint32_t cell;
  if (!free_cells_.empty()) {
    cell = free_cells_.back();
    free_cells_.pop_back();
  } else {
    cell = static_cast<uint32_t>(cells_.size());
    if (cell > kCellMask) {  // unreachable: a workload has at most 20 M tasks (kMaxWorkloadTasks)
      std::fprintf(stderr, "mrlocal: more than %llu simulated events pending at once\n",
                   static_cast<unsigned long long>(kCellMask));
      std::abort();
    }
    cells_.emplace_back();
  }
  const TimerId id = (++last_id_ << kCellBits) | cell;
  cells_[cell] = Cell{id, std::move(fn)};
  ++live_;
  queue_.push_back(Entry{std::max(at, now_), id});
  std::push_heap(queue_.begin(), queue_.end(), Later{});
  return id;
}

void SimLoop::Cancel(TimerId id) {
  if (id == 0 || (id & kCellMask) >= cells_.size() || !Live(id)) return;
  Cell& c = cells_[id & kCellMask];
  c = Cell{};
  free_cells_.push_back(static_cast<uint32_t>(id & kCellMask));
  --live_;
  if (queue_.size() > 2 * live_ + 64) DropCancelled();
}

void SimLoop::DropCancelled() {
  std::erase_if(queue_, [this](const Entry& e) { return !Live(e.id); });
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
    if (!Live(e.id)) continue;  // cancelled
    Cell& c = cells_[e.id & kCellMask];
    Callback fn = std::move(c.fn);  // out of the cell: `fn` may schedule, and cells_ grow
    c.id = 0;
    free_cells_.push_back(static_cast<uint32_t>(e.id & kCellMask));
    --live_;
    now_ = e.at;
    fn();
    if (--until_progress_ == 0) {
      until_progress_ = progress_every_;
      progress_();
    }
  }
}

}  // namespace mrlocal
