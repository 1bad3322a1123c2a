// --estimator knn as a user meets it: a deadline job learns its tasks into the history
// file, `history show` counts them and `history reset APP` forgets them; the option is
// refused for a policy that estimates nothing; and a history file whose kNN section has
// the wrong types stops a kNN run with one line naming the file and the field, the file
// left as it was.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/util/test_util.h"
#include "tools/runtime/history_file.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::Contains;
using testing::ReadFile;
using testing::RunMrlocal;
using testing::ScratchDir;
using testing::WriteFile;

constexpr const char* kOneNode = "1x(1m,1r,1.0)";

class KnnCli : public ::testing::Test {
 protected:
  void SetUp() override { WriteFile(dir_ / "in.txt", "the quick brown fox\njumps over the dog\n"); }
  std::string History() { return (dir_ / "history.json").string(); }
  testing::CommandResult Wordcount(std::vector<std::string> more = {}) {
    std::vector<std::string> args = {
        "wordcount", (dir_ / "in.txt").string(), "-q", "--cluster", kOneNode, "--history",
        History()};
    args.insert(args.end(), more.begin(), more.end());
    return RunMrlocal(args);
  }
  static void ExpectUsageError(const testing::CommandResult& r, const std::string& line) {
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_EQ(r.err, "mrlocal: error: " + line + "\n");
  }

  ScratchDir dir_;
};

TEST_F(KnnCli, ADeadlineJobLearnsItsTasksAndResetForgetsThem) {
  for (int run = 1; run <= 2; ++run) {
    auto r = Wordcount({"--deadline", "10m", "--estimator", "knn"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  auto loud = RunMrlocal({"wordcount", (dir_ / "in.txt").string(), "--cluster", kOneNode,
                          "--history", History(), "--deadline", "10m", "--estimator", "knn"});
  ASSERT_EQ(loud.exit_code, 0) << loud.err;
  EXPECT_TRUE(Contains(loud.err,
                       "(kNN estimates from the history's task observations, x1.5 "
                       "margin)"))
      << loud.err;
  Result<HistoryContents> h = LoadHistoryFile(History());
  ASSERT_TRUE(h.ok()) << h.status().message();
  const KnnAppObservations& o = h->knn.at("wordcount");
  ASSERT_EQ(o.maps.size(), 3u);
  EXPECT_EQ(o.maps[0].units, 39);
  EXPECT_EQ(o.maps[0].slot_speed, 1.0);
  EXPECT_EQ(o.reduces.size(), 3u);
  auto show = RunMrlocal({"history", "show", "--history", History()});
  EXPECT_EQ(show.exit_code, 0) << show.err;
  EXPECT_TRUE(Contains(show.out,
                       "  knn      3 maps, 3 reduces observed (at most 256 of each "
                       "kept)\n"))
      << show.out;
  auto reset = RunMrlocal({"history", "reset", "wordcount", "--history", History()});
  EXPECT_EQ(reset.exit_code, 0) << reset.err;
  EXPECT_TRUE(LoadHistoryFile(History())->knn.empty());
}

TEST_F(KnnCli, TheOptionAppliesToEstimatingPoliciesOnly) {
  ExpectUsageError(
      Wordcount({"--estimator", "knn"}),
      "--estimator applies to --policy llf | adaptive | reverse-adaptive | rtmr | rtmr-nofb | dc "
      "only");
  ExpectUsageError(
      RunMrlocal({"workload", "--preset", "mars-random", "--sim", "--estimator", "knn"}),
      "--estimator applies to --policy llf | adaptive | reverse-adaptive | rtmr | rtmr-nofb | dc "
      "only");
  EXPECT_FALSE(fs::exists(History()));
}

TEST_F(KnnCli, ASimulatedWorkloadLearnsFromItsTasks) {
  auto r = RunMrlocal({"workload", "--preset", "rtmr-wl1", "--sim", "--policy", "rtmr",
                       "--estimator", "knn", "-q"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "rtmr")) << r.out;
}

TEST_F(KnnCli, AKnnSectionOfTheWrongTypeIsAnErrorAndTheFileIsKept) {
  const std::string bad =
      R"({"version": 3, "apps": {}, "knn": {"wordcount": {"maps": [[39, "fast", 0, 0.1]]}}})";
  WriteFile(History(), bad);
  const std::string what = "history file '" + History() +
                           "' is corrupt: knn.wordcount.maps.0: not [units, slot speed, node "
                           "tasks, seconds]";
  ExpectUsageError(Wordcount({"--deadline", "10m", "--estimator", "knn"}), "--history: " + what);
  ExpectUsageError(RunMrlocal({"history", "show", "--history", History()}), what);
  EXPECT_EQ(ReadFile(History()), bad);
}

}  // namespace
}  // namespace mrlocal
