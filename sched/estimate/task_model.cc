#include "sched/estimate/task_model.h"

namespace mrlocal {

Calibration Calibration::BuiltIn() {
  Calibration c;
  c.source = "built-in";
  // Measured with `mrlocal calibrate -o FILE` on the reference machine (2 cores, default
  // cluster 2x(1m,1r,1.0); README, "mrlocal calibrate"), rounded to 3 digits.
  c.apps["wordcount"] = {.alpha = 0.0694,
                         .map_fixed_s = 0.0148,
                         .map_s_per_unit = 4.62e-9,
                         .reduce_fixed_s = 0,
                         .reduce_s_per_unit = 1.69e-8};
  c.apps["friendcount"] = {.alpha = 0.145,
                           .map_fixed_s = 0.757,
                           .map_s_per_unit = 2.49e-8,
                           .reduce_fixed_s = 0.169,
                           .reduce_s_per_unit = 1.15e-7};
  c.apps["pi"] = {.alpha = 0,
                  .map_fixed_s = 0.000918,
                  .map_s_per_unit = 2.02e-9,
                  .reduce_fixed_s = 0.0000534,
                  .reduce_s_per_unit = 0};
  return c;
}

Result<AppModel> Calibration::Find(const std::string& app) const {
  auto it = apps.find(app);
  if (it != apps.end()) return it->second;
  std::string names;
  for (auto& [n, m] : apps) names += (names.empty() ? "" : ", ") + n;
  return Status::InvalidArgument("no calibrated model for app '" + app + "' in " + source +
                                 " (calibrated: " + names + ")");
}

}  // namespace mrlocal
