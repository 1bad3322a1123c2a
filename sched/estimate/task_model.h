// How long a task takes when it is not run but simulated: per app, an AppModel
// (sched/estimate/app_model.h) of seconds at slot speed 1.0, measured on the real engine
// by `mrlocal calibrate` and kept in a calibration file (tools/runtime/calibration_file.h;
// DESIGN.md (shared), §4). A task of W seconds of work on a slot of speed s(t) ends when
// the integral of s over its run reaches W. The model is the expected time, where the
// deadline policies' estimates are a worst case (tools/runtime/sim_jobs.h, ModelHistory).
#pragma once

#include <map>
#include <string>

#include "engine/status.h"
#include "sched/estimate/app_model.h"

namespace mrlocal {

struct Calibration {
  std::map<std::string, AppModel> apps;  // reduce_skew is 1: the model splits evenly
  std::string source;                    // the file it was read from, or "built-in"

  // Figures measured on the reference machine (README, "mrlocal calibrate"), used when no
  // calibration file exists.
  static Calibration BuiltIn();

  // The model of `app`; InvalidArgument naming the calibrated apps when it has none.
  Result<AppModel> Find(const std::string& app) const;
};

}  // namespace mrlocal
