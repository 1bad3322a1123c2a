#include "tools/runtime/sim_jobs.h"

#include <cmath>
#include <filesystem>
#include <system_error>

#include "engine/gzip_lines.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

// An edge list line is two decimal ids, a tab and a newline.
uint64_t GraphBytes(const InputSpec& in) {
  if (in.bytes > 0) return in.bytes;
  const double digits = in.graph_nodes > 1 ? std::ceil(std::log10(double(in.graph_nodes))) : 1;
  return static_cast<uint64_t>(double(in.graph_edges) * (2 * digits + 2));
}

void SplitEvenly(uint64_t bytes, uint32_t parts, std::vector<uint64_t>& out) {
  for (uint32_t i = 0; i < parts; ++i) out.push_back(bytes / parts + (i < bytes % parts ? 1 : 0));
}

// One value per task: a single given value applies to all.
std::vector<double> PerTask(const std::vector<double>& given, uint32_t n) {
  if (given.size() == 1) return std::vector<double>(n, given[0]);
  return given;
}

uint64_t WorkUnits(double seconds) { return static_cast<uint64_t>(std::llround(seconds * 1e6)); }

}  // namespace

JobHistory ModelHistory(const WorkloadSpec& workload, const Calibration& calibration) {
  const double worst = SimExecutor::MaxNoiseFactor(workload.model.noise);
  JobHistory history;
  AppEstimate e;
  e.source = "model";
  for (const WorkloadJob& job : workload.jobs) {
    if (history.Find(job.app)) continue;
    AppModel& m = e.model;
    if (job.app == "synthetic") {
      m.map_fixed_s = m.reduce_fixed_s = 0;
      m.map_s_per_unit = m.reduce_s_per_unit = 1e-6 * worst;  // WorkUnits
      m.alpha = 0;  // synthetic jobs declare their reduce input
    } else {
      auto model = calibration.Find(job.app);
      if (!model.ok()) continue;  // BuildSimJob reports it
      m.map_fixed_s = model->map_fixed_s * worst;
      m.map_s_per_unit = model->map_s_per_unit * worst;
      m.reduce_fixed_s = model->reduce_fixed_s * worst;
      m.reduce_s_per_unit = model->reduce_s_per_unit * worst;
      m.alpha = model->alpha;
    }
    m.reduce_skew = 1;  // the model splits a shuffle evenly
    history.Set(job.app, e);
  }
  return history;
}

Result<std::vector<uint64_t>> MapSplitBytes(const WorkloadJob& job, uint64_t block_size) {
  std::vector<uint64_t> splits;
  const InputSpec& in = job.input;
  if (in.kind == InputSpec::Kind::kFiles) {
    for (const std::string& f : in.files) {
      std::error_code ec;
      uint64_t size = fs::file_size(f, ec);
      if (ec)
        return Status::NotFound("job '" + job.name + "': cannot read '" + f + "': " + ec.message());
      if (IsGzipPath(f)) {
        if (size > 0) splits.push_back(size);  // not splittable: one map
        continue;
      }
      for (uint64_t off = 0; off < size; off += block_size)
        splits.push_back(std::min(block_size, size - off));
    }
    return splits;
  }
  if (in.kind == InputSpec::Kind::kGenerated) {
    const uint64_t bytes = in.generator == "graph" ? GraphBytes(in) : in.bytes;
    const uint32_t maps =
        job.maps > 0
            ? job.maps
            : static_cast<uint32_t>(std::max<uint64_t>(1, (bytes + block_size - 1) / block_size));
    SplitEvenly(bytes, maps, splits);
  }
  return splits;
}

Result<SimJobParts> BuildSimJob(const WorkloadJob& job, const WorkloadSpec& workload,
                                const Calibration& calibration) {
  SimJobParts p;
  JobSpec& spec = p.spec;
  SimJob& sim = p.sim;
  spec.name = job.name;
  spec.app = job.app;
  if (job.deadline_s) spec.deadline = FromSeconds(*job.deadline_s);
  spec.reduces = job.reduces;
  spec.weight = job.weight;
  spec.queue = job.queue;
  sim.shuffle_delay_s = workload.model.shuffle_delay_s + job.shuffle_delay_s;

  uint64_t shuffle_units = 0;
  if (job.app == "synthetic") {
    sim.map_work_s = PerTask(job.map_s, job.maps);
    sim.reduce_work_s = PerTask(job.reduce_s, job.reduces);
    // A synthetic task's data is its work, as a Loadgen task's time follows its bytes:
    // one size unit per microsecond at speed 1.0. The job declares its reduce input.
    for (double w : sim.map_work_s) {
      spec.maps.push_back({WorkUnits(w), {}});
      spec.input_bytes += spec.maps.back().bytes;
    }
    for (double w : sim.reduce_work_s) {
      spec.shuffle_units += WorkUnits(w);
      spec.max_reduce_units = std::max(spec.max_reduce_units, WorkUnits(w));
    }
  } else {
    auto model = calibration.Find(job.app);
    if (!model.ok())
      return Status::InvalidArgument("job '" + job.name + "': " + model.status().message());
    if (job.app == "pi") {
      spec.maps.assign(job.maps, {job.pi_samples, {}});  // a map's units are its samples
      sim.map_work_s.assign(job.maps, model->MapSeconds(double(job.pi_samples)));
      shuffle_units = 2ull * job.maps;  // inside and outside counts
      spec.shuffle_units = shuffle_units;
    } else {
      auto splits = MapSplitBytes(job, workload.block_size);
      if (!splits.ok()) return splits.status();
      spec.maps.reserve(splits->size());
      sim.map_work_s.reserve(splits->size());
      sim.map_output.reserve(splits->size());
      for (uint64_t b : *splits) {
        spec.maps.push_back({b, {}});
        spec.input_bytes += b;
        sim.map_work_s.push_back(model->MapSeconds(double(b)));
        sim.map_output.push_back(static_cast<uint64_t>(double(b) * model->alpha));
        shuffle_units += sim.map_output.back();
      }
      // A trace knows its shuffle: it overrides the model's output ratio, and the job
      // declares it.
      if (job.shuffle_bytes > 0) spec.shuffle_units = shuffle_units = job.shuffle_bytes;
    }
    for (uint32_t r = 0; r < job.reduces; ++r) {
      const uint64_t units =
          shuffle_units / job.reduces + (r < shuffle_units % job.reduces ? 1 : 0);
      sim.reduce_work_s.push_back(model->ReduceSeconds(double(units)));
    }
    if (spec.shuffle_units > 0 && job.reduces > 0)
      spec.max_reduce_units = (shuffle_units + job.reduces - 1) / job.reduces;
  }
  if (job.output_bytes > 0 && job.reduces > 0) {
    for (uint32_t r = 0; r < job.reduces; ++r)
      sim.reduce_output.push_back(job.output_bytes / job.reduces);
  }
  // One partition per reduce, hashed: the simulation has no keys to sketch.
  if (job.reduces > 0) spec.partition_hashes = MakePartitionHashes(1, job.reduces, /*seed=*/1);
  return p;
}

}  // namespace mrlocal
