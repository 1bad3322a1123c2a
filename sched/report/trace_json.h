// trace.json: a run as Chrome trace events (opens in Perfetto and chrome://tracing). One
// track per slot, "node N map slot K (s=1.00)", with one slice per task attempt (args:
// job, attempt, ok, preempted, bytes, and the error of a failed one), and a controller
// track with instant events: each job's admission or rejection (with the reason), its
// absolute deadline, its partition plan and its end, and each launch decision.
//
// Big runs are capped, since a trace with millions of slices does not open: the first
// max_events attempts and decisions each (in report order; the recorder keeps at most
// RunRecorderOptions::max_decisions); a controller event says how many attempts were left
// out (tasks.csv has every attempt).
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "engine/status.h"
#include "sched/core/slot_info.h"
#include "sched/report/run_recorder.h"

namespace mrlocal {

struct TraceOptions {
  std::string process = "mrlocal";  // the name of the trace's one process
  size_t max_events = 1000000;      // attempts, and decisions, each
  // Decisions' measured wall time in their args. Off for simulated runs, whose trace is
  // then the same bytes for the same seed.
  bool decision_costs = true;
};

// Writes the trace atomically (a temporary file, then rename), a chunk at a time.
Status WriteTrace(const std::filesystem::path& file, const RunRecorder& recorder,
                  const std::vector<SlotInfo>& slots, const TraceOptions& options = {});

}  // namespace mrlocal
