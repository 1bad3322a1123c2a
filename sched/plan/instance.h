// The MapReduce server-job organizer problem, MSJO (Ling et al. 2016, section 3.1), as the
// offline planners of sched/plan see it: jobs with a release time r_j and a weight w_j, each
// a set of map tasks and a set of reduce tasks; every reduce v of job j starts at least d_j
// after every map u of j ends (S_v >= S_u + p_u + d_j, eq. 2); a machine runs one task at a
// time, map or reduce. The objective: minimise sum_j w_j C_j, C_j the end of j's last task.
//
// Times are seconds of work on a machine of speed 1.0; a task of work p takes p / speed on
// a machine of that speed. The paper's machines are identical (all 1.0), the reproduction's
// case; throttled slots make them differ.
//
// The task-level problem of section 4.4 (T-MarS) gives each task u its own weight W_u and
// release r_u and minimises sum_u W_u C_u (TWTCT); an instance carries both, and a task
// then starts no earlier than max(r_j, r_u).
#pragma once

#include <string>
#include <vector>

#include "engine/status.h"

namespace mrlocal {

struct PlanJob {
  double release = 0;           // r_j >= 0
  double weight = 1;            // w_j > 0
  double delay = 0;             // d_uv >= 0 for every map u and reduce v of the job
  std::vector<double> maps;     // p_u >= 0 of each map task
  std::vector<double> reduces;  // p_v >= 0 of each reduce task
  std::string name = {};        // the workload's job name: how a policy finds its plan
};

struct PlanInstance {
  std::vector<double> machine_speeds;  // one per machine, each > 0
  std::vector<PlanJob> jobs;
  // Per task (FlattenTasks order), W_u > 0; empty: each task weighs its job's weight.
  std::vector<double> task_weights = {};
  // Per task, r_u >= 0; empty: each task is released with its job.
  std::vector<double> task_releases = {};
  // Per machine, when it can start its first task (a re-plan while machines still run
  // tasks of the last plan, SO-MarS); empty: every machine at 0. The LP ignores it: its
  // bound is then one of the instance with every machine free from 0, lower still.
  std::vector<double> machine_free = {};
};

// A task of an instance by position: the tasks are numbered job by job, each job's maps
// before its reduces (FlattenTasks); a Schedule and the LP index tasks that way.
struct PlanTask {
  int job = 0;
  bool reduce = false;
  int index = 0;  // among the job's maps (or reduces)
  double work = 0;
  double weight = 0;   // W_u: the instance's task weight, else the job's
  double release = 0;  // max(r_j, r_u): before it the task may not start
};
std::vector<PlanTask> FlattenTasks(const PlanInstance& instance);

// A plan: for each task (FlattenTasks order) its machine and start time.
struct Schedule {
  std::vector<int> machine;
  std::vector<double> start;
};

// OK, or InvalidArgument naming the first value out of range (no machine, a speed <= 0, a
// weight <= 0, a negative or non-finite time, a job without tasks, task or machine data
// not one value per task or machine).
Status ValidateInstance(const PlanInstance& instance);

// OK, or Internal naming the first violated constraint of a feasible schedule: a task
// before its job's release (eq. 1), a reduce before a map's end plus the delay (eq. 2),
// two tasks overlapping on one machine, a task before its machine is free. `tolerance`
// absorbs rounding of LP times.
Status CheckSchedule(const PlanInstance& instance, const Schedule& schedule,
                     double tolerance = 1e-9);

// Per job, C_j: the end of its last task (its release when it has none).
std::vector<double> JobCompletions(const PlanInstance& instance, const Schedule& schedule);
// sum_j w_j C_j, the objective (TWJCT with absolute completion times).
double WeightedCompletion(const PlanInstance& instance, const Schedule& schedule);
// sum_u W_u C_u, the task-level objective (TWTCT, section 4.4), C_u = S_u + p_u / speed.
double WeightedTaskCompletion(const PlanInstance& instance, const Schedule& schedule);

}  // namespace mrlocal
