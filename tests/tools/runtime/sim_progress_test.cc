// A simulated workload reports where it stands while it runs (for the CLI's progress
// lines), and the run is the same whether anyone listens or not.
#include <gtest/gtest.h>

#include "datasets/swim_trace.h"
#include "tools/runtime/workload_runner.h"

namespace mrlocal {
namespace {

TEST(SimProgress, ReportedWhileRunningWithoutChangingTheRun) {
  TraceOptions to;
  to.block_size = 4;  // ~185 k maps: a few progress reports
  auto spec = ParseSwimTrace("small\t49\t49\t1000\t0\t5\nbig\t50\t1\t740773\t2339561\t627471\n",
                             "t.tsv", AppRegistry::BuiltIn().schemas(), to);
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  WorkloadRunOptions o;
  o.cluster = *ClusterSpec::Parse("4x(2m,1r,1.0)");
  o.keep_attempts = false;
  auto quiet = RunWorkloadSim(*spec, o);
  ASSERT_TRUE(quiet.ok()) << quiet.status().message();

  std::vector<SimProgress> seen;
  o.sim_progress = [&](const SimProgress& p) { seen.push_back(p); };
  auto watched = RunWorkloadSim(*spec, o);
  ASSERT_TRUE(watched.ok()) << watched.status().message();

  ASSERT_GE(seen.size(), 2u);
  for (size_t i = 0; i < seen.size(); ++i) {
    EXPECT_EQ(seen[i].jobs, 2u);
    EXPECT_LE(seen[i].jobs_finished, 2u);
    if (i == 0) continue;
    EXPECT_GE(seen[i].now, seen[i - 1].now);
    EXPECT_GT(seen[i].task_events, seen[i - 1].task_events);
  }
  EXPECT_EQ(seen.back().jobs_finished, 1u) << "the small job ends long before the big one";
  EXPECT_EQ(watched->task_events, quiet->task_events);
  EXPECT_EQ(watched->metrics.makespan_s, quiet->metrics.makespan_s);
  EXPECT_EQ(watched->metrics.latency_s.p50, quiet->metrics.latency_s.p50);
}

}  // namespace
}  // namespace mrlocal
