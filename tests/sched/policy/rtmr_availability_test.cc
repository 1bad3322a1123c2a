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

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "sched/core/cluster_spec.h"
#include "sched/core/controller.h"
#include "sched/estimate/capacity_forecast.h"
#include "sched/estimate/job_history.h"
#include "sched/partition/partitioner.h"
#include "sched/policy/rtmr_policy.h"
#include "sched/sim/sim_executor.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/job_builder.h"
#include "tests/util/policy_test_util.h"

namespace mrlocal {
namespace {

using testing::ExactHistory;
using testing::JobBuilder;

struct GenJob {
  double arrival_s = 0, deadline_s = 0;           // deadline relative to arrival
  std::vector<uint64_t> map_units, reduce_units;  // worst case, µs at speed 1.0
  std::vector<double> map_s, reduce_s;            // actual work, s at speed 1.0
};

struct Workload {
  ClusterSpec cluster;
  std::map<NodeId, SpeedProfile> availability;
  std::vector<GenJob> jobs;
};

// One run of `w` under rtmr (or rtmr-nofb) told the profiles in advance; the controller
// sees each step as the runtime shows it (tools/runtime/runtime.cc), the executor runs the
// tasks through it.
class AvailabilityRun {
 public:
  AvailabilityRun(const Workload& w, bool feedback)
      : slots_(w.cluster.Slots()),
        exec_(loop_, slots_, SimExecutorOptions{.availability = w.availability}),
        policy_(&history_, RtmrOptions{.feedback = feedback, .feedback_threshold = std::nullopt},
                std::make_shared<KnownForecast>(slots_, w.availability)),
        controller_(loop_, exec_, policy_, slots_, w.cluster.nodes(),
                    std::move(MakePartitioner("hash")).value(),
                    ControllerOptions{.observer_tick = Duration::zero(), .reduce_slowstart = {}}) {
    for (const auto& [node, profile] : w.availability)
      for (size_t i = 0; i < profile.size(); ++i)
        loop_.At(profile.times()[i], [this, node, factor = profile.factors()[i]] {
          for (const SlotInfo& s : slots_)
            if (s.node == node) (void)controller_.SetSlotSpeed(s.id, s.speed * factor);
        });
    for (const GenJob& j : w.jobs)
      controller_.SubmitAt(FromSeconds(j.arrival_s), [this, &j](JobId id) {
        SimJob model;
        model.map_work_s = j.map_s;
        model.reduce_work_s = j.reduce_s;
        exec_.AddJob(id, std::move(model));
        JobBuilder spec;
        spec.Name("job" + std::to_string(id)).Deadline(FromSeconds(j.deadline_s));
        uint64_t input = 0;
        for (uint64_t u : j.map_units) {
          spec.Map(u);
          input += u;
        }
        return spec.InputBytes(input).ReduceUnits(j.reduce_units).Build();
      });
    controller_.RunUntilIdle();
  }

  const Controller& controller() const { return controller_; }

 private:
  JobHistory history_ = ExactHistory();
  std::vector<SlotInfo> slots_;
  SimLoop loop_;
  SimExecutor exec_;
  RtmrPolicy policy_;
  Controller controller_;
};

GenJob MapOnlyJob(double deadline_s, std::vector<double> map_s) {
  GenJob j;
  j.deadline_s = deadline_s;
  for (double s : map_s) j.map_units.push_back(static_cast<uint64_t>(s * 1e6));
  j.map_s = std::move(map_s);
  return j;
}

// One map slot at speed 1.0, at 0.25 over [10 s, 30 s); a job of two 8 s maps arriving at 0.
// At nominal speed it ends at 16 s. Known: the first map [0, 8); the second does 2 s of
// work by 10, 20 × 0.25 = 5 s by 30, the last 1 s by 31.
Workload SlowedSlot(double deadline_s) {
  Workload w;
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
// 50-100 % of it; deadlines 1-4 × the job's worst-case path alone at full speed, arrivals
// exponential with a mean of 0.1-0.5 × that path; each node, with probability 2/3, at
// 0.25-1.0 over 1-3 random spans inside the arrivals' horizon.
Workload Generate(uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto uniform = [&rng](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto real = [&rng](double lo, double hi) {
    return std::uniform_real_distribution<double>(lo, hi)(rng);
  };
  static constexpr double kFactors[] = {0.25, 0.5, 0.75};
  Workload w;
  std::vector<NodeGroup> nodes(static_cast<size_t>(uniform(1, 5)));
  for (NodeGroup& n : nodes)
    n = NodeGroup{1, uniform(1, 3), uniform(0, 2), uniform(0, 1) ? 1.0 : 0.5};
  nodes[0].reduce_slots = std::max(nodes[0].reduce_slots, 1);
  w.cluster = ClusterSpec(std::move(nodes));
  const double slowest = 0.5;  // a bound: the path below is only a scale for deadlines
  double mean_path = 0;
  w.jobs.resize(static_cast<size_t>(uniform(6, 12)));
  for (GenJob& j : w.jobs) {
    const int maps = uniform(1, 30), reduces = uniform(0, 6);
    const double map_s = real(1, 10), reduce_s = real(1, 10);
    auto add = [&](double worst_s, std::vector<uint64_t>& units, std::vector<double>& s) {
      units.push_back(static_cast<uint64_t>(worst_s * 1e6));
      s.push_back(std::floor(double(units.back()) * real(0.5, 1.0)) * 1e-6);
    };
    for (int i = 0; i < maps; ++i) add(map_s, j.map_units, j.map_s);
    for (int i = 0; i < reduces; ++i) add(reduce_s, j.reduce_units, j.reduce_s);
    const double path = (std::ceil(double(maps) / w.cluster.map_slots()) * map_s +
                         std::ceil(double(reduces) / w.cluster.reduce_slots()) * reduce_s) /
                        slowest;
    j.deadline_s = real(1, 4) * path;
    mean_path += path / double(w.jobs.size());
  }
  std::exponential_distribution<double> gap(1.0 / (real(0.1, 0.5) * mean_path));
  double t = 0;
  for (GenJob& j : w.jobs) {
    j.arrival_s = t;
    t += gap(rng);
  }
  const double horizon = t + mean_path;
  for (NodeId n = 0; n < w.cluster.nodes(); ++n) {
    if (uniform(0, 2) == 0) continue;
    std::vector<double> at;
    for (int k = uniform(2, 6); k > 0; --k) at.push_back(real(0, horizon));
    std::sort(at.begin(), at.end());
    SpeedProfile p;
    for (size_t k = 0; k < at.size(); ++k)
      if (p.empty() || FromSeconds(at[k]) > p.times().back())
        p.Add(FromSeconds(at[k]), k % 2 ? 1.0 : kFactors[uniform(0, 2)]);
    w.availability[n] = std::move(p);
  }
  return w;
}

std::string Describe(uint64_t seed, const Workload& w) {
  std::ostringstream o;
  o << "seed " << seed << ", cluster " << w.cluster.ToString() << "\n";
  for (const auto& [node, p] : w.availability) {
    o << "  node " << node << ":";
    for (size_t k = 0; k < p.size(); ++k)
      o << " " << Seconds(p.times()[k] - Time{0}) << " s → " << p.factors()[k];
    o << "\n";
  }
  for (size_t i = 0; i < w.jobs.size(); ++i)
    o << "  job " << i + 1 << ": arrival " << w.jobs[i].arrival_s << " s, deadline "
      << w.jobs[i].deadline_s << " s, " << w.jobs[i].map_s.size() << " maps, "
      << w.jobs[i].reduce_s.size() << " reduces\n";
  return o.str();
}

constexpr int kWorkloads = 2'000;

class RtmrAvailabilityProperty : public ::testing::TestWithParam<bool> {};

TEST_P(RtmrAvailabilityProperty, NoAdmittedJobMissesThroughAKnownSlowdown) {
  const bool feedback = GetParam();
  uint64_t jobs = 0, admitted = 0;
  for (uint64_t seed = 0; seed < kWorkloads && !HasFailure(); ++seed) {
    const Workload w = Generate(seed);
    AvailabilityRun run(w, feedback);
    for (const auto& [id, job] : run.controller().state().jobs) {
      ++jobs;
      const Admission& a = run.controller().outcome(id).admission;
      if (!a.admitted) continue;
      ++admitted;
      ASSERT_EQ(job.phase, JobPhase::kDone) << job.failure << "\n" << Describe(seed, w);
      EXPECT_LE(job.finish, *job.absolute_deadline())
          << "job " << id << " admitted (estimated finish " << Seconds(*a.estimated_finish())
          << " s) ended at " << Seconds(job.finish) << " s, past its deadline "
          << Seconds(*job.absolute_deadline()) << " s\n"
          << Describe(seed, w);
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
