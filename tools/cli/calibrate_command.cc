// mrlocal calibrate [--apps wordcount,friendcount,pi] [--size 128MiB] [-o FILE]
// Measures, on the real engine, what the simulator's task model needs per app (sched/
// estimate/task_model.h; each app's calibration run is its AppDescriptor::calibrate):
// seconds per input unit of a map task at speed 1.0 and its fixed cost, the
// map output per input unit, and seconds per shuffled unit of a reduce task. Each app runs
// twice, with tasks of two sizes, on slots at full speed (by default one map and one
// reduce slot per CPU, so that tasks share the machine as they do in a busy workload), and
// a line is fitted through the tasks (least squares). The result is written atomically to
// the calibration file that `mrlocal workload --sim` reads by default.
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "engine/slot_worker.h"
#include "sched/core/cluster_spec.h"
#include "sched/core/units.h"
#include "sched/estimate/task_model.h"
#include "tools/cli/commands.h"
#include "tools/cli/exit_codes.h"
#include "tools/runtime/app_registry.h"
#include "tools/runtime/calibration_file.h"

namespace mrlocal {
namespace {

// The apps whose model is measured: those whose jobs do not declare their work.
std::vector<std::string> CalibratedApps() {
  std::vector<std::string> names;
  for (const std::string& name : AppRegistry::BuiltIn().Names())
    if ((*AppRegistry::BuiltIn().Find(name))->calibrate) names.push_back(name);
  return names;
}

void PrintModel(std::ostream& out, const std::string& app, const CalibrationResult& r) {
  const AppModel& m = r.model;
  char line[256];
  std::snprintf(line, sizeof line,
                "  %-11s map %.4g s + %.4g s/unit (%zu tasks), output %.4g units/unit, "
                "reduce %.4g s + %.4g s/unit (%zu tasks)\n",
                app.c_str(), m.map_fixed_s, m.map_s_per_unit, r.map_tasks, m.alpha,
                m.reduce_fixed_s, m.reduce_s_per_unit, r.reduce_tasks);
  out << line;
}

class CalibrateCommand final : public Command {
 public:
  explicit CalibrateCommand(CLI::App& root) {
    app = root.add_subcommand("calibrate",
                              "Measure the simulator's task-time model on the real engine and "
                              "write it to the calibration file");
    app->add_option("--apps", apps_, "Apps to calibrate")->delimiter(',')->capture_default_str();
    app->add_option("--size", size_, "Input per text app (pi: samples per map of the big run)")
        ->capture_default_str();
    app->add_option("--cluster", cluster_,
                    "Slots to measure on (default: one node per CPU, each (1m,1r,1.0), so "
                    "that tasks run side by side as in a busy workload)");
    app->add_option("-o,--output", file_,
                    "Calibration file (default: " + DefaultCalibrationPath().string() + ")");
  }

  int Run() override {
    auto size = ParseSize(size_);
    if (!size.ok())
      return ReportError(Status::InvalidArgument("--size: " + size.status().message()));
    if (*size < (1u << 20))
      return ReportError(Status::InvalidArgument("--size must be at least 1MiB"));
    Calibration c = Calibration::BuiltIn();
    if (auto existing = LoadDefaultCalibration(); existing.ok() && file_.empty()) c = *existing;
    const std::vector<std::string> known = CalibratedApps();
    for (const std::string& a : apps_) {
      if (std::find(known.begin(), known.end(), a) != known.end()) continue;
      std::string names;
      for (const std::string& n : known) names += (names.empty() ? "" : ", ") + n;
      return ReportError(
          Status::InvalidArgument("--apps: unknown app '" + a + "' (known: " + names + ")"));
    }
    ClusterSpec cluster = ClusterSpec::Default(static_cast<int>(AllowedCpus().size()));
    if (!cluster_.empty()) {
      auto c = ClusterSpec::Parse(cluster_);
      if (!c.ok()) return ReportError(c.status());
      cluster = *c;
    }
    for (const NodeGroup& g : cluster.groups())
      if (g.speed != 1.0)
        return ReportError(Status::InvalidArgument("--cluster: calibrate at speed 1.0 only"));
    std::cout << "calibrating on " << cluster.ToString() << ":\n";
    for (const std::string& a : apps_) {
      auto measured = (*AppRegistry::BuiltIn().Find(a))->calibrate(cluster, *size);
      if (!measured.ok()) return ReportError(measured.status());
      PrintModel(std::cout, a, *measured);
      c.apps[a] = measured->model;
    }
    std::filesystem::path path =
        file_.empty() ? DefaultCalibrationPath() : std::filesystem::path(file_);
    Status st = SaveCalibration(c, path);
    if (!st.ok()) return ReportError(st);
    std::cout << "wrote " << path.string() << "\n";
    return kExitOk;
  }

 private:
  std::vector<std::string> apps_ = CalibratedApps();
  std::string size_ = "128MiB";
  std::string file_;
  std::string cluster_;
};

}  // namespace

std::unique_ptr<Command> AddCalibrateCommand(CLI::App& root) {
  return std::make_unique<CalibrateCommand>(root);
}

}  // namespace mrlocal
