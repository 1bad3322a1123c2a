#include "tools/runtime/calibration_run.h"

#include <algorithm>

#include "engine/block_store.h"
#include "sched/core/units.h"
#include "tools/runtime/real_job.h"
#include "tools/runtime/runtime.h"

namespace mrlocal {
namespace {

// Least-squares line y = a + b x; b >= 0 and a >= 0.
std::pair<double, double> FitLine(const std::vector<TaskPoint>& pts) {
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
  void OnPlan(const JobState&, const PartitionPlan& plan, Time) override {
    job.reduce_load = plan.reduce_load;
  }
  void OnTaskReport(const TaskReport& r) override {
    if (!r.status.ok()) return;
    double secs = Seconds(r.end - r.start);
    if (r.task.kind == TaskKind::kMap) {
      job.maps.push_back({double(r.input_bytes), secs});
      job.map_output += r.output_bytes;
    } else {
      job.reduce_secs.push_back({r.task.index, secs});
    }
  }
  MeasuredJob job;
};

}  // namespace

Result<MeasuredJob> MeasureJob(const ClusterSpec& cluster, const JobApp& app,
                               std::shared_ptr<const std::string> data, uint64_t block_size,
                               uint32_t reduces) {
  BlockStoreOptions so;
  so.block_size = block_size > 0 ? block_size : (32ull << 20);
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
  q.reduces = reduces;
  q.partitions = 4 * reduces;
  q.top = 0;
  auto parts = PrepareRealJob(q);
  if (!parts.ok()) return parts.status();
  RuntimeOptions ro;
  ro.cluster = cluster;  // under the best-effort policy: the job needs no admission
  auto runtime = Runtime::Real(std::move(ro));
  if (!runtime.ok()) return runtime.status();
  TaskLog log;
  (*runtime)->AddObserver(&log);
  const JobId id = (*runtime)->Submit({std::move(parts->spec), std::move(parts->real)});
  (*runtime)->Run();
  const JobState& job = (*runtime)->controller().state().job(id);
  if (job.phase != JobPhase::kDone)
    return Status::Internal("calibration job failed: " + job.failure);
  return std::move(log.job);
}

CalibrationResult FitModel(const CalibrationSamples& s) {
  CalibrationResult r;
  AppModel& m = r.model;
  std::tie(m.map_fixed_s, m.map_s_per_unit) = FitLine(s.maps);
  if (!s.reduces.empty()) std::tie(m.reduce_fixed_s, m.reduce_s_per_unit) = FitLine(s.reduces);
  m.alpha = s.map_input > 0 ? double(s.map_output) / double(s.map_input) : 0;
  r.map_tasks = s.maps.size();
  r.reduce_tasks = s.reduces.size();
  return r;
}

}  // namespace mrlocal
