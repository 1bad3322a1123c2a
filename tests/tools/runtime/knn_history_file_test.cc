// The kNN estimator's observations in the history file (tools/runtime/history_file.h):
// they round-trip exactly and bounded, a version-2 file (without them) still loads, a
// recorded job adds its tasks', and a "knn" section of the wrong type is one line naming
// the file and the field.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "tests/util/test_util.h"
#include "tools/runtime/history_file.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::ReadFile;
using testing::ScratchDir;
using testing::WriteFile;

constexpr const char* kVersion2 = R"({"version": 2, "apps": {"wordcount": {"alpha": 0.5,
    "map_fixed_s": 0.01, "map_s_per_unit": 6e-09, "reduce_fixed_s": 0,
    "reduce_s_per_unit": 1.5e-08, "reduce_skew": 1.25, "shuffle_fixed_units": 40, "jobs": 3,
    "source": "history", "observations": {"maps": [[100, 0.5]]}}}})";

// A valid version-3 file whose "knn" section is `knn` (raw JSON).
std::string WithKnn(const std::string& knn) {
  return R"({"version": 3, "apps": {}, "knn": )" + knn + "}";
}

TEST(KnnHistoryFile, ObservationsRoundTripExactlyAndBounded) {
  ScratchDir dir;
  HistoryContents c;
  for (int i = 0; i < 300; ++i)
    AddObservation(c.knn["wordcount"], TaskKind::kMap, {8e6 + i / 3.0, 0.5, i % 3, 0.1 + i / 7.0});
  AddObservation(c.knn["wordcount"], TaskKind::kReduce, {1234.5, 1.0, 0, 0.25});
  ASSERT_EQ(c.knn["wordcount"].maps.size(), kMaxKnnObservations);
  ASSERT_TRUE(SaveHistoryFile(c, dir / "h.json").ok());
  int version = 0;
  Result<HistoryContents> back = LoadHistoryFile(dir / "h.json", &version);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(version, 3);
  EXPECT_EQ(back->knn, c.knn);
}

TEST(KnnHistoryFile, AVersion2FileLoadsWithoutObservations) {
  ScratchDir dir;
  WriteFile(dir / "h.json", kVersion2);
  int version = 0;
  Result<HistoryContents> c = LoadHistoryFile(dir / "h.json", &version);
  ASSERT_TRUE(c.ok()) << c.status().message();
  EXPECT_EQ(version, 2);
  EXPECT_TRUE(c->knn.empty());
  EXPECT_EQ(c->history.Find("wordcount")->jobs, 3u);
  std::ostringstream out, err;
  auto f = HistoryFile::Open(dir / "h.json", err);
  ASSERT_TRUE(f.ok());
  EXPECT_EQ(err.str(), "") << "a version-2 file is no older mrlocal's worst cases";
}

TEST(KnnHistoryFile, ARecordedJobAddsItsTasksObservations) {
  ScratchDir dir;
  WriteFile(dir / "h.json", kVersion2);
  std::ostringstream out, err;
  auto f = HistoryFile::Open(dir / "h.json", err);
  ASSERT_TRUE(f.ok());
  JobObservation job;
  job.app = "wordcount";
  job.input_units = 4e6;
  job.maps = {{4e6, 0.05}};
  KnnAppObservations knn;
  knn.maps = {{4e6, 1.0, 1, 0.05}};
  knn.reduces = {{1e5, 0.5, 0, 0.08}};
  ASSERT_TRUE(f->Record(job, knn, out, err, /*quiet=*/true).ok()) << err.str();
  ASSERT_TRUE(f->Record(job, knn, out, err, /*quiet=*/true).ok()) << err.str();
  Result<HistoryContents> back = LoadHistoryFile(dir / "h.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->history.Find("wordcount")->jobs, 5u);
  EXPECT_EQ(back->knn["wordcount"].maps.size(), 2u);
  EXPECT_EQ(back->knn["wordcount"].reduces.back(), knn.reduces.front());
  EXPECT_EQ(f->knn(), back->knn);
}

TEST(KnnHistoryFile, WrongTypesAreOneLineNamingTheFileAndTheField) {
  ScratchDir dir;
  const fs::path file = dir / "h.json";
  const std::pair<std::string, std::string> cases[] = {
      {WithKnn("[]"), "knn: not an object"},
      {WithKnn(R"({"wordcount": []})"), "knn.wordcount: not an object"},
      {WithKnn(R"({"wordcount": {"maps": 3}})"), "knn.wordcount.maps: not an array"},
      {WithKnn(R"({"wordcount": {"maps": [[1, 1, 0]]}})"),
       "knn.wordcount.maps.0: not [units, slot speed, node tasks, seconds]"},
      {WithKnn(R"({"wordcount": {"reduces": [[1, 1, 0, 2], [1, "fast", 0, 2]]}})"),
       "knn.wordcount.reduces.1: not [units, slot speed, node tasks, seconds]"},
      {WithKnn(R"({"wordcount": {"maps": [[1, 1, 0.5, 2]]}})"),
       "knn.wordcount.maps.0: node tasks 0.5 is not a non-negative integer"},
      {WithKnn(R"({"wordcount": {"maps": [[1, 0, 0, 2]]}})"),
       "knn.wordcount.maps.0: not finite non-negative numbers with a speed > 0"},
      {WithKnn(R"({"wordcount": {"colour": []}})"), "knn.wordcount.colour: unknown key"},
      {R"({"version": 2, "apps": {}, "knn": {}})", "knn: not in a file of version 2"},
  };
  for (const auto& [text, what] : cases) {
    WriteFile(file, text);
    Result<HistoryContents> r = LoadHistoryFile(file);
    ASSERT_FALSE(r.ok()) << text;
    EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument);
    EXPECT_EQ(r.status().message(), "history file '" + file.string() + "' is corrupt: " + what);
    // A kNN run does not set such a file aside: it is an error, and the file is kept.
    std::ostringstream err;
    auto f = HistoryFile::Open(file, err, /*corrupt_is_error=*/true);
    EXPECT_FALSE(f.ok());
    EXPECT_EQ(ReadFile(file), text);
  }
}

}  // namespace
}  // namespace mrlocal
