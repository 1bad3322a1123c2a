// The single-job deadline path as a user runs it: admission by rtmr before any task runs,
// the first-run probe, the history file (updated by finished jobs only, a corrupt one set
// aside), rejections that write nothing, --best-effort, bad deadlines. No assertion depends
// on how long anything takes: rejections come from seeded histories or a deadline shorter
// than any set-up.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <set>

#include "datasets/text_generator.h"
#include "tests/util/test_util.h"
#include "tools/runtime/history_file.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::Contains;
using testing::EntryNames;
using testing::ReadFile;
using testing::RunMrlocal;
using testing::ScratchDir;
using testing::WriteFile;

class DeadlineCli : public ::testing::Test {
 protected:
  void SetUp() override {
    TextOptions t;
    t.bytes = 1 << 20;
    t.vocabulary = 5000;
    t.seed = 11;
    text_ = GenerateText(t);
    WriteFile(dir_ / "in.txt", text_);
  }
  std::string P(const std::string& name) { return (dir_ / name).string(); }
  std::string History() { return P("history.json"); }
  // A wordcount job with a deadline, its history in the scratch dir.
  testing::CommandResult Wordcount(std::vector<std::string> more) {
    std::vector<std::string> args = {"wordcount", P("in.txt"), "--block-size",
                                     "256KiB",    "--history", History()};
    args.insert(args.end(), more.begin(), more.end());
    return RunMrlocal(args);
  }
  const AppEstimate* Estimate(JobHistory& h, const std::string& app) {
    auto loaded = LoadHistory(History());
    EXPECT_TRUE(loaded.ok()) << loaded.status().message();
    if (!loaded.ok()) return nullptr;
    h = std::move(loaded).value();
    return h.Find(app);
  }
  // Every map task of wordcount estimated at 10 s on a slot of speed 1.0, nothing else.
  void SeedTenSecondMaps() {
    JobHistory h;
    AppEstimate e;
    e.model.map_fixed_s = 10;
    e.jobs = 3;
    h.Set("wordcount", e);
    ASSERT_TRUE(SaveHistory(h, History()).ok());
  }

  ScratchDir dir_;
  std::string text_;
};

TEST_F(DeadlineCli, FirstRunProbesThenTheHistoryIsUsedAndUpdated) {
  auto first = Wordcount({"--deadline", "10m", "-o", P("out"), "--report", P("rep")});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_TRUE(Contains(first.err, "no history for wordcount: probing a 1.0 MiB sample"))
      << first.err;
  EXPECT_TRUE(Contains(first.err, "admitted by rtmr: estimated finish")) << first.err;
  EXPECT_TRUE(Contains(first.err, "first-run probe")) << first.err;
  EXPECT_TRUE(Contains(first.err, "history: wordcount updated in " + History())) << first.err;
  EXPECT_TRUE(Contains(first.out, "MET with")) << first.out;
  EXPECT_TRUE(Contains(first.out, "admission rtmr estimated")) << first.out;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "_SUCCESS"));
  std::map<std::string, std::string> want;
  for (auto& [k, v] : testing::ReferenceWordCount(text_)) want[k] = std::to_string(v);
  EXPECT_EQ(testing::ReadJobOutput(dir_ / "out"), want);
  const std::string m = ReadFile(dir_ / "rep" / "metrics.json");
  for (const char* key :
       {"\"policy\": \"rtmr\"", "\"admission_policy\": \"rtmr\"", "\"admitted\": true",
        "\"best_effort\": false", "\"estimated_finish_s\"", "\"estimate_source\": \"probe\"",
        "\"setup_s\"", "\"met_deadline\": true"})
    EXPECT_TRUE(Contains(m, key)) << key << "\n" << m;
  // The file holds the real job, not the probe.
  JobHistory h;
  const AppEstimate* e = Estimate(h, "wordcount");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->source, "history");
  EXPECT_EQ(e->jobs, 1u);

  auto second = Wordcount({"--deadline", "10m", "-q"});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_FALSE(Contains(second.err, "probing")) << second.err;
  EXPECT_TRUE(Contains(second.out, "estimated")) << second.out;
  EXPECT_TRUE(Contains(second.out, "from history")) << second.out;
  e = Estimate(h, "wordcount");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->jobs, 2u);
}

TEST_F(DeadlineCli, ARejectedJobWritesNothingAndSaysWhatWouldFit) {
  SeedTenSecondMaps();
  const std::string before = ReadFile(History());
  // Four maps of 10 s × the 1.5 margin of real runs on one map slot: 60 s; with one more
  // node, 30 s.
  auto r = Wordcount(
      {"--deadline", "35s", "--cluster", "1x(1m,1r,1.0)", "-o", P("out"), "--report", P("rep")});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_TRUE(Contains(r.err, "rejected by rtmr: estimated finish 60.00 s after submission"))
      << r.err;
  EXPECT_TRUE(Contains(r.err, "history estimates from 3 jobs, x1.5 margin")) << r.err;
  EXPECT_TRUE(Contains(r.err, "feasible with --deadline 6")) << r.err;
  EXPECT_TRUE(Contains(r.err, "or 1 more node of (1m,1r,1.0)")) << r.err;
  EXPECT_TRUE(Contains(r.err, "--best-effort")) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(EntryNames(dir_.path()), (std::set<std::string>{"in.txt", "history.json"}))
      << "no output, no report, no temporary directory";
  EXPECT_EQ(ReadFile(History()), before);

  // -q does not hide a rejection.
  auto quiet = Wordcount({"--deadline", "35s", "--cluster", "1x(1m,1r,1.0)", "-q"});
  EXPECT_EQ(quiet.exit_code, 4);
  EXPECT_TRUE(Contains(quiet.err, "rejected by rtmr")) << quiet.err;
}

TEST_F(DeadlineCli, ADeadlineThatPassesDuringSetUpIsARejection) {
  auto r = Wordcount({"--deadline", "1us", "-o", P("out")});
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_TRUE(Contains(r.err, "rejected: the 1 us deadline passed during set-up")) << r.err;
  EXPECT_EQ(EntryNames(dir_.path()), (std::set<std::string>{"in.txt"})) << "no output, no history";
}

TEST_F(DeadlineCli, BestEffortRunsARejectedJobUnderFifo) {
  SeedTenSecondMaps();
  auto r = Wordcount({"--deadline", "25s", "--cluster", "1x(1m,1r,1.0)", "-o", P("out"),
                      "--best-effort", "--report", P("rep")});
  // Met or missed: that is the machine's business.
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 3) << r.exit_code << r.err;
  EXPECT_TRUE(Contains(r.err, "rejected by rtmr")) << r.err;
  EXPECT_TRUE(Contains(r.err, "--best-effort: running it anyway under fifo")) << r.err;
  EXPECT_TRUE(Contains(r.out, "run under fifo with no guarantee")) << r.out;
  EXPECT_TRUE(Contains(r.out, "deadline 25.00 s")) << r.out;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "_SUCCESS"));
  const std::string m = ReadFile(dir_ / "rep" / "metrics.json");
  for (const char* key : {"\"policy\": \"fifo\"", "\"admission_policy\": \"rtmr\"",
                          "\"admitted\": false", "\"best_effort\": true"})
    EXPECT_TRUE(Contains(m, key)) << key << "\n" << m;
  JobHistory h;
  const AppEstimate* e = Estimate(h, "wordcount");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->jobs, 4u) << "a job that ran to its end is history";
}

TEST_F(DeadlineCli, ACorruptHistoryIsIgnoredAndKeptAside) {
  WriteFile(History(), "{\"version\": 1, \"apps\": ");
  auto r = Wordcount({"--deadline", "10m", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.err, "warning: history file '" + History() + "' is corrupt (")) << r.err;
  EXPECT_TRUE(Contains(r.err, "): ignored")) << r.err;
  EXPECT_TRUE(Contains(r.err, "kept as '" + History() + ".corrupt'")) << r.err;
  EXPECT_EQ(ReadFile(History() + ".corrupt"), "{\"version\": 1, \"apps\": ");
  JobHistory h;
  const AppEstimate* e = Estimate(h, "wordcount");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->jobs, 1u);
}

TEST_F(DeadlineCli, UnusableHistoriesAndDeadlinesAreOneLineErrors) {
  fs::create_directory(dir_ / "hdir");
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  std::vector<Case> cases = {
      {{"--deadline", "10m", "--history", P("hdir")}, "hdir"},
      {{"--deadline", "0"}, "--deadline"},
      {{"--deadline", "-3s"}, "positive"},
      {{"--deadline", "abc"}, "--deadline"},
      {{"--deadline", ""}, "--deadline: must be a positive duration"},
      {{"--deadline", "10m", "--policy", "nope"}, "nope"},
  };
  for (auto& c : cases) {
    std::vector<std::string> args = {"wordcount", P("in.txt"), "-o", P("out")};
    args.insert(args.end(), c.args.begin(), c.args.end());
    if (c.says != "hdir") args.insert(args.end(), {"--history", History()});
    auto r = RunMrlocal(args);
    EXPECT_EQ(r.exit_code, 2) << c.args[1] << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(Contains(r.err, "error")) << r.err;
    EXPECT_TRUE(Contains(r.err, c.says)) << r.err;
  }
  EXPECT_EQ(EntryNames(dir_.path()), (std::set<std::string>{"in.txt", "hdir"}));
  EXPECT_TRUE(fs::is_empty(dir_ / "hdir"));
}

TEST_F(DeadlineCli, PiWithADeadlineProbesOnceThenUsesItsHistory) {
  auto first = RunMrlocal({"pi", "4", "1000", "--deadline", "10m", "--history", History()});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_TRUE(Contains(first.err, "no history for pi: probing 2 maps of 1000 samples"))
      << first.err;
  EXPECT_TRUE(Contains(first.err, "pi (4 maps, 1 reduce) admitted by rtmr")) << first.err;
  EXPECT_TRUE(Contains(first.out, "Estimated value of Pi is 3.14")) << first.out;
  auto second = RunMrlocal({"pi", "4", "1000", "--deadline", "10m", "--history", History()});
  ASSERT_EQ(second.exit_code, 0) << second.err;
  EXPECT_FALSE(Contains(second.err, "probing")) << second.err;
  JobHistory h;
  const AppEstimate* e = Estimate(h, "pi");
  ASSERT_NE(e, nullptr);
  EXPECT_EQ(e->jobs, 2u);
}

TEST_F(DeadlineCli, OnlyDeadlinePoliciesUseTheDefaultHistory) {
  // The default file follows $MRLOCAL_HISTORY (test_util gives every child one otherwise).
  const char* old = std::getenv("MRLOCAL_HISTORY");
  const std::string saved = old ? old : "";
  setenv("MRLOCAL_HISTORY", P("default.json").c_str(), 1);
  auto fifo = RunMrlocal({"wordcount", P("in.txt"), "-q", "--deadline", "10m", "--policy", "fifo"});
  auto none = RunMrlocal({"wordcount", P("in.txt"), "-q"});
  const bool untouched = !fs::exists(dir_ / "default.json");
  auto rtmr = RunMrlocal({"wordcount", P("in.txt"), "-q", "--deadline", "10m"});
  if (old)
    setenv("MRLOCAL_HISTORY", saved.c_str(), 1);
  else
    unsetenv("MRLOCAL_HISTORY");
  EXPECT_EQ(fifo.exit_code, 0) << fifo.err;
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_TRUE(untouched) << "fifo neither reads nor writes the history";
  EXPECT_EQ(rtmr.exit_code, 0) << rtmr.err;
  EXPECT_TRUE(fs::exists(dir_ / "default.json"));
}

}  // namespace
}  // namespace mrlocal
