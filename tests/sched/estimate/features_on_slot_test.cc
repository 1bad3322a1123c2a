// FeaturesOnSlot counts the attempts on the slot's other slots of its node: from the
// Controller's per-node count when the state has one, by scanning the slots otherwise; both
// give the same.
#include <gtest/gtest.h>

#include "sched/estimate/estimator.h"

namespace mrlocal {
namespace {

ClusterState TwoNodes() {
  ClusterState s;
  s.nodes = 2;
  for (int id = 0; id < 6; ++id)
    s.slots.push_back(
        {{id, id % 3 == 2 ? SlotKind::kReduce : SlotKind::kMap, id / 3, 1.0}, {}, 0, {}});
  JobState job;
  job.id = 1;
  job.maps.resize(4);
  job.maps[3].input_bytes = 1000;
  s.jobs.emplace(1, job);
  // Node 0: slots 0 and 2 busy; node 1: slot 4.
  for (int id : {0, 2, 4})
    s.slots[id].task = TaskRef{1, TaskKind::kMap, static_cast<uint32_t>(id / 2)};
  return s;
}

TEST(FeaturesOnSlot, CountsTheOtherAttemptsOnTheNodeEitherWay) {
  ClusterState scanned = TwoNodes();
  ClusterState counted = TwoNodes();
  counted.running_on_node = {2, 1};
  const JobState& job = scanned.job(1);
  for (const ClusterState* s : {&scanned, &counted}) {
    // Slot 1 (free, node 0): slots 0 and 2 run. Slot 0 (busy): only slot 2 is another.
    EXPECT_EQ(FeaturesOnSlot(job, {1, TaskKind::kMap, 3}, s->slots[1].info, *s).node_tasks, 2);
    EXPECT_EQ(FeaturesOnSlot(job, {1, TaskKind::kMap, 3}, s->slots[0].info, *s).node_tasks, 1);
    EXPECT_EQ(FeaturesOnSlot(job, {1, TaskKind::kMap, 3}, s->slots[3].info, *s).node_tasks, 1);
    const TaskFeatures f = FeaturesOnSlot(job, {1, TaskKind::kMap, 3}, s->slots[5].info, *s);
    EXPECT_EQ(f.units, 1000);
    EXPECT_EQ(f.kind, TaskKind::kMap);
  }
}

}  // namespace
}  // namespace mrlocal
