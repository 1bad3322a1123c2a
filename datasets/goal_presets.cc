#include "datasets/goal_presets.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <utility>
#include <vector>

#include "datasets/availability_profile.h"
#include "datasets/preset_rng.h"

namespace mrlocal {
namespace {

constexpr std::array<PresetParameter, 5> kParameters = {{
    {"load", 0.05, 3, false, 0.8,
     "offered map work / the map slots' mean capacity (base speeds x mean availability)"},
    {"goal-factor", 1, 100, false, 3,
     "goal = this x the job's time alone at the mean availability"},
    {"trough", 0.05, 1, false, 0.2,
     "ra-web, ra-bursty: the day's lowest availability (1 at its peak)"},
    {"map-s", 0.01, 3600, false, 20, "mean map task seconds at speed 1.0 (reduces 1.5x)"},
    {"forecast-shift", -0.5, 0.5, false, 0,
     "ra-web, ra-bursty: the forecast of the day, early (< 0) or late by this share of a day; "
     "0: exact"},
}};

constexpr double kUnitsPerDay = 90;
constexpr double kReduceToMap = 1.5;
constexpr double kBurstFactor = 0.3;           // of what the day leaves
constexpr double kBurstEveryDays = 1.0 / 6;    // a burst starts every 15 units on average
constexpr double kBurstLengthDays = 1.0 / 30;  // and lasts 3 units
constexpr double kHorizonDays = 2;             // the profile beyond the last arrival

double MeanSpeed(const ClusterSpec& cluster, SlotKind kind) {
  double sum = 0;
  int n = 0;
  for (const SlotInfo& s : cluster.Slots())
    if (s.kind == kind) sum += s.speed, ++n;
  return n ? sum / n : 1.0;
}

// The jobs' sizes and task times, before arrivals and goals.
void DrawJobs(Rng& rng, size_t n, const ClusterSpec& cluster, double map_s, WorkloadSpec& spec) {
  const uint64_t S = std::max(1, cluster.map_slots());
  const uint32_t reduce_slots = std::max(1, cluster.reduce_slots());
  for (size_t i = 0; i < n; ++i) {
    WorkloadJob& job = spec.jobs.emplace_back();
    const double u = rng.Uniform();
    std::string size;
    if (u < 0.6)
      size = "small",
      job.maps = static_cast<uint32_t>(rng.Between(1, std::max<uint64_t>(1, S / 2)));
    else if (u < 0.9)
      size = "medium", job.maps = static_cast<uint32_t>(rng.Between(S, 3 * S));
    else
      size = "large", job.maps = static_cast<uint32_t>(rng.Between(5 * S, 8 * S));
    job.name = "job" + std::to_string(i) + "-" + size;
    job.app = "synthetic";
    job.reduces = std::min(reduce_slots, (job.maps + 19) / 20);
    const double mean = Ms(rng.NormalAtLeast(map_s, 0.25 * map_s, 0.1 * map_s));
    job.params.SetSeconds("map_s", {mean});
    job.params.SetSeconds("reduce_s", {Ms(kReduceToMap * mean)});
  }
}

// The job's time alone on the cluster at availability 1: its waves of maps, then of reduces.
double SoloSeconds(const WorkloadJob& job, const ClusterSpec& cluster, double map_speed,
                   double reduce_speed) {
  const double map_s = job.params.TaskSeconds("map_s")[0];
  const double reduce_s = job.params.TaskSeconds("reduce_s")[0];
  const double map_waves = std::ceil(job.maps / static_cast<double>(cluster.map_slots()));
  const double reduce_waves = std::ceil(job.reduces / static_cast<double>(cluster.reduce_slots()));
  return map_waves * map_s / map_speed + reduce_waves * reduce_s / reduce_speed;
}

Result<std::vector<ProfileStep>> Day(double trough, double day_s, double phase_s, double until_s) {
  SinusoidProfile day{.period_s = day_s,
                      .min = trough,
                      .max = 1.0,
                      .phase_s = phase_s,
                      .step_s = 0,
                      .until_s = until_s};
  return ExpandSinusoid(day);
}

}  // namespace

bool IsGoalPreset(std::string_view name) {
  return name == "ra-alone" || name == "ra-web" || name == "ra-bursty";
}

std::span<const PresetParameter> GoalPresetParameters() { return kParameters; }

Result<WorkloadSpec> MakeGoalPreset(std::string_view name, uint64_t seed, const PresetOptions& o) {
  WorkloadSpec spec;
  spec.cluster = o.cluster ? *o.cluster : *ClusterSpec::Parse(kGoalPresetCluster);
  const ClusterSpec& cluster = *spec.cluster;
  spec.model.noise = o.noise;
  const double map_s = PresetParameterValue(o, name, "map-s");
  // The slots' mean speeds, once: every job's solo time and the capacity read them.
  const double map_speed = MeanSpeed(cluster, SlotKind::kMap);
  const double reduce_speed = MeanSpeed(cluster, SlotKind::kReduce);
  const double unit = map_s / map_speed;
  const double day_s = kUnitsPerDay * unit;
  const double trough = PresetParameterValue(o, name, "trough");

  Rng rng(seed);
  DrawJobs(rng, o.jobs ? o.jobs : 60, cluster, map_s, spec);
  const double phase_s = Ms(rng.Uniform() * day_s);

  // The mean availability the arrivals are sized to: the day's mean, less the bursts'
  // expected share.
  double availability = 1.0;
  if (name != "ra-alone") availability = (1 + trough) / 2;
  if (name == "ra-bursty")
    availability *= 1 - kBurstLengthDays / kBurstEveryDays * (1 - kBurstFactor);
  double work = 0;
  for (const WorkloadJob& job : spec.jobs) work += job.maps * job.params.TaskSeconds("map_s")[0];
  const double capacity = cluster.map_slots() * map_speed * availability;
  const double mean_gap_s =
      work / spec.jobs.size() / (PresetParameterValue(o, name, "load") * capacity);
  double t = 0;
  for (size_t i = 0; i < spec.jobs.size(); ++i) {
    if (i > 0) t = Ms(t + rng.Exponential(mean_gap_s));
    spec.jobs[i].arrival_s = t;
    spec.jobs[i].goal_s =
        Ms(PresetParameterValue(o, name, "goal-factor") *
           SoloSeconds(spec.jobs[i], cluster, map_speed, reduce_speed) / availability);
  }
  if (name == "ra-alone") return spec;

  const double until_s = t + kHorizonDays * day_s;
  auto day = Day(trough, day_s, phase_s, until_s);
  if (!day.ok()) return day.status();
  AvailabilityProfile profile;
  for (int n = 0; n < cluster.nodes(); ++n) profile.nodes.push_back(n);
  profile.steps = *day;
  const double shift = PresetParameterValue(o, name, "forecast-shift");
  if (shift != 0) {
    auto told = Day(trough, day_s, phase_s + shift * day_s, until_s);
    if (!told.ok()) return told.status();
    profile.forecast = *told;
  }
  if (name == "ra-bursty") {
    BurstProfile bursts{.every_s = kBurstEveryDays * day_s,
                        .length_s = kBurstLengthDays * day_s,
                        .factor = kBurstFactor,
                        .gaps = BurstProfile::Gaps::kExponential,
                        .seed = seed ^ 0x6275727374ull,
                        .until_s = until_s};
    auto burst_steps = ExpandBursts(bursts);
    if (!burst_steps.ok()) return burst_steps.status();
    if (!profile.forecast) profile.forecast = profile.steps;  // the bursts are not foreseen
    profile.steps = MultiplyProfiles(profile.steps, *burst_steps);
  }
  spec.availability.push_back(std::move(profile));
  spec.forecast.period_s = day_s;  // what `--forecast learned` repeats
  return spec;
}

}  // namespace mrlocal
