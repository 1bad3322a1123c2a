// The Executor of a simulation: no app code runs; each attempt's end is computed from a
// model and scheduled as an event on the SimLoop. The Controller and the policy cannot
// tell it from the real engine (DESIGN.md §4, in the shared design notes beside the repository).
//
// Model of one attempt on slot k (speed s_k, node n):
//   work     W seconds at speed 1.0: the job's per-task figure (SimJob), times a log-normal
//            noise factor with mean 1 drawn from (seed, job, task, attempt) — so the draw
//            does not depend on the order events happen in. Its normal is cut at ±3 sigma
//            (0.27 % of draws), so that a task has a worst case (MaxNoiseFactor) that the
//            deadline policies' estimates can cover;
//   speed    s_k × a_n(t), where a_n is node n's availability profile (a step function);
//            the attempt ends when the integral of the speed over its compute time
//            reaches W;
//   network  over several hosts (NetworkModel), a reduce first pulls the share of its
//            input that maps on other hosts made, then computes.
#pragma once

#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "sched/core/executor.h"
#include "sched/core/fault_injection.h"
#include "sched/core/speed_profile.h"
#include "sched/sim/network_model.h"
#include "sched/sim/sim_loop.h"

namespace mrlocal {

// What the simulation knows of a job's tasks. The sizes are what a real run's reports say
// of the same job (executor.h's TaskReport); empty vectors report 0.
struct SimJob {
  std::vector<double> map_work_s;       // one per map task, seconds at speed 1.0
  std::vector<double> reduce_work_s;    // one per reduce task, seconds at speed 1.0
  std::vector<uint64_t> map_input;      // bytes each map reads; empty: no input (pi, synthetic)
  std::vector<uint64_t> map_output;     // size units each map outputs (its shuffle share)
  std::vector<uint64_t> reduce_output;  // bytes written per reduce
  // The job's map output by partition, as the maps' sketches would sum it: the partition
  // plan (and so the reports' reduce loads) is made of it. Reported whole with the job's
  // first finished map, since the Controller uses only the sum: nothing to pay per map.
  // Width 0: none.
  CountMinSketch shuffle;
};

struct SimExecutorOptions {
  double noise = 0;  // sigma of the log-normal factor; 0: none
  uint64_t seed = 1;
  std::map<NodeId, SpeedProfile> availability;  // factors in (0, 1]
  NetworkModel network;                         // default: one host
  // Injected faults (fault_injection.h); null: none. Must outlive the executor. Its
  // node-slow steps multiply the availability here only: the controller is not told.
  const FaultInjector* faults = nullptr;
};

class SimExecutor final : public Executor {
 public:
  SimExecutor(SimLoop& loop, std::vector<SlotInfo> slots, SimExecutorOptions options = {});

  // Registers a job's model before the Controller submits it under `id`.
  void AddJob(JobId id, SimJob job);

  void SetReportFn(ReportFn fn) override { report_ = std::move(fn); }
  void Launch(const TaskLaunch& launch) override;
  void Cancel(SlotId slot, uint64_t token) override;
  void SetPlan(JobId job, const ReducePlan& plan) override;
  Status FinishJob(JobId job, bool success) override;
  double Progress(SlotId slot) const override;
  bool reports_on_loop_thread() const override { return true; }

  // The largest noise factor a task can draw with log-normal sigma `sigma`.
  static double MaxNoiseFactor(double sigma);
  // The factor with log-normal sigma `sigma` as `n` equally likely values: the top of each
  // of n equal-probability bins, so never below the factor's own distribution (the last
  // is MaxNoiseFactor). What a model-based estimate says of how tasks spread.
  static std::vector<double> NoiseQuantiles(double sigma, int n);
  static constexpr double kNoiseClipSigmas = 3;

  // Task attempts started and ended so far (the simulation's "task events").
  uint64_t task_events() const { return events_; }
  // When `end` is reached by a task of `work` seconds starting at `from` on `slot`.
  Time EndOf(SlotId slot, Time from, double work_s) const;

 private:
  struct Running {
    uint64_t token = 0;  // 0: the slot is idle
    TaskLaunch launch;
    Time start{0};
    Time compute_from{0};  // after a reduce's pull over the network
    Time end{0};
    double work_s = 0;
    double remote_bytes = 0;
    Status fault;  // an injected fault ends the attempt at `end` with this status
  };
  struct JobModel {
    SimJob job;
    // Over a network: the partition sizes (the job's sketch), each reduce's share of the
    // map output (from its plan), and the host of each map's output.
    CountMinSketch partitions;
    std::vector<double> reduce_units;
    std::vector<int> map_host;
  };
  double RemoteBytes(const JobModel& m, uint32_t reduce, int host) const;
  double Noise(const TaskLaunch& l) const;
  double Speed(SlotId slot, Time t) const;
  // An injected fault that ends the attempt `r` early: its end and status.
  void InjectFault(Running& r) const;
  void Finish(SlotId slot, uint64_t token);

  SimLoop& loop_;
  std::vector<SlotInfo> slots_;
  SimExecutorOptions options_;
  std::map<NodeId, SpeedProfile> slowed_;             // availability x injected slowdowns
  std::vector<const SpeedProfile*> profile_of_slot_;  // null: always 1.0
  std::vector<Running> running_;
  std::unordered_map<JobId, JobModel> jobs_;  // until FinishJob
  ReportFn report_;
  uint64_t events_ = 0;
};

}  // namespace mrlocal
