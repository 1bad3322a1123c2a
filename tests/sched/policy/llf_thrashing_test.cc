// LLF's thrashing (Oh & Yang 1998, "modified least-laxity-first"): a job that gets served
// gains laxity over the jobs that wait, so two jobs of the same deadline and work take
// turns task by task and both finish late, where EDF finishes one. llf must meet the one
// EDF meets, and still let a job that cannot wait overtake one that can.
#include <gtest/gtest.h>

#include <map>

#include "sched/policy/edf_policy.h"
#include "sched/policy/llf_policy.h"
#include "tests/util/policy_test_util.h"

namespace mrlocal {
namespace {

using testing::ExactHistory;
using testing::OneNode;
using testing::SimCluster;

struct Arrival {
  double at_s;
  uint32_t maps;
  double map_s, deadline_s;
};

// The jobs on `map_slots` map slots and one reduce slot (speed 1.0), each with one 0.1 s
// reduce: their finish times by id.
std::map<JobId, JobState> RunJobs(Policy& policy, int map_slots, const std::vector<Arrival>& jobs) {
  SimCluster sim(policy, OneNode(map_slots, 1));
  for (const Arrival& j : jobs)
    sim.SubmitAt(FromSeconds(j.at_s), j.maps, j.map_s, 1, 0.1, FromSeconds(j.deadline_s));
  sim.controller.RunUntilIdle();
  return sim.controller.state().jobs;
}

int Met(const std::map<JobId, JobState>& jobs) {
  int met = 0;
  for (const auto& [id, job] : jobs) {
    EXPECT_EQ(job.phase, JobPhase::kDone) << id;
    met += job.finish <= *job.absolute_deadline();
  }
  return met;
}

// Jobs of 8 maps of 1 s (4.1 s alone on 2 map slots) arriving together with the same
// deadline: EDF runs them one after another.
std::vector<Arrival> Identical(int n, double deadline_s) {
  std::vector<Arrival> jobs;
  for (int i = 0; i < n; ++i) jobs.push_back({0, 8, 1, deadline_s});
  return jobs;
}

// Two jobs, deadline 6 s: one fits, not both (8.2 s). Here the paper's rule for negative
// laxity already saves one: the job left behind goes negative and waits.
TEST(LlfThrashing, TwoJobsOfTheSameDeadlineAndWorkLlfMeetsTheOneEdfMeets) {
  EdfPolicy edf;
  ASSERT_EQ(Met(RunJobs(edf, 2, Identical(2, 6))), 1);
  const JobHistory history = ExactHistory();
  LlfPolicy llf(&history);
  EXPECT_EQ(Met(RunJobs(llf, 2, Identical(2, 6))), 1);
}

// Three jobs, deadline 9 s: EDF meets two (4.1 s, 8.2 s). Plain LLF let all three take
// turns until they were all late but one.
TEST(LlfThrashing, ThreeJobsOfTheSameDeadlineAndWorkLlfMeetsTheTwoEdfMeets) {
  for (double deadline_s : {9.0, 10.5}) {
    EdfPolicy edf;
    ASSERT_EQ(Met(RunJobs(edf, 2, Identical(3, deadline_s))), 2);
    const JobHistory history = ExactHistory();
    LlfPolicy llf(&history);
    EXPECT_EQ(Met(RunJobs(llf, 2, Identical(3, deadline_s))), 2) << deadline_s;
  }
}

// Job 1 (8 maps of 1 s, deadline 20 s) is being served when job 2 (4 maps of 1 s, deadline
// 4 s) arrives: job 2 cannot wait for job 1, job 1 can wait for job 2, so job 2 overtakes
// and both meet their deadlines.
TEST(LlfThrashing, AJobThatCannotWaitStillOvertakesOneThatCan) {
  const std::vector<Arrival> jobs = {{0, 8, 1, 20}, {0.5, 4, 1, 4}};
  const JobHistory history = ExactHistory();
  LlfPolicy llf(&history);
  EXPECT_EQ(Met(RunJobs(llf, 2, jobs)), 2);
}

// The inversion never keeps a later deadline in front of an earlier one. Job 1 (4 maps of
// 1 s, deadline 100 s) holds the one map slot when job 2 (2 maps of 1 s, deadline 10 s)
// arrives: job 2 could afford to wait for job 1's whole job, but the first free slot is
// its (EDF's order and LLF's agree). Kept waiting inversion after inversion, a job with
// laxity to spare reached zero while every slot was held (simulated Fig. 5, C = 1).
TEST(LlfThrashing, AnInversionNeverKeepsALaterDeadlineInFront) {
  const std::vector<Arrival> jobs = {{0, 4, 1, 100}, {0.5, 2, 1, 10}};
  const JobHistory history = ExactHistory();
  LlfPolicy llf(&history);
  const std::map<JobId, JobState> done = RunJobs(llf, 1, jobs);
  ASSERT_EQ(done.size(), 2u);
  const JobState& later = done.begin()->second;
  const JobState& earlier = std::next(done.begin())->second;
  EXPECT_EQ(earlier.maps[0].start, later.maps[0].end);
  EXPECT_LT(earlier.finish, later.finish);
}

}  // namespace
}  // namespace mrlocal
