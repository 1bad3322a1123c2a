// The capacity forecast reaches a policy that declares it needs one (PolicyTraits::
// needs_forecast) through its PolicyArgs; without one, it is refused.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sched/policy/policy_registry.h"
#include "tests/util/cluster.h"

namespace mrlocal {
namespace {

using ::testing::HasSubstr;

// A policy that admits every job, runs none, and keeps the forecast it was made with.
class ForecastProbe final : public Policy {
 public:
  explicit ForecastProbe(const CapacityForecast* forecast) : forecast_(forecast) {}
  std::string_view name() const override { return "probe"; }
  Admission Admit(const JobState&, const ClusterState&, Time) override { return {}; }
  const CapacityForecast* forecast() const { return forecast_; }

 private:
  const CapacityForecast* forecast_;
};

PolicyRegistry WithProbe() {
  PolicyRegistry r;
  EXPECT_TRUE(r.Register({"probe",
                          "keeps its forecast",
                          {.needs_forecast = true},
                          {},
                          [](const Estimator*, const PolicyArgs& args) {
                            return std::make_unique<ForecastProbe>(args.forecast());
                          }})
                  .ok());
  return r;
}

TEST(ForecastArgs, APolicyThatNeedsAForecastIsMadeWithTheOneGiven) {
  const PolicyRegistry r = WithProbe();
  auto forecast = std::make_shared<ConstantForecast>(testing::Nodes(2, 1, 1));
  auto made = r.Make("probe", nullptr, PolicyArgs().SetForecast(forecast));
  ASSERT_TRUE(made.ok()) << made.status().message();
  EXPECT_EQ(static_cast<const ForecastProbe&>(**made).forecast(), forecast.get());
}

TEST(ForecastArgs, WithoutOneItIsRefused) {
  const PolicyRegistry r = WithProbe();
  EXPECT_THAT(r.Check("probe", {}).message(), HasSubstr("it needs a forecast"));
  EXPECT_FALSE(r.Make("probe", nullptr, {}).ok());
  // Of the built-in policies, only reverse-adaptive needs one.
  for (const std::string& name : PolicyNames())
    EXPECT_EQ((*FindPolicy(name))->traits.needs_forecast, name == "reverse-adaptive") << name;
  EXPECT_THAT(CheckPolicy("reverse-adaptive").message(), HasSubstr("it needs a forecast"));
}

}  // namespace
}  // namespace mrlocal
