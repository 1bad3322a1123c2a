// Job history: RTMR's max updates (affine), speed normalization, probes, and a history file
// that round-trips exactly and is never trusted when corrupt.
#include "sched/estimate/job_history.h"

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

#include "tests/util/cluster.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using testing::ReadFile;
using testing::ScratchDir;
using testing::WriteFile;

constexpr double kMiB = 1 << 20;

// Every sample of `job` lies under the app's bound (seconds at speed 1.0, exactly).
void ExpectCovered(const JobHistory& h, const JobObservation& job) {
  const AppEstimate* e = h.Find(job.app);
  ASSERT_NE(e, nullptr);
  for (const TaskSample& s : job.maps)
    EXPECT_LE(s.seconds * s.speed, e->MapSeconds(s.units)) << "map of " << s.units << " units";
  for (const TaskSample& s : job.reduces)
    EXPECT_LE(s.seconds * s.speed, e->ReduceSeconds(s.units))
        << "reduce of " << s.units << " units";
}

JobObservation Job(std::vector<TaskSample> maps, std::vector<TaskSample> reduces = {},
                   double shuffle_units = 0) {
  JobObservation j;
  j.app = "wordcount";
  j.maps = std::move(maps);
  j.reduces = std::move(reduces);
  for (const TaskSample& m : j.maps) j.input_units += m.units;
  j.shuffle_units = shuffle_units;
  return j;
}

// The message of a Load that must fail as corrupt, checking it is one InvalidArgument line
// naming the file.
std::string CorruptError(const fs::path& file) {
  Result<JobHistory> r = JobHistory::Load(file);
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

// Sets an environment variable for the scope, restoring the old value after.
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const char* value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    if (value)
      ::setenv(name, value, 1);
    else
      ::unsetenv(name);
  }
  ~ScopedEnv() {
    if (old_)
      ::setenv(name_, old_->c_str(), 1);
    else
      ::unsetenv(name_);
  }

 private:
  const char* name_;
  std::optional<std::string> old_;
};

TEST(JobHistory, DefaultPathFollowsTheEnvironment) {
  ScopedEnv history("MRLOCAL_HISTORY", nullptr), xdg("XDG_DATA_HOME", nullptr),
      home("HOME", "/home/u");
  EXPECT_EQ(JobHistory::DefaultPath(), fs::path("/home/u/.local/share/mrlocal/history.json"));
  {
    ScopedEnv x("XDG_DATA_HOME", "/data");
    EXPECT_EQ(JobHistory::DefaultPath(), fs::path("/data/mrlocal/history.json"));
    ScopedEnv h("MRLOCAL_HISTORY", "/tmp/h.json");
    EXPECT_EQ(JobHistory::DefaultPath(), fs::path("/tmp/h.json"));
  }
  ScopedEnv empty_xdg("XDG_DATA_HOME", "");  // empty means unset, as XDG says
  EXPECT_EQ(JobHistory::DefaultPath(), fs::path("/home/u/.local/share/mrlocal/history.json"));
}

TEST(JobHistory, EverySampleLiesUnderTheBound) {
  std::mt19937 rng(2026);
  std::uniform_real_distribution<double> u01(0, 1);
  const double speeds[] = {0.25, 0.5, 0.75, 1.0};
  JobHistory h;
  std::vector<JobObservation> seen;
  for (int j = 0; j < 200; ++j) {
    const double split = std::ldexp(1.0, static_cast<int>(rng() % 20) + 10);  // 1 KiB..512 MiB
    const double s_per_unit = std::exp(-18 - 6 * u01(rng));
    auto sample = [&](double units) {
      const double speed = speeds[rng() % 4];
      const double work = u01(rng) * 0.05 + s_per_unit * units * (0.5 + u01(rng));
      return TaskSample{units, work / speed, speed};
    };
    std::vector<TaskSample> maps, reduces;
    const int m = 1 + static_cast<int>(rng() % 12);
    for (int i = 0; i < m; ++i) {
      // Mostly full splits, sometimes a partial last one or an empty one.
      const double r = u01(rng);
      maps.push_back(sample(r < 0.1 ? 0 : r < 0.3 ? std::floor(split * u01(rng)) : split));
    }
    const int reduce_count = static_cast<int>(rng() % 5);
    for (int i = 0; i < reduce_count; ++i) reduces.push_back(sample(std::floor(split * u01(rng))));
    JobObservation job = Job(std::move(maps), std::move(reduces), split * u01(rng));
    if (j % 3 == 0) job.app = "friendcount";
    h.Record(job);
    seen.push_back(job);
    // The bound covers this job and every earlier job of the same app.
    for (const JobObservation& old : seen) ExpectCovered(h, old);
    if (::testing::Test::HasFailure()) break;
  }
  EXPECT_EQ(h.Find("wordcount")->jobs + h.Find("friendcount")->jobs, 200u);
}

TEST(JobHistory, MaxUpdatesOnlyGrow) {
  JobHistory h;
  // σ = 200, σ_r = 100: α = 0.5; reduces 30 and 10: skew 30/20 = 1.5.
  h.Record(Job({{100, 1.0}, {100, 2.0}}, {{30, 3.0}, {10, 1.0}}, 100));
  const AppEstimate first = *h.Find("wordcount");
  EXPECT_EQ(first.jobs, 1u);
  EXPECT_EQ(first.source, "history");
  EXPECT_DOUBLE_EQ(first.alpha, 0.5);
  EXPECT_DOUBLE_EQ(first.reduce_skew, 1.5);
  EXPECT_DOUBLE_EQ(first.map_s_per_unit, 0.02);  // the worst full-size map, 2 s / 100
  EXPECT_DOUBLE_EQ(first.map_fixed_s, 0);
  EXPECT_DOUBLE_EQ(first.reduce_s_per_unit, 0.1);  // 3 s / 30; 10 is no full-size reduce

  // A faster, less skewed job with a smaller α lowers nothing.
  h.Record(Job({{100, 0.5}}, {{10, 0.1}, {10, 0.1}}, 10));
  const AppEstimate second = *h.Find("wordcount");
  EXPECT_EQ(second.jobs, 2u);
  EXPECT_EQ(second.alpha, first.alpha);
  EXPECT_EQ(second.reduce_skew, first.reduce_skew);
  EXPECT_EQ(second.map_s_per_unit, first.map_s_per_unit);
  EXPECT_EQ(second.map_fixed_s, first.map_fixed_s);
  EXPECT_EQ(second.reduce_s_per_unit, first.reduce_s_per_unit);
  EXPECT_EQ(second.reduce_fixed_s, first.reduce_fixed_s);

  // A slower, more skewed job with a larger α raises each.
  h.Record(Job({{100, 5.0}}, {{90, 10.0}, {10, 1.0}}, 400));
  const AppEstimate third = *h.Find("wordcount");
  EXPECT_EQ(third.jobs, 3u);
  EXPECT_DOUBLE_EQ(third.alpha, 4.0);
  EXPECT_DOUBLE_EQ(third.reduce_skew, 1.8);
  EXPECT_DOUBLE_EQ(third.map_s_per_unit, 0.05);
  EXPECT_GT(third.reduce_s_per_unit, first.reduce_s_per_unit);
}

TEST(JobHistory, ATinyLastSplitDoesNotInflateThePerUnitCost) {
  JobHistory h;
  const JobObservation job =
      Job({{32 * kMiB, 0.2}, {32 * kMiB, 0.2}, {32 * kMiB, 0.2}, {1024, 0.001}});
  h.Record(job);
  const AppEstimate& e = *h.Find("wordcount");
  // The paper's c = max τ/σ would be 0.001/1024, 33 times the full splits' cost.
  EXPECT_DOUBLE_EQ(e.map_s_per_unit, 0.2 / (32 * kMiB));
  EXPECT_GT(e.map_fixed_s, 0);
  EXPECT_LE(e.map_fixed_s, 0.001);
  EXPECT_LT(e.MapSeconds(32 * kMiB), 0.2 + 0.001);
  ExpectCovered(h, job);
}

TEST(JobHistory, TimesAreNormalizedToSpeedOne) {
  JobHistory slow, fast;
  // 2 s on a half-speed slot is 1 s of work, the same as 1 s at full speed.
  slow.Record(Job({{100, 2.0, 0.5}}, {{50, 4.0, 0.25}}));
  fast.Record(Job({{100, 1.0, 1.0}}, {{50, 1.0, 1.0}}));
  EXPECT_DOUBLE_EQ(slow.Find("wordcount")->map_s_per_unit, 0.01);
  EXPECT_EQ(slow.Find("wordcount")->map_s_per_unit, fast.Find("wordcount")->map_s_per_unit);
  EXPECT_EQ(slow.Find("wordcount")->reduce_s_per_unit, fast.Find("wordcount")->reduce_s_per_unit);
}

TEST(JobHistory, ZeroUnitTasksBoundTheFixedPart) {
  JobHistory h;
  const JobObservation job = Job({{0, 0.3}, {0, 0.1}}, {{0, 0.2}});
  h.Record(job);
  const AppEstimate& e = *h.Find("wordcount");
  EXPECT_EQ(e.map_s_per_unit, 0);
  EXPECT_EQ(e.map_fixed_s, 0.3);
  EXPECT_EQ(e.reduce_fixed_s, 0.2);
  EXPECT_EQ(e.reduce_skew, 1);  // no reduce units: no skew to learn
  EXPECT_EQ(e.alpha, 0);        // no input
}

TEST(JobHistory, AJobWithoutMapSamplesChangesNothing) {
  JobHistory h;
  h.Record(Job({}, {{10, 1.0}}, 5));
  EXPECT_EQ(h.Find("wordcount"), nullptr);
  // Invalid samples are ignored: none left is no sample.
  const double nan = std::numeric_limits<double>::quiet_NaN();
  h.Record(Job({{nan, 1.0}, {10, -1.0}, {10, 1.0, 0}, {10, INFINITY}}));
  EXPECT_EQ(h.Find("wordcount"), nullptr);
  // Next to a valid one they change nothing.
  h.Record(Job({{100, 1.0}, {10, -1.0}, {10, 1.0, 0}, {nan, 5.0}, {-3, 5.0}}, {{nan, 1.0}}));
  ASSERT_NE(h.Find("wordcount"), nullptr);
  EXPECT_DOUBLE_EQ(h.Find("wordcount")->map_s_per_unit, 0.01);
  EXPECT_EQ(h.Find("wordcount")->map_fixed_s, 0);
  EXPECT_EQ(h.Find("wordcount")->reduce_s_per_unit, 0);
}

TEST(JobHistory, AProbeIsReplacedByTheFirstJob) {
  JobHistory h;
  AppEstimate probe;
  probe.alpha = 3;
  probe.map_fixed_s = 5;
  probe.map_s_per_unit = 1;
  probe.reduce_fixed_s = 7;
  probe.reduce_s_per_unit = 2;
  probe.reduce_skew = 4;
  probe.source = "probe";
  h.Set("wordcount", probe);
  h.Set("pi", probe);

  h.Record(Job({{100, 1.0}}, {{10, 0.5}, {30, 1.5}}, 20));
  const AppEstimate& e = *h.Find("wordcount");
  EXPECT_EQ(e.source, "history");
  EXPECT_EQ(e.jobs, 1u);
  EXPECT_DOUBLE_EQ(e.alpha, 0.2);
  EXPECT_DOUBLE_EQ(e.map_s_per_unit, 0.01);
  EXPECT_EQ(e.map_fixed_s, 0);
  EXPECT_DOUBLE_EQ(e.reduce_s_per_unit, 0.05);
  EXPECT_DOUBLE_EQ(e.reduce_skew, 1.5);

  // A map-only job cannot show reduce costs: the probe's guesses stay.
  JobObservation map_only = Job({{100, 1.0}});
  map_only.app = "pi";
  h.Record(map_only);
  const AppEstimate& pi = *h.Find("pi");
  EXPECT_EQ(pi.source, "history");
  EXPECT_DOUBLE_EQ(pi.map_s_per_unit, 0.01);
  EXPECT_EQ(pi.alpha, 0);  // σ_r = 0 was observed
  EXPECT_EQ(pi.reduce_fixed_s, 7);
  EXPECT_EQ(pi.reduce_s_per_unit, 2);
  EXPECT_EQ(pi.reduce_skew, 4);

  // A second job is a max update again, not a replacement.
  h.Record(Job({{100, 0.5}}));
  EXPECT_DOUBLE_EQ(h.Find("wordcount")->map_s_per_unit, 0.01);
  EXPECT_EQ(h.Find("wordcount")->jobs, 2u);
}

TEST(JobHistory, SaveLoadRoundTripIsBitExact) {
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
    double* fields[] = {&e.alpha, &e.map_fixed_s, &e.map_s_per_unit, &e.reduce_fixed_s,
                        &e.reduce_s_per_unit};
    for (double* f : fields) *f = i < 6 ? specials[i] : any_double();
    e.reduce_skew = 1 + any_double() / std::numeric_limits<double>::max() * 1e3;
    e.jobs = rng();
    e.source = i % 3 == 0 ? "probe" : i % 3 == 1 ? "model" : "history";
    h.Set("app" + std::to_string(i), e);
  }
  ASSERT_TRUE(h.Save(file).ok());
  Result<JobHistory> back = JobHistory::Load(file);
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->apps().size(), h.apps().size());
  for (auto& [app, e] : h.apps()) {
    const AppEstimate* b = back->Find(app);
    ASSERT_NE(b, nullptr) << app;
    auto bits = [](double d) { return std::bit_cast<uint64_t>(d); };
    EXPECT_EQ(bits(b->alpha), bits(e.alpha)) << app;
    EXPECT_EQ(bits(b->map_fixed_s), bits(e.map_fixed_s)) << app;
    EXPECT_EQ(bits(b->map_s_per_unit), bits(e.map_s_per_unit)) << app;
    EXPECT_EQ(bits(b->reduce_fixed_s), bits(e.reduce_fixed_s)) << app;
    EXPECT_EQ(bits(b->reduce_s_per_unit), bits(e.reduce_s_per_unit)) << app;
    EXPECT_EQ(bits(b->reduce_skew), bits(e.reduce_skew)) << app;
    EXPECT_EQ(b->jobs, e.jobs) << app;
    EXPECT_EQ(b->source, e.source) << app;
  }
}

TEST(JobHistory, ARecordedHistorySurvivesASaveAndStillCovers) {
  ScratchDir dir;
  JobHistory h;
  const JobObservation job = Job({{32 * kMiB, 0.2}, {1000, 0.0013}}, {{777, 0.3}, {5, 0.01}}, 99);
  h.Record(job);
  ASSERT_TRUE(h.Save(dir / "history.json").ok());
  Result<JobHistory> back = JobHistory::Load(dir / "history.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  ExpectCovered(*back, job);
  EXPECT_THAT(ReadFile(dir / "history.json"), HasSubstr("\"version\": 1"));
}

TEST(JobHistory, AnEmptyHistoryRoundTrips) {
  ScratchDir dir;
  ASSERT_TRUE(JobHistory().Save(dir / "h.json").ok());
  Result<JobHistory> back = JobHistory::Load(dir / "h.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(back->apps().empty());
}

TEST(JobHistory, AMissingFileIsNotFound) {
  ScratchDir dir;
  Result<JobHistory> r = JobHistory::Load(dir / "none.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kNotFound);
  EXPECT_THAT(r.status().message(), HasSubstr((dir / "none.json").string()));
}

TEST(JobHistory, ADirectoryIsAnIoError) {
  ScratchDir dir;
  Result<JobHistory> r = JobHistory::Load(dir.path());
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kIoError);
  EXPECT_THAT(r.status().message(), HasSubstr("cannot read history file '" + dir.path().string()));
  EXPECT_THAT(r.status().message(), HasSubstr("directory"));
}

TEST(JobHistory, AnUnreadableFileIsAnIoError) {
  if (::geteuid() == 0) GTEST_SKIP() << "root reads files without permission";
  ScratchDir dir;
  WriteFile(dir / "h.json", OneApp());
  ::chmod((dir / "h.json").c_str(), 0);
  Result<JobHistory> r = JobHistory::Load(dir / "h.json");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kIoError);
  EXPECT_THAT(r.status().message(), HasSubstr("Permission denied"));
}

TEST(JobHistory, TheTestFileIsValid) {
  ScratchDir dir;
  WriteFile(dir / "h.json", OneApp());
  Result<JobHistory> r = JobHistory::Load(dir / "h.json");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->Find("wordcount")->jobs, 3u);
  EXPECT_EQ(r->Find("wordcount")->map_s_per_unit, 6e-09);
}

TEST(JobHistory, ACorruptFileIsInvalidArgumentNamingTheField) {
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
      {R"({"version": 2, "apps": {}})", "version: 2 is not 1"},
      {R"({"version": "1", "apps": {}})", "version: \"1\" is not 1"},
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

TEST(JobHistory, SaveReplacesTheFileAtomically) {
  ScratchDir dir;
  const fs::path file = dir / "history.json";
  WriteFile(file, "old contents that are not even JSON");
  JobHistory h;
  h.Record(Job({{100, 1.0}}));
  ASSERT_TRUE(h.Save(file).ok());
  Result<JobHistory> back = JobHistory::Load(file);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(back->Find("wordcount")->jobs, 1u);
  // No temporary is left beside it.
  std::vector<std::string> names;
  for (const auto& entry : fs::directory_iterator(dir.path()))
    names.push_back(entry.path().filename().string());
  EXPECT_EQ(names, std::vector<std::string>{"history.json"});
}

TEST(JobHistory, SaveErrorsNameTheFile) {
  ScratchDir dir;
  WriteFile(dir / "plain", "x");
  const fs::path file = dir / "plain" / "history.json";  // its parent is a file
  Status s = JobHistory().Save(file);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), Status::Code::kIoError);
  EXPECT_THAT(s.message(), HasSubstr(file.string()));

  // What Load would refuse is never written.
  JobHistory h;
  AppEstimate e;
  e.map_s_per_unit = std::numeric_limits<double>::quiet_NaN();
  h.Set("wordcount", e);
  s = h.Save(dir / "h.json");
  EXPECT_EQ(s.code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("apps.wordcount.map_s_per_unit"));
  EXPECT_FALSE(fs::exists(dir / "h.json"));
}

TEST(JobHistory, ObserveJobReadsTheDoneTasks) {
  // Map slots 0 (speed 1.0) and 1 (0.5), reduce slot 2 (1.0).
  const ClusterState state =
      testing::MakeCluster(testing::ClusterSlots("1x(1m,1r,1.0)+1x(1m,0r,0.5)"));
  JobState job;
  job.spec.app = "friendcount";
  auto task = [](uint64_t units, SlotId slot, double start_s, double end_s, TaskStatus status) {
    TaskState t;
    t.input_bytes = units;
    t.slot = slot;
    t.start = FromSeconds(start_s);
    t.end = FromSeconds(end_s);
    t.status = status;
    return t;
  };
  job.maps = {task(1000, 0, 0, 1.5, TaskStatus::kDone), task(2000, 1, 0.5, 4.5, TaskStatus::kDone),
              task(500, 0, 0, 0, TaskStatus::kPending)};
  job.reduces = {task(300, 2, 5, 6.25, TaskStatus::kDone)};

  const JobObservation o = ObserveJob(job, state, 4242);
  EXPECT_EQ(o.app, "friendcount");
  EXPECT_EQ(o.input_units, 3500);  // every split, run or not
  EXPECT_EQ(o.shuffle_units, 4242);
  ASSERT_EQ(o.maps.size(), 2u);
  EXPECT_EQ(o.maps[0].units, 1000);
  EXPECT_DOUBLE_EQ(o.maps[0].seconds, 1.5);
  EXPECT_EQ(o.maps[0].speed, 1.0);
  EXPECT_EQ(o.maps[1].units, 2000);
  EXPECT_DOUBLE_EQ(o.maps[1].seconds, 4.0);
  EXPECT_EQ(o.maps[1].speed, 0.5);
  ASSERT_EQ(o.reduces.size(), 1u);
  EXPECT_EQ(o.reduces[0].units, 300);
  EXPECT_DOUBLE_EQ(o.reduces[0].seconds, 1.25);
  EXPECT_EQ(o.reduces[0].speed, 1.0);

  JobHistory h;
  h.Record(o);
  // 1.5 s / 1000 units beats the half-speed map's 2 s of work / 2000 units.
  EXPECT_DOUBLE_EQ(h.Find("friendcount")->map_s_per_unit, 1.5 / 1000);
  ExpectCovered(h, o);
}

}  // namespace
}  // namespace mrlocal
