// mrlocal compare SPEC.json|TRACE.tsv|--preset NAME --policies fifo,fair,edf [--sim]
//                 [--seeds N] [--report DIR]
// The same workload under each policy: a Markdown table on stdout (mean, and min-max over
// seeds), and with --report the table as comparison.md / .csv and one SVG bar chart per
// metric. Seed k (k = seed .. seed+N-1) draws both the preset's jobs and the model's noise,
// so every policy sees exactly the same jobs for a given seed.
#include <iostream>
#include <optional>
#include <sstream>

#include "sched/policy/policy_registry.h"
#include "sched/report/workload_report.h"
#include "tools/cli/commands.h"
#include "tools/cli/exit_codes.h"
#include "tools/cli/option_checks.h"
#include "tools/cli/plural.h"
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
  }

  int Run() override {
    if (options_.seed > UINT64_MAX - static_cast<uint64_t>(seeds_ - 1))
      return ReportError(Status::InvalidArgument("--seed + --seeds - 1 must be at most " +
                                                 std::to_string(UINT64_MAX)));
    if (Status st = CheckPolicyOptions(options_, policies_); !st.ok()) return ReportError(st);
    std::vector<ComparisonRow> rows;
    for (const std::string& p : policies_) rows.push_back({p, {}});
    std::optional<double> slowstart;  // the workload's reduce slow-start
    for (int k = 0; k < seeds_; ++k) {
      WorkloadOptions o = options_;
      o.seed = options_.seed + static_cast<uint64_t>(k);
      auto loaded = LoadWorkloadFromOptions(o);
      if (!loaded.ok()) return ReportError(loaded.status());
      slowstart = loaded->spec.reduce_slowstart;
      for (size_t i = 0; i < policies_.size(); ++i) {
        WorkloadRunOptions ro = loaded->run;
        ro.policy = policies_[i];
        ro.keep_attempts = false;
        auto run =
            options_.sim ? RunWorkloadSim(loaded->spec, ro) : RunWorkloadReal(loaded->spec, ro);
        if (!run.ok()) return ReportError(run.status());
        rows[i].seeds.push_back(run->metrics);
        if (!options_.quiet)
          std::cerr << "compare: " << policies_[i] << " seed " << o.seed << " done ("
                    << Plural(run->metrics.jobs, "job") << ", " << run->wall_s << " s)\n";
      }
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
  WorkloadOptions options_;
  std::vector<std::string> policies_;
  int seeds_ = 1;
};

}  // namespace

std::unique_ptr<Command> AddCompareCommand(CLI::App& root) {
  return std::make_unique<CompareCommand>(root);
}

}  // namespace mrlocal
