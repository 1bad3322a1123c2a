// OverloadDetector: which nodes it marks overloaded from one job's task slowdowns, and how
// a node comes back.
#include "sched/estimate/overload_detector.h"

#include <gtest/gtest.h>

namespace mrlocal {
namespace {

using std::chrono::seconds;

// Feeds task `i` of job 1 on `node` (its slot = node), started at `start_s`, that took
// `slowdown` times its 1 s estimate.
void Feed(OverloadDetector& d, uint32_t i, NodeId node, double start_s, double slowdown) {
  d.Observe({1, TaskKind::kMap, i}, node, node, FromSeconds(start_s),
            FromSeconds(start_s + slowdown), 1.0);
}

// Three tasks on each of nodes 0-2 at 1.0, 1.02 and 0.98 times their estimate.
void FeedHealthy(OverloadDetector& d) {
  uint32_t i = 0;
  for (double s : {1.0, 1.02, 0.98})
    for (NodeId n = 0; n < 3; ++n) Feed(d, i++, n, 0, s);
}

TEST(OverloadDetector, MarksANodeWhoseTaskIsASlowOutlier) {
  OverloadDetector d;
  FeedHealthy(d);
  EXPECT_TRUE(d.overloaded_nodes().empty());
  Feed(d, 20, 3, 0, 4.0);
  EXPECT_TRUE(d.overloaded(3));
  EXPECT_DOUBLE_EQ(d.slowdown(3), 4.0);
  EXPECT_DOUBLE_EQ(d.slowdown(0), 1.0);
  const std::optional<LofEvaluation> e = d.LastEvaluation(1);
  ASSERT_TRUE(e);
  EXPECT_EQ(e->at, seconds(4));
  EXPECT_EQ(e->tasks.size(), 10u);
  EXPECT_GT(e->tasks.back().lof, 1.5);
  for (size_t i = 0; i + 1 < e->tasks.size(); ++i) {
    EXPECT_LT(e->tasks[i].lof, 1.5) << i;
    EXPECT_FALSE(e->tasks[i].node_overloaded) << i;
  }
  d.ForgetJob(1);
  EXPECT_FALSE(d.LastEvaluation(1));
  EXPECT_TRUE(d.overloaded(3)) << "a node's status outlives the job";
}

TEST(OverloadDetector, ANodeFasterThanTheRestOrSlightlySlowIsNotOverloaded) {
  OverloadDetector d;
  FeedHealthy(d);
  Feed(d, 20, 3, 0, 0.25);  // an outlier, on the fast side
  EXPECT_FALSE(d.overloaded(3));
  EXPECT_GT(d.LastEvaluation(1)->tasks.back().lof, 1.5);
  Feed(d, 21, 4, 0, 1.15);  // an outlier by density, 15 % slow: noise, not overload
  EXPECT_FALSE(d.overloaded(4));
}

TEST(OverloadDetector, NeedsTwoNodesToCompare) {
  OverloadDetector d;
  for (uint32_t i = 0; i < 8; ++i) Feed(d, i, 0, 0, 1.0);
  Feed(d, 8, 0, 0, 5.0);
  EXPECT_FALSE(d.overloaded(0));
}

TEST(OverloadDetector, GivesAProbationTaskAfterTheCoolOffAndClearsTheNodeWhenItRecovers) {
  OverloadDetector d;
  FeedHealthy(d);
  Feed(d, 20, 3, 0, 4.0);  // ended at 4 s after 4 s: cool-off to 8 s
  EXPECT_FALSE(d.ProbationDue(3, seconds(7)));
  EXPECT_TRUE(d.ProbationDue(3, seconds(8)));
  EXPECT_FALSE(d.ProbationDue(0, seconds(8))) << "a healthy node needs no probation";
  d.StartProbation(3);
  EXPECT_FALSE(d.ProbationDue(3, seconds(9))) << "one at a time";
  Feed(d, 21, 3, 8, 3.0);  // still slow: out again until 11 + 3 s
  EXPECT_TRUE(d.overloaded(3));
  EXPECT_FALSE(d.ProbationDue(3, seconds(13)));
  EXPECT_TRUE(d.ProbationDue(3, seconds(14)));
  d.StartProbation(3);
  Feed(d, 22, 3, 14, 1.01);
  EXPECT_FALSE(d.overloaded(3));
  EXPECT_FALSE(d.LastEvaluation(1)->tasks.back().node_overloaded);
}

TEST(OverloadDetector, UsesTheMinPtsAndThresholdItIsGiven) {
  OverloadDetector strict({.lof_threshold = 100, .min_pts = 10});
  FeedHealthy(strict);
  Feed(strict, 20, 3, 0, 1.6);
  EXPECT_FALSE(strict.overloaded(3));
  OverloadDetector loose({.lof_threshold = 1.5, .min_pts = 10});
  FeedHealthy(loose);
  Feed(loose, 20, 3, 0, 1.6);
  EXPECT_TRUE(loose.overloaded(3));
}

// Found in simulation with noise sigma 0.15: a job's eighth task, 1.4x the others' median
// and a LOF of 5 among so few, made node 0 overloaded before anything slowed it.
TEST(OverloadDetector, NoiseAmongFewTasksIsNotOverload) {
  OverloadDetector d;
  const double others[] = {0.50, 0.54, 0.54, 0.57, 0.58, 0.59, 0.64};
  for (uint32_t i = 0; i < 7; ++i) Feed(d, i, 1 + static_cast<NodeId>(i % 3), 0, others[i]);
  Feed(d, 7, 0, 0, 0.80);
  EXPECT_FALSE(d.overloaded(0));
  Feed(d, 8, 0, 1, 1.20);  // twice the others: a hog's share of the core
  EXPECT_TRUE(d.overloaded(0));
}

}  // namespace
}  // namespace mrlocal
