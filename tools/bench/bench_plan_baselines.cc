// The paper's greedy baselines (sched/plan/baselines.h) on mars-random as the MSJO instance
// of Fig. 7 (50 jobs on mars-50 as 50 machines): the time to plan, and the plan's TWJCT
// (sum of w_j C_j, absolute completion times) as the counter `twjct`.
//
//   bench_plan_baselines [--benchmark_filter=huwf]
//
// MarS and MARES need the LP's times and are not here.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <cstdlib>

#include "datasets/plan_instance.h"
#include "datasets/workload_presets.h"
#include "sched/plan/baselines.h"

namespace mrlocal {
namespace {

PlanInstance MarsRandom(uint64_t seed) {
  Result<WorkloadSpec> spec = MakePreset("mars-random", seed, {.jobs = 50});
  Result<PlanInstance> in = spec.ok() ? PlanInstanceOf(*spec, *spec->cluster) : spec.status();
  if (!in.ok()) {
    std::fprintf(stderr, "mars-random seed %llu: %s\n", static_cast<unsigned long long>(seed),
                 in.status().message().c_str());
    std::exit(2);
  }
  return *in;
}

template <Result<Schedule> (*Plan)(const PlanInstance&)>
void BM_Plan(benchmark::State& state) {
  const PlanInstance in = MarsRandom(static_cast<uint64_t>(state.range(0)));
  double twjct = 0;
  for (auto _ : state) {
    Result<Schedule> s = Plan(in);
    if (!s.ok() || !CheckSchedule(in, *s).ok()) {
      state.SkipWithError("infeasible plan");
      return;
    }
    twjct = WeightedCompletion(in, *s);
    benchmark::DoNotOptimize(twjct);
  }
  state.counters["twjct"] = twjct;
}

Result<Schedule> Htwf(const PlanInstance& in) { return HtwfPlan(in); }

BENCHMARK(BM_Plan<HuwfPlan>)->Name("huwf")->DenseRange(1, 5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Plan<HjwfPlan>)->Name("hjwf")->DenseRange(1, 5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Plan<Htwf>)->Name("htwf")->DenseRange(1, 5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_Plan<StfPlan>)->Name("stf")->DenseRange(1, 5)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace mrlocal

BENCHMARK_MAIN();
