// CRC32C throughput: the SSE4.2 path (3 interleaved streams) against the portable Boost.CRC
// fallback, over buffers from 4 KiB to a 32 MiB block (the default block size, i.e. what
// a map task verifies before it reads a split). Reported as bytes/s by Google Benchmark.
//
//   bench_crc32c [--benchmark_filter=...]
#include <benchmark/benchmark.h>

#include <random>
#include <string>

#include "engine/crc32c.h"

namespace {

const std::string& Buffer() {
  static const std::string buf = [] {
    std::string s(32u << 20, '\0');
    std::mt19937_64 rng(42);
    for (auto& c : s) c = static_cast<char>(rng());
    return s;
  }();
  return buf;
}

void BM_Crc32cHardware(benchmark::State& state) {
  if (!mrlocal::HasHardwareCrc32c()) {
    state.SkipWithError("no SSE4.2 on this CPU");
    return;
  }
  const std::string& buf = Buffer();
  const size_t n = static_cast<size_t>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(mrlocal::Crc32cHardware(0, buf.data(), n));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_Crc32cHardware)->RangeMultiplier(8)->Range(4 << 10, 32 << 20);

void BM_Crc32cPortable(benchmark::State& state) {
  const std::string& buf = Buffer();
  const size_t n = static_cast<size_t>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(mrlocal::Crc32cPortable(0, buf.data(), n));
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations()) * state.range(0));
}
BENCHMARK(BM_Crc32cPortable)->RangeMultiplier(8)->Range(4 << 10, 32 << 20);

}  // namespace

BENCHMARK_MAIN();
