#include "sched/plan/lp_bound.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "sched/plan/lp_model.h"
#include "sched/plan/lp_pgc.h"

namespace mrlocal {
namespace {

Status CheckOptions(const LpBoundOptions& o) {
  if (!(o.epsilon >= 0 && o.epsilon < 1))
    return Status::InvalidArgument("epsilon must be in [0, 1)");
  if (o.max_batch < 0) return Status::InvalidArgument("max_batch must be >= 0");
  if (o.max_iterations < 1) return Status::InvalidArgument("max_iterations must be >= 1");
  if (!(o.time_budget_s >= 0)) return Status::InvalidArgument("time_budget_s must be >= 0");
  return Status::OK();
}

// The objective at S^NV for the LP solution `start` and its middle-time `order`.
double NoViolationObjective(const PlanInstance& instance, LpObjective objective,
                            const std::vector<int>& order, const std::vector<double>& start) {
  return ObjectiveAt(instance, objective, NoViolationStarts(instance, order, start));
}

// The objective with every task at its release and of no length: sum_j w_j r_j, or
// sum_u W_u r_u.
double ReleaseObjective(const PlanInstance& instance, LpObjective objective) {
  double sum = 0;
  if (objective == LpObjective::kTaskCompletion) {
    for (const PlanTask& t : FlattenTasks(instance)) sum += t.weight * t.release;
  } else {
    for (const PlanJob& job : instance.jobs) sum += job.weight * job.release;
  }
  return sum;
}

}  // namespace

Result<LpBound> SolveLpBound(const PlanInstance& instance, const LpBoundOptions& options) {
  if (Status s = ValidateInstance(instance); !s.ok()) return s;
  if (Status s = CheckOptions(options); !s.ok()) return s;
  using Clock = std::chrono::steady_clock;
  const Clock::time_point began = Clock::now();
  auto elapsed = [&] { return std::chrono::duration<double>(Clock::now() - began).count(); };
  LpBound out;
  if (instance.jobs.empty()) {
    out.converged = true;
    return out;
  }

  const int tasks = static_cast<int>(FlattenTasks(instance).size());
  const int max_batch = options.max_batch > 0
                            ? options.max_batch
                            : std::max(1, 2 * static_cast<int>(std::lround(std::sqrt(tasks))));
  CndLpp lp(instance, options.objective);
  const double base =
      options.epsilon_on_absolute_objective ? 0 : ReleaseObjective(instance, options.objective);
  if (Status s = lp.Solve(); !s.ok()) return s;
  bool have_epsilon = false;
  auto keep_for_planning = [&](double no_violation) {
    out.start = lp.start();
    out.completion = lp.completion();
    out.epsilon_objective = lp.objective();
    out.no_violation_objective = no_violation;
    out.epsilon_iterations = out.iterations;
    have_epsilon = true;
  };
  double no_violation = lp.objective();
  for (;;) {
    ++out.iterations;
    out.rows = lp.rows();
    out.columns = lp.columns();
    out.prefix_constraints = lp.prefix_constraints();
    const std::vector<int> order = MiddleTimeOrder(instance, lp.start());
    const std::vector<int> batch =
        WorstViolatedPerRun(PrefixSidesAt(instance, order, lp.start()), max_batch);
    no_violation = batch.empty()
                       ? lp.objective()
                       : NoViolationObjective(instance, options.objective, order, lp.start());
    if (!have_epsilon && lp.objective() - base >= (1 - options.epsilon) * (no_violation - base))
      keep_for_planning(no_violation);
    if (batch.empty()) {
      out.stop = LpStop::kConverged;
      break;
    }
    if (have_epsilon && !options.converge) {
      out.stop = LpStop::kEpsilon;
      break;
    }
    const double left = options.time_budget_s - elapsed();
    if (out.iterations >= options.max_iterations || left <= 0) {
      out.stop = left <= 0 ? LpStop::kTimeBudget : LpStop::kMaxIterations;
      break;
    }
    lp.AddPrefixConstraints(order, batch);
    const Status solved = lp.Solve(std::isinf(left) ? -1 : left);
    if (solved.code() == Status::Code::kAborted) {  // lp still holds the last optimum
      out.stop = LpStop::kTimeBudget;
      break;
    }
    if (!solved.ok()) return solved;
  }
  if (!have_epsilon) keep_for_planning(no_violation);
  out.bound = lp.objective();
  out.converged = out.stop == LpStop::kConverged;
  out.seconds = elapsed();
  return out;
}

}  // namespace mrlocal
