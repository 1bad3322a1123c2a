#include "tools/runtime/probe.h"

#include <zlib.h>

#include <algorithm>

#include "engine/gzip_lines.h"
#include "sched/core/units.h"
#include "tools/runtime/app_registry.h"
#include "tools/runtime/real_job.h"
#include "tools/runtime/runtime.h"

namespace mrlocal {
namespace {

constexpr uint64_t kSampleBytes = 8ull << 20;

// Cuts `text` after the last line end within its first `limit` bytes, or after the end of
// a first line longer than that. False when it cannot tell yet (no line end so far).
bool CutAtLineEnd(std::string& text, uint64_t limit) {
  if (text.size() < limit) return false;
  size_t end = text.rfind('\n', limit - 1);
  if (end == std::string::npos) end = text.find('\n', limit);
  if (end == std::string::npos) return false;
  text.resize(end + 1);
  return true;
}

// The head of `path` (decompressed, for a gzip file): up to `limit` bytes of whole lines.
Result<std::string> ReadHead(const BlockStore& store, const std::string& path, uint64_t limit) {
  std::string text;
  if (IsGzipPath(path)) {
    auto lines = OpenGzipLines(store, path, /*preferred_node=*/-1);
    if (!lines.ok()) return lines.status();
    for (;;) {
      auto run = (*lines)->Next();
      if (!run.ok()) return run.status();
      if (run->empty()) return text;
      text.append(*run);
      if (CutAtLineEnd(text, limit)) return text;
    }
  }
  auto blocks = store.BlockCount(path);
  if (!blocks.ok()) return blocks.status();
  for (uint32_t b = 0; b < *blocks; ++b) {
    auto block = store.ReadBlock(path, b, /*preferred_node=*/-1);
    if (!block.ok()) return block.status();
    text.append(block->data);
    if (CutAtLineEnd(text, limit)) return text;
  }
  return text;
}

// `text` as a gzip file, at zlib's default level (gzip's too).
Result<std::string> Gzip(std::string_view text) {
  z_stream zs{};
  if (deflateInit2(&zs, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY) != Z_OK)
    return Status::Internal("deflateInit2 failed");
  std::string out(deflateBound(&zs, static_cast<uLong>(text.size())), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(text.data()));
  zs.avail_in = static_cast<uInt>(text.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(&zs, Z_FINISH);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) return Status::Internal("deflate failed");
  return out;
}

// Runs `app` on `store`'s `paths` once, under the best-effort policy (fifo) with no
// output, and returns what JobHistory::Record makes of it.
Result<AppEstimate> RunSample(const JobApp& app, BlockStore& store,
                              const std::vector<std::string>& paths, const ProbeRequest& q) {
  RealJobRequest r;
  r.app = &app;
  r.store = &store;
  r.paths = paths;
  r.reduces = 1;
  r.partitions = 1;
  r.sketch_rows = 1;
  r.top = 0;
  r.skip_bad_records = q.skip_bad_records;
  auto parts = PrepareRealJob(r);
  if (!parts.ok()) return parts.status();
  RuntimeOptions ro;
  ro.cluster = q.cluster;
  ro.policy = BestEffortPolicy().name;
  ro.partitioner = "hash";
  ro.controller.observer_tick = Duration::zero();  // no progress lines for the probe
  ro.pin = q.pin;
  auto runtime = Runtime::Real(std::move(ro));
  if (!runtime.ok()) return runtime.status();
  const JobId id = (*runtime)->Submit({std::move(parts->spec), std::move(parts->real)});
  (*runtime)->Run();
  const Controller& controller = (*runtime)->controller();
  const JobState& job = controller.state().job(id);
  const JobOutcome& outcome = controller.outcome(id);
  if (job.phase != JobPhase::kDone) {
    if (!outcome.failure.ok()) return outcome.failure.WithContext("job failed: ");
    return Status::Internal("job failed: " + job.failure);
  }
  JobHistory scratch;
  scratch.Record(ObserveJob(job, controller.state(), outcome.map_output_units));
  const AppEstimate* e = scratch.Find(app.name);
  return e ? *e : AppEstimate{};  // nothing measurable (an empty sample): costs nothing
}

}  // namespace

Result<AppEstimate> ProbeSmallJob(const ProbeRequest& q, const JobApp& small,
                                  const std::string& what, const ProbeNote& before_run) {
  BlockStoreOptions so;
  so.nodes = q.cluster.nodes();
  auto store = BlockStore::InMemory(so);
  if (!store.ok()) return store.status();
  before_run(what);
  return RunSample(small, **store, {}, q);
}

Result<AppEstimate> ProbeInputSample(const ProbeRequest& q, const ProbeNote& before_run) {
  // The first input with data: its head is what the job's maps start with.
  std::string path;
  uint64_t sample_bytes = kSampleBytes;
  for (const std::string& p : q.paths) {
    auto info = q.store->Stat(p);
    if (!info.ok()) return info.status();
    if (info->size > 0) {
      path = p;
      // The bigger map is one of the job's splits: how much a map's combiner shrinks
      // its input (alpha) depends on the split's size.
      if (!IsGzipPath(p) && !info->blocks.empty())
        sample_bytes = std::max(sample_bytes, info->blocks[0].length / 3 * 4);
      break;
    }
  }
  if (path.empty()) {
    before_run("nothing (the input is empty)");
    return AppEstimate{};
  }
  auto head = ReadHead(*q.store, path, sample_bytes);
  if (!head.ok()) return head.status();
  auto text = std::make_shared<std::string>(std::move(head).value());
  BlockStoreOptions so;
  so.nodes = q.cluster.nodes();
  PutOptions put;
  std::shared_ptr<const std::string> stored = text;
  if (IsGzipPath(path)) {
    // The job's one map per gzip file reads compressed bytes and inflates them: so does
    // the probe's, and its costs are per compressed byte, as the job's estimate needs.
    auto gz = Gzip(*text);
    if (!gz.ok()) return gz.status();
    stored = std::make_shared<const std::string>(std::move(gz).value());
  } else {
    // Blocks of 3/4 of the sample: a full-size map and one of a third of its size.
    put.block_size = std::max<uint64_t>(1, (text->size() * 3 + 3) / 4);
  }
  auto store = BlockStore::InMemory(so);
  if (!store.ok()) return store.status();
  // Under the input's own name, so that a bad record is reported where it is.
  Status st = (*store)->PutBuffer(path, stored, put);
  if (!st.ok()) return st;
  before_run("a " + FormatBytes(text->size()) + " sample");
  return RunSample(*q.app, **store, {path}, q);
}

Result<AppEstimate> ProbeApp(const AppDescriptor& app, const ProbeRequest& q,
                             const ProbeNote& before_run) {
  Result<AppEstimate> measured = app.probe(q, before_run);
  if (!measured.ok()) return measured.status();
  // The probe saw a few tasks once, on a sample, on a machine that may be busy with
  // something else, where history keeps the worst of whole jobs. Doubling every cost covers
  // a task twice as slow as the probe's slowest (noise, a cold cache, a denser part of the
  // input); alpha and the skew x1.5 cover an input whose later part has more distinct keys
  // than its head, and reduce skew the one-reduce probe cannot see.
  AppEstimate e = *measured;
  AppModel& m = e.model;
  m.map_fixed_s *= kProbeCostFactor;
  m.map_s_per_unit *= kProbeCostFactor;
  m.reduce_fixed_s *= kProbeCostFactor;
  m.reduce_s_per_unit *= kProbeCostFactor;
  m.alpha *= kProbeShapeFactor;
  m.reduce_skew = std::max(1.0, m.reduce_skew) * kProbeShapeFactor;
  e.jobs = 1;
  e.source = "probe";
  return e;
}

}  // namespace mrlocal
