// Throttle fidelity: the same CPU-bound task on a slot of speed 1.0, 0.5 and 0.25. A slot
// of speed s must take 1/s times as long (issue target: 2.0x +-5% at 0.5, 4.0x +-8% at 0.25).
// Speeds are interleaved over several rounds and medians compared, since the machine is
// shared and noisy.
//
//   bench_throttle [--rounds N] [--chunks N] [--chunk-us N]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <future>
#include <vector>

#include "engine/slot_worker.h"

namespace {

using Clock = std::chrono::steady_clock;

// Busy work that the compiler cannot drop: an xorshift walk, about `us` microseconds.
uint64_t Spin(uint64_t iters, uint64_t x) {
  for (uint64_t i = 0; i < iters; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
  }
  return x;
}

double RunTask(mrlocal::SlotWorker& w, int chunks, uint64_t iters, uint64_t token) {
  std::promise<double> done;
  auto f = done.get_future();
  w.Run(token, [&](mrlocal::TaskContext& ctx) {
    auto t0 = Clock::now();
    uint64_t x = 88172645463325252ull;
    for (int c = 0; c < chunks; ++c) {
      x = Spin(iters, x);
      ctx.Checkpoint(static_cast<double>(c + 1) / chunks);
    }
    double secs = std::chrono::duration<double>(Clock::now() - t0).count();
    if (x == 42) std::puts("");  // keeps x alive
    done.set_value(secs);
  });
  return f.get();
}

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int rounds = 7, chunks = 100, chunk_us = 3000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--rounds")) rounds = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--chunks")) chunks = std::atoi(argv[i + 1]);
    if (!std::strcmp(argv[i], "--chunk-us")) chunk_us = std::atoi(argv[i + 1]);
  }
  // Calibrate iterations per microsecond.
  auto t0 = Clock::now();
  volatile uint64_t sink = Spin(20'000'000, 1);
  (void)sink;
  double per_us = 20'000'000 / std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
  uint64_t iters = static_cast<uint64_t>(per_us * chunk_us);

  std::vector<int> cpus = mrlocal::AllowedCpus();
  mrlocal::SlotWorker w(0, cpus.back(), 1.0);
  const double speeds[] = {1.0, 0.5, 0.25};
  std::vector<double> times[3];
  uint64_t token = 1;
  for (int r = 0; r < rounds; ++r) {
    for (int s = 0; s < 3; ++s) {
      w.SetSpeed(speeds[s]);
      times[s].push_back(RunTask(w, chunks, iters, token++));
    }
  }
  double base = Median(times[0]);
  std::printf("task: %d chunks of ~%d us, %d rounds, pinned to cpu %d\n", chunks, chunk_us, rounds,
              cpus.back());
  std::printf("speed 1.00: %.3f s (median)\n", base);
  const double want[] = {1.0, 2.0, 4.0}, tol[] = {0, 0.05, 0.08};
  bool ok = true;
  for (int s = 1; s < 3; ++s) {
    double ratio = Median(times[s]) / base;
    bool in = std::abs(ratio / want[s] - 1) <= tol[s];
    ok &= in;
    std::printf("speed %.2f: %.3f s = %.3fx (target %.1fx +-%.0f%%) %s\n", speeds[s],
                Median(times[s]), ratio, want[s], tol[s] * 100, in ? "ok" : "OUT OF RANGE");
  }
  return ok ? 0 : 1;
}
