// ClusterSpec: parsing (valid and invalid, table-driven), canonical form, slot expansion.
#include "sched/core/cluster_spec.h"

#include <gtest/gtest.h>

namespace mrlocal {
namespace {

TEST(ClusterSpec, ParsesValidSpecs) {
  struct Case {
    std::string text;
    std::vector<NodeGroup> groups;
    std::string canonical;
    int nodes, maps, reduces;
  };
  const std::vector<Case> cases = {
      {"2x(4m,1r,1.0)+1x(2m,1r,0.5)",
       {{2, 4, 1, 1.0}, {1, 2, 1, 0.5}},
       "2x(4m,1r,1.0)+1x(2m,1r,0.5)",
       3,
       10,
       3},
      {"  2 x ( 4m , 1 r , 1 )  ", {{2, 4, 1, 1.0}}, "2x(4m,1r,1.0)", 2, 8, 2},
      {"1X(0M,1R,.25)+1x(1m,0r,1)",
       {{1, 0, 1, 0.25}, {1, 1, 0, 1.0}},
       "1x(0m,1r,0.25)+1x(1m,0r,1.0)",
       2,
       1,
       1},
      {"20x(4m,1r,1.0)+10x(2m,1r,0.5)",
       {{20, 4, 1, 1.0}, {10, 2, 1, 0.5}},
       "20x(4m,1r,1.0)+10x(2m,1r,0.5)",
       30,
       100,
       30},  // RTMR's Table I cluster
      {"1x(1m,1r,0.333333333333)",
       {{1, 1, 1, 0.333333333333}},
       "1x(1m,1r,0.333333333333)",
       1,
       1,
       1},
      {"1x(1024m,1024r,1)", {{1, 1024, 1024, 1.0}}, "1x(1024m,1024r,1.0)", 1, 1024, 1024},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.text);
    auto spec = ClusterSpec::Parse(c.text);
    ASSERT_TRUE(spec.ok()) << spec.status().message();
    EXPECT_EQ(spec->groups(), c.groups);
    EXPECT_EQ(spec->ToString(), c.canonical);
    EXPECT_EQ(spec->nodes(), c.nodes);
    EXPECT_EQ(spec->map_slots(), c.maps);
    EXPECT_EQ(spec->reduce_slots(), c.reduces);
    auto again = ClusterSpec::Parse(spec->ToString());
    ASSERT_TRUE(again.ok());
    EXPECT_EQ(*again, *spec);
  }
}

// Found by tests/fuzz/cluster_spec_fuzz: a speed too small for 64 characters of fixed
// notation was printed as 1.0, so the canonical form named another cluster.
TEST(ClusterSpec, TheCanonicalFormKeepsEvenTheSmallestSpeed) {
  for (std::string speed : {"0." + std::string(46, '0') + "4355481239625865798",
                            "0." + std::string(323, '0') + "5"}) {  // the smallest double
    auto spec = ClusterSpec::Parse("1x(1m,1r," + speed + ")");
    ASSERT_TRUE(spec.ok()) << spec.status().message();
    EXPECT_GT(spec->groups()[0].speed, 0);
    auto again = ClusterSpec::Parse(spec->ToString());
    ASSERT_TRUE(again.ok()) << again.status().message();
    EXPECT_EQ(*again, *spec) << spec->ToString();
  }
}

TEST(ClusterSpec, RejectsInvalidSpecsPointingAtTheBadPart) {
  struct Case {
    std::string text;
    std::string what;  // the message up to " (form: ..."
  };
  const std::vector<Case> cases = {
      {"2x(4m,1r)", "expected ',' and a speed at position 9"},
      {"", "expected a node count at position 1"},
      {"   ", "expected a node count at position 4"},
      {"0x(1m,1r,1.0)", "a group needs at least 1 node at position 1"},
      {"1x(1m,1r,1.5)", "speed must be in (0, 1] at position 10"},
      {"1x(1m,1r, 0)", "speed must be in (0, 1] at position 11"},
      {"1x(1m,1r,-0.5)", "expected a speed in (0, 1] such as 0.5 at position 10"},
      {"1x(1m,1r,1.0.0)", "expected a speed in (0, 1] such as 0.5 at position 10"},
      {"1x(1m,1r,1e-1)", "expected ')' at position 11"},
      {"1x(1m,1r,1.0)+", "expected a node count at position 15"},
      {"1x(1m,1r,1.0)2x(1m,1r,1.0)", "expected '+' or the end at position 14"},
      {"1x(1m;1r,1.0)", "expected ',' at position 6"},
      {"1x(1r,1m,1.0)", "expected 'm' after the map slots at position 5"},
      {"1(1m,1r,1.0)", "expected 'x' after the node count at position 2"},
      {"1x1m,1r,1.0", "expected '(' at position 3"},
      {"x(1m,1r,1.0)", "expected a node count at position 1"},
      {"1x(m,1r,1.0)", "expected the number of map slots at position 4"},
      {"1x(1m,r,1.0)", "expected the number of reduce slots at position 7"},
      {"1x(1m,1,1.0)", "expected 'r' after the reduce slots at position 8"},
      {"200000x(1m,1r,1.0)", "more than 100000 nodes at position 1"},
      {"99999999999999999999x(1m,1r,1.0)", "more than 100000 nodes at position 1"},
      {"1x(2000m,1r,1.0)", "more than 1024 map slots per node at position 4"},
      {"1x(1m,2000r,1.0)", "more than 1024 reduce slots per node at position 7"},
      {"1000x(1024m,1r,1)", "more than 1000000 slots at position 1"},
  };
  for (const Case& c : cases) {
    auto spec = ClusterSpec::Parse(c.text);
    ASSERT_FALSE(spec.ok()) << c.text;
    EXPECT_EQ(spec.status().code(), Status::Code::kInvalidArgument);
    const std::string m = spec.status().message();
    EXPECT_EQ(m, "--cluster '" + c.text + "': " + c.what +
                     " (form: N x (Mm,Rr,S[,Tt]), e.g. 2x(4m,1r,1.0)+1x(2m,1r,0.5) or "
                     "50x(1m,1r,1.0,1t))");
    EXPECT_EQ(m.find('\n'), std::string::npos);
  }
}

TEST(ClusterSpec, NeedsAMapSlotAndAReduceSlotSomewhere) {
  for (std::string text : {"2x(0m,1r,1.0)", "2x(1m,0r,1.0)", "1x(0m,0r,1.0)"}) {
    auto spec = ClusterSpec::Parse(text);
    ASSERT_FALSE(spec.ok()) << text;
    EXPECT_EQ(
        spec.status().message(),
        "--cluster '" + text + "': the cluster needs at least one map slot and one reduce slot");
  }
}

TEST(ClusterSpec, DefaultIsOneFullSpeedNodePerCpu) {
  EXPECT_EQ(ClusterSpec::Default(2).ToString(), "2x(1m,1r,1.0)");
  EXPECT_EQ(ClusterSpec::Default(1).ToString(), "1x(1m,1r,1.0)");
  EXPECT_EQ(ClusterSpec::Default(0).ToString(), "1x(1m,1r,1.0)");  // at least one
  EXPECT_EQ(ClusterSpec::Default(-3).nodes(), 1);
  EXPECT_EQ(ClusterSpec::Default(64).map_slots(), 64);
}

TEST(ClusterSpec, ExpandsIntoMapSlotsThenReduceSlotsInNodeOrder) {
  auto spec = ClusterSpec::Parse("1x(2m,1r,1.0)+2x(1m,1r,0.5)");
  ASSERT_TRUE(spec.ok());
  struct Want {
    SlotKind kind;
    NodeId node;
    double speed;
  };
  const std::vector<Want> want = {
      {SlotKind::kMap, 0, 1.0},    {SlotKind::kMap, 0, 1.0},    {SlotKind::kMap, 1, 0.5},
      {SlotKind::kMap, 2, 0.5},    {SlotKind::kReduce, 0, 1.0}, {SlotKind::kReduce, 1, 0.5},
      {SlotKind::kReduce, 2, 0.5},
  };
  std::vector<SlotInfo> slots = spec->Slots();
  ASSERT_EQ(slots.size(), want.size());
  for (size_t i = 0; i < slots.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_EQ(slots[i].id, static_cast<SlotId>(i));
    EXPECT_EQ(slots[i].kind, want[i].kind);
    EXPECT_EQ(slots[i].node, want[i].node);
    EXPECT_EQ(slots[i].speed, want[i].speed);
  }
}

}  // namespace
}  // namespace mrlocal
