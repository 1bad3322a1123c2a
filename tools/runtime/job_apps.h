// The apps a job subcommand or a workload can run, as JobApps (tools/cli/job_runner.h).
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

}  // namespace mrlocal
