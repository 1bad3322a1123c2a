// mrlocal workload SPEC.json|TRACE.tsv|--preset NAME [--sim] [--policy NAME] [--cluster SPEC]
//                  [--seed N] [--time-scale X] [--report DIR]
// Runs a stream of jobs under one policy and prints the workload's figures (RTMR's
// AcceptR / SuccessR / Util, TWJCT, latency, makespan, scheduler cost); --report writes
// metrics.json, jobs.csv, tasks.csv, trace.json and gantt.svg.
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <iostream>

#include "sched/core/units.h"
#include "sched/dist/mpi_executor.h"
#include "sched/dist/mpi_transport.h"
#include "sched/policy/policy_registry.h"
#include "sched/report/goals_svg.h"
#include "sched/report/workload_report.h"
#include "tools/cli/commands.h"
#include "tools/cli/option_checks.h"
#include "tools/cli/preset_sweep.h"
#include "tools/cli/workload_options.h"
#include "tools/runtime/exit_codes.h"
#include "tools/runtime/interrupt.h"
#include "tools/runtime/plural.h"
#include "tools/runtime/workload_runner.h"

namespace mrlocal {
namespace {

// A real run whose arrivals span this long is announced (a minute: longer than a user waits
// without knowing why).
constexpr double kLongArrivalSpanS = 60;

std::string Percent(double r) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f%%", 100 * r);
  return buf;
}

std::string Num(double v, int decimals) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.*f", decimals, v);
  return buf;
}

// One line per queue of a proportional-share run: what it got and what it paid.
void PrintQueues(std::ostream& out, const QueueLedger& ledger) {
  for (const QueueAccount& a : ledger.accounts) {
    out << "  queue " << a.name << ": " << Plural(a.jobs, "job") << ", slot time "
        << Num(a.used_slot_s, 1) << " s (" << Percent(ledger.UsedShare(a)) << " of all; entitled "
        << Percent(ledger.EntitledShare(a)) << "), spent " << Num(ToCredits(a.spent), 2);
    if (a.unlimited) {
      out << " (no budget limit)";
    } else {
      out << " of " << Num(ToCredits(a.opening + a.added), 2) << ", "
          << Num(ToCredits(a.balance()), 2) << " left";
    }
    out << "\n";
  }
  if (ledger.preempted_attempts > 0)
    out << "  preempted  " << Plural(ledger.preempted_attempts, "attempt")
        << " for entitled queues, " << Num(ledger.preempted_slot_s, 1) << " slot-s lost\n";
}

void PrintRun(std::ostream& out, const WorkloadSpec& spec, const WorkloadRunOptions& o,
              const WorkloadRun& run) {
  const WorkloadMetrics& m = run.metrics;
  out << "workload " << spec.name << ": " << Plural(m.jobs, "job") << " on " << o.cluster.ToString()
      << " (" << Plural(run.slots.size(), "slot") << ") under " << run.metrics.policy
      << (m.sim ? ", simulated" : "");
  if (run.reduce_slowstart) out << ", reduce slow-start " << Num(*run.reduce_slowstart, 2);
  out << "\n";
  if (run.left_out > 0)
    out << "  left out   " << Plural(run.left_out, "job")
        << " with more reduces than the cluster's reduce slots (dc cannot admit them)\n";
  out << "  accepted   " << m.accepted << " (AcceptR " << Percent(m.accept_ratio) << ")"
      << (m.admission_control ? "" : ", no admission control: every job counts");
  if (m.reject_policy == "backfill")
    out << "; rejected " << m.rejected << ", run best-effort in spare slots; met of all jobs "
        << m.met_all << " (" << Percent(m.met_all_ratio) << ")";
  out << "\n";
  out << "  successful " << m.successful << " (SuccessR " << Percent(m.success_ratio)
      << "), missed " << m.missed << " of " << m.deadline_jobs << " with a deadline (miss "
      << Percent(m.miss_ratio) << ")";
  if (m.failed + m.unfinished > 0)
    out << ", failed " << m.failed << ", unfinished " << m.unfinished;
  out << "\n";
  if (m.goal_jobs > 0)
    out << "  goals      missed " << m.goal_missed << " of " << m.goal_jobs << " with a goal ("
        << Percent(m.goal_miss_ratio) << "), mean utility " << Num(m.mean_utility, 3) << "\n";
  out << "  Util " << Percent(m.utilization) << " (successful jobs "
      << Percent(m.utilization_successful) << ", all jobs " << Percent(m.utilization_all)
      << ") over " << FormatDuration(FromSeconds(m.turnaround_s)) << "\n";
  out << "  latency p50 " << FormatDuration(FromSeconds(m.latency_s.p50)) << ", p95 "
      << FormatDuration(FromSeconds(m.latency_s.p95)) << ", p99 "
      << FormatDuration(FromSeconds(m.latency_s.p99)) << "; makespan "
      << FormatDuration(FromSeconds(m.makespan_s)) << "; TWJCT " << Num(m.twjct, 1) << " s\n";
  out << "  scheduler " << Plural(m.scheduler.decisions, "decision") << ", p50 "
      << Num(m.scheduler.decision_latency_us.p50, 2) << " us, p99 "
      << Num(m.scheduler.decision_latency_us.p99, 2) << " us\n";
  if (m.failed_attempts + m.speculative_attempts > 0 || !m.excluded_nodes.empty())
    out << "  faults     " << Plural(m.failed_attempts, "failed attempt") << ", " << m.retries
        << " run again; " << Plural(m.speculative_attempts, "speculative attempt") << ", "
        << m.speculative_won << " finished first, " << Num(m.superseded_slot_s, 1)
        << " slot-s discarded; " << Plural(m.excluded_nodes.size(), "node exclusion") << "\n";
  if (run.ledger) PrintQueues(out, *run.ledger);
  if (run.load_cpus > 0 && run.wall_s > 0)
    out << "  load       beside the slots on " << Plural(run.load_cpus, "CPU") << ": "
        << Num(run.load_cpu_s, 1) << " CPU-s over " << Num(run.wall_s, 1) << " s ("
        << Percent(run.load_cpu_s / (double(run.load_cpus) * run.wall_s)) << " of those CPUs)\n";
  if (m.sim && run.wall_s > 0) {
    out << "  simulated " << Plural(run.task_events, "task event") << " in " << Num(run.wall_s, 2)
        << " s: " << Num(double(run.task_events) / run.wall_s / 1e6, 2) << " M events/s, "
        << Num(m.makespan_s / run.wall_s, 0) << " simulated s per s\n";
  }
}

// One line per second of the run while something changed: arrivals, completions, tasks.
class WorkloadProgress final : public ControllerObserver {
 public:
  WorkloadProgress(std::ostream& out, size_t jobs) : out_(out), jobs_(jobs) {}
  void OnTick(const ClusterState& state, const Executor&, Time now) override {
    if (now - last_ < std::chrono::seconds(1)) return;
    last_ = now;
    size_t finished = 0, running = 0;
    for (auto& [id, job] : state.jobs) finished += job.finished();
    for (auto& s : state.slots) running += s.task.has_value();
    char line[160];
    std::snprintf(line, sizeof line, "[%7.1f s] %zu/%zu job%s arrived, %zu finished, ",
                  Seconds(now), state.jobs.size(), jobs_, jobs_ == 1 ? "" : "s", finished);
    out_ << line << Plural(running, "task") << " running\n" << std::flush;
  }

 private:
  std::ostream& out_;
  size_t jobs_;
  Time last_{0};
};

// A simulation's progress, like git's: shown on a terminal unless -q, or when asked for
// (--progress); a line at most once a second, from the second second on, so that a short
// simulation prints none.
class SimProgressLines {
 public:
  explicit SimProgressLines(std::ostream& out) : out_(out) {}
  void operator()(const SimProgress& p) {
    using namespace std::chrono_literals;
    const auto now = std::chrono::steady_clock::now();
    if (now - start_ < 2s || now - last_ < 1s) return;
    last_ = now;
    const double wall = std::chrono::duration<double>(now - start_).count();
    char line[160];
    std::snprintf(
        line, sizeof line, "[%7.1f s] simulated %s, %zu/%zu jobs finished, %.2f M events/s\n", wall,
        FormatDuration(p.now).c_str(), p.jobs_finished, p.jobs, double(p.task_events) / wall / 1e6);
    out_ << line << std::flush;
  }

 private:
  std::ostream& out_;
  const std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
  std::chrono::steady_clock::time_point last_;
};

class WorkloadCommand final : public Command {
 public:
  explicit WorkloadCommand(CLI::App& root) {
    app = root.add_subcommand("workload",
                              "Run a stream of jobs (a JSON spec, a SWIM trace or a preset) "
                              "under one policy, for real or --sim, and report its figures");
    AddWorkloadOptions(app, options_);
    Within(app->add_option("--policy", policy_, "Scheduling policy"), OneOf(PolicyNames()))
        ->capture_default_str();
    app->footer(PolicyHelp());
    // One point of `compare --load`, so that the sweep's point can be run with --report.
    Within(app->add_option("--load", options_.load,
                           "Arrival-rate multiplier: every arrival time is divided by X, each "
                           "job keeping its deadline after its arrival (compare --load's point "
                           "X; default 1, the workload as given)"),
           NumberIn(0, kMaxLoad, LowEnd::kOpen));
    app->add_flag("--no-feedback", no_feedback_,
                  "rtmr without its feedback controller (the same as --policy rtmr-nofb)");
  }

  int Run() override {
    // Under mpirun or srun every rank runs this command: rank 0 runs the workload on the
    // slots of every rank; the others build the same jobs and serve their slots.
    auto joined = MpiTransport::JoinIfLaunched();
    if (!joined.ok()) return ReportError(joined.status());
    std::unique_ptr<MpiTransport> world = std::move(joined).value();
    if (world && world->size() == 1) world.reset();
    const bool rank0 = !world || world->rank() == 0;
    auto fail = [rank0](const Status& st) { return rank0 ? ReportError(st) : ExitCodeFor(st); };
    if (world && options_.sim)
      return fail(Status::InvalidArgument(
          "--sim runs in one process: run it without mpirun (--hosts N simulates N hosts)"));
    std::string policy = policy_;
    if (no_feedback_) {
      policy = FindPolicy(policy_).value()->without_feedback;
      if (policy.empty())
        return fail(Status::InvalidArgument("--no-feedback applies to --policy " +
                                            DeadlineDefaultPolicy().name));
    }
    if (Status st = CheckPolicyOptions(options_, {policy}); !st.ok()) return fail(st);
    auto loaded = LoadWorkloadFromOptions(options_);
    if (!loaded.ok()) return fail(loaded.status());
    WorkloadRunOptions& ro = loaded->run;
    ro.policy = policy;
    if (!rank0) {
      Status served = ServeWorkloadRank(loaded->spec, ro, *world);
      return served.ok() ? kExitOk : ReportError(world->Said(served));
    }
    ShutDownRanksAtExit stop_ranks(world.get());
    ro.transport = world.get();
    if (!loaded->spec.note.empty() && !options_.quiet)
      std::cerr << "mrlocal: " << loaded->spec.note << "\n";
    ro.keep_attempts = !options_.report_dir.empty();
    WorkloadProgress progress(std::cerr, loaded->spec.jobs.size());
    bool interrupted = false;
    Result<WorkloadRun> run =
        options_.sim ? Simulate(*loaded) : RunForReal(*loaded, progress, &interrupted);
    if (interrupted) {
      std::cerr << "mrlocal: workload interrupted\n";
      return 130;
    }
    if (!run.ok()) return ReportError(run.status());
    if (!run->policy_note.empty()) std::cerr << "mrlocal: " << run->policy_note << "\n";
    PrintRun(std::cout, loaded->spec, ro, *run);
    if (options_.report_dir.empty()) return kExitOk;
    Status written = WriteReport(*run);
    return written.ok() ? kExitOk : ReportError(written);
  }

 private:
  Result<WorkloadRun> Simulate(LoadedWorkload& loaded) const {
    if (!loaded.cluster_note.empty() && !options_.quiet)
      std::cerr << "mrlocal: " << loaded.cluster_note << "\n";
    if (options_.progress || (!options_.quiet && ::isatty(STDERR_FILENO)))
      loaded.run.sim_progress = SimProgressLines(std::cerr);
    return RunWorkloadSim(loaded.spec, loaded.run);
  }

  Result<WorkloadRun> RunForReal(LoadedWorkload& loaded, WorkloadProgress& progress,
                                 bool* interrupted) const {
    WorkloadRunOptions& ro = loaded.run;
    if (ro.availability_as == AvailabilityAs::kLoad && loaded.spec.availability.empty())
      std::cerr << "mrlocal: --availability-as load: the workload has no availability "
                   "profile, so no load runs\n";
    if (!options_.quiet) {
      ro.observer = &progress;
      // A real run lasts at least as long as its arrivals: say so before it starts.
      const double last_s = loaded.spec.jobs.empty() ? 0 : loaded.spec.jobs.back().arrival_s;
      if (last_s * ro.time_scale >= kLongArrivalSpanS)
        std::cerr << "mrlocal: a real run: the jobs arrive over "
                  << FormatDuration(FromSeconds(last_s * ro.time_scale))
                  << " (--sim simulates it in seconds; --time-scale shortens it; Ctrl-C stops)\n";
    }
    Interrupt interrupt;
    Result<WorkloadRun> run = RunWorkloadReal(loaded.spec, ro, &interrupt);
    *interrupted = interrupt.interrupted();
    return run;
  }

  // --report DIR, and the line that says what is in it.
  Status WriteReport(const WorkloadRun& run) const {
    ReportOptions report;
    report.overload = run.overload;
    report.ledger = run.ledger ? &*run.ledger : nullptr;
    report.availability = run.availability;
    MRLOCAL_RETURN_IF_ERROR(WriteWorkloadReport(options_.report_dir, run.metrics,
                                                ComputeJobMetrics(*run.recorder), *run.recorder,
                                                run.slots, report));
    std::cout << "  report in " << options_.report_dir
              << "/ (metrics.json, jobs.csv, tasks.csv, trace.json, gantt.svg"
              << (WantsGoalsChart(*run.recorder, run.availability) ? ", goals.svg" : "")
              << (run.overload ? ", overload.svg" : "")
              << (run.ledger ? ", queues.csv, queues-*.svg" : "") << ")\n";
    return Status::OK();
  }

 private:
  WorkloadOptions options_;
  std::string policy_ = "fifo";
  bool no_feedback_ = false;
};

}  // namespace

std::unique_ptr<Command> AddWorkloadCommand(CLI::App& root) {
  return std::make_unique<WorkloadCommand>(root);
}

}  // namespace mrlocal
