// What an estimator is asked about, built by hand for the estimate tests: a job as it
// arrives (its splits and reduces) and the slots it would run on.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sched/core/cluster_state.h"

namespace mrlocal::testing {

// A job of `app` with one map per split (its input units) and `reduces` reduces.
inline JobState JobOfSplits(const std::string& app, const std::vector<uint64_t>& splits,
                            uint32_t reduces) {
  JobState j;
  j.spec.app = app;
  for (uint64_t b : splits) {
    TaskState t;
    t.input_bytes = b;
    j.maps.push_back(t);
  }
  j.reduces.resize(reduces);
  return j;
}

// One slot per (kind, speed), numbered in order.
inline ClusterState SlotsOf(const std::vector<std::pair<SlotKind, double>>& slots) {
  ClusterState s;
  for (auto [kind, speed] : slots) {
    SlotState slot;
    slot.info.id = static_cast<SlotId>(s.slots.size());
    slot.info.kind = kind;
    slot.info.speed = speed;
    s.slots.push_back(slot);
  }
  return s;
}

}  // namespace mrlocal::testing
