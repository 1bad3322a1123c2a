// The Reverse-Adaptive paper's three experiments as generated workloads
// (../shared/papers/reverse-adaptive-shared-environments.txt, section "Evaluation"):
//
//   ra-alone   Experiment 1: MapReduce alone on the cluster (availability 1 throughout)
//   ra-web     Experiment 2: beside a transactional (web) load that follows the day: every
//              node's availability a daily sinusoid between `trough` and 1
//   ra-bursty  Experiment 3: the same day with bursts of load on top (a Poisson stream of
//              bursts, each taking the nodes to 0.3 of what the day leaves them)
//
// The paper gives no job mix, goals or sizes, so these are ours (README, "Goals under
// varying capacity", has the reasons). Everything is sized to the cluster the workload runs
// on, so that `--cluster` makes the same experiment smaller or slower, not a different one:
//   unit    = map-s / the map slots' mean speed: a mean map's seconds at availability 1
//   day     = 90 units (the period of the sinusoid; its phase drawn per seed)
//   jobs    = 60 % small (1 to S/2 maps), 30 % medium (S to 3S), 10 % large (5S to 8S), S the
//             map slots; R = ceil(maps / 20) reduces (at most the reduce slots); a job's
//             maps take N(1, 0.25) x map-s each (the job's own mean, at least 0.1 x
//             map-s), its reduces 1.5x that
//   arrival = Poisson, at the rate that offers `load` x the map slots' mean capacity (base
//             speeds x mean availability) of map work
//   goal_s  = goal-factor x the job's time alone on the cluster at the mean availability
//             (its waves of maps and reduces at availability 1, over that mean)
// The forecast the policies are told (`--forecast known`) is the day, exact unless
// forecast-shift moves it (a wrong forecast); the bursts are never in it.
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "datasets/workload_presets.h"

namespace mrlocal {

inline constexpr std::string_view kGoalPresetCluster = "10x(4m,1r,1.0)";

bool IsGoalPreset(std::string_view name);
std::span<const PresetParameter> GoalPresetParameters();
// REQUIRES: IsGoalPreset(name), parameters checked (CheckPresetParameter).
Result<WorkloadSpec> MakeGoalPreset(std::string_view name, uint64_t seed,
                                    const PresetOptions& options);

}  // namespace mrlocal
