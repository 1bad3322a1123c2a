// SWIM trace loading: the Facebook 2010 trace (24,442 jobs, 16 M map tasks) from its file
// into a WorkloadSpec, as `mrlocal workload --trace` does before it simulates a day.
// About 8 ms on one core of the development machine; the unit test checks only the totals.
//
//   bench_swim_trace [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <filesystem>
#include <string>

#include "datasets/swim_trace.h"
#include "tools/runtime/app_registry.h"

namespace {

void BM_LoadSwimTrace(benchmark::State& state) {
  const std::string path = MRLOCAL_SHARED_DATASETS "/traces/FB-2010_samples_24_times_1hr_0.tsv";
  if (!std::filesystem::exists(path)) {
    state.SkipWithError("../shared/datasets/traces is absent");
    return;
  }
  size_t jobs = 0;
  for (auto _ : state) {
    mrlocal::Result<mrlocal::WorkloadSpec> spec =
        mrlocal::LoadSwimTrace(path, mrlocal::AppRegistry::BuiltIn().schemas());
    if (!spec.ok()) {
      state.SkipWithError(spec.status().message().c_str());
      return;
    }
    jobs = spec->jobs.size();
    benchmark::DoNotOptimize(spec);
  }
  state.SetItemsProcessed(static_cast<int64_t>(state.iterations() * jobs));
  state.SetBytesProcessed(
      static_cast<int64_t>(state.iterations() * std::filesystem::file_size(path)));
}
BENCHMARK(BM_LoadSwimTrace)->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
