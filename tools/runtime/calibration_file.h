// The calibration file: the simulator's task model per app (sched/estimate/task_model.h)
// as `mrlocal calibrate` measures it and `mrlocal workload --sim` reads it.
//   {"apps": {"wordcount": {"map_s_per_unit": ..., "map_task_s": ...,
//    "output_per_unit": ..., "reduce_s_per_unit": ..., "reduce_task_s": ...}}}
// The file's names are those of the first calibration files (map_task_s is
// AppModel::map_fixed_s, output_per_unit its alpha, reduce_task_s its reduce_fixed_s), so
// that every file ever written still loads.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "engine/status.h"
#include "sched/estimate/task_model.h"

namespace mrlocal {

// $MRLOCAL_CALIBRATION, else $XDG_DATA_HOME/mrlocal/calibration.json, else
// ~/.local/share/mrlocal/calibration.json.
std::filesystem::path DefaultCalibrationPath();

// The file at `path`; apps it does not name keep their built-in models. A missing file is
// NotFound, a malformed one InvalidArgument naming the file and the field.
Result<Calibration> LoadCalibration(const std::filesystem::path& path);
// The apps the file at `path` names, as written there (no built-in model added); errors as
// LoadCalibration's.
Result<std::map<std::string, AppModel>> ReadCalibratedApps(const std::filesystem::path& path);
// The default file if it exists, else Calibration::BuiltIn(). A file that exists but
// cannot be read is an error, never silently replaced.
Result<Calibration> LoadDefaultCalibration();
// Written atomically (a temporary file, then rename); creates the directory.
Status SaveCalibration(const Calibration& calibration, const std::filesystem::path& path);
// What `mrlocal calibrate` writes: the models of the apps in `measured` replace theirs in
// the file at `path`, and every other app the file names is kept as it is. A missing file
// is created with `measured` alone; a malformed one is an error and left untouched. Written
// atomically. Returns the names of the apps kept.
Result<std::vector<std::string>> UpdateCalibration(const std::filesystem::path& path,
                                                   const std::map<std::string, AppModel>& measured);

}  // namespace mrlocal
