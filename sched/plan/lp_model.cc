#include "sched/plan/lp_model.h"

#include <coin/ClpDualRowDantzig.hpp>
#include <coin/ClpSimplex.hpp>
#include <coin/CoinPackedMatrix.hpp>
#include <string>

#include "sched/plan/lp_pgc.h"

namespace mrlocal {
namespace {

const double kInf = COIN_DBL_MAX;

// Rows as triplets, each row's bounds beside it.
struct Rows {
  std::vector<int> row, column;
  std::vector<double> value, lower, upper;

  // Adds `a - b >= rhs`.
  void AtLeast(int a, int b, double rhs) {
    const int r = static_cast<int>(lower.size());
    row.insert(row.end(), {r, r});
    column.insert(column.end(), {a, b});
    value.insert(value.end(), {1.0, -1.0});
    lower.push_back(rhs);
    upper.push_back(kInf);
  }
};

std::string ClpStatusText(int status) {
  switch (status) {
    case 1:
      return "primal infeasible";
    case 2:
      return "dual infeasible";
    case 3:
      return "stopped on iterations or time";
    case 4:
      return "stopped on numerical difficulties";
    case 5:
      return "stopped by an event handler";
    default:
      return "unknown";
  }
}

}  // namespace

CndLpp::CndLpp(const PlanInstance& instance, LpObjective objective)
    : instance_(instance), objective_kind_(objective), clp_(new ClpSimplex) {
  clp_->setLogLevel(0);
  // Dantzig's rule over CLP's default steepest edge: each COGE batch adds ~|T| violated
  // rows, each needing a pivot, and steepest edge's weight updates cost more than they save
  // there (50 mars-random jobs to epsilon = 0.3: 6.3 s -> 4.0 s on a loaded 2-core machine).
  ClpDualRowDantzig dantzig;
  clp_->setDualRowPivotAlgorithm(dantzig);
  BuildPrecedence();
}

CndLpp::~CndLpp() = default;

int CndLpp::rows() const { return clp_->numberRows(); }
int CndLpp::columns() const { return clp_->numberColumns(); }

void CndLpp::BuildPrecedence() {
  const std::vector<PlanTask> tasks = FlattenTasks(instance_);
  const double fastest = LpMachinesOf(instance_).fastest;
  const int jobs = static_cast<int>(instance_.jobs.size());
  tasks_ = static_cast<int>(tasks.size());
  // Columns: S_u for every task, then C_j for every job, then E_j where needed.
  const bool per_task = objective_kind_ == LpObjective::kTaskCompletion;
  std::vector<double> lower, objective;
  for (const PlanTask& t : tasks) {
    lower.push_back(t.release);
    objective.push_back(per_task ? t.weight : 0);
    if (per_task) objective_offset_ += t.weight * t.work / fastest;
  }
  for (const PlanJob& job : instance_.jobs) {
    lower.push_back(job.release);
    objective.push_back(per_task ? 0 : job.weight);
  }
  std::vector<int> maps_end(jobs, -1);
  for (int j = 0; j < jobs; ++j) {
    const PlanJob& job = instance_.jobs[j];
    if (job.maps.empty() || job.reduces.empty()) continue;
    maps_end[j] = static_cast<int>(lower.size());
    lower.push_back(job.release);
    objective.push_back(0);
  }
  Rows rows;
  for (int u = 0; u < tasks_; ++u) {
    const PlanTask& t = tasks[u];
    const PlanJob& job = instance_.jobs[t.job];
    const int end = maps_end[t.job], done = tasks_ + t.job;
    const double p = t.work / fastest;
    if (end >= 0 && !t.reduce) rows.AtLeast(end, u, p + job.delay);  // eq. 2, map side
    if (end >= 0 && t.reduce) rows.AtLeast(u, end, 0);               // eq. 2, reduce side
    if (t.reduce || job.reduces.empty()) rows.AtLeast(done, u, p);   // eq. 3
  }
  const CoinPackedMatrix matrix(true, rows.row.data(), rows.column.data(), rows.value.data(),
                                static_cast<CoinBigIndex>(rows.value.size()));
  const std::vector<double> upper(lower.size(), kInf);
  clp_->loadProblem(matrix, lower.data(), upper.data(), objective.data(), rows.lower.data(),
                    rows.upper.data());
}

void CndLpp::AddPrefixConstraints(const std::vector<int>& order, const std::vector<int>& prefixes) {
  if (prefixes.empty()) return;
  const std::vector<PlanTask> tasks = FlattenTasks(instance_);
  const LpMachines machines = LpMachinesOf(instance_);
  const int first_column = clp_->numberColumns(), n = static_cast<int>(prefixes.size());
  // The Q columns first (no entries yet), each bounded below by its prefix's R.
  std::vector<double> lower, upper(n, kInf), zero(n, 0);
  std::vector<CoinBigIndex> empty_starts(n + 1, 0);
  double work = 0, squares = 0;
  int k = 0;
  for (int length : prefixes) {
    for (; k < length; ++k) {
      const double p = tasks[order[k]].work;
      work += p;
      squares += p * p;
    }
    lower.push_back(PrefixBound(machines, work, squares));
  }
  clp_->addColumns(n, lower.data(), upper.data(), zero.data(), empty_starts.data(), nullptr,
                   nullptr);
  // Then the chain rows: Q_{k_i} - Q_{k_{i-1}} - sum p S <= 0.
  std::vector<CoinBigIndex> starts = {0};
  std::vector<int> columns;
  std::vector<double> values;
  k = 0;
  for (int i = 0; i < n; ++i) {
    columns.push_back(first_column + i);
    values.push_back(1);
    if (i > 0) {
      columns.push_back(first_column + i - 1);
      values.push_back(-1);
    }
    for (; k < prefixes[i]; ++k) {
      if (tasks[order[k]].work == 0) continue;
      columns.push_back(order[k]);
      values.push_back(-tasks[order[k]].work);
    }
    starts.push_back(static_cast<CoinBigIndex>(values.size()));
  }
  const std::vector<double> row_lower(n, -kInf), row_upper(n, 0);
  clp_->addRows(n, row_lower.data(), row_upper.data(), starts.data(), columns.data(),
                values.data());
  prefix_constraints_ += n;
}

Status CndLpp::Solve(double max_seconds) {
  clp_->setMaximumWallSeconds(max_seconds);
  clp_->dual();
  const int status = clp_->status();
  if (status == 3) return Status::Aborted("the LP's time budget ran out");
  if (status != 0)
    return Status::Internal("CLP could not solve the LP relaxation: status " +
                            std::to_string(status) + " (" + ClpStatusText(status) + ")");
  const double* x = clp_->primalColumnSolution();
  start_.assign(x, x + tasks_);
  completion_.assign(x + tasks_, x + tasks_ + instance_.jobs.size());
  objective_ = clp_->objectiveValue() + objective_offset_;
  return Status::OK();
}

}  // namespace mrlocal
