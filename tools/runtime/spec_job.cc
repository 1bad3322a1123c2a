#include "tools/runtime/spec_job.h"

#include "datasets/graph_generator.h"
#include "datasets/text_generator.h"
#include "engine/gzip_lines.h"
#include "tools/runtime/gzip_file.h"
#include "tools/runtime/sim_jobs.h"

namespace mrlocal {

// The store paths of a job's input, putting each file (generating each input) once per
// distinct setting. A job that names its maps gets them as a block size of its own
// (JobBlockSize, as the simulation cuts it); its gzip files are unpacked into the store,
// since a .gz file is one split otherwise.
Result<std::vector<std::string>> MaterializeInput(const WorkloadJob& j, BlockStore& store,
                                                  std::map<std::string, bool>& present) {
  const InputSpec& in = j.input;
  std::vector<std::string> paths;
  if (in.kind == InputSpec::Kind::kFiles) {
    const bool unpack = j.maps > 0;
    PutOptions put;
    if (unpack) {
      uint64_t total = 0;
      for (const std::string& f : in.files) {
        auto bytes = InputFileBytes(f, /*unpack=*/true);
        if (!bytes.ok()) return bytes.status().WithContext("job '" + j.name + "': ");
        total += *bytes;
      }
      put.block_size = JobBlockSize(total, j.maps);
    }
    for (const std::string& f : in.files) {
      const bool inflate = unpack && IsGzipPath(f);
      std::string name = inflate ? f.substr(0, f.size() - 3) : f;
      if (unpack) name = "blocks-" + std::to_string(put.block_size) + "/" + name;
      if (!present[name]) {
        Status st;
        if (inflate) {
          auto text = InflateFile(f);
          if (!text.ok()) return text.status().WithContext("job '" + j.name + "': ");
          st = store.PutBuffer(name, std::make_shared<const std::string>(std::move(text).value()),
                               put);
        } else {
          st = store.Put(f, name, put);
        }
        if (!st.ok()) return st.WithContext("job '" + j.name + "': ");
        present[name] = true;
      }
      paths.push_back(name);
    }
    return paths;
  }
  if (in.kind != InputSpec::Kind::kGenerated) return paths;
  const std::string name = "generated/" + in.generator + "-" + std::to_string(in.bytes) + "-" +
                           std::to_string(in.graph_nodes) + "-" + std::to_string(in.graph_edges) +
                           "-" + std::to_string(in.graph_skew) + "-" + std::to_string(in.seed) +
                           "-" + std::to_string(j.maps);
  if (!present[name]) {
    std::string data;
    if (in.generator == "graph") {
      GraphOptions g;
      g.seed = in.seed;
      // Default: facebook_combined's max/mean degree, reachable by small graphs too.
      g.skew = in.graph_skew > 0 ? in.graph_skew : 24;
      const GraphSize size = in.graph_edges > 0 ? GraphSize{in.graph_nodes, in.graph_edges}
                                                : GraphForBytes(in.bytes, in.graph_nodes);
      if (size.nodes > 0) g.nodes = size.nodes;
      g.edges = size.edges;
      auto text = GenerateGraph(g);
      if (!text.ok())
        return Status::InvalidArgument("job '" + j.name + "': " + text.status().message());
      data = std::move(text).value();
    } else {
      TextOptions t;
      t.bytes = in.bytes;
      t.seed = in.seed;
      data = GenerateText(t);
    }
    PutOptions put;
    if (j.maps > 0) put.block_size = JobBlockSize(data.size(), j.maps);
    Status st = store.PutBuffer(name, std::make_shared<const std::string>(std::move(data)), put);
    if (!st.ok()) return st;
    present[name] = true;
  }
  paths.push_back(name);
  return paths;
}

Result<RealJobParts> BuildRealSpecJob(const WorkloadJob& j, const JobApp& app, BlockStore& store,
                                      std::map<std::string, bool>& present,
                                      const std::string& partitioner, double model_shuffle_delay_s,
                                      int top) {
  auto paths = MaterializeInput(j, store, present);
  if (!paths.ok()) return paths.status();
  RealJobRequest q;
  q.app = &app;
  q.store = &store;
  q.paths = *paths;
  q.name = j.name;
  if (j.deadline_s) q.deadline = FromSeconds(*j.deadline_s);
  if (j.goal_s) q.goal = FromSeconds(*j.goal_s);
  q.reduces = j.reduces;
  q.partitions = partitioner == "hash" ? std::max(1u, j.reduces) : 4 * std::max(1u, j.reduces);
  q.top = top;
  q.weight = j.weight;
  q.queue = j.queue;
  q.bid = j.bid;
  auto parts = PrepareRealJob(q);
  if (!parts.ok()) return parts.status().WithContext("job '" + j.name + "': ");
  parts->spec.shuffle_delay = FromSeconds(j.shuffle_delay_s + model_shuffle_delay_s);
  MRLOCAL_RETURN_IF_ERROR(CheckTaskWeightCount(j, parts->spec.maps.size(), j.reduces));
  parts->spec.task_weights = j.task_weights;
  return parts;
}

}  // namespace mrlocal
