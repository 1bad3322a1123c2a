// `adaptive` is `reverse-adaptive` over the capacity observed now, held: under a constant
// availability the run's forecast says just that, and the two must make the same decision
// at every launch (time, slot, task). Random workloads with goals (some jobs without),
// maps and reduces, on two nodes of different speeds whose availability is set once, at
// time 0, below 1.
#include <gtest/gtest.h>

#include <random>

#include "sched/policy/goal_adaptive_policy.h"
#include "sched/policy/policy_registry.h"
#include "tests/util/goal_sim.h"
#include "tests/util/policy_test_util.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;
using testing::GoalSim;
using testing::Launch;

const char* const kCluster = "1x(3m,1r,1.0)+1x(2m,1r,0.5)";

struct RandomJob {
  Time at{0};
  std::vector<double> map_s;
  uint32_t reduces = 0;
  double reduce_s = 0;
  std::optional<Duration> goal;
};

// 8 jobs over 30 s; 3 in 4 have a goal of 1 to 4 times their work spread over the
// cluster's 3.5 map slots (at full speed), so that some are met and some missed.
std::vector<RandomJob> Workload(uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto real = [&rng](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  auto integer = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  std::vector<RandomJob> jobs;
  for (int j = 0; j < 8; ++j) {
    RandomJob job;
    job.at = FromSeconds(real(0, 30));
    const int maps = integer(1, 12);
    double work = 0;
    for (int m = 0; m < maps; ++m) work += job.map_s.emplace_back(real(0.5, 4));
    job.reduces = static_cast<uint32_t>(integer(0, 2));
    job.reduce_s = real(1, 3);
    if (integer(0, 3) > 0) job.goal = FromSeconds(work / 3.5 * real(1, 4) + job.reduce_s);
    jobs.push_back(std::move(job));
  }
  return jobs;
}

// The launches of `policy` on `jobs`, node 0 at `a0` and node 1 at `a1` from time 0 on; the
// forecast reverse-adaptive is given knows those profiles, or `forecast` when given.
std::vector<Launch> Launches(const std::string& policy, const std::vector<RandomJob>& jobs,
                             std::map<NodeId, SpeedProfile> availability,
                             std::map<NodeId, SpeedProfile> forecast_profiles) {
  const std::vector<SlotInfo> slots = testing::ClusterSlots(kCluster);
  auto forecast = std::make_shared<KnownForecast>(slots, forecast_profiles);
  const JobHistory history = testing::ExactHistory();
  auto made = MakePolicy(policy, &history, PolicyArgs().SetForecast(forecast));
  EXPECT_TRUE(made.ok()) << made.status().message();
  if (!made.ok()) return {};
  GoalSim sim(**made, slots, availability, forecast);
  for (const RandomJob& j : jobs) sim.Submit(j.at, j.map_s, j.goal, j.reduces, j.reduce_s);
  sim.Run();
  for (JobId id = 1; id <= jobs.size(); ++id)
    EXPECT_EQ(sim.job(id).phase, JobPhase::kDone) << policy << " job " << id;
  return sim.launches();
}

std::map<NodeId, SpeedProfile> Constant(double a0, double a1) {
  return {{0, SpeedProfile({Time{0}}, {a0})}, {1, SpeedProfile({Time{0}}, {a1})}};
}

TEST(GoalAdaptiveEquivalence, UnderAConstantAvailabilityBothMakeTheSameDecisions) {
  int differ_when_it_varies = 0;
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    SCOPED_TRACE(seed);
    const std::vector<RandomJob> jobs = Workload(seed);
    const auto availability = Constant(0.6, 0.8);
    const std::vector<Launch> adaptive = Launches("adaptive", jobs, availability, availability);
    const std::vector<Launch> reverse =
        Launches("reverse-adaptive", jobs, availability, availability);
    ASSERT_FALSE(adaptive.empty());
    ASSERT_EQ(adaptive.size(), reverse.size());
    for (size_t i = 0; i < adaptive.size(); ++i) {
      ASSERT_EQ(adaptive[i], reverse[i])
          << "launch " << i << " at " << Seconds(adaptive[i].at) << " s: adaptive job "
          << adaptive[i].task.job << " on slot " << adaptive[i].slot << ", reverse-adaptive job "
          << reverse[i].task.job << " on slot " << reverse[i].slot;
    }
    // Not vacuous: where the availability drops later, the forecast changes decisions.
    std::map<NodeId, SpeedProfile> drop = Constant(0.6, 0.8);
    drop[0] = SpeedProfile({Time{0}, seconds(20)}, {0.6, 0.2});
    if (Launches("reverse-adaptive", jobs, drop, drop) != Launches("adaptive", jobs, drop, drop))
      ++differ_when_it_varies;
  }
  EXPECT_GT(differ_when_it_varies, 10);
}

}  // namespace
}  // namespace mrlocal
