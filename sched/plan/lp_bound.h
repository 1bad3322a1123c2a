// MarS's LP bound: COGE (Ling et al. 2016, Algorithm 1) over the CND-LPP of lp_model.h.
// Solve; order the tasks by LP middle time; add PGCs that order violates (at most
// max_batch of them, see there); re-solve warm (dual simplex); stop when
// none is violated, or at the epsilon stop: when
// sum w C^LP - sum w r >= (1 - epsilon) (sum w C^NV - sum w r), (S^NV, C^NV) the point of
// lp_pgc.h that meets every PGC of the order (so the LP's part above the releases is within
// 1 - epsilon of that of the optimum over all of them). The paper compares the objectives
// themselves: LpBoundOptions::epsilon_on_absolute_objective.
//
// Which number bounds what: every LP COGE solves holds only constraints each feasible
// schedule meets (eqs. 1-3 and instances of eq. 4), so EVERY objective it reports is a
// lower bound on sum_j w_j C_j (or, task-level, sum_u W_u C_u) of every feasible
// schedule, the optimum's included; more rows only raise it, so `bound` (the last LP
// solved) is the tightest, and `converged` says it is the CND-LPP's optimum. `epsilon_objective` is
// the smaller one the paper's MarS plans from. Neither is a bound on the optimum of the full
// relaxation (eq. 4 over every subset): the epsilon stop compares with C^NV, not with that.
#pragma once

#include <limits>
#include <vector>

#include "engine/status.h"
#include "sched/plan/instance.h"
#include "sched/plan/lp_pgc.h"

namespace mrlocal {

struct LpBoundOptions {
  // sum_j w_j C_j (MarS), or sum_u W_u C_u (T-MarS, section 4.4): the bound is then on TWTCT.
  LpObjective objective = LpObjective::kJobCompletion;
  double epsilon = 0.3;  // the paper's threshold (section 5.2); 0: run to convergence
  // After the epsilon stop, go on until no PGC is violated (or a limit below): `bound`
  // then is the converged CND-LPP optimum, while start/completion stay the epsilon stop's.
  bool converge = false;
  // The epsilon stop compares both objectives less sum w r (every job's release, or
  // sum W_u r_u): where t = 0 is then does not move where COGE stops. True: the paper's
  // literal stop on the absolute objectives, which carry sum w r on both sides, so the later
  // the releases the earlier it stops (jobs released from 100 s stop at the first LP where
  // the same jobs from 0 add PGCs). sched/plan/README.md, "The epsilon stop and the releases".
  bool epsilon_on_absolute_objective = false;
  // The most PGCs a round adds: the worst of each run of consecutive violated prefixes
  // (WorstViolatedPerRun); 0: 2 round(sqrt(|T|)); INT_MAX: every violated one, as
  // Algorithm 1. Every violated PGC is ~|T| rows a round on mars-random, and CLP's
  // factorization grows with the rows: a batch of ~sqrt(|T|) reaches the same stops in about
  // as many rounds with a sixth of the rows. Where few are violated (100 machines, 10 jobs)
  // all go in at once: capping them there multiplied the rounds.
  int max_batch = 0;
  int max_iterations = 200;  // LP solves; a guard, COGE needs few (paper: < 10)
  // Wall-clock seconds for all solves but the first (which has only eqs. 1-3 and is fast);
  // past it COGE returns the last LP solved, `stop` saying so.
  double time_budget_s = std::numeric_limits<double>::infinity();
};

enum class LpStop {
  kConverged,      // no PGC violated
  kEpsilon,        // the epsilon stop (converge not asked)
  kMaxIterations,  // max_iterations solves
  kTimeBudget,     // time_budget_s ran out
};

struct LpBound {
  // The LP solution MarS plans from: the epsilon stop's, or the last LP's when COGE
  // stopped before it. FlattenTasks order; MiddleTimeOrder (lp_pgc.h) orders by it.
  std::vector<double> start;          // S_u^LP
  std::vector<double> completion;     // C_j^LP
  double epsilon_objective = 0;       // the objective of that solution: a lower bound
  double no_violation_objective = 0;  // the objective at C^NV (an upper bound of the CND-LPP)
  int epsilon_iterations = 0;         // LP solves to reach it

  double bound = 0;  // the last LP's objective: the tightest lower bound found
  bool converged = false;
  LpStop stop = LpStop::kConverged;
  int iterations = 0;          // LP solves in all
  int rows = 0, columns = 0;   // of the last LP
  int prefix_constraints = 0;  // PGCs added in all (one row and one column each)
  double seconds = 0;          // wall clock, building included
};

// InvalidArgument from ValidateInstance; Internal when CLP fails (its status named).
Result<LpBound> SolveLpBound(const PlanInstance& instance, const LpBoundOptions& options = {});

}  // namespace mrlocal
