// Generated and measured availability profiles: a daily sinusoid, bursts, a CSV of CPU
// availability, each expanded to steps; every bad value one line naming what is wrong.
#include "datasets/availability_profile.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>

namespace mrlocal {
namespace {

using ::testing::HasSubstr;

std::string ErrorOf(const Result<std::vector<ProfileStep>>& r) {
  EXPECT_FALSE(r.ok());
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos) << r.status().message();
  return r.status().message();
}

TEST(SinusoidProfile, SwingsFromMinAtTheLoadPeakToMaxHalfAPeriodLater) {
  // A 100 s "day", 4 steps of 25 s: sampled at 12.5, 37.5, 62.5, 87.5 s.
  SinusoidProfile p{
      .period_s = 100, .min = 0.2, .max = 1.0, .phase_s = 0, .step_s = 25, .until_s = 100};
  auto steps = ExpandSinusoid(p);
  ASSERT_TRUE(steps.ok()) << steps.status().message();
  ASSERT_EQ(steps->size(), 4u);
  const double c = std::cos(M_PI / 4);  // cos(2 pi 12.5 / 100)
  EXPECT_DOUBLE_EQ((*steps)[0].at_s, 0);
  EXPECT_NEAR((*steps)[0].factor, 0.6 - 0.4 * c, 1e-12);
  EXPECT_DOUBLE_EQ((*steps)[1].at_s, 25);
  EXPECT_NEAR((*steps)[1].factor, 0.6 + 0.4 * c, 1e-12);
  EXPECT_NEAR((*steps)[2].factor, 0.6 + 0.4 * c, 1e-12);
  EXPECT_DOUBLE_EQ((*steps)[3].at_s, 75);
  EXPECT_NEAR((*steps)[3].factor, 0.6 - 0.4 * c, 1e-12);
  // The load peaks at 50 s: availability lowest around it.
  p.phase_s = 50;
  steps = ExpandSinusoid(p);
  EXPECT_NEAR((*steps)[0].factor, 0.6 + 0.4 * c, 1e-12);
  EXPECT_NEAR((*steps)[1].factor, 0.6 - 0.4 * c, 1e-12);
}

TEST(SinusoidProfile, DefaultStepIsAQuarterHourOfADayAndTheLastStepIsCut) {
  auto day = ExpandSinusoid({.min = 0.5, .until_s = 86400});
  ASSERT_TRUE(day.ok());
  EXPECT_EQ(day->size(), 96u);
  EXPECT_DOUBLE_EQ((*day)[1].at_s, 900);
  auto cut = ExpandSinusoid({.period_s = 100, .min = 0.5, .step_s = 30, .until_s = 70});
  ASSERT_TRUE(cut.ok());
  EXPECT_EQ(cut->size(), 3u);  // 0, 30, 60
  for (const ProfileStep& s : *cut) EXPECT_TRUE(s.factor >= 0.5 && s.factor <= 1.0);
}

TEST(SinusoidProfile, RefusesFactorsOutsideZeroOneAndAbsurdStepCounts) {
  EXPECT_THAT(ErrorOf(ExpandSinusoid({.min = 0, .until_s = 10})), HasSubstr("min: must be in"));
  EXPECT_THAT(ErrorOf(ExpandSinusoid({.min = 0.5, .max = 1.5, .until_s = 10})),
              HasSubstr("max: must be in (0, 1]"));
  EXPECT_THAT(ErrorOf(ExpandSinusoid({.min = 0.8, .max = 0.5, .until_s = 10})),
              HasSubstr("min: must be in (0, max]"));
  EXPECT_THAT(ErrorOf(ExpandSinusoid({.min = 0.5, .step_s = 0.001, .until_s = 1e7})),
              HasSubstr("until_s: over 1000000 steps"));
}

TEST(BurstProfile, FixedGapsPutABurstEveryPeriod) {
  auto steps = ExpandBursts({.every_s = 10,
                             .length_s = 2,
                             .factor = 0.25,
                             .gaps = BurstProfile::Gaps::kFixed,
                             .until_s = 25});
  ASSERT_TRUE(steps.ok()) << steps.status().message();
  // Quiet 8 s, burst 2 s: bursts at [8, 10) and [18, 20).
  ASSERT_EQ(steps->size(), 4u);
  EXPECT_DOUBLE_EQ((*steps)[0].at_s, 8);
  EXPECT_DOUBLE_EQ((*steps)[0].factor, 0.25);
  EXPECT_DOUBLE_EQ((*steps)[1].at_s, 10);
  EXPECT_DOUBLE_EQ((*steps)[1].factor, 1.0);
  EXPECT_DOUBLE_EQ((*steps)[2].at_s, 18);
  EXPECT_DOUBLE_EQ((*steps)[3].at_s, 20);
}

TEST(BurstProfile, ExponentialGapsAverageThePeriodAndDependOnlyOnTheSeed) {
  const BurstProfile p{.every_s = 10, .length_s = 2, .factor = 0.5, .seed = 7, .until_s = 1e5};
  auto a = ExpandBursts(p), b = ExpandBursts(p);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->size(), b->size());
  // About until / every bursts, two steps each; none overlaps the next.
  EXPECT_NEAR(static_cast<double>(a->size()) / 2, 1e4, 300);
  // (The last burst may be cut at until_s.)
  for (size_t i = 0; i + 3 < a->size(); i += 2) {
    EXPECT_NEAR((*a)[i + 1].at_s - (*a)[i].at_s, 2, 1e-9);
    EXPECT_GT((*a)[i + 2].at_s, (*a)[i + 1].at_s);
  }
  BurstProfile other = p;
  other.seed = 8;
  EXPECT_NE((*ExpandBursts(other))[0].at_s, (*a)[0].at_s);
}

TEST(BurstProfile, RefusesBadFactorsAndOverlappingBursts) {
  EXPECT_THAT(ErrorOf(ExpandBursts({.every_s = 10, .length_s = 2, .factor = 1.5, .until_s = 9})),
              HasSubstr("factor: must be in (0, 1]"));
  EXPECT_THAT(ErrorOf(ExpandBursts({.every_s = 2, .length_s = 2, .factor = 0.5, .until_s = 9})),
              HasSubstr("every_s: must be longer than length_s"));
  EXPECT_THAT(
      ErrorOf(ExpandBursts({.every_s = 0.01, .length_s = 0.001, .factor = 0.5, .until_s = 1e6})),
      HasSubstr("over 1000000 steps"));
}

TEST(AvailabilityCsv, ReadsAvailabilityOrConvertsCpuBusy) {
  auto a = ParseAvailabilityCsv("time_s,availability\n0,1\n60,0.5\n120,0.75\n");
  ASSERT_TRUE(a.ok()) << a.status().message();
  ASSERT_EQ(a->size(), 3u);
  EXPECT_DOUBLE_EQ((*a)[1].at_s, 60);
  EXPECT_DOUBLE_EQ((*a)[1].factor, 0.5);
  // Other columns ignored, in any order; CRLF and spaces tolerated.
  auto busy = ParseAvailabilityCsv("host, cpu_busy, time_s\r\nweb1, 0.25, 0\r\nweb1, 0.9, 10\r\n");
  ASSERT_TRUE(busy.ok()) << busy.status().message();
  EXPECT_DOUBLE_EQ((*busy)[0].factor, 0.75);
  EXPECT_NEAR((*busy)[1].factor, 0.1, 1e-12);
  EXPECT_DOUBLE_EQ((*busy)[1].at_s, 10);
}

TEST(AvailabilityCsv, EveryMistakeNamesTheLine) {
  const struct {
    const char* csv;
    const char* error;
  } cases[] = {
      {"0,1\n1,1\n", "line 1: the header must name a time_s column"},
      {"time_s,availability,cpu_busy\n", "not both"},
      {"time_s,availability\n", "no rows after the header"},
      {"", "empty"},
      {"time_s,availability\n0,1\n5,\n", "line 3: availability: empty cell (a gap)"},
      {"time_s,availability\n0,1\n,1\n", "line 3: time_s: empty cell"},
      {"time_s,availability\n0,1\n5,0\n", "line 3: availability: must be in (0, 1]"},
      {"time_s,availability\n0,1\n5,1.2\n", "must be in (0, 1]"},
      {"time_s,cpu_busy\n0,1\n", "line 2: cpu_busy: must be in [0, 1)"},
      {"time_s,availability\n0,1\n5,x\n", "(got 'x')"},
      {"time_s,availability\n5,1\n5,1\n", "line 3: time_s: times must be strictly increasing"},
      {"time_s,availability\n0,1\n5\n", "line 3: 1 cells where the header has 2"},
      // Samples every 10 s: a missing one (20 s apart) is not over 2 x 10; two are.
      {"time_s,availability\n0,1\n10,1\n20,1\n30,1\n40,1\n60,1\n70,1\n80,1\n110,1\n",
       "line 10: time_s: a gap of 30 s since the previous row, over twice the median step (10 "
       "s)"},
  };
  for (const auto& c : cases)
    EXPECT_THAT(ErrorOf(ParseAvailabilityCsv(c.csv)), HasSubstr(c.error)) << c.csv;
}

}  // namespace
}  // namespace mrlocal

namespace mrlocal {
namespace {

// A day of two steps times a burst: a step wherever either changes, 1.0 before each one's
// first, equal neighbours merged.
TEST(MultiplyProfiles, StepsWhereEitherChanges) {
  const std::vector<ProfileStep> day = {{0, 1.0}, {10, 0.5}};
  const std::vector<ProfileStep> burst = {{5, 0.5}, {7, 1.0}, {10, 1.0}, {12, 0.2}};
  const std::vector<ProfileStep> p = MultiplyProfiles(day, burst);
  const std::vector<std::pair<double, double>> want = {{0, 1.0}, {5, 0.5}, {7, 1.0}, {10, 0.5},
                                                       {12, 0.1}};
  ASSERT_EQ(p.size(), want.size());
  for (size_t i = 0; i < p.size(); ++i) {
    EXPECT_DOUBLE_EQ(p[i].at_s, want[i].first) << i;
    EXPECT_DOUBLE_EQ(p[i].factor, want[i].second) << i;
  }
}

}  // namespace
}  // namespace mrlocal
