// Policies by their stable name, the name `--policy` takes and the reports print. Each
// registered policy has a descriptor: what it is (summary, traits) and what it is made
// with (an estimator when it needs one; the settings it declares), so that front ends
// never name a policy to decide what to give it or how to run it.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "sched/core/policy.h"
#include "sched/estimate/estimator.h"
#include "sched/policy/policy_args.h"
#include "sched/policy/policy_setting.h"

namespace mrlocal {

// What callers need to know of a policy without naming it.
struct PolicyTraits {
  // Made with an Estimator: the deadline policies admit by its task-time estimates (and
  // without one reject every job with a deadline), llf orders jobs by them. A front end
  // finds it one (history, a probe, the simulation's model).
  bool needs_estimator = false;
  // Admit can reject (the same as Policy::admission_control()).
  bool admission_control = false;
  // Runs all R reduces of a job at once (DC's assumption 2, RTMR section III), so it can
  // never admit a job with more reduces than the cluster has reduce slots: a workload
  // leaves such jobs out, as RTMR section V does for its dc runs.
  bool all_reduces_at_once = false;
  // The policy that runs a job the admission rejected (--best-effort), or a job that needs
  // no admission at all (a probe, a calibration run). Exactly one policy is.
  bool best_effort_fallback = false;
  // The policy a job with a deadline runs under when the user names none. Exactly one is.
  bool deadline_default = false;
  // Plans over the whole job set before the run (MarS and its baselines): made only with
  // PolicyArgs::preview, which a front end gives for a workload whose jobs declare their
  // task times (synthetic); a single job or a trace has none, and the policy is refused.
  bool needs_preview = false;
  // Plans with the capacity ahead (PolicyArgs::forecast): made only with one. The front
  // ends give one to every policy of a run (tools/runtime: the spec's, or a constant one).
  bool needs_forecast = false;
};

struct PolicyDescriptor {
  using Factory =
      std::function<std::unique_ptr<Policy>(const Estimator* estimator, const PolicyArgs& args)>;

  std::string name;     // part of the CLI and of every report: never rename
  std::string summary;  // one line for --help
  PolicyTraits traits;
  std::vector<PolicySetting> settings;  // what `make` reads from its PolicyArgs
  // `estimator` may be null; args hold the declared settings with their declared types.
  Factory make;
  // The registered policy that `--no-feedback` turns this one into (itself when it has no
  // feedback); empty: the policy has no feedback controller to turn off.
  std::string without_feedback = {};

  // The declared setting of that name; null when the policy reads none.
  const PolicySetting* Setting(std::string_view setting) const;
};

class PolicyRegistry {
 public:
  // InvalidArgument when the name is empty or taken, a second best-effort fallback or
  // deadline default, or a setting declared otherwise (type, range) than a policy
  // registered before declares it: a flag checks one range for all.
  Status Register(PolicyDescriptor descriptor);

  // InvalidArgument "unknown policy 'x' (known: ...)" for a name not registered.
  Result<const PolicyDescriptor*> Find(std::string_view name) const;
  // Whether Make would succeed, without making the policy (a planning policy plans when
  // made): InvalidArgument for an unknown name, a declared setting of another type than
  // declared or out of its range, or a policy that needs a preview made without one.
  Status Check(std::string_view name, const PolicyArgs& args) const;
  // `estimator` (may be null) must outlive the policy. Fails as Check does; settings the
  // policy does not declare are ignored. A policy with admission control whose
  // kRejectPolicy is "backfill" comes wrapped in a BackfillPolicy (its name unchanged);
  // unset or "drop", a rejected job is dropped.
  Result<std::unique_ptr<Policy>> Make(std::string_view name, const Estimator* estimator,
                                       const PolicyArgs& args) const;
  // In registration order.
  std::vector<std::string> Names() const;
  // Null until a fallback is registered.
  const PolicyDescriptor* best_effort_fallback() const { return fallback_; }
  const PolicyDescriptor* deadline_default() const { return deadline_default_; }

 private:
  std::vector<std::unique_ptr<PolicyDescriptor>> policies_;  // stable addresses
  const PolicyDescriptor* fallback_ = nullptr;
  const PolicyDescriptor* deadline_default_ = nullptr;
};

// The built-in policies: fifo, fair, dynprio, capacity, edf, llf, adaptive, reverse-adaptive,
// rtmr, rtmr-nofb, dc, and the planning ones (needs_preview): mars, mares, h-mares, huwf, hjwf, htwf, stf, so-mars.
const PolicyRegistry& Policies();

// Shorthands for Policies().
Result<std::unique_ptr<Policy>> MakePolicy(std::string_view name,
                                           const Estimator* estimator = nullptr,
                                           const PolicyArgs& args = {});
Status CheckPolicy(std::string_view name, const PolicyArgs& args = {});
Result<const PolicyDescriptor*> FindPolicy(std::string_view name);
std::vector<std::string> PolicyNames();
const PolicyDescriptor& BestEffortPolicy();
const PolicyDescriptor& DeadlineDefaultPolicy();
// "Policies:" and one line per policy, its name and summary: a footer for --help.
std::string PolicyHelp();

// The margin of real runs: they share the machine with everything else on it, so a task
// can be slower than the slowest the history has seen.
inline constexpr double kRealEstimateMargin = 1.5;

}  // namespace mrlocal
