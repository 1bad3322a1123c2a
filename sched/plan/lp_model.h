// MarS's conditional LP relaxation, CND-LPP (Ling et al. 2016, section 4.2), as a COIN-OR
// CLP model: eqs. 1-3 from the start, PGCs (eq. 4 on prefixes) added as COGE finds them
// violated. Every constraint is one a feasible schedule meets, so each optimum is a lower
// bound on sum_j w_j C_j of every feasible schedule (lp_pgc.h argues eq. 4 on
// heterogeneous machines).
//
// Variables, per instance: S_u per task (FlattenTasks order), C_j per job, and E_j per job
// with maps and reduces (its maps' end plus the delay), so that eq. 2 takes one row per
// task instead of one per map-reduce pair:
//   (1) S_u >= r_j                           as S_u's lower bound
//   (2) E_j - S_u >= p_u / f + d_j           per map u of j;   S_v - E_j >= 0 per reduce v
//   (3) C_j - S_v >= p_v / f                 per reduce v (per map u if j has no reduce)
// f the fastest machine's speed, r_j the task's own release when it has one (PlanTask).
// Objective: min sum_j w_j C_j; or, task-level (section 4.4), min sum_u W_u C_u, written as
// sum_u W_u S_u plus the constant sum_u W_u p_u / f (C_u = S_u + p_u / f at the optimum,
// the paper's eq. 11), so both objectives share every row.
// A batch of PGCs on an order pi adds one column Q_k and one row per violated prefix
// length k (ascending k_1 < k_2 < ...), a chain of partial sums:
//   Q_{k_i} - Q_{k_{i-1}} - sum_{k_{i-1} < l <= k_i} p_{pi(l)} S_{pi(l)} <= 0,   Q_{k_i} >= R_{k_i}
// (Q_{k_0} = 0), so Q_{k_i} <= the prefix sum and the prefix sum >= R: each S appears in
// one row of the batch, where dense prefix rows would repeat it in every later one.
//
// Not thread-safe; distinct models may be solved on distinct threads.
#pragma once

#include <memory>
#include <vector>

#include "engine/status.h"
#include "sched/plan/instance.h"
#include "sched/plan/lp_pgc.h"

class ClpSimplex;

namespace mrlocal {

class CndLpp {
 public:
  // `instance` must be valid (ValidateInstance) and outlive the model.
  explicit CndLpp(const PlanInstance& instance,
                  LpObjective objective = LpObjective::kJobCompletion);
  ~CndLpp();
  CndLpp(const CndLpp&) = delete;
  CndLpp& operator=(const CndLpp&) = delete;

  // Solves to optimality with the dual simplex, warm from the last basis. Aborted when
  // `max_seconds` (wall clock) ran out first, the last optimum kept; Internal with CLP's
  // status for any other failure. Infeasible cannot happen: a valid instance has a
  // feasible schedule (every task in turn on one machine after the last release), which
  // meets every row. Unbounded neither: C_j >= r_j >= 0 with w_j > 0.
  Status Solve(double max_seconds = -1);

  // Adds PGC(order, k) for each prefix length k in `prefixes` (ascending, 1..|T|).
  void AddPrefixConstraints(const std::vector<int>& order, const std::vector<int>& prefixes);

  // The last optimum (empty before the first Solve).
  const std::vector<double>& start() const { return start_; }
  const std::vector<double>& completion() const { return completion_; }
  double objective() const { return objective_; }

  int rows() const;
  int columns() const;
  int prefix_constraints() const { return prefix_constraints_; }

 private:
  void BuildPrecedence();

  const PlanInstance& instance_;
  const LpObjective objective_kind_;
  double objective_offset_ = 0;  // sum_u W_u p_u / f, task-level only
  std::unique_ptr<ClpSimplex> clp_;
  int tasks_ = 0;
  int prefix_constraints_ = 0;
  std::vector<double> start_, completion_;
  double objective_ = 0;
};

}  // namespace mrlocal
