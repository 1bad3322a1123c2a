// mrlocal compare SPEC.json|TRACE.tsv|--preset NAME --policies fifo,rtmr,rtmr:estimate-margin=2
//                 [--sim] [--seeds N] [--sweep NAME=LO:HI[:STEP] | --load A,B,C] [--report DIR]
// The same workload under each policy: a Markdown table on stdout (mean, and min-max over
// seeds), and with --report the table as comparison.md / .csv and one SVG bar chart per
// metric. Seed k (k = seed .. seed+N-1) draws both the preset's jobs and the model's noise,
// so every policy sees exactly the same jobs for a given seed. An entry of --policies may set
// its policy's settings (tools/cli/policy_list.h): variants of one policy side by side. --sweep
// runs that at every value of a preset parameter and prints the deadline-miss percentage, rows the
// values and columns the policies (DynamicShare's Fig. 5 against concurrency). --load runs it at
// several arrival rates and prints per load what a user who must meet deadlines weighs:
// accepted, met of accepted, met of all jobs, utilization and the scheduler's cost.
#include <algorithm>
#include <functional>
#include <iostream>
#include <memory>
#include <optional>
#include <set>
#include <sstream>

#include "sched/core/units.h"
#include "sched/plan/planner.h"
#include "sched/policy/policy_registry.h"
#include "sched/report/sweep_report.h"
#include "sched/report/workload_report.h"
#include "tools/cli/commands.h"
#include "tools/cli/option_checks.h"
#include "tools/cli/policy_list.h"
#include "tools/cli/preset_sweep.h"
#include "tools/cli/workload_options.h"
#include "tools/runtime/exit_codes.h"
#include "tools/runtime/plural.h"
#include "tools/runtime/workload_runner.h"

namespace mrlocal {
namespace {

class CompareCommand final : public Command {
 public:
  explicit CompareCommand(CLI::App& root) {
    app = root.add_subcommand("compare",
                              "Run the same workload under several policies and compare their "
                              "figures side by side (Markdown table, SVG charts)");
    AddWorkloadOptions(app, options_);
    Within(app->add_option("--policies", policies_text_,
                           "Comma-separated policies of the list below, each optionally with "
                           "settings that override the flags for that entry only (a setting is "
                           "the flag's name without --, its value in the flag's range: "
                           "rtmr:estimate-margin=2); the entry is its label in the tables and "
                           "the report"),
           PolicyList())
        ->required();
    app->footer(PolicyHelp() + "\n" + PolicySettingsHelp());
    Within(app->add_option("--seeds", seeds_, "Runs per policy, with seeds --seed, --seed+1, ..."),
           IntegerIn(1, 1'000'000))
        ->capture_default_str();
    app->add_option("--sweep", sweep_,
                    "Presets: the deadline-miss percentage at every value of a preset parameter, "
                    "NAME=LO:HI[:STEP] or NAME=V1,V2,... (e.g. concurrency=1:10): one table, "
                    "rows the values, columns the policies")
        ->check(NotEmpty());
    Within(app->add_option(
               "--load", load_,
               "Arrival-rate multipliers A,B,C (each > 0; 1: the workload as given): every "
               "arrival time is divided by the load, so a load of 2 packs the same jobs into "
               "half the time; each keeps its deadline (and goal) after its own arrival, and "
               "availability profiles stay as they are. Prints per load and policy: "
               "accepted, met of accepted, met of all jobs, utilization, scheduler cost"),
           LoadList());
  }

  int Run() override {
    if (options_.seed > UINT64_MAX - static_cast<uint64_t>(seeds_ - 1))
      return ReportError(Status::InvalidArgument("--seed + --seeds - 1 must be at most " +
                                                 std::to_string(UINT64_MAX)));
    auto policies = ParsePolicyList(policies_text_);  // checked while parsing (PolicyList)
    if (!policies.ok()) return ReportError(policies.status());
    policies_ = std::move(policies).value();
    if (Status st = CheckPolicyOptions(options_, PolicyNamesOf(policies_)); !st.ok())
      return ReportError(st);
    if (load_ && !sweep_.empty())
      return ReportError(Status::InvalidArgument("--load and --sweep: give one of them"));
    if (load_) return RunLoadSweep();
    if (!sweep_.empty()) return RunSweep();
    std::vector<ComparisonRow> rows;
    for (const PolicyVariant& p : policies_) rows.push_back({p.label, {}});
    std::optional<double> slowstart;  // the workload's reduce slow-start
    for (int k = 0; k < seeds_; ++k) {
      auto seed = RunSeed(options_, k);
      if (!seed.ok()) return ReportError(seed.status());
      slowstart = seed->reduce_slowstart;
      for (size_t i = 0; i < policies_.size(); ++i) rows[i].seeds.push_back(seed->metrics[i]);
    }
    std::cout << ComparisonMarkdown(rows) << RejectPolicyNote();
    if (slowstart)
      std::cout << "Reduce slow-start " << *slowstart
                << ": reduces may take slots once that fraction of their job's maps is done, "
                   "and the slot time they hold counts as used; rtmr and rtmr-nofb ignore it "
                   "(--reduce-slowstart 1 turns it off).\n";
    if (!options_.report_dir.empty()) {
      Status st = WriteComparisonReport(options_.report_dir, rows);
      if (!st.ok()) return ReportError(st);
      std::cout << "\nreport in " << options_.report_dir << "/ (comparison.md, comparison.csv, "
                << "one SVG chart per metric)\n";
    }
    return kExitOk;
  }

 private:
  // Every policy's run of seed options.seed + k: one workload, loaded once, so that every
  // policy sees exactly the same jobs.
  struct SeedRuns {
    std::vector<WorkloadMetrics> metrics;  // by policy, in --policies' order
    std::optional<double> reduce_slowstart;
  };
  Result<SeedRuns> RunSeed(WorkloadOptions o, int k) {
    o.seed = options_.seed + static_cast<uint64_t>(k);
    auto loaded = LoadWorkloadFromOptions(o);
    if (!loaded.ok()) return loaded.status();
    if (!options_.quiet && !loaded->spec.note.empty() && notes_.insert(loaded->spec.note).second)
      std::cerr << "mrlocal: " << loaded->spec.note << "\n";
    SeedRuns runs{{}, loaded->spec.reduce_slowstart};
    std::shared_ptr<const PlanPreview> preview = Preview(loaded->spec, loaded->run, o.seed);
    for (const PolicyVariant& policy : policies_) {
      WorkloadRunOptions ro = loaded->run;
      ro.policy = policy.policy;
      ro.policy_args = policy.Args(ro.policy_args);
      ro.keep_attempts = false;
      if (preview) ro.policy_args.SetPreview(preview);
      auto run =
          options_.sim ? RunWorkloadSim(loaded->spec, ro) : RunWorkloadReal(loaded->spec, ro);
      if (!run.ok()) return run.status();
      if (!run->policy_note.empty() && !options_.quiet)
        std::cerr << "mrlocal: seed " << o.seed << ": " << run->policy_note << "\n";
      if (preview && preview->lp->ok()) {
        run->metrics.lp_bound = (*preview->lp)->bound;
        // A simulation plays the model's times; a real run measures its own.
        run->metrics.lp_bound_of_model = preview->modelled_work && !options_.sim;
      }
      // The task-level bound only where it bounds the run: the model's times on a real run
      // are not the run's.
      if (preview && preview->task_lp && preview->task_lp->ok() && !run->metrics.lp_bound_of_model)
        run->metrics.task_lp_bound = (*preview->task_lp)->bound;
      runs.metrics.push_back(run->metrics);
      if (!options_.quiet) {
        std::cerr << "compare: ";
        if (load_) std::cerr << "load " << o.load << ", ";
        for (const auto& [name, value] : o.preset_parameters)
          std::cerr << name << " " << value << ", ";
        std::cerr << policy.label << " seed " << o.seed << " done ("
                  << Plural(run->metrics.jobs, "job") << ", "
                  << FormatDuration(FromSeconds(run->wall_s)) << ")\n";
      }
    }
    return runs;
  }

  // The seed's job set with its LP solved once, for every planning policy and the column
  // "TWJCT / LP bound", and its task-level LP when a task-level policy runs (t-mars, htwf,
  // stf: the column "TWTCT / LP bound"). None when the LP would bound nothing: jobs whose
  // app has no model, or nodes that may run several tasks at once (the LP's machines run
  // one).
  std::shared_ptr<const PlanPreview> Preview(const WorkloadSpec& spec, const WorkloadRunOptions& o,
                                             uint64_t seed) {
    const std::vector<int> limits = o.cluster.NodeTaskLimits();
    if (!std::all_of(limits.begin(), limits.end(), [](int l) { return l == 1; })) return nullptr;
    auto preview = WorkloadPreview(spec, o);
    if (!preview.ok()) return nullptr;
    preview->lp = SolvePlanningLp(preview->instance);
    Say(seed, "", *preview->lp);
    const bool task_level = std::any_of(policies_.begin(), policies_.end(), [](const auto& p) {
      return p.policy == "t-mars" || p.policy == "htwf" || p.policy == "stf";
    });
    if (task_level) {
      preview->task_lp =
          SolvePlanningLp(preview->instance, kPlanningLpBudgetS, LpObjective::kTaskCompletion);
      Say(seed, "task-level ", *preview->task_lp);
    }
    return std::make_shared<const PlanPreview>(std::move(preview).value());
  }

  // Why the seed's `what`LP bound is missing or loose, unless quiet.
  void Say(uint64_t seed, const std::string& what, const Result<LpBound>& lp) const {
    if (!options_.quiet && !lp.ok())
      std::cerr << "mrlocal: seed " << seed << ": no " << what << "LP bound ("
                << lp.status().message() << ")\n";
    else if (!options_.quiet && lp->stop == LpStop::kTimeBudget)
      std::cerr << "mrlocal: seed " << seed << ": the " << what << "LP ran out of its time budget ("
                << kPlanningLpBudgetS << " s); the bound is its last LP's, a looser one\n";
  }

  // Every policy's figures at every point (a variant of the options), seed by seed:
  // at[point][policy][seed].
  using PointRuns = std::vector<std::vector<std::vector<WorkloadMetrics>>>;
  Result<PointRuns> RunPoints(const std::vector<WorkloadOptions>& points) {
    PointRuns runs;
    for (const WorkloadOptions& o : points) {
      runs.emplace_back(policies_.size());
      for (int k = 0; k < seeds_; ++k) {
        auto seed = RunSeed(o, k);
        if (!seed.ok()) return seed.status();
        for (size_t i = 0; i < policies_.size(); ++i) runs.back()[i].push_back(seed->metrics[i]);
      }
    }
    return runs;
  }

  // One measure of every run, as a sweep over `x`.
  SweepResult Measure(const std::string& parameter, const std::vector<double>& x,
                      const PointRuns& runs, const std::string& measure,
                      const std::function<double(const WorkloadMetrics&)>& of) const {
    SweepResult result{parameter, measure, x, {}};
    for (size_t i = 0; i < policies_.size(); ++i) {
      result.series.push_back({policies_[i].label, {}});
      for (const auto& point : runs) {
        result.series.back().at.emplace_back();
        for (const WorkloadMetrics& m : point[i]) result.series.back().at.back().push_back(of(m));
      }
    }
    return result;
  }

  // What became of the jobs the admission-control policies rejected; empty when no policy
  // compared has admission control.
  std::string RejectPolicyNote() const {
    std::string dropping, backfilling;
    for (const PolicyVariant& v : policies_) {
      auto d = FindPolicy(v.policy);
      if (!d.ok() || !(*d)->traits.admission_control) continue;
      auto own = v.settings.find(kRejectPolicy);
      const std::string how = own != v.settings.end() ? std::get<std::string>(own->second)
                                                      : options_.reject_policy.value_or("backfill");
      std::string& list = how == "drop" ? dropping : backfilling;
      list += (list.empty() ? "" : ", ") + v.label;
    }
    std::string note;
    if (!dropping.empty()) note += "Jobs that " + dropping + " rejected were dropped.\n";
    if (!backfilling.empty())
      note += "Jobs that " + backfilling +
              " rejected ran best-effort in spare slots, preempted when an admitted job needed "
              "them: they count in met of all jobs when they met their deadline, never in "
              "accepted or met of accepted.\n";
    return note;
  }

  int PrintSweep(const std::vector<SweepResult>& sweeps, const std::string& files) {
    std::cout << SweepMarkdown(sweeps);
    if (!options_.report_dir.empty()) {
      Status st = WriteSweepReport(options_.report_dir, sweeps);
      if (!st.ok()) return ReportError(st);
      std::cout << "\nreport in " << options_.report_dir << "/ (" << files << ")\n";
    }
    std::cout << RejectPolicyNote();
    return kExitOk;
  }

  // --sweep: the deadline-miss percentage of every policy at every value of the preset
  // parameter, over the seeds; of goals when the jobs have goals and no deadlines (ra-*).
  int RunSweep() {
    if (options_.preset.empty())
      return ReportError(
          Status::InvalidArgument("--sweep applies to presets, not to '" + options_.source + "'"));
    auto sweep = ParsePresetSweep(sweep_, options_.preset);
    if (!sweep.ok()) return ReportError(sweep.status());
    if (sweep->parameter == "concurrency" && options_.concurrency)
      return ReportError(
          Status::InvalidArgument("--concurrency and --sweep concurrency=...: give one of them"));
    std::vector<WorkloadOptions> points;
    for (double x : sweep->values) {
      points.push_back(options_);
      points.back().preset_parameters[sweep->parameter] = x;
    }
    auto runs = RunPoints(points);
    if (!runs.ok()) return ReportError(runs.status());
    const WorkloadMetrics& first = runs->front().front().front();
    const bool goals = first.goal_jobs > 0 && first.deadline_jobs == 0;
    const SweepResult result =
        goals ? Measure(sweep->parameter, sweep->values, *runs,
                        "goal misses (% of the jobs with a goal)",
                        [](const WorkloadMetrics& m) { return 100 * m.goal_miss_ratio; })
              : Measure(sweep->parameter, sweep->values, *runs,
                        "deadline misses (% of the jobs with a deadline)",
                        [](const WorkloadMetrics& m) { return 100 * m.miss_ratio; });
    return PrintSweep({result}, "sweep.md, sweep.csv");
  }

  // --load: the workload at every arrival rate, every policy over the seeds; one table per
  // measure, the scheduler's cost (wall time) last.
  int RunLoadSweep() {
    auto loads = ParseLoads(*load_);  // checked while parsing (LoadList)
    if (!loads.ok()) return ReportError(loads.status());
    std::vector<WorkloadOptions> points;
    for (double load : *loads) {
      points.push_back(options_);
      points.back().load = load;
    }
    auto runs = RunPoints(points);
    if (!runs.ok()) return ReportError(runs.status());
    auto measure = [&](const std::string& key, const std::string& what, bool chart, auto of) {
      SweepResult r = Measure("load", *loads, *runs, what, of);
      r.key = key;
      r.chart = chart;
      return r;
    };
    const std::vector<SweepResult> sweeps = {
        measure("accepted", "accepted (% of all jobs; without admission control all are)", true,
                [](const WorkloadMetrics& m) { return 100 * m.accept_ratio; }),
        measure("met-of-accepted",
                "met of accepted (% of the accepted jobs that met their deadline: SuccessR)", false,
                [](const WorkloadMetrics& m) { return 100 * m.success_ratio; }),
        measure("met-of-all",
                "met of all jobs (% of all jobs that met their deadline, admitted or not; a job "
                "without a deadline meets it when it completes)",
                true, [](const WorkloadMetrics& m) { return 100 * m.met_all_ratio; }),
        measure("utilization", "utilization (%, Util as compare reports it)", false,
                [](const WorkloadMetrics& m) { return 100 * m.utilization; }),
        measure("decision-p50-us", "scheduler cost: median policy call (µs of wall time)", false,
                [](const WorkloadMetrics& m) { return m.scheduler.decision_latency_us.p50; }),
        measure("decision-p99-us", "scheduler cost: p99 policy call (µs of wall time)", false,
                [](const WorkloadMetrics& m) { return m.scheduler.decision_latency_us.p99; }),
    };
    return PrintSweep(sweeps,
                      "sweep.md; per measure a CSV, e.g. met-of-all.csv; accepted.svg and "
                      "met-of-all.svg");
  }

 private:
  WorkloadOptions options_;
  std::string policies_text_;            // --policies' text
  std::vector<PolicyVariant> policies_;  // parsed from it when the command runs
  int seeds_ = 1;
  std::string sweep_;
  std::optional<std::string> load_;  // --load's text
  std::set<std::string> notes_;      // the workloads' notes already shown
};

}  // namespace

std::unique_ptr<Command> AddCompareCommand(CLI::App& root) {
  return std::make_unique<CompareCommand>(root);
}

}  // namespace mrlocal
