// The scheduler service behind `mrlocal serve` (issue 22): one real Runtime whose slots
// stay up, serving jobs that several users submit while it runs, under any registered
// policy; under dynprio, the queues' budgets and spending rates of Sandholm and Lai's
// allocator (section 3), charged interval by interval into the durable store.
//
// Threads: the Runtime's loop runs on a thread of the service's own; callers (the HTTP
// threads) hand it work through the loop's Post and wait for the answer. What the API
// reads while jobs run (progress, the slots' Gantt, decision latency) is a snapshot the
// loop thread keeps under a mutex. The store (tools/serve/service_store.h) is the record:
// a job is written there before it is submitted, and every phase change after.
//
// Restarts: a job that had not finished when the server stopped (SIGTERM past the grace
// period, a crash, kill -9) is queued again and runs from the start when the server
// starts next; its output is committed atomically, so nothing of the first attempt shows.
// A charge is recorded when its allocation interval closes: slot time of an interval the
// crash cut short is never charged, and none is charged twice.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "sched/core/cluster_spec.h"
#include "sched/core/queue_spec.h"
#include "sched/policy/policy_args.h"
#include "tools/serve/service_store.h"

namespace mrlocal {

struct ServiceOptions {
  ClusterSpec cluster;
  std::string policy = "dynprio";
  PolicyArgs policy_args;
  std::string partitioner = "dp-sketch";
  std::filesystem::path state_dir;  // the store's; outputs go to state_dir/outputs/<job id>
  // Submitted jobs read files only under these (canonical paths); none: no files at all.
  std::vector<std::filesystem::path> data_roots;
  std::optional<uint64_t> memory_limit;
  bool pin = true;
  // Jobs queued or running at once; a submission beyond is refused (503) until some end.
  size_t max_active_jobs = 10'000;
};

// Who makes a call: the key that signed it.
struct Caller {
  std::string key;
  Role role = Role::kReader;
  std::string queue;  // an owner's
};

// A job as the API shows it: its record (its task counts, and once it has ended, how a
// local run of it would have ended), and while it runs, its progress.
struct JobView {
  StoredJob record;
  uint32_t maps_done = 0, reduces_done = 0;
  // In [0, 1], running attempts' progress counted (sched/core/job_progress.h).
  double map_progress = 0, reduce_progress = 0;
  std::optional<double> deadline_s;  // from submission
  double elapsed_s = 0;              // since submission (to its end, once finished)
  // Deadline jobs: what is left of the deadline (negative: missed by that much).
  std::optional<double> slack_s;
  // The admission's worst-case finish, from submission, for a job admitted with one.
  std::optional<double> estimate_s;
  std::string admission;  // the policy's reason
};

// A slot as the console's Gantt shows it.
struct SlotView {
  int id = 0, node = 0;
  bool map = true;
  double speed = 1;
  int64_t job = 0;  // 0: idle
  bool task_is_map = true;
  uint32_t task = 0;
  double since_s = 0;  // since the service started
};

// The scheduler's own cost. decisions and the percentiles are the Controller's own
// SchedulerStats (every policy call: admissions, picks, ticks), as `mrlocal workload`
// reports them, so that a run with and without the service compare; the histogram, for
// /metrics and the console, holds each slot decision's latency in power-of-two
// microsecond buckets (bucket i: under 2^i us; the last, the rest).
struct SchedulerView {
  std::string policy;
  double uptime_s = 0;
  uint64_t decisions = 0;
  double p50_us = 0, p99_us = 0;
  std::vector<uint64_t> latency_buckets;
  uint64_t slot_decisions = 0;  // in the histogram
  double latency_sum_s = 0;
  double latency_max_s = 0;
};

struct QueueView {
  QueueRecord record;
  // Its share of the map and reduce slots (dynprio, capacity) as the last allocation interval
  // ended; 0 under other policies.
  double share_map = 0, share_reduce = 0;
  int running = 0, pending = 0;  // tasks of its jobs
};

class Service {
 public:
  // Opens nothing itself: `store` must outlive the service. Creates the default queue (rate
  // 0: it runs on what paying queues leave) on a first start, starts the slots and the
  // loop, and submits again the jobs the store holds as queued or running.
  static Result<std::unique_ptr<Service>> Start(ServiceOptions options, ServiceStore& store);
  ~Service();  // Stop(zero) if not stopped

  // Refuses new jobs from now on; waits up to `grace` for the running and queued jobs to
  // end, then cancels what is left (queued again in the store: they run at the next
  // start) and stops the slots. Idempotent; returns when the loop thread has ended.
  void Stop(std::chrono::milliseconds grace);

  // A job of the workload spec's job format (README, "Workload spec"), as JSON text.
  // InvalidArgument (a bad job, a file outside the data roots, a queue the caller may not
  // use), NotFound (no such queue, no such input file), ResourceExhausted (too many jobs,
  // or the service is stopping). The job is admitted or rejected by the time it returns.
  Result<JobView> Submit(const Caller& caller, std::string_view job_json);
  // NotFound also for another user's job (admins and readers see all).
  Result<JobView> Job(const Caller& caller, int64_t id) const;
  std::vector<JobView> Jobs(const Caller& caller, size_t limit) const;
  // Ends a queued or running job (its output discarded). NotFound as Job; InvalidArgument
  // for a job that has ended already.
  Result<JobView> Cancel(const Caller& caller, int64_t id);

  // Queue changes: recorded in the store first, then told to the policy (Runtime::
  // ChangeQueue) when it has queues. The API checks roles before calling.
  Status CreateQueue(const Caller& caller, const std::string& name, MicroCredits rate);
  Status SetRate(const Caller& caller, const std::string& name, MicroCredits rate);
  Status Deposit(const Caller& caller, const std::string& name, MicroCredits amount);
  std::vector<QueueView> Queues() const;
  double price() const;  // the sum of the paying queues' bids (dynprio), 0 otherwise

  std::vector<SlotView> Slots() const;
  SchedulerView Scheduler() const;
  const ServiceOptions& options() const { return options_; }
  ServiceStore& store() const { return store_; }
  bool stopping() const;

  class Impl;

 private:
  Service(ServiceOptions options, ServiceStore& store);
  Status TellPolicy(QueueEvent::Kind kind, QueueSpec queue, double value);
  ServiceOptions options_;
  ServiceStore& store_;
  std::unique_ptr<Impl> impl_;
};

// Unix milliseconds now.
int64_t NowMs();

}  // namespace mrlocal
