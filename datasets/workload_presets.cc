#include "datasets/workload_presets.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <numbers>
#include <random>
#include <span>
#include <utility>

#include "datasets/goal_presets.h"
#include "datasets/preset_rng.h"

namespace mrlocal {
namespace {

// One bin of RTMR's Tables III and IV: jobs, then closed intervals (integers).
struct Bin {
  int jobs;
  uint32_t maps_lo, maps_hi;
  uint32_t reduces_lo, reduces_hi;
  uint32_t deadline_lo, deadline_hi;
};

// Workload I: Table II's first six bins (#maps in benchmark, # of jobs in benchmark) with
// Table III's reduce and deadline intervals ("30": bin 6's reduces are fixed at the
// cluster's 30 reduce slots).
constexpr std::array<Bin, 6> kWorkload1 = {{
    {38, 1, 1, 1, 5, 200, 300},
    {16, 2, 2, 1, 5, 200, 300},
    {14, 10, 10, 5, 10, 300, 400},
    {8, 50, 50, 10, 20, 500, 800},
    {6, 100, 100, 20, 30, 1000, 1500},
    {6, 200, 200, 30, 30, 2000, 2500},
}};
// Workload II: Table IV.
constexpr std::array<Bin, 5> kWorkload2 = {{
    {9, 1, 10, 1, 5, 200, 300},
    {24, 10, 50, 5, 10, 300, 500},
    {25, 50, 100, 15, 30, 1000, 1500},
    {18, 100, 200, 25, 50, 1500, 2500},
    {13, 200, 300, 35, 70, 2500, 3500},
}};
constexpr double kRtmrMeanGapS = 14;  // "exponential with a mean of 14 seconds"

// Cluster of RTMR's Table I. One map slot per core ("we make the number of map slots in a
// worker node equal to the number of CPU cores") and one reduce slot per node. Type I nodes
// have 2 dual-core Opteron 275, type II 2 single-core Opterons, all at 2.2 GHz: the same
// clock and the same K8 core, so a slot (one core) runs a task at the same speed on
// either type and S = 1.0. The paper's heterogeneity is in slots per node (4 vs 2), not in
// speed; the only difference per core is the dual-core's shared memory controller, which
// the paper does not measure, so no other value is better grounded.
constexpr std::string_view kRtmrCluster = "20x(4m,1r,1.0)+10x(2m,1r,1.0)";
// MarS's "50 identical machines", each running one task at a time, maps and reduces
// alike: a map and a reduce slot per node, and a node task limit of 1, so that no schedule
// overlaps a map and a reduce on a machine and beats the 50-machine LP bound.
constexpr std::string_view kMarsCluster = "50x(1m,1r,1.0,1t)";
// MarS section 6.2's 16 one-task machines for 2 cores: each throttled to 0.1, 1.6 cores
// in all, so that a real run's slots seldom wait for a core and its tasks run long beside
// the engine's per-task costs (a 64 KiB WordCount map: about 10 ms). Slower throttles
// multiply every cold page fault of a task by 1 / speed: at 0.025, a process's first
// run took up to twice as long as its next ones.
constexpr std::string_view kMarsWordCountCluster = "16x(1m,1r,0.1,1t)";

Status CheckOptions(const PresetOptions& o) {
  if (!(std::isfinite(o.map_task_s) && o.map_task_s > 0))
    return Status::InvalidArgument("preset: map task seconds must be positive");
  if (!(std::isfinite(o.reduce_task_s) && o.reduce_task_s > 0))
    return Status::InvalidArgument("preset: reduce task seconds must be positive");
  if (!(std::isfinite(o.noise) && o.noise >= 0))
    return Status::InvalidArgument("preset: noise must be a non-negative number");
  return Status::OK();
}

template <size_t N>
Result<WorkloadSpec> Rtmr(std::string_view name, const std::array<Bin, N>& bins, uint64_t seed,
                          const PresetOptions& o) {
  size_t total = 0;
  for (const Bin& b : bins) total += static_cast<size_t>(b.jobs);
  if (o.jobs != 0 && o.jobs != total)
    return Status::InvalidArgument("preset " + std::string(name) + " has " + std::to_string(total) +
                                   " jobs (its table's); it cannot make " + std::to_string(o.jobs));
  Rng rng(seed);
  struct Drawn {
    int bin;
    uint32_t maps, reduces, deadline;
  };
  std::vector<Drawn> drawn;
  for (size_t b = 0; b < bins.size(); ++b)
    for (int k = 0; k < bins[b].jobs; ++k) {
      Drawn d{static_cast<int>(b + 1), 0, 0, 0};
      d.maps = static_cast<uint32_t>(rng.Between(bins[b].maps_lo, bins[b].maps_hi));
      d.reduces = static_cast<uint32_t>(rng.Between(bins[b].reduces_lo, bins[b].reduces_hi));
      d.deadline = static_cast<uint32_t>(rng.Between(bins[b].deadline_lo, bins[b].deadline_hi));
      drawn.push_back(d);
    }
  for (size_t i = drawn.size() - 1; i > 0; --i) std::swap(drawn[i], drawn[rng.Below(i + 1)]);

  WorkloadSpec spec;
  spec.cluster = *ClusterSpec::Parse(kRtmrCluster);
  spec.model.noise = o.noise;
  // The paper's testbed ran Hadoop 0.21, whose reduces may launch once 5 % of their job's
  // maps are done (mapred.reduce.slowstart.completed.maps). rtmr's dispatcher opts out.
  spec.reduce_slowstart = kHadoopReduceSlowstart;
  double t = 0;  // the first job arrives at 0, the others after exponential gaps
  for (size_t i = 0; i < drawn.size(); ++i) {
    if (i > 0) t = Ms(t + rng.Exponential(kRtmrMeanGapS));
    WorkloadJob& job = spec.jobs.emplace_back();
    job.name = "job" + std::to_string(i) + "-bin" + std::to_string(drawn[i].bin);
    job.arrival_s = t;
    job.app = "synthetic";
    job.maps = drawn[i].maps;
    job.reduces = drawn[i].reduces;
    job.deadline_s = drawn[i].deadline;
    job.params.SetSeconds("map_s", {o.map_task_s});
    job.params.SetSeconds("reduce_s", {o.reduce_task_s});
  }
  return spec;
}

// MarS's releases: "Bernoulli with probability 2" (garbled): one job released in a step
// with probability 1/2, so gaps are geometric with mean 2 steps. The step of the next job,
// after the one at `step` - 1; advances `step` past it.
uint64_t NextReleaseStep(Rng& rng, uint64_t& step) {
  while (rng.Uniform() >= 0.5) ++step;
  return step++;
}

// MarS's job weights: N(30, 10) conditioned on > 0 (drawn again at or below 0: 0.1% of
// draws).
double MarsWeight(Rng& rng) {
  double w;
  do w = Ms(rng.Normal(30, 10));
  while (w <= 0);
  return w;
}

// MarS section 4.4's task-level experiments (T-MarS, HTWF, TWTCT) weigh each task.
constexpr std::array<PresetParameter, 1> kMarsParameters = {{
    {"task-weights", 0, 1, true, 0,
     "1: each task its own weight W_u ~ N(30, 10), drawn again at or below 0 (MarS section 4.4), "
     "the jobs otherwise the same; 0: each task weighs its job's"},
}};
constexpr std::array<PresetParameter, 2> kDynShareParameters = {{
    {"concurrency", 1, 100, true, 4,
     "jobs in the system on average if the cluster were shared equally: offered load "
     "C / (C + 1) of its throughput, a job every (1 + 1/C) x the mean service time"},
    {"strict-factor", 1, 100, false, 5,
     "strict deadline = this x the job's solo time (relaxed: 2x strict for light jobs, 4/3x "
     "for heavy, the paper's ratios)"},
}};

std::span<const PresetParameter> ParametersOf(std::string_view preset) {
  if (preset == "mars-random" || preset == "mars-uniform") return kMarsParameters;
  if (preset == "dynshare") return kDynShareParameters;
  if (IsGoalPreset(preset)) return GoalPresetParameters();
  return {};
}


// MarS section 5.1.1. `random`: Poisson(30) maps, U[1, maps] reduces, N(10,5) and N(15,5)
// task times; otherwise 30 maps, 10 reduces, 10 s and 15 s. With the task-weights
// parameter, W_u from a stream of their own, so that the jobs stay those drawn without.
WorkloadSpec Mars(std::string_view name, uint64_t seed, const PresetOptions& o) {
  const bool random = name == "mars-random";
  const bool task_weights = PresetParameterValue(o, name, "task-weights") != 0;
  Rng rng(seed), task_weight_rng(seed ^ 0x7461736b77656967ull);
  WorkloadSpec spec;
  spec.cluster = *ClusterSpec::Parse(kMarsCluster);
  spec.model.noise = o.noise;
  const size_t jobs = o.jobs ? o.jobs : 50;
  uint64_t step = 0;
  for (size_t i = 0; i < jobs; ++i) {
    WorkloadJob& job = spec.jobs.emplace_back();
    job.name = "job" + std::to_string(i);
    job.arrival_s = static_cast<double>(NextReleaseStep(rng, step));
    job.app = "synthetic";
    if (random) {
      uint64_t maps;
      do maps = rng.Poisson(30);
      while (maps == 0);  // a job has at least one map (P(0) = e^-30)
      job.maps = static_cast<uint32_t>(maps);
      job.reduces = static_cast<uint32_t>(rng.Between(1, maps));
      // Truncated to >= 0.1 s by drawing again: the mean map time is then 10.3 s, not 10.
      std::vector<double> map_s, reduce_s;
      for (uint32_t k = 0; k < job.maps; ++k) map_s.push_back(Ms(rng.NormalAtLeast(10, 5, 0.1)));
      for (uint32_t k = 0; k < job.reduces; ++k)
        reduce_s.push_back(Ms(rng.NormalAtLeast(15, 5, 0.1)));
      job.params.SetSeconds("map_s", std::move(map_s));
      job.params.SetSeconds("reduce_s", std::move(reduce_s));
    } else {
      job.maps = 30;
      job.reduces = 10;
      job.params.SetSeconds("map_s", {10});
      job.params.SetSeconds("reduce_s", {15});
    }
    job.weight = MarsWeight(rng);
    // "Delays ... proportional to the processing time of map tasks", with no constant: a
    // tenth of the job's mean map time, per job (our model has one delay per job).
    double sum = 0;
    const std::vector<double>& map_s = job.params.TaskSeconds("map_s");
    for (double s : map_s) sum += s;
    job.shuffle_delay_s = Ms(0.1 * sum / static_cast<double>(map_s.size()));
    if (task_weights)
      for (uint32_t u = 0; u < job.maps + job.reduces; ++u)
        job.task_weights.push_back(MarsWeight(task_weight_rng));
  }
  return spec;
}

// MarS section 6.2 scaled by 1/1024: the paper's 27 Wikipedia files (149 MB to 9.98 GB,
// 43.7 GB in all, 10 under 1 GB) become the 17 shared texts (121 KB to 4.4 MB) and 10
// generated ones that bring the set to the paper's largest file and total at that scale
// (9.75 MB, and nine of 1.2-2.2 MB: 42.7 MB in all); 64 MB blocks become 64 KiB, so a job
// has 2 to 149 maps (the paper's 3 to 156). Job set 1 is the 10 smallest, all under
// 1 MiB (the paper's "under 1 GB"); job set 2 all 27.
struct WordCountFile {
  std::string_view path;  // under <datasets>/text; empty: generated text
  uint64_t bytes;         // its size: generated text's, and the shared file's when absent
};
constexpr std::array<WordCountFile, 27> kWordCountFiles = {{
    {"gutenberg/pg5200.txt", 121'113},
    {"gutenberg/pg11.txt", 147'618},
    {"gutenberg/pg16.txt", 262'410},
    {"gutenberg/pg236.txt", 278'235},
    {"gutenberg/pg74.txt", 421'995},
    {"gutenberg/pg174.txt", 442'125},
    {"gutenberg/pg1661.txt", 574'438},
    {"gutenberg/pg76.txt", 581'334},
    {"gutenberg/pg1342.txt", 697'725},
    {"gutenberg/pg98.txt", 771'136},
    {"gutenberg/pg345.txt", 857'413},
    {"wikipedia/wikitext-2-valid.txt", 1'121'681},
    {"gutenberg/pg2554.txt", 1'155'139},
    {"", 1'200'000},
    {"gutenberg/pg2701.txt", 1'236'925},
    {"", 1'300'000},
    {"", 1'400'000},
    {"", 1'500'000},
    {"", 1'600'000},
    {"", 1'700'000},
    {"", 1'800'000},
    {"", 1'900'000},
    {"gutenberg/pg1399.txt", 1'980'656},
    {"", 2'200'000},
    {"gutenberg/pg2600.txt", 3'267'437},
    {"kjv-bible.txt", 4'404'412},
    {"", 9'750'000},
}};  // smallest first
constexpr size_t kWordCountJobSet1 = 10;
constexpr uint64_t kWordCountBlock = 64 << 10;
// A release step of 1 ms, a job every 2 ms on average: a fifth of a 64 KiB map on mars-16
// (about 10 ms at speed 0.1), as the simulation's 2 s are a fifth of its 10 s maps.
constexpr double kWordCountStepS = 0.001;

Result<WorkloadSpec> MarsWordCount(uint64_t seed, const PresetOptions& o) {
  const size_t n = o.jobs ? o.jobs : kWordCountFiles.size();
  if (n > kWordCountFiles.size())
    return Status::InvalidArgument(
        "preset mars-wordcount has " + std::to_string(kWordCountFiles.size()) +
        " jobs (job set 2; job set 1 is --jobs " + std::to_string(kWordCountJobSet1) +
        "); it cannot make " + std::to_string(n));
  WorkloadSpec spec;
  spec.cluster = *ClusterSpec::Parse(kMarsWordCountCluster);
  spec.model.noise = o.noise;
  spec.block_size = kWordCountBlock;
  const std::string texts = o.datasets_dir + "/text";
  std::error_code ec;
  const bool shared =
      !o.datasets_dir.empty() &&
      std::all_of(kWordCountFiles.begin(), kWordCountFiles.end(), [&](const WordCountFile& f) {
        return f.path.empty() || std::filesystem::exists(texts + "/" + std::string(f.path), ec);
      });
  // The n smallest files, in an order the seed shuffles, so that size does not follow
  // release.
  std::vector<size_t> order(n);
  for (size_t i = 0; i < n; ++i) order[i] = i;
  Rng rng(seed);
  for (size_t i = n - 1; i > 0; --i) std::swap(order[i], order[rng.Below(i + 1)]);
  uint64_t step = 0;
  for (size_t i = 0; i < n; ++i) {
    const WordCountFile& f = kWordCountFiles[order[i]];
    WorkloadJob& job = spec.jobs.emplace_back();
    const std::string stem = f.path.empty() ? "gen" + std::to_string(order[i])
                                            : std::filesystem::path(f.path).stem().string();
    job.name = "job" + std::to_string(i) + "-" + stem;
    job.app = "wordcount";
    uint64_t bytes = f.bytes;
    if (shared && !f.path.empty()) {
      job.input.kind = InputSpec::Kind::kFiles;
      job.input.files = {texts + "/" + std::string(f.path)};
      bytes = std::filesystem::file_size(job.input.files[0], ec);
      if (ec) return Status::NotFound("cannot read '" + job.input.files[0] + "': " + ec.message());
    } else {
      job.input.kind = InputSpec::Kind::kGenerated;
      job.input.generator = "text";
      job.input.bytes = bytes;
      job.input.seed = order[i] + 1;  // one text per file of the table
    }
    // One map per 64 KiB block, reduces half the maps (section 6.2).
    job.maps = static_cast<uint32_t>((bytes + kWordCountBlock - 1) / kWordCountBlock);
    job.reduces = std::max<uint32_t>(1, job.maps / 2);
    job.arrival_s = Ms(kWordCountStepS * static_cast<double>(NextReleaseStep(rng, step)));
    job.weight = MarsWeight(rng);
  }
  spec.note = "mars-wordcount: " +
              (shared ? "the shared texts from " + texts + " and 10 generated ones"
                      : "no " + texts + ": generated text of the shared files' sizes (gen text)");
  return spec;
}

// DynamicShare's "Laxity Based Scheduling" (Fig. 5). Two friend-count jobs, as the
// paper's: a heavy one (its Twitter job; ours on soc-Slashdot0902, 948,464 edge lines)
// and a light one (its Youtube graph; ours facebook_combined, 88,234), with the same
// numbers of maps and reduces ("the same number of map and reduce tasks as in the Twitter
// job"; its 59 and 23, scaled to our 6 + 6 slots). Each job is heavy or light with equal
// share. The paper gives strict and relaxed deadlines, 2000/4000 ms (Youtube) and
// 15000/20000 ms (Twitter), but not the jobs' solo times: our strict deadline is
// strict-factor x the job's solo time, and the relaxed one keeps the paper's ratio for its
// kind (2 light, 4/3 heavy). A fixed 70 % of the jobs is strict.
// "C concurrent jobs": a job alone already takes every map slot (12 maps on 6), so the
// cluster serves jobs like one server. Arrivals at C / solo time (Little's law with the
// solo time as the response time) offer C times what it can serve: for C > 1 the queue
// grows without end, and a run measures only how long it was. Instead the offered load is
// rho = C / (C + 1) of the cluster's throughput: under processor sharing the mean number
// of jobs in the system is rho / (1 - rho) = C, whatever the jobs' sizes (M/G/1-PS,
// Kleinrock 1976, vol. 2 section 4.4); other policies keep about as many. The service
// time S of a kind is what one more job adds to a batch that keeps the cluster busy:
// (makespan of kDynShareBatch jobs at once - solo time) / (kDynShareBatch - 1), not the
// solo time, whose waves and reduce phase leave slots idle that a next job fills. A job
// arrives every mean(S) x (1 + 1/C) on average.
struct DynShareKind {
  std::string_view name;
  std::string_view file;  // under <datasets>/graphs
  uint64_t nodes, edges;  // the graph's shape, for `gen graph` when the file is absent
  double skew;            // its max/mean distinct degree (README, "Dataset generators")
  double relaxed_over_strict;
};
constexpr DynShareKind kDynShareHeavy = {
    "heavy", "soc-Slashdot0902.txt.gz", 82'168, 948'464, 208, 20000.0 / 15000};
constexpr DynShareKind kDynShareLight = {"light",      "facebook_combined.txt", 4'039, 88'234, 24,
                                         4000.0 / 2000};
constexpr uint32_t kDynShareMaps = 12, kDynShareReduces = 4;
constexpr double kStrictShare = 0.7;
constexpr size_t kDynShareBatch = 4;  // jobs at once, for a kind's service time
// Long enough to measure a stationary system, not the transient of a few jobs: over 10
// seeds in simulation, every policy's mean miss % at C = 1, 2 and 5 is within 2.5 points
// of a 640-job run's (at C = 10, a load of 0.91, within 10: heavy traffic settles slowly).
constexpr size_t kDynShareDefaultJobs = 320;
// Two fast nodes and four at half their speed; the slots' speeds add up to 1.0 per kind,
// 2.0 in all, so that a real run on 2 cores never has more busy slots than cores can
// serve at their throttled speed (an oversubscribed core would slow every slot on it and
// hide the heterogeneity).
constexpr std::string_view kDynShareCluster = "2x(1m,1r,0.25)+4x(1m,1r,0.125)";
// The paper's overloaded Workers (Fig. 6): node 0, a fast one, runs at a quarter of its
// speed while 10 jobs arrive (10 mean gaps), in the middle of the arrivals' expected span.
constexpr int kOverloadedNode = 0;
constexpr double kOverloadFactor = 0.25;
constexpr double kOverloadGaps = 10;

InputSpec DynShareInput(const DynShareKind& kind, const std::string& graphs, bool shared) {
  InputSpec in;
  if (shared) {
    in.kind = InputSpec::Kind::kFiles;
    in.files = {graphs + "/" + std::string(kind.file)};
    return in;
  }
  in.kind = InputSpec::Kind::kGenerated;
  in.generator = "graph";
  in.graph_nodes = kind.nodes;
  in.graph_edges = kind.edges;
  in.graph_skew = kind.skew;
  in.seed = kind.nodes;  // one graph per kind, the same in every workload
  return in;
}

std::string Fixed(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// 1.5 as "1.5", 2 as "2": for messages.
std::string Shortest(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.10g", v);
  return buf;
}

// One of dynshare's two kinds of job, with its times measured by PresetOptions::solo_time.
struct DynShareJobKind {
  const DynShareKind& kind;
  WorkloadJob job;
  double solo_s = 0, service_s = 0;
};

// k.solo_s, the job alone, and k.service_s, what one more such job adds to a busy cluster:
// (time of kDynShareBatch at once - solo) / (kDynShareBatch - 1).
Status MeasureKind(DynShareJobKind& k, const WorkloadSpec& cluster, const PresetOptions& o) {
  WorkloadSpec alone = cluster;
  alone.jobs = {k.job};
  auto solo = o.solo_time(alone);
  if (!solo.ok())
    return solo.status().WithContext("dynshare: solo time of the " + k.job.name + " job: ");
  k.solo_s = *solo;
  for (size_t i = 2; i <= kDynShareBatch; ++i)
    alone.jobs.emplace_back(k.job).name += "-" + std::to_string(i);
  auto batch = o.solo_time(alone);
  if (!batch.ok())
    return batch.status().WithContext("dynshare: " + std::to_string(kDynShareBatch) + " " +
                                      k.job.name + " jobs at once: ");
  k.service_s = (*batch - k.solo_s) / static_cast<double>(kDynShareBatch - 1);
  if (!(k.service_s > 0))
    return Status::InvalidArgument("dynshare: " + std::to_string(kDynShareBatch) + " " +
                                   k.job.name + " jobs at once took " + Fixed(*batch, 3) +
                                   " s, no longer than one alone (" + Fixed(k.solo_s, 3) + " s)");
  return Status::OK();
}

// n jobs, half of each kind, kStrictShare of them strict, at exponential gaps of mean
// mean_gap_s. Kinds, deadlines and unit gaps are drawn in an order that does not depend
// on C, so that one seed gives the same jobs at every concurrency, only closer together.
void AddDynShareJobs(WorkloadSpec& spec, const std::array<DynShareJobKind, 2>& kinds, size_t n,
                     uint64_t seed, double mean_gap_s, double strict_factor) {
  Rng rng(seed);
  std::vector<char> heavy(n, 0), strict(n, 0);  // not vector<bool>: swapped below
  std::fill(heavy.begin(), heavy.begin() + static_cast<long>(n / 2), 1);
  std::fill(strict.begin(), strict.begin() + std::lround(kStrictShare * static_cast<double>(n)), 1);
  for (std::vector<char>* v : {&heavy, &strict})
    for (size_t i = n - 1; i > 0; --i) std::swap((*v)[i], (*v)[rng.Below(i + 1)]);
  double unit_time = 0;  // the first job arrives at 0
  for (size_t i = 0; i < n; ++i) {
    if (i > 0) unit_time += rng.Exponential(1);
    const DynShareJobKind& k = kinds[heavy[i] ? 0 : 1];
    WorkloadJob& job = spec.jobs.emplace_back(k.job);
    job.name = "job" + std::to_string(i) + "-" + k.job.name + (strict[i] ? "-strict" : "-relaxed");
    job.arrival_s = Ms(unit_time * mean_gap_s);
    const double strict_s = strict_factor * k.solo_s;
    job.deadline_s = Ms(strict[i] ? strict_s : strict_s * k.kind.relaxed_over_strict);
  }
}

Result<WorkloadSpec> DynShare(uint64_t seed, const PresetOptions& o) {
  if (!o.solo_time) return Status::InvalidArgument("preset dynshare needs its jobs' solo times");
  const double concurrency = PresetParameterValue(o, "dynshare", "concurrency");
  const double strict_factor = PresetParameterValue(o, "dynshare", "strict-factor");
  const size_t n = o.jobs ? o.jobs : kDynShareDefaultJobs;
  WorkloadSpec spec;
  spec.cluster = *ClusterSpec::Parse(kDynShareCluster);
  spec.model.noise = o.noise;

  const std::string graphs = o.datasets_dir + "/graphs";
  std::error_code ec;
  const bool shared =
      !o.datasets_dir.empty() &&
      std::filesystem::exists(graphs + "/" + std::string(kDynShareHeavy.file), ec) &&
      std::filesystem::exists(graphs + "/" + std::string(kDynShareLight.file), ec);
  std::array<DynShareJobKind, 2> kinds = {{{kDynShareHeavy, {}}, {kDynShareLight, {}}}};
  for (DynShareJobKind& k : kinds) {
    k.job.app = "friendcount";
    k.job.name = std::string(k.kind.name);
    k.job.input = DynShareInput(k.kind, graphs, shared);
    k.job.maps = kDynShareMaps;
    k.job.reduces = kDynShareReduces;
    MRLOCAL_RETURN_IF_ERROR(MeasureKind(k, spec, o));
  }
  const double mean_service_s = (kinds[0].service_s + kinds[1].service_s) / 2;
  const double mean_gap_s = mean_service_s * (1 + 1 / concurrency);  // load C / (C + 1)
  AddDynShareJobs(spec, kinds, n, seed, mean_gap_s, strict_factor);
  // The overload: kOverloadGaps mean gaps in the middle of the arrivals' expected span
  // (all of it for fewer jobs), so that a longer run measures the same overload more often
  // rather than a longer one, which at a high C would outlast what the others can absorb.
  const double span_s = static_cast<double>(n) * mean_gap_s;
  const double overload_s = std::min(span_s, kOverloadGaps * mean_gap_s);
  const double overload_from_s = (span_s - overload_s) / 2,
               overload_to_s = overload_from_s + overload_s;
  spec.availability.push_back({{kOverloadedNode},
                               {{Ms(overload_from_s), kOverloadFactor}, {Ms(overload_to_s), 1.0}},
                               std::nullopt});
  spec.note = std::string("dynshare: ") +
              (shared ? "graphs from " + graphs
                      : "no " + graphs + ": generated graphs of the same shape (gen graph)") +
              "; solo " + Fixed(kinds[0].solo_s, 3) + " s heavy, " + Fixed(kinds[1].solo_s, 3) +
              " s light; service " + Fixed(kinds[0].service_s, 3) + " s heavy, " +
              Fixed(kinds[1].service_s, 3) + " s light; C " + Fixed(concurrency, 0) +
              ": a job every " + Fixed(mean_gap_s, 3) + " s on average; node " +
              std::to_string(kOverloadedNode) + " at " + Fixed(kOverloadFactor, 2) +
              "x speed from " + Fixed(overload_from_s, 2) + " s to " + Fixed(overload_to_s, 2) +
              " s";
  return spec;
}

struct Preset {
  std::string_view name;
  std::string_view summary;
};
constexpr std::array<Preset, 9> kPresets = {{
    {"rtmr-wl1",
     "RTMR workload I (Tables II, III): 88 jobs of 1-200 maps, deadlines, on rtmr-table1"},
    {"rtmr-wl2", "RTMR workload II (Table IV): 89 jobs of 1-300 maps, deadlines, on rtmr-table1"},
    {"mars-random",
     "MarS 5.1 random: Poisson(30) maps, N(10,5)/N(15,5) s tasks, weights, on mars-50"},
    {"mars-uniform", "MarS 5.1 uniform: 30 maps, 10 reduces, 10/15 s tasks, weights, on mars-50"},
    {"mars-wordcount",
     "MarS 6.2 scaled 1/1024: 27 WordCount jobs over the shared texts and generated ones (job "
     "set 1: --jobs 10), one map per 64 KiB, weights, on mars-16"},
    {"dynshare",
     "DynamicShare Fig. 5: friend-count on Slashdot/Facebook graphs, C concurrent jobs, 70 % "
     "strict deadlines, one node overloaded, on dynshare-het"},
    {"ra-alone",
     "Reverse-Adaptive experiment 1: small/medium/large jobs with soft goals, Poisson "
     "arrivals at a load, MapReduce alone, on 10x(4m,1r,1.0) or --cluster"},
    {"ra-web",
     "Reverse-Adaptive experiment 2: ra-alone's jobs beside a daily web load (availability a "
     "sinusoid between the trough and 1)"},
    {"ra-bursty",
     "Reverse-Adaptive experiment 3: ra-web with unforeseen bursts of load (0.3x) on top"},
}};

}  // namespace

Result<WorkloadSpec> MakePreset(std::string_view name, uint64_t seed, const PresetOptions& o) {
  MRLOCAL_RETURN_IF_ERROR(CheckOptions(o));
  if (!PresetSummary(name).empty())
    for (const auto& [parameter, value] : o.parameters)
      MRLOCAL_RETURN_IF_ERROR(CheckPresetParameter(name, parameter, value));
  Result<WorkloadSpec> spec = Status::InvalidArgument("");
  if (name == "rtmr-wl1")
    spec = Rtmr(name, kWorkload1, seed, o);
  else if (name == "rtmr-wl2")
    spec = Rtmr(name, kWorkload2, seed, o);
  else if (name == "mars-random" || name == "mars-uniform")
    spec = Mars(name, seed, o);
  else if (name == "mars-wordcount")
    spec = MarsWordCount(seed, o);
  else if (name == "dynshare")
    spec = DynShare(seed, o);
  else if (IsGoalPreset(name))
    spec = MakeGoalPreset(name, seed, o);
  else {
    std::string known;
    for (const Preset& p : kPresets) known += (known.empty() ? "" : ", ") + std::string(p.name);
    return Status::InvalidArgument("unknown preset '" + std::string(name) + "' (known: " + known +
                                   ")");
  }
  if (!spec.ok()) return spec;
  spec->name = std::string(name);
  spec->source = "preset " + std::string(name) + " (seed " + std::to_string(seed) + ")";
  spec->description = PresetSummary(name);
  return spec;
}

std::vector<std::string> PresetNames() {
  std::vector<std::string> names;
  for (const Preset& p : kPresets) names.emplace_back(p.name);
  return names;
}

std::string PresetSummary(std::string_view name) {
  for (const Preset& p : kPresets)
    if (p.name == name) return std::string(p.summary);
  return "";
}

std::vector<PresetParameter> PresetParameters(std::string_view name) {
  const std::span<const PresetParameter> known = ParametersOf(name);
  return {known.begin(), known.end()};
}

Status CheckPresetParameter(std::string_view preset, std::string_view parameter, double value) {
  const std::vector<PresetParameter> known = PresetParameters(preset);
  for (const PresetParameter& p : known) {
    if (p.name != parameter) continue;
    if (std::isfinite(value) && value >= p.min && value <= p.max &&
        (!p.integer || value == std::floor(value)))
      return Status::OK();
    return Status::InvalidArgument(
        std::string(parameter) + " must be " + (p.integer ? "an integer" : "a number") + " in [" +
        Shortest(p.min) + ", " + Shortest(p.max) + "] (got " + Shortest(value) + ")");
  }
  std::string names;
  for (const PresetParameter& p : known) names += (names.empty() ? "" : ", ") + std::string(p.name);
  return Status::InvalidArgument("preset " + std::string(preset) + " has no parameter '" +
                                 std::string(parameter) + "' (it has " +
                                 (names.empty() ? "none" : names) + ")");
}

Result<ClusterSpec> ClusterPreset(std::string_view name) {
  if (name == "rtmr-table1") return ClusterSpec::Parse(kRtmrCluster);
  if (name == "mars-50") return ClusterSpec::Parse(kMarsCluster);
  if (name == "mars-16") return ClusterSpec::Parse(kMarsWordCountCluster);
  if (name == "dynshare-het") return ClusterSpec::Parse(kDynShareCluster);
  return Status::InvalidArgument("unknown cluster preset '" + std::string(name) +
                                 "' (known: rtmr-table1, mars-50, mars-16, dynshare-het)");
}

std::vector<std::string> ClusterPresetNames() {
  return {"rtmr-table1", "mars-50", "mars-16", "dynshare-het"};
}

double PresetParameterValue(const PresetOptions& o, std::string_view preset, std::string_view name) {
  if (auto it = o.parameters.find(std::string(name)); it != o.parameters.end()) return it->second;
  for (const PresetParameter& p : ParametersOf(preset))
    if (p.name == name) return p.default_value;
  return 0;
}

}  // namespace mrlocal
