// The deadline history as a user meets it (issue 21, A1 and B6): a tiny job, or a fifo run
// with --history, does not make a normal job with a comfortable deadline look infeasible;
// `mrlocal history show|reset`; and the --deadline a rejection suggests is accepted when
// followed. Each test has its own history file (--history in a scratch directory).
// Deadlines are minutes where the job takes a fraction of a second, except in the hint
// test, whose point is a sub-second hint.
#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <regex>
#include <string>

#include "datasets/text_generator.h"
#include "sched/core/clock.h"
#include "tests/util/test_util.h"
#include "tools/cli/admission_report.h"
#include "tools/runtime/history_file.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::Contains;
using testing::CountLines;
using testing::ReadFile;
using testing::RunMrlocal;
using testing::ScratchDir;
using testing::WriteFile;

class HistoryCli : public ::testing::Test {
 protected:
  void SetUp() override {
    TextOptions t;
    t.bytes = 4 << 20;  // about the King James Bible of the issue: one map
    t.seed = 21;
    WriteFile(dir_ / "normal.txt", GenerateText(t));
    WriteFile(dir_ / "tiny.txt", "the quick brown fox and\n");  // 24 bytes
  }
  std::string P(const std::string& name) { return (dir_ / name).string(); }
  std::string History() { return P("history.json"); }
  testing::CommandResult Run(std::vector<std::string> args) {
    args.insert(args.end(), {"--history", History()});
    return RunMrlocal(args);
  }
  testing::CommandResult Wordcount(const std::string& input, const std::string& deadline,
                                   std::vector<std::string> more = {}) {
    std::vector<std::string> args = {"wordcount", P(input), "-q", "--deadline", deadline};
    args.insert(args.end(), more.begin(), more.end());
    return Run(args);
  }

  ScratchDir dir_;
};

// The issue's sequence: normal, normal, tiny, then normal with a deadline hundreds of times
// its run time. Before the fit, the tiny job's fixed cost became a cost per byte and the
// last job was estimated at minutes.
TEST_F(HistoryCli, ATinyJobLeavesANormalOneAdmissible) {
  for (const char* input : {"normal.txt", "normal.txt", "tiny.txt"}) {
    auto r = Wordcount(input, "10m");
    ASSERT_EQ(r.exit_code, 0) << input << r.err;
  }
  auto normal = Wordcount("normal.txt", "60s", {"--report", P("rep")});
  EXPECT_EQ(normal.exit_code, 0) << normal.err;
  EXPECT_FALSE(Contains(normal.err, "rejected")) << normal.err;
  EXPECT_FALSE(Contains(normal.err, "probing")) << "the history has seen this size\n" << normal.err;
  EXPECT_TRUE(
      Contains(ReadFile(dir_ / "rep" / "metrics.json"), "\"estimate_source\": \"history\""));
}

TEST_F(HistoryCli, AFifoRunWithHistoryDoesNotPoisonIt) {
  ASSERT_EQ(Wordcount("normal.txt", "10m").exit_code, 0);
  auto fifo = Run({"wordcount", P("tiny.txt"), "-q", "--policy", "fifo"});
  ASSERT_EQ(fifo.exit_code, 0) << fifo.err;
  JobHistory h = LoadHistory(History()).value();
  ASSERT_EQ(h.Find("wordcount")->jobs, 2u) << "fifo with --history records";
  auto normal = Wordcount("normal.txt", "60s");
  EXPECT_EQ(normal.exit_code, 0) << normal.err;
  EXPECT_FALSE(Contains(normal.err, "rejected")) << normal.err;
}

// Pi's maps cost nearly the same at 100 samples as at 10^7: a history of 100-sample maps
// cannot tell, and the job is probed at its own size rather than estimated at 10^5 times
// the small one's cost.
TEST_F(HistoryCli, APiOfAHundredSamplesLeavesABigOneAdmissible) {
  auto small = Run({"pi", "1", "100", "-q", "--deadline", "10m"});
  ASSERT_EQ(small.exit_code, 0) << small.err;
  auto big = Run({"pi", "4", "10000000", "--deadline", "30s"});
  EXPECT_EQ(big.exit_code, 0) << big.err;
  EXPECT_TRUE(Contains(big.err,
                       "pi's history has no map near this job's size (10000000 units): "
                       "probing 2 maps of 1000000 samples"))
      << big.err;
  EXPECT_TRUE(Contains(big.err, "admitted by rtmr")) << big.err;
  // Recorded, the big job's size is known: no probe the next time.
  auto again = Run({"pi", "4", "10000000", "--deadline", "30s"});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_FALSE(Contains(again.err, "probing")) << again.err;
  EXPECT_TRUE(Contains(again.err, "history estimates from 2 jobs")) << again.err;
}

TEST_F(HistoryCli, ShowSaysWhatEachEstimateRestsOn) {
  auto none = Run({"history", "show"});
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(none.out, "no history file at " + History() + ": nothing to show\n");
  ASSERT_EQ(Wordcount("normal.txt", "10m").exit_code, 0);
  ASSERT_EQ(Wordcount("tiny.txt", "10m").exit_code, 0);
  auto show = Run({"history", "show"});
  EXPECT_EQ(show.exit_code, 0) << show.err;
  EXPECT_TRUE(Contains(show.out, "history file " + History() + " (version 3)\n")) << show.out;
  EXPECT_TRUE(Contains(show.out, "wordcount: 2 jobs (history)\n")) << show.out;
  EXPECT_TRUE(std::regex_search(show.out, std::regex("  map +[0-9.e+-]+ s \\+ [0-9.e+-]+ s/unit, "
                                                     "fitted to 2 tasks of 24 to 4194304 units")))
      << show.out;
  EXPECT_TRUE(Contains(show.out, "  reduce ")) << show.out;
  EXPECT_TRUE(Contains(show.out, "fitted to 2 jobs of 24 to 4194304 units")) << show.out;
  auto one = Run({"history", "show", "wordcount"});
  EXPECT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(one.out, show.out);
  auto missing = Run({"history", "show", "pi"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err,
            "mrlocal: error: no history for app 'pi' in " + History() + " (apps: wordcount)\n");
}

TEST_F(HistoryCli, ResetForgetsOneAppOrRemovesTheFile) {
  ASSERT_EQ(Wordcount("normal.txt", "10m").exit_code, 0);
  ASSERT_EQ(Run({"pi", "2", "1000", "-q", "--deadline", "10m"}).exit_code, 0);
  auto pi = Run({"history", "reset", "pi"});
  EXPECT_EQ(pi.exit_code, 0) << pi.err;
  EXPECT_EQ(pi.out, "forgot pi (1 job) in " + History() + "\n");
  JobHistory h = LoadHistory(History()).value();
  EXPECT_EQ(h.Find("pi"), nullptr);
  ASSERT_NE(h.Find("wordcount"), nullptr) << "the other app is kept";
  EXPECT_EQ(h.Find("wordcount")->jobs, 1u);
  auto again = Run({"history", "reset", "pi"});
  EXPECT_EQ(again.exit_code, 0) << again.err;
  EXPECT_TRUE(Contains(again.out, "nothing to reset")) << again.out;

  auto all = Run({"history", "reset"});
  EXPECT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(all.out, "removed history file " + History() + "\n");
  EXPECT_FALSE(fs::exists(History()));
  // The next deadline job starts afresh.
  auto fresh = Run({"wordcount", P("normal.txt"), "--deadline", "10m"});
  EXPECT_TRUE(Contains(fresh.err, "no history for wordcount: probing")) << fresh.err;
}

TEST_F(HistoryCli, ResetRemovesOnlyAFileThatIsMrlocalsHistory) {
  WriteFile(History(), "my notes, not a history\n");
  for (std::vector<std::string> args : {std::vector<std::string>{"history", "reset"},
                                        std::vector<std::string>{"history", "reset", "pi"}}) {
    auto r = Run(args);
    EXPECT_EQ(r.exit_code, 2) << r.out;
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
    EXPECT_TRUE(Contains(r.err, "is corrupt")) << r.err;
    EXPECT_EQ(ReadFile(History()), "my notes, not a history\n");
  }
  EXPECT_TRUE(Contains(Run({"history", "reset"}).err, "not removed")) << "says it kept the file";
}

TEST_F(HistoryCli, AnEmptyHistoryPathIsAnErrorNotTheDefaultFile) {
  for (const char* action : {"show", "reset"}) {
    auto r = RunMrlocal({"history", action, "--history", ""});
    EXPECT_EQ(r.exit_code, 2) << action;
    EXPECT_EQ(CountLines(r.err), 1) << r.err;
    EXPECT_TRUE(Contains(r.err, "--history: must not be empty")) << r.err;
  }
}

// The set-up time a job command reports on stderr ("set-up took 9.9 ms", "passed during
// set-up (17.6 ms)"), in milliseconds; none when it says none.
std::optional<double> SetUpMs(const std::string& err) {
  static const std::regex kSetUp(R"(set-up(?: took | \()([0-9.]+) (ms|s)\b)");
  std::smatch m;
  if (!std::regex_search(err, m, kSetUp)) return std::nullopt;
  return std::stod(m[1].str()) * (m[2].str() == "s" ? 1e3 : 1.0);
}

// The helper above reads both ways a job command reports its set-up.
TEST(SetUpMs, ReadsBothForms) {
  EXPECT_EQ(SetUpMs("mrlocal: set-up took 9.9 ms of the 40.0 ms deadline"), 9.9);
  EXPECT_EQ(SetUpMs("rejected: the 5.0 ms deadline passed during set-up (17.6 ms)"), 17.6);
  EXPECT_EQ(SetUpMs("mrlocal: set-up took 1.2 s of the 3.0 s deadline"), 1200.0);
  EXPECT_EQ(SetUpMs("no such line"), std::nullopt);
}

// B6: the --deadline a rejection suggests leaves room for the next run's set-up, so that
// following it is admitted. Each round seeds the same history (a recorded run would
// change the estimate): four maps of 60 ms on one map slot, × 1.5, about 0.4 s.
TEST_F(HistoryCli, FollowingARejectionsHintIsAdmitted) {
  TextOptions t;
  t.bytes = 1 << 20;
  t.seed = 6;
  WriteFile(dir_ / "in.txt", GenerateText(t));
  auto seed = [&] {
    JobHistory h;
    h.Set("wordcount", {.model = {.map_fixed_s = 0.06}, .jobs = 3});
    ASSERT_TRUE(SaveHistory(h, History()).ok());
  };
  const std::regex hint("feasible with --deadline ([0-9]+ms)");
  for (int round = 0; round < 4; ++round) {
    SCOPED_TRACE(round);
    seed();
    auto rejected =
        Wordcount("in.txt", "100ms", {"--block-size", "256KiB", "--cluster", "1x(1m,1r,1.0)"});
    ASSERT_EQ(rejected.exit_code, 4) << rejected.err;
    std::smatch m;
    ASSERT_TRUE(std::regex_search(rejected.err, m, hint)) << rejected.err;
    seed();
    auto followed =
        Wordcount("in.txt", m[1].str(), {"--block-size", "256KiB", "--cluster", "1x(1m,1r,1.0)"});
    // Admitted and finished; whether it then meets the deadline is the machine's business
    // (under ThreadSanitizer it runs several times slower than its history says: exit 3).
    // The hint leaves room for a set-up up to 1.5x the rejected run's + kSetUpJitter; on
    // a loaded machine the second set-up may take longer still, and then (only then) a
    // rejection is the right answer.
    if (Contains(followed.err, "rejected")) {
      const std::optional<double> first = SetUpMs(rejected.err), second = SetUpMs(followed.err);
      ASSERT_TRUE(first && second) << rejected.err << followed.err;
      EXPECT_GT(*second, *first * 1.5 + Seconds(kSetUpJitter) * 1e3)
          << "following the hint was rejected although set-up took no longer than it allows\n"
          << rejected.err << followed.err;
      continue;
    }
    EXPECT_TRUE(followed.exit_code == 0 || followed.exit_code == 3)
        << "--deadline " << m[1].str() << "\n"
        << followed.err;
  }
}

}  // namespace
}  // namespace mrlocal
