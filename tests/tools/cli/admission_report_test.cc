// The admission line of the job commands names the confidence rtmr admitted at, and says
// when the history has seen too few tasks to plan below the worst case.
#include "tools/cli/admission_report.h"

#include <gtest/gtest.h>

namespace mrlocal {
namespace {

std::string Line(double confidence, size_t maps_seen) {
  JobState job;
  job.spec.app = "wordcount";
  job.spec.deadline = std::chrono::seconds(30);
  Admission a = Admission::Yes("");
  a.estimate.emplace().finish = Time{std::chrono::seconds(10)};
  AppEstimate e;
  e.jobs = 2;
  e.observations.maps.assign(maps_seen, AffinePoint{100, 1.0});
  AdmissionView v;
  v.job = &job;
  v.admission = &a;
  v.policy = "rtmr";
  v.deadline = std::chrono::seconds(30);
  v.estimate = &e;
  v.confidence = confidence;
  return FormatAdmission(v);
}

TEST(AdmissionReport, NamesTheConfidenceBelowOne) {
  EXPECT_EQ(Line(1.0, 20).find("confidence"), std::string::npos) << Line(1.0, 20);
  const std::string line = Line(0.99, 20);
  EXPECT_NE(line.find("slack 20.00 s"), std::string::npos) << line;
  EXPECT_NE(line.find("at confidence 0.99)"), std::string::npos) << line;
  EXPECT_NE(Line(0.99, 3).find("at confidence 0.99, as the worst case until 16 maps are seen"),
            std::string::npos)
      << Line(0.99, 3);
}

}  // namespace
}  // namespace mrlocal
