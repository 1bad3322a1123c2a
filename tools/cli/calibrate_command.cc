// mrlocal calibrate [--apps wordcount,friendcount,pi] [--size 128MiB] [-o FILE]
// Measures, on the real engine, what the simulator's task model needs per app (sched/
// estimate/task_model.h; each app's calibration run is its AppDescriptor::calibrate):
// seconds per input unit of a map task at speed 1.0 and its fixed cost, the
// map output per input unit, and seconds per shuffled unit of a reduce task. Each app runs
// twice, with tasks of two sizes, on slots at full speed (by default one map and one
// reduce slot per CPU, so that tasks share the machine as they do in a busy workload), and
// a line is fitted through the tasks (least squares). The apps measured are updated in the
// calibration file that `mrlocal workload --sim` reads by default, atomically; the file's
// other apps are kept.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <map>

#include "engine/slot_worker.h"
#include "sched/core/cluster_spec.h"
#include "sched/core/units.h"
#include "sched/estimate/task_model.h"
#include "tools/cli/commands.h"
#include "tools/cli/option_checks.h"
#include "tools/runtime/app_registry.h"
#include "tools/runtime/calibration_file.h"
#include "tools/runtime/exit_codes.h"

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

// Calibration measures tasks at full speed: the model is per unit of speed.
CLI::Validator FullSpeed() {
  return CLI::Validator(
      [](std::string& text) -> std::string {
        auto c = ClusterSpec::Parse(text);
        if (!c.ok()) return "";  // ClusterSpecOrPreset says why
        for (const NodeGroup& g : c->groups())
          if (g.speed != 1.0) return "must have speed 1.0 in every group (got '" + text + "')";
        return "";
      },
      "");
}

class CalibrateCommand final : public Command {
 public:
  explicit CalibrateCommand(CLI::App& root) {
    app = root.add_subcommand("calibrate",
                              "Measure the simulator's task-time model on the real engine and "
                              "write it to the calibration file (the apps measured replace "
                              "theirs; the file's other apps are kept)");
    Within(app->add_option("--apps", apps_, "Apps to calibrate, comma-separated, each"),
           OneOf(CalibratedApps()))
        ->delimiter(',')
        ->capture_default_str();
    Within(
        app->add_option("--size", size_, "Input per text app (pi: samples per map of the big run)"),
        SizeAtLeast(1u << 20))
        ->capture_default_str();
    Within(app->add_option(
               "--cluster", cluster_,
               "Slots to measure on, at speed 1.0 (default: one node per CPU, each (1m,1r,1.0), "
               "so that tasks run side by side as in a busy workload)"),
           ClusterSpecOrPreset())
        ->check(FullSpeed());
    app->add_option("-o,--output", file_,
                    "Calibration file to update: the apps measured replace theirs, its other "
                    "apps are kept (default: " +
                        DefaultCalibrationPath().string() + ")")
        ->check(NotEmpty());
  }

  int Run() override {
    const std::filesystem::path path =
        file_.empty() ? DefaultCalibrationPath() : std::filesystem::path(file_);
    // A file that cannot be updated is an error before minutes of measuring, not after.
    if (auto existing = ReadCalibratedApps(path);
        !existing.ok() && existing.status().code() != Status::Code::kNotFound)
      return ReportError(existing.status());
    const uint64_t size = ParseSize(size_).value();
    const ClusterSpec cluster = cluster_.empty()
                                    ? ClusterSpec::Default(static_cast<int>(AllowedCpus().size()))
                                    : ClusterSpec::Parse(cluster_).value();
    std::cout << "calibrating on " << cluster.ToString() << ":\n";
    std::map<std::string, AppModel> measured;
    for (const std::string& a : apps_) {
      auto result = (*AppRegistry::BuiltIn().Find(a))->calibrate(cluster, size);
      if (!result.ok()) return ReportError(result.status());
      PrintModel(std::cout, a, *result);
      measured[a] = result->model;
    }
    auto kept = UpdateCalibration(path, measured);
    if (!kept.ok()) return ReportError(kept.status());
    std::cout << "wrote " << path.string();
    if (!kept->empty()) std::cout << " (kept from the file: " << JoinNames(*kept, ", ") << ")";
    std::cout << "\n";
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
