// The partition tests' one helper: plan with a registered partitioner, failing the test
// (not crashing) when the name or the plan is refused.
#pragma once

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

#include "sched/partition/partitioner.h"

namespace mrlocal {

inline PartitionPlan MustPlan(std::string_view name, const CountMinSketch& s,
                              const std::vector<double>& speeds) {
  auto p = MakePartitioner(name);
  EXPECT_TRUE(p.ok()) << p.status().message();
  if (!p.ok()) return PartitionPlan{};
  auto plan = (*p)->Plan(s, speeds);
  EXPECT_TRUE(plan.ok()) << name << ": " << plan.status().message();
  return plan.ok() ? std::move(plan).value() : PartitionPlan{};
}

}  // namespace mrlocal
