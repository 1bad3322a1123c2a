// The real runtimes of the apps, as JobApps: what the job commands run, and what the app
// registry (tools/runtime/app_registry.h) makes of a workload's jobs.
#pragma once

#include <cstdint>
#include <vector>

#include "tools/runtime/job_app.h"

namespace mrlocal {

JobApp WordCountApp();
JobApp FriendCountApp(bool list = false);
// Hadoop's Pi: `maps` index-driven maps of `samples` points each, one reduce.
JobApp PiApp(uint32_t maps, uint64_t samples);
// Tasks that spin for their work (apps/spin.h): map i for map_s[i] seconds of CPU, and
// `reduce_s_total` seconds spread over `reduces` reduce tasks.
JobApp SyntheticApp(std::vector<double> map_s, double reduce_s_total, uint32_t reduces);

// A synthetic task's size units: one per microsecond of work at speed 1.0, as a Loadgen
// task's time follows its bytes (what the deadline policies' estimates are per).
uint64_t SyntheticUnits(double seconds);

}  // namespace mrlocal
