// MarS's performance guarantee constraints (Ling et al. 2016, section 4.2): the parallel
// inequality (eq. 4) over the prefixes of the tasks ordered by LP middle time, the checks
// COGE (Algorithm 1) makes on an LP solution, and the no-violation point (S^NV, C^NV) its
// epsilon stop compares with. Pure arithmetic on start times; the LP is lp_model.h.
//
// Eq. 4 for a set B of tasks on |M| identical machines of speed 1:
//   sum_{u in B} p_u S_u >= (sum_B p_u)^2 / (2 |M|) - sum_B p_u^2 / 2.
// On machines of speeds s_m it becomes, with p the work at speed 1.0 (PlanInstance's unit):
//   sum_{u in B} p_u S_u >= (sum_B p_u)^2 / (2 sum_m s_m) - sum_B p_u^2 / (2 min_m s_m).
// Why it holds for every feasible schedule: on a machine of speed s running the tasks
// B_m of B in some order, each starts after the ones before it end, so
//   sum_{B_m} p_u S_u >= sum_{u before v} p_u p_v / s = ((sum p)^2 - sum p^2) / (2 s).
// Summed over machines, sum_m P_m^2 / (2 s_m) with sum_m P_m = P is smallest at
// P_m proportional to s_m, where it is P^2 / (2 sum s); and each p^2 / (2 s_m) is at most
// p^2 / (2 min s). Bounding the two parts apart is valid (min of a sum >= sum of mins).
// With every speed 1.0 this is exactly the paper's eq. 4. The LP's durations (eqs. 2-3,
// middle times) are p / max_m s_m, the shortest a task can take anywhere: also necessary.
//
// Tasks are indexed in FlattenTasks order; an `order` is a permutation of those indices.
// The paper's PGC(pi, i) is eq. 4 for B = {pi(1), ..., pi(i-1)}; here prefixes are named
// by their length k = i - 1, from 1 to |T| (the whole set is a prefix too).
#pragma once

#include <vector>

#include "sched/plan/instance.h"

namespace mrlocal {

// What the LP knows of the machines: the two sides of the heterogeneous eq. 4 and the
// shortest duration of a task of work p, p / fastest.
struct LpMachines {
  double total_speed = 0;  // sum_m s_m; |M| on the paper's machines
  double slowest = 0;      // min_m s_m
  double fastest = 0;      // max_m s_m
};
LpMachines LpMachinesOf(const PlanInstance& instance);

// R(pi, i) of the prefix whose works sum to `work` and whose squared works sum to
// `squares`: the right side of eq. 4 for it.
double PrefixBound(const LpMachines& machines, double work, double squares);

// Per task (FlattenTasks order), S_u + share x p_u / fastest: share 1/2 gives the LP's middle
// times M_u, 1 its completion times (at the durations eqs. 2-3 use).
std::vector<double> LpTaskTimes(const PlanInstance& instance, const std::vector<double>& start,
                                double share);

// The task indices in non-decreasing LP middle time S_u + p_u / (2 fastest) (the paper's
// M_u), ties by index, so a job's maps come before its reduces even when times tie.
// MarS's list schedule (Algorithm 2) takes tasks in this order.
std::vector<int> MiddleTimeOrder(const PlanInstance& instance, const std::vector<double>& start);

// Both sides of PGC(order, k) at `start`, for each prefix length k = 1..|T| (index k - 1).
struct PrefixSides {
  double sum = 0;    // sum_{first k of order} p_u S_u
  double bound = 0;  // R
  // Beyond the LP's rounding (relative to R): an LP solution meets a constraint it has
  // only to that precision.
  bool Violated() const;
};
std::vector<PrefixSides> PrefixSidesAt(const PlanInstance& instance, const std::vector<int>& order,
                                       const std::vector<double>& start);

// The prefix lengths k (ascending) whose PGC `start` violates.
std::vector<int> ViolatedPrefixes(const PlanInstance& instance, const std::vector<int>& order,
                                  const std::vector<double>& start);

// COGE's batch, at most `max_batch` prefix lengths (ascending): the violated prefixes of
// `sides` cut into runs of ceil(violated / max_batch) consecutive ones, and the one of
// largest deficit (R - sum) of each run. Every violated prefix when there are no more than
// max_batch (Algorithm 1 as written). REQUIRES max_batch >= 1.
std::vector<int> WorstViolatedPerRun(const std::vector<PrefixSides>& sides, int max_batch);

// S^NV: `start` moved so that every PGC of `order` holds. Walking the prefixes in
// order, a violated one moves its last task, and every task after it, later by
// ViolationOffset = deficit / p of that task; such a shift keeps eqs. 1-3 (a reduce comes
// after its job's maps in middle-time order) and the prefixes already walked. The deficit
// is measured on the points already moved, not on S^LP as the paper writes: S^LP's
// deficits count the earlier shifts again, a point later than needed.
std::vector<double> NoViolationStarts(const PlanInstance& instance, const std::vector<int>& order,
                                      const std::vector<double>& start);

// Per job, the least C_j that eq. 3 allows at `start`: the end of its last task at the
// LP's durations (its release when it has none).
std::vector<double> LpCompletions(const PlanInstance& instance, const std::vector<double>& start);

// sum_j w_j C_j of `completion`.
double WeightedSum(const PlanInstance& instance, const std::vector<double>& completion);

// What the LP minimises: MSJO's sum_j w_j C_j (MarS, section 4.2), or the task-level
// sum_u W_u C_u (section 4.4, T-MarS), with the instance's task weights.
enum class LpObjective { kJobCompletion, kTaskCompletion };

// The objective at `start` with the LP's durations: sum_j w_j C_j over LpCompletions, or
// sum_u W_u (S_u + p_u / fastest).
double ObjectiveAt(const PlanInstance& instance, LpObjective objective,
                   const std::vector<double>& start);

}  // namespace mrlocal
