// Job history: RTMR's max updates (affine), speed normalization, probes. The file it is
// kept in: tests/tools/runtime/history_file_test.cc.
#include "sched/estimate/job_history.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace mrlocal {
namespace {

constexpr double kMiB = 1 << 20;

// Every sample of `job` lies under the app's bound (seconds at speed 1.0, exactly).
void ExpectCovered(const JobHistory& h, const JobObservation& job) {
  const AppEstimate* e = h.Find(job.app);
  ASSERT_NE(e, nullptr);
  for (const TaskSample& s : job.maps)
    EXPECT_LE(s.seconds * s.speed, e->model.MapSeconds(s.units))
        << "map of " << s.units << " units";
  for (const TaskSample& s : job.reduces)
    EXPECT_LE(s.seconds * s.speed, e->model.ReduceSeconds(s.units))
        << "reduce of " << s.units << " units";
}

JobObservation Job(std::vector<TaskSample> maps, std::vector<TaskSample> reduces = {},
                   double shuffle_units = 0) {
  JobObservation j;
  j.app = "wordcount";
  j.maps = std::move(maps);
  j.reduces = std::move(reduces);
  for (const TaskSample& m : j.maps) j.input_units += m.units;
  j.shuffle_units = shuffle_units;
  return j;
}

TEST(JobHistory, EverySampleLiesUnderTheBound) {
  std::mt19937 rng(2026);
  std::uniform_real_distribution<double> u01(0, 1);
  const double speeds[] = {0.25, 0.5, 0.75, 1.0};
  JobHistory h;
  std::vector<JobObservation> seen;
  for (int j = 0; j < 200; ++j) {
    const double split = std::ldexp(1.0, static_cast<int>(rng() % 20) + 10);  // 1 KiB..512 MiB
    const double s_per_unit = std::exp(-18 - 6 * u01(rng));
    auto sample = [&](double units) {
      const double speed = speeds[rng() % 4];
      const double work = u01(rng) * 0.05 + s_per_unit * units * (0.5 + u01(rng));
      return TaskSample{units, work / speed, speed};
    };
    std::vector<TaskSample> maps, reduces;
    const int m = 1 + static_cast<int>(rng() % 12);
    for (int i = 0; i < m; ++i) {
      // Mostly full splits, sometimes a partial last one or an empty one.
      const double r = u01(rng);
      maps.push_back(sample(r < 0.1 ? 0 : r < 0.3 ? std::floor(split * u01(rng)) : split));
    }
    const int reduce_count = static_cast<int>(rng() % 5);
    for (int i = 0; i < reduce_count; ++i) reduces.push_back(sample(std::floor(split * u01(rng))));
    JobObservation job = Job(std::move(maps), std::move(reduces), split * u01(rng));
    if (j % 3 == 0) job.app = "friendcount";
    h.Record(job);
    seen.push_back(job);
    // The bound covers this job and every earlier job of the same app.
    for (const JobObservation& old : seen) ExpectCovered(h, old);
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(h.Find("wordcount")->jobs + h.Find("friendcount")->jobs, 200u);
}

TEST(JobHistory, MaxUpdatesOnlyGrow) {
  JobHistory h;
  // σ = 200, σ_r = 100: α = 0.5; reduces 30 and 10: skew 30/20 = 1.5.
  h.Record(Job({{100, 1.0}, {100, 2.0}}, {{30, 3.0}, {10, 1.0}}, 100));
  const AppEstimate first = *h.Find("wordcount");
  EXPECT_EQ(first.jobs, 1u);
  EXPECT_EQ(first.source, "history");
  EXPECT_DOUBLE_EQ(first.model.alpha, 0.5);
  EXPECT_DOUBLE_EQ(first.model.reduce_skew, 1.5);
  EXPECT_DOUBLE_EQ(first.model.map_s_per_unit, 0.02);  // the worst full-size map, 2 s / 100
  EXPECT_DOUBLE_EQ(first.model.map_fixed_s, 0);
  EXPECT_DOUBLE_EQ(first.model.reduce_s_per_unit, 0.1);  // 3 s / 30; 10 is no full-size reduce

  // A faster, less skewed job with a smaller α lowers nothing.
  h.Record(Job({{100, 0.5}}, {{10, 0.1}, {10, 0.1}}, 10));
  const AppEstimate second = *h.Find("wordcount");
  EXPECT_EQ(second.jobs, 2u);
  EXPECT_EQ(second.model.alpha, first.model.alpha);
  EXPECT_EQ(second.model.reduce_skew, first.model.reduce_skew);
  EXPECT_EQ(second.model.map_s_per_unit, first.model.map_s_per_unit);
  EXPECT_EQ(second.model.map_fixed_s, first.model.map_fixed_s);
  EXPECT_EQ(second.model.reduce_s_per_unit, first.model.reduce_s_per_unit);
  EXPECT_EQ(second.model.reduce_fixed_s, first.model.reduce_fixed_s);

  // A slower, more skewed job with a larger α raises each.
  h.Record(Job({{100, 5.0}}, {{90, 10.0}, {10, 1.0}}, 400));
  const AppEstimate third = *h.Find("wordcount");
  EXPECT_EQ(third.jobs, 3u);
  EXPECT_DOUBLE_EQ(third.model.alpha, 4.0);
  EXPECT_DOUBLE_EQ(third.model.reduce_skew, 1.8);
  EXPECT_DOUBLE_EQ(third.model.map_s_per_unit, 0.05);
  EXPECT_GT(third.model.reduce_s_per_unit, first.model.reduce_s_per_unit);
}

TEST(JobHistory, ATinyLastSplitDoesNotInflateThePerUnitCost) {
  JobHistory h;
  const JobObservation job =
      Job({{32 * kMiB, 0.2}, {32 * kMiB, 0.2}, {32 * kMiB, 0.2}, {1024, 0.001}});
  h.Record(job);
  const AppEstimate& e = *h.Find("wordcount");
  // The paper's c = max τ/σ would be 0.001/1024, 33 times the full splits' cost.
  EXPECT_DOUBLE_EQ(e.model.map_s_per_unit, 0.2 / (32 * kMiB));
  EXPECT_GT(e.model.map_fixed_s, 0);
  EXPECT_LE(e.model.map_fixed_s, 0.001);
  EXPECT_LT(e.model.MapSeconds(32 * kMiB), 0.2 + 0.001);
  ExpectCovered(h, job);
}

TEST(JobHistory, TimesAreNormalizedToSpeedOne) {
  JobHistory slow, fast;
  // 2 s on a half-speed slot is 1 s of work, the same as 1 s at full speed.
  slow.Record(Job({{100, 2.0, 0.5}}, {{50, 4.0, 0.25}}));
  fast.Record(Job({{100, 1.0, 1.0}}, {{50, 1.0, 1.0}}));
  EXPECT_DOUBLE_EQ(slow.Find("wordcount")->model.map_s_per_unit, 0.01);
  EXPECT_EQ(slow.Find("wordcount")->model.map_s_per_unit,
            fast.Find("wordcount")->model.map_s_per_unit);
  EXPECT_EQ(slow.Find("wordcount")->model.reduce_s_per_unit,
            fast.Find("wordcount")->model.reduce_s_per_unit);
}

TEST(JobHistory, ZeroUnitTasksBoundTheFixedPart) {
  JobHistory h;
  const JobObservation job = Job({{0, 0.3}, {0, 0.1}}, {{0, 0.2}});
  h.Record(job);
  const AppEstimate& e = *h.Find("wordcount");
  EXPECT_EQ(e.model.map_s_per_unit, 0);
  EXPECT_EQ(e.model.map_fixed_s, 0.3);
  EXPECT_EQ(e.model.reduce_fixed_s, 0.2);
  EXPECT_EQ(e.model.reduce_skew, 1);  // no reduce units: no skew to learn
  EXPECT_EQ(e.model.alpha, 0);        // no input
}

TEST(JobHistory, AJobWithoutMapSamplesChangesNothing) {
  JobHistory h;
  h.Record(Job({}, {{10, 1.0}}, 5));
  EXPECT_EQ(h.Find("wordcount"), nullptr);
  // Invalid samples are ignored: none left is no sample.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  h.Record(Job({{nan, 1.0}, {10, -1.0}, {10, 1.0, 0}, {10, INFINITY}}));
  EXPECT_EQ(h.Find("wordcount"), nullptr);
  // Next to a valid one they change nothing.
  h.Record(Job({{100, 1.0}, {10, -1.0}, {10, 1.0, 0}, {nan, 5.0}, {-3, 5.0}}, {{nan, 1.0}}));
  ASSERT_NE(h.Find("wordcount"), nullptr);
  EXPECT_DOUBLE_EQ(h.Find("wordcount")->model.map_s_per_unit, 0.01);
  EXPECT_EQ(h.Find("wordcount")->model.map_fixed_s, 0);
  EXPECT_EQ(h.Find("wordcount")->model.reduce_s_per_unit, 0);
}

TEST(JobHistory, AProbeIsReplacedByTheFirstJob) {
  JobHistory h;
  AppEstimate probe;
  probe.model.alpha = 3;
  probe.model.map_fixed_s = 5;
  probe.model.map_s_per_unit = 1;
  probe.model.reduce_fixed_s = 7;
  probe.model.reduce_s_per_unit = 2;
  probe.model.reduce_skew = 4;
  probe.source = "probe";
  h.Set("wordcount", probe);
  h.Set("pi", probe);

  h.Record(Job({{100, 1.0}}, {{10, 0.5}, {30, 1.5}}, 20));
  const AppEstimate& e = *h.Find("wordcount");
  EXPECT_EQ(e.source, "history");
  EXPECT_EQ(e.jobs, 1u);
  EXPECT_DOUBLE_EQ(e.model.alpha, 0.2);
  EXPECT_DOUBLE_EQ(e.model.map_s_per_unit, 0.01);
  EXPECT_EQ(e.model.map_fixed_s, 0);
  EXPECT_DOUBLE_EQ(e.model.reduce_s_per_unit, 0.05);
  EXPECT_DOUBLE_EQ(e.model.reduce_skew, 1.5);

  // A map-only job cannot show reduce costs: the probe's guesses stay.
  JobObservation map_only = Job({{100, 1.0}});
  map_only.app = "pi";
  h.Record(map_only);
  const AppEstimate& pi = *h.Find("pi");
  EXPECT_EQ(pi.source, "history");
  EXPECT_DOUBLE_EQ(pi.model.map_s_per_unit, 0.01);
  EXPECT_EQ(pi.model.alpha, 0);  // σ_r = 0 was observed
  EXPECT_EQ(pi.model.reduce_fixed_s, 7);
  EXPECT_EQ(pi.model.reduce_s_per_unit, 2);
  EXPECT_EQ(pi.model.reduce_skew, 4);

  // A second job is a max update again, not a replacement.
  h.Record(Job({{100, 0.5}}));
  EXPECT_DOUBLE_EQ(h.Find("wordcount")->model.map_s_per_unit, 0.01);
  EXPECT_EQ(h.Find("wordcount")->jobs, 2u);
}

// Map slots 0 (speed 1.0) and 1 (0.5), reduce slot 2 (1.0).
ClusterState ThreeSlots() {
  ClusterState state;
  for (int i = 0; i < 3; ++i) {
    SlotState s;
    s.info.id = i;
    s.info.kind = i < 2 ? SlotKind::kMap : SlotKind::kReduce;
    s.info.speed = i == 1 ? 0.5 : 1.0;
    state.slots.push_back(s);
  }
  return state;
}

TEST(JobHistory, ObserveJobReadsTheDoneTasks) {
  ClusterState state = ThreeSlots();
  JobState job;
  job.spec.app = "friendcount";
  auto task = [](uint64_t units, SlotId slot, double start_s, double end_s, TaskStatus status) {
    TaskState t;
    t.input_bytes = units;
    t.slot = slot;
    t.start = FromSeconds(start_s);
    t.end = FromSeconds(end_s);
    t.status = status;
    return t;
  };
  job.maps = {task(1000, 0, 0, 1.5, TaskStatus::kDone), task(2000, 1, 0.5, 4.5, TaskStatus::kDone),
              task(500, 0, 0, 0, TaskStatus::kPending)};
  job.reduces = {task(300, 2, 5, 6.25, TaskStatus::kDone)};

  const JobObservation o = ObserveJob(job, state, 4242);
  EXPECT_EQ(o.app, "friendcount");
  EXPECT_EQ(o.input_units, 3500);  // every split, run or not
  EXPECT_EQ(o.shuffle_units, 4242);
  ASSERT_EQ(o.maps.size(), 2u);
  EXPECT_EQ(o.maps[0].units, 1000);
  EXPECT_DOUBLE_EQ(o.maps[0].seconds, 1.5);
  EXPECT_EQ(o.maps[0].speed, 1.0);
  EXPECT_EQ(o.maps[1].units, 2000);
  EXPECT_DOUBLE_EQ(o.maps[1].seconds, 4.0);
  EXPECT_EQ(o.maps[1].speed, 0.5);
  ASSERT_EQ(o.reduces.size(), 1u);
  EXPECT_EQ(o.reduces[0].units, 300);
  EXPECT_DOUBLE_EQ(o.reduces[0].seconds, 1.25);
  EXPECT_EQ(o.reduces[0].speed, 1.0);

  JobHistory h;
  h.Record(o);
  // 1.5 s / 1000 units beats the half-speed map's 2 s of work / 2000 units.
  EXPECT_DOUBLE_EQ(h.Find("friendcount")->model.map_s_per_unit, 1.5 / 1000);
  ExpectCovered(h, o);
}

// The Estimator's way in: each finished attempt, then the job's end, teach what Record
// learns from the job as ObserveJob sees it.
TEST(JobHistory, ObservedTasksAreRecordedWhenTheirJobIsDone) {
  ClusterState state = ThreeSlots();
  JobState& job = state.jobs[7];
  job.id = 7;
  job.spec.app = "friendcount";
  job.maps.resize(2);
  job.reduces.resize(2);
  JobHistory observed;
  auto finish = [&](TaskKind kind, uint32_t index, uint64_t units, SlotId slot, double start_s,
                    double end_s, uint64_t output, bool ok = true) {
    TaskState& t = job.task(kind, index);
    t.input_bytes = units;
    t.slot = slot;
    t.start = FromSeconds(start_s);
    t.end = FromSeconds(end_s);
    if (ok) t.status = TaskStatus::kDone;
    observed.Observe({{7, kind, index}, 1, slot, ok, t.start, t.end, units, output}, state);
  };
  finish(TaskKind::kMap, 0, 1000, 0, 0, 1.5, 40);
  finish(TaskKind::kMap, 1, 2000, 1, 0, 9, 0, /*ok=*/false);  // preempted: teaches nothing
  finish(TaskKind::kMap, 1, 2000, 1, 0.5, 4.5, 60);
  finish(TaskKind::kReduce, 0, 70, 2, 5, 6.25, 0);
  finish(TaskKind::kReduce, 1, 30, 2, 6.25, 7, 0);
  EXPECT_EQ(observed.Find("friendcount"), nullptr) << "learned before the job ended";
  job.phase = JobPhase::kDone;
  observed.ObserveJobEnd(job);

  JobHistory recorded;
  recorded.Record(ObserveJob(job, state, 100));
  const AppEstimate* a = observed.Find("friendcount");
  const AppEstimate* b = recorded.Find("friendcount");
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(a->jobs, 1u);
  EXPECT_EQ(a->model.alpha, b->model.alpha);
  EXPECT_EQ(a->model.alpha, 100.0 / 3000);
  EXPECT_EQ(a->model.map_fixed_s, b->model.map_fixed_s);
  EXPECT_EQ(a->model.map_s_per_unit, b->model.map_s_per_unit);
  EXPECT_EQ(a->model.reduce_fixed_s, b->model.reduce_fixed_s);
  EXPECT_EQ(a->model.reduce_s_per_unit, b->model.reduce_s_per_unit);
  EXPECT_EQ(a->model.reduce_skew, b->model.reduce_skew);
  EXPECT_EQ(a->model.reduce_skew, 1.4);

  // A job that failed teaches nothing, and what was kept of it is dropped.
  JobState& failed = state.jobs[8];
  failed.id = 8;
  failed.spec.app = "pi";
  failed.maps.resize(1);
  failed.maps[0].input_bytes = 10;
  observed.Observe({{8, TaskKind::kMap, 0}, 1, 0, true, Time{0}, FromSeconds(1), 10, 0}, state);
  failed.phase = JobPhase::kFailed;
  observed.ObserveJobEnd(failed);
  EXPECT_EQ(observed.Find("pi"), nullptr);
}

}  // namespace
}  // namespace mrlocal
