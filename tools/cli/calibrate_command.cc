// mrlocal calibrate [--apps wordcount,friendcount,pi] [--size 128MiB] [-o FILE]
// Measures, on the real engine, what the simulator's task model needs per app
// (sched/estimate/task_model.h): seconds per input unit of a map task at speed 1.0 and its fixed
// cost, the map output per input unit, and seconds per shuffled unit of a reduce task. Each app
// runs twice, with tasks of two sizes, on slots at full speed (by default one map and one reduce
// slot per CPU, so that tasks share the machine as they do in a busy workload), and a line is
// fitted through the tasks (least squares). The result is written atomically to the calibration
// file that `mrlocal workload --sim` reads by default.
#include <algorithm>
#include <cstdio>
#include <iostream>
#include <sstream>

#include "datasets/graph_generator.h"
#include "datasets/text_generator.h"
#include "engine/block_store.h"
#include "engine/slot_worker.h"
#include "sched/core/asio_loop.h"
#include "sched/core/cluster_spec.h"
#include "sched/core/controller.h"
#include "sched/partition/partitioner.h"
#include "sched/policy/policy_registry.h"
#include "sched/core/real_executor.h"
#include "sched/estimate/task_model.h"
#include "sched/core/units.h"
#include "tools/cli/commands.h"
#include "tools/cli/exit_codes.h"
#include "tools/runtime/calibration_file.h"
#include "tools/runtime/job_apps.h"
#include "tools/runtime/real_job.h"

namespace mrlocal {
namespace {

// One task as measured: x = its input (bytes, samples or shuffled units), y = seconds.
struct Point {
  double x, y;
};

// Least-squares line y = a + b x; b >= 0 and a >= 0 (a negative intercept is noise: then
// the line through the origin).
std::pair<double, double> FitLine(const std::vector<Point>& pts) {
  double n = double(pts.size()), sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (auto& p : pts) {
    sx += p.x;
    sy += p.y;
    sxx += p.x * p.x;
    sxy += p.x * p.y;
  }
  double den = n * sxx - sx * sx;
  double b = den > 0 ? (n * sxy - sx * sy) / den : 0;
  double a = (sy - b * sx) / n;
  if (a < 0 || b < 0) {
    a = 0;
    b = sxx > 0 ? sxy / sxx : 0;
  }
  return {a, std::max(b, 0.0)};
}

// Collects what calibration needs from one job's run.
class TaskLog final : public ControllerObserver {
 public:
  void OnPlan(const JobState&, const PartitionPlan& plan, Time) override { load = plan.reduce_load; }
  void OnTaskReport(const TaskReport& r) override {
    if (!r.status.ok()) return;
    double secs = Seconds(r.end - r.start);
    if (r.task.kind == TaskKind::kMap) {
      maps.push_back({double(r.input_bytes), secs});
      map_output += r.output_bytes;
    } else {
      reduce_secs.push_back({r.task.index, secs});
    }
  }
  std::vector<uint64_t> load;
  std::vector<Point> maps;
  std::vector<std::pair<uint32_t, double>> reduce_secs;
  uint64_t map_output = 0;
};

struct RunSpec {
  std::string input;  // store path; empty for pi
  uint64_t block_size = 0;
  uint32_t reduces = 1;
  uint32_t pi_maps = 0;
  uint64_t pi_samples = 0;
};

Result<TaskLog> RunOnce(const ClusterSpec& cluster, const JobApp& app,
                        std::shared_ptr<const std::string> data, const RunSpec& rs) {
  BlockStoreOptions so;
  so.block_size = rs.block_size > 0 ? rs.block_size : (32ull << 20);
  so.nodes = cluster.nodes();
  auto store = BlockStore::InMemory(so);
  if (!store.ok()) return store.status();
  RealJobRequest q;
  q.app = &app;
  q.store = store->get();
  if (data) {
    Status st = (*store)->PutBuffer("input", data);
    if (!st.ok()) return st;
    q.paths = {"input"};
  }
  q.reduces = rs.reduces;
  q.partitions = 4 * rs.reduces;
  q.top = 0;
  auto parts = PrepareRealJob(q);
  if (!parts.ok()) return parts.status();
  AsioLoop loop;
  auto slots = cluster.Slots();
  RealExecutor executor(loop, slots, /*pin=*/true);
  auto policy = MakePolicy(BestEffortPolicy().name);
  Controller controller(loop, executor, **policy, slots, cluster.nodes(),
                        std::move(MakePartitioner("dp-sketch")).value());
  TaskLog log;
  controller.AddObserver(&log);
  JobId id = controller.next_job_id();
  executor.AddJob(id, std::move(parts->real));
  controller.Submit(std::move(parts->spec));
  controller.RunUntilIdle();
  if (controller.state().job(id).phase != JobPhase::kDone)
    return Status::Internal("calibration job failed: " + controller.state().job(id).failure);
  return log;
}

Result<AppModel> Calibrate(const ClusterSpec& cluster, const std::string& app, uint64_t size,
                           std::ostream& out) {
  AppModel m;
  std::vector<Point> maps, reduces;
  uint64_t in_total = 0, out_total = 0;
  if (app == "pi") {
    for (uint64_t samples : {size / 8, size / 2}) {
      auto log = RunOnce(cluster, PiApp(4, samples), nullptr, {"", 0, 1, 4, samples});
      if (!log.ok()) return log.status();
      for (auto& p : log->maps) maps.push_back({double(samples), p.y});
      for (auto& [i, secs] : log->reduce_secs) reduces.push_back({0, secs});  // a fixed cost
    }
  } else {
    std::shared_ptr<const std::string> data;
    JobApp job = app == "wordcount" ? WordCountApp() : FriendCountApp();
    if (app == "wordcount") {
      TextOptions t;
      t.bytes = size;
      t.seed = 11;
      data = std::make_shared<const std::string>(GenerateText(t));
    } else {
      GraphOptions g;
      g.edges = size / 13;  // ~13 bytes per line at 1M nodes
      g.nodes = 1000000;
      g.seed = 11;
      auto text = GenerateGraph(g);
      if (!text.ok()) return text.status();
      data = std::make_shared<const std::string>(std::move(text).value());
    }
    // Two runs: small tasks and many reduces, then big tasks and one reduce.
    for (auto [blocks, r] : {std::pair<uint64_t, uint32_t>{8, 4}, {2, 1}}) {
      auto log = RunOnce(cluster, job, data,
                         {"input", (data->size() + blocks - 1) / blocks, r, 0, 0});
      if (!log.ok()) return log.status();
      for (auto& p : log->maps) {
        maps.push_back(p);
        in_total += uint64_t(p.x);
      }
      out_total += log->map_output;
      for (auto& [i, secs] : log->reduce_secs)
        if (i < log->load.size()) reduces.push_back({double(log->load[i]), secs});
    }
  }
  std::tie(m.map_fixed_s, m.map_s_per_unit) = FitLine(maps);
  if (!reduces.empty()) std::tie(m.reduce_fixed_s, m.reduce_s_per_unit) = FitLine(reduces);
  m.alpha = in_total > 0 ? double(out_total) / double(in_total) : 0;
  char line[256];
  std::snprintf(line, sizeof line,
                "  %-11s map %.4g s + %.4g s/unit (%zu tasks), output %.4g units/unit, "
                "reduce %.4g s + %.4g s/unit (%zu tasks)\n",
                app.c_str(), m.map_fixed_s, m.map_s_per_unit, maps.size(), m.alpha,
                m.reduce_fixed_s, m.reduce_s_per_unit, reduces.size());
  out << line;
  return m;
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
    if (!size.ok()) return ReportError(Status::InvalidArgument("--size: " + size.status().message()));
    if (*size < (1u << 20)) return ReportError(Status::InvalidArgument("--size must be at least 1MiB"));
    Calibration c = Calibration::BuiltIn();
    if (auto existing = LoadDefaultCalibration(); existing.ok() && file_.empty()) c = *existing;
    for (const std::string& a : apps_) {
      if (a != "wordcount" && a != "friendcount" && a != "pi")
        return ReportError(Status::InvalidArgument("--apps: unknown app '" + a +
                                                   "' (known: wordcount, friendcount, pi)"));
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
      auto m = Calibrate(cluster, a, *size, std::cout);
      if (!m.ok()) return ReportError(m.status());
      c.apps[a] = *m;
    }
    std::filesystem::path path =
        file_.empty() ? DefaultCalibrationPath() : std::filesystem::path(file_);
    Status st = SaveCalibration(c, path);
    if (!st.ok()) return ReportError(st);
    std::cout << "wrote " << path.string() << "\n";
    return kExitOk;
  }

 private:
  std::vector<std::string> apps_ = {"wordcount", "friendcount", "pi"};
  std::string size_ = "128MiB";
  std::string file_;
  std::string cluster_;
};

}  // namespace

std::unique_ptr<Command> AddCalibrateCommand(CLI::App& root) {
  return std::make_unique<CalibrateCommand>(root);
}

}  // namespace mrlocal
