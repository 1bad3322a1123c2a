// What MarS's LP bound costs (sched/plan/lp_bound.h): rows, columns, COGE iterations, PGCs
// added and solve seconds, at the paper's epsilon = 0.3 and run to convergence.
//
// 1. Against jobs: mars-random with 10, 20, 50, 100 jobs on its 50 identical machines
//    (~45 tasks a job). Issue targets at epsilon = 0.3: 50 jobs <= 1 s, 100 jobs <= 10 s.
// 2. Against tasks: mars-random's first 20 jobs (releases, weights, delays) with their task
//    lists cycled to tasks / 20 each, two maps to a reduce (the preset's mean ratio), on 50
//    machines: 100 to 4,000 tasks.
//
// One line per instance and run; seconds are wall clock, model building included.
//
//   bench_mars_lp [--seeds N] [--jobs 10,20,50,100] [--tasks 100,...] [--no-converge]
//                 [--max-batch K] (LpBoundOptions::max_batch; default round(sqrt(tasks)))
//                 [--machines M] (M identical machines instead of the preset's 50)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "datasets/plan_instance.h"
#include "datasets/workload_presets.h"
#include "plan_bench_args.h"  // this folder's
#include "sched/plan/lp_bound.h"

namespace mrlocal {
namespace {

[[noreturn]] void Fail(const std::string& message) { plan_bench::Fail("bench_mars_lp", message); }

std::vector<int> ParseList(const char* option, const char* text) {
  return plan_bench::ParseList("bench_mars_lp", option, text, 1);
}

int machines = 0;  // --machines; 0: the preset's

PlanInstance MarsRandom(uint64_t seed, size_t jobs) {
  auto spec = MakePreset("mars-random", seed, {.jobs = jobs});
  if (!spec.ok()) Fail(spec.status().message());
  auto instance = PlanInstanceOf(*spec, *spec->cluster);
  if (!instance.ok()) Fail(instance.status().message());
  if (machines > 0) instance->machine_speeds.assign(machines, 1.0);
  return *instance;
}

// Each job's works cycled to `count` entries.
std::vector<double> Cycled(const std::vector<double>& works, int count) {
  std::vector<double> out;
  for (int k = 0; k < count; ++k) out.push_back(works[k % works.size()]);
  return out;
}

PlanInstance WithTasks(uint64_t seed, int tasks) {
  constexpr int kJobs = 20;
  PlanInstance instance = MarsRandom(seed, kJobs);
  const int per_job = std::max(2, tasks / kJobs), maps = (2 * per_job + 2) / 3;
  for (PlanJob& job : instance.jobs) {
    job.maps = Cycled(job.maps, maps);
    job.reduces = Cycled(job.reduces, per_job - maps);
  }
  return instance;
}

int CountTasks(const PlanInstance& instance) {
  size_t n = 0;
  for (const PlanJob& job : instance.jobs) n += job.maps.size() + job.reduces.size();
  return static_cast<int>(n);
}

void Run(const char* sweep, int x, uint64_t seed, const PlanInstance& instance, bool converge,
         int max_batch) {
  auto lp = SolveLpBound(instance, {.converge = converge, .max_batch = max_batch});
  if (!lp.ok()) Fail(lp.status().message());
  std::printf("%-6s %5d %4llu %6d %9s %7d %7d %5d %6d %9.3f %14.1f %14.1f\n", sweep, x,
              static_cast<unsigned long long>(seed), CountTasks(instance),
              converge ? "converged" : "eps=0.3", lp->rows, lp->columns, lp->iterations,
              lp->prefix_constraints, lp->seconds, lp->epsilon_objective, lp->bound);
  std::fflush(stdout);
}

}  // namespace
}  // namespace mrlocal

int main(int argc, char** argv) {
  using namespace mrlocal;
  int seeds = 3;
  bool converge = true;
  int max_batch = 0;
  std::vector<int> jobs = {10, 20, 50, 100}, tasks = {100, 250, 500, 1000, 2000, 4000};
  for (int i = 1; i < argc; ++i) {
    const bool has_value = i + 1 < argc;
    if (!std::strcmp(argv[i], "--seeds") && has_value) {
      seeds = ParseList("--seeds", argv[++i]).front();
    } else if (!std::strcmp(argv[i], "--jobs") && has_value) {
      jobs = ParseList("--jobs", argv[++i]);
    } else if (!std::strcmp(argv[i], "--tasks") && has_value) {
      tasks = ParseList("--tasks", argv[++i]);
    } else if (!std::strcmp(argv[i], "--max-batch") && has_value) {
      max_batch = ParseList("--max-batch", argv[++i]).front();
    } else if (!std::strcmp(argv[i], "--machines") && has_value) {
      machines = ParseList("--machines", argv[++i]).front();
    } else if (!std::strcmp(argv[i], "--no-converge")) {
      converge = false;
    } else {
      Fail(std::string("unknown option or missing value: ") + argv[i] +
           " (usage: bench_mars_lp [--seeds N] [--jobs 10,20] [--tasks 100,500] [--no-converge]"
           " [--max-batch K] [--machines M])");
    }
  }
  std::printf("%-6s %5s %4s %6s %9s %7s %7s %5s %6s %9s %14s %14s\n", "sweep", "x", "seed", "tasks",
              "run", "rows", "cols", "iters", "pgcs", "seconds", "eps_bound", "bound");
  for (int n : jobs)
    for (int seed = 1; seed <= seeds; ++seed)
      for (bool run_to_end : {false, true})
        if (!run_to_end || converge)
          Run("jobs", n, seed, MarsRandom(seed, n), run_to_end, max_batch);
  for (int n : tasks)
    for (int seed = 1; seed <= seeds; ++seed)
      for (bool run_to_end : {false, true})
        if (!run_to_end || converge)
          Run("tasks", n, seed, WithTasks(seed, n), run_to_end, max_batch);
  return 0;
}
