// The goals chart of a run (goals.svg), a standalone SVG file: how the capacity left to
// MapReduce changed, what each job got of it, and whether it met its soft goal (the
// Reverse-Adaptive paper's question, DESIGN.md (shared) §3). Time on a shared x axis from
// 0 to the last finish (and the goals a little after it):
//   - top: f(t), the capacity left to MapReduce: per slot kind, the sum over its slots of
//     base speed x their node's availability a(t), a step function (one line for map
//     slots, one for reduce slots);
//   - below: each job's allocation, the number of slots running its attempts, as stacked
//     bands in the job's colour (JobColor, as in gantt.svg) in arrival order; each value
//     is the average over a couple of pixels' worth of time, so that a day-long run stays
//     a small file. A job's goal is a vertical line in its colour: solid with a dot when
//     met, dashed with a red cross when missed (late, failed, rejected or unfinished).
//     Hovering a band shows the job's arrival, finish, goal and peak allocation.
// Output is deterministic: same run, same bytes.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sched/core/slot_info.h"
#include "sched/core/speed_profile.h"
#include "sched/report/run_recorder.h"

namespace mrlocal {

struct GoalsOptions {
  std::string title = "mrlocal workload";
  double plot_width = 1000;  // pixels for the time axis
  size_t legend_jobs = 24;   // jobs named in the legend; the rest are counted
};

// Whether a run has something for this chart: a job with a goal, or a node whose
// availability is not 1.0 all along.
bool WantsGoalsChart(const RunRecorder& recorder,
                     const std::map<NodeId, SpeedProfile>& availability);

// `availability`: per node, its profile as the run applied it (a node without one is at
// 1.0); the slots' allocation needs the recorder's attempts (none kept: no bands).
std::string GoalsSvg(const RunRecorder& recorder, const std::vector<SlotInfo>& slots,
                     const std::map<NodeId, SpeedProfile>& availability,
                     const GoalsOptions& options = {});

}  // namespace mrlocal
