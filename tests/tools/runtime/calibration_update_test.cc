// `mrlocal calibrate --apps A -o FILE` updates A in FILE and keeps the file's other apps
// (tools/runtime/calibration_file.h, UpdateCalibration).
#include <gtest/gtest.h>

#include "tests/util/test_util.h"
#include "tools/runtime/calibration_file.h"

namespace mrlocal {
namespace {

using testing::ReadFile;
using testing::ScratchDir;
using testing::WriteFile;

const AppModel kWordCount{.alpha = 0.07, .map_fixed_s = 0.02, .map_s_per_unit = 4.5e-09};
const AppModel kPi{.map_fixed_s = 0.001, .map_s_per_unit = 3e-09};

TEST(CalibrationUpdate, TheAppsMeasuredReplaceTheirsAndTheOthersAreKept) {
  ScratchDir dir;
  const auto file = dir / "cal.json";
  ASSERT_TRUE(UpdateCalibration(file, {{"wordcount", kWordCount}, {"pi", kPi}}).ok());

  AppModel pi2 = kPi;
  pi2.map_s_per_unit = 5e-09;
  Result<std::vector<std::string>> kept = UpdateCalibration(file, {{"pi", pi2}});
  ASSERT_TRUE(kept.ok()) << kept.status().message();
  EXPECT_EQ(*kept, std::vector<std::string>{"wordcount"});

  Result<std::map<std::string, AppModel>> apps = ReadCalibratedApps(file);
  ASSERT_TRUE(apps.ok()) << apps.status().message();
  EXPECT_EQ(*apps, (std::map<std::string, AppModel>{{"pi", pi2}, {"wordcount", kWordCount}}));
}

TEST(CalibrationUpdate, ANewFileHoldsTheAppsMeasuredOnly) {
  ScratchDir dir;
  const auto file = dir / "sub" / "cal.json";
  Result<std::vector<std::string>> kept = UpdateCalibration(file, {{"pi", kPi}});
  ASSERT_TRUE(kept.ok()) << kept.status().message();
  EXPECT_TRUE(kept->empty());
  EXPECT_EQ(*ReadCalibratedApps(file), (std::map<std::string, AppModel>{{"pi", kPi}}));
  // Loading it still gives every app a model: the others keep the built-in ones.
  EXPECT_EQ(LoadCalibration(file)->apps.at("wordcount"),
            Calibration::BuiltIn().apps.at("wordcount"));
}

TEST(CalibrationUpdate, AMalformedFileIsAnErrorAndLeftAsItIs) {
  ScratchDir dir;
  const auto file = dir / "cal.json";
  WriteFile(file, "not json");
  Result<std::vector<std::string>> kept = UpdateCalibration(file, {{"pi", kPi}});
  ASSERT_FALSE(kept.ok());
  EXPECT_EQ(kept.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(ReadFile(file), "not json");
}

}  // namespace
}  // namespace mrlocal
