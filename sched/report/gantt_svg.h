// A Gantt chart of a workload run as a standalone SVG file (opens in any browser): one row
// per slot ("node N map slot K"), time on the x axis, one bar per task attempt coloured by
// its job. Hovering a bar shows its job, task and times (<title>). Jobs' absolute
// deadlines are ticks in the job's colour on a lane above the rows; attempts of jobs that
// missed their deadline have a red outline; preempted attempts are faded and dashed,
// failed ones faded with a black outline. A legend explains all of it.
//
// Big runs are capped so that the file stays a few MB: the first max_slots slots, the
// max_bars earliest-starting attempts on them (the time axis then ends where the first
// omitted attempt starts) and max_deadlines deadline ticks; the title says what was left
// out. tasks.csv always has everything.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "sched/core/slot_info.h"
#include "sched/report/run_recorder.h"

namespace mrlocal {

struct GanttOptions {
  std::string title = "mrlocal workload";
  size_t max_slots = 400;
  size_t max_bars = 50000;
  size_t max_deadlines = 10000;
  double plot_width = 1200;  // pixels for the time axis
};

std::string GanttSvg(const RunRecorder& recorder, const std::vector<SlotInfo>& slots,
                     const GanttOptions& options = {});

// The job's colour, "#rrggbb": golden-angle hues from the id, so neighbouring ids differ
// and a job keeps its colour across reports.
std::string JobColor(JobId id);

// "name (job N)", or "job N" for a job without a name or record (null `j`).
std::string JobLabel(const JobRecord* j, JobId id);

// The key to the jobs' colours under a chart: a swatch and `label(job)` for each of the
// first `shown` jobs, `columns` of them a row (300 px apart, 16 px a row) from (left,
// top), then "and N more jobs" under them when some are left out.
std::string JobColorKey(const std::vector<JobRecord>& jobs, size_t shown, size_t columns,
                        double left, double top,
                        const std::function<std::string(const JobRecord&)>& label);

}  // namespace mrlocal
