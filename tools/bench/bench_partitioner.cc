// Planning cost of the partitioners (the "sketch cost" reports print): the time to turn a
// job's merged d x p sketch into a plan for R reduce tasks, for p in {16, 256, 4096},
// d in {1, 4, 8}, R in {2, 16, 128} (R <= p). Sizes are Zipf-like (a few heavy keys, a
// long tail); a quarter of the reduce slots run at half speed. `plan_us` is the cost the
// partitioner measured itself, which is what the reports show. Also reports the estimated
// phase of dp-sketch relative to dp (`phase_vs_dp`, <= 1). The Paper_ cases are the
// paper's 45 partitions (`--benchmark_filter=Paper`).
//
//   bench_partitioner [--benchmark_filter=dp-sketch]
#include <benchmark/benchmark.h>

#include <random>
#include <string>

#include "sched/partition/partitioner.h"

namespace {

using mrlocal::CountMinSketch;

CountMinSketch MakeSketch(int d, uint32_t p) {
  CountMinSketch s(mrlocal::MakePartitionHashes(d, p, 2026));
  std::mt19937_64 rng(7);
  const int keys = 50'000;
  for (int k = 1; k <= keys; ++k) s.Add(rng(), 1 + 1'000'000 / k);  // Zipf, s = 1
  return s;
}

std::vector<double> Speeds(int R) {
  std::vector<double> speeds(R, 1.0);
  for (int r = 0; r < R; r += 4) speeds[r] = 0.5;
  return speeds;
}

void BM_Plan(benchmark::State& state, std::string name) {
  const uint32_t p = static_cast<uint32_t>(state.range(0));
  const int d = static_cast<int>(state.range(1));
  const int R = static_cast<int>(state.range(2));
  if (name == "hash" && static_cast<int>(p) != R) {
    state.SkipWithError("hash needs p = R");
    return;
  }
  const CountMinSketch sketch = MakeSketch(d, p);
  const std::vector<double> speeds = Speeds(R);
  auto partitioner = mrlocal::MakePartitioner(name);
  double cost_us = 0, phase = 0;
  for (auto _ : state) {
    auto plan = (*partitioner)->Plan(sketch, speeds);
    if (!plan.ok()) {
      state.SkipWithError(plan.status().message().c_str());
      return;
    }
    cost_us += plan->cost_us;
    phase = plan->estimated_phase;
    benchmark::DoNotOptimize(plan);
  }
  state.counters["plan_us"] = cost_us / static_cast<double>(state.iterations());
  auto dp = (*mrlocal::MakePartitioner("dp"))->Plan(sketch, speeds);
  state.counters["phase_vs_dp"] = dp->estimated_phase > 0 ? phase / dp->estimated_phase : 1;
}

void Shapes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"p", "d", "R"});
  for (int p : {16, 256, 4096})
    for (int d : {1, 4, 8})
      for (int R : {2, 16, 128})
        if (R <= p) b->Args({p, d, R});
  b->Unit(benchmark::kMicrosecond);
}

void HashShapes(benchmark::internal::Benchmark* b) {
  b->ArgNames({"p", "d", "R"});
  for (int pr : {2, 16, 128}) b->Args({pr, 1, pr});
  b->Unit(benchmark::kMicrosecond);
}

// The paper's plan-time point (evaluation, after Fig. 11): 45 partitions for its 23 reduce
// tasks, 80 ms without sketches and 200 ms with them; d = 4 is mrlocal's default rows.
void PaperShape(benchmark::internal::Benchmark* b) {
  b->ArgNames({"p", "d", "R"});
  b->Args({45, 4, 23});
  b->Unit(benchmark::kMicrosecond);
}

BENCHMARK_CAPTURE(BM_Plan, Paper_lb, std::string("lb"))->Apply(PaperShape);
BENCHMARK_CAPTURE(BM_Plan, Paper_lb - sketch, std::string("lb-sketch"))->Apply(PaperShape);
BENCHMARK_CAPTURE(BM_Plan, Paper_dp, std::string("dp"))->Apply(PaperShape);
BENCHMARK_CAPTURE(BM_Plan, Paper_dp - sketch, std::string("dp-sketch"))->Apply(PaperShape);
BENCHMARK_CAPTURE(BM_Plan, hash, std::string("hash"))->Apply(HashShapes);
BENCHMARK_CAPTURE(BM_Plan, lb, std::string("lb"))->Apply(Shapes);
BENCHMARK_CAPTURE(BM_Plan, lb - sketch, std::string("lb-sketch"))->Apply(Shapes);
BENCHMARK_CAPTURE(BM_Plan, dp, std::string("dp"))->Apply(Shapes);
BENCHMARK_CAPTURE(BM_Plan, dp - sketch, std::string("dp-sketch"))->Apply(Shapes);

}  // namespace

BENCHMARK_MAIN();
