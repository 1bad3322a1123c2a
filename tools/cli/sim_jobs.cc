#include "tools/cli/sim_jobs.h"

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
  for (uint32_t i = 0; i < parts; ++i)
    out.push_back(bytes / parts + (i < bytes % parts ? 1 : 0));
}

// One value per task: a single given value applies to all.
std::vector<double> PerTask(const std::vector<double>& given, uint32_t n) {
  if (given.size() == 1) return std::vector<double>(n, given[0]);
  return given;
}

}  // namespace

Result<std::vector<uint64_t>> MapSplitBytes(const WorkloadJob& job, uint64_t block_size) {
  std::vector<uint64_t> splits;
  const InputSpec& in = job.input;
  if (in.kind == InputSpec::Kind::kFiles) {
    for (const std::string& f : in.files) {
      std::error_code ec;
      uint64_t size = fs::file_size(f, ec);
      if (ec) return Status::NotFound("job '" + job.name + "': cannot read '" + f + "': " + ec.message());
      if (IsGzipPath(f)) {
        if (size > 0) splits.push_back(size);  // not splittable: one map
        continue;
      }
      for (uint64_t off = 0; off < size; off += block_size) splits.push_back(std::min(block_size, size - off));
    }
    return splits;
  }
  if (in.kind == InputSpec::Kind::kGenerated) {
    const uint64_t bytes = in.generator == "graph" ? GraphBytes(in) : in.bytes;
    const uint32_t maps = job.maps > 0 ? job.maps
                                       : static_cast<uint32_t>(std::max<uint64_t>(
                                             1, (bytes + block_size - 1) / block_size));
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
    spec.maps.resize(job.maps);
  } else {
    auto model = calibration.Find(job.app);
    if (!model.ok()) return Status::InvalidArgument("job '" + job.name + "': " + model.status().message());
    if (job.app == "pi") {
      spec.maps.resize(job.maps);
      sim.map_work_s.assign(job.maps, model->MapSeconds(double(job.pi_samples)));
      shuffle_units = 2ull * job.maps;  // inside and outside counts
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
        sim.map_output.push_back(static_cast<uint64_t>(double(b) * model->output_per_unit));
        shuffle_units += sim.map_output.back();
      }
      // A trace knows its shuffle: it overrides the model's output ratio.
      if (job.shuffle_bytes > 0) shuffle_units = job.shuffle_bytes;
    }
    for (uint32_t r = 0; r < job.reduces; ++r) {
      const uint64_t units = shuffle_units / job.reduces + (r < shuffle_units % job.reduces ? 1 : 0);
      sim.reduce_work_s.push_back(model->ReduceSeconds(double(units)));
    }
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
