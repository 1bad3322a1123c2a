// overload.svg (DynamicShare Fig. 6): a bar per task in each panel, the overloaded node's
// tasks red, an infinite LOF drawn to the top and marked, the job's name escaped.
#include "sched/report/lof_snapshot_svg.h"

#include <gtest/gtest.h>

#include <limits>

namespace mrlocal {
namespace {

size_t Count(const std::string& s, const std::string& what) {
  size_t n = 0;
  for (size_t at = s.find(what); at != std::string::npos; at = s.find(what, at + what.size())) ++n;
  return n;
}

LofEvaluation Snapshot() {
  LofEvaluation e;
  e.at = FromSeconds(28);
  e.lof_threshold = 1.5;
  for (uint32_t i = 0; i < 5; ++i)
    e.tasks.push_back({{1, TaskKind::kMap, i}, static_cast<NodeId>(1 + i % 2), 2, 1.0, 1.0, false});
  e.tasks.push_back(
      {{1, TaskKind::kMap, 5}, 0, 0, 4.0, std::numeric_limits<double>::infinity(), true});
  return e;
}

TEST(LofSnapshotSvg, TwoPanelsOfOneBarPerTaskWithTheOverloadedNodeInRed) {
  const std::string svg = LofSnapshotSvg(Snapshot(), "job<1>");
  EXPECT_EQ(Count(svg, "<rect x="), 2u * 6 + 2);  // two panels, and the legend's two swatches
  EXPECT_EQ(Count(svg, "fill=\"#e15759\"><title>"), 2u);  // node 0's task, once per panel
  EXPECT_NE(svg.find("overloaded: node 0"), std::string::npos);
  EXPECT_NE(svg.find("LOF infinite"), std::string::npos);
  EXPECT_EQ(Count(svg, "&#8734;"), 1u);
  EXPECT_NE(svg.find("threshold 1.5"), std::string::npos);
  EXPECT_NE(svg.find("job&lt;1&gt;"), std::string::npos);
  EXPECT_EQ(svg.find("nan"), std::string::npos);
  EXPECT_EQ(svg.find("inf<"), std::string::npos);
  EXPECT_EQ(svg, LofSnapshotSvg(Snapshot(), "job<1>"));  // deterministic
}

TEST(LofSnapshotSvg, NoTasksSaysSo) {
  LofEvaluation e;
  const std::string svg = LofSnapshotSvg(e, "j");
  EXPECT_NE(svg.find("0 tasks"), std::string::npos);
  EXPECT_NE(svg.find("no node marked overloaded"), std::string::npos);
  EXPECT_EQ(svg.substr(svg.size() - 7), "</svg>\n");
}

}  // namespace
}  // namespace mrlocal
