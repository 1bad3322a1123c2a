// A job's estimate through the Estimator interface: with JobHistory it is, to the bit, what
// the history's formulas give (RTMR Algorithms II and III, φ_m and φ_r on the slowest
// slots), and an estimator that cannot tell leaves the job without one.
#include "sched/estimate/job_estimate.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "sched/estimate/job_history.h"
#include "tests/util/estimate_inputs.h"

namespace mrlocal {
namespace {

// The history's estimate of a job, written out as the formulas of job_estimate.h say.
JobEstimate ByTheFormulas(const JobState& job, const AppModel& app, double map_speed,
                          double reduce_speed, double margin) {
  map_speed /= margin;
  reduce_speed /= margin;
  JobEstimate e;
  double largest_split = 0, input = 0, work = 0;
  for (const TaskState& m : job.maps) {
    const double units = static_cast<double>(m.input_bytes);
    largest_split = std::max(largest_split, units);
    input += units;
    work += app.MapSeconds(units);
  }
  e.map_task = FromSeconds(app.MapSeconds(largest_split) / map_speed);
  e.map_work = FromSeconds(work / map_speed);
  if (job.R() == 0) return e;
  double largest_reduce;
  if (job.spec.max_reduce_units > 0) {
    e.shuffle_units = static_cast<double>(job.spec.shuffle_units);
    largest_reduce = static_cast<double>(job.spec.max_reduce_units);
  } else {
    e.shuffle_units = app.shuffle_fixed_units + app.alpha * input;
    largest_reduce = std::max(1.0, app.reduce_skew) * e.shuffle_units / job.R();
  }
  e.reduce_task = FromSeconds(app.ReduceSeconds(largest_reduce) / reduce_speed);
  return e;
}

using testing::JobOfSplits;
using testing::SlotsOf;

void ExpectSame(const JobEstimate& a, const JobEstimate& b) {
  EXPECT_EQ(a.map_task, b.map_task);
  EXPECT_EQ(a.reduce_task, b.reduce_task);
  EXPECT_EQ(a.map_work, b.map_work);
  EXPECT_EQ(a.shuffle_units, b.shuffle_units);
}

TEST(EstimateJob, ThroughJobHistoryIsExactlyTheHistorysFormulas) {
  const AppModel app{.alpha = 0.37,
                     .map_fixed_s = 0.013,
                     .map_s_per_unit = 4.62e-9,
                     .reduce_fixed_s = 0.0021,
                     .reduce_s_per_unit = 1.69e-8,
                     .reduce_skew = 1.3,
                     .shuffle_fixed_units = 2500};
  JobHistory h;
  h.Set("wordcount", {.model = app, .jobs = 4});
  const ClusterState state = SlotsOf({{SlotKind::kMap, 1.0},
                                      {SlotKind::kMap, 0.7},
                                      {SlotKind::kReduce, 0.9},
                                      {SlotKind::kReduce, 1.0}});
  JobState job = JobOfSplits("wordcount", {33554432, 33554432, 1234567, 0}, 3);
  for (double margin : {1.0, 1.5, 2.25}) {
    SCOPED_TRACE(margin);
    auto e = EstimateJob(job, state, h, margin);
    ASSERT_TRUE(e.has_value());
    ExpectSame(*e, ByTheFormulas(job, app, 0.7, 0.9, margin));
    EXPECT_EQ(e->source, "history");
  }
  // A declared reduce input is taken as given.
  job.spec.shuffle_units = 3000;
  job.spec.max_reduce_units = 1500;
  auto declared = EstimateJob(job, state, h, 1.5);
  ASSERT_TRUE(declared.has_value());
  ExpectSame(*declared, ByTheFormulas(job, app, 0.7, 0.9, 1.5));
  // Without reduces, no reduce estimate.
  auto map_only = EstimateJob(JobOfSplits("wordcount", {100}, 0), state, h);
  ASSERT_TRUE(map_only.has_value());
  EXPECT_EQ(map_only->reduce_task, Duration{0});
}

TEST(EstimateJob, AnAppTheEstimatorNeverSawHasNone) {
  JobHistory h;
  h.Set("wordcount", {});
  const ClusterState state = SlotsOf({{SlotKind::kMap, 1.0}, {SlotKind::kReduce, 1.0}});
  EXPECT_FALSE(EstimateJob(JobOfSplits("pi", {10}, 1), state, h).has_value());
  EXPECT_FALSE(EstimateJob(JobOfSplits("pi", {}, 0), state, h).has_value());
  EXPECT_FALSE(h.TaskSeconds(JobOfSplits("pi", {10}, 1), {TaskKind::kMap, 10, 1.0}).has_value());
  EXPECT_EQ(h.Source(JobOfSplits("pi", {10}, 1)), "");
}

TEST(JobHistoryEstimator, ATaskTakesItsModelsTimeOverTheSlotsSpeed) {
  JobHistory h;
  h.Set("wordcount", {.model = {.map_fixed_s = 1,
                                .map_s_per_unit = 0.5,
                                .reduce_fixed_s = 2,
                                .reduce_s_per_unit = 0.25}});
  const JobState job = JobOfSplits("wordcount", {4}, 1);
  EXPECT_EQ(h.TaskSeconds(job, {TaskKind::kMap, 4, 1.0}), 3.0);
  EXPECT_EQ(h.TaskSeconds(job, {TaskKind::kMap, 4, 0.5}), 6.0);
  EXPECT_EQ(h.TaskSeconds(job, {TaskKind::kReduce, 8, 2.0}), 2.0);
}

}  // namespace
}  // namespace mrlocal
