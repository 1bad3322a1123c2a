#include "tools/cli/job_runner.h"

#include <chrono>
#include <filesystem>
#include <iostream>
#include <limits>

#include "datasets/text_generator.h"
#include "engine/output_committer.h"
#include "engine/slot_worker.h"
#include "sched/core/cluster_spec.h"
#include "sched/core/units.h"
#include "sched/dist/mpi_executor.h"
#include "sched/dist/mpi_transport.h"
#include "sched/partition/partitioner.h"
#include "sched/policy/policy_registry.h"
#include "sched/report/workload_metrics.h"
#include "sched/report/workload_report.h"
#include "tools/cli/admission_report.h"
#include "tools/cli/option_checks.h"
#include "tools/cli/progress_printer.h"
#include "tools/cli/workload_options.h"
#include "tools/runtime/closing_report.h"
#include "tools/runtime/exit_codes.h"
#include "tools/runtime/history_file.h"
#include "tools/runtime/interrupt.h"
#include "tools/runtime/job_run.h"
#include "tools/runtime/queues_file.h"
#include "tools/runtime/rank_host.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

// The policies that estimate task times, the only ones --estimator applies to.
std::vector<std::string> EstimatingPolicies() {
  std::vector<std::string> names;
  for (const std::string& name : PolicyNames())
    if (FindPolicy(name).value()->traits.needs_estimator) names.push_back(name);
  return names;
}

// Everything validated before the job starts; any failure here is exit 2 and nothing has
// been written.
struct Plan {
  JobRequest request;
  std::optional<HistoryFile> history;  // request.history points here
  std::optional<QueuesFile> queues;    // --queues: charged as the job runs
};

// --queue, --queues and the queue-share settings, for dynprio and capacity: the queues file
// read (never trusted when corrupt) and the job's queue found in it.
Status PlanQueues(const JobOptions& o, Plan& p) {
  JobRequest& r = p.request;
  MRLOCAL_RETURN_IF_ERROR(CheckQueueShareOptions(o.allocation_interval, o.preempt, {r.policy}));
  // The policies with an allocation interval are those with paying queues.
  MRLOCAL_RETURN_IF_ERROR(
      CheckSettingOption(o.queue.has_value(), "--queue", kAllocationInterval, {r.policy}));
  MRLOCAL_RETURN_IF_ERROR(
      CheckSettingOption(o.queues_file.has_value(), "--queues", kAllocationInterval, {r.policy}));
  SetQueueShareSettings(o.allocation_interval, o.preempt, r.policy_args);
  if (o.queue) r.queue = *o.queue;
  if (!o.queues_file) return Status::OK();
  auto file = QueuesFile::Open(*o.queues_file);
  if (!file.ok()) return file.status().WithContext("--queues: ");
  if (!file->Has(r.queue)) {
    std::string names;
    for (const QueueSpec& q : file->queues()) names += (names.empty() ? "" : ", ") + q.name;
    return Status::InvalidArgument("--queue " + r.queue + ": no such queue in " + *o.queues_file +
                                   " (its queues: " + (names.empty() ? "none" : names) + ")" +
                                   (o.queue ? "" : "; name the job's with --queue"));
  }
  auto setup = std::make_shared<QueueSetup>();
  setup->queues = file->queues();
  r.policy_args.SetQueues(std::move(setup));
  p.queues = std::move(file).value();
  return Status::OK();
}

// The shuffle: reduces, partitions, the partitioner and its sketch. Each option's own range
// is checked while parsing (AddJobOptions); what is left here is how they go together.
Status ValidateShuffle(const JobOptions& o, int reduce_slots, JobRequest& r) {
  r.reduces = o.reduces ? *o.reduces : reduce_slots;
  if (o.partitions) {
    if (*o.partitions < static_cast<int>(r.reduces))
      return Status::InvalidArgument("--partitions must be at least --reduces (" +
                                     std::to_string(r.reduces) + ")");
    r.partitions = *o.partitions;
  } else {
    r.partitions = o.partitioner == "hash" ? r.reduces : 4 * r.reduces;
  }
  r.partitioner = o.partitioner;
  r.sketch_rows = o.sketch_rows;
  return Status::OK();
}

// The deadline, the policy and the cluster (each checked by its option). Over `ranks` MPI
// ranks the default cluster is each rank's default: one node per CPU of every rank.
void PlanScheduling(const JobOptions& o, int ranks, JobRequest& r) {
  if (o.deadline) r.deadline = ParseDuration(*o.deadline).value();
  if (o.goal) r.goal = ParseDuration(*o.goal).value();
  r.policy = o.policy     ? *o.policy
             : r.deadline ? DeadlineDefaultPolicy().name
                          : BestEffortPolicy().name;
  r.cluster = o.cluster.empty()
                  ? ClusterSpec::Default(static_cast<int>(AllowedCpus().size()) * ranks)
                  : ClusterSpec::Parse(o.cluster).value();
}

Result<Plan> Validate(const JobOptions& o, const JobApp& app, int ranks) {
  Plan p;
  JobRequest& r = p.request;
  r.app = &app;
  PlanScheduling(o, ranks, r);
  MRLOCAL_RETURN_IF_ERROR(ValidateShuffle(o, r.cluster.reduce_slots(), r));
  r.block_size = ParseSize(o.block_size).value();
  const PolicyDescriptor* policy = FindPolicy(r.policy).value();
  if (policy->traits.needs_preview)
    return Status::InvalidArgument("--policy " + r.policy +
                                   " plans over a whole workload before it runs; a single job "
                                   "has none (run it in `mrlocal workload`)");
  MRLOCAL_RETURN_IF_ERROR(CheckSettingOption(o.lof_threshold.has_value(), "--lof-threshold",
                                             kLofThreshold, {r.policy}));
  MRLOCAL_RETURN_IF_ERROR(
      CheckSettingOption(o.lof_min_pts.has_value(), "--lof-min-pts", kLofMinPts, {r.policy}));
  SetLofSettings(o.lof_threshold, o.lof_min_pts, r.policy_args);
  MRLOCAL_RETURN_IF_ERROR(
      CheckSettingOption(o.confidence.has_value(), "--confidence", kConfidence, {r.policy}));
  if (o.confidence) r.policy_args.Set(kConfidence, *o.confidence);
  MRLOCAL_RETURN_IF_ERROR(
      CheckSettingOption(o.fault_budget.has_value(), "--fault-budget", kFaultBudget, {r.policy}));
  if (o.fault_budget) r.policy_args.Set(kFaultBudget, double(*o.fault_budget));
  MRLOCAL_RETURN_IF_ERROR(PlanQueues(o, p));
  if (o.partitioner == "hash" && r.partitions != r.reduces)
    return Status::InvalidArgument("--partitioner hash needs --partitions equal to --reduces");
  if (!o.output.empty()) MRLOCAL_RETURN_IF_ERROR(OutputCommitter::Check(o.output, o.overwrite));
  if (std::error_code ec;
      !o.report_dir.empty() && fs::exists(o.report_dir, ec) && !fs::is_directory(o.report_dir, ec))
    return Status::InvalidArgument("--report: '" + o.report_dir + "' is not a directory");
  if (app.index_maps == 0 && !o.store.empty() && o.inputs.empty())
    return Status::InvalidArgument("--store needs at least one PATH");
  if (o.estimator && !policy->traits.needs_estimator)
    return Status::InvalidArgument("--estimator applies to --policy " +
                                   JoinNames(EstimatingPolicies()) + " only");
  r.estimator = ParseEstimatorKind(o.estimator.value_or("history")).value();
  r.max_attempts = static_cast<uint32_t>(o.max_attempts);
  r.speculative = o.speculative;
  if (o.memory_limit) r.memory_limit = ParseSize(*o.memory_limit).value();
  if (o.speculative.value_or(false) && ranks > 1)
    return Status::InvalidArgument("--speculative runs on one machine, not over MPI ranks");
  auto faults = ParseFaults(o.inject);
  if (!faults.ok()) return faults.status().WithContext("--inject: ");
  r.faults = std::move(faults).value();
  // Last, so that its warning (a corrupt file) never comes with another error.
  if (policy->traits.needs_estimator || o.history) {
    const fs::path path = o.history ? fs::path(*o.history) : DefaultHistoryPath();
    auto h = HistoryFile::Open(path, std::cerr, r.estimator == EstimatorKind::kKnn);
    if (!h.ok()) return h.status().WithContext("--history: ");
    p.history = std::move(h).value();
  }
  return p;
}

JobRequest ToRequest(const JobOptions& o, Plan& plan) {
  JobRequest r = plan.request;
  r.inputs = o.inputs;
  r.store_dir = o.store;
  r.output = o.output;
  r.overwrite = o.overwrite;
  r.top = o.top;
  r.skip_bad_records = o.skip_bad_records;
  r.pin = !o.no_pin;
  r.history = plan.history ? &*plan.history : nullptr;
  return r;
}

JobRunNotes Notes(const JobOptions& o) {
  JobRunNotes notes;
  if (o.quiet) return notes;
  // WordCount's corpus, the only built-in input: made in memory, no file is written.
  notes.generating_default_input = [](const std::string&) {
    std::cerr << "mrlocal: no input given: generating the built-in corpus in memory ("
              << FormatBytes(DefaultCorpusOptions().bytes) << " of English-like text)\n";
  };
  notes.probing = [](std::string_view why, std::string_view what) {
    std::cerr << "mrlocal: " << why << ": probing " << what << " (an estimate for this run)\n";
  };
  return notes;
}

// Submits the job and says how its admission went. kExitOk: it runs (perhaps under
// --best-effort); otherwise the exit code.
int Submit(JobRun& run, const JobOptions& o, const JobRequest& r) {
  const Submission s = run.Submit();
  AdmissionView view;
  view.job = &run.job();
  view.admission = &run.outcome().admission;
  view.policy = r.policy;
  view.deadline = r.deadline;
  view.setup = s.setup;
  view.estimate = run.estimate() ? &*run.estimate() : nullptr;
  view.estimate_margin = run.estimate_margin();
  view.confidence = r.policy_args.Get<double>(kConfidence).value_or(1.0);
  view.best_effort = o.best_effort;
  if (s.deadline_passed) {
    std::cerr << "mrlocal: rejected: the " << FormatDuration(*r.deadline)
              << " deadline passed during set-up (" << FormatDuration(s.setup) << ")\n"
              << AdmissionHint(view);
  } else {
    const DurationScale in_line({r.deadline.value_or(Duration::zero()), s.setup});
    if (r.deadline && s.setup > *r.deadline / 100 && !o.quiet)
      std::cerr << "mrlocal: set-up took " << in_line(s.setup) << " of the " << in_line(*r.deadline)
                << " deadline: " << in_line(*r.deadline - s.setup) << " left at submission\n";
    if (!s.admitted || !o.quiet) std::cerr << FormatAdmission(view);
    if (s.admitted) return kExitOk;
  }
  if (!o.best_effort) return kExitRejected;
  // The deadline is kept, so the report still says whether it was met.
  std::cerr << "mrlocal: --best-effort: running it anyway under " << BestEffortPolicy().name
            << ", with no guarantee\n";
  return ReportIfError(run.RunAnyway()).ok() ? kExitOk : kExitInternal;
}

// The job's queue: what it paid, and what its budget has left.
void PrintQueueCharge(std::ostream& out, const QueueLedger& ledger, const std::string& queue,
                      const QueuesFile* file) {
  for (const QueueAccount& a : ledger.accounts) {
    if (a.name != queue) continue;
    out << "queue " << a.name << ": paid " << FormatCredits(a.spent) << " credits for "
        << FormatNumber(a.paid_slot_s) << " slot-s (bidding " << FormatNumber(a.rate) << ")";
    if (a.unlimited)
      out << ", no budget limit\n";
    else
      out << ", " << FormatCredits(a.balance()) << " left"
          << (file ? " in " + file->path().string() : "") << "\n";
  }
  if (ledger.preempted_attempts > 0)
    out << "preempted: " << ledger.preempted_attempts << " attempts, "
        << FormatNumber(ledger.preempted_slot_s) << " slot-s lost\n";
}

// The result, the closing report, the report files and the history; the exit code.
int Finish(JobRun& run, const JobOptions& o, const JobApp& app, const QueuesFile* queues,
           bool interrupted) {
  const JobState& job = run.job();
  const JobOutcome& outcome = run.outcome();
  const JobReport report = run.Report();
  const JobMetrics& summary = report.job();
  for (auto& w : outcome.warnings) std::cerr << "mrlocal: warning: " << w << "\n";
  PrintJobEnd(std::cout, app, report.run, summary, o.output);
  if (const QueueLedger* ledger = run.ledger())
    PrintQueueCharge(std::cout, *ledger, run.queue(), queues);
  if (!o.report_dir.empty()) {
    ReportOptions options;
    options.title = "mrlocal " + app.name;
    options.overload = run.overload();
    options.ledger = run.ledger();
    Status st = WriteWorkloadReport(o.report_dir, report.run, report.jobs, run.recorder(),
                                    run.slots(), options);
    if (!st.ok()) ReportError(st);
  }
  Status st = run.RecordHistory(std::cerr, std::cerr, o.quiet, interrupted);
  if (!st.ok()) std::cerr << "mrlocal: warning: history not updated: " << st.message() << "\n";
  if (job.phase == JobPhase::kFailed) {
    std::cerr << "mrlocal: error: job failed: " << job.failure << "\n";
    if (interrupted) return kExitInterrupted;
  }
  return JobExitCode(summary.status, outcome.failure.IsUserError(), summary.met_deadline);
}

// The options of jobs that read files: their shuffle and the block store they read.
void AddShuffleAndStoreOptions(CLI::App* cmd, JobOptions& o) {
  constexpr int kIntMax = std::numeric_limits<int>::max();
  Within(cmd->add_option("--reduces", o.reduces, "Reduce tasks R (default: reduce slots)"),
         IntegerIn(1, kIntMax));
  Within(cmd->add_option("--partitions", o.partitions,
                         "Partitions p, at least R (default: R for hash, 4R otherwise)"),
         IntegerIn(1, kIntMax));
  Within(cmd->add_option("--partitioner", o.partitioner, "How keys go to partitions"),
         OneOf(PartitionerNames()))
      ->capture_default_str();
  Within(cmd->add_option("--sketch-rows", o.sketch_rows, "Rows d of the count-min sketch"),
         IntegerIn(1, 64))
      ->capture_default_str();
  Within(cmd->add_option("--block-size", o.block_size, "Block size of the in-process block store"),
         SizeAtLeast(1))
      ->capture_default_str();
  cmd->add_option("--store", o.store, "Read inputs from the persistent block store in DIR")
      ->check(NotEmpty());
}

}  // namespace

void AddJobOptions(CLI::App* cmd, JobOptions& o, JobInput input) {
  const bool files = input == JobInput::kFiles;
  constexpr int kIntMax = std::numeric_limits<int>::max();
  cmd->add_option("-o,--output", o.output, "Output directory (part-r-NNNNN + _SUCCESS)")
      ->check(NotEmpty());
  Within(cmd->add_option("--deadline", o.deadline,
                         "Deadline from the command's start (admission by rtmr unless --policy)"),
         PositiveDuration());
  Within(cmd->add_option("--goal", o.goal,
                         "Soft completion-time goal from the command's start: the report says "
                         "whether it was met, and its utility; never a reason to reject"),
         PositiveDuration());
  Within(cmd->add_option("--policy", o.policy,
                         "Scheduling policy (default: rtmr with --deadline, fifo without)"),
         OneOf(PolicyNames()));
  cmd->footer(PolicyHelp());
  AddLofOptions(cmd, o.lof_threshold, o.lof_min_pts);
  AddConfidenceOption(cmd, o.confidence);
  AddFaultBudgetOption(cmd, o.fault_budget);
  cmd->add_option("--queue", o.queue,
                  "dynprio/capacity: the paying queue the job runs in (default: default)")
      ->check(NotEmpty());
  cmd->add_option("--queues", o.queues_file,
                  "dynprio/capacity: the queues' budgets and bids, a JSON list [{\"name\": \"q1\", "
                  "\"budget\": 1000, \"rate\": 2}, ...]; what the job's queue spends is taken "
                  "off its budget in FILE as it runs")
      ->check(NotEmpty());
  AddQueueShareOptions(cmd, o.allocation_interval, o.preempt);
  cmd->add_option("--history", o.history,
                  "Task-time history of the deadline policies (default: " +
                      DefaultHistoryPath().string() + ")")
      ->check(NotEmpty());
  Within(cmd->add_option("--estimator", o.estimator,
                         "Task-time estimates of the deadline policies: the history's worst "
                         "case, or kNN over the history's observations (default: history)"),
         OneOf(EstimatorNames()));
  cmd->add_flag("--best-effort", o.best_effort,
                "Run a job the admission rejects anyway, under " + BestEffortPolicy().name +
                    ", with no guarantee");
  Within(cmd->add_option("--cluster", o.cluster,
                         "Cluster: groups of N x (map slots, reduce slots, speed) (default: one "
                         "node per CPU, each (1m,1r,1.0))"),
         ClusterSpecOrPreset());
  if (files) AddShuffleAndStoreOptions(cmd, o);
  cmd->add_option("--report", o.report_dir,
                  "Write metrics.json, jobs.csv, tasks.csv, trace.json, gantt.svg and, with "
                  "--goal, goals.svg to DIR")
      ->check(NotEmpty());
  if (files) {
    Within(cmd->add_option("--top", o.top,
                           "Print the N highest-scoring keys (ties in ascending key bytes; all "
                           "keys if fewer)"),
           IntegerIn(0, kIntMax))
        ->capture_default_str();
    cmd->add_flag("--skip-bad-records", o.skip_bad_records,
                  "Skip and count malformed input records instead of failing the job");
  }
  AddFaultOptions(cmd, o.max_attempts, o.inject);
  AddMemoryLimitOption(cmd, o.memory_limit);
  cmd->add_flag("--speculative,!--no-speculative", o.speculative,
                "Copy stragglers onto free slots, LATE's rule (default: on, unless the policy "
                "vetoes it: rtmr, dc, dynprio, capacity and the planning policies do)");
  cmd->add_flag("--overwrite", o.overwrite,
                "Replace a previous job's output directory (_SUCCESS and part files only)");
  cmd->add_flag("--no-pin", o.no_pin, "Do not pin slot threads to CPUs");
  cmd->add_flag("-q,--quiet", o.quiet, "No progress lines on stderr");
}

int RunJob(const JobOptions& o, const JobApp& app) {
  // The deadline runs from here: reading inputs and probing count against it.
  const auto start = std::chrono::steady_clock::now();
  // Under mpirun or srun every rank runs this command: rank 0 runs the job, on the slots of
  // every rank; the others serve theirs (and stay quiet about what rank 0 reports).
  auto joined = MpiTransport::JoinIfLaunched();
  if (!joined.ok()) return ReportError(joined.status());
  std::unique_ptr<MpiTransport> world = std::move(joined).value();
  const int ranks = world ? world->size() : 1;
  const bool rank0 = !world || world->rank() == 0;
  // Before the output is checked: a killed run's --overwrite may have moved it aside.
  if (rank0 && !o.output.empty()) OutputCommitter::RemoveStale(o.output);
  Result<Plan> plan = Validate(o, app, ranks);
  if (!plan.ok()) return rank0 ? ReportError(plan.status()) : ExitCodeFor(plan.status());
  if (!rank0) {
    SlotHostOptions host;
    host.pin = !o.no_pin;
    host.memory_limit = plan->request.memory_limit.value_or(MemoryLimit::DefaultBytes());
    Status served = ServeRank(*world, plan->request.cluster, app, host);
    return served.ok() ? kExitOk : ReportError(world->Said(served));
  }
  ShutDownRanksAtExit stop_ranks(ranks > 1 ? world.get() : nullptr);
  JobRequest request = ToRequest(o, *plan);
  request.start = start;
  if (ranks > 1) request.transport = world.get();
  auto run = JobRun::Prepare(request, Notes(o));
  if (!run.ok()) return ReportError(run.status());
  ProgressPrinter progress(std::cerr);
  if (!o.quiet) (*run)->AddObserver(&progress);
  // From submission on something may be written: Ctrl-C must abort the job through the
  // runtime, which cancels the tasks and discards the output.
  Interrupt interrupt;
  if (int code = Submit(**run, o, request); code != kExitOk) return code;
  if (!o.report_dir.empty()) {
    std::error_code ec;
    fs::create_directories(o.report_dir, ec);
    if (ec)
      return ReportError(Status::IoError("cannot create report directory '" + o.report_dir +
                                         "': " + ec.message()));
  }
  std::optional<QueuesFileCharger> charger;
  if (plan->queues) {
    charger.emplace(
        *plan->queues, [&run] { return (*run)->ledger(); }, std::cerr);
    (*run)->AddObserver(&*charger);
  }
  (*run)->Run(&interrupt);
  if (charger) charger->Flush();
  return Finish(**run, o, app, plan->queues ? &*plan->queues : nullptr, interrupt.interrupted());
}

}  // namespace mrlocal
