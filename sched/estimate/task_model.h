// How long a task takes when it is not run but simulated: per app, seconds of work per
// input unit at slot speed 1.0, measured on the real engine by `mrlocal calibrate` and kept
// in a calibration file (DESIGN.md §4). A task of W seconds of work on a slot of speed s(t)
// ends when the integral of s over its run reaches W.
//
// Units: bytes of input for text apps (wordcount, friendcount); samples for pi. Map output
// and reduce input are in the engine's "size units" (what the sketches count), which is
// what the reduce cost is per.
#pragma once

#include <filesystem>
#include <map>
#include <string>

#include "engine/status.h"

namespace mrlocal {

struct AppModel {
  double map_s_per_unit = 0;     // seconds per input unit at speed 1.0
  double map_task_s = 0;         // fixed cost of a map task (start, split read, combine)
  double output_per_unit = 0;    // map output size units per input unit
  double reduce_s_per_unit = 0;  // seconds per size unit shuffled to the reduce
  double reduce_task_s = 0;      // fixed cost of a reduce task

  double MapSeconds(double units) const { return map_task_s + map_s_per_unit * units; }
  double ReduceSeconds(double units) const { return reduce_task_s + reduce_s_per_unit * units; }
};

struct Calibration {
  std::map<std::string, AppModel> apps;
  std::string source;  // the file it was read from, or "built-in"

  // Figures measured on the reference machine (README, "Calibration"), used when no
  // calibration file exists.
  static Calibration BuiltIn();
  // $MRLOCAL_CALIBRATION, else $XDG_DATA_HOME/mrlocal/calibration.json, else
  // ~/.local/share/mrlocal/calibration.json.
  static std::filesystem::path DefaultPath();
  // The file at `path`; a missing file is NotFound, a malformed one InvalidArgument naming
  // the file and the field.
  static Result<Calibration> Load(const std::filesystem::path& path);
  // The default file if it exists, else BuiltIn(). A file that exists but cannot be read
  // is an error, never silently replaced.
  static Result<Calibration> LoadDefault();
  // Written atomically (a temporary file, then rename); creates the directory.
  Status Save(const std::filesystem::path& path) const;

  // The model of `app`; InvalidArgument naming the calibrated apps when it has none.
  Result<AppModel> Find(const std::string& app) const;
};

}  // namespace mrlocal
