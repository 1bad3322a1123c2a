// A spec job's soft completion-time goal: goal_s in seconds or goal as a duration, after
// the job's arrival, so never <= 0; one clear line for every mistake.
#include <gtest/gtest.h>

#include "datasets/workload_spec.h"
#include "tools/runtime/app_registry.h"

namespace mrlocal {
namespace {

const AppSchemas& Apps() { return AppRegistry::BuiltIn().schemas(); }

std::string PiJob(std::string_view fields) {
  return R"({"jobs": [{"arrival_s": 0, "app": "pi", "maps": 1, "samples": 5)" +
         std::string(fields) + "}]}";
}

std::string ErrorOf(const std::string& text) {
  auto spec = ParseWorkloadJson(text, "spec.json", Apps());
  return spec.ok() ? "no error" : std::string(spec.status().message());
}

TEST(WorkloadGoalSpec, ReadsGoalInSecondsOrAsADuration) {
  auto in_seconds = ParseWorkloadJson(PiJob(R"(, "goal_s": 7.5)"), "spec.json", Apps());
  ASSERT_TRUE(in_seconds.ok()) << in_seconds.status().message();
  EXPECT_EQ(in_seconds->jobs[0].goal_s, 7.5);
  auto duration =
      ParseWorkloadJson(PiJob(R"(, "goal": "2m", "deadline_s": 200)"), "spec.json", Apps());
  ASSERT_TRUE(duration.ok()) << duration.status().message();
  EXPECT_EQ(duration->jobs[0].goal_s, 120.0);
  EXPECT_EQ(duration->jobs[0].deadline_s, 200.0);
  auto none = ParseWorkloadJson(PiJob(""), "spec.json", Apps());
  ASSERT_TRUE(none.ok());
  EXPECT_FALSE(none->jobs[0].goal_s.has_value());
}

TEST(WorkloadGoalSpec, RefusesAGoalAtOrBeforeArrivalAndMalformedOnes) {
  EXPECT_EQ(ErrorOf(PiJob(R"(, "goal_s": 0)")),
            "spec.json: jobs[0].goal_s: must be a positive number (got 0)");
  EXPECT_EQ(ErrorOf(PiJob(R"(, "goal_s": -3)")),
            "spec.json: jobs[0].goal_s: must be a positive number (got -3)");
  EXPECT_EQ(ErrorOf(PiJob(R"(, "goal_s": "7")")),
            "spec.json: jobs[0].goal_s: must be a positive number (got \"7\")");
  EXPECT_EQ(ErrorOf(PiJob(R"(, "goal": "-3s")")),
            "spec.json: jobs[0].goal: duration '-3s' must be positive");
  EXPECT_EQ(ErrorOf(PiJob(R"(, "goal": 30)")),
            "spec.json: jobs[0].goal: must be a duration such as \"30s\" (got 30) (or use goal_s "
            "for seconds)");
  EXPECT_EQ(ErrorOf(PiJob(R"(, "goal": "3s", "goal_s": 3)")),
            "spec.json: jobs[0].goal: give goal_s or goal, not both");
  EXPECT_EQ(ErrorOf(PiJob(R"(, "gaol_s": 3)")),
            "spec.json: jobs[0].gaol_s: unknown key (did you mean 'goal_s'?)");
}

}  // namespace
}  // namespace mrlocal
