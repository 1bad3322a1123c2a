// One job on the real engine, as the job commands run it (README, "Deadlines"): its inputs
// put in a block store, a probe when a deadline policy has no history of the app or none
// of tasks of the job's size, submission with what is left of the deadline, a
// --best-effort second run of a job the admission rejected, the run itself, and the
// history updated from a job that ran to its end. A front end drives the steps in that
// order and prints between them; nothing here writes to the terminal but through
// JobRunNotes.
#pragma once

#include <chrono>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/block_store.h"
#include "engine/status.h"
#include "sched/core/cluster_spec.h"
#include "sched/report/run_recorder.h"
#include "sched/report/workload_metrics.h"
#include "tools/runtime/app_registry.h"
#include "tools/runtime/history_file.h"
#include "tools/runtime/interrupt.h"
#include "tools/runtime/job_app.h"
#include "tools/runtime/job_definition.h"
#include "tools/runtime/real_job.h"
#include "tools/runtime/run_estimator.h"
#include "tools/runtime/runtime.h"

namespace mrlocal {

// What one job is to do, validated: a front end maps its options onto it.
struct JobRequest {
  const JobApp* app = nullptr;  // must outlive the run
  const AppRegistry* apps = &AppRegistry::BuiltIn();
  // Local files, or paths in the persistent block store `store_dir`. None: the app's
  // built-in input (JobApp::make_default_input); apps without input files read none.
  std::vector<std::string> inputs;
  std::string store_dir;
  std::string output;  // empty: the output is computed, then discarded
  bool overwrite = false;
  ClusterSpec cluster;
  // The deadline and the goal run from `start`: reading inputs and probing count against them.
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();
  std::optional<Duration> deadline;
  std::optional<Duration> goal;
  std::string policy = BestEffortPolicy().name;
  PolicyArgs policy_args;         // the policy's settings; estimate-margin is the run's own
  std::string queue = "default";  // dynprio, capacity: the paying queue the job runs in
  std::string partitioner = "dp-sketch";
  uint32_t reduces = 1;
  uint32_t partitions = 1;
  int sketch_rows = 4;
  uint64_t block_size = 32ull << 20;
  int top = 10;  // the N best keys the report lists (JobMetrics::top)
  bool skip_bad_records = false;
  bool pin = true;
  // An MPI run's ranks (rank 0's end; sched/dist): the job runs on every rank's slots, the
  // cluster's nodes dealt to them round-robin. Null: this process only.
  Transport* transport = nullptr;
  // The deadline policies' estimates, recorded into after a job that ran to its end; may
  // be null (no deadline policy, no --history). Must outlive the run.
  HistoryFile* history = nullptr;
  // What the deadline policy asks: the history, or the kNN estimator over it (which learns
  // from this job's tasks as they finish, starting from the file's observations).
  EstimatorKind estimator = EstimatorKind::kHistory;
  // Failed attempts: how many a task may have (RetryOptions::max_attempts).
  uint32_t max_attempts = RetryOptions{}.max_attempts;
  // Speculative execution; none: on unless the policy vetoes it (Policy::speculation_veto)
  // or the job runs over MPI ranks. True under a policy that vetoes it: InvalidArgument.
  std::optional<bool> speculative;
  // The process's memory limit in bytes (engine/memory_limit.h); none: its default.
  std::optional<uint64_t> memory_limit;
  // Injected faults (sched/core/fault_injection.h): replica faults into the job's block
  // store, the others into the run.
  std::vector<Fault> faults;
};

// What a run tells as it goes, for the front end to print; each may be null.
struct JobRunNotes {
  std::function<void(const std::string& name)> generating_default_input;
  // A deadline policy has no history of the app, or none of tasks of this job's size
  // (`why`): it is probed first (`what`: "a 8.0 MiB sample").
  std::function<void(std::string_view why, std::string_view what)> probing;
};

// The figures of a job's run (sched/report/workload_metrics.h): a single job is a workload
// of one.
struct JobReport {
  WorkloadMetrics run;
  std::vector<JobMetrics> jobs;  // the one job
  const JobMetrics& job() const { return jobs.front(); }
};

// How submission went.
struct Submission {
  Duration setup{0};  // from the request's start to submission
  // An admission-controlled job whose deadline passed during set-up: not submitted.
  bool deadline_passed = false;
  bool admitted = false;
};

class JobRun {
 public:
  // Puts the inputs into a block store, prepares the job and, for a deadline policy with
  // no history of the app's tasks at this size, probes it. Errors are those of the
  // inputs, the probe or the policy; nothing has been written.
  static Result<std::unique_ptr<JobRun>> Prepare(const JobRequest& request,
                                                 const JobRunNotes& notes);
  ~JobRun();

  // Attached to this run's runtime, and to a --best-effort one.
  void AddObserver(ControllerObserver* observer);

  // Submits the job with what is left of its deadline.
  Submission Submit();
  // Runs a job that was not admitted anyway, under the policy registry's best-effort
  // fallback (BestEffortPolicy()), keeping its deadline so that the report still says whether it
  // was met.
  Status RunAnyway();
  bool best_effort() const { return best_effort_; }
  // Runs the job to its end. A signal that `interrupt` catches aborts it.
  void Run(Interrupt* interrupt);

  // The job and what it produced, once submitted.
  const JobState& job() const;
  const JobOutcome& outcome() const;
  // The run's cluster state and what its policy asks for task times (null: nothing), for
  // an observer that wants the estimate a task had at its launch.
  const ClusterState& state() const { return runtime_->controller().state(); }
  const Estimator* estimator() const { return estimator_->estimator(); }
  // The estimate the deadline policy went by, if any, and the margin it applied.
  const std::optional<AppEstimate>& estimate() const { return estimate_; }
  double estimate_margin() const { return estimate_margin_; }
  const std::string& policy() const { return request_.policy; }
  const std::string& queue() const { return request_.queue; }
  // The figures, with what the recorder does not know: a --best-effort run's rejection,
  // where the estimate came from, and N (the top list is cut to the `top` best keys).
  JobReport Report() const;
  // What the report files are made of: the run that ran the job.
  const RunRecorder& recorder() const { return *recorder_; }
  const std::vector<SlotInfo>& slots() const { return runtime_->slots(); }
  // What the queues paid and got (dynprio, capacity); null under other policies. Read on
  // the controller's thread (an observer) while the job runs.
  const QueueLedger* ledger() const { return runtime_->policy().Ledger(); }
  // The policy's overload snapshot (llf, when it marked a node overloaded).
  std::optional<LofEvaluation> overload() const { return runtime_->policy().OverloadSnapshot(); }

  // Records a job that ran to its end into the history file (HistoryFile::Record), unless
  // there is none or the run was interrupted.
  Status RecordHistory(std::ostream& out, std::ostream& err, bool quiet, bool interrupted);

 private:
  explicit JobRun(const JobRequest& request) : request_(request) {}
  Status SetUpStore(const JobRunNotes& notes);
  JobInputs Inputs() const;
  std::string Definition() const;
  Status Probe(const JobRunNotes& notes);
  std::string ProbeReason() const;
  Result<std::unique_ptr<Runtime>> MakeRuntime(const std::string& policy,
                                               RunRecorder* recorder) const;
  void SubmitTo(Runtime& runtime);

  JobRequest request_;
  std::unique_ptr<BlockStore> store_;
  std::vector<std::string> paths_;  // in store_
  RealJobParts prepared_;           // copied into each submission
  std::optional<AppEstimate> estimate_;
  std::unique_ptr<RunEstimator> estimator_;  // over request_.history's, once probed
  bool needs_estimator_ = false;             // the policy's trait
  double estimate_margin_ = 1.0;
  std::vector<ControllerObserver*> observers_;
  // The run's, and what it recorded; a --best-effort run's once RunAnyway.
  std::unique_ptr<RunRecorder> recorder_;  // declared first: it outlives the runtime
  std::unique_ptr<Runtime> runtime_;
  JobId id_ = 0;
  Duration setup_{0};
  bool best_effort_ = false;
  std::optional<Duration> rejected_estimate_;  // the admission's estimated finish
};

}  // namespace mrlocal
