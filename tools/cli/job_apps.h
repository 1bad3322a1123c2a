// The apps a job subcommand or a workload can run, as JobApps (tools/cli/job_runner.h).
#pragma once

#include <cstdint>

#include "tools/cli/job_runner.h"

namespace mrlocal {

JobApp WordCountApp();
JobApp FriendCountApp(bool list = false);
// Hadoop's Pi: `maps` index-driven maps of `samples` points each, one reduce.
JobApp PiApp(uint32_t maps, uint64_t samples);

}  // namespace mrlocal
