#include "sched/core/asio_loop.h"

namespace mrlocal {

AsioLoop::AsioLoop(std::chrono::microseconds spin)
    : io_(1), epoch_(std::chrono::steady_clock::now()), spin_(spin) {}
AsioLoop::~AsioLoop() = default;

Time AsioLoop::Now() const {
  return std::chrono::duration_cast<Time>(std::chrono::steady_clock::now() - epoch_);
}

void AsioLoop::Post(Callback fn) { boost::asio::post(io_, std::move(fn)); }

TimerId AsioLoop::At(Time at, Callback fn) {
  const TimerId id = ++last_id_;
  auto& timer = timers_[id] = std::make_unique<boost::asio::steady_timer>(io_, epoch_ + at);
  timer->async_wait([this, id, fn = std::move(fn)](const boost::system::error_code& ec) {
    // A timer cancelled after it expired still completes without an error: the map says
    // whether it is live.
    if (ec || timers_.erase(id) == 0) return;
    fn();
  });
  return id;
}

void AsioLoop::Cancel(TimerId id) {
  auto it = timers_.find(id);
  if (it == timers_.end()) return;
  it->second->cancel();
  timers_.erase(it);
}

void AsioLoop::Run() {
  stopped_ = false;
  auto work = boost::asio::make_work_guard(io_);
  using namespace std::chrono;
  while (!stopped_) {
    // Spin on poll() for a few microseconds after the last event: completions from slots
    // tend to come in bursts, and a blocked io_context costs a futex wake-up each time.
    auto spin_until = steady_clock::now() + spin_;
    size_t n = 0;
    while (!stopped_ && (n = io_.poll()) == 0 && steady_clock::now() < spin_until) {
    }
    if (stopped_) break;
    if (n == 0) io_.run_one();
    if (io_.stopped()) io_.restart();
  }
}

void AsioLoop::Stop() { stopped_ = true; }

}  // namespace mrlocal
