// SWIM Facebook traces (SWIMProjectUCB/SWIM, workloadSuite/*.tsv; see
// ../shared/datasets/SOURCES.md): one job per line, tab-separated, no header:
//   job id, submit time s, gap since the previous submit s, map input bytes,
//   shuffle bytes (0: a map-only job), reduce output bytes
// and, in the withInputPaths file, the anonymized input path and two empty fields.
//
// The traces give bytes, not tasks. Tasks are derived as SWIM's replayer and the Hive of
// that era did (most FB jobs were Hive queries):
//   maps    = max(1, ceil(map_input_bytes / block_size))           one map per input block
//   reduces = 0 when shuffle_bytes = 0                               (a map-only job)
//           = min(max_reduces, ceil(shuffle_bytes / bytes_per_reduce)) otherwise
//             (hive.exec.reducers.bytes.per.reducer = 1 GB, hive.exec.reducers.max = 999)
// Each job: app = options.app, a generated input (a graph for an app that reads edge lists,
// else text) of map_input_bytes, shuffle and output bytes from the trace, arrival = submit time,
// name = the job id, no deadline, weight 1.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "datasets/workload_spec.h"
#include "engine/status.h"

namespace mrlocal {

struct TraceOptions {
  uint64_t block_size = 64ull << 20;          // bytes of input per map, > 0
  uint64_t bytes_per_reduce = 1'000'000'000;  // shuffle bytes per reduce, > 0
  uint32_t max_reduces = 999;                 // >= 1
  std::string app = "wordcount";              // an app of `apps` that reads input
  size_t limit = 0;                           // only the first N jobs; 0 = all
};

// Reads the trace at `path` (6 columns, or 7 to 9 with the input path). Errors are
// InvalidArgument with one line naming the file and line, e.g. "trace.tsv:17: field 4
// (map_input_bytes): not a non-negative integer: 'abc'"; a wrong column count, a submit time
// that goes backwards, a repeated job id and an empty file are errors too. The workload's
// block_size is options.block_size; it has no cluster. `apps` are the apps options.app may
// name (the app registry's schemas, tools/runtime/app_registry.h).
Result<WorkloadSpec> LoadSwimTrace(const std::string& path, const AppSchemas& apps,
                                   const TraceOptions& options = {});

// The cluster the SWIM trace at `path` was recorded on, known from its file name: an
// FB-2009 trace (and SWIM's first samples_24_times_1hr_* files) comes from a 600-machine
// Facebook cluster, an FB-2010 one from the same cluster grown to 3000 machines (SWIM's
// wiki, "Workloads repository", and workloadSuite/README; ../shared/datasets/SOURCES.md).
// Neither the traces nor SWIM give slots per machine: one map and one reduce slot each.
// None for any other name.
std::optional<ClusterSpec> SwimTraceCluster(std::string_view path);

// As LoadSwimTrace, on the text of a trace; `source` names it in messages and gives the
// workload's name (its stem).
Result<WorkloadSpec> ParseSwimTrace(std::string_view text, std::string_view source,
                                    const AppSchemas& apps, const TraceOptions& options = {});

}  // namespace mrlocal
