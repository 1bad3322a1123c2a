// friend-count's map (parse + combine into per-user lists + sort/dedup + sketch) on one
// thread, over the decompressed soc-Slashdot0902 edge list of ../shared/datasets (or, when
// it is absent, a generated power-law-ish list of the same size); in MB/s of text and
// edges per second. Also the gzip line stream alone, to separate inflate from the map.
#include <benchmark/benchmark.h>
#include <zlib.h>

#include <string>

#include "apps/friendcount.h"
#include "engine/gzip_lines.h"
#include "engine/typed_job.h"

namespace mrlocal {
namespace {

const char* kSlashdot = MRLOCAL_SHARED_DATASETS "/graphs/soc-Slashdot0902.txt.gz";

const std::string& Edges() {
  static const std::string text = [] {
    std::string out;
    if (gzFile f = gzopen(kSlashdot, "rb")) {
      char buf[1 << 16];
      int n;
      while ((n = gzread(f, buf, sizeof buf)) > 0) out.append(buf, static_cast<size_t>(n));
      gzclose(f);
    }
    if (out.empty()) {  // no datasets: 950K edges with a few heavy users
      uint64_t x = 88172645463325252ull;
      for (int i = 0; i < 950000; ++i) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        uint64_t u = (x % 7 == 0) ? x % 50 : x % 82168, v = (x >> 20) % 82168;
        out += std::to_string(u) + "\t" + std::to_string(v) + "\n";
      }
    }
    return out;
  }();
  return text;
}

void BM_FriendCountMap(benchmark::State& state) {
  const std::string& text = Edges();
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(4, 16, 1);
  TypedJobRuntime<apps::FriendCount> rt(o);
  UnthrottledContext ctx;
  int64_t lines = std::count(text.begin(), text.end(), '\n');
  for (auto _ : state) {
    MapInput in;
    in.pieces = {text};
    auto out = rt.RunMap(in, ctx);
    benchmark::DoNotOptimize(out);
  }
  state.SetBytesProcessed(static_cast<int64_t>(text.size()) * state.iterations());
  state.counters["edges/s"] =
      benchmark::Counter(static_cast<double>(lines), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_FriendCountMap)->Unit(benchmark::kMillisecond)->MinTime(2.0);

void BM_GzipLines(benchmark::State& state) {
  auto store = std::move(BlockStore::InMemory({})).value();
  if (!store->Put(kSlashdot, "/g.gz").ok()) {
    state.SkipWithError("soc-Slashdot0902.txt.gz is absent");
    return;
  }
  uint64_t bytes = 0;
  for (auto _ : state) {
    auto s = std::move(OpenGzipLines(*store, "/g.gz", -1)).value();
    for (;;) {
      auto run = s->Next();
      if (!run.ok() || run->empty()) break;
      bytes += run->size();
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_GzipLines)->Unit(benchmark::kMillisecond)->MinTime(1.0);

}  // namespace
}  // namespace mrlocal

BENCHMARK_MAIN();
