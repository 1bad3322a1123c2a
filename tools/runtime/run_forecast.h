// The capacity forecast a run's policies are given (sched/estimate/capacity_forecast.h):
// one per run, made by the front end, for real and simulated runs alike.
#pragma once

#include <map>
#include <memory>
#include <vector>

#include "datasets/workload_spec.h"
#include "sched/core/slot_info.h"
#include "sched/core/speed_profile.h"
#include "sched/estimate/capacity_forecast.h"

namespace mrlocal {

// A workload's: its kind (spec.forecast), over each node's forecast profile (an
// availability entry's `forecast`, else its steps), on `slots` at their base speeds.
// REQUIRES: spec's nodes are of `slots` (CheckAvailability).
std::shared_ptr<CapacityForecast> SpecForecast(const WorkloadSpec& spec,
                                               const std::vector<SlotInfo>& slots);

// A run without a spec (a job command): the availability given, known in advance, or a
// constant forecast when there is none.
std::shared_ptr<CapacityForecast> DefaultForecast(
    const std::vector<SlotInfo>& slots, const std::map<NodeId, SpeedProfile>& availability);

// A spec's steps as a step function of time.
SpeedProfile ToSpeedProfile(const std::vector<ProfileStep>& steps);

}  // namespace mrlocal
