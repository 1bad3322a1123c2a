// WordCount's map (tokenize + combine + sketch) on one thread, in MB/s of input.
// Reads the real English text of ../shared/datasets/text when present (gcide, KJV,
// Gutenberg, WikiText), else generated Zipf text.
#include <benchmark/benchmark.h>

#include <cstdio>
#include <fstream>
#include <sstream>

#include "apps/wordcount.h"
#include "datasets/text_generator.h"
#include "engine/typed_job.h"

namespace mrlocal {
namespace {

const std::string& Text() {
  static const std::string text = [] {
    std::string dir = MRLOCAL_SHARED_DATASETS "/text/";
    std::string out;
    if (FILE* f =
            popen(("xz -dc " + dir + "gcide.dict.xz 2>/dev/null; cat " + dir + "kjv-bible.txt " +
                   dir + "gutenberg/*.txt " + dir + "wikipedia/*.txt 2>/dev/null")
                      .c_str(),
                  "r")) {
      char buf[1 << 16];
      size_t n;
      while ((n = fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
      pclose(f);
    }
    if (out.size() < (1 << 20)) {
      TextOptions o = DefaultCorpusOptions();
      o.bytes = 64 << 20;
      out = GenerateText(o);
    }
    return out;
  }();
  return text;
}

void BM_WordCountMap(benchmark::State& state) {
  const std::string& text = Text();
  const size_t split = static_cast<size_t>(state.range(0)) << 20;
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(4, 16, 1);
  TypedJobRuntime<apps::WordCount> rt(o);
  UnthrottledContext ctx;
  size_t bytes = 0;
  for (auto _ : state) {
    for (size_t pos = 0; pos < text.size(); pos += split) {
      MapInput in;
      in.pieces = {std::string_view(text).substr(pos, split)};
      auto out = rt.RunMap(in, ctx);
      benchmark::DoNotOptimize(out);
      bytes += in.pieces[0].size();
    }
  }
  state.SetBytesProcessed(static_cast<int64_t>(bytes));
}
BENCHMARK(BM_WordCountMap)->Arg(32)->Unit(benchmark::kMillisecond)->MinTime(2.0);

}  // namespace
}  // namespace mrlocal

BENCHMARK_MAIN();
