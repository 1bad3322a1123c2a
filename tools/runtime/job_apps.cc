#include "tools/runtime/job_apps.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <ostream>
#include <string_view>

#include "apps/friendcount.h"
#include "apps/pi.h"
#include "apps/spin.h"
#include "apps/wordcount.h"
#include "datasets/text_generator.h"
#include "engine/typed_job.h"
#include "sched/core/cluster_spec.h"

namespace mrlocal {

JobApp WordCountApp() {
  JobApp job;
  job.name = "wordcount";
  job.make_runtime = [](JobRuntimeOptions o) -> std::shared_ptr<const JobRuntime> {
    return std::make_shared<TypedJobRuntime<apps::WordCount>>(std::move(o));
  };
  job.default_input_name = "default-corpus.txt";
  job.make_default_input = [] {
    return std::make_shared<const std::string>(GenerateText(DefaultCorpusOptions()));
  };
  return job;
}

JobApp FriendCountApp(bool list) {
  JobApp job;
  job.name = "friendcount";
  job.make_runtime = [list](JobRuntimeOptions o) -> std::shared_ptr<const JobRuntime> {
    return std::make_shared<TypedJobRuntime<apps::FriendCount>>(std::move(o),
                                                                apps::FriendCount{.list = list});
  };
  return job;
}

namespace {

// The value of the top-N entry named `key` (both of Pi's keys are always there).
uint64_t CountOf(const JobMetrics& s, std::string_view key) {
  for (const TopEntry& t : s.top) {
    if (t.key != key) continue;
    uint64_t v = 0;
    std::from_chars(t.value.data(), t.value.data() + t.value.size(), v);
    return v;
  }
  return 0;
}

// Hadoop's lines: it prints the first two when the job starts; progress goes to stderr, so
// printing them here gives the same stdout, and none for a job that never ran.
void PrintPiResult(std::ostream& out, uint32_t maps, uint64_t samples, const WorkloadMetrics& run,
                   const JobMetrics& s) {
  const unsigned __int128 total = static_cast<unsigned __int128>(maps) * samples;
  out << "Number of Maps  = " << maps << "\n"
      << "Samples per Map = " << samples << "\n";
  char line[160];
  std::snprintf(line, sizeof line, "Job Finished in %.3f seconds\n", s.elapsed_s);
  out << line;
  out << "Estimated value of Pi is " << apps::FormatPiEstimate(CountOf(s, "inside"), total) << "\n";
  // The map slots that could work at once, for the per-core rate.
  auto cluster = ClusterSpec::Parse(run.cluster);
  const uint32_t slots =
      std::min(maps, cluster.ok() ? static_cast<uint32_t>(cluster->map_slots()) : maps);
  if (s.elapsed_s > 0 && slots > 0) {
    const double rate = static_cast<double>(maps) * static_cast<double>(samples) / s.elapsed_s;
    std::snprintf(line, sizeof line, "Samples per second = %.4g (%.4g per core on %u map slot%s)\n",
                  rate, rate / slots, slots, slots == 1 ? "" : "s");
    out << line;
  }
}

}  // namespace

JobApp PiApp(uint32_t maps, uint64_t samples) {
  JobApp job;
  job.name = "pi";
  job.make_runtime = [samples](JobRuntimeOptions o) -> std::shared_ptr<const JobRuntime> {
    return std::make_shared<TypedJobRuntime<apps::Pi>>(std::move(o), apps::Pi{samples});
  };
  job.index_maps = maps;
  job.index_map_units = {samples};
  job.print_result = [maps, samples](std::ostream& out, const WorkloadMetrics& run,
                                     const JobMetrics& s) {
    PrintPiResult(out, maps, samples, run, s);
  };
  return job;
}

JobApp SyntheticApp(std::vector<double> map_s, double reduce_s_total, uint32_t reduces) {
  JobApp job;
  job.name = "synthetic";
  apps::Spin spin;
  const uint32_t maps = static_cast<uint32_t>(map_s.size());
  for (double s : map_s) job.index_map_units.push_back(SyntheticUnits(s));
  if (reduces > 0) {
    job.shuffle_units = SyntheticUnits(reduce_s_total);
    job.max_reduce_units = SyntheticUnits(reduce_s_total / reduces);
  }
  spin.map_s = std::make_shared<const std::vector<double>>(std::move(map_s));
  // 64 keys per reduce task: fine enough for the partitioner to balance the work.
  spin.keys = reduces == 0 ? 0 : 64 * reduces;
  if (spin.keys > 0 && maps > 0)
    spin.reduce_ns_per_key_and_map = static_cast<uint64_t>(reduce_s_total * 1e9 / spin.keys / maps);
  job.make_runtime = [spin](JobRuntimeOptions o) -> std::shared_ptr<const JobRuntime> {
    return std::make_shared<TypedJobRuntime<apps::Spin>>(std::move(o), spin);
  };
  job.index_maps = maps;
  return job;
}

uint64_t SyntheticUnits(double seconds) {
  return static_cast<uint64_t>(std::llround(seconds * 1e6));
}

}  // namespace mrlocal
