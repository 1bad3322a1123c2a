// The calibration file (tools/runtime/calibration_file.h): it round-trips exactly, files
// written by earlier versions still load, and a malformed one is an error naming the field.
#include "tools/runtime/calibration_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::ScratchDir;
using testing::WriteFile;

TEST(CalibrationFile, RoundTripsExactly) {
  ScratchDir dir;
  const fs::path file = dir / "a" / "calibration.json";  // the directory is created
  Calibration c = Calibration::BuiltIn();
  c.apps["wordcount"].map_s_per_unit = 1.0 / 3;
  c.apps["other"] = {.alpha = 0.1, .map_fixed_s = 5e-324, .reduce_s_per_unit = 1e300};
  ASSERT_TRUE(SaveCalibration(c, file).ok());
  Result<Calibration> back = LoadCalibration(file);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->source, file.string());
  ASSERT_EQ(back->apps.size(), c.apps.size());
  for (auto& [app, m] : c.apps) {
    SCOPED_TRACE(app);
    EXPECT_EQ(back->apps.at(app), m);
  }
}

// As the JsonWriter of earlier versions wrote it, with the file's own field names.
TEST(CalibrationFile, AFileWrittenByEarlierVersionsLoads) {
  ScratchDir dir;
  WriteFile(dir / "c.json", R"({
  "apps": {
    "wordcount": {
      "map_s_per_unit": 4.5e-09,
      "map_task_s": 0.02,
      "output_per_unit": 0.07,
      "reduce_s_per_unit": 1.7e-08,
      "reduce_task_s": 0
    }
  }
}
)");
  Result<Calibration> c = LoadCalibration(dir / "c.json");
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(c->apps.at("wordcount"), (AppModel{.alpha = 0.07,
                                               .map_fixed_s = 0.02,
                                               .map_s_per_unit = 4.5e-09,
                                               .reduce_s_per_unit = 1.7e-08}));
  // Apps the file does not name keep their built-in models.
  EXPECT_EQ(c->apps.at("pi"), Calibration::BuiltIn().apps.at("pi"));
}

TEST(CalibrationFile, AMissingFileIsNotFoundAndAMalformedOneNamesTheField) {
  ScratchDir dir;
  Result<Calibration> missing = LoadCalibration(dir / "none.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), Status::Code::kNotFound);

  WriteFile(dir / "c.json", R"({"apps": {"pi": {"map_s_per_unit": -1}}})");
  Result<Calibration> bad = LoadCalibration(dir / "c.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("apps.pi.map_s_per_unit"));
  EXPECT_THAT(bad.status().message(), HasSubstr((dir / "c.json").string()));

  WriteFile(dir / "c.json", "not json");
  EXPECT_EQ(LoadCalibration(dir / "c.json").status().code(), Status::Code::kInvalidArgument);
}

// Found with tests/fuzz/calibration_file_fuzz's one-line check, on an input written to
// probe it: an app's name with a line break broke the message over two lines.
TEST(CalibrationFile, AnAppNameWithALineBreakIsQuotedOnOneLine) {
  ScratchDir dir;
  WriteFile(dir / "c.json", R"({"apps": {"p\ni": 3}})");
  Result<Calibration> bad = LoadCalibration(dir / "c.json");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(bad.status().message(), HasSubstr("apps.p\\ni: not an object"));
  EXPECT_EQ(bad.status().message().find('\n'), std::string::npos) << bad.status().message();
}

}  // namespace
}  // namespace mrlocal
