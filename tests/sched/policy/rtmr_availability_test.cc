// RTMR admission under availability profiles known in advance (issue 16, "Known capacity
// changes"): a task's end is where its work is done at the node's known capacity, so a
// job admitted before a slowdown still meets its deadline through it.
//
// The property (He, Lu, Swanson 2013, section IV.C, with Algorithms II and III integrating
// the profiles) is checked in simulation over random workloads like those of
// rtmr_property_test.cc, each node slowed by a random step profile that the policy is
// given as a KnownForecast: fault-free, no task longer than its estimate, so no admitted
// job may miss.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sched/core/cluster_spec.h"
#include "sched/core/controller.h"
#include "sched/estimate/capacity_forecast.h"
#include "sched/estimate/job_history.h"
#include "sched/policy/rtmr_policy.h"
#include "tests/util/policy_test_util.h"
#include "tests/util/random_workload.h"
#include "tests/util/workload_run.h"

namespace mrlocal {
namespace {

using testing::ExactHistory;
using testing::RandomJob;
using testing::RandomWorkload;
using testing::RealRange;
using testing::WorkloadRanges;
using testing::WorkloadRun;

// One run of `w` under rtmr (or rtmr-nofb) told the profiles in advance.
class AvailabilityRun {
 public:
  AvailabilityRun(const RandomWorkload& w, bool feedback)
      : policy_(&history_, RtmrOptions{.feedback = feedback, .feedback_threshold = std::nullopt},
                std::make_shared<KnownForecast>(w.cluster.Slots(), w.availability)),
        run_(w, policy_) {
    run_.Run();
  }

  const Controller& controller() const { return run_.controller(); }

 private:
  JobHistory history_ = ExactHistory();
  RtmrPolicy policy_;
  WorkloadRun run_;
};

RandomJob MapOnlyJob(double deadline_s, std::vector<double> map_s) {
  RandomJob j;
  j.deadline_s = deadline_s;
  for (double s : map_s) j.map_units.push_back(static_cast<uint64_t>(s * 1e6));
  j.map_s = std::move(map_s);
  return j;
}

// One map slot at speed 1.0, at 0.25 over [10 s, 30 s); a job of two 8 s maps arriving at 0.
// At nominal speed it ends at 16 s. Known: the first map [0, 8); the second does 2 s of
// work by 10, 20 × 0.25 = 5 s by 30, the last 1 s by 31.
RandomWorkload SlowedSlot(double deadline_s) {
  RandomWorkload w;
  w.cluster = ClusterSpec({NodeGroup{1, 1, 0, 1.0}});
  w.availability[0] = SpeedProfile({FromSeconds(10), FromSeconds(30)}, {0.25, 1.0});
  w.jobs = {MapOnlyJob(deadline_s, {8, 8})};
  return w;
}

TEST(RtmrAvailability, RejectsAJobThatMeetsItsDeadlineOnlyIfTheSlowdownIsIgnored) {
  AvailabilityRun run(SlowedSlot(20), /*feedback=*/true);
  const Admission& a = run.controller().outcome(1).admission;
  EXPECT_FALSE(a.admitted) << a.reason;
  ASSERT_TRUE(a.estimated_finish());
  EXPECT_EQ(*a.estimated_finish(), FromSeconds(31));
}

TEST(RtmrAvailability, AdmitsWithTheFinishTheProfileGives) {
  AvailabilityRun run(SlowedSlot(35), /*feedback=*/true);
  const Admission& a = run.controller().outcome(1).admission;
  ASSERT_TRUE(a.admitted) << a.reason;
  EXPECT_EQ(*a.estimated_finish(), FromSeconds(31));
  const JobState& job = run.controller().state().job(1);
  EXPECT_EQ(job.phase, JobPhase::kDone);
  EXPECT_EQ(job.finish, FromSeconds(31));
}

TEST(RtmrAvailability, AConstantForecastKeepsTheNominalEstimate) {
  const std::vector<SlotInfo> slots = ClusterSpec({NodeGroup{1, 1, 0, 1.0}}).Slots();
  EXPECT_FALSE(ConstantForecast(slots).LatestEndOf(SlotKind::kMap, Time{0}, 8));
  // A known forecast without profiles: start + work / the slowest slot's speed.
  EXPECT_EQ(KnownForecast(slots, {}).LatestEndOf(SlotKind::kMap, FromSeconds(2), 8),
            FromSeconds(10));
}

// A random workload whose nodes (some of them) slow down for a while, perhaps more than
// once: 1-5 nodes of 1-3 map and 0-2 reduce slots at speed 0.5 or 1.0; 6-12 jobs of 1-30
// equal maps and 0-6 equal reduces (worst case 1-10 s at speed 1.0), each task running
// 50-100 % of it; deadlines 1-4 × the job's isolated worst-case path, arrivals
// exponential with a mean of 0.1-0.5 × that path; each node, with probability 2/3, at
// 0.25-0.75 over 1-3 random spans inside the arrivals' horizon.
const WorkloadRanges kRanges{
    .nodes = {1, 5},
    .map_slots = {1, 3},
    .reduce_slots = {0, 2},
    .speeds = {0.5, 1.0},
    .shape = {.one_speed = false, .equal_tasks = true, .run_fraction = RealRange{0.5, 1.0}},
    .jobs = {6, 12},
    .maps = {1, 30},
    .reduces = {0, 6},
    .map_s = {1, 10},
    .reduce_s = {1, 10},
    .deadline_path = {1, 4},
    .mean_gap_path = {0.1, 0.5},
    .slowed_share = 2.0 / 3,
    .slowdown_steps = {2, 6},  // alternately slow and back: 1-3 spans
    .slowdown_factors = {0.25, 0.5, 0.75},
};

constexpr int kWorkloads = 2'000;

class RtmrAvailabilityProperty : public ::testing::TestWithParam<bool> {};

TEST_P(RtmrAvailabilityProperty, NoAdmittedJobMissesThroughAKnownSlowdown) {
  const bool feedback = GetParam();
  uint64_t jobs = 0, admitted = 0;
  for (uint64_t seed = 0; seed < kWorkloads && !HasFailure(); ++seed) {
    const RandomWorkload w = DrawWorkload(kRanges, seed);
    AvailabilityRun run(w, feedback);
    for (const auto& [id, job] : run.controller().state().jobs) {
      ++jobs;
      const Admission& a = run.controller().outcome(id).admission;
      if (!a.admitted) continue;
      ++admitted;
      ASSERT_EQ(job.phase, JobPhase::kDone) << job.failure << "\n" << Describe(w);
      EXPECT_LE(job.finish, *job.absolute_deadline())
          << "job " << id << " admitted (estimated finish " << Seconds(*a.estimated_finish())
          << " s) ended at " << Seconds(job.finish) << " s, past its deadline "
          << Seconds(*job.absolute_deadline()) << " s\n"
          << Describe(w);
    }
  }
  // Not vacuous: a fair share of the jobs was admitted, and some rejected.
  EXPECT_GT(admitted, jobs / 5) << admitted << " of " << jobs;
  EXPECT_LT(admitted, jobs);
}

INSTANTIATE_TEST_SUITE_P(Workloads, RtmrAvailabilityProperty, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool>& info) {
                           return std::string(info.param ? "rtmr" : "rtmr_nofb");
                         });

}  // namespace
}  // namespace mrlocal
