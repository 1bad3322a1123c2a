// The settings of a run's policy by name, as a front end collects them from its flags
// ("estimate-margin" = 1.5): one set for a run, whatever the policy, so that `compare` can
// give the same set to several. Each policy's descriptor (sched/policy/policy_registry.h)
// declares the settings it reads and their types; it turns them into its own options
// struct (RtmrOptions...) and ignores the others. Beside the settings, the preview of the
// job set (clairvoyance) that offline policies plan over: one per workload, so that it too
// is the same for every policy `compare` runs on a seed; and the capacity forecast of the
// run (one per run: it learns from what the run's cluster shows).
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <variant>

#include "sched/core/clock.h"
#include "sched/core/queue_spec.h"
#include "sched/estimate/capacity_forecast.h"
#include "sched/plan/plan_preview.h"

namespace mrlocal {

// The names the built-in policies read; their types and ranges: policy_setting.h.
inline constexpr std::string_view kEstimateMargin = "estimate-margin";
inline constexpr std::string_view kFeedbackThreshold = "feedback-threshold";
inline constexpr std::string_view kLofThreshold = "lof-threshold";
inline constexpr std::string_view kLofMinPts = "lof-min-pts";
inline constexpr std::string_view kBatchInterval = "batch-interval";
inline constexpr std::string_view kConfidence = "confidence";
inline constexpr std::string_view kFaultBudget = "fault-budget";
inline constexpr std::string_view kRejectPolicy = "reject-policy";
inline constexpr std::string_view kAllocationInterval = "allocation-interval";
inline constexpr std::string_view kPreempt = "preempt";

class PolicyArgs {
 public:
  using Value = std::variant<double, Duration, std::string>;

  PolicyArgs& Set(std::string_view name, Value value) {
    values_.insert_or_assign(std::string(name), value);
    return *this;
  }
  bool Has(std::string_view name) const { return values_.find(name) != values_.end(); }
  // Null when not set.
  const Value* Find(std::string_view name) const {
    auto it = values_.find(name);
    return it == values_.end() ? nullptr : &it->second;
  }
  // None when not set or of another type (MakePolicy has refused the latter).
  template <class T>
  std::optional<T> Get(std::string_view name) const {
    const Value* v = Find(name);
    const T* t = v ? std::get_if<T>(v) : nullptr;
    return t ? std::optional<T>(*t) : std::nullopt;
  }

  // For the policies that plan ahead (PolicyTraits::needs_preview). Null: none given.
  PolicyArgs& SetPreview(std::shared_ptr<const PlanPreview> preview) {
    preview_ = std::move(preview);
    return *this;
  }
  const PlanPreview* preview() const { return preview_.get(); }

  // The queues of the run and their announced changes, for the policies that share slots
  // among queues (dynprio, capacity). Null: queues open as jobs name them.
  PolicyArgs& SetQueues(std::shared_ptr<const QueueSetup> queues) {
    queues_ = std::move(queues);
    return *this;
  }
  const std::shared_ptr<const QueueSetup>& queues() const { return queues_; }

  // The capacity ahead, for the policies that plan with it (PolicyTraits::needs_forecast);
  // the front end (tools/runtime) makes one for each run and tells it what the cluster
  // shows. Null: none given.
  PolicyArgs& SetForecast(std::shared_ptr<CapacityForecast> forecast) {
    forecast_ = std::move(forecast);
    return *this;
  }
  CapacityForecast* forecast() const { return forecast_.get(); }
  const std::shared_ptr<CapacityForecast>& shared_forecast() const { return forecast_; }

 private:
  std::map<std::string, Value, std::less<>> values_;
  std::shared_ptr<const PlanPreview> preview_;  // shared: args are copied per run
  std::shared_ptr<CapacityForecast> forecast_;  // shared with the runtime that feeds it
  std::shared_ptr<const QueueSetup> queues_;
};

}  // namespace mrlocal
