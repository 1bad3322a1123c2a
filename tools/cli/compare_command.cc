// mrlocal compare SPEC.json|TRACE.tsv|--preset NAME --policies fifo,fair,edf [--sim]
//                 [--seeds N] [--sweep NAME=LO:HI[:STEP]] [--report DIR]
// The same workload under each policy: a Markdown table on stdout (mean, and min-max over
// seeds), and with --report the table as comparison.md / .csv and one SVG bar chart per
// metric. Seed k (k = seed .. seed+N-1) draws both the preset's jobs and the model's noise,
// so every policy sees exactly the same jobs for a given seed. --sweep runs that at every
// value of a preset parameter and prints the deadline-miss percentage, rows the values and
// columns the policies (DynamicShare's Fig. 5 against concurrency).
#include <algorithm>
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
#include "tools/cli/exit_codes.h"
#include "tools/cli/option_checks.h"
#include "tools/cli/plural.h"
#include "tools/cli/preset_sweep.h"
#include "tools/cli/workload_options.h"
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
    Within(app->add_option("--policies", policies_, "Comma-separated policies, each"),
           OneOf(PolicyNames()))
        ->delimiter(',')
        ->required();
    app->footer(PolicyHelp());
    Within(app->add_option("--seeds", seeds_, "Runs per policy, with seeds --seed, --seed+1, ..."),
           IntegerIn(1, 1'000'000))
        ->capture_default_str();
    app->add_option("--sweep", sweep_,
                    "Presets: the deadline-miss percentage at every value of a preset parameter, "
                    "NAME=LO:HI[:STEP] or NAME=V1,V2,... (e.g. concurrency=1:10): one table, "
                    "rows the values, columns the policies")
        ->check(NotEmpty());
  }

  int Run() override {
    if (options_.seed > UINT64_MAX - static_cast<uint64_t>(seeds_ - 1))
      return ReportError(Status::InvalidArgument("--seed + --seeds - 1 must be at most " +
                                                 std::to_string(UINT64_MAX)));
    if (Status st = CheckPolicyOptions(options_, policies_); !st.ok()) return ReportError(st);
    if (!sweep_.empty()) return RunSweep();
    std::vector<ComparisonRow> rows;
    for (const std::string& p : policies_) rows.push_back({p, {}});
    std::optional<double> slowstart;  // the workload's reduce slow-start
    for (int k = 0; k < seeds_; ++k) {
      auto seed = RunSeed(options_, k);
      if (!seed.ok()) return ReportError(seed.status());
      slowstart = seed->reduce_slowstart;
      for (size_t i = 0; i < policies_.size(); ++i) rows[i].seeds.push_back(seed->metrics[i]);
    }
    std::cout << ComparisonMarkdown(rows);
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
    for (const std::string& policy : policies_) {
      WorkloadRunOptions ro = loaded->run;
      ro.policy = policy;
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
        for (const auto& [name, value] : o.preset_parameters)
          std::cerr << name << " " << value << ", ";
        std::cerr << policy << " seed " << o.seed << " done (" << Plural(run->metrics.jobs, "job")
                  << ", " << FormatDuration(FromSeconds(run->wall_s)) << ")\n";
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
      return p == "t-mars" || p == "htwf" || p == "stf";
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
    SweepResult result{
        sweep->parameter, "deadline misses (% of the jobs with a deadline)", sweep->values, {}};
    for (const std::string& p : policies_) result.series.push_back({p, {}});
    for (double x : sweep->values) {
      WorkloadOptions o = options_;
      o.preset_parameters[sweep->parameter] = x;
      for (SweepSeries& s : result.series) s.at.emplace_back();
      for (int k = 0; k < seeds_; ++k) {
        auto seed = RunSeed(o, k);
        if (!seed.ok()) return ReportError(seed.status());
        const WorkloadMetrics& first = seed->metrics.front();
        const bool goals = first.goal_jobs > 0 && first.deadline_jobs == 0;
        if (goals) result.measure = "goal misses (% of the jobs with a goal)";
        for (size_t i = 0; i < policies_.size(); ++i)
          result.series[i].at.back().push_back(
              100 * (goals ? seed->metrics[i].goal_miss_ratio : seed->metrics[i].miss_ratio));
      }
    }
    std::cout << SweepMarkdown(result);
    if (!options_.report_dir.empty()) {
      Status st = WriteSweepReport(options_.report_dir, result);
      if (!st.ok()) return ReportError(st);
      std::cout << "\nreport in " << options_.report_dir << "/ (sweep.md, sweep.csv)\n";
    }
    return kExitOk;
  }

 private:
  WorkloadOptions options_;
  std::vector<std::string> policies_;
  int seeds_ = 1;
  std::string sweep_;
  std::set<std::string> notes_;  // the workloads' notes already shown
};

}  // namespace

std::unique_ptr<Command> AddCompareCommand(CLI::App& root) {
  return std::make_unique<CompareCommand>(root);
}

}  // namespace mrlocal
