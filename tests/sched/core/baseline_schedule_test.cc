// fifo, fair and edf through the real Controller on a SimLoop, against schedules computed
// by hand. One workload, chosen so that the three policies give three different schedules.
//
// Cluster: map slots 0 and 1, reduce slot 2, one node, speed 1.0. Splits name no node, so
// a job's maps run in index order. Durations: A's maps 2 s, every other task 1 s.
//   A (job 1): arrives at 0, 4 maps, 1 reduce, no deadline.
//   B (job 2): arrives at 1, 2 maps, 1 reduce, deadline 20 s (absolute 21).
//   C (job 3): arrives at 1 (after B), 2 maps, 1 reduce, deadline 5 s (absolute 6).
// Non-preemptive: at 1 both map slots run A until 2, so the policies first differ at 2.
// Reports at equal times arrive in launch order; each frees one slot, which is offered
// right away (a report-by-report walk through the Controller is in each test).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <tuple>
#include <vector>

#include "sched/core/controller.h"
#include "sched/policy/policy_registry.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/cluster.h"
#include "tests/util/fake_executor.h"
#include "tests/util/job_builder.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;
using testing::FakeExecutor;
using testing::JobBuilder;
using testing::OneNode;

JobSpec Job(uint32_t maps, std::optional<Duration> deadline) {
  return JobBuilder("fixed").Deadline(deadline).Maps(maps).Build();
}

struct Schedule {
  std::vector<std::string> tasks;  // "A.m0 s0 [0,2]", ordered by start, then slot
  std::vector<std::string> jobs;   // "A done 5"
};

std::string Secs(Time t) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", Seconds(t));
  return buf;
}

Schedule RunWorkload(std::string_view policy_name) {
  SimLoop loop;
  const std::vector<SlotInfo> slots = OneNode(2, 1);
  FakeExecutor exec(loop, slots, [](const TaskRef& t) -> Duration {
    return t.job == 1 && t.kind == TaskKind::kMap ? seconds(2) : seconds(1);
  });
  auto policy = MakePolicy(policy_name);
  auto partitioner = MakePartitioner("dp-sketch");
  EXPECT_TRUE(policy.ok() && partitioner.ok());
  Controller controller(loop, exec, **policy, slots, 1, std::move(*partitioner));
  controller.SubmitAt(Time{0}, [](JobId) { return Job(4, std::nullopt); });
  controller.SubmitAt(seconds(1), [](JobId) { return Job(2, seconds(20)); });
  controller.SubmitAt(seconds(1), [](JobId) { return Job(2, seconds(5)); });
  controller.RunUntilIdle();

  struct Row {
    Time start;
    SlotId slot;
    std::string text;
  };
  std::vector<Row> rows;
  for (const auto& [key, run] : exec.runs) {
    const auto& [job, kind, index] = key;
    std::string name = std::string(1, static_cast<char>('A' + job - 1)) + "." +
                       (kind == TaskKind::kMap ? "m" : "r") + std::to_string(index);
    rows.push_back({run.start, run.slot,
                    name + " s" + std::to_string(run.slot) + " [" + Secs(run.start) + "," +
                        Secs(run.end) + "]"});
  }
  std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return std::tie(a.start, a.slot) < std::tie(b.start, b.slot);
  });
  Schedule s;
  for (auto& r : rows) s.tasks.push_back(r.text);
  for (const auto& [id, job] : controller.state().jobs)
    s.jobs.push_back(std::string(1, static_cast<char>('A' + id - 1)) + " " +
                     std::string(ToString(job.phase)) + " " + Secs(job.finish));
  return s;
}

// fifo: A, then B, then C, maps and reduces alike.
//   0: s0 A.m0, s1 A.m1 (to 2).      2: A.m0 ends -> s0 A.m2; A.m1 ends -> s1 A.m3 (to 4).
//   4: A.m2 ends -> s0: A has no pending map -> B.m0. A.m3 ends -> A's reduce is planned;
//      s1 B.m1, s2 A.r0 (to 5).
//   5: B.m0 ends -> s0 C.m0. B.m1 ends (B planned) -> s1 C.m1. A.r0 ends, A done -> s2 B.r0.
//   6: C.m0, C.m1 end (C planned; s2 busy). B.r0 ends, B done -> s2 C.r0.   7: C done.
// C misses its deadline (6).
TEST(BaselineSchedules, Fifo) {
  Schedule s = RunWorkload("fifo");
  EXPECT_EQ(s.tasks, (std::vector<std::string>{"A.m0 s0 [0,2]", "A.m1 s1 [0,2]", "A.m2 s0 [2,4]",
                                               "A.m3 s1 [2,4]", "B.m0 s0 [4,5]", "B.m1 s1 [4,5]",
                                               "A.r0 s2 [4,5]", "C.m0 s0 [5,6]", "C.m1 s1 [5,6]",
                                               "B.r0 s2 [5,6]", "C.r0 s2 [6,7]"}));
  EXPECT_EQ(s.jobs, (std::vector<std::string>{"A done 5", "B done 6", "C done 7"}));
}

// fair: lowest running maps (weights 1) first, ties by arrival.
//   2: A.m0 ends -> s0: running A 1, B 0, C 0 -> B.m0 (to 3).
//      A.m1 ends -> s1: A 0, B 1, C 0 -> A (tie with C, earlier) -> A.m2 (to 4).
//   3: B.m0 ends -> s0: A 1, B 0, C 0 -> B (tie, earlier) -> B.m1 (to 4).
//   4: A.m2 ends -> s1: A 0, B 1 (nothing pending), C 0 -> A.m3 (to 6).
//      B.m1 ends (B planned) -> s0: only C has maps -> C.m0 (to 5); s2 B.r0 (to 5).
//   5: C.m0 ends -> s0 C.m1 (to 6). B.r0 ends: B done.
//   6: A.m3 ends (A planned) -> s2 A.r0 (to 7). C.m1 ends (C planned; s2 busy).
//   7: A done -> s2 C.r0 (to 8).   8: C done, 2 s late.
TEST(BaselineSchedules, Fair) {
  Schedule s = RunWorkload("fair");
  EXPECT_EQ(s.tasks, (std::vector<std::string>{"A.m0 s0 [0,2]", "A.m1 s1 [0,2]", "B.m0 s0 [2,3]",
                                               "A.m2 s1 [2,4]", "B.m1 s0 [3,4]", "C.m0 s0 [4,5]",
                                               "A.m3 s1 [4,6]", "B.r0 s2 [4,5]", "C.m1 s0 [5,6]",
                                               "A.r0 s2 [6,7]", "C.r0 s2 [7,8]"}));
  EXPECT_EQ(s.jobs, (std::vector<std::string>{"A done 7", "B done 5", "C done 8"}));
}

// edf: C (deadline 6), then B (21), then A (none).
//   2: A.m0 ends -> s0 C.m0; A.m1 ends -> s1 C.m1 (to 3).
//   3: C.m0 ends -> s0 B.m0. C.m1 ends (C planned) -> s1 B.m1, s2 C.r0 (to 4).
//   4: B.m0 ends -> s0: C and B have no pending map -> A.m2 (to 6). B.m1 ends (B planned)
//      -> s1 A.m3 (to 6). C.r0 ends, C done -> s2 B.r0 (to 5).   5: B done.
//   6: A.m2, A.m3 end (A planned) -> s2 A.r0 (to 7).   7: A done.
TEST(BaselineSchedules, Edf) {
  Schedule s = RunWorkload("edf");
  EXPECT_EQ(s.tasks, (std::vector<std::string>{"A.m0 s0 [0,2]", "A.m1 s1 [0,2]", "C.m0 s0 [2,3]",
                                               "C.m1 s1 [2,3]", "B.m0 s0 [3,4]", "B.m1 s1 [3,4]",
                                               "C.r0 s2 [3,4]", "A.m2 s0 [4,6]", "A.m3 s1 [4,6]",
                                               "B.r0 s2 [4,5]", "A.r0 s2 [6,7]"}));
  EXPECT_EQ(s.jobs, (std::vector<std::string>{"A done 7", "B done 5", "C done 4"}));
}

TEST(BaselineSchedules, TheThreePoliciesDisagree) {
  Schedule fifo = RunWorkload("fifo"), fair = RunWorkload("fair"), edf = RunWorkload("edf");
  EXPECT_NE(fifo.tasks, fair.tasks);
  EXPECT_NE(fifo.tasks, edf.tasks);
  EXPECT_NE(fair.tasks, edf.tasks);
}

}  // namespace
}  // namespace mrlocal
