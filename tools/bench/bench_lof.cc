// The cost of DynamicShare's overload detection: LocalOutlierFactors over n task values
// (the paper's Fig. 7: a few ms at 84 tasks; our goal <= 50 us at 100), and one
// OverloadDetector::Observe on a job holding its full window of 100 values: the median of
// the other nodes' values, and LOF when the value is on the slow side (here one task in
// 20, node 7's, five times slower than the others), and the snapshot LastEvaluation.
// Values: slowdowns around 1 (log-normal, sigma 0.1).
//
//   bench_lof [--benchmark_filter=Detector]
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "sched/estimate/local_outlier_factor.h"
#include "sched/estimate/overload_detector.h"

namespace mrlocal {
namespace {

std::vector<double> Slowdowns(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> noise(0, 0.1);
  std::vector<double> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = noise(rng) * (i % 20 == 7 ? 5 : 1);
  return v;
}

void BM_LocalOutlierFactors(benchmark::State& state) {
  const std::vector<double> v = Slowdowns(static_cast<size_t>(state.range(0)), 1);
  for (auto _ : state) benchmark::DoNotOptimize(LocalOutlierFactors(v, 10));
  state.counters["values"] = static_cast<double>(v.size());
}
BENCHMARK(BM_LocalOutlierFactors)
    ->Arg(10)
    ->Arg(50)
    ->Arg(84)
    ->Arg(100)
    ->Arg(500)
    ->Unit(benchmark::kMicrosecond);

// One finished attempt fed to a detector whose job already holds a full window: 20 nodes,
// node 7 five times slower.
void BM_DetectorObserve(benchmark::State& state) {
  OverloadDetector detector;
  const std::vector<double> v = Slowdowns(4096, 2);
  uint32_t i = 0;
  for (; i < OverloadDetector::kWindow; ++i)
    detector.Observe({1, TaskKind::kMap, i}, static_cast<SlotId>(i % 20), i % 20, Time{0},
                     FromSeconds(v[i]), 1.0);
  for (auto _ : state) {
    const uint32_t k = i++ % 4096;
    detector.Observe({1, TaskKind::kMap, k}, static_cast<SlotId>(k % 20), k % 20, Time{0},
                     FromSeconds(v[k]), 1.0);
  }
  state.counters["overloaded"] = static_cast<double>(detector.overloaded_nodes().size());
}
BENCHMARK(BM_DetectorObserve)->Unit(benchmark::kMicrosecond);

void BM_DetectorLastEvaluation(benchmark::State& state) {
  OverloadDetector detector;
  const std::vector<double> v = Slowdowns(OverloadDetector::kWindow, 3);
  for (uint32_t i = 0; i < v.size(); ++i)
    detector.Observe({1, TaskKind::kMap, i}, static_cast<SlotId>(i % 20), i % 20, Time{0},
                     FromSeconds(v[i]), 1.0);
  for (auto _ : state) benchmark::DoNotOptimize(detector.LastEvaluation(1));
}
BENCHMARK(BM_DetectorLastEvaluation)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace mrlocal

BENCHMARK_MAIN();
