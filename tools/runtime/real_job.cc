#include "tools/runtime/real_job.h"

#include <algorithm>

#include "engine/gzip_lines.h"
#include "engine/split_reader.h"

namespace mrlocal {

Result<RealJobParts> PrepareRealJob(const RealJobRequest& q) {
  const JobApp& app = *q.app;
  RealJobParts parts;
  JobSpec& spec = parts.spec;
  spec.name = q.name.empty() ? app.name : q.name;
  spec.app = app.name;
  spec.deadline = q.deadline;
  spec.goal = q.goal;
  spec.reduces = q.reduces;
  spec.weight = q.weight;
  spec.queue = q.queue;
  spec.bid = q.bid;
  spec.partition_hashes =
      MakePartitionHashes(q.sketch_rows, q.partitions, /*seed=*/0x6d726c6f63616cull);
  // One split per block, except that a gzip file is one split (it cannot be split) and
  // jobs without input have index_maps splits of nothing.
  struct SplitRef {
    std::string path;
    uint32_t block = 0;
    bool gzip = false;
  };
  auto splits = std::make_shared<std::vector<SplitRef>>();
  if (app.index_maps == 0) {
    for (auto& path : q.paths) {
      auto info = q.store->Stat(path);
      if (!info.ok()) return info.status();
      spec.input_bytes += info->size;
      if (IsGzipPath(path)) {
        if (info->blocks.empty()) continue;
        // Hadoop places a non-splittable split on the hosts of its first block.
        splits->push_back({path, 0, true});
        spec.maps.push_back({info->size, info->blocks[0].replica_nodes});
        continue;
      }
      for (uint32_t b = 0; b < info->blocks.size(); ++b) {
        splits->push_back({path, b, false});
        spec.maps.push_back({info->blocks[b].length, info->blocks[b].replica_nodes});
      }
    }
  }
  for (uint32_t i = 0; i < app.index_maps; ++i) {
    const auto& units = app.index_map_units;
    // Units, not bytes read: spec.input_bytes (reports' input) stays 0.
    spec.maps.push_back({units.empty() ? 0 : units.size() == 1 ? units[0] : units.at(i), {}});
  }
  for (const ReplicaFault& f : q.replica_faults) {
    if (f.map >= splits->size())
      return Status::InvalidArgument("replica fault of map " + std::to_string(f.map) +
                                     ": the job has " + std::to_string(splits->size()) +
                                     " maps reading blocks");
    const std::vector<NodeId>& nodes = spec.maps[f.map].nodes;
    const int node = f.node >= 0 ? f.node : nodes.empty() ? -1 : nodes[0];
    if (std::find(nodes.begin(), nodes.end(), node) == nodes.end())
      return Status::InvalidArgument("replica fault of map " + std::to_string(f.map) +
                                     ": its block has no replica on node " + std::to_string(node));
    const SplitRef& ref = (*splits)[f.map];
    q.store->InjectReplicaFault(
        ref.path, ref.block, node,
        f.lost ? BlockStore::ReplicaFaultKind::kLost : BlockStore::ReplicaFaultKind::kCorrupt);
  }
  spec.shuffle_units = app.shuffle_units;
  spec.max_reduce_units = app.max_reduce_units;

  JobRuntimeOptions ro;
  ro.hashes = spec.partition_hashes;
  ro.top_n = q.top;
  ro.skip_bad_records = q.skip_bad_records;
  RealJob& real = parts.real;
  real.runtime = app.make_runtime(ro);
  real.maps = static_cast<uint32_t>(spec.maps.size());
  real.reduces = q.reduces;
  real.output = q.output;
  BlockStore* store = q.store;
  if (app.index_maps == 0)
    real.read_split = [store, splits](uint32_t index, NodeId node) -> Result<SplitInput> {
      const SplitRef& ref = (*splits)[index];
      SplitInput in;
      if (ref.gzip) {
        auto stream = OpenGzipLines(*store, ref.path, node);
        if (!stream.ok()) return stream.status();
        in.input.stream = std::move(stream).value();
        in.input.source = ref.path;
        return in;
      }
      auto data = ReadSplit(*store, ref.path, ref.block, node);
      if (!data.ok()) return data.status();
      auto owned = std::make_shared<SplitData>(std::move(data).value());
      in.input = owned->input;
      in.warnings = std::move(owned->warnings);
      in.keepalive = owned;
      return in;
    };
  return parts;
}

}  // namespace mrlocal
