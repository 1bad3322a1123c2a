// The history file (tools/runtime/history_file.h): it round-trips exactly, files written
// before it still load, and a corrupt one is never trusted.
#include "tools/runtime/history_file.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <bit>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <optional>
#include <random>
#include <sstream>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::ReadFile;
using testing::ScratchDir;
using testing::WriteFile;

constexpr double kMiB = 1 << 20;

// The message of a Load that must fail as corrupt, checking it is one InvalidArgument line
// naming the file.
std::string CorruptError(const fs::path& file) {
  Result<JobHistory> r = LoadHistory(file);
  EXPECT_FALSE(r.ok()) << ReadFile(file);
  if (r.ok()) return "";
  EXPECT_EQ(r.status().code(), Status::Code::kInvalidArgument) << r.status().message();
  EXPECT_THAT(r.status().message(), HasSubstr("history file '" + file.string() + "' is corrupt: "));
  EXPECT_EQ(r.status().message().find('\n'), std::string::npos) << r.status().message();
  return r.status().message();
}

// A valid file with one app whose field `key` is `value` (raw JSON), or without it when
// `value` is empty.
std::string OneApp(const std::string& key = "", const std::string& value = "") {
  std::map<std::string, std::string> f = {
      {"alpha", "0.5"},        {"map_fixed_s", "0.01"},          {"map_s_per_unit", "6e-09"},
      {"reduce_fixed_s", "0"}, {"reduce_s_per_unit", "1.5e-08"}, {"reduce_skew", "1.25"},
      {"jobs", "3"},           {"source", "\"history\""}};
  if (!key.empty()) {
    if (value.empty())
      f.erase(key);
    else
      f[key] = value;
  }
  std::string app;
  for (auto& [k, v] : f) app += (app.empty() ? "" : ", ") + ("\"" + k + "\": " + v);
  return R"({"version": 1, "apps": {"wordcount": {)" + app + "}}}";
}

// A valid version-2 file whose one app has `observations` (the inside of a JSON object).
std::string TwoApp(const std::string& observations) {
  return R"({"version": 2, "apps": {"wordcount": {"alpha": 0.5, "map_fixed_s": 0.01,
      "map_s_per_unit": 6e-09, "reduce_fixed_s": 0, "reduce_s_per_unit": 1.5e-08,
      "reduce_skew": 1.25, "shuffle_fixed_units": 40, "jobs": 3, "source": "history",
      "observations": {)" +
         observations + "}}}}";
}

TEST(HistoryFile, SaveLoadRoundTripIsBitExact) {
  ScratchDir dir;
  const fs::path file = dir / "a" / "b" / "history.json";  // directories created
  std::mt19937_64 rng(7);
  // Random finite non-negative doubles over the whole range, subnormals included.
  auto any_double = [&] {
    for (;;) {
      const double d = std::bit_cast<double>(rng() >> 1);  // sign bit clear
      if (std::isfinite(d)) return d;
    }
  };
  JobHistory h;
  const double specials[] = {0.1, 1.0 / 3, 5e-324, std::numeric_limits<double>::max(), 4.62e-9, 0};
  for (int i = 0; i < 50; ++i) {
    AppEstimate e;
    AppModel& m = e.model;
    double* fields[] = {&m.alpha,          &m.map_fixed_s,       &m.map_s_per_unit,
                        &m.reduce_fixed_s, &m.reduce_s_per_unit, &m.shuffle_fixed_units};
    for (double* f : fields) *f = i < 6 ? specials[i] : any_double();
    for (int k = 0; k < i % 4; ++k) {
      e.observations.maps.push_back({any_double(), any_double()});
      e.observations.shuffles.push_back({any_double(), any_double()});
      e.observations.skews.push_back(1 + any_double() / std::numeric_limits<double>::max());
    }
    m.reduce_skew = 1 + any_double() / std::numeric_limits<double>::max() * 1e3;
    e.jobs = rng();
    e.source = i % 3 == 0 ? "probe" : i % 3 == 1 ? "model" : "history";
    h.Set("app" + std::to_string(i), e);
  }
  ASSERT_TRUE(SaveHistory(h, file).ok());
  Result<JobHistory> back = LoadHistory(file);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->apps().size(), h.apps().size());
  for (auto& [app, e] : h.apps()) {
    const AppEstimate* b = back->Find(app);
    ASSERT_NE(b, nullptr) << app;
    auto bits = [](double d) { return std::bit_cast<uint64_t>(d); };
    EXPECT_EQ(bits(b->model.alpha), bits(e.model.alpha)) << app;
    EXPECT_EQ(bits(b->model.map_fixed_s), bits(e.model.map_fixed_s)) << app;
    EXPECT_EQ(bits(b->model.map_s_per_unit), bits(e.model.map_s_per_unit)) << app;
    EXPECT_EQ(bits(b->model.reduce_fixed_s), bits(e.model.reduce_fixed_s)) << app;
    EXPECT_EQ(bits(b->model.reduce_s_per_unit), bits(e.model.reduce_s_per_unit)) << app;
    EXPECT_EQ(bits(b->model.reduce_skew), bits(e.model.reduce_skew)) << app;
    EXPECT_EQ(bits(b->model.shuffle_fixed_units), bits(e.model.shuffle_fixed_units)) << app;
    ASSERT_EQ(b->observations.maps.size(), e.observations.maps.size()) << app;
    for (size_t k = 0; k < e.observations.maps.size(); ++k) {
      EXPECT_EQ(bits(b->observations.maps[k].units), bits(e.observations.maps[k].units));
      EXPECT_EQ(bits(b->observations.maps[k].value), bits(e.observations.maps[k].value));
    }
    EXPECT_EQ(b->observations, e.observations) << app;
    EXPECT_EQ(b->jobs, e.jobs) << app;
    EXPECT_EQ(b->source, e.source) << app;
  }
}

TEST(HistoryFile, ARecordedHistorySurvivesASaveUnchanged) {
  ScratchDir dir;
  JobHistory h;
  JobObservation job;
  job.app = "wordcount";
  job.input_units = 32 * kMiB + 1000;
  job.shuffle_units = 99;
  job.maps = {{32 * kMiB, 0.2}, {1000, 0.0013}};
  job.reduces = {{777, 0.3}, {5, 0.01}};
  h.Record(job);
  ASSERT_TRUE(SaveHistory(h, dir / "history.json").ok());
  Result<JobHistory> back = LoadHistory(dir / "history.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->Find("wordcount")->model, h.Find("wordcount")->model);
  EXPECT_EQ(back->Find("wordcount")->observations, h.Find("wordcount")->observations);
  EXPECT_EQ(back->Find("wordcount")->observations.maps.size(), 2u);
  EXPECT_THAT(ReadFile(dir / "history.json"), HasSubstr("\"version\": 3"));
}

TEST(HistoryFile, AnEmptyHistoryRoundTrips) {
  ScratchDir dir;
  ASSERT_TRUE(SaveHistory(JobHistory(), dir / "h.json").ok());
  Result<JobHistory> back = LoadHistory(dir / "h.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(back->apps().empty());
}

TEST(HistoryFile, AMissingFileIsNotFound) {
  ScratchDir dir;
  Result<JobHistory> r = LoadHistory(dir / "none.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kNotFound);
  EXPECT_THAT(r.status().message(), HasSubstr((dir / "none.json").string()));
}

TEST(HistoryFile, ADirectoryIsAnIoError) {
  ScratchDir dir;
  Result<JobHistory> r = LoadHistory(dir.path());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kIoError);
  EXPECT_THAT(r.status().message(), HasSubstr("cannot read history file '" + dir.path().string()));
  EXPECT_THAT(r.status().message(), HasSubstr("directory"));
}

TEST(HistoryFile, AnUnreadableFileIsAnIoError) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads files without permission";
  ScratchDir dir;
  WriteFile(dir / "h.json", OneApp());
  ::chmod((dir / "h.json").c_str(), 0);
  Result<JobHistory> r = LoadHistory(dir / "h.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kIoError);
  EXPECT_THAT(r.status().message(), HasSubstr("Permission denied"));
}

TEST(HistoryFile, TheTestFileIsValid) {
  ScratchDir dir;
  WriteFile(dir / "h.json", OneApp());
  Result<JobHistory> r = LoadHistory(dir / "h.json");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->Find("wordcount")->jobs, 3u);
  EXPECT_EQ(r->Find("wordcount")->model.map_s_per_unit, 6e-09);
}

TEST(HistoryFile, AVersion2FileKeepsTheNewestObservations) {
  ScratchDir dir;
  WriteFile(dir / "h.json", TwoApp(R"("maps": [[100, 1.5], [200, 2]], "skews": [1.5])"));
  Result<JobHistory> r = LoadHistory(dir / "h.json");
  ASSERT_TRUE(r.ok()) << r.status().message();
  const AppEstimate& e = *r->Find("wordcount");
  EXPECT_EQ(e.model.shuffle_fixed_units, 40);
  EXPECT_EQ(e.observations.maps.size(), 2u);
  EXPECT_EQ(e.observations.maps[1].units, 200);
  EXPECT_EQ(e.observations.skews, std::vector<double>{1.5});
  EXPECT_TRUE(e.observations.reduces.empty());
  // More than the bound (a file of a mrlocal that kept more): the newest are kept.
  std::string many;
  for (size_t i = 0; i < kMaxTaskObservations + 5; ++i)
    many += (many.empty() ? "[" : ", [") + std::to_string(i) + ", 1]";
  WriteFile(dir / "h.json", TwoApp("\"reduces\": [" + many + "]"));
  r = LoadHistory(dir / "h.json");
  ASSERT_TRUE(r.ok()) << r.status().message();
  const std::vector<AffinePoint>& kept = r->Find("wordcount")->observations.reduces;
  ASSERT_EQ(kept.size(), kMaxTaskObservations);
  EXPECT_EQ(kept.front().units, 5);
  EXPECT_EQ(kept.back().units, kMaxTaskObservations + 4);
}

TEST(HistoryFile, AVersion1FileIsReadWithANoteAndRefittedByTheNextJob) {
  ScratchDir dir;
  // A poisoned version-1 history: 24 bytes' fixed cost as a cost per byte.
  WriteFile(dir / "h.json", OneApp("map_s_per_unit", "1.29e-4"));
  int version = 0;
  ASSERT_TRUE(LoadHistory(dir / "h.json", &version).ok());
  EXPECT_EQ(version, 1);
  std::ostringstream out, err;
  auto f = HistoryFile::Open(dir / "h.json", err);
  ASSERT_TRUE(f.ok()) << f.status().message();
  const std::string note = err.str();
  EXPECT_THAT(note, HasSubstr("note: history file '" + (dir / "h.json").string() +
                              "' is from an older mrlocal"));
  EXPECT_EQ(std::count(note.begin(), note.end(), '\n'), 1) << note;
  EXPECT_EQ(f->history().Find("wordcount")->model.map_s_per_unit, 1.29e-4);
  JobObservation job;
  job.app = "wordcount";
  job.input_units = 4e6;
  job.shuffle_units = 2e5;
  job.maps = {{4e6, 0.05}};
  job.reduces = {{1e5, 0.04}, {1e5, 0.04}};
  ASSERT_TRUE(f->Record(job, {}, out, err, /*quiet=*/true).ok());
  Result<JobHistory> back = LoadHistory(dir / "h.json", &version);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(version, 3);
  const AppEstimate& e = *back->Find("wordcount");
  EXPECT_EQ(e.jobs, 4u);
  EXPECT_DOUBLE_EQ(e.model.MapSeconds(4e6), 0.05);
  EXPECT_LT(e.model.map_s_per_unit, 1e-7);
}

TEST(HistoryFile, ACorruptFileIsInvalidArgumentNamingTheField) {
  ScratchDir dir;
  const fs::path file = dir / "h.json";
  struct Case {
    std::string text;
    std::string what;
  };
  const std::string valid = OneApp();
  const Case cases[] = {
      {"{\"version\": 1, \"apps\": {", "parse error"},
      {valid.substr(0, valid.size() / 2), "parse error"},  // truncated
      {"", "parse error"},
      {"[1, 2]", "not a JSON object"},
      {OneApp("map_s_per_unit", "-1e-9"), "apps.wordcount.map_s_per_unit: -1e-09"},
      {OneApp("alpha", "1e999"), "number overflow"},
      {OneApp("reduce_skew", "0.5"), "apps.wordcount.reduce_skew: 0.5 is below 1"},
      {OneApp("map_fixed_s", "\"fast\""), "apps.wordcount.map_fixed_s: not a number"},
      {OneApp("map_fixed_s"), "apps.wordcount.map_fixed_s: missing"},
      {OneApp("jobs", "2.5"), "apps.wordcount.jobs: not a non-negative integer"},
      {OneApp("jobs", "-2"), "apps.wordcount.jobs: not a non-negative integer"},
      {OneApp("source", "\"guess\""), "apps.wordcount.source: 'guess'"},
      {OneApp("colour", "1"), "apps.wordcount.colour: unknown key"},
      {R"({"version": 0, "apps": {}})", "version: 0 is not 1 to 3"},
      {R"({"version": "1", "apps": {}})", "version: \"1\" is not 1 to 3"},
      {OneApp("observations", "{}"), "apps.wordcount.observations: unknown key"},  // v1
      {TwoApp("\"maps\": [[1, 2, 3]]"), "apps.wordcount.observations.maps.0: not a pair"},
      {TwoApp("\"maps\": [[1, 2], [1, -2]]"),
       "apps.wordcount.observations.maps.1: not finite non-negative"},
      {TwoApp("\"shuffles\": 3"), "apps.wordcount.observations.shuffles: not an array"},
      {TwoApp("\"skews\": [0.5]"), "apps.wordcount.observations.skews: 0.5 is not a number >= 1"},
      {TwoApp("\"colour\": []"), "apps.wordcount.observations.colour: unknown key"},
      {R"({"apps": {}})", "version: missing"},
      {R"({"version": 1})", "apps: missing"},
      {R"({"version": 1, "apps": [], "more": 1})", "more: unknown key"},
      {R"({"version": 1, "apps": {"wordcount": 3}})", "apps.wordcount: not an object"},
  };
  for (const Case& c : cases) {
    WriteFile(file, c.text);
    EXPECT_THAT(CorruptError(file), HasSubstr(c.what)) << c.text;
  }
}

// Found with tests/fuzz/history_file_fuzz's one-line check, on an input written to probe
// it: an app's name (a JSON key) with a line break broke the message over two lines;
// CorruptError checks it is one.
TEST(HistoryFile, AKeyWithALineBreakIsQuotedOnOneLine) {
  ScratchDir dir;
  const fs::path file = dir / "history.json";
  WriteFile(file, R"({"version": 3, "apps": {"word\ncount": 3}})");
  EXPECT_THAT(CorruptError(file), HasSubstr("apps.word\\ncount: not an object"));
  WriteFile(file, R"({"version": 3, "apps": {}, "knn": {"a\r\u0001": 3}})");
  EXPECT_THAT(CorruptError(file), HasSubstr("knn.a\\r\\x01: not an object"));
}

TEST(HistoryFile, SaveReplacesTheFileAtomically) {
  ScratchDir dir;
  const fs::path file = dir / "history.json";
  WriteFile(file, "old contents that are not even JSON");
  JobHistory h;
  h.Set("wordcount", {.model = {.map_s_per_unit = 0.01}, .jobs = 1});
  ASSERT_TRUE(SaveHistory(h, file).ok());
  Result<JobHistory> back = LoadHistory(file);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->Find("wordcount")->jobs, 1u);
  // No temporary is left beside it.
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.path()))
    names.push_back(entry.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"history.json"});
}

TEST(HistoryFile, SaveErrorsNameTheFile) {
  ScratchDir dir;
  WriteFile(dir / "plain", "x");
  const fs::path file = dir / "plain" / "history.json";  // its parent is a file
  Status s = SaveHistory(JobHistory(), file);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Status::Code::kIoError);
  EXPECT_THAT(s.message(), HasSubstr(file.string()));

  // What Load would refuse is never written.
  JobHistory h;
  AppEstimate e;
  e.model.map_s_per_unit = std::numeric_limits<double>::quiet_NaN();
  h.Set("wordcount", e);
  s = SaveHistory(h, dir / "h.json");
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("apps.wordcount.map_s_per_unit"));
  EXPECT_FALSE(fs::exists(dir / "h.json"));
}

// A file as the JsonWriter of earlier versions wrote it (integers without a fraction).
TEST(HistoryFile, AFileWrittenByEarlierVersionsLoads) {
  ScratchDir dir;
  WriteFile(dir / "h.json", R"({
  "version": 1,
  "apps": {
    "pi": {
      "alpha": 1.8e-07,
      "map_fixed_s": 0,
      "map_s_per_unit": 2.6571313000000003e-09,
      "reduce_fixed_s": 0,
      "reduce_s_per_unit": 1.488020138888889e-05,
      "reduce_skew": 1,
      "jobs": 2,
      "source": "history"
    },
    "wordcount": {
      "alpha": 0.10592042282223701,
      "map_fixed_s": 0.0148,
      "map_s_per_unit": 1.1587868869304656e-08,
      "reduce_fixed_s": 0,
      "reduce_s_per_unit": 6.757119797253854e-09,
      "reduce_skew": 1.25,
      "jobs": 1,
      "source": "probe"
    }
  }
}
)");
  Result<JobHistory> h = LoadHistory(dir / "h.json");
  ASSERT_TRUE(h.ok()) << h.status().message();
  ASSERT_EQ(h->apps().size(), 2u);
  const AppEstimate& pi = *h->Find("pi");
  EXPECT_EQ(pi.model, (AppModel{.alpha = 1.8e-07,
                                .map_s_per_unit = 2.6571313000000003e-09,
                                .reduce_s_per_unit = 1.488020138888889e-05}));
  EXPECT_EQ(pi.jobs, 2u);
  EXPECT_EQ(pi.source, "history");
  const AppEstimate& wc = *h->Find("wordcount");
  EXPECT_EQ(wc.model, (AppModel{.alpha = 0.10592042282223701,
                                .map_fixed_s = 0.0148,
                                .map_s_per_unit = 1.1587868869304656e-08,
                                .reduce_s_per_unit = 6.757119797253854e-09,
                                .reduce_skew = 1.25}));
  EXPECT_EQ(wc.source, "probe");
}

}  // namespace
}  // namespace mrlocal
