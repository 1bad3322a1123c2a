// Jobs charged to a queues file (issue 17, the single-job path): each run of a job under
// dynprio pays from its queue's budget, the file holds what is left, and what the runs said
// they paid adds up to what the file lost, to the micro-credit.
#include <gtest/gtest.h>

#include <regex>
#include <string>

#include "datasets/workload_spec.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::ReadFile;
using testing::RunMrlocal;
using testing::ScratchDir;
using testing::WriteFile;

// "queue q1: paid 7.906477 credits ..." -> micro-credits.
MicroCredits PaidMicro(const std::string& out) {
  std::smatch m;
  EXPECT_TRUE(std::regex_search(out, m, std::regex(R"(queue q1: paid ([0-9.]+) credits)"))) << out;
  return m.empty() ? 0 : ToMicroCredits(std::stod(m[1]));
}

MicroCredits BudgetMicro(const std::string& file) {
  auto queues = ParseQueueListJson(ReadFile(file), file);
  EXPECT_TRUE(queues.ok());
  return queues.ok() ? ToMicroCredits(*queues->front().budget) : 0;
}

TEST(QueuesCli, EachRunPaysFromItsQueuesBudgetAndTheFileHoldsTheRest) {
  ScratchDir dir;
  const std::string file = (dir / "queues.json").string();
  WriteFile(file, R"([{"name": "q1", "budget": 1000, "rate": 3}, {"name": "q2", "rate": 1}])");
  MicroCredits paid = 0;
  for (int run = 0; run < 2; ++run) {
    auto r = RunMrlocal({"pi", "4", "2000000", "-q", "--policy", "dynprio", "--queues", file,
                         "--queue", "q1", "--allocation-interval", "100ms"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const MicroCredits p = PaidMicro(r.out);
    EXPECT_GT(p, 0);
    paid += p;
    EXPECT_EQ(BudgetMicro(file), 1000'000'000 - paid) << r.out;
  }
}

TEST(QueuesCli, BadQueuesAreRefusedInOneLineAndTheFileIsUntouched) {
  ScratchDir dir;
  const std::string file = (dir / "queues.json").string();
  const std::string text = R"([{"name": "q1", "budget": 10}])";
  WriteFile(file, text);
  struct Case {
    std::vector<std::string> args;
    std::string error;
  };
  const std::vector<Case> cases = {
      {{"--policy", "dynprio", "--queues", file, "--queue", "q9"},
       "--queue q9: no such queue in " + file + " (its queues: q1)"},
      {{"--policy", "dynprio", "--queues", file},
       "--queue default: no such queue in " + file + " (its queues: q1); name the job's with --queue"},
      {{"--policy", "fifo", "--queues", file, "--queue", "q1"},
       "--queue applies to --policy dynprio | capacity only"},
      {{"--policy", "dynprio", "--queues", (dir / "missing.json").string()},
       "--queues: cannot read '" + (dir / "missing.json").string() + "': No such file or directory"},
  };
  for (const Case& c : cases) {
    std::vector<std::string> args = {"pi", "2", "1000", "-q"};
    args.insert(args.end(), c.args.begin(), c.args.end());
    auto r = RunMrlocal(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "mrlocal: error: " + c.error + "\n");
  }
  EXPECT_EQ(ReadFile(file), text);
}

}  // namespace
}  // namespace mrlocal
