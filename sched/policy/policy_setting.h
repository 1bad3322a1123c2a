// A setting a policy reads from PolicyArgs (policy_args.h), with the values it takes: one
// declaration that the policy's descriptor lists, the flag (`--estimate-margin 2`) checks
// and a variant of `compare --policies` (`rtmr:estimate-margin=2`) parses, so that the
// ranges of the two front ends cannot drift apart.
#pragma once

#include <limits>
#include <span>
#include <string>
#include <string_view>

#include "engine/status.h"
#include "sched/policy/policy_args.h"

namespace mrlocal {

struct PolicySetting {
  enum class Type { kDouble, kDuration, kText };
  std::string_view name;  // kEstimateMargin...
  Type type;
  // kDouble: a finite number in [min, max], (min, max] when min_open; a whole one when
  // integer. kDuration: positive (ParseDuration's). kText: one of `choices`, or any text
  // but the empty one when there are none.
  double min = std::numeric_limits<double>::lowest();
  double max = std::numeric_limits<double>::max();
  bool min_open = false;
  bool integer = false;
  std::span<const std::string_view> choices = {};

  static constexpr PolicySetting Number(std::string_view name, double min, double max,
                                        bool min_open = false) {
    return {name, Type::kDouble, min, max, min_open};
  }
  static constexpr PolicySetting Integer(std::string_view name, int min, int max) {
    return {name, Type::kDouble, double(min), double(max), false, true};
  }
  static constexpr PolicySetting PositiveDuration(std::string_view name) {
    return {name, Type::kDuration};
  }
  static constexpr PolicySetting OneOf(std::string_view name,
                                       std::span<const std::string_view> choices) {
    return {name, Type::kText, 0, 0, false, false, choices};
  }

  // What it takes, as an option's help states it: "a number in [1, 100]", "an integer
  // from 2 to 1000", "one of drop | backfill".
  std::string Range() const;
  // The value of `text` (an integer's as a double), or InvalidArgument
  // "must be RANGE (got 'TEXT')".
  Result<PolicyArgs::Value> Parse(std::string_view text) const;
  // InvalidArgument "must be RANGE (got 'VALUE')" for a value of another type or out of
  // range.
  Status Check(const PolicyArgs::Value& value) const;
  // The same name, type and range.
  bool operator==(const PolicySetting& other) const;
};

// The settings of the built-in policies.
inline constexpr std::string_view kRejectPolicies[] = {"drop", "backfill"};
inline constexpr PolicySetting kEstimateMarginSetting =
    PolicySetting::Number(kEstimateMargin, 1, 100);
inline constexpr PolicySetting kFeedbackThresholdSetting =
    PolicySetting::PositiveDuration(kFeedbackThreshold);
inline constexpr PolicySetting kLofThresholdSetting =
    PolicySetting::Number(kLofThreshold, 1, 100, /*min_open=*/true);
inline constexpr PolicySetting kLofMinPtsSetting = PolicySetting::Integer(kLofMinPts, 2, 1000);
inline constexpr PolicySetting kBatchIntervalSetting =
    PolicySetting::PositiveDuration(kBatchInterval);
inline constexpr PolicySetting kConfidenceSetting =
    PolicySetting::Number(kConfidence, 0, 1, /*min_open=*/true);
inline constexpr PolicySetting kFaultBudgetSetting = PolicySetting::Integer(kFaultBudget, 0, 100);
inline constexpr PolicySetting kAllocationIntervalSetting =
    PolicySetting::PositiveDuration(kAllocationInterval);
inline constexpr PolicySetting kPreemptSetting = PolicySetting::PositiveDuration(kPreempt);
inline constexpr PolicySetting kRejectPolicySetting =
    PolicySetting::OneOf(kRejectPolicy, kRejectPolicies);

}  // namespace mrlocal
