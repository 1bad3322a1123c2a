// goals.svg: f(t) from the availability steps, each job's slots over time and its goal
// marked met or missed where it falls, stable bytes, and written only when a run has a
// goal or a varying availability.
#include "sched/report/goals_svg.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "hand_made_run.h"
#include "sched/report/bar_chart_svg.h"
#include "sched/report/workload_report.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;
using testing::HandMadeRun;
using testing::JobBuilder;

// Per node two map slots of speed 1.0 and a reduce slot of 0.5: node 0 has slots 0-2,
// node 1 slots 3-5.
std::vector<SlotInfo> Slots() {
  std::vector<SlotInfo> s;
  for (NodeId n : {0, 1}) {
    s.push_back({static_cast<SlotId>(s.size()), SlotKind::kMap, n, 1.0});
    s.push_back({static_cast<SlotId>(s.size()), SlotKind::kMap, n, 1.0});
    s.push_back({static_cast<SlotId>(s.size()), SlotKind::kReduce, n, 0.5});
  }
  return s;
}

// Node 1 at half speed over [4, 8): f(t) of the map slots is 4, then 2 + 2 x 0.5 = 3, then
// 4 again.
std::map<NodeId, SpeedProfile> HalfSpeedDip() {
  return {{1, SpeedProfile({seconds(4), seconds(8)}, {0.5, 1.0})}};
}

JobSpec WithGoal(const std::string& name, uint32_t maps, uint32_t reduces,
                 std::optional<Duration> goal) {
  JobSpec spec = JobBuilder().Name(name).Maps(maps).Reduces(reduces).Build();
  spec.goal = goal;
  return spec;
}

// Two jobs (seconds):
//   meets   arrives 0, goal 8 (at 8): maps [0,4] on slots 0 and 1, [0,3] on slot 3, a
//           reduce [4,6] on slot 2; done at 6: met. At most 3 slots at once, over [0,3).
//   misses  arrives 2, goal 3 (at 5): maps [2,7] on slot 4, [3,7] on slot 3; done at 7:
//           missed. At most 2 slots at once, over [3,7).
// The run ends at 7; the goal at 8 is within a quarter of that, so the time axis ends at 8.
RunRecorder TwoGoals() {
  HandMadeRun run;
  run.Arrive(1, 0, WithGoal("meets", 3, 1, seconds(8)));
  run.Attempt({1, TaskKind::kMap, 2}, 3, 0, 3);
  run.Arrive(2, 2, WithGoal("misses", 2, 0, seconds(3)));
  run.Attempt({1, TaskKind::kMap, 0}, 0, 0, 4);
  run.Attempt({1, TaskKind::kMap, 1}, 1, 0, 4);
  run.Attempt({1, TaskKind::kReduce, 0}, 2, 4, 6);
  run.Finish(1, JobPhase::kDone, 6);
  run.Attempt({2, TaskKind::kMap, 0}, 4, 2, 7);
  run.Attempt({2, TaskKind::kMap, 1}, 3, 3, 7);
  run.Finish(2, JobPhase::kDone, 7);
  return std::move(run.rec);
}

// The time axis: 0 s at x = 70, 8 s at x = 1070.
std::string XOf(double t) { return SvgNumber(70 + t / 8 * 1000, 1); }

struct GoalMark {
  std::string verdict, x, job;
};

// The goal markers drawn for jobs (the legend's samples have no job), in order.
std::vector<GoalMark> GoalMarks(const std::string& svg) {
  static const std::regex mark(
      "<g class=\"goal (met|missed)\"[^>]*><line x1=\"([0-9.]+)\"[^>]*/>(?:<[^>]*/>)+"
      "<title>goal of ([^:]*):");
  std::vector<GoalMark> marks;
  for (auto m = std::sregex_iterator(svg.begin(), svg.end(), mark); m != std::sregex_iterator();
       ++m)
    marks.push_back({(*m)[1], (*m)[2], (*m)[3]});
  return marks;
}

// The tooltip of the band of the job labelled `label`.
std::string BandTitle(const std::string& svg, const std::string& label) {
  const size_t at = svg.find("Z\"><title>" + label + ":");
  if (at == std::string::npos) return "no band for " + label;
  return svg.substr(at + 10, svg.find("</title>", at) - at - 10);
}

TEST(GoalsSvg, MarksEachGoalMetOrMissedAtItsTime) {
  const std::string svg = GoalsSvg(TwoGoals(), Slots(), HalfSpeedDip());
  const std::vector<GoalMark> marks = GoalMarks(svg);
  ASSERT_EQ(marks.size(), 2u) << svg;
  EXPECT_EQ(marks[0].job, "meets (job 1)");
  EXPECT_EQ(marks[0].verdict, "met");
  EXPECT_EQ(marks[0].x, XOf(8));
  EXPECT_EQ(marks[1].job, "misses (job 2)");
  EXPECT_EQ(marks[1].verdict, "missed");
  EXPECT_EQ(marks[1].x, XOf(5));
  EXPECT_NE(svg.find("goal of misses (job 2): 5 s, missed (late)"), std::string::npos);
}

TEST(GoalsSvg, CapacityStepsFollowTheAvailability) {
  const std::string svg = GoalsSvg(TwoGoals(), Slots(), HalfSpeedDip());
  // The top panel: y = 192 at capacity 0, 62 at the largest (4), so 3 is at 94.5.
  EXPECT_NE(svg.find("<path class=\"capacity map\" d=\"M70 62 H" + XOf(4) + " V94.5 H" + XOf(8) +
                     " V62 H" + XOf(8) + "\""),
            std::string::npos)
      << svg;
  EXPECT_NE(svg.find("<path class=\"capacity reduce\""), std::string::npos);
}

TEST(GoalsSvg, EachJobsBandReachesItsMostSlotsAtOnce) {
  const std::string svg = GoalsSvg(TwoGoals(), Slots(), HalfSpeedDip());
  EXPECT_EQ(BandTitle(svg, "meets (job 1)"),
            "meets (job 1): arrived 0 s, ended 6 s, goal 8 s met, peak 3 slots");
  EXPECT_EQ(BandTitle(svg, "misses (job 2)"),
            "misses (job 2): arrived 2 s, ended 7 s, goal 5 s missed (late), peak 2 slots");
}

TEST(GoalsSvg, SameRunSameBytes) {
  EXPECT_EQ(GoalsSvg(TwoGoals(), Slots(), HalfSpeedDip()),
            GoalsSvg(TwoGoals(), Slots(), HalfSpeedDip()));
}

// Whether WriteWorkloadReport wrote goals.svg for `recorder` under `availability`.
bool WritesGoalsSvg(const RunRecorder& recorder, std::map<NodeId, SpeedProfile> availability) {
  testing::ScratchDir dir;
  ReportOptions options;
  options.availability = std::move(availability);
  const Status st = WriteWorkloadReport(dir / "r", WorkloadMetrics{}, ComputeJobMetrics(recorder),
                                        recorder, Slots(), options);
  EXPECT_TRUE(st.ok()) << st.message();
  return std::filesystem::exists(dir / "r" / "goals.svg");
}

TEST(GoalsSvg, WrittenOnlyForGoalsOrAVaryingAvailability) {
  HandMadeRun run;
  run.Arrive(1, 0, WithGoal("no goal", 1, 0, std::nullopt));
  run.Attempt({1, TaskKind::kMap, 0}, 0, 0, 2);
  run.Finish(1, JobPhase::kDone, 2);
  EXPECT_FALSE(WritesGoalsSvg(run.rec, {}));
  EXPECT_FALSE(WritesGoalsSvg(run.rec, {{0, SpeedProfile({seconds(1)}, {1.0})}}));
  EXPECT_TRUE(WritesGoalsSvg(run.rec, HalfSpeedDip()));
  EXPECT_TRUE(WritesGoalsSvg(TwoGoals(), {}));
}

}  // namespace
}  // namespace mrlocal
