// MarS's Figs. 7-12 offline (Ling et al. 2016, section 5.2): TWJCT / LP bound per algorithm
// against the number of jobs, over seeds, on MSJO instances (sched/plan) of the mars-*
// presets. TWJCT is sum_j w_j C_j with absolute completion times; every plan must pass
// CheckSchedule and stay at or above the bound, or the bench fails.
//
// Two denominators, since the paper's is ambiguous: the epsilon-stopped LP objective (the
// LP MarS plans from) and, up to --converge-up-to jobs (Fig. 15: tasks), the converged bound.
// MarS plans over the epsilon LP's middle times, MARES and H-MARES over its completions
// C_u = S_u + p_u (the paper's Fig. 7 feeds MARES "the same lower bound").
//
// Scenarios (--fig), all on mars-random's jobs (releases, weights, delays):
//    7  mars-random on 50 machines            10  the same on 100 machines
//    8  30 maps, 10 reduces a job (works cycled from the job's random ones)
//    9  every map 10 s, every reduce 15 s (delay a tenth of the map time, 1 s)
//   11  increasing unit weight: the jobs' unit weights w_j / work_j sorted to rise with
//       release (works kept, weights w_j = UW * work_j)
//   12  decreasing unit weight: the same, falling with release
//
// Prediction error (Fig. 14): the job-level plans made on works each off by a uniform
// factor in [1 - e, 1 + e], run on the true works keeping every machine's planned order
// (ReplayInPlannedOrder, MARES waiting for its planned starts as its policy does), TWJCT
// over the true works' LP; rows e (--errors, percent), one
// job count (--jobs, first value; 50 unless given).
//
// Task level (Figs. 15-16): mars-random's jobs taken until --tasks tasks (the last job cut,
// its maps first), per-task weights W_u ~ N(30, 10) (drawn again at or below 0), tasks
// released with their jobs, 50 machines; TWTCT (sum_u W_u C_u) over the task-level LP (eqs.
// 11-13), T-MarS (both readings, t_mars.h) and H-MARES from its completions.
//   15  TWTCT / LP bound against the total number of tasks (--tasks, 100..1000)
//   16  relative waiting time (C_u - r_u over the plan's longest), at the first --tasks
//       value (1000 unless given): the share of tasks at or below 0.5, and the CDF as CSV
//
// --release-scale X multiplies every release (X > 1: jobs further apart, a lighter load):
// the paper's "Bernoulli with probability 2" does not say how often jobs arrive, and the
// ratios depend on it (sched/plan/README.md, "The arrival rate"). Figs. 7-12 and 14.
//
//   bench_mars_fig7 [--fig 7] [--seeds 20] [--jobs 10,20,...,100] [--converge-up-to 50]
//                   [--errors 0,20,...,100] [--tasks 100,200,...,1000] [--release-scale 1]
//                   [--epsilon-absolute]   (the paper's epsilon stop, on the absolute
//                                           objectives; default: less sum w r, lp_bound.h)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "datasets/plan_instance.h"
#include "datasets/workload_presets.h"
#include "plan_bench_args.h"  // this folder's
#include "sched/plan/baselines.h"
#include "sched/plan/lp_bound.h"
#include "sched/plan/lp_pgc.h"
#include "sched/plan/mares.h"
#include "sched/plan/mars.h"
#include "sched/plan/planned_order_replay.h"
#include "sched/plan/t_mars.h"

namespace mrlocal {
namespace {

[[noreturn]] void Fail(const std::string& message) { plan_bench::Fail("bench_mars_fig7", message); }

std::vector<int> ParseList(const char* option, const char* text) {
  return plan_bench::ParseList("bench_mars_fig7", option, text, 0);
}

std::vector<double> Cycled(const std::vector<double>& works, int count) {
  std::vector<double> out;
  for (int k = 0; k < count; ++k) out.push_back(works[k % works.size()]);
  return out;
}

double Work(const PlanJob& job) {
  double sum = 0;
  for (double p : job.maps) sum += p;
  for (double p : job.reduces) sum += p;
  return sum;
}

// Unit weights sorted to rise (or fall) with release; jobs are already in release order.
void SortUnitWeights(PlanInstance& in, bool rising) {
  std::vector<double> unit;
  for (const PlanJob& job : in.jobs) unit.push_back(job.weight / Work(job));
  std::sort(unit.begin(), unit.end());
  if (!rising) std::reverse(unit.begin(), unit.end());
  for (size_t j = 0; j < in.jobs.size(); ++j) in.jobs[j].weight = unit[j] * Work(in.jobs[j]);
}

double release_scale = 1;       // --release-scale: one setting for the whole run
bool epsilon_absolute = false;  // --epsilon-absolute (lp_bound.h)

PlanInstance Scenario(int fig, uint64_t seed, size_t jobs) {
  auto spec = MakePreset("mars-random", seed, {.jobs = jobs});
  if (!spec.ok()) Fail(spec.status().message());
  auto in = PlanInstanceOf(*spec, *spec->cluster);
  if (!in.ok()) Fail(in.status().message());
  for (PlanJob& job : in->jobs) {
    if (fig == 8) {
      job.maps = Cycled(job.maps, 30);
      job.reduces = Cycled(job.reduces, 10);
    } else if (fig == 9) {
      job.maps.assign(job.maps.size(), 10);
      job.reduces.assign(job.reduces.size(), 15);
      job.delay = 1;
    }
    job.release *= release_scale;
  }
  if (fig == 10) in->machine_speeds.assign(100, 1.0);
  if (fig == 11 || fig == 12) SortUnitWeights(*in, fig == 11);
  return *in;
}

struct Algorithm {
  const char* name;
  std::function<Result<Schedule>(const PlanInstance&, const LpBound&)> plan;
};

std::vector<double> LpTimes(const PlanInstance& in, const LpBound& lp, double of_work) {
  const std::vector<PlanTask> tasks = FlattenTasks(in);
  const double fastest = LpMachinesOf(in).fastest;
  std::vector<double> t(tasks.size());
  for (size_t u = 0; u < tasks.size(); ++u) t[u] = lp.start[u] + of_work * tasks[u].work / fastest;
  return t;
}

const std::vector<Algorithm>& Algorithms() {
  static const std::vector<Algorithm> all = {
      {"MarS", [](auto& in, auto& lp) { return MarsPlan(in, LpTimes(in, lp, 0.5)); }},
      {"MARES", [](auto& in, auto& lp) { return MaresPlan(in, LpTimes(in, lp, 1)); }},
      {"H-MARES", [](auto& in, auto& lp) { return HMaresPlan(in, LpTimes(in, lp, 1)); }},
      {"HUWF", [](auto& in, auto&) { return HuwfPlan(in); }},
      {"HJWF", [](auto& in, auto&) { return HjwfPlan(in); }},
      {"STF", [](auto& in, auto&) { return StfPlan(in); }},
  };
  return all;
}

// Mean, min and max of ratios.
struct Spread {
  std::vector<double> values;
  std::string Cell() const {
    if (values.empty()) return "-";
    double sum = 0;
    for (double v : values) sum += v;
    char text[64];
    std::snprintf(text, sizeof text, "%.2f (%.2f-%.2f)", sum / values.size(),
                  *std::min_element(values.begin(), values.end()),
                  *std::max_element(values.begin(), values.end()));
    return text;
  }
};

struct Row {
  std::vector<Spread> over_epsilon, over_converged;
  double tasks = 0, lp_seconds = 0;  // the LP's mean wall clock: to epsilon, or converged
  int converged = 0;                 // seeds whose LP converged
};

// A plan of `in`, checked feasible; the bench fails otherwise.
Schedule Checked(const Algorithm& alg, const PlanInstance& in, const LpBound& lp) {
  Result<Schedule> s = alg.plan(in, lp);
  if (!s.ok()) Fail(std::string(alg.name) + ": " + s.status().message());
  if (Status ok = CheckSchedule(in, *s, 1e-6); !ok.ok())
    Fail(std::string(alg.name) + " infeasible: " + ok.message());
  return *s;
}

Row Measure(int fig, int jobs, int seeds, bool converge) {
  const size_t n = Algorithms().size();
  Row row{std::vector<Spread>(n), std::vector<Spread>(n)};
  for (int seed = 1; seed <= seeds; ++seed) {
    const PlanInstance in = Scenario(fig, seed, jobs);
    row.tasks += static_cast<double>(FlattenTasks(in).size()) / seeds;
    auto lp =
        SolveLpBound(in, {.converge = converge, .epsilon_on_absolute_objective = epsilon_absolute});
    if (!lp.ok()) Fail(lp.status().message());
    row.lp_seconds += lp->seconds / seeds;
    row.converged += lp->converged;
    for (size_t a = 0; a < n; ++a) {
      const Algorithm& alg = Algorithms()[a];
      const double twjct = WeightedCompletion(in, Checked(alg, in, *lp));
      if (twjct < lp->bound * (1 - 1e-6))
        Fail(std::string(alg.name) + " below the LP bound, seed " + std::to_string(seed));
      row.over_epsilon[a].values.push_back(twjct / lp->epsilon_objective);
      if (converge) row.over_converged[a].values.push_back(twjct / lp->bound);
    }
  }
  return row;
}

void PrintHeader(const char* first, const std::vector<Algorithm>& algorithms) {
  const bool tasks_column = std::strcmp(first, "tasks") != 0;
  std::printf("\n\n| %s |%s", first, tasks_column ? " tasks |" : "");
  for (const Algorithm& a : algorithms) std::printf(" %s |", a.name);
  std::printf(" LP s |\n|---|%s", tasks_column ? "---|" : "");
  for (size_t a = 0; a <= algorithms.size(); ++a) std::printf("---|");
  std::printf("\n");
}

// `tasks`: the mean number of tasks, or none (the label is that number).
void PrintRow(int label, std::optional<double> tasks, const std::vector<Spread>& cells,
              double seconds) {
  std::printf("| %d |", label);
  if (tasks) std::printf(" %.0f |", *tasks);
  for (const Spread& s : cells) std::printf(" %s |", s.Cell().c_str());
  std::printf(" %.2f |\n", seconds);
}

// ---- Fig. 14: plans on mispredicted works, run on the true ones ----

// Every task's work times a factor uniform in [1 - error, 1 + error].
PlanInstance Mispredicted(const PlanInstance& truth, double error, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> factor(1 - error, 1 + error);
  PlanInstance predicted = truth;
  for (PlanJob& job : predicted.jobs) {
    for (double& p : job.maps) p *= factor(rng);
    for (double& p : job.reduces) p *= factor(rng);
  }
  return predicted;
}

// One row per error (percent), TWJCT of the replayed plans over the true works' LP.
std::vector<Row> MeasureErrors(int jobs, const std::vector<int>& errors, int seeds) {
  const size_t n = Algorithms().size();
  std::vector<Row> rows(errors.size(), Row{std::vector<Spread>(n), {}});
  for (int seed = 1; seed <= seeds; ++seed) {
    const PlanInstance truth = Scenario(7, seed, jobs);
    auto bound = SolveLpBound(truth, {.epsilon_on_absolute_objective = epsilon_absolute});
    if (!bound.ok()) Fail(bound.status().message());
    for (size_t e = 0; e < errors.size(); ++e) {
      const PlanInstance predicted = Mispredicted(truth, errors[e] / 100.0, seed * 1000 + e);
      auto lp = SolveLpBound(predicted, {.epsilon_on_absolute_objective = epsilon_absolute});
      if (!lp.ok()) Fail(lp.status().message());
      rows[e].tasks += static_cast<double>(FlattenTasks(truth).size()) / seeds;
      rows[e].lp_seconds += lp->seconds / seeds;
      for (size_t a = 0; a < n; ++a) {
        const Algorithm& alg = Algorithms()[a];
        // As the policies follow plans (plan_follower.h): MARES waits for its planned
        // starts, the others keep only the order.
        const PlannedStarts starts =
            std::string(alg.name) == "MARES" ? PlannedStarts::kWait : PlannedStarts::kOrderOnly;
        Result<Schedule> run = ReplayInPlannedOrder(truth, Checked(alg, predicted, *lp), starts);
        if (!run.ok()) Fail(run.status().message());
        if (Status ok = CheckSchedule(truth, *run, 1e-6); !ok.ok())
          Fail(std::string(alg.name) + " replay infeasible: " + ok.message());
        const double twjct = WeightedCompletion(truth, *run);
        if (twjct < bound->bound * (1 - 1e-6)) Fail(std::string(alg.name) + " below the LP bound");
        rows[e].over_epsilon[a].values.push_back(twjct / bound->epsilon_objective);
      }
    }
  }
  return rows;
}

// ---- Figs. 15-16: the task level ----

// mars-random's jobs until `total` tasks, W_u ~ N(30, 10) > 0 per task.
PlanInstance TaskLevelScenario(uint64_t seed, int total) {
  auto spec = MakePreset("mars-random", seed, {.jobs = static_cast<size_t>(total / 2 + 1)});
  if (!spec.ok()) Fail(spec.status().message());
  auto all = PlanInstanceOf(*spec, *spec->cluster);
  if (!all.ok()) Fail(all.status().message());
  PlanInstance in;
  in.machine_speeds = all->machine_speeds;
  size_t left = total;
  for (PlanJob job : all->jobs) {  // every job has a map and a reduce: enough of them
    if (left == 0) break;
    job.maps.resize(std::min(left, job.maps.size()));
    left -= job.maps.size();
    job.reduces.resize(std::min(left, job.reduces.size()));
    left -= job.reduces.size();
    in.jobs.push_back(std::move(job));
  }
  std::mt19937_64 rng(seed);
  std::normal_distribution<double> weight(30, 10);
  for (int u = 0; u < total; ++u) {
    double w;
    do w = weight(rng);
    while (w <= 0);
    in.task_weights.push_back(w);
  }
  return in;
}

const std::vector<Algorithm>& TaskAlgorithms() {
  static const std::vector<Algorithm> all = {
      {"T-MarS", [](auto& in, auto& lp) { return TMarsPlan(in, LpTimes(in, lp, 1)); }},
      {"T-MarS list",
       [](auto& in, auto& lp) {
         return TMarsPlan(in, LpTimes(in, lp, 1), {.driver = TMarsDriver::kListNoWait});
       }},
      {"T-MarS windows",
       [](auto& in, auto& lp) {
         return TMarsPlan(in, LpTimes(in, lp, 1), {.driver = TMarsDriver::kWindows});
       }},
      {"H-MARES", [](auto& in, auto& lp) { return HMaresPlan(in, LpTimes(in, lp, 1)); }},
      {"STF", [](auto& in, auto&) { return StfPlan(in); }},
      {"HTWF", [](auto& in, auto&) { return HtwfPlan(in); }},
      {"HUWF", [](auto& in, auto&) { return HuwfPlan(in); }},
  };
  return all;
}

// The task-level LP; plans from its epsilon stop, as MarS's. Converging it is slow: each
// task's own weight pulls it early, and COGE adds PGCs round after round (500 tasks: ~15 s).
LpBound TaskLp(const PlanInstance& in, bool converge) {
  auto lp = SolveLpBound(in, {.objective = LpObjective::kTaskCompletion,
                              .converge = converge,
                              .epsilon_on_absolute_objective = epsilon_absolute});
  if (!lp.ok()) Fail(lp.status().message());
  return *lp;
}

Row MeasureTasks(int total, int seeds, bool converge) {
  const size_t n = TaskAlgorithms().size();
  Row row{std::vector<Spread>(n), std::vector<Spread>(n)};
  for (int seed = 1; seed <= seeds; ++seed) {
    const PlanInstance in = TaskLevelScenario(seed, total);
    const LpBound lp = TaskLp(in, converge);
    row.tasks += static_cast<double>(total) / seeds;
    row.lp_seconds += lp.seconds / seeds;
    row.converged += lp.converged;
    for (size_t a = 0; a < n; ++a) {
      const Algorithm& alg = TaskAlgorithms()[a];
      const double twtct = WeightedTaskCompletion(in, Checked(alg, in, lp));
      if (twtct < lp.bound * (1 - 1e-6))
        Fail(std::string(alg.name) + " below the task LP bound, seed " + std::to_string(seed));
      row.over_epsilon[a].values.push_back(twtct / lp.epsilon_objective);
      if (converge) row.over_converged[a].values.push_back(twtct / lp.bound);
    }
  }
  return row;
}

// Fig. 16: per algorithm, the CDF of C_u - r_u over the plan's longest, at x = 0.05 ..
// 1 (index k: x = (k + 1) / 20), a mean over seeds.
void RelativeWaits(int total, int seeds) {
  constexpr int kPoints = 20;
  const size_t n = TaskAlgorithms().size();
  std::vector<std::vector<double>> cdf(n, std::vector<double>(kPoints, 0));
  std::vector<Spread> at_half(n);
  for (int seed = 1; seed <= seeds; ++seed) {
    const PlanInstance in = TaskLevelScenario(seed, total);
    const LpBound lp = TaskLp(in, false);
    const std::vector<PlanTask> tasks = FlattenTasks(in);
    for (size_t a = 0; a < n; ++a) {
      const Schedule s = Checked(TaskAlgorithms()[a], in, lp);
      std::vector<double> wait(tasks.size());
      for (size_t u = 0; u < tasks.size(); ++u)
        wait[u] = s.start[u] + tasks[u].work / in.machine_speeds[s.machine[u]] - tasks[u].release;
      const double longest = *std::max_element(wait.begin(), wait.end());
      std::vector<double> share(kPoints, 0);
      for (double w : wait)
        for (int k = 0; k < kPoints; ++k)
          if (w / longest <= (k + 1.0) / kPoints) share[k] += 1.0 / wait.size();
      for (int k = 0; k < kPoints; ++k) cdf[a][k] += share[k] / seeds;
      at_half[a].values.push_back(share[kPoints / 2 - 1]);
    }
  }
  std::printf(
      "Fig. 16, %d tasks, %d seeds: share of the tasks done by relative waiting time "
      "0.5, mean (min-max)\n\n| algorithm | share |\n|---|---|\n",
      total, seeds);
  for (size_t a = 0; a < n; ++a)
    std::printf("| %s | %s |\n", TaskAlgorithms()[a].name, at_half[a].Cell().c_str());
  std::printf("\nCDF (CSV, mean over seeds):\nrelative_wait");
  for (const Algorithm& alg : TaskAlgorithms()) std::printf(",%s", alg.name);
  for (int k = 0; k < kPoints; ++k) {
    std::printf("\n%.2f", (k + 1.0) / kPoints);
    for (size_t a = 0; a < n; ++a) std::printf(",%.4f", cdf[a][k]);
  }
  std::printf("\n");
}

std::optional<double> Tasks(const char* first, const Row& row) {
  if (!std::strcmp(first, "tasks")) return std::nullopt;
  return row.tasks;
}

void PrintTables(const std::string& title, const char* first, const std::vector<int>& labels,
                 const std::vector<Row>& rows, const std::vector<Algorithm>& algorithms,
                 bool converged) {
  std::printf("%s / epsilon-stopped LP objective (epsilon 0.3), mean (min-max)", title.c_str());
  PrintHeader(first, algorithms);
  for (size_t r = 0; r < rows.size(); ++r)
    PrintRow(labels[r], Tasks(first, rows[r]), rows[r].over_epsilon, rows[r].lp_seconds);
  if (!converged) return;
  std::printf("\n%s / converged LP bound", title.c_str());
  PrintHeader(first, algorithms);
  for (size_t r = 0; r < rows.size(); ++r)
    if (!rows[r].over_converged.empty() && !rows[r].over_converged[0].values.empty())
      PrintRow(labels[r], Tasks(first, rows[r]), rows[r].over_converged, rows[r].lp_seconds);
}

struct Args {
  int fig = 7, seeds = 20;
  std::optional<int> converge_up_to;  // jobs (Figs. 7-12: 50), tasks (Fig. 15: 500)
  std::vector<int> jobs = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
  std::vector<int> errors = {0, 20, 40, 60, 80, 100};
  std::vector<int> tasks = {100, 200, 300, 400, 500, 600, 700, 800, 900, 1000};
  bool jobs_given = false, tasks_given = false;
};

// The command line; --release-scale and --epsilon-absolute set the run-wide settings.
Args ParseArgs(int argc, char** argv) {
  Args a;
  const char* usage =
      " (usage: bench_mars_fig7 [--fig 7|8|9|10|11|12|14|15|16] [--seeds N] [--jobs 10,20]"
      " [--converge-up-to JOBS|TASKS] [--errors 0,50] [--tasks 100,1000] [--release-scale X]"
      " [--epsilon-absolute])";
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--fig") && has_value) {
      a.fig = ParseList("--fig", argv[++i]).front();
      if (a.fig < 7 || a.fig > 16 || a.fig == 13)
        Fail(std::string("--fig: 7 to 12 or 14 to 16, not ") + argv[i]);
    } else if (!std::strcmp(argv[i], "--seeds") && has_value) {
      a.seeds = ParseList("--seeds", argv[++i]).front();
      if (a.seeds < 1) Fail("--seeds: at least 1");
    } else if (!std::strcmp(argv[i], "--jobs") && has_value) {
      a.jobs = ParseList("--jobs", argv[++i]);
      a.jobs_given = true;
    } else if (!std::strcmp(argv[i], "--converge-up-to") && has_value) {
      a.converge_up_to = ParseList("--converge-up-to", argv[++i]).front();
    } else if (!std::strcmp(argv[i], "--errors") && has_value) {
      a.errors = ParseList("--errors", argv[++i]);
    } else if (!std::strcmp(argv[i], "--epsilon-absolute")) {
      epsilon_absolute = true;
    } else if (!std::strcmp(argv[i], "--release-scale") && has_value) {
      char* end = nullptr;
      release_scale = std::strtod(argv[++i], &end);
      if (*end || !(release_scale > 0 && release_scale <= 1000))
        Fail(std::string("--release-scale: a number in (0, 1000], not ") + argv[i]);
    } else if (!std::strcmp(argv[i], "--tasks") && has_value) {
      a.tasks = ParseList("--tasks", argv[++i]);
      a.tasks_given = true;
    } else {
      Fail(std::string("unknown option or missing value: ") + argv[i] + usage);
    }
  }
  for (int n : a.jobs)
    if (n < 1) Fail("--jobs: at least 1 job");
  for (int n : a.tasks)
    if (n < 1) Fail("--tasks: at least 1 task");
  for (int e : a.errors)
    if (e > 100) Fail("--errors: percent from 0 to 100");
  return a;
}

void RunFigure(const Args& a) {
  const int fig = a.fig, seeds = a.seeds;
  if (fig == 14) {
    const int n = a.jobs_given ? a.jobs.front() : 50;
    const std::string title = "Fig. 14, " + std::to_string(n) + " jobs, " + std::to_string(seeds) +
                              " seeds, plans on works off by up to +-e %, run on the true ones: "
                              "TWJCT of the runs";
    PrintTables(title, "error %", a.errors, MeasureErrors(n, a.errors, seeds), Algorithms(), false);
    return;
  }
  if (fig == 16) {
    RelativeWaits(a.tasks_given ? a.tasks.front() : 1000, seeds);
    return;
  }
  std::vector<Row> rows;
  for (int n : fig == 15 ? a.tasks : a.jobs) {
    Row row = fig == 15 ? MeasureTasks(n, seeds, n <= a.converge_up_to.value_or(500))
                        : Measure(fig, n, seeds, n <= a.converge_up_to.value_or(50));
    std::fprintf(stderr, "fig %d, %d %s: LP %.2f s a seed, %d of %d converged\n", fig, n,
                 fig == 15 ? "tasks" : "jobs", row.lp_seconds, row.converged, seeds);
    rows.push_back(std::move(row));
  }
  if (fig == 15) {
    PrintTables("Fig. 15, " + std::to_string(seeds) + " seeds: TWTCT", "tasks", a.tasks, rows,
                TaskAlgorithms(), true);
    return;
  }
  char releases[48] = "";
  if (release_scale != 1)
    std::snprintf(releases, sizeof releases, ", releases x %g", release_scale);
  PrintTables("Fig. " + std::to_string(fig) + ", " + std::to_string(seeds) + " seeds" + releases +
                  ": TWJCT",
              "jobs", a.jobs, rows, Algorithms(), true);
}

}  // namespace
}  // namespace mrlocal

int main(int argc, char** argv) {
  mrlocal::RunFigure(mrlocal::ParseArgs(argc, argv));
  return 0;
}
