// MarS's Figs. 7-12 offline (Ling et al. 2016, section 5.2): TWJCT / LP bound per algorithm
// against the number of jobs, over seeds, on MSJO instances (sched/plan) of the mars-*
// presets. TWJCT is sum_j w_j C_j with absolute completion times; every plan must pass
// CheckSchedule and stay at or above the bound, or the bench fails.
//
// Two denominators, since the paper's is ambiguous: the epsilon-stopped LP objective (the
// LP MarS plans from) and, up to --converge-up-to jobs, the converged CND-LPP bound.
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
// --release-scale X multiplies every release (X > 1: jobs further apart, a lighter load):
// the paper's "Bernoulli with probability 2" does not say how often jobs arrive, and the
// ratios depend on it (sched/plan/README.md, "The arrival rate").
//
//   bench_mars_fig7 [--fig 7] [--seeds 20] [--jobs 10,20,...,100] [--converge-up-to 50]
//                   [--release-scale 1]
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
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

PlanInstance Scenario(int fig, uint64_t seed, size_t jobs, double release_scale) {
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
  }
  if (fig == 10) in->machine_speeds.assign(100, 1.0);
  for (PlanJob& job : in->jobs) job.release *= release_scale;
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

Row Measure(int fig, int jobs, int seeds, bool converge, double release_scale) {
  const size_t n = Algorithms().size();
  Row row{std::vector<Spread>(n), std::vector<Spread>(n)};
  for (int seed = 1; seed <= seeds; ++seed) {
    const PlanInstance in = Scenario(fig, seed, jobs, release_scale);
    row.tasks += static_cast<double>(FlattenTasks(in).size()) / seeds;
    auto lp = SolveLpBound(in, {.converge = converge});
    if (!lp.ok()) Fail(lp.status().message());
    row.lp_seconds += lp->seconds / seeds;
    row.converged += lp->converged;
    for (size_t a = 0; a < n; ++a) {
      const Algorithm& alg = Algorithms()[a];
      Result<Schedule> s = alg.plan(in, *lp);
      if (!s.ok()) Fail(std::string(alg.name) + ": " + s.status().message());
      if (Status ok = CheckSchedule(in, *s, 1e-6); !ok.ok())
        Fail(std::string(alg.name) + " infeasible: " + ok.message());
      const double twjct = WeightedCompletion(in, *s);
      if (twjct < lp->bound * (1 - 1e-6))
        Fail(std::string(alg.name) + " below the LP bound, seed " + std::to_string(seed));
      row.over_epsilon[a].values.push_back(twjct / lp->epsilon_objective);
      if (converge) row.over_converged[a].values.push_back(twjct / lp->bound);
    }
  }
  return row;
}

void PrintHeader() {
  std::printf("\n\n| jobs | tasks |");
  for (const Algorithm& a : Algorithms()) std::printf(" %s |", a.name);
  std::printf(" LP s |\n|---|---|");
  for (size_t a = 0; a <= Algorithms().size(); ++a) std::printf("---|");
  std::printf("\n");
}

void PrintRow(int jobs, double tasks, const std::vector<Spread>& cells, double seconds) {
  std::printf("| %d | %.0f |", jobs, tasks);
  for (const Spread& s : cells) std::printf(" %s |", s.Cell().c_str());
  std::printf(" %.2f |\n", seconds);
}

}  // namespace
}  // namespace mrlocal

int main(int argc, char** argv) {
  using namespace mrlocal;
  int fig = 7, seeds = 20, converge_up_to = 50;
  double release_scale = 1;
  std::vector<int> jobs = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
  const char* usage =
      " (usage: bench_mars_fig7 [--fig 7|8|9|10|11|12] [--seeds N] [--jobs 10,20]"
      " [--converge-up-to JOBS] [--release-scale X])";
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--fig") && has_value) {
      fig = ParseList("--fig", argv[++i]).front();
      if (fig < 7 || fig > 12) Fail(std::string("--fig: 7 to 12, not ") + argv[i]);
    } else if (!std::strcmp(argv[i], "--seeds") && has_value) {
      seeds = ParseList("--seeds", argv[++i]).front();
      if (seeds < 1) Fail("--seeds: at least 1");
    } else if (!std::strcmp(argv[i], "--jobs") && has_value) {
      jobs = ParseList("--jobs", argv[++i]);
    } else if (!std::strcmp(argv[i], "--converge-up-to") && has_value) {
      converge_up_to = ParseList("--converge-up-to", argv[++i]).front();
    } else if (!std::strcmp(argv[i], "--release-scale") && has_value) {
      char* end = nullptr;
      release_scale = std::strtod(argv[++i], &end);
      if (*end || !(release_scale > 0 && release_scale <= 1000))
        Fail(std::string("--release-scale: a number in (0, 1000], not ") + argv[i]);
    } else {
      Fail(std::string("unknown option or missing value: ") + argv[i] + usage);
    }
  }
  std::vector<Row> rows;
  for (int n : jobs) {
    Row row = Measure(fig, n, seeds, n <= converge_up_to, release_scale);
    std::fprintf(stderr, "fig %d, %d jobs: LP %.2f s a seed, %d of %d converged\n", fig, n,
                 row.lp_seconds, row.converged, seeds);
    rows.push_back(std::move(row));
  }
  std::printf(
      "Fig. %d, %d seeds, releases x %g: TWJCT / epsilon-stopped LP objective (epsilon 0.3), mean "
      "(min-max)",
      fig, seeds, release_scale);
  PrintHeader();
  for (size_t r = 0; r < rows.size(); ++r)
    PrintRow(jobs[r], rows[r].tasks, rows[r].over_epsilon, rows[r].lp_seconds);
  std::printf("\nFig. %d, %d seeds: TWJCT / converged LP bound (up to %d jobs)", fig, seeds,
              converge_up_to);
  PrintHeader();
  for (size_t r = 0; r < rows.size(); ++r)
    if (jobs[r] <= converge_up_to)
      PrintRow(jobs[r], rows[r].tasks, rows[r].over_converged, rows[r].lp_seconds);
  return 0;
}
