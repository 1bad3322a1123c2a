// AvailabilityLoad: a burner on each CPU that holds slots of a node with a profile, at the
// duty that leaves those slots a x their base speeds, and a refusal, naming the nodes, when
// one CPU would have to follow two profiles. The burners' CPU is CpuBurner's test's.
#include "tools/runtime/availability_load.h"

#include <gtest/gtest.h>

#include <utility>

#include "tools/runtime/runtime.h"

namespace mrlocal {
namespace {

// Slots of the given nodes and base speeds, in that order.
std::vector<SlotInfo> Slots(const std::vector<std::pair<NodeId, double>>& node_speeds) {
  std::vector<SlotInfo> slots;
  for (const auto& [node, speed] : node_speeds)
    slots.push_back({.id = SlotId(slots.size()), .node = node, .speed = speed});
  return slots;
}

const SpeedProfile kHalfAtOne{{FromSeconds(1)}, {0.5}};
const SpeedProfile kQuarterAtTwo{{FromSeconds(2)}, {0.25}};

TEST(AvailabilityLoad, FollowsEachNodesAvailabilityOnItsSlotsCpus) {
  // Node 0's two slots (0.5 each) on CPU 3, node 1's on CPU 5, node 2's (no profile) on 7.
  auto load =
      AvailabilityLoad::Make(Slots({{0, 0.5}, {0, 0.5}, {1, 0.5}, {1, 0.5}, {2, 0.5}, {2, 0.5}}),
                             {3, 3, 5, 5, 7, 7}, {{0, kHalfAtOne}, {1, kQuarterAtTwo}});
  ASSERT_TRUE(load.ok()) << load.status().message();
  EXPECT_EQ((*load)->burners(), 2u);
  EXPECT_EQ((*load)->duty(3), 0.0);  // availability 1 before the first step: the slots' CPU
  EXPECT_EQ((*load)->duty(7), std::nullopt);
  (*load)->SetAvailability(0, 0.5);
  EXPECT_DOUBLE_EQ(*(*load)->duty(3), 0.5);  // 1 - 0.5 x (0.5 + 0.5)
  EXPECT_EQ((*load)->duty(5), 0.0);
  (*load)->SetAvailability(1, 0.25);
  EXPECT_DOUBLE_EQ(*(*load)->duty(5), 0.75);
  (*load)->SetAvailability(2, 0.1);  // no burner follows node 2
  EXPECT_EQ((*load)->duty(7), std::nullopt);
}

// Slots whose base speeds leave part of the CPU: the burner takes that part too, so that
// they get a x their base speeds and not more.
TEST(AvailabilityLoad, TakesWhatTheSlotsBaseSpeedsLeave) {
  auto load = AvailabilityLoad::Make(Slots({{0, 0.25}, {0, 0.25}, {0, 0.25}}), {0, 0, 0},
                                     {{0, kHalfAtOne}});
  ASSERT_TRUE(load.ok()) << load.status().message();
  EXPECT_DOUBLE_EQ(*(*load)->duty(0), 0.25);
  (*load)->SetAvailability(0, 0.5);
  EXPECT_DOUBLE_EQ(*(*load)->duty(0), 0.625);
}

TEST(AvailabilityLoad, NodesOfOneProfileMayShareACpu) {
  auto load = AvailabilityLoad::Make(Slots({{0, 0.5}, {1, 0.5}}), {0, 0},
                                     {{0, kHalfAtOne}, {1, SpeedProfile{{FromSeconds(1)}, {0.5}}}});
  ASSERT_TRUE(load.ok()) << load.status().message();
  (*load)->SetAvailability(1, 0.5);
  EXPECT_DOUBLE_EQ(*(*load)->duty(0), 0.5);
}

TEST(AvailabilityLoad, RefusesACpuSharedByNodesOfDifferentProfiles) {
  auto differ = AvailabilityLoad::Make(Slots({{0, 0.5}, {1, 0.5}}), {4, 4},
                                       {{0, kHalfAtOne}, {1, kQuarterAtTwo}});
  ASSERT_FALSE(differ.ok());
  EXPECT_EQ(differ.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(differ.status().message(),
            "--availability-as load: nodes 0 and 1 have slots on CPU 4 but different "
            "availability profiles, and one load per CPU cannot follow both: give them the same "
            "profile, or use --availability-as throttle");

  auto none = AvailabilityLoad::Make(Slots({{0, 0.5}, {1, 0.5}}), {4, 4}, {{1, kHalfAtOne}});
  ASSERT_FALSE(none.ok());
  EXPECT_NE(none.status().message().find("nodes 0 and 1 have slots on CPU 4 but different "
                                         "availability profiles (node 0 has none)"),
            std::string::npos)
      << none.status().message();
}

TEST(AvailabilityLoad, RefusesUnpinnedSlotsOfANodeWithAProfile) {
  auto load = AvailabilityLoad::Make(Slots({{0, 1.0}, {1, 1.0}}), {-1, -1}, {{1, kHalfAtOne}});
  ASSERT_FALSE(load.ok());
  EXPECT_NE(load.status().message().find("node 1's slots are not pinned"), std::string::npos);
  EXPECT_TRUE(AvailabilityLoad::Make(Slots({{0, 1.0}, {1, 1.0}}), {-1, -1}, {}).ok());
}

// In simulation the profiles are the load already: a runtime refuses to add one.
TEST(AvailabilityLoad, ASimulatedRuntimeRefusesIt) {
  RuntimeOptions options;
  options.cluster = ClusterSpec::Default(1);
  options.availability[0] = kHalfAtOne;
  options.availability_as = AvailabilityAs::kLoad;
  auto runtime = Runtime::Simulated(std::move(options));
  ASSERT_FALSE(runtime.ok());
  EXPECT_NE(runtime.status().message().find("--availability-as load runs on the real engine"),
            std::string::npos)
      << runtime.status().message();
}

}  // namespace
}  // namespace mrlocal
