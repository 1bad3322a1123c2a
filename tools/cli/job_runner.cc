#include "tools/cli/job_runner.h"

#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <mutex>
#include <sstream>

#include "engine/block_store.h"
#include "engine/output_committer.h"
#include "sched/core/asio_loop.h"
#include "sched/core/cluster_spec.h"
#include "sched/core/controller.h"
#include "sched/core/real_executor.h"
#include "sched/core/units.h"
#include "sched/partition/partitioner.h"
#include "sched/policy/policy_registry.h"
#include "sched/report/run_summary.h"
#include "sched/report/trace_recorder.h"
#include "tools/cli/admission_report.h"
#include "tools/cli/closing_report.h"
#include "tools/cli/exit_codes.h"
#include "tools/cli/progress_printer.h"
#include "tools/runtime/app_registry.h"
#include "tools/runtime/history_file.h"
#include "tools/runtime/probe.h"
#include "tools/runtime/real_job.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

std::atomic<int> g_signal{0};
extern "C" void OnSignal(int sig) { g_signal.store(sig); }

// The committer seen through the executor's JobOutput interface. It begins (creates its
// temporary directory) only when the first reduce opens a part or the job commits, so a
// job that is rejected, or fails in its maps, leaves nothing behind; OutputCommitter::Check
// has refused a bad DIR before the job started.
class CommitterOutput final : public JobOutput {
 public:
  CommitterOutput(std::string dir, bool overwrite) : dir_(std::move(dir)), overwrite_(overwrite) {}
  Result<std::unique_ptr<OutputSink>> OpenPart(uint32_t reduce) override {
    std::lock_guard<std::mutex> lock(mu_);  // reduces open their parts from slot threads
    MRLOCAL_RETURN_IF_ERROR(BeginLocked());
    return c_->OpenPart(reduce);
  }
  Status Commit(uint32_t parts) override {
    std::lock_guard<std::mutex> lock(mu_);
    MRLOCAL_RETURN_IF_ERROR(BeginLocked());
    return c_->Commit(parts);
  }
  void Abort() override {
    std::lock_guard<std::mutex> lock(mu_);
    if (c_) c_->Abort();
  }

 private:
  Status BeginLocked() {
    if (c_) return Status::OK();
    auto c = OutputCommitter::Begin(dir_, overwrite_);
    if (!c.ok()) return c.status();
    c_ = std::move(c).value();
    return Status::OK();
  }

  const std::string dir_;
  const bool overwrite_;
  std::mutex mu_;
  std::unique_ptr<OutputCommitter> c_;
};

// Everything validated and built before the job starts; any failure here is exit 2 and
// nothing has been written.
struct Plan {
  ClusterSpec cluster;
  std::vector<SlotInfo> slots;
  std::optional<Duration> deadline;  // from the command's start
  uint32_t reduces = 0;
  uint32_t partitions = 0;
  uint64_t block_size = 0;
  std::string policy;  // rtmr by default with a deadline, fifo without
  // The deadline policies' estimates; also kept for any run given --history.
  std::optional<HistoryFile> history;
};

Result<Plan> Validate(const JobOptions& o) {
  Plan p;
  // Given but empty ("--deadline ''") is an error, not "no deadline".
  if (!o.deadline.empty() || (o.deadline_opt && o.deadline_opt->count() > 0)) {
    auto d = ParseDuration(o.deadline);
    if (!d.ok()) return Status::InvalidArgument("--deadline: " + d.status().message());
    p.deadline = *d;
  }
  const bool policy_given = o.policy_opt && o.policy_opt->count() > 0;
  p.policy = p.deadline && !policy_given ? "rtmr" : o.policy;
  if (o.cluster.empty()) {
    p.cluster = ClusterSpec::Default(static_cast<int>(AllowedCpus().size()));
  } else {
    auto c = ClusterSpec::Parse(o.cluster);
    if (!c.ok()) return c.status();
    p.cluster = std::move(c).value();
  }
  p.slots = p.cluster.Slots();
  int reduce_slots = p.cluster.reduce_slots();
  if (o.reduces_opt && o.reduces_opt->count() > 0 && o.reduces < 1)
    return Status::InvalidArgument("--reduces must be at least 1 (got " +
                                   std::to_string(o.reduces) + ")");
  p.reduces = o.reduces > 0 ? o.reduces : reduce_slots;
  if (o.partitions_opt && o.partitions_opt->count() > 0) {
    if (o.partitions < static_cast<int>(p.reduces))
      return Status::InvalidArgument("--partitions must be at least --reduces (" +
                                     std::to_string(p.reduces) + ")");
    p.partitions = o.partitions;
  } else {
    p.partitions = o.partitioner == "hash" ? p.reduces : 4 * p.reduces;
  }
  if (o.sketch_rows < 1 || o.sketch_rows > 64)
    return Status::InvalidArgument("--sketch-rows must be between 1 and 64");
  auto bs = ParseSize(o.block_size);
  if (!bs.ok()) return Status::InvalidArgument("--block-size: " + bs.status().message());
  if (*bs == 0) return Status::InvalidArgument("--block-size must be positive");
  p.block_size = *bs;
  if (auto policy = MakePolicy(p.policy); !policy.ok()) return policy.status();
  if (auto part = MakePartitioner(o.partitioner); !part.ok()) return part.status();
  if (o.partitioner == "hash" && p.partitions != p.reduces)
    return Status::InvalidArgument("--partitioner hash needs --partitions equal to --reduces");
  if (o.top < 0) return Status::InvalidArgument("--top must not be negative");
  if (!o.output.empty()) MRLOCAL_RETURN_IF_ERROR(OutputCommitter::Check(o.output, o.overwrite));
  if (std::error_code ec;
      !o.report_dir.empty() && fs::exists(o.report_dir, ec) && !fs::is_directory(o.report_dir, ec))
    return Status::InvalidArgument("--report: '" + o.report_dir + "' is not a directory");
  // Last, so that its warning (a corrupt file) never comes with another error.
  if (PolicyUsesHistory(p.policy) || (o.history_opt && o.history_opt->count() > 0)) {
    auto h = HistoryFile::Open(o.history.empty() ? JobHistory::DefaultPath() : fs::path(o.history),
                               std::cerr);
    if (!h.ok()) return h.status().WithContext("--history: ");
    p.history = std::move(h).value();
  }
  return p;
}

Duration Since(std::chrono::steady_clock::time_point t) {
  return std::chrono::duration_cast<Duration>(std::chrono::steady_clock::now() - t);
}

}  // namespace

void AddJobOptions(CLI::App* cmd, JobOptions& o, JobInput input) {
  const bool files = input == JobInput::kFiles;
  cmd->add_option("-o,--output", o.output, "Output directory (part-r-NNNNN + _SUCCESS)");
  o.deadline_opt = cmd->add_option(
      "--deadline", o.deadline,
      "Deadline from the command's start, e.g. 30s, 1500ms, 2m, 1h (admission by rtmr unless "
      "--policy)");
  auto join = [](const std::vector<std::string>& names) {
    std::string all;
    for (auto& n : names) all += (all.empty() ? "" : " | ") + n;
    return all;
  };
  o.policy_opt = cmd->add_option("--policy", o.policy,
                                 "Scheduling policy: " + join(PolicyNames()) +
                                     " (default: rtmr with --deadline, fifo without)");
  o.history_opt = cmd->add_option("--history", o.history,
                                  "Task-time history of the deadline policies (default: " +
                                      JobHistory::DefaultPath().string() + ")");
  cmd->add_flag("--best-effort", o.best_effort,
                "Run a job the admission rejects anyway, under fifo, with no guarantee");
  cmd->add_option("--cluster", o.cluster,
                  "Cluster: groups of N x (map slots, reduce slots, speed), e.g. "
                  "'2x(4m,1r,1.0)+1x(2m,1r,0.5)' (default: one node per CPU, each (1m,1r,1.0))");
  if (files) {
    o.reduces_opt =
        cmd->add_option("--reduces", o.reduces, "Reduce tasks R (default: reduce slots)");
    o.partitions_opt = cmd->add_option("--partitions", o.partitions,
                                       "Partitions p >= R (default: R for hash, 4R otherwise)");
    cmd->add_option("--partitioner", o.partitioner, join(PartitionerNames()))
        ->capture_default_str();
    cmd->add_option("--sketch-rows", o.sketch_rows, "Rows d of the count-min sketch")
        ->capture_default_str();
    cmd->add_option("--block-size", o.block_size, "Block size of the in-process block store")
        ->capture_default_str();
    cmd->add_option("--store", o.store, "Read inputs from the persistent block store in DIR");
  }
  cmd->add_option("--report", o.report_dir, "Write metrics.json and trace.json to DIR");
  if (files) {
    cmd->add_option("--top", o.top, "Print the N highest-scoring keys")->capture_default_str();
    cmd->add_flag("--skip-bad-records", o.skip_bad_records,
                  "Skip and count malformed input records instead of failing the job");
  }
  cmd->add_flag("--overwrite", o.overwrite, "Replace an existing output directory");
  cmd->add_flag("--no-pin", o.no_pin, "Do not pin slot threads to CPUs");
  cmd->add_flag("-q,--quiet", o.quiet, "No progress lines on stderr");
}

int RunJob(const JobOptions& o, const JobApp& app) {
  // The deadline runs from here: reading inputs and probing count against it.
  const auto start = std::chrono::steady_clock::now();
  Result<Plan> validated = Validate(o);
  if (!validated.ok()) return ReportError(validated.status());
  Plan& plan = *validated;

  // Inputs into the block store: an in-process one over the local files (mapped, not
  // copied), or the persistent store named by --store.
  BlockStoreOptions store_opts;
  store_opts.block_size = plan.block_size;
  store_opts.nodes = plan.cluster.nodes();
  std::unique_ptr<BlockStore> store;
  std::vector<std::string> paths = o.inputs;
  if (app.index_maps > 0) {
    auto s = BlockStore::InMemory(store_opts);  // no input: an empty store
    if (!s.ok()) return ReportError(s.status());
    store = std::move(s).value();
  } else if (!o.store.empty()) {
    auto s = BlockStore::Open(o.store, store_opts, BlockStore::OpenMode::kMustExist);
    if (!s.ok()) return ReportError(s.status());
    store = std::move(s).value();
    if (paths.empty())
      return ReportError(Status::InvalidArgument("--store needs at least one PATH"));
  } else {
    auto s = BlockStore::InMemory(store_opts);
    if (!s.ok()) return ReportError(s.status());
    store = std::move(s).value();
    if (paths.empty() && !app.make_default_input)
      return ReportError(Status::InvalidArgument("no input files given"));
    if (paths.empty()) {
      paths.push_back(app.default_input_name);
      if (!o.quiet)
        std::cerr << "mrlocal: no input given: generating " << app.default_input_name << "\n";
      Status st = store->PutBuffer(app.default_input_name, app.make_default_input());
      if (!st.ok()) return ReportError(st);
    } else {
      for (auto& path : paths) {
        Status st = store->Put(path, path);
        if (!st.ok()) return ReportError(st);
      }
    }
  }
  RealJobRequest request;
  request.app = &app;
  request.store = store.get();
  request.paths = paths;
  request.reduces = plan.reduces;
  request.partitions = plan.partitions;
  request.sketch_rows = o.sketch_rows;
  request.top = o.top;
  request.skip_bad_records = o.skip_bad_records;
  // Begun only once a reduce writes: a rejected job leaves nothing.
  if (!o.output.empty()) request.output = std::make_shared<CommitterOutput>(o.output, o.overwrite);
  auto prepared = PrepareRealJob(request);
  if (!prepared.ok()) return ReportError(prepared.status());
  JobSpec spec = std::move(prepared->spec);

  // A deadline policy with no history for the app: a first-run probe.
  std::optional<AppEstimate> estimate;
  if (plan.history) {
    JobHistory& history = plan.history->history();
    if (PolicyUsesHistory(plan.policy) && !history.Find(app.name)) {
      ProbeRequest q;
      q.app = &app;
      q.store = store.get();
      q.paths = paths;
      q.slots = plan.slots;
      q.nodes = plan.cluster.nodes();
      q.pin = !o.no_pin;
      q.skip_bad_records = o.skip_bad_records;
      auto descriptor = AppRegistry::BuiltIn().Find(app.name);
      if (!descriptor.ok()) return ReportError(descriptor.status());
      auto probed = ProbeApp(**descriptor, q, [&](std::string_view what) {
        if (!o.quiet)
          std::cerr << "mrlocal: no history for " << app.name << ": probing " << what
                    << " (first-run estimate)\n";
      });
      if (!probed.ok()) return ReportError(probed.status());
      history.Set(app.name, *probed);  // for this run only: the file gets real jobs
    }
    if (const AppEstimate* e = history.Find(app.name)) estimate = *e;
  }

  PolicyOptions policy_options;
  policy_options.history = plan.history ? &plan.history->history() : nullptr;
  // As real workloads do: history's worst case was seen on a machine that may be busier
  // now. A probe's widening already allows for that.
  if (estimate && estimate->source != "probe") policy_options.estimate_margin = kRealEstimateMargin;
  auto made = MakePolicy(plan.policy, policy_options);
  if (!made.ok()) return ReportError(made.status());
  std::unique_ptr<Policy> policy = std::move(made).value();
  AsioLoop loop;
  RealExecutor executor(loop, plan.slots, !o.no_pin);
  ProgressPrinter progress(std::cerr);
  TraceRecorder trace(plan.slots);
  auto make_controller = [&](Policy& p) {
    auto c = std::make_unique<Controller>(loop, executor, p, plan.slots, plan.cluster.nodes(),
                                          std::move(MakePartitioner(o.partitioner)).value());
    // Ctrl-C is checked on the progress ticks, so the printer is always registered.
    c->AddObserver(&progress);
    if (!o.report_dir.empty()) c->AddObserver(&trace);
    return c;
  };
  std::unique_ptr<Controller> controller = make_controller(*policy);
  const JobId id = controller->next_job_id();
  // Registered before submission, which may plan the reduces of a job without maps at once.
  executor.AddJob(id, std::move(prepared->real));

  // Submitted with what is left of the deadline; a rejected job has touched nothing.
  Duration setup = Since(start);
  auto submit = [&](Controller& c) {
    JobSpec s = spec;  // kept for a --best-effort resubmission
    if (plan.deadline) s.deadline = *plan.deadline - setup;
    return c.Submit(std::move(s));
  };
  bool best_effort = false;
  std::optional<Duration> rejected_estimate;
  // Only admission control rejects: fifo, fair and edf admit every job, late or not.
  if (plan.deadline && setup >= *plan.deadline && policy->admission_control()) {
    std::cerr << "mrlocal: rejected: the " << FormatDuration(*plan.deadline)
              << " deadline passed during set-up (" << FormatDuration(setup) << ")\n";
    if (!o.best_effort) return kExitRejected;
    best_effort = true;
  } else {
    if (plan.deadline && setup > *plan.deadline / 100 && !o.quiet)
      std::cerr << "mrlocal: set-up took " << FormatDuration(setup) << " of the "
                << FormatDuration(*plan.deadline)
                << " deadline: " << FormatDuration(*plan.deadline - setup)
                << " left at submission\n";
    submit(*controller);
    const Admission admission = controller->outcome(id).admission;
    if (!admission.admitted || !o.quiet) {
      AdmissionView view;
      view.job = &controller->state().job(id);
      view.admission = &admission;
      view.policy = plan.policy;
      view.deadline = plan.deadline;
      view.setup = setup;
      view.estimate = estimate ? &*estimate : nullptr;
      view.estimate_margin = policy_options.estimate_margin;
      view.best_effort = o.best_effort;
      std::cerr << FormatAdmission(view);
    }
    if (!admission.admitted) {
      if (!o.best_effort) return kExitRejected;
      best_effort = true;
      if (admission.estimated_finish)
        rejected_estimate = *admission.estimated_finish - controller->state().job(id).arrival;
    }
  }
  std::unique_ptr<Policy> fifo;
  if (best_effort) {
    // The deadline is kept, so the report still says whether it was met.
    std::cerr << "mrlocal: --best-effort: running it anyway under fifo, with no guarantee\n";
    fifo = std::move(MakePolicy("fifo")).value();
    controller = make_controller(*fifo);
    if (controller->next_job_id() != id)
      return ReportError(Status::Internal("best-effort resubmission got another job id"));
    setup = Since(start);
    submit(*controller);
  }

  // From here on something may be written: Ctrl-C must go through the controller, which
  // cancels the tasks and discards the output.
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  if (!o.report_dir.empty()) {
    std::error_code ec;
    fs::create_directories(o.report_dir, ec);
    if (ec)
      return ReportError(Status::IoError("cannot create report directory '" + o.report_dir +
                                         "': " + ec.message()));
  }
  bool interrupted = false;
  progress.on_tick = [&controller, &interrupted] {
    if (int sig = g_signal.exchange(0)) {
      interrupted = true;
      controller->AbortAll(Status::Aborted(std::string("interrupted by ") + strsignal(sig)));
    }
  };
  progress.set_quiet(o.quiet);
  controller->RunUntilIdle();
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);

  const JobState& job = controller->state().job(id);
  const JobOutcome& outcome = controller->outcome(id);
  RunSummary summary =
      Summarize(job, outcome, controller->stats(), best_effort ? "fifo" : plan.policy,
                o.partitioner, plan.cluster.ToString(), setup);
  summary.admission_policy = plan.policy;
  if (best_effort) {
    summary.admitted = false;
    summary.best_effort = true;
    summary.estimated_finish_s.reset();
    if (rejected_estimate) summary.estimated_finish_s = Seconds(*rejected_estimate);
  }
  if (estimate && PolicyUsesHistory(plan.policy)) {
    summary.estimate_source = estimate->source;
    summary.estimate_jobs = estimate->jobs;
  }
  for (auto& w : outcome.warnings) std::cerr << "mrlocal: warning: " << w << "\n";
  if (job.phase == JobPhase::kDone && app.print_result)
    app.print_result(std::cout, summary);
  else
    PrintTop(std::cout, summary);
  PrintClosingReport(std::cout, summary, o.output);
  if (!o.report_dir.empty()) {
    Status st = WriteMetricsJson(fs::path(o.report_dir) / "metrics.json", summary);
    if (st.ok()) st = trace.Write(fs::path(o.report_dir) / "trace.json");
    if (!st.ok()) ReportError(st);
  }
  // Only a job that ran to its end tells what the app's tasks take.
  if (plan.history && job.phase == JobPhase::kDone && !interrupted) {
    Status st = plan.history->Record(ObserveJob(job, controller->state(), outcome.map_output_units),
                                     std::cerr, std::cerr, o.quiet);
    if (!st.ok()) std::cerr << "mrlocal: warning: history not updated: " << st.message() << "\n";
  }
  switch (job.phase) {
    case JobPhase::kRejected:
      return kExitRejected;
    case JobPhase::kFailed:
      std::cerr << "mrlocal: error: job failed: " << job.failure << "\n";
      if (interrupted) return 130;
      return outcome.failure.IsUserError() ? kExitUsage : kExitInternal;
    default:
      break;
  }
  return summary.met_deadline.value_or(true) ? kExitOk : kExitDeadlineMissed;
}

}  // namespace mrlocal
