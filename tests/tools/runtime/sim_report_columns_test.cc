// The report columns of a simulation mean what they mean for a real run: a trace job's
// tasks carry the trace's input and shuffle bytes, and a job without a deadline has no
// verdict on one.
#include <gtest/gtest.h>

#include <numeric>
#include <string>

#include "datasets/swim_trace.h"
#include "sched/report/workload_report.h"
#include "tools/runtime/workload_runner.h"

namespace mrlocal {
namespace {

// FB-2009_samples_24_times_1hr_0.tsv's job0 (a job with a shuffle) and job4 (map-only).
constexpr const char* kTrace =
    "job0\t49\t49\t740773\t2339561\t627471\n"
    "job4\t208\t11\t3623279\t0\t9838062\n";

struct SimRun {
  WorkloadRun run;
  std::vector<JobMetrics> jobs;
};

SimRun Simulate(std::string_view trace, const TraceOptions& to = {}) {
  auto spec = ParseSwimTrace(trace, "t.tsv", AppRegistry::BuiltIn().schemas(), to);
  EXPECT_TRUE(spec.ok()) << spec.status().message();
  WorkloadRunOptions o;
  o.cluster = *ClusterSpec::Parse("2x(1m,1r,1.0)");
  auto run = RunWorkloadSim(*spec, o);
  EXPECT_TRUE(run.ok()) << run.status().message();
  SimRun r{std::move(run).value(), {}};
  r.jobs = ComputeJobMetrics(*r.run.recorder);
  return r;
}

// Sums of a job's attempts' input and output bytes, by kind.
struct Sizes {
  uint64_t map_in = 0, map_out = 0, reduce_in = 0, reduce_out = 0;
};
Sizes SizesOf(const RunRecorder& rec, JobId job) {
  Sizes s;
  for (const AttemptRecord& a : rec.attempts()) {
    if (a.job != job || !a.ok()) continue;
    (a.kind == TaskKind::kMap ? s.map_in : s.reduce_in) += a.input_bytes;
    (a.kind == TaskKind::kMap ? s.map_out : s.reduce_out) += a.output_bytes;
  }
  return s;
}

TEST(SimReportColumns, TraceJobTasksCarryTheTracesBytes) {
  const SimRun r = Simulate(kTrace);
  const RunRecorder& rec = *r.run.recorder;
  const std::string tasks = TasksCsv(rec, r.run.slots);
  // job0: one map reads the trace's input and outputs its shuffle; the reduce reads that
  // shuffle and writes the trace's output.
  const Sizes job0 = SizesOf(rec, 1);
  EXPECT_EQ(job0.map_in, 740773u) << tasks;
  EXPECT_EQ(job0.map_out, 2339561u) << tasks;
  EXPECT_EQ(job0.reduce_in, 2339561u) << tasks;
  EXPECT_EQ(job0.reduce_out, 627471u) << tasks;
  // job4 is map-only: its maps write the trace's output (SWIM's column 6).
  const Sizes job4 = SizesOf(rec, 2);
  EXPECT_EQ(job4.map_in, 3623279u) << tasks;
  EXPECT_EQ(job4.map_out, 9838062u) << tasks;

  ASSERT_EQ(r.jobs.size(), 2u);
  EXPECT_EQ(r.jobs[0].input_bytes, 740773u);
  EXPECT_EQ(r.jobs[0].map_output_units, 2339561u);
  EXPECT_EQ(r.jobs[0].reduce_load, std::vector<uint64_t>{2339561});
  EXPECT_EQ(r.jobs[0].output_bytes, 627471u);
  EXPECT_FALSE(r.jobs[0].output_records.has_value()) << "a simulation counts no records";
}

TEST(SimReportColumns, ManyTasksShareTheTracesBytesExactly) {
  TraceOptions to;
  to.block_size = 100'000;        // 8 maps for job0
  to.bytes_per_reduce = 500'000;  // 5 reduces
  const SimRun r = Simulate(kTrace, to);
  const Sizes job0 = SizesOf(*r.run.recorder, 1);
  EXPECT_EQ(job0.map_in, 740773u);
  EXPECT_EQ(job0.map_out, 2339561u);
  EXPECT_EQ(job0.reduce_in, 2339561u);
  ASSERT_EQ(r.jobs[0].maps, 8u);
  ASSERT_EQ(r.jobs[0].reduces, 5u);
  const std::vector<uint64_t>& load = r.jobs[0].reduce_load;
  EXPECT_EQ(std::accumulate(load.begin(), load.end(), uint64_t{0}), 2339561u);
}

TEST(SimReportColumns, NoDeadlineMeansNoVerdictOnOne) {
  const SimRun r = Simulate(kTrace);
  ASSERT_EQ(r.jobs[0].status, "succeeded");
  EXPECT_FALSE(r.jobs[0].met_deadline.has_value());
  EXPECT_TRUE(r.jobs[0].successful);
  // jobs.csv: ...,response_s,met_deadline,slack_s,... with both cells empty.
  const std::string csv = JobsCsv(r.jobs);
  const std::string row = csv.substr(csv.find("\n1,") + 1);
  EXPECT_NE(row.find(",true,succeeded,49.000000,"), std::string::npos) << csv;
  EXPECT_NE(row.find(",,,1,1,"), std::string::npos) << "met_deadline and slack_s empty: " << csv;
}

}  // namespace
}  // namespace mrlocal
