// `compare --policies`: a comma-separated list of entries NAME[:SETTING=VALUE]..., each a
// registered policy, optionally with values of the settings it declares that override the
// run's flags for that entry only (`rtmr,rtmr:estimate-margin=2`). The entry's text is its
// label in every table, CSV and chart. Also the validator that checks a policy setting's
// flag against the same declaration (policy_setting.h).
#pragma once

#include <CLI/CLI.hpp>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "sched/policy/policy_args.h"
#include "sched/policy/policy_registry.h"
#include "sched/policy/policy_setting.h"

namespace mrlocal {

struct PolicyVariant {
  std::string label;   // the entry as given: "rtmr:estimate-margin=2"
  std::string policy;  // the registered name: "rtmr"
  std::map<std::string, PolicyArgs::Value, std::less<>> settings;

  // `run_wide` with this entry's settings over it.
  PolicyArgs Args(PolicyArgs run_wide) const;
};

// The entries in the order given. Errors are one line, without the option's name (the
// validator, PolicyList, adds it): an empty list or entry, an unknown policy, a setting
// the policy does not declare ("rtmr has no setting 'lof-threshold' (its settings:
// estimate-margin, feedback-threshold)"), a value of the wrong type or out of its range,
// a setting given twice in one entry, or two entries for the same variant.
Result<std::vector<PolicyVariant>> ParsePolicyList(std::string_view text,
                                                   const PolicyRegistry& registry = Policies());

// The registered names of `variants`, in order (a variant of rtmr counts as rtmr).
std::vector<std::string> PolicyNamesOf(const std::vector<PolicyVariant>& variants);

// "Settings of an entry ..." and one line per policy that declares any, its name and
// settings: a footer for compare's --help.
std::string PolicySettingsHelp(const PolicyRegistry& registry = Policies());

// The validator of --policies: ParsePolicyList's errors, refused while parsing.
CLI::Validator PolicyList();

// The validator of a setting's flag (--estimate-margin): its Parse, with its Range in the
// help; an integer's text handed on in plain decimal (CLI11 would read "010" as octal).
CLI::Validator SettingValue(const PolicySetting& setting);

}  // namespace mrlocal
