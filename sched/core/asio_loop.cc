#include "sched/core/asio_loop.h"

namespace mrlocal {

AsioLoop::AsioLoop() : io_(1), epoch_(std::chrono::steady_clock::now()) {}
AsioLoop::~AsioLoop() = default;

Time AsioLoop::Now() const {
  return std::chrono::duration_cast<Time>(std::chrono::steady_clock::now() - epoch_);
}

void AsioLoop::Post(Callback fn) { boost::asio::post(io_, std::move(fn)); }

void AsioLoop::At(Time at, Callback fn) {
  auto timer = std::make_shared<boost::asio::steady_timer>(io_, epoch_ + at);
  timer->async_wait([timer, fn = std::move(fn)](const boost::system::error_code& ec) {
    if (!ec) fn();
  });
}

void AsioLoop::Run() {
  stopped_ = false;
  auto work = boost::asio::make_work_guard(io_);
  using namespace std::chrono;
  while (!stopped_) {
    // Spin on poll() for a few microseconds after the last event: completions from slots
    // tend to come in bursts, and a blocked io_context costs a futex wake-up each time.
    auto spin_until = steady_clock::now() + microseconds(50);
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
