// MarS's Fig. 17 offline (Ling et al. 2016, section 5.3): the semi-online scheme
// (sched/plan/semi_online.h) with MarS, MARES, HUWF and HJWF as its planner, against the
// batch interval B, over seeds, on mars-random's MSJO instances on 50 machines. Each
// re-plan's LP has SemiOnlineLpBudget(B) of wall clock (min(10 s, B / 2)) and falls back
// to HUWF past it; the bench counts those.
//
// Columns: TWJCT / LP bound of the whole instance (the epsilon-stopped objective, as Fig.
// 7's first table: every job known from 0, the offline bound), the offline MarS plan of
// the same instance beside it; then, over the converged LP bound of the batched instance
// (each release moved up to its boundary: no scheme that starts a job at its boundary
// does better), SO-MarS and the offline MarS plan of the batched instance.
// Every schedule must pass CheckSchedule and stay at or above the bound, or the bench fails.
//
//   bench_mars_online [--seeds 20] [--jobs 50] [--intervals 10,20,...,100]
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "datasets/plan_instance.h"
#include "datasets/workload_presets.h"
#include "plan_bench_args.h"  // this folder's
#include "sched/plan/lp_bound.h"
#include "sched/plan/planner.h"
#include "sched/plan/semi_online.h"

namespace mrlocal {
namespace {

[[noreturn]] void Fail(const std::string& message) {
  plan_bench::Fail("bench_mars_online", message);
}

struct Algorithm {
  const char* name;
  Planner planner;
};
constexpr Algorithm kAlgorithms[] = {{"SO-MarS", Planner::kMars},
                                     {"MARES", Planner::kMares},
                                     {"HUWF", Planner::kHuwf},
                                     {"HJWF", Planner::kHjwf}};
constexpr size_t kCount = std::size(kAlgorithms);

PlanInstance MarsRandom(uint64_t seed, size_t jobs) {
  auto spec = MakePreset("mars-random", seed, {.jobs = jobs});
  if (!spec.ok()) Fail(spec.status().message());
  auto in = PlanInstanceOf(*spec, *spec->cluster);
  if (!in.ok()) Fail(in.status().message());
  return *in;
}

// The converged LP bound of `in`. Not the epsilon stop: with releases up to 100 s, the
// stop compares sums of completion times that share a large constant and stops early.
double ConvergedBound(const PlanInstance& in) {
  auto lp = SolveLpBound(in, {.converge = true});
  if (!lp.ok()) Fail(lp.status().message());
  return lp->bound;
}

// `in` with every release moved up to its boundary k*B.
PlanInstance Batched(PlanInstance in, double interval) {
  for (PlanJob& job : in.jobs) job.release = std::ceil(job.release / interval) * interval;
  return in;
}

// TWJCT of a feasible schedule, or the bench fails.
double Checked(const char* what, const PlanInstance& in, const Schedule& s, double bound) {
  if (Status ok = CheckSchedule(in, s, 1e-6); !ok.ok())
    Fail(std::string(what) + " infeasible: " + ok.message());
  const double twjct = WeightedCompletion(in, s);
  if (twjct < bound * (1 - 1e-6)) Fail(std::string(what) + " below the LP bound");
  return twjct;
}

// TWJCT of offline MarS's plan of `in` (every job known from 0).
double OfflineMars(const PlanInstance& in, double bound) {
  auto plan = MakePlan(Planner::kMars, in);
  if (!plan.ok()) Fail(plan.status().message());
  return Checked("offline MarS", in, plan->schedule, bound);
}

struct Mean {
  double sum = 0, min = INFINITY, max = -INFINITY;
  int n = 0;
  void Add(double v) {
    sum += v, ++n;
    min = std::min(min, v), max = std::max(max, v);
  }
  std::string Cell() const {
    char text[64];
    std::snprintf(text, sizeof text, "%.2f (%.2f-%.2f)", sum / n, min, max);
    return text;
  }
};

struct Row {
  Mean ratio[kCount], offline_mars;
  Mean batched_so_mars, batched_mars;  // over the batched instance's converged bound
  int replans = 0, fell_back = 0;      // of the LP planners (SO-MarS, MARES), over seeds
  Mean lp_seconds;                     // per re-plan's LP
};

void AddRun(Row& row, size_t a, const PlanInstance& in, double interval, double bound,
            double batched_bound) {
  auto run = SemiOnlinePlan(in, {interval, kAlgorithms[a].planner, SemiOnlineLpBudget(interval)});
  if (!run.ok()) Fail(run.status().message());
  const double twjct = Checked(kAlgorithms[a].name, in, run->schedule, bound);
  row.ratio[a].Add(twjct / bound);
  if (a == 0) row.batched_so_mars.Add(twjct / batched_bound);
  if (!NeedsLp(kAlgorithms[a].planner)) return;
  for (const ReplanRecord& r : run->replans) {
    ++row.replans;
    row.fell_back += r.fell_back;
    row.lp_seconds.Add(r.lp_seconds);
  }
}

void Print(const std::vector<double>& intervals, const std::vector<Row>& rows) {
  std::printf("| B (s) |");
  for (const Algorithm& a : kAlgorithms) std::printf(" %s |", a.name);
  std::printf(
      " offline MarS | batched: SO-MarS | batched: offline MarS | re-plans (LP planners) | fell "
      "back to HUWF | LP s a re-plan |\n|---|");
  for (size_t c = 0; c < kCount + 6; ++c) std::printf("---|");
  std::printf("\n");
  for (size_t r = 0; r < rows.size(); ++r) {
    const Row& row = rows[r];
    std::printf("| %g |", intervals[r]);
    for (const Mean& m : row.ratio) std::printf(" %s |", m.Cell().c_str());
    std::printf(" %s | %s | %s | %d | %d | %.2f (max %.2f) |\n", row.offline_mars.Cell().c_str(),
                row.batched_so_mars.Cell().c_str(), row.batched_mars.Cell().c_str(), row.replans,
                row.fell_back, row.lp_seconds.sum / row.lp_seconds.n, row.lp_seconds.max);
  }
}

}  // namespace
}  // namespace mrlocal

int main(int argc, char** argv) {
  using namespace mrlocal;
  int seeds = 20, jobs = 50;
  std::vector<int> intervals = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
  const char* usage = " (usage: bench_mars_online [--seeds N] [--jobs N] [--intervals 10,50])";
  auto one = [](const char* option, const char* text) {
    return plan_bench::ParseList("bench_mars_online", option, text, 1).front();
  };
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--seeds") && has_value) {
      seeds = one("--seeds", argv[++i]);
    } else if (!std::strcmp(argv[i], "--jobs") && has_value) {
      jobs = one("--jobs", argv[++i]);
    } else if (!std::strcmp(argv[i], "--intervals") && has_value) {
      intervals = plan_bench::ParseList("bench_mars_online", "--intervals", argv[++i], 1);
    } else {
      Fail(std::string("unknown option or missing value: ") + argv[i] + usage);
    }
  }
  std::vector<Row> rows(intervals.size());
  std::vector<double> seconds(intervals.begin(), intervals.end());
  for (int seed = 1; seed <= seeds; ++seed) {
    const PlanInstance in = MarsRandom(seed, jobs);
    auto lp = SolveLpBound(in, {});
    if (!lp.ok()) Fail(lp.status().message());
    const double bound = lp->epsilon_objective;
    const double offline_ratio = OfflineMars(in, bound) / bound;
    for (size_t r = 0; r < intervals.size(); ++r) {
      rows[r].offline_mars.Add(offline_ratio);
      const PlanInstance batched = Batched(in, seconds[r]);
      const double batched_bound = ConvergedBound(batched);
      rows[r].batched_mars.Add(OfflineMars(batched, batched_bound) / batched_bound);
      for (size_t a = 0; a < kCount; ++a) AddRun(rows[r], a, in, seconds[r], bound, batched_bound);
    }
    std::fprintf(stderr, "seed %d of %d done\n", seed, seeds);
  }
  std::printf(
      "Fig. 17 offline: mars-random, %d jobs, 50 machines, %d seeds: TWJCT / LP bound of the "
      "whole instance (epsilon 0.3), mean (min-max)\n\n",
      jobs, seeds);
  Print(seconds, rows);
  return 0;
}
