#include "sched/policy/policy_registry.h"

#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>
#include <utility>

#include "sched/plan/planner.h"
#include "sched/policy/backfill_policy.h"
#include "sched/policy/dc_policy.h"
#include "sched/policy/edf_policy.h"
#include "sched/policy/fair_policy.h"
#include "sched/policy/fifo_policy.h"
#include "sched/policy/goal_adaptive_policy.h"
#include "sched/policy/llf_policy.h"
#include "sched/policy/plan_policy.h"
#include "sched/policy/queue_share_policy.h"
#include "sched/policy/rtmr_policy.h"
#include "sched/policy/so_mars_policy.h"

namespace mrlocal {
namespace {

double Margin(const PolicyArgs& args) { return args.Get<double>(kEstimateMargin).value_or(1.0); }

// The factory of a policy made with nothing.
template <class P>
std::unique_ptr<Policy> Plain(const Estimator*, const PolicyArgs&) {
  return std::make_unique<P>();
}

std::unique_ptr<Policy> Rtmr(bool feedback, const Estimator* estimator, const PolicyArgs& args) {
  return std::make_unique<RtmrPolicy>(
      estimator,
      RtmrOptions{feedback, args.Get<Duration>(kFeedbackThreshold), Margin(args),
                  args.Get<double>(kConfidence).value_or(1.0),
                  static_cast<uint32_t>(args.Get<double>(kFaultBudget).value_or(0))},
      args.shared_forecast());
}

std::unique_ptr<Policy> QueueShare(std::string name, ShareRule rule, const PolicyArgs& args) {
  QueueShareOptions o;
  o.rule = rule;
  o.interval = args.Get<Duration>(kAllocationInterval).value_or(o.interval);
  o.preempt = args.Get<Duration>(kPreempt);
  o.setup = args.queues();
  return std::make_unique<QueueSharePolicy>(std::move(name), std::move(o));
}

std::unique_ptr<Policy> Llf(const Estimator* estimator, const PolicyArgs& args) {
  LlfOptions o;
  o.overload.lof_threshold = args.Get<double>(kLofThreshold).value_or(o.overload.lof_threshold);
  o.overload.min_pts = static_cast<int>(
      args.Get<double>(kLofMinPts).value_or(static_cast<double>(o.overload.min_pts)));
  return std::make_unique<LlfPolicy>(estimator, o);
}

// A policy following `planner`'s plan of the preview (Make checked there is one), made
// before the clock starts, so that no plan stalls the run's loop; the LP's time budget
// bounds the wait (planner.h). An instance no planner takes (none passes
// PlanInstanceOf's checks) leaves every job unplanned: FIFO, with a note.
std::unique_ptr<Policy> Planned(std::string name, Planner planner, const PolicyArgs& args) {
  const PlanPreview& preview = *args.preview();
  const std::optional<Result<LpBound>>& lp =
      PlanningObjective(planner) == LpObjective::kTaskCompletion ? preview.task_lp : preview.lp;
  Result<Plan> plan = MakePlan(planner, preview.instance, lp ? &*lp : nullptr);
  if (!plan.ok())
    return std::make_unique<PlanPolicy>(std::move(name), PlanInstance{}, Schedule{},
                                        PlannedStarts::kOrderOnly,
                                        "no plan (" + plan.status().message() + "): FIFO");
  // MARES's waits are its own; a fallback plan (note) is a list schedule.
  const PlannedStarts starts = planner == Planner::kMares && plan->note.empty()
                                   ? PlannedStarts::kWait
                                   : PlannedStarts::kOrderOnly;
  std::string note = plan->note.empty() ? "" : name + ": " + plan->note;
  return std::make_unique<PlanPolicy>(std::move(name), preview.instance, std::move(plan->schedule),
                                      starts, std::move(note));
}

void AddPlanned(std::vector<PolicyDescriptor>& all) {
  const struct {
    const char* name;
    Planner planner;
    const char* summary;
  } planned[] = {
      {"mars", Planner::kMars,
       "MarS (Ling et al. 2016, Alg. 2): tasks in LP middle-time order, list-scheduled"},
      {"t-mars", Planner::kTMars,
       "T-MarS (Alg. 3): the task-level LP's tasks in doubling intervals of their completion, "
       "dispatched in that order whenever a machine is idle"},
      {"mares", Planner::kMares,
       "MARES as MarS's paper runs it: LP completion order on balanced machines, waiting for "
       "LP times"},
      {"h-mares", Planner::kHMares, "H-MARES: MARES without waiting for the LP's times"},
      {"huwf", Planner::kHuwf, "Highest unit weight (weight / work) first, list-scheduled"},
      {"hjwf", Planner::kHjwf, "Highest job weight first, list-scheduled"},
      {"htwf", Planner::kHtwf,
       "Highest task weight W_u first (without task_weights each weighs its job: as hjwf), "
       "list-scheduled"},
      {"stf", Planner::kStf, "Shortest task first whenever a machine is idle"},
  };
  for (const auto& p : planned)
    all.push_back(
        {p.name,
         std::string(p.summary) + "; planned over the whole job set",
         {.needs_preview = true},
         {},
         [name = std::string(p.name), planner = p.planner](
             const Estimator*, const PolicyArgs& args) { return Planned(name, planner, args); }});
  all.push_back({"so-mars",
                 "Semi-online MarS (section 5.3): the jobs present re-planned with MarS at each "
                 "batch boundary after arrivals; sees a job only from its arrival",
                 {.needs_preview = true},
                 {kBatchIntervalSetting},
                 [](const Estimator*, const PolicyArgs& args) {
                   SoMarsOptions o;
                   o.batch_interval = args.Get<Duration>(kBatchInterval);
                   return std::make_unique<SoMarsPolicy>(args.preview()->instance, o);
                 }});
}

void AddQueueShares(std::vector<PolicyDescriptor>& all) {
  const struct {
    const char* name;
    ShareRule rule;
    const char* summary;
  } shares[] = {
      {"dynprio", ShareRule::kDynamic,
       "Dynamic proportional share (Sandholm and Lai 2010): slots shared among queues in "
       "proportion to their bids, paid from their budgets; every job admitted"},
      {"capacity", ShareRule::kStatic,
       "Hadoop 1's Capacity Scheduler: fixed slot shares per queue, idle capacity lent and "
       "reclaimed by preemption; every job admitted"},
  };
  for (const auto& p : shares)
    all.push_back(
        {p.name,
         p.summary,
         {},
         {kAllocationIntervalSetting, kPreemptSetting},
         [name = std::string(p.name), rule = p.rule](const Estimator*, const PolicyArgs& args) {
           return QueueShare(name, rule, args);
         }});
}

// One entry per policy, in the order --help lists them.
std::vector<PolicyDescriptor> BuiltIns() {
  const PolicyTraits deadline{.needs_estimator = true, .admission_control = true};
  std::vector<PolicyDescriptor> all;
  all.push_back({"fifo",
                 "Hadoop 1's default: jobs in arrival order, every job admitted",
                 {.best_effort_fallback = true},
                 {},
                 Plain<FifoPolicy>});
  all.push_back({"fair",
                 "Hadoop 1's Fair Scheduler: max-min fair slot shares among queues and jobs",
                 {},
                 {},
                 Plain<FairPolicy>});
  AddQueueShares(all);
  all.push_back({"edf", "Earliest deadline first, every job admitted", {}, {}, Plain<EdfPolicy>});
  all.push_back({"llf",
                 "Least laxity first (DynamicShare), steering tasks off overloaded nodes; every "
                 "job admitted",
                 {.needs_estimator = true},
                 {kLofThresholdSetting, kLofMinPtsSetting},
                 Llf});
  all.push_back({"adaptive",
                 "Adaptive (Polo et al. 2010): soft goals met by equal-utility slot shares, "
                 "assuming today's capacity holds; every job admitted",
                 {.needs_estimator = true},
                 {},
                 [](const Estimator* e, const PolicyArgs& a) {
                   return std::make_unique<GoalAdaptivePolicy>("adaptive", nullptr, e, a.preview());
                 }});
  all.push_back({"reverse-adaptive",
                 "Reverse-Adaptive (Polo et al. 2014): adaptive over the capacity forecast, "
                 "planned backwards from the last goal; every job admitted",
                 {.needs_estimator = true, .needs_forecast = true},
                 {},
                 [](const Estimator* e, const PolicyArgs& a) {
                   return std::make_unique<GoalAdaptivePolicy>("reverse-adaptive",
                                                               a.shared_forecast(), e, a.preview());
                 }});
  PolicyTraits rtmr = deadline;
  rtmr.deadline_default = true;
  all.push_back({"rtmr",
                 "RTMR: deadline guarantees by admission control, with feedback",
                 rtmr,
                 {kEstimateMarginSetting, kFeedbackThresholdSetting, kConfidenceSetting,
                  kFaultBudgetSetting, kRejectPolicySetting},
                 [](const Estimator* e, const PolicyArgs& a) { return Rtmr(true, e, a); },
                 "rtmr-nofb"});
  all.push_back({"rtmr-nofb",
                 "RTMR without its feedback controller",
                 deadline,
                 {kEstimateMarginSetting, kFeedbackThresholdSetting, kConfidenceSetting,
                  kFaultBudgetSetting, kRejectPolicySetting},
                 [](const Estimator* e, const PolicyArgs& a) { return Rtmr(false, e, a); },
                 "rtmr-nofb"});
  PolicyTraits dc = deadline;
  dc.all_reduces_at_once = true;
  all.push_back({"dc",
                 "Deadline Constraint (Kc and Anyanwu 2010): RTMR's baseline",
                 dc,
                 {kEstimateMarginSetting, kRejectPolicySetting},
                 [](const Estimator* e, const PolicyArgs& a) {
                   return std::make_unique<DcPolicy>(e, Margin(a));
                 }});
  AddPlanned(all);
  return all;
}

}  // namespace

const PolicySetting* PolicyDescriptor::Setting(std::string_view setting) const {
  for (const PolicySetting& s : settings)
    if (s.name == setting) return &s;
  return nullptr;
}

Status PolicyRegistry::Register(PolicyDescriptor d) {
  if (d.name.empty()) return Status::InvalidArgument("a policy needs a name");
  for (const auto& p : policies_)
    if (p->name == d.name)
      return Status::InvalidArgument("policy '" + d.name + "' is already registered");
  if (d.traits.best_effort_fallback && fallback_)
    return Status::InvalidArgument("policy '" + d.name + "': '" + fallback_->name +
                                   "' is already the best-effort fallback");
  if (d.traits.deadline_default && deadline_default_)
    return Status::InvalidArgument("policy '" + d.name + "': '" + deadline_default_->name +
                                   "' is already the deadline default");
  for (const PolicySetting& s : d.settings)
    for (const auto& p : policies_)
      if (const PolicySetting* theirs = p->Setting(s.name); theirs && !(*theirs == s))
        return Status::InvalidArgument("policy '" + d.name + "': setting '" + std::string(s.name) +
                                       "' is declared otherwise by '" + p->name + "'");
  policies_.push_back(std::make_unique<PolicyDescriptor>(std::move(d)));
  if (policies_.back()->traits.best_effort_fallback) fallback_ = policies_.back().get();
  if (policies_.back()->traits.deadline_default) deadline_default_ = policies_.back().get();
  return Status::OK();
}

Result<const PolicyDescriptor*> PolicyRegistry::Find(std::string_view name) const {
  for (const auto& p : policies_)
    if (p->name == name) return p.get();
  std::string names;
  for (auto& n : Names()) names += (names.empty() ? "" : ", ") + n;
  return Status::InvalidArgument("unknown policy '" + std::string(name) + "' (known: " + names +
                                 ")");
}

Status PolicyRegistry::Check(std::string_view name, const PolicyArgs& args) const {
  Result<const PolicyDescriptor*> d = Find(name);
  if (!d.ok()) return d.status();
  for (const PolicySetting& s : (*d)->settings) {
    const PolicyArgs::Value* v = args.Find(s.name);
    if (v)
      MRLOCAL_RETURN_IF_ERROR(s.Check(*v).WithContext("policy '" + std::string(name) +
                                                      "': setting '" + std::string(s.name) + "' "));
  }
  if ((*d)->traits.needs_preview && !args.preview())
    return Status::InvalidArgument(
        "policy '" + std::string(name) +
        "' plans over the whole job set before the run: it needs a workload whose jobs "
        "declare their task times (synthetic jobs)");
  if ((*d)->traits.needs_forecast && !args.forecast())
    return Status::InvalidArgument("policy '" + std::string(name) +
                                   "' plans with the capacity ahead: it needs a forecast");
  return Status::OK();
}

Result<std::unique_ptr<Policy>> PolicyRegistry::Make(std::string_view name,
                                                     const Estimator* estimator,
                                                     const PolicyArgs& args) const {
  MRLOCAL_RETURN_IF_ERROR(Check(name, args));
  const PolicyDescriptor& d = **Find(name);
  std::unique_ptr<Policy> policy = d.make(estimator, args);
  if (d.traits.admission_control && args.Get<std::string>(kRejectPolicy) == "backfill")
    return std::unique_ptr<Policy>(std::make_unique<BackfillPolicy>(std::move(policy)));
  return policy;
}

std::vector<std::string> PolicyRegistry::Names() const {
  std::vector<std::string> names;
  for (const auto& p : policies_) names.push_back(p->name);
  return names;
}

const PolicyRegistry& Policies() {
  static const PolicyRegistry registry = [] {
    PolicyRegistry r;
    for (PolicyDescriptor& d : BuiltIns()) {
      if (Status st = r.Register(std::move(d)); !st.ok()) {
        std::cerr << "mrlocal: internal error: " << st.message() << "\n";
        std::abort();  // a bug in BuiltIns(), found by the first test that runs
      }
    }
    return r;
  }();
  return registry;
}

Result<std::unique_ptr<Policy>> MakePolicy(std::string_view name, const Estimator* estimator,
                                           const PolicyArgs& args) {
  return Policies().Make(name, estimator, args);
}

Status CheckPolicy(std::string_view name, const PolicyArgs& args) {
  return Policies().Check(name, args);
}

Result<const PolicyDescriptor*> FindPolicy(std::string_view name) { return Policies().Find(name); }

std::vector<std::string> PolicyNames() { return Policies().Names(); }

const PolicyDescriptor& BestEffortPolicy() { return *Policies().best_effort_fallback(); }

const PolicyDescriptor& DeadlineDefaultPolicy() { return *Policies().deadline_default(); }

std::string PolicyHelp() {
  size_t width = 0;
  for (const std::string& name : PolicyNames()) width = std::max(width, name.size());
  std::string help = "Policies:";
  for (const std::string& name : PolicyNames())
    help +=
        "\n  " + name + std::string(width + 2 - name.size(), ' ') + (*FindPolicy(name))->summary;
  return help;
}

}  // namespace mrlocal
