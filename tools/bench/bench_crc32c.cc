// CRC32C throughput: the SSE4.2 path (3 interleaved streams) against the portable Boost.CRC
// fallback, over buffers from 4 KiB to a 32 MiB block (the default block size, i.e. what
// a map task verifies before it reads a split). Reported as bytes/s by Google Benchmark.
// BM_ReadSplit is what a map task pays before its first record: verify the block (and
// the head of the next one), hand out views; in-memory and persistent stores.
//
//   bench_crc32c [--benchmark_filter=...]
#include <benchmark/benchmark.h>
#include <unistd.h>

#include <filesystem>
#include <random>
#include <string>

#include "engine/block_store.h"
#include "engine/crc32c.h"
#include "engine/split_reader.h"

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

// 4 blocks of 32 MiB of text lines; state.range(0) == 1 selects a persistent store.
void BM_ReadSplit(benchmark::State& state) {
  constexpr uint64_t kBlock = 32u << 20;
  constexpr uint32_t kBlocks = 4;
  auto text = std::make_shared<std::string>();
  text->reserve(kBlocks * kBlock);
  std::mt19937 rng(7);
  while (text->size() < kBlocks * kBlock) {
    text->append(1 + rng() % 12, static_cast<char>('a' + rng() % 26));
    text->push_back(rng() % 10 ? ' ' : '\n');
  }
  const bool persistent = state.range(0) == 1;
  std::filesystem::path dir;
  std::unique_ptr<mrlocal::BlockStore> store;
  if (persistent) {
    dir = std::filesystem::temp_directory_path() / ("bench-crc32c-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir);
    auto s = mrlocal::BlockStore::Open(dir.string(), {kBlock, 2, 1});
    if (!s.ok()) return state.SkipWithError(s.status().message().c_str());
    store = std::move(s).value();
  } else {
    store = std::move(mrlocal::BlockStore::InMemory({kBlock, 3, 0})).value();
  }
  if (!store->PutBuffer("f", text).ok()) return state.SkipWithError("put failed");
  uint64_t bytes = 0, b = 0;
  for (auto _ : state) {
    auto split = mrlocal::ReadSplit(*store, "f", static_cast<uint32_t>(b++ % kBlocks), 0);
    if (!split.ok()) return state.SkipWithError(split.status().message().c_str());
    bytes += split->input.bytes();
    benchmark::DoNotOptimize(split->input.pieces.data());
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
  store.reset();
  if (persistent) std::filesystem::remove_all(dir);
}
BENCHMARK(BM_ReadSplit)->Arg(0)->Arg(1)->ArgNames({"persistent"})->Unit(benchmark::kMillisecond);

}  // namespace

BENCHMARK_MAIN();
