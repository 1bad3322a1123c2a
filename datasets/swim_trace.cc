#include "datasets/swim_trace.h"

#include <algorithm>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <unordered_set>

#include "datasets/graph_generator.h"
#include "datasets/workload_file.h"

namespace mrlocal {
namespace {

constexpr size_t kMaxFields = 9;
// Names of the numeric columns in messages (SOURCES.md's names, shortened).
constexpr const char* kFieldNames[6] = {"job_id",          "submit_time_s", "gap_s",
                                        "map_input_bytes", "shuffle_bytes", "reduce_output_bytes"};

uint64_t CeilDiv(uint64_t a, uint64_t b) { return a / b + (a % b != 0); }

// The schema of the app that models the trace's jobs: one that reads input.
Result<const AppSchema*> CheckOptions(const TraceOptions& o, const AppSchemas& apps) {
  if (o.block_size == 0) return Status::InvalidArgument("trace: block size must be positive");
  if (o.bytes_per_reduce == 0)
    return Status::InvalidArgument("trace: bytes per reduce must be positive");
  if (o.max_reduces == 0) return Status::InvalidArgument("trace: max reduces must be >= 1");
  std::string readers;
  for (const AppSchema& a : apps) {
    if (a.input == AppSchema::Input::kNone) continue;
    if (a.name == o.app) return &a;
    readers += (readers.empty() ? "" : " or ") + a.name;
  }
  return Status::InvalidArgument("trace: app '" + o.app + "' cannot model trace jobs (use " +
                                 readers + ")");
}

// One trace line's fields: the tab-separated columns, at most kMaxFields. The error
// says what is wrong, without the line's position.
Result<size_t> SplitFields(std::string_view line, std::string_view (&fields)[kMaxFields]) {
  size_t n = 0;
  for (size_t start = 0;;) {
    const size_t tab = line.find('\t', start);
    if (n == kMaxFields)
      return Status::InvalidArgument("more than " + std::to_string(kMaxFields) +
                                     " tab-separated fields");
    fields[n++] = line.substr(start, tab == std::string_view::npos ? tab : tab - start);
    if (tab == std::string_view::npos) break;
    start = tab + 1;
  }
  if (n < 6)
    return Status::InvalidArgument(
        "expected 6 tab-separated fields (7 to 9 with the input path), got " + std::to_string(n));
  return n;
}

// Fields 2 to 6 as integers, into num[1..5].
Status ParseNumbers(const std::string_view (&fields)[kMaxFields], uint64_t (&num)[6]) {
  for (size_t f = 1; f < 6; ++f) {
    const std::string_view v = fields[f];
    auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), num[f]);
    if (v.empty() || ec != std::errc() || p != v.data() + v.size())
      return Status::InvalidArgument("field " + std::to_string(f + 1) + " (" + kFieldNames[f] +
                                     "): not a non-negative integer: '" + std::string(v) + "'");
  }
  return Status::OK();
}

// The job of a checked line: maps by block, reduces by shuffle bytes, a generated input of
// the trace's size (seeded by `seed`, so every job has its own data).
WorkloadJob TraceJob(const std::string_view (&fields)[kMaxFields], size_t n,
                     const uint64_t (&num)[6], uint32_t maps, const TraceOptions& options,
                     bool graph, uint64_t seed) {
  const uint64_t input = num[3], shuffle = num[4];
  WorkloadJob job;
  job.name = fields[0];
  job.arrival_s = static_cast<double>(num[1]);
  job.app = options.app;
  job.maps = maps;
  job.reduces = shuffle == 0
                    ? 0
                    : static_cast<uint32_t>(std::min<uint64_t>(
                          options.max_reduces, CeilDiv(shuffle, options.bytes_per_reduce)));
  job.shuffle_bytes = shuffle;
  job.output_bytes = num[5];
  InputSpec& in = job.input;
  in.kind = InputSpec::Kind::kGenerated;
  in.generator = graph ? "graph" : "text";
  in.bytes = input;
  in.seed = seed;
  if (n >= 7) in.dataset = fields[6];
  if (graph && input > 0) {
    const GraphSize g = GraphForBytes(input);
    in.graph_nodes = g.nodes;
    in.graph_edges = g.edges;
  }
  return job;
}

}  // namespace

Result<WorkloadSpec> ParseSwimTrace(std::string_view text, std::string_view source,
                                    const AppSchemas& apps, const TraceOptions& options) {
  Result<const AppSchema*> app = CheckOptions(options, apps);
  if (!app.ok()) return app.status();
  const std::string src(source);
  WorkloadSpec spec;
  spec.name = std::filesystem::path(src).stem().string();
  spec.source = src;
  spec.block_size = options.block_size;
  spec.jobs.reserve(std::min<size_t>(std::count(text.begin(), text.end(), '\n') + 1,
                                     options.limit ? options.limit : ~size_t{0}));
  const bool graph = (*app)->input == AppSchema::Input::kGraph;
  std::unordered_set<std::string_view> ids;
  ids.reserve(spec.jobs.capacity());
  uint64_t prev_submit = 0;
  size_t line_no = 0;
  std::string_view fields[kMaxFields];
  for (size_t pos = 0; pos < text.size();) {
    if (options.limit && spec.jobs.size() == options.limit) break;
    const char* nl =
        static_cast<const char*>(std::memchr(text.data() + pos, '\n', text.size() - pos));
    const size_t end = nl ? static_cast<size_t>(nl - text.data()) : text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;  // trailing newlines
    auto fail = [&](std::string what) {
      return Status::InvalidArgument(src + ":" + std::to_string(line_no) + ": " + what);
    };
    Result<size_t> n = SplitFields(line, fields);
    if (!n.ok()) return fail(n.status().message());
    uint64_t num[6] = {};
    if (Status st = ParseNumbers(fields, num); !st.ok()) return fail(st.message());
    if (fields[0].empty()) return fail("field 1 (job_id): empty");
    if (!ids.insert(fields[0]).second)
      return fail("field 1 (job_id): repeated job id '" + std::string(fields[0]) + "'");
    const uint64_t submit = num[1], input = num[3];
    if (submit < prev_submit)
      return fail("field 2 (submit_time_s): submit time goes backwards (" + std::to_string(submit) +
                  " after " + std::to_string(prev_submit) + ")");
    prev_submit = submit;
    const uint64_t maps = std::max<uint64_t>(1, CeilDiv(input, options.block_size));
    if (maps > kMaxJobTasks)
      return fail("field 4 (map_input_bytes): " + std::to_string(input) + " bytes make " +
                  std::to_string(maps) + " maps for a block size of " +
                  std::to_string(options.block_size) + ", over the " +
                  std::to_string(kMaxJobTasks) + " a job may have");
    spec.jobs.push_back(TraceJob(fields, *n, num, static_cast<uint32_t>(maps), options, graph,
                                 spec.jobs.size() + 1));  // seeds 1, 2, ...
  }
  if (spec.jobs.empty()) return Status::InvalidArgument(src + ": empty trace (no jobs)");
  return spec;
}

std::optional<ClusterSpec> SwimTraceCluster(std::string_view path) {
  const std::string name = std::filesystem::path(path).filename().string();
  int machines = 0;
  if (name.starts_with("FB-2009") || name.starts_with("samples_24_times_1hr_")) machines = 600;
  if (name.starts_with("FB-2010")) machines = 3000;
  if (machines == 0) return std::nullopt;
  return ClusterSpec({NodeGroup{.count = machines, .map_slots = 1, .reduce_slots = 1}});
}

Result<WorkloadSpec> LoadSwimTrace(const std::string& path, const AppSchemas& apps,
                                   const TraceOptions& options) {
  if (auto app = CheckOptions(options, apps); !app.ok()) return app.status();
  Result<std::string> text = ReadWorkloadFile(path);
  if (!text.ok()) return text.status();
  return ParseSwimTrace(*text, path, apps, options);
}

}  // namespace mrlocal
