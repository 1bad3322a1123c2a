// Availability in a workload spec: generated and measured profiles expanded when the spec
// is read, a separate forecast, the top-level forecast kind; mistakes one line each.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "datasets/workload_spec.h"
#include "tests/util/test_util.h"
#include "tools/runtime/app_registry.h"

namespace mrlocal {
namespace {

using ::testing::HasSubstr;

const AppSchemas& Apps() { return AppRegistry::BuiltIn().schemas(); }

// A spec of one synthetic job on two nodes with `top` spliced in at the top level.
std::string Spec(std::string_view top) {
  return R"j({"cluster": "2x(1m,1r,1.0)", )j" + std::string(top) +
         R"(, "jobs": [{"arrival_s": 0, "app": "synthetic", "maps": 1, "reduces": 0, "map_s": 1}]})";
}

Result<WorkloadSpec> Parse(std::string_view text, std::string_view base_dir = {}) {
  return ParseWorkloadJson(text, "spec.json", Apps(), base_dir);
}

std::string Error(std::string_view text, std::string_view base_dir = {}) {
  Result<WorkloadSpec> r = Parse(text, base_dir);
  EXPECT_FALSE(r.ok()) << text;
  if (r.ok()) return "";
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos) << r.status().message();
  return r.status().message();
}

TEST(ProfileSpec, GeneratorsExpandToStepsWhenTheSpecIsRead) {
  auto spec = Parse(Spec(R"("availability": [
      {"nodes": [0], "profile": {"sinusoid": {"period_s": 100, "min": 0.2, "step_s": 25,
                                             "until_s": 200}}},
      {"nodes": [1], "profile": {"bursts": {"every_s": 10, "length_s": 2, "factor": 0.5,
                                           "gaps": "fixed", "until_s": 30}}}])"));
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  ASSERT_EQ(spec->availability.size(), 2u);
  EXPECT_EQ(spec->availability[0].steps.size(), 8u);
  EXPECT_DOUBLE_EQ(spec->availability[0].steps[4].at_s, 100);
  ASSERT_EQ(spec->availability[1].steps.size(), 6u);
  EXPECT_DOUBLE_EQ(spec->availability[1].steps[0].at_s, 8);
  EXPECT_DOUBLE_EQ(spec->availability[1].steps[0].factor, 0.5);
  // No separate forecast: the policies are told the real profile; the kind is "known".
  EXPECT_FALSE(spec->availability[0].forecast);
  EXPECT_EQ(spec->forecast.kind, ForecastKind::kKnown);
}

TEST(ProfileSpec, ACsvIsReadRelativeToTheSpecsDirectory) {
  testing::ScratchDir dir;
  std::filesystem::create_directories(dir / "specs" / "load");
  testing::WriteFile(dir / "specs" / "load" / "web.csv", "time_s,cpu_busy\n0,0.5\n60,0.25\n");
  testing::WriteFile(
      dir / "specs" / "w.json",
      Spec(R"("availability": [{"nodes": [1], "profile": {"csv": "load/web.csv"}}])"));
  auto spec = LoadWorkloadJson((dir / "specs" / "w.json").string(), Apps());
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  ASSERT_EQ(spec->availability[0].steps.size(), 2u);
  EXPECT_DOUBLE_EQ(spec->availability[0].steps[0].factor, 0.5);
  EXPECT_DOUBLE_EQ(spec->availability[0].steps[1].factor, 0.75);
  // A gap in it: the file and the line named.
  testing::WriteFile(dir / "specs" / "load" / "web.csv", "time_s,cpu_busy\n0,0.5\n60,\n");
  EXPECT_EQ(Error(testing::ReadFile(dir / "specs" / "w.json"), (dir / "specs").string()),
            "spec.json: availability[0].profile.csv: 'load/web.csv' (relative to " +
                (dir / "specs").string() + "): line 3: cpu_busy: empty cell (a gap)");
}

TEST(ProfileSpec, AForecastProfileAndAForecastKind) {
  auto spec = Parse(Spec(R"("forecast": "learned", "availability": [{"nodes": [0],
      "profile": [[0, 0.5]], "forecast": [[0, 0.5], [50, 0.25]]}])"));
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  ASSERT_TRUE(spec->availability[0].forecast);
  EXPECT_EQ(spec->availability[0].forecast->size(), 2u);
  EXPECT_EQ(spec->forecast.kind, ForecastKind::kLearned);
  EXPECT_EQ(spec->forecast.period_s, 0);
  spec = Parse(Spec(R"("forecast": {"learned": {"period_s": 86400, "window_s": 600}})"));
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_EQ(spec->forecast.kind, ForecastKind::kLearned);
  EXPECT_EQ(spec->forecast.period_s, 86400);
  EXPECT_EQ(spec->forecast.window_s, 600);
  spec = Parse(Spec(R"("forecast": "constant")"));
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->forecast.kind, ForecastKind::kConstant);
}

TEST(ProfileSpec, EveryMistakeIsOneLineNamingTheField) {
  const struct {
    const char* top;
    const char* error;
  } cases[] = {
      {R"("availability": [{"nodes": [0], "profile": {"sinusoid": {"min": 0, "until_s": 9}}}])",
       "spec.json: availability[0].profile.sinusoid.min: must be a positive number (got 0)"},
      {R"("availability": [{"nodes": [0], "profile": {"sinusoid": {"min": 0.5, "max": 2,
          "until_s": 9}}}])",
       "spec.json: availability[0].profile.sinusoid.max: must be in (0, 1] (got 2)"},
      {R"("availability": [{"nodes": [0], "profile": {"sinusoid": {"min": 0.5}}}])",
       "spec.json: availability[0].profile.sinusoid.until_s: missing"},
      {R"("availability": [{"nodes": [0], "profile": {"sinusoid": {"min": 0.5, "step_s": 1e-6,
          "until_s": 1e6}}}])",
       "spec.json: availability[0].profile.sinusoid.until_s: over 1000000 steps"},
      {R"("availability": [{"nodes": [0], "profile": {"bursts": {"every_s": 5, "length_s": 1,
          "factor": 0, "until_s": 9}}}])",
       "spec.json: availability[0].profile.bursts.factor: must be a positive number"},
      {R"("availability": [{"nodes": [0], "profile": {"bursts": {"every_s": 5, "length_s": 1,
          "factor": 1.5, "until_s": 9}}}])",
       "spec.json: availability[0].profile.bursts.factor: must be in (0, 1] (got 1.5)"},
      {R"("availability": [{"nodes": [0], "profile": {"bursts": {"every_s": 5, "length_s": 1,
          "factor": 0.5, "gaps": "poisson", "until_s": 9}}}])",
       "spec.json: availability[0].profile.bursts.gaps: must be \"exponential\" or \"fixed\""},
      {R"("availability": [{"nodes": [0], "profile": {"sine": {}}}])",
       "spec.json: availability[0].profile.sine: unknown key (known: sinusoid, bursts, csv)"},
      {R"("availability": [{"nodes": [0], "profile": {"csv": "nowhere.csv"}}])",
       "spec.json: availability[0].profile.csv: cannot read 'nowhere.csv'"},
      {R"("availability": [{"nodes": [0], "profile": [[0, 1]], "forecast": [[5, 1], [5, 0.5]]}])",
       "spec.json: availability[0].forecast[1][0]: times must be strictly increasing"},
      {R"("availability": [{"nodes": [0], "profile": [[0, 1]], "forecast": [[0, 1.5]]}])",
       "spec.json: availability[0].forecast[0][1]: factor must be in (0, 1]"},
      {R"("forecast": "learnt")",
       "spec.json: forecast: must be \"known\", \"learned\", \"constant\" or"},
      {R"("forecast": {"learned": {"period_s": -1}})",
       "spec.json: forecast.learned.period_s: must be a positive number"},
      {R"("forecast": {"known": {}})", "spec.json: forecast.known: unknown key"},
  };
  for (const auto& c : cases) EXPECT_THAT(Error(Spec(c.top)), HasSubstr(c.error)) << c.top;
}

}  // namespace
}  // namespace mrlocal
