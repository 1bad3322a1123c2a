#include "tools/runtime/builtin_apps.h"

#include <algorithm>

#include "datasets/graph_generator.h"
#include "datasets/text_generator.h"
#include "tools/runtime/job_apps.h"

namespace mrlocal {
namespace {

// The fields of spec jobs (README, "Workload spec").
constexpr const char* kSamples = "samples";   // pi: samples per map
constexpr const char* kMapSeconds = "map_s";  // synthetic: seconds per map task
constexpr const char* kReduceSeconds = "reduce_s";

// Seeds the calibration inputs, so that every calibration measures the same data.
constexpr uint64_t kCalibrationSeed = 11;

Status NoModel(const WorkloadJob& job, const Status& why) {
  return Status::InvalidArgument("job '" + job.name + "': " + why.message());
}

// The rtmr/dc view of a calibrated model at its worst noise draw; none without one.
std::function<std::optional<AppEstimate>(const Calibration&, double)> CalibratedEstimate(
    std::string app) {
  return [app](const Calibration& calibration, double worst) -> std::optional<AppEstimate> {
    auto model = calibration.Find(app);
    if (!model.ok()) return std::nullopt;
    AppEstimate e;
    e.model.map_fixed_s = model->map_fixed_s * worst;
    e.model.map_s_per_unit = model->map_s_per_unit * worst;
    e.model.reduce_fixed_s = model->reduce_fixed_s * worst;
    e.model.reduce_s_per_unit = model->reduce_s_per_unit * worst;
    e.model.alpha = model->alpha;
    return e;
  };
}

// --- Apps reading input: one map per split, timed by the calibrated model.

Status ModelInputJob(const WorkloadJob& job, const SimModelContext& c, SimJobParts& p) {
  auto model = c.calibration.Find(job.app);
  if (!model.ok()) return NoModel(job, model.status());
  auto splits = MapSplitBytes(job, c.workload.block_size);
  if (!splits.ok()) return splits.status();
  JobSpec& spec = p.spec;
  SimJob& sim = p.sim;
  sim.map_input = std::move(splits).value();
  spec.maps.reserve(sim.map_input.size());
  sim.map_work_s.reserve(sim.map_input.size());
  for (uint64_t b : sim.map_input) {
    spec.maps.push_back({b, {}});
    spec.input_bytes += b;
    sim.map_work_s.push_back(model->MapSeconds(double(b)));
  }
  // A trace knows its maps' output: the shuffle, or a map-only job's output. It replaces
  // the model's output ratio, split over the maps by their input; the job declares it.
  const uint64_t declared = job.reduces > 0 ? job.shuffle_bytes : job.output_bytes;
  uint64_t shuffle_units = 0;
  if (declared > 0) {
    sim.map_output = SplitByWeight(declared, sim.map_input);
  } else {
    sim.map_output.reserve(sim.map_input.size());
    for (uint64_t b : sim.map_input) {
      sim.map_output.push_back(static_cast<uint64_t>(double(b) * model->alpha));
      shuffle_units += sim.map_output.back();
    }
  }
  if (job.shuffle_bytes > 0) spec.shuffle_units = shuffle_units = job.shuffle_bytes;
  ModelReduces(*model, shuffle_units, p);
  return Status::OK();
}

// Two runs over `data`: small tasks and many reduces, then big tasks and one reduce.
Result<CalibrationResult> CalibrateOnInput(const ClusterSpec& cluster, const JobApp& app,
                                           std::shared_ptr<const std::string> data) {
  CalibrationSamples s;
  for (auto [blocks, reduces] : {std::pair<uint64_t, uint32_t>{8, 4}, {2, 1}}) {
    auto job = MeasureJob(cluster, app, data, (data->size() + blocks - 1) / blocks, reduces);
    if (!job.ok()) return job.status();
    for (const TaskPoint& t : job->maps) {
      s.maps.push_back(t);
      s.map_input += uint64_t(t.x);
    }
    s.map_output += job->map_output;
    for (auto& [i, secs] : job->reduce_secs)
      if (i < job->reduce_load.size()) s.reduces.push_back({double(job->reduce_load[i]), secs});
  }
  return FitModel(s);
}

AppDescriptor InputApp(JobApp runtime, AppSchema::Input input) {
  AppDescriptor d;
  d.spec.name = runtime.name;
  d.spec.input = input;
  d.runtime = [runtime](const WorkloadJob&) { return runtime; };
  d.model = ModelInputJob;
  d.model_estimate = CalibratedEstimate(runtime.name);
  d.probe = ProbeInputSample;
  return d;
}

AppDescriptor WordCount() {
  AppDescriptor d = InputApp(WordCountApp(), AppSchema::Input::kText);
  d.calibrate = [](const ClusterSpec& cluster, uint64_t size) {
    TextOptions t;
    t.bytes = size;
    t.seed = kCalibrationSeed;
    return CalibrateOnInput(cluster, WordCountApp(),
                            std::make_shared<const std::string>(GenerateText(t)));
  };
  return d;
}

AppDescriptor FriendCount() {
  AppDescriptor d = InputApp(FriendCountApp(), AppSchema::Input::kGraph);
  d.calibrate = [](const ClusterSpec& cluster, uint64_t size) -> Result<CalibrationResult> {
    GraphOptions g;
    g.nodes = 1'000'000;  // many distinct keys, as the social graphs it counts
    g.edges = GraphForBytes(size, g.nodes).edges;
    g.seed = kCalibrationSeed;
    auto text = GenerateGraph(g);
    if (!text.ok()) return text.status();
    return CalibrateOnInput(cluster, FriendCountApp(),
                            std::make_shared<const std::string>(std::move(text).value()));
  };
  return d;
}

// --- pi: maps x samples, no input.

AppDescriptor Pi() {
  AppDescriptor d;
  d.spec.name = "pi";
  d.spec.fields = {{kSamples, AppSchema::Field::Kind::kCount, "pi jobs need samples per map >= 1"}};
  d.runtime = [](const WorkloadJob& job) { return PiApp(job.maps, job.params.Count(kSamples)); };
  d.model = [](const WorkloadJob& job, const SimModelContext& c, SimJobParts& p) -> Status {
    auto model = c.calibration.Find(job.app);
    if (!model.ok()) return NoModel(job, model.status());
    const uint64_t samples = job.params.Count(kSamples);
    p.spec.maps.assign(job.maps, {samples, {}});  // a map's units are its samples
    p.sim.map_work_s.assign(job.maps, model->MapSeconds(double(samples)));
    p.spec.shuffle_units = 2ull * job.maps;  // inside and outside counts
    p.sim.map_output.assign(job.maps, 2);
    ModelReduces(*model, p.spec.shuffle_units, p);
    return Status::OK();
  };
  d.model_estimate = CalibratedEstimate("pi");
  // Two maps, so the probe sees more than one task; 10^6 samples take a few ms.
  d.probe = [](const ProbeRequest& q, const ProbeNote& note) {
    const auto& units = q.app->index_map_units;
    const uint64_t samples = std::min<uint64_t>(units.empty() ? 0 : units[0], 1'000'000);
    return ProbeSmallJob(q, PiApp(2, samples), "2 maps of " + std::to_string(samples) + " samples",
                         note);
  };
  d.calibrate = [](const ClusterSpec& cluster, uint64_t size) -> Result<CalibrationResult> {
    CalibrationSamples s;
    for (uint64_t samples : {size / 8, size / 2}) {
      auto job = MeasureJob(cluster, PiApp(4, samples), nullptr, 0, 1);
      if (!job.ok()) return job.status();
      for (const TaskPoint& t : job->maps) s.maps.push_back({double(samples), t.y});
      for (auto& [i, secs] : job->reduce_secs) s.reduces.push_back({0, secs});  // a fixed cost
    }
    return FitModel(s);
  };
  return d;
}

// --- synthetic: task seconds at speed 1.0, as the papers' Loadgen and MarS jobs.

// One value per task: a single given value applies to all.
std::vector<double> PerTask(const std::vector<double>& given, uint32_t n) {
  if (given.size() == 1) return std::vector<double>(n, given[0]);
  return given;
}

AppDescriptor Synthetic() {
  AppDescriptor d;
  d.spec.name = "synthetic";
  d.spec.fields = {
      {kMapSeconds, AppSchema::Field::Kind::kMapSeconds, "synthetic jobs need map task seconds"},
      {kReduceSeconds, AppSchema::Field::Kind::kReduceSeconds,
       "a synthetic job with reduces needs reduce task seconds"}};
  d.runtime = [](const WorkloadJob& job) {
    const std::vector<double>& reduce_s = job.params.TaskSeconds(kReduceSeconds);
    double reduce_total = 0;
    for (double r : reduce_s) reduce_total += r;
    if (reduce_s.size() == 1) reduce_total *= job.reduces;
    return SyntheticApp(PerTask(job.params.TaskSeconds(kMapSeconds), job.maps), reduce_total,
                        job.reduces);
  };
  // A synthetic task's data is its work, as a Loadgen task's time follows its bytes. The
  // job declares its reduce input.
  d.model = [](const WorkloadJob& job, const SimModelContext&, SimJobParts& p) {
    p.sim.map_work_s = PerTask(job.params.TaskSeconds(kMapSeconds), job.maps);
    p.sim.reduce_work_s = PerTask(job.params.TaskSeconds(kReduceSeconds), job.reduces);
    // Units, not bytes read: spec.input_bytes (reports' input) stays 0, as for real.
    for (double w : p.sim.map_work_s) p.spec.maps.push_back({SyntheticUnits(w), {}});
    for (double w : p.sim.reduce_work_s) {
      p.reduce_input.push_back(SyntheticUnits(w));
      p.spec.shuffle_units += SyntheticUnits(w);
      p.spec.max_reduce_units = std::max(p.spec.max_reduce_units, SyntheticUnits(w));
    }
    // Every map emits an equal share of the reduce work (apps/spin.h): zero weights.
    p.sim.map_output =
        SplitByWeight(p.spec.shuffle_units, std::vector<uint64_t>(p.sim.map_work_s.size()));
    return Status::OK();
  };
  d.model_estimate = [](const Calibration&, double worst) -> std::optional<AppEstimate> {
    AppEstimate e;
    e.model.map_s_per_unit = e.model.reduce_s_per_unit = 1e-6 * worst;  // SyntheticUnits
    e.model.alpha = 0;  // synthetic jobs declare their reduce input
    return e;
  };
  d.probe = [](const ProbeRequest& q, const ProbeNote& note) {
    return ProbeSmallJob(q, *q.app, "its " + std::to_string(q.app->index_maps) + " maps", note);
  };
  // Their work is declared, which a spinning task follows closely: plus a fixed allowance
  // for starting a task on a loaded machine.
  AppEstimate declared;
  declared.model.map_fixed_s = declared.model.reduce_fixed_s = 0.05;
  declared.model.map_s_per_unit = declared.model.reduce_s_per_unit = 1e-6;
  declared.source = "declared";
  d.declared_estimate = declared;
  return d;
}

}  // namespace

std::vector<AppDescriptor> BuiltInApps() {
  std::vector<AppDescriptor> apps;
  apps.push_back(WordCount());
  apps.push_back(FriendCount());
  apps.push_back(Pi());
  apps.push_back(Synthetic());
  return apps;
}

}  // namespace mrlocal
