// Random workloads for the deadline policies' property tests: a cluster, jobs whose tasks
// have a worst case and an actual time, arrivals, deadlines, and if asked node slowdowns
// and task noise, drawn from a seed within the ranges a test states. One generator, so
// that each property test says only how its workloads differ from the others'.
//
// Draw order (a seed gives the same workload for as long as it holds): the shape, the
// cluster, the jobs and their tasks, the arrivals, then the extras (slowdowns, noise). The
// extras come last so that asking for them leaves the rest of the workload as it was.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "sched/core/cluster_spec.h"
#include "sched/core/speed_profile.h"

namespace mrlocal::testing {

struct IntRange {  // [lo, hi]
  int lo = 0, hi = 0;
};
struct RealRange {  // [lo, hi)
  double lo = 0, hi = 0;
};

// How a workload's estimates fit its tasks.
struct WorkloadShape {
  bool one_speed = false;    // every node at one speed drawn for the workload
  bool equal_tasks = false;  // a job's maps all have one worst case, and its reduces one
  // Each task's actual time over its worst case; none: exactly its worst case.
  std::optional<RealRange> run_fraction{};
};

// Every field has a default (none, zero, off), so that a test names only what it draws:
// WorkloadRanges{.nodes = {1, 6}, ...}.
struct WorkloadRanges {
  // Cluster: nodes of map_slots and reduce_slots each (at least one reduce slot in all),
  // each at one of `speeds`.
  IntRange nodes{}, map_slots{}, reduce_slots{};
  std::vector<double> speeds{};
  WorkloadShape shape{};
  // A share of the workloads (0 to 1) takes the `tight` shape instead.
  std::optional<WorkloadShape> tight{};
  double tight_share = 0;

  // Jobs: each of `maps` maps and `reduces` reduces, of worst case map_s / reduce_s seconds
  // at speed 1.0. Log-uniform map counts make small jobs, whose stages overlap, common.
  IntRange jobs{}, maps{};
  bool log_uniform_maps = false;
  IntRange reduces{};
  RealRange map_s{}, reduce_s{};
  bool replicas = false;  // each map's split on a random node (else on none)

  // Deadline: this times the job's IsolatedPath; arrivals exponential, their mean gap
  // this times the jobs' mean IsolatedPath.
  RealRange deadline_path{}, mean_gap_path{};

  // Slowdowns: this share of the nodes (0 to 1) steps `slowdown_steps` times inside the
  // arrivals' horizon, alternately to one of `slowdown_factors` and back to 1.0.
  double slowed_share = 0;
  IntRange slowdown_steps{};
  std::vector<double> slowdown_factors{};
  // Task noise: the SimExecutor's log-normal sigma, one of these; none: no noise.
  std::vector<double> noise_sigmas{};
};

struct RandomJob {
  double arrival_s = 0, deadline_s = 0;           // deadline relative to arrival
  std::vector<uint64_t> map_units, reduce_units;  // worst case, µs at speed 1.0
  std::vector<double> map_s, reduce_s;            // actual work, s at speed 1.0
  std::vector<NodeId> map_node;                   // each split's replica; empty: none
};

struct RandomWorkload {
  uint64_t seed = 0;
  ClusterSpec cluster;
  std::vector<RandomJob> jobs;
  std::map<NodeId, SpeedProfile> availability;
  double noise_sigma = 0;
};

// The job's worst-case finish alone on the empty cluster at full availability (RTMR's
// Algorithms II and III with all vectors zero): its largest map and reduce at the slowest
// slot of their kind, in ceil(M/l) and ceil(R/q) waves.
inline double IsolatedPath(const RandomJob& j, const ClusterSpec& c) {
  double slow_m = 1, slow_r = 1;
  for (const SlotInfo& s : c.Slots()) {
    double& slowest = s.kind == SlotKind::kMap ? slow_m : slow_r;
    slowest = std::min(slowest, s.speed);
  }
  const double phi_m = *std::max_element(j.map_units.begin(), j.map_units.end()) * 1e-6 / slow_m;
  double path = std::ceil(double(j.map_units.size()) / c.map_slots()) * phi_m;
  if (!j.reduce_units.empty()) {
    const double phi_r =
        *std::max_element(j.reduce_units.begin(), j.reduce_units.end()) * 1e-6 / slow_r;
    path += std::ceil(double(j.reduce_units.size()) / c.reduce_slots()) * phi_r;
  }
  return path;
}

namespace random_workload_internal {

// One workload's draws, in the order the header comment gives.
class Drawer {
 public:
  Drawer(const WorkloadRanges& r, uint64_t seed) : r_(r), seed_(seed), rng_(seed) {}

  RandomWorkload Draw() {
    RandomWorkload w;
    w.seed = seed_;
    // A share of 0 or 1 draws nothing: the workloads of one shape keep their draws.
    const bool tight = r_.tight && r_.tight_share > 0 &&
                       (r_.tight_share >= 1 || std::bernoulli_distribution(r_.tight_share)(rng_));
    shape_ = tight ? *r_.tight : r_.shape;
    w.cluster = DrawCluster();
    const double horizon_s = DrawJobs(w.cluster, w.jobs);
    if (r_.slowed_share > 0)
      for (NodeId n = 0; n < w.cluster.nodes(); ++n)
        if (Chance(r_.slowed_share)) w.availability[n] = DrawSlowdown(horizon_s);
    if (!r_.noise_sigmas.empty()) w.noise_sigma = Pick(r_.noise_sigmas);
    return w;
  }

 private:
  int Int(IntRange x) { return std::uniform_int_distribution<int>(x.lo, x.hi)(rng_); }
  double Real(RealRange x) { return std::uniform_real_distribution<double>(x.lo, x.hi)(rng_); }
  bool Chance(double p) { return std::bernoulli_distribution(p)(rng_); }
  double Pick(const std::vector<double>& v) { return v[size_t(Int({0, int(v.size()) - 1}))]; }

  ClusterSpec DrawCluster() {
    std::vector<NodeGroup> nodes(static_cast<size_t>(Int(r_.nodes)));
    // Drawn whenever a shape may use it, so that both shapes share the later draws.
    const bool any_one_speed = r_.shape.one_speed || (r_.tight && r_.tight->one_speed);
    const double speed = any_one_speed ? Pick(r_.speeds) : 0;
    int reduce_slots = 0;
    for (NodeGroup& n : nodes) {
      n = NodeGroup{1, Int(r_.map_slots), Int(r_.reduce_slots),
                    shape_.one_speed ? speed : Pick(r_.speeds)};
      reduce_slots += n.reduce_slots;
    }
    // A job's reduces need a slot somewhere.
    if (reduce_slots == 0) nodes[size_t(Int({0, int(nodes.size()) - 1}))].reduce_slots = 1;
    return ClusterSpec(std::move(nodes));
  }

  int DrawMapCount() {
    if (!r_.log_uniform_maps) return Int(r_.maps);
    const double e = std::exp(Real({std::log(double(r_.maps.lo)), std::log(r_.maps.hi + 1.0)}));
    return std::min(r_.maps.hi, static_cast<int>(e));
  }

  // Worst case in whole microseconds, actual a whole number of them no larger: the
  // estimate (units × 1e-6 / slowest speed) is then never below the actual time, even
  // after rounding.
  void DrawTask(double worst_s, std::vector<uint64_t>& units, std::vector<double>& actual_s) {
    const uint64_t u = static_cast<uint64_t>(worst_s * 1e6);
    units.push_back(u);
    const double fraction = shape_.run_fraction ? Real(*shape_.run_fraction) : 1.0;
    actual_s.push_back(std::floor(double(u) * fraction) * 1e-6);
  }

  // Draws the jobs, their deadlines and arrivals; returns the arrivals' horizon (one gap
  // past the last, plus the mean path).
  double DrawJobs(const ClusterSpec& cluster, std::vector<RandomJob>& jobs) {
    jobs.resize(static_cast<size_t>(Int(r_.jobs)));
    double mean_path = 0;
    for (RandomJob& j : jobs) {
      const int maps = DrawMapCount();
      const int reduces = Int(r_.reduces);
      const double map_s = Real(r_.map_s), reduce_s = Real(r_.reduce_s);
      for (int i = 0; i < maps; ++i) {
        DrawTask(shape_.equal_tasks ? map_s : Real(r_.map_s), j.map_units, j.map_s);
        if (r_.replicas) j.map_node.push_back(Int({0, cluster.nodes() - 1}));
      }
      for (int i = 0; i < reduces; ++i)
        DrawTask(shape_.equal_tasks ? reduce_s : Real(r_.reduce_s), j.reduce_units, j.reduce_s);
      const double path = IsolatedPath(j, cluster);
      j.deadline_s = Real(r_.deadline_path) * path;
      mean_path += path / double(jobs.size());
    }
    std::exponential_distribution<double> gap(1.0 / (Real(r_.mean_gap_path) * mean_path));
    double t = 0;
    for (RandomJob& j : jobs) {
      j.arrival_s = t;
      t += gap(rng_);
    }
    return t + mean_path;
  }

  // Step times in [0, horizon_s), sorted; a repeated time keeps its first step.
  SpeedProfile DrawSlowdown(double horizon_s) {
    std::vector<double> at;
    for (int k = Int(r_.slowdown_steps); k > 0; --k) at.push_back(Real({0, horizon_s}));
    std::sort(at.begin(), at.end());
    SpeedProfile p;
    for (size_t k = 0; k < at.size(); ++k)
      if (p.empty() || FromSeconds(at[k]) > p.times().back())
        p.Add(FromSeconds(at[k]), k % 2 ? 1.0 : Pick(r_.slowdown_factors));
    return p;
  }

  const WorkloadRanges& r_;
  uint64_t seed_;
  std::mt19937_64 rng_;
  WorkloadShape shape_;
};

}  // namespace random_workload_internal

// The workload `seed` draws within `ranges` (std::mt19937_64 seeded with it).
inline RandomWorkload DrawWorkload(const WorkloadRanges& ranges, uint64_t seed) {
  return random_workload_internal::Drawer(ranges, seed).Draw();
}

// Enough to rebuild a failing workload by hand: cluster, slowdowns, noise, and each job's
// tasks as worst/actual seconds.
inline std::string Describe(const RandomWorkload& w) {
  std::ostringstream o;
  o << "seed " << w.seed << ", cluster " << w.cluster.ToString();
  if (w.noise_sigma > 0) o << ", noise sigma " << w.noise_sigma;
  o << "\n";
  for (const auto& [node, p] : w.availability) {
    o << "  node " << node << ":";
    for (size_t k = 0; k < p.size(); ++k)
      o << " " << Seconds(p.times()[k] - Time{0}) << " s → " << p.factors()[k];
    o << "\n";
  }
  for (size_t i = 0; i < w.jobs.size(); ++i) {
    const RandomJob& j = w.jobs[i];
    o << "  job " << i + 1 << ": arrival " << j.arrival_s << " s, deadline " << j.deadline_s
      << " s, maps";
    for (size_t k = 0; k < j.map_units.size(); ++k)
      o << " " << j.map_units[k] * 1e-6 << "/" << j.map_s[k];
    o << ", reduces";
    for (size_t k = 0; k < j.reduce_units.size(); ++k)
      o << " " << j.reduce_units[k] * 1e-6 << "/" << j.reduce_s[k];
    o << " (worst/actual s)\n";
  }
  return o.str();
}

}  // namespace mrlocal::testing
