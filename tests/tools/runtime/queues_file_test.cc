// The queues file of the single-job path (tools/runtime/queues_file.h): budgets written
// back exactly as spent, only what was spent since the last charge, onto the file as it is
// now (another run's charges kept), and a corrupt file never trusted nor overwritten.
#include "tools/runtime/queues_file.h"

#include <gtest/gtest.h>

#include <filesystem>

#include "datasets/workload_spec.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::ReadFile;
using testing::ScratchDir;
using testing::WriteFile;

QueueLedger Spent(std::vector<std::pair<std::string, MicroCredits>> spent) {
  QueueLedger ledger;
  for (auto& [name, micro] : spent) {
    QueueAccount a;
    a.name = name;
    a.spent = micro;
    ledger.accounts.push_back(a);
  }
  return ledger;
}

std::optional<double> BudgetOf(const fs::path& file, const std::string& name) {
  auto queues = ParseQueueListJson(ReadFile(file), file.string());
  EXPECT_TRUE(queues.ok()) << queues.status().message();
  for (const QueueSpec& q : *queues)
    if (q.name == name) return q.budget;
  return std::nullopt;
}

TEST(QueuesFile, TheWriterRoundTripsEveryQueueExactly) {
  std::vector<QueueSpec> queues = {{"q1", 1000.123456, 2.5}, {"a \"quoted\" name", std::nullopt, 0},
                                   {"big", kMaxCredits, 1e-6}};
  auto back = ParseQueueListJson(QueueListJson(queues), "q.json");
  ASSERT_TRUE(back.ok()) << back.status().message();
  ASSERT_EQ(back->size(), 3u);
  for (size_t i = 0; i < queues.size(); ++i) {
    EXPECT_EQ((*back)[i].name, queues[i].name);
    EXPECT_EQ((*back)[i].budget.has_value(), queues[i].budget.has_value());
    if (queues[i].budget) {
      EXPECT_EQ(ToMicroCredits(*(*back)[i].budget), ToMicroCredits(*queues[i].budget));
    }
    EXPECT_EQ((*back)[i].rate, queues[i].rate);
  }
}

TEST(QueuesFile, ChargesTakeWhatWasSpentSinceTheLastOneOffTheBudget) {
  ScratchDir dir;
  const fs::path file = dir / "q.json";
  WriteFile(file, R"([{"name": "q1", "budget": 100, "rate": 2}, {"name": "q2", "rate": 1}])");
  auto q = QueuesFile::Open(file);
  ASSERT_TRUE(q.ok()) << q.status().message();
  ASSERT_TRUE(q->Charge(Spent({{"q1", 1'500'000}, {"q2", 7'000'000}})).ok());
  EXPECT_EQ(ToMicroCredits(*BudgetOf(file, "q1")), 98'500'000);
  EXPECT_FALSE(BudgetOf(file, "q2").has_value());  // no budget: no limit, nothing taken
  // The ledger's totals grow: only the growth is charged.
  ASSERT_TRUE(q->Charge(Spent({{"q1", 2'000'001}})).ok());
  EXPECT_EQ(ToMicroCredits(*BudgetOf(file, "q1")), 97'999'999);
  // Spending past the budget leaves it at 0, never below.
  ASSERT_TRUE(q->Charge(Spent({{"q1", 500'000'000}})).ok());
  EXPECT_EQ(ToMicroCredits(*BudgetOf(file, "q1")), 0);
}

TEST(QueuesFile, AnotherRunsChargeMadeMeanwhileIsKept) {
  ScratchDir dir;
  const fs::path file = dir / "q.json";
  WriteFile(file, R"([{"name": "q1", "budget": 100}, {"name": "q2", "budget": 50}])");
  auto mine = QueuesFile::Open(file);
  auto theirs = QueuesFile::Open(file);
  ASSERT_TRUE(mine.ok() && theirs.ok());
  ASSERT_TRUE(theirs->Charge(Spent({{"q1", 10'000'000}, {"q2", 5'000'000}})).ok());
  ASSERT_TRUE(mine->Charge(Spent({{"q1", 20'000'000}})).ok());
  EXPECT_EQ(ToMicroCredits(*BudgetOf(file, "q1")), 70'000'000);
  EXPECT_EQ(ToMicroCredits(*BudgetOf(file, "q2")), 45'000'000);
}

TEST(QueuesFile, ACorruptFileIsRefusedAndLeftAsItIs) {
  ScratchDir dir;
  const fs::path file = dir / "q.json";
  WriteFile(file, R"([{"name": "q1", "budget": -5}])");
  auto q = QueuesFile::Open(file);
  ASSERT_FALSE(q.ok());
  EXPECT_EQ(q.status().message(), file.string() + ": [0].budget: must be a number of credits "
                                                  "from 0 to 1000000000000 (got -5)");
  // Corrupted while a run charges it: the charge fails and the file is not replaced.
  WriteFile(file, R"([{"name": "q1", "budget": 5}])");
  auto ok = QueuesFile::Open(file);
  ASSERT_TRUE(ok.ok());
  WriteFile(file, "[{\"name\": \"q1\", \"bud");
  EXPECT_FALSE(ok->Charge(Spent({{"q1", 1'000'000}})).ok());
  EXPECT_EQ(ReadFile(file), "[{\"name\": \"q1\", \"bud");
  EXPECT_EQ(std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator()), 1);
}

TEST(QueuesFile, NothingSpentWritesNothing) {
  ScratchDir dir;
  const fs::path file = dir / "q.json";
  const std::string text = R"([{"name": "q1", "budget": 100}])";
  WriteFile(file, text);
  auto q = QueuesFile::Open(file);
  ASSERT_TRUE(q.ok());
  ASSERT_TRUE(q->Charge(Spent({{"q1", 0}})).ok());
  EXPECT_EQ(ReadFile(file), text);  // byte for byte: the user's own formatting kept
}

}  // namespace
}  // namespace mrlocal
