// Measuring an app's simulation model (sched/estimate/task_model.h) on the real engine, for
// `mrlocal calibrate`: its jobs run with tasks of two sizes on slots at full speed, and a
// line is fitted through the tasks (least squares). Each app's descriptor says which jobs
// (AppDescriptor::calibrate); this is what they share.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "engine/status.h"
#include "sched/core/cluster_spec.h"
#include "sched/estimate/task_model.h"
#include "tools/runtime/job_app.h"

namespace mrlocal {

// One task as measured: x = its input (bytes, samples or shuffled units), y = seconds.
struct TaskPoint {
  double x, y;
};

// What one calibration job's successful tasks took.
struct MeasuredJob {
  std::vector<TaskPoint> maps;                           // x = the map's input bytes
  std::vector<std::pair<uint32_t, double>> reduce_secs;  // reduce index, seconds
  std::vector<uint64_t> reduce_load;                     // the plan's units per reduce
  uint64_t map_output = 0;                               // size units, over all maps
};

// Runs `app` once on `cluster` under fifo with no output: over `data` in blocks of
// `block_size` (null data: an app without input), with `reduces` reduces. Internal when the
// job fails.
Result<MeasuredJob> MeasureJob(const ClusterSpec& cluster, const JobApp& app,
                               std::shared_ptr<const std::string> data, uint64_t block_size,
                               uint32_t reduces);

// The tasks of an app's calibration jobs.
struct CalibrationSamples {
  std::vector<TaskPoint> maps;
  std::vector<TaskPoint> reduces;  // x = shuffled units
  uint64_t map_input = 0;          // units, for the output ratio; 0: none measured
  uint64_t map_output = 0;
};

struct CalibrationResult {
  AppModel model;
  size_t map_tasks = 0;
  size_t reduce_tasks = 0;
};

// Least-squares lines through the samples (a negative intercept is noise: then the line
// through the origin), and the map output per input unit.
CalibrationResult FitModel(const CalibrationSamples& samples);

}  // namespace mrlocal
