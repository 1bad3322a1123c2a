#include "tools/cli/job_runner.h"

#include <csignal>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <sstream>

#include "engine/block_store.h"
#include "engine/output_committer.h"
#include "sched/asio_loop.h"
#include "sched/cluster_spec.h"
#include "sched/controller.h"
#include "sched/partitioner.h"
#include "sched/policy_registry.h"
#include "sched/real_executor.h"
#include "sched/run_summary.h"
#include "sched/trace_recorder.h"
#include "tools/cli/closing_report.h"
#include "tools/cli/exit_codes.h"
#include "tools/cli/progress_printer.h"
#include "tools/cli/real_job.h"
#include "sched/units.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

std::atomic<int> g_signal{0};
extern "C" void OnSignal(int sig) { g_signal.store(sig); }

// The committer seen through the executor's JobOutput interface.
class CommitterOutput final : public JobOutput {
 public:
  explicit CommitterOutput(std::unique_ptr<OutputCommitter> c) : c_(std::move(c)) {}
  Result<std::unique_ptr<OutputSink>> OpenPart(uint32_t reduce) override {
    return c_->OpenPart(reduce);
  }
  Status Commit(uint32_t parts) override { return c_->Commit(parts); }
  void Abort() override { c_->Abort(); }

 private:
  std::unique_ptr<OutputCommitter> c_;
};

// Everything validated and built before the job starts; any failure here is exit 2 and
// nothing has been written.
struct Plan {
  ClusterSpec cluster;
  std::vector<SlotInfo> slots;
  std::optional<Duration> deadline;
  uint32_t reduces = 0;
  uint32_t partitions = 0;
  uint64_t block_size = 0;
  std::unique_ptr<Policy> policy;
  std::unique_ptr<Partitioner> partitioner;
};

Result<Plan> Validate(const JobOptions& o) {
  Plan p;
  if (!o.deadline.empty()) {
    auto d = ParseDuration(o.deadline);
    if (!d.ok()) return Status::InvalidArgument("--deadline: " + d.status().message());
    p.deadline = *d;
  }
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
  auto policy = MakePolicy(o.policy);
  if (!policy.ok()) return policy.status();
  p.policy = std::move(policy).value();
  auto part = MakePartitioner(o.partitioner);
  if (!part.ok()) return part.status();
  p.partitioner = std::move(part).value();
  if (o.partitioner == "hash" && p.partitions != p.reduces)
    return Status::InvalidArgument("--partitioner hash needs --partitions equal to --reduces");
  if (o.top < 0) return Status::InvalidArgument("--top must not be negative");
  return p;
}

}  // namespace

void AddJobOptions(CLI::App* cmd, JobOptions& o, JobInput input) {
  const bool files = input == JobInput::kFiles;
  cmd->add_option("-o,--output", o.output, "Output directory (part-r-NNNNN + _SUCCESS)");
  cmd->add_option("--deadline", o.deadline, "Relative deadline, e.g. 30s, 1500ms, 2m, 1h");
  auto join = [](const std::vector<std::string>& names) {
    std::string all;
    for (auto& n : names) all += (all.empty() ? "" : " | ") + n;
    return all;
  };
  cmd->add_option("--policy", o.policy, "Scheduling policy: " + join(PolicyNames()))
      ->capture_default_str();
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
  request.deadline = plan.deadline;
  request.reduces = plan.reduces;
  request.partitions = plan.partitions;
  request.sketch_rows = o.sketch_rows;
  request.top = o.top;
  request.skip_bad_records = o.skip_bad_records;
  auto prepared = PrepareRealJob(request);
  if (!prepared.ok()) return ReportError(prepared.status());
  JobSpec spec = std::move(prepared->spec);
  RealJob real = std::move(prepared->real);

  // From here on something may be written: Ctrl-C must go through the controller, which
  // cancels the tasks and discards the output.
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
  std::shared_ptr<JobOutput> output;
  if (!o.output.empty()) {
    auto c = OutputCommitter::Begin(o.output, o.overwrite);
    if (!c.ok()) return ReportError(c.status());
    output = std::make_shared<CommitterOutput>(std::move(c).value());
  }
  if (!o.report_dir.empty()) {
    std::error_code ec;
    fs::create_directories(o.report_dir, ec);
    if (ec)
      return ReportError(Status::IoError("cannot create report directory '" + o.report_dir +
                                         "': " + ec.message()));
  }

  real.output = output;
  AsioLoop loop;
  RealExecutor executor(loop, plan.slots, !o.no_pin);
  Controller controller(loop, executor, *plan.policy, plan.slots, plan.cluster.nodes(),
                        std::move(plan.partitioner));
  ProgressPrinter progress(std::cerr);
  bool interrupted = false;
  progress.on_tick = [&controller, &interrupted] {
    if (int sig = g_signal.exchange(0)) {
      interrupted = true;
      controller.AbortAll(Status::Aborted(std::string("interrupted by ") + strsignal(sig)));
    }
  };
  // Ctrl-C is checked on the progress ticks, so the printer is always registered.
  progress.set_quiet(o.quiet);
  controller.AddObserver(&progress);
  TraceRecorder trace(plan.slots);
  if (!o.report_dir.empty()) controller.AddObserver(&trace);

  const JobId id = controller.next_job_id();
  executor.AddJob(id, std::move(real));
  controller.Submit(std::move(spec));
  controller.RunUntilIdle();
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);

  const JobState& job = controller.state().job(id);
  const JobOutcome& outcome = controller.outcome(id);
  RunSummary summary =
      Summarize(job, outcome, controller.stats(), o.policy, o.partitioner, plan.cluster.ToString());
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
