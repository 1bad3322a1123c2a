// Soft completion-time goals in the reports: jobs.csv's goal_s, met_goal and utility
// cells, metrics.json's goal figures and compare's two goal columns, on a hand-made run
// worked out by hand.
#include <gtest/gtest.h>

#include <optional>
#include <string>

#include "hand_made_run.h"
#include "sched/report/workload_metrics.h"
#include "sched/report/workload_report.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;

JobSpec OneMap(const std::string& name, std::optional<Duration> goal) {
  JobSpec spec = testing::JobBuilder().Name(name).Maps(1).Reduces(0).Build();
  spec.goal = goal;
  return spec;
}

// Five map-only jobs (times in seconds):
//   met      arrives 0, goal 10: map [0,4], done at 4: met, utility 1 - 4/10 = 0.6.
//   late     arrives 1, goal 2 (at 3): map [1,5], done at 5: response 4, missed,
//            utility 2/4 - 1 = -0.5.
//   rejected arrives 2, goal 5: rejected: missed, utility -1.
//   failed   arrives 3, goal 8: map [3,6] fails, failed at 6: missed, utility -1.
//   no goal  arrives 3: map [3,7], done at 7: no goal cells, left out of the goal figures.
RunRecorder GoalRun() {
  testing::HandMadeRun run;
  run.Arrive(1, 0, OneMap("met", seconds(10)));
  run.Arrive(2, 1, OneMap("late", seconds(2)));
  run.Arrive(3, 2, OneMap("rejected", seconds(5)), Admission::No("full"));
  run.Arrive(4, 3, OneMap("failed", seconds(8)));
  run.Arrive(5, 3, OneMap("no goal", std::nullopt));
  run.Attempt({1, TaskKind::kMap, 0}, 0, 0, 4);
  run.Finish(1, JobPhase::kDone, 4);
  run.Attempt({2, TaskKind::kMap, 0}, 1, 1, 5);
  run.Finish(2, JobPhase::kDone, 5);
  run.Attempt({4, TaskKind::kMap, 0}, 0, 3, 6, Status::Corruption("bad block"));
  run.Finish(4, JobPhase::kFailed, 6);
  run.Attempt({5, TaskKind::kMap, 0}, 1, 3, 7);
  run.Finish(5, JobPhase::kDone, 7);
  return std::move(run.rec);
}

// The last three cells of the CSV row that starts with `id,name,`.
std::string GoalCells(const std::string& csv, const std::string& id_name) {
  const size_t row = csv.find("\n" + id_name + ",");
  if (row == std::string::npos) return "no row " + id_name;
  const std::string line = csv.substr(row + 1, csv.find('\n', row + 1) - row - 1);
  size_t cut = line.size();
  for (int commas = 0; commas < 3; ++commas) cut = line.rfind(',', cut - 1);
  return line.substr(cut + 1);
}

TEST(GoalReport, JobsCsvSaysEachGoalItsVerdictAndUtility) {
  const std::string csv = JobsCsv(ComputeJobMetrics(GoalRun()));
  EXPECT_TRUE(csv.starts_with(
      "id,name,app,queue,weight,arrival_s,deadline_s,admitted,status,start_s,finish_s,"
      "response_s,met_deadline,slack_s,maps,reduces,slot_time_s,goal_s,met_goal,utility\n"))
      << csv;
  // goal_s is on the run's clock, as deadline_s is.
  EXPECT_EQ(GoalCells(csv, "1,met"), "10.000000,true,0.600000");
  EXPECT_EQ(GoalCells(csv, "2,late"), "3.000000,false,-0.500000");
  EXPECT_EQ(GoalCells(csv, "3,rejected"), "7.000000,false,-1.000000");
  EXPECT_EQ(GoalCells(csv, "4,failed"), "11.000000,false,-1.000000");
  EXPECT_EQ(GoalCells(csv, "5,no goal"), ",,");
}

TEST(GoalReport, MetricsCountGoalMissesAndAverageUtilityOverJobsWithAGoal) {
  const RunRecorder rec = GoalRun();
  MetricsContext context;
  context.total_slots = 2;
  const WorkloadMetrics m = ComputeMetrics(rec, context);
  EXPECT_EQ(m.goal_jobs, 4u);
  EXPECT_EQ(m.goal_missed, 3u);
  EXPECT_DOUBLE_EQ(m.goal_miss_ratio, 0.75);
  EXPECT_DOUBLE_EQ(m.mean_utility, (0.6 - 0.5 - 1 - 1) / 4);

  const std::string json = MetricsJson(m, ComputeJobMetrics(rec));
  EXPECT_NE(json.find("\"goal_jobs\": 4,\n  \"goal_missed\": 3,\n  \"goal_miss_ratio\": 0.75,\n"
                      "  \"mean_utility\": -0.475"),
            std::string::npos)
      << json;
  EXPECT_NE(json.find("\"goal_s\": 10.0,\n      \"goal_at_s\": 10.0,\n      \"met_goal\": true,\n"
                      "      \"utility\": 0.6"),
            std::string::npos)
      << json;
}

TEST(GoalReport, WithoutGoalsTheFiguresAreEmptyAndCompareShowsNoGoalColumns) {
  testing::HandMadeRun run;
  run.Arrive(1, 0, OneMap("plain", std::nullopt));
  run.Attempt({1, TaskKind::kMap, 0}, 0, 0, 4);
  run.Finish(1, JobPhase::kDone, 4);
  const WorkloadMetrics m = ComputeMetrics(run.rec, MetricsContext{});
  EXPECT_EQ(m.goal_jobs, 0u);
  EXPECT_EQ(m.mean_utility, 0.0);  // an empty mean is 0, as every empty ratio
  const std::string md = ComparisonMarkdown({{"fifo", {m}}});
  EXPECT_EQ(md.find("goal"), std::string::npos) << md;
}

TEST(GoalReport, CompareShowsGoalMissesAndMeanUtility) {
  const WorkloadMetrics m = ComputeMetrics(GoalRun(), MetricsContext{});
  const std::string md = ComparisonMarkdown({{"fifo", {m}}});
  EXPECT_NE(md.find(" goal misses | mean utility |"), std::string::npos) << md;
  EXPECT_NE(md.find(" 75.0% | -0.475 |"), std::string::npos) << md;
  const std::string csv = ComparisonCsv({{"fifo", {m}}});
  EXPECT_NE(csv.find("goal_miss_ratio_mean,goal_miss_ratio_min,goal_miss_ratio_max,"
                     "mean_utility_mean"),
            std::string::npos)
      << csv;
}

// A job command's goal runs from its start: the set-up counts against it, as against a
// deadline, and one the set-up outlasted is submitted as a goal <= 0.
TEST(GoalReport, ASingleJobsGoalAndResponseCountItsSetUp) {
  testing::HandMadeRun run;
  run.Arrive(1, 0, OneMap("after set-up", seconds(10) - seconds(2)));
  run.Attempt({1, TaskKind::kMap, 0}, 0, 0, 4);
  run.Finish(1, JobPhase::kDone, 4);
  run.Arrive(2, 4, OneMap("set-up too long", seconds(1) - seconds(3)));
  run.Attempt({2, TaskKind::kMap, 0}, 0, 4, 5);
  run.Finish(2, JobPhase::kDone, 5);
  const std::vector<JobMetrics> first = ComputeJobMetrics(run.rec, seconds(2));
  EXPECT_EQ(first[0].goal_s, 10.0);
  EXPECT_EQ(first[0].met_goal, true);
  EXPECT_DOUBLE_EQ(*first[0].utility, 1 - 6.0 / 10);  // 4 s + 2 s of set-up
  const std::vector<JobMetrics> second = ComputeJobMetrics(run.rec, seconds(3));
  EXPECT_EQ(second[1].goal_s, 1.0);
  EXPECT_EQ(second[1].met_goal, false);
  EXPECT_DOUBLE_EQ(*second[1].utility, 1.0 / 4 - 1);  // 1 s + 3 s of set-up
}

}  // namespace
}  // namespace mrlocal
