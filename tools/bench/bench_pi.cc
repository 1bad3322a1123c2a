// The Pi map loop: samples per second of one core for the fast Halton walk (apps/pi.h, what
// `mrlocal pi` runs) and for the line-for-line port of Hadoop's HaltonSequence, from a start
// index below 2^52 (the bit-reversal path for base 2) and above it (the literal walk).
#include <benchmark/benchmark.h>

#include "apps/pi.h"

namespace {

using mrlocal::apps::CountPoints;
using mrlocal::apps::FastHalton;
using mrlocal::apps::HaltonSequence;
using mrlocal::apps::PiCounts;

constexpr uint64_t kPoints = uint64_t{1} << 20;  // one map chunk

void BM_FastHalton(benchmark::State& state) {
  FastHalton walk(static_cast<uint64_t>(state.range(0)));
  PiCounts counts;
  for (auto _ : state) {
    CountPoints(walk, kPoints, counts);
    benchmark::DoNotOptimize(counts);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kPoints));
}
BENCHMARK(BM_FastHalton)->Arg(0)->Arg(int64_t{1} << 53);

void BM_HadoopHaltonSequence(benchmark::State& state) {
  HaltonSequence seq(state.range(0));
  uint64_t inside = 0;
  for (auto _ : state) {
    for (uint64_t i = 0; i < kPoints; ++i) {
      const double* p = seq.NextPoint();
      inside += mrlocal::apps::pi_internal::Inside(p[0], p[1]);
    }
    benchmark::DoNotOptimize(inside);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * kPoints));
}
BENCHMARK(BM_HadoopHaltonSequence)->Arg(0);

}  // namespace

BENCHMARK_MAIN();
