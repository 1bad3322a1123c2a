#include "tools/runtime/solo_time.h"

#include <algorithm>
#include <map>
#include <mutex>
#include <vector>

#include "tools/runtime/workload_runner.h"

namespace mrlocal {
namespace {

// What identifies a solo measure: the job's work and the cluster it runs on.
std::string SoloKey(const WorkloadJob& j, size_t jobs, const ClusterSpec& cluster) {
  std::string key = std::to_string(jobs) + "|" + j.app + "|" + std::to_string(j.maps) + "|" +
                    std::to_string(j.reduces) + "|" + cluster.ToString() + "|" +
                    std::to_string(j.input.graph_nodes) + "|" +
                    std::to_string(j.input.graph_edges) + "|" + std::to_string(j.input.graph_skew) +
                    "|" + std::to_string(j.input.bytes);
  for (const std::string& f : j.input.files) key += "|" + f;
  return key;
}

Result<double> Latency(const Result<WorkloadRun>& run, size_t jobs) {
  if (!run.ok()) return run.status();
  if (run->metrics.completed != jobs) return Status::Internal("a job did not complete");
  return run->metrics.latency_s.max;
}

}  // namespace

SoloTime MakeSoloTime(bool sim, const ClusterSpec& cluster, const Calibration& calibration) {
  return [sim, cluster, calibration](const WorkloadSpec& given) -> Result<double> {
    WorkloadSpec alone = given;
    alone.availability.clear();
    alone.model.noise = 0;
    for (WorkloadJob& j : alone.jobs) j.deadline_s.reset();
    WorkloadRunOptions o;
    o.cluster = cluster;
    o.calibration = calibration;
    o.keep_attempts = false;
    const size_t jobs = alone.jobs.size();
    if (sim) return Latency(RunWorkloadSim(alone, o), jobs);

    static std::mutex mu;
    static std::map<std::string, double> measured;
    const std::string key = SoloKey(alone.jobs.at(0), jobs, cluster);
    std::lock_guard lock(mu);  // one real run at a time: they must not share the cores
    if (auto it = measured.find(key); it != measured.end()) return it->second;
    std::vector<double> runs;
    for (int i = 0; i < kRealSoloRuns; ++i) {
      auto s = Latency(RunWorkloadReal(alone, o), jobs);
      if (!s.ok()) return s.status();
      runs.push_back(*s);
    }
    std::nth_element(runs.begin(), runs.begin() + runs.size() / 2, runs.end());
    return measured[key] = runs[runs.size() / 2];
  };
}

}  // namespace mrlocal
