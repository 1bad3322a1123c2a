// Issue 21, A1: one tiny job must not poison the history. The figures are those of the
// runs the issue describes (WordCount of the 4.4 MB King James Bible twice, then of a
// 24-byte file; Pi with 100 samples), on a 2-core machine, cluster 2x(1m,1r,1.0).
#include <gtest/gtest.h>

#include "sched/estimate/job_estimate.h"
#include "sched/estimate/job_history.h"
#include "tests/util/estimate_inputs.h"

namespace mrlocal {
namespace {

constexpr double kKjvBytes = 4404412;

JobObservation Job(const std::string& app, double input, double shuffle,
                   std::vector<TaskSample> maps, std::vector<TaskSample> reduces) {
  return {app, input, shuffle, std::move(maps), std::move(reduces)};
}

using testing::JobOfSplits;

// Two map and two reduce slots of speed 1.0.
ClusterState TwoByTwo() {
  return testing::SlotsOf({{SlotKind::kMap, 1.0},
                           {SlotKind::kReduce, 1.0},
                           {SlotKind::kMap, 1.0},
                           {SlotKind::kReduce, 1.0}});
}

// The worst case of one map then one reduce, × the 1.5 margin of real runs: with one map
// and two reduces on two slots of each kind, what RTMR's admission adds up.
double WorstCaseSeconds(const JobHistory& h, const JobState& job) {
  auto e = EstimateJob(job, TwoByTwo(), h, 1.5);
  EXPECT_TRUE(e.has_value());
  return e ? Seconds(e->map_task) + Seconds(e->reduce_task) : 0;
}

// Normal job, normal job, tiny job, then a normal job with a comfortable deadline (2 s,
// for a job that runs in about 0.1 s): admitted, that is estimated well within it.
TEST(TinyJobHistory, ATinyWordCountLeavesANormalOneAdmissible) {
  JobHistory h;
  const JobObservation kjv_fast =
      Job("wordcount", kKjvBytes, 194400, {{kKjvBytes, 0.0216}}, {{97200, 0.0551}, {97200, 0.05}});
  const JobObservation kjv_slow =
      Job("wordcount", kKjvBytes, 194400, {{kKjvBytes, 0.110}}, {{97200, 0.0454}, {97200, 0.04}});
  const JobObservation tiny = Job("wordcount", 24, 59, {{24, 0.0025}}, {{30, 0.0122}, {29, 0.012}});
  h.Record(kjv_fast);
  h.Record(kjv_slow);
  const JobState next = JobOfSplits("wordcount", {uint64_t(kKjvBytes)}, 2);
  const double before = WorstCaseSeconds(h, next);
  h.Record(tiny);
  const double after = WorstCaseSeconds(h, next);
  EXPECT_LT(after, 1.0) << "the 2 s deadline of the issue would be rejected";
  EXPECT_LT(after, 1.5 * before) << "before the tiny job: " << before << " s";
  // Still a worst case of what was seen: the slow run's map and the slowest reduce.
  EXPECT_GE(after, 0.110 + 0.0551);
  // And the tiny job's own time is no longer estimated at nothing.
  EXPECT_GE(WorstCaseSeconds(h, JobOfSplits("wordcount", {24}, 2)), 0.0025 + 0.0122);
}

// Pi's tasks cost the same whatever their samples, nearly: after `pi 1 100` the history
// cannot tell how a map of 10^6 samples compares, and says so (the job command probes),
// rather than scale 100 samples' fixed cost up 10^4-fold.
TEST(TinyJobHistory, APiOfAHundredSamplesDoesNotExtrapolateToAMillion) {
  JobHistory h;
  h.Record(Job("pi", 100, 18, {{100, 0.00036}}, {{18, 0.00035}}));
  const AppEstimate& pi = *h.Find("pi");
  EXPECT_TRUE(OutsideObservedSizes(pi, 1e6));
  EXPECT_FALSE(OutsideObservedSizes(pi, 150));
  EXPECT_TRUE(OutsideObservedSizes(pi, 10)) << "a fixed cost that is 0 covers nothing smaller";
  // Once a big run is recorded, the fit spans both sizes: a million-sample job is then
  // estimated at its own cost, not at 10^4 times the small one's.
  h.Record(Job("pi", 4e6, 72, {{1e6, 0.0021}, {1e6, 0.0022}, {1e6, 0.002}, {1e6, 0.0023}},
               {{72, 0.0004}}));
  EXPECT_FALSE(OutsideObservedSizes(*h.Find("pi"), 1e6));
  EXPECT_FALSE(OutsideObservedSizes(*h.Find("pi"), 100));
  const double big =
      WorstCaseSeconds(h, JobOfSplits("pi", {1000000, 1000000, 1000000, 1000000}, 1));
  EXPECT_LT(big, 0.01);
  EXPECT_GE(big, 0.0023 + 0.0004);
}

// A model given whole (a probe, a version-1 file) has no sizes to compare with.
TEST(TinyJobHistory, AModelWithoutObservationsIsNeverOutsideThem) {
  AppEstimate e;
  e.model.map_s_per_unit = 1e-8;
  EXPECT_FALSE(OutsideObservedSizes(e, 1e12));
  EXPECT_FALSE(OutsideObservedSizes(e, 0));
}

}  // namespace
}  // namespace mrlocal
