// Job history: the robust affine worst case fitted to what jobs showed, speed
// normalization, probes. The file it is
// kept in: tests/tools/runtime/history_file_test.cc.
#include "sched/estimate/job_history.h"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

namespace mrlocal {
namespace {

constexpr double kMiB = 1 << 20;

// Every sample of `job` lies under the app's bound (seconds at speed 1.0, exactly), and so
// do its shuffle and its reduces' skew.
void ExpectCovered(const JobHistory& h, const JobObservation& job) {
  const AppEstimate* e = h.Find(job.app);
  ASSERT_NE(e, nullptr);
  for (const TaskSample& s : job.maps)
    EXPECT_LE(s.seconds * s.speed, e->model.MapSeconds(s.units))
        << "map of " << s.units << " units";
  double sum = 0, largest = 0;
  for (const TaskSample& s : job.reduces) {
    EXPECT_LE(s.seconds * s.speed, e->model.ReduceSeconds(s.units))
        << "reduce of " << s.units << " units";
    sum += s.units;
    largest = std::max(largest, s.units);
  }
  EXPECT_LE(job.shuffle_units, e->model.shuffle_fixed_units + e->model.alpha * job.input_units);
  if (sum > 0) {
    EXPECT_LE(largest / (sum / static_cast<double>(job.reduces.size())),
              e->model.reduce_skew * (1 + 1e-12));
  }
}

// How many of `points` lie above `bound`.
size_t Above(const std::vector<AffinePoint>& points, double fixed, double per_unit) {
  size_t n = 0;
  for (const AffinePoint& p : points) n += p.value > fixed + per_unit * p.units;
  return n;
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

// Jobs of every size, whose costs per unit vary 400-fold: at most one in ten of the tasks
// kept lies above the bound, and the sample stays bounded.
TEST(JobHistory, AtMostOneObservationInTenLiesAboveTheBound) {
  std::mt19937 rng(2026);
  std::uniform_real_distribution<double> u01(0, 1);
  const double speeds[] = {0.25, 0.5, 0.75, 1.0};
  JobHistory h;
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
    for (const char* app : {"wordcount", "friendcount"}) {
      const AppEstimate* e = h.Find(app);
      if (!e) continue;
      const AppObservations& o = e->observations;
      const AppModel& model = e->model;
      EXPECT_LE(Above(o.maps, model.map_fixed_s, model.map_s_per_unit),
                OutliersAllowed(o.maps.size()));
      EXPECT_LE(Above(o.reduces, model.reduce_fixed_s, model.reduce_s_per_unit),
                OutliersAllowed(o.reduces.size()));
      EXPECT_LE(Above(o.shuffles, model.shuffle_fixed_units, model.alpha),
                OutliersAllowed(o.shuffles.size()));
      EXPECT_LE(o.maps.size(), kMaxTaskObservations);
      EXPECT_LE(o.reduces.size(), kMaxTaskObservations);
      EXPECT_LE(o.shuffles.size(), kMaxJobObservations);
      EXPECT_LE(o.skews.size(), kMaxJobObservations);
    }
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(h.Find("wordcount")->jobs + h.Find("friendcount")->jobs, 200u);
  EXPECT_EQ(h.Find("wordcount")->observations.maps.size(), kMaxTaskObservations);
  EXPECT_EQ(h.Find("wordcount")->observations.shuffles.size(), kMaxJobObservations);
}

TEST(JobHistory, WhileOutliersCannotBeToldEveryJobIsCovered) {
  JobHistory h;
  // σ = 200, σ_r = 100: α = 0.5; reduces 30 and 10: skew 30/20 = 1.5.
  const JobObservation first = Job({{100, 1.0}, {100, 2.0}}, {{30, 3.0}, {10, 1.0}}, 100);
  h.Record(first);
  const AppEstimate one = *h.Find("wordcount");
  EXPECT_EQ(one.jobs, 1u);
  EXPECT_EQ(one.source, "history");
  EXPECT_DOUBLE_EQ(one.model.alpha, 0.5);
  EXPECT_EQ(one.model.shuffle_fixed_units, 0);
  EXPECT_DOUBLE_EQ(one.model.reduce_skew, 1.5);
  // Maps of one size: the paper's cost per unit, the worst one, 2 s / 100.
  EXPECT_DOUBLE_EQ(one.model.map_s_per_unit, 0.02);
  EXPECT_DOUBLE_EQ(one.model.map_fixed_s, 0);
  EXPECT_DOUBLE_EQ(one.model.reduce_s_per_unit, 0.1);  // the line through both reduces
  EXPECT_DOUBLE_EQ(one.model.reduce_fixed_s, 0);
  ExpectCovered(h, first);

  // A faster, less skewed job with a smaller α lowers nothing: the first is still covered.
  const JobObservation faster = Job({{100, 0.5}}, {{10, 0.1}, {10, 0.1}}, 10);
  h.Record(faster);
  const AppEstimate two = *h.Find("wordcount");
  EXPECT_EQ(two.jobs, 2u);
  EXPECT_EQ(two.model, one.model);
  ExpectCovered(h, first);
  ExpectCovered(h, faster);

  // A slower, more skewed job with a larger shuffle raises each, and all three are covered.
  const JobObservation slower = Job({{100, 5.0}}, {{90, 10.0}, {10, 1.0}}, 400);
  h.Record(slower);
  const AppEstimate three = *h.Find("wordcount");
  EXPECT_EQ(three.jobs, 3u);
  EXPECT_DOUBLE_EQ(three.model.map_s_per_unit, 0.05);
  EXPECT_DOUBLE_EQ(three.model.reduce_skew, 1.8);
  EXPECT_GT(three.model.MapSeconds(100), two.model.MapSeconds(100));
  EXPECT_GT(three.model.ReduceSeconds(90), two.model.ReduceSeconds(90));
  for (const JobObservation& j : {first, faster, slower}) ExpectCovered(h, j);
}

// One slow run among many (a busy machine) is left out once there are ten to tell it by,
// where a max would keep it for good.
TEST(JobHistory, OneOutlierDoesNotDominate) {
  JobHistory h;
  for (int j = 0; j < 20; ++j) {
    const double seconds = j == 7 ? 10.0 : 1.0 + 0.01 * (j % 3);
    h.Record(Job({{100, seconds}}, {{50, 4 * seconds}}, j == 7 ? 900 : 30));
  }
  const AppModel& m = h.Find("wordcount")->model;
  EXPECT_DOUBLE_EQ(m.MapSeconds(100), 1.02);
  EXPECT_DOUBLE_EQ(m.ReduceSeconds(50), 4.08);
  EXPECT_DOUBLE_EQ(m.shuffle_fixed_units + m.alpha * 100, 30);
}

// The newest observations are what the fit rests on: an app that got slower is estimated
// as it is now once its old tasks have gone out of the sample.
TEST(JobHistory, OldObservationsAreForgotten) {
  JobHistory h;
  h.Record(Job({{100, 9.0}}));
  for (size_t j = 0; j < kMaxTaskObservations; ++j) h.Record(Job({{100, 1.0}}));
  EXPECT_EQ(h.Find("wordcount")->observations.maps.size(), kMaxTaskObservations);
  EXPECT_DOUBLE_EQ(h.Find("wordcount")->model.MapSeconds(100), 1.0);
}

TEST(JobHistory, ATinyLastSplitDoesNotInflateThePerUnitCost) {
  JobHistory h;
  const JobObservation job =
      Job({{32 * kMiB, 0.2}, {32 * kMiB, 0.2}, {32 * kMiB, 0.2}, {1024, 0.001}});
  h.Record(job);
  const AppEstimate& e = *h.Find("wordcount");
  // The paper's c = max τ/σ would be 0.001/1024, 33 times the full splits' cost; the line
  // through both sizes is no steeper than the full splits' own cost.
  EXPECT_LE(e.model.map_s_per_unit, 0.2 / (32 * kMiB));
  EXPECT_GT(e.model.map_fixed_s, 0);
  EXPECT_LE(e.model.map_fixed_s, 0.001);
  EXPECT_LT(e.model.MapSeconds(32 * kMiB), 0.2 + 1e-9);
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

  // A second job adds to the first, which it does not replace.
  h.Record(Job({{100, 0.5}}));
  EXPECT_DOUBLE_EQ(h.Find("wordcount")->model.map_s_per_unit, 0.01);
  EXPECT_EQ(h.Find("wordcount")->jobs, 2u);
  EXPECT_EQ(h.Find("wordcount")->observations.maps.size(), 2u);
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
  // 1.5 s for 1000 units, and 2 s of work (4 s at half speed) for 2000: the line through
  // both.
  EXPECT_DOUBLE_EQ(h.Find("friendcount")->model.MapSeconds(1000), 1.5);
  EXPECT_DOUBLE_EQ(h.Find("friendcount")->model.MapSeconds(2000), 2.0);
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

namespace mrlocal {
namespace {

// Admission at a confidence below 1 plans with how tasks spread below the bound: none is
// told until enough tasks were seen (every task then counts at its worst case); after,
// the observed ratios to the bound, whose mean is below 1 when tasks vary.
TEST(JobHistory, TheSpreadBelowTheBoundComesFromEnoughObservations) {
  JobHistory h;
  JobState job;
  job.spec.app = "wordcount";
  h.Record(Job({{100, 1.0}, {100, 2.0}, {100, 4.0}}));
  EXPECT_EQ(h.Spread(job, TaskKind::kMap), nullptr);
  for (int i = 0; i < 6; ++i) h.Record(Job({{100, 1.0}, {100, 2.0}, {100, 4.0}}));
  auto spread = h.Spread(job, TaskKind::kMap);
  ASSERT_NE(spread, nullptr);
  const double bound = h.Find("wordcount")->model.MapSeconds(100);
  EXPECT_NEAR(spread->mean(), std::min(1.0, 7.0 / 3 / bound), 0.05);
  EXPECT_LT(spread->mean(), 1.0);
  EXPECT_EQ(h.Spread(job, TaskKind::kReduce), nullptr);  // no reduce seen
}

}  // namespace
}  // namespace mrlocal
