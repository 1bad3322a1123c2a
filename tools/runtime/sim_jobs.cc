#include "tools/runtime/sim_jobs.h"

#include <filesystem>
#include <system_error>

#include "datasets/graph_generator.h"
#include "engine/gzip_lines.h"
#include "tools/runtime/app_registry.h"
#include "tools/runtime/gzip_file.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

void SplitEvenly(uint64_t bytes, uint32_t parts, std::vector<uint64_t>& out) {
  for (uint32_t i = 0; i < parts; ++i) out.push_back(bytes / parts + (i < bytes % parts ? 1 : 0));
}

// Enough equally likely values that the cut's end (0.13 % of draws at 3 sigma) is among
// them several times.
constexpr int kNoiseQuantiles = 4096;

}  // namespace

JobHistory ModelHistory(const AppRegistry& apps, const WorkloadSpec& workload,
                        const Calibration& calibration) {
  const double worst = SimExecutor::MaxNoiseFactor(workload.model.noise);
  JobHistory history;
  for (const WorkloadJob& job : workload.jobs) {
    if (history.Find(job.app)) continue;
    auto app = apps.Find(job.app);
    if (!app.ok()) continue;  // BuildSimJob reports it
    std::optional<AppEstimate> e = (*app)->model_estimate(calibration, worst);
    if (!e) continue;  // likewise
    e->source = "model";
    e->model.reduce_skew = 1;  // the model splits a shuffle evenly
    // A task is its model's time × the noise factor; the estimate, × its largest.
    const double sigma = workload.model.noise;
    std::vector<double> ratios = SimExecutor::NoiseQuantiles(sigma, kNoiseQuantiles);
    for (double& r : ratios) r /= worst;
    e->map_spread = e->reduce_spread = CostDistribution::FromRatios(ratios);
    history.Set(job.app, *e);
  }
  return history;
}

Result<std::vector<uint64_t>> MapSplitBytes(const WorkloadJob& job, uint64_t block_size) {
  std::vector<uint64_t> splits;
  const InputSpec& in = job.input;
  if (in.kind == InputSpec::Kind::kFiles) {
    const bool unpack = job.maps > 0;
    std::vector<uint64_t> sizes;
    uint64_t total = 0;
    for (const std::string& f : in.files) {
      auto size = InputFileBytes(f, unpack);
      if (!size.ok()) return size.status().WithContext("job '" + job.name + "': ");
      sizes.push_back(*size);
      total += *size;
    }
    if (unpack) block_size = JobBlockSize(total, job.maps);
    for (size_t i = 0; i < sizes.size(); ++i) {
      if (!unpack && IsGzipPath(in.files[i])) {
        if (sizes[i] > 0) splits.push_back(sizes[i]);  // not splittable: one map
        continue;
      }
      for (uint64_t off = 0; off < sizes[i]; off += block_size)
        splits.push_back(std::min(block_size, sizes[i] - off));
    }
    return splits;
  }
  if (in.kind == InputSpec::Kind::kGenerated) {
    const uint64_t bytes = in.generator == "graph" && in.bytes == 0
                               ? GraphBytes(in.graph_nodes, in.graph_edges)
                               : in.bytes;
    const uint32_t maps =
        job.maps > 0
            ? job.maps
            : static_cast<uint32_t>(std::max<uint64_t>(1, (bytes + block_size - 1) / block_size));
    SplitEvenly(bytes, maps, splits);
  }
  return splits;
}

uint64_t JobBlockSize(uint64_t bytes, uint32_t maps) {
  return std::max<uint64_t>(1, (bytes + maps - 1) / std::max(1u, maps));
}

Result<uint64_t> InputFileBytes(const std::string& path, bool unpack) {
  if (unpack && IsGzipPath(path)) return InflatedSize(path);
  std::error_code ec;
  const uint64_t size = fs::file_size(path, ec);
  if (ec) return Status::NotFound("cannot read '" + path + "': " + ec.message());
  return size;
}

std::vector<uint64_t> SplitByWeight(uint64_t total, const std::vector<uint64_t>& weights) {
  std::vector<uint64_t> parts;
  uint64_t sum = 0;
  for (uint64_t w : weights) sum += w;
  if (sum == 0) {
    SplitEvenly(total, static_cast<uint32_t>(weights.size()), parts);
    return parts;
  }
  // Differences of the rounded running shares: they telescope to `total` exactly (a double
  // holds trace sizes, < 2^53, exactly; a 128-bit division per part would cost more).
  // Signed conversions: one instruction each, and trace sizes are far below 2^63.
  parts.reserve(weights.size());
  const double scale = static_cast<double>(total) / static_cast<double>(sum);
  int64_t running = 0, given = 0;
  for (uint64_t w : weights) {
    running += static_cast<int64_t>(w);
    const int64_t upto = static_cast<int64_t>(static_cast<double>(running) * scale + 0.5);
    parts.push_back(static_cast<uint64_t>(upto - given));
    given = upto;
  }
  parts.back() += total - static_cast<uint64_t>(given);  // 0 unless rounding drifted
  return parts;
}

void ModelReduces(const AppModel& model, uint64_t shuffle_units, SimJobParts& parts) {
  const uint32_t reduces = parts.spec.reduces;
  for (uint32_t r = 0; r < reduces; ++r) {
    const uint64_t units = shuffle_units / reduces + (r < shuffle_units % reduces ? 1 : 0);
    parts.sim.reduce_work_s.push_back(model.ReduceSeconds(double(units)));
    parts.reduce_input.push_back(units);
  }
  if (parts.spec.shuffle_units > 0 && reduces > 0)
    parts.spec.max_reduce_units = (shuffle_units + reduces - 1) / reduces;
}

Result<SimJobParts> BuildSimJob(const AppRegistry& apps, const WorkloadJob& job,
                                const SimModelContext& context) {
  auto app = apps.Find(job.app);
  if (!app.ok()) return app.status().WithContext("job '" + job.name + "': ");
  SimJobParts p;
  JobSpec& spec = p.spec;
  spec.name = job.name;
  spec.app = job.app;
  if (job.deadline_s) spec.deadline = FromSeconds(*job.deadline_s);
  if (job.goal_s) spec.goal = FromSeconds(*job.goal_s);
  spec.reduces = job.reduces;
  spec.weight = job.weight;
  spec.queue = job.queue;
  spec.bid = job.bid;
  spec.shuffle_delay = FromSeconds(context.workload.model.shuffle_delay_s + job.shuffle_delay_s);
  MRLOCAL_RETURN_IF_ERROR((*app)->model(job, context, p));
  MRLOCAL_RETURN_IF_ERROR(CheckTaskWeightCount(job, p.spec.maps.size(), job.reduces));
  spec.task_weights = job.task_weights;
  if (job.output_bytes > 0 && job.reduces > 0) {
    for (uint32_t r = 0; r < job.reduces; ++r)
      p.sim.reduce_output.push_back(job.output_bytes / job.reduces);
  }
  // One partition per reduce, hashed: the simulation has no keys to sketch. Row 0 sends
  // key hash r to partition r, so the sketch holds each reduce's share as it is.
  if (job.reduces > 0) {
    spec.partition_hashes = MakePartitionHashes(1, job.reduces, /*seed=*/1);
    if (p.reduce_input.size() == job.reduces) {
      p.sim.shuffle = CountMinSketch(spec.partition_hashes);
      for (uint32_t r = 0; r < job.reduces; ++r) p.sim.shuffle.Add(r, p.reduce_input[r]);
    }
  }
  return p;
}

}  // namespace mrlocal
