// SWIM traces: the derivation rule, every malformed line, and the real Facebook files.
#include "datasets/swim_trace.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/util/test_util.h"
#include "tools/runtime/app_registry.h"

namespace mrlocal {
namespace {

using ::testing::HasSubstr;

constexpr uint64_t kMiB = 1 << 20;

const AppSchemas& Apps() { return AppRegistry::BuiltIn().schemas(); }

WorkloadSpec Parse(std::string_view text, const TraceOptions& o = {}) {
  Result<WorkloadSpec> r = ParseSwimTrace(text, "trace.tsv", Apps(), o);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? std::move(*r) : WorkloadSpec{};
}

std::string Error(std::string_view text, const TraceOptions& o = {}) {
  Result<WorkloadSpec> r = ParseSwimTrace(text, "trace.tsv", Apps(), o);
  EXPECT_FALSE(r.ok()) << text;
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  return r.status().message();
}

TEST(SwimTrace, DerivesTasksFromBytes) {
  const WorkloadSpec spec = Parse(
      "job0\t9\t9\t1762\t0\t14347\n"                      // tiny, map-only
      "job1\t18\t9\t0\t609\t697\n"                        // no input: still one map
      "job2\t20\t2\t134217728\t1000000000\t5\n"           // exactly 2 blocks, 1 GB shuffle
      "job3\t20\t0\t134217729\t1000000001\t5\n"           // one byte more of each
      "job4\t25\t5\t53088744165\t29800000000000\t57\n");  // 29.8 TB shuffle: capped
  EXPECT_EQ(spec.name, "trace");
  EXPECT_EQ(spec.source, "trace.tsv");
  EXPECT_EQ(spec.block_size, 64 * kMiB);
  EXPECT_FALSE(spec.cluster.has_value());
  ASSERT_EQ(spec.jobs.size(), 5u);
  const std::vector<uint32_t> maps = {1, 1, 2, 3, 792};
  const std::vector<uint32_t> reduces = {0, 1, 1, 2, 999};
  for (size_t i = 0; i < spec.jobs.size(); ++i) {
    EXPECT_EQ(spec.jobs[i].maps, maps[i]) << i;
    EXPECT_EQ(spec.jobs[i].reduces, reduces[i]) << i;
  }
  const WorkloadJob& j = spec.jobs[2];
  EXPECT_EQ(j.name, "job2");
  EXPECT_EQ(j.arrival_s, 20);
  EXPECT_EQ(j.app, "wordcount");
  EXPECT_EQ(j.input.kind, InputSpec::Kind::kGenerated);
  EXPECT_EQ(j.input.generator, "text");
  EXPECT_EQ(j.input.bytes, 134217728u);
  EXPECT_EQ(j.shuffle_bytes, 1'000'000'000u);
  EXPECT_EQ(j.output_bytes, 5u);
  EXPECT_FALSE(j.deadline_s.has_value());
  EXPECT_TRUE(j.input.dataset.empty());
  EXPECT_NE(spec.jobs[0].input.seed, spec.jobs[1].input.seed);
}

TEST(SwimTrace, OptionsChangeTheRule) {
  TraceOptions o;
  o.block_size = 128 * kMiB;
  o.bytes_per_reduce = 256 * kMiB;
  o.max_reduces = 3;
  o.app = "friendcount";
  o.limit = 2;
  const WorkloadSpec spec = Parse(
      "job0\t1\t1\t268435456\t268435457\t1\njob1\t2\t1\t1\t2000000000\t1\njob2\t3\t1\t1\t0\t1\n",
      o);
  ASSERT_EQ(spec.jobs.size(), 2u);
  EXPECT_EQ(spec.block_size, 128 * kMiB);
  EXPECT_EQ(spec.jobs[0].maps, 2u);
  EXPECT_EQ(spec.jobs[0].reduces, 2u);
  EXPECT_EQ(spec.jobs[1].reduces, 3u);
  EXPECT_EQ(spec.jobs[0].app, "friendcount");
  EXPECT_EQ(spec.jobs[0].input.generator, "graph");
  EXPECT_GT(spec.jobs[0].input.graph_edges, 0u);
}

TEST(SwimTrace, ReadsTheInputPathColumns) {
  const WorkloadSpec spec = Parse(
      "job0\t1\t1\t2267942\t0\t1937944\tinputPath1\t\t\r\n"
      "job1\t2\t1\t20791551476\t12295202125\t1491950225\tinputPath2\n"
      "job2\t2\t0\t945\t0\t2668\tinputPath1\t\n\n");
  ASSERT_EQ(spec.jobs.size(), 3u);
  EXPECT_EQ(spec.jobs[0].input.dataset, "inputPath1");
  EXPECT_EQ(spec.jobs[1].input.dataset, "inputPath2");
  EXPECT_EQ(spec.jobs[2].input.dataset, "inputPath1");
}

TEST(SwimTrace, EveryMalformedLineIsNamed) {
  struct Case {
    std::string text;
    std::string want;
  };
  const std::string ok = "job0\t1\t1\t5\t5\t5\n";
  const std::vector<Case> cases = {
      {"", "trace.tsv: empty trace (no jobs)"},
      {"\n\n", "trace.tsv: empty trace (no jobs)"},
      {ok + "job1\t2\t1\t5\t5\n",
       "trace.tsv:2: expected 6 tab-separated fields (7 to 9 with the input path), got 5"},
      {ok + "job1 2 1 5 5 5\n", "trace.tsv:2: expected 6 tab-separated fields"},
      {ok + "job1\t2\t1\t5\t5\t5\tp\t\t\t\n", "trace.tsv:2: more than 9 tab-separated fields"},
      {ok + "job1\t1\t0\t5\t5\t5\njob2\t1\t0\t5\t5\t5\njob3\t2\t1\tabc\t5\t5\n",
       "trace.tsv:4: field 4 (map_input_bytes): not a non-negative integer: 'abc'"},
      {"job0\t-5\t1\t5\t5\t5\n",
       "trace.tsv:1: field 2 (submit_time_s): not a non-negative integer: '-5'"},
      {"job0\t1\t1\t5\t\t5\n",
       "trace.tsv:1: field 5 (shuffle_bytes): not a non-negative integer: ''"},
      {"job0\t1\t1\t5\t5\t5x\n",
       "trace.tsv:1: field 6 (reduce_output_bytes): not a non-negative integer: '5x'"},
      {"job0\t1\t1\t5\t5\t1.5\n",
       "field 6 (reduce_output_bytes): not a non-negative integer: '1.5'"},
      {"job0\t1\t1\t99999999999999999999\t5\t5\n",
       "field 4 (map_input_bytes): not a non-negative integer: '99999999999999999999'"},
      {"job0\t1\t1\t5\t5\t5\njob1\t2\tx\t5\t5\t5\n",
       "trace.tsv:2: field 3 (gap_s): not a non-negative integer: 'x'"},
      {"\t1\t1\t5\t5\t5\n", "trace.tsv:1: field 1 (job_id): empty"},
      {"job0\t10\t10\t5\t5\t5\njob1\t9\t0\t5\t5\t5\n",
       "trace.tsv:2: field 2 (submit_time_s): submit time goes backwards (9 after 10)"},
      {ok + "job0\t1\t0\t5\t5\t5\n", "trace.tsv:2: field 1 (job_id): repeated job id 'job0'"},
  };
  for (const Case& c : cases) EXPECT_THAT(Error(c.text), HasSubstr(c.want)) << c.text;

  TraceOptions tiny;
  tiny.block_size = 1;
  EXPECT_THAT(
      Error("job0\t1\t1\t5000000000\t5\t5\n", tiny),
      HasSubstr("trace.tsv:1: field 4 (map_input_bytes): 5000000000 bytes make 5000000000 maps "
                "for a block size of 1, over the 1000000 a job may have"));
  // A job of 10^9 maps at the default block size is refused too (issue 19's bound): at
  // most kMaxJobTasks, where the largest FB-2010 job has 317,000.
  EXPECT_THAT(Error("job0\t1\t1\t" + std::to_string((64ull << 20) * 1'000'000'000) + "\t5\t5\n"),
              HasSubstr("1000000000 maps for a block size of 67108864, over the 1000000"));
  for (auto bad : {TraceOptions{.block_size = 0}, TraceOptions{.bytes_per_reduce = 0},
                   TraceOptions{.max_reduces = 0}, TraceOptions{.app = "pi"}})
    EXPECT_THAT(Error(ok, bad), HasSubstr("trace: "));
}

// The real traces (../shared/datasets/traces), checked against SOURCES.md and awk.
struct RealTrace {
  const char* file;
  size_t jobs;
  double map_only;  // fraction of jobs with shuffle_bytes = 0
};

TEST(SwimTrace, ReadsTheFacebookTraces) {
  MRLOCAL_REQUIRE_DATASETS();
  for (const RealTrace& t :
       {RealTrace{"FB-2009_samples_24_times_1hr_0.tsv", 5894, 0.755},
        RealTrace{"FB-2010_samples_24_times_1hr_0.tsv", 24442, 0.341},
        RealTrace{"FB-2010_samples_24_times_1hr_withInputPaths_0.tsv", 25428, 0.334}}) {
    const std::string path = (testing::SharedDatasets() / "traces" / t.file).string();
    Result<WorkloadSpec> spec = LoadSwimTrace(path, Apps());
    ASSERT_TRUE(spec.ok()) << spec.status().message();
    EXPECT_EQ(spec->jobs.size(), t.jobs) << t.file;
    size_t map_only = 0;
    for (const WorkloadJob& j : spec->jobs) {
      map_only += j.reduces == 0;
      EXPECT_EQ(j.reduces == 0, j.shuffle_bytes == 0);
      EXPECT_LE(j.reduces, 999u);
    }
    EXPECT_NEAR(100.0 * map_only / spec->jobs.size(), 100 * t.map_only, 0.1) << t.file;
  }
}

// How fast it parses is measured by tools/bench/bench_swim_trace.cc.
TEST(SwimTrace, FacebookTwentyTenTotals) {
  MRLOCAL_REQUIRE_DATASETS();
  const std::string path =
      (testing::SharedDatasets() / "traces" / "FB-2010_samples_24_times_1hr_0.tsv").string();
  Result<WorkloadSpec> spec = LoadSwimTrace(path, Apps());
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  uint64_t maps = 0;
  for (const WorkloadJob& j : spec->jobs) maps += j.maps;
  EXPECT_EQ(maps, 16'150'741u);  // awk: sum of max(1, ceil(bytes / 64 MiB))
  EXPECT_EQ(spec->jobs.front().name, "job0");
  EXPECT_EQ(spec->jobs.front().arrival_s, 9);
  EXPECT_EQ(spec->jobs.back().name, "job24441");

  TraceOptions first;
  first.limit = 10;
  Result<WorkloadSpec> head = LoadSwimTrace(path, Apps(), first);
  ASSERT_TRUE(head.ok());
  EXPECT_EQ(head->jobs.size(), 10u);
}

}  // namespace
}  // namespace mrlocal
