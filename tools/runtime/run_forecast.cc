#include "tools/runtime/run_forecast.h"

namespace mrlocal {

SpeedProfile ToSpeedProfile(const std::vector<ProfileStep>& steps) {
  SpeedProfile p;
  for (const ProfileStep& step : steps) p.Add(FromSeconds(step.at_s), step.factor);
  return p;
}

std::shared_ptr<CapacityForecast> SpecForecast(const WorkloadSpec& spec,
                                               const std::vector<SlotInfo>& slots) {
  switch (spec.forecast.kind) {
    case ForecastKind::kConstant:
      return std::make_shared<ConstantForecast>(slots);
    case ForecastKind::kLearned:
      return std::make_shared<LearnedForecast>(
          slots, LearnedForecastOptions{.period = FromSeconds(spec.forecast.period_s),
                                        .window = FromSeconds(spec.forecast.window_s)});
    case ForecastKind::kKnown:
      break;
  }
  std::map<NodeId, SpeedProfile> told;
  for (const AvailabilityProfile& a : spec.availability) {
    const SpeedProfile p = ToSpeedProfile(a.forecast ? *a.forecast : a.steps);
    for (int node : a.nodes) told[node] = p;
  }
  return DefaultForecast(slots, told);
}

std::shared_ptr<CapacityForecast> DefaultForecast(
    const std::vector<SlotInfo>& slots, const std::map<NodeId, SpeedProfile>& availability) {
  if (availability.empty()) return std::make_shared<ConstantForecast>(slots);
  return std::make_shared<KnownForecast>(slots, availability);
}

}  // namespace mrlocal
