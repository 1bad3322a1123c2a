// The report of a proportional-share run (sched/report/queue_report.h): queues.csv's lines
// add up to each queue's statement, and the charts draw what the ledger holds: budgets
// falling by each interval's charge, the price, shares summing to the whole, each job's
// completion time, and with many queues a readable spread of them.
#include "sched/report/queue_report.h"

#include <gtest/gtest.h>

#include <map>
#include <sstream>

namespace mrlocal {
namespace {

// q1 (budget 100, bid 2) and q2 (no limit, bid 1) over three 20 s intervals, q1 using 4
// slots and q2 2 throughout; q1 pays 2 x 80 / 20 = 8 an interval.
QueueLedger TwoQueues() {
  QueueLedger ledger;
  ledger.interval_s = 20;
  QueueAccount q1, q2;
  q1.name = "q1", q1.opening = ToMicroCredits(100), q1.rate = 2;
  q2.name = "q2", q2.unlimited = true, q2.rate = 1;
  ledger.accounts = {q1, q2};
  for (int i = 0; i < 3; ++i) {
    QueueInterval iv{FromSeconds(20 * i), FromSeconds(20 * (i + 1)), 3, {}};
    QueueCharge a{0, 2, 4, 0, 80, 80, 80, ToMicroCredits(8), 0, {}};
    ledger.accounts[0].spent += a.charge;
    a.balance = ledger.accounts[0].balance();
    QueueCharge b{1, 1, 2, 0, 40, 40, 40, ToMicroCredits(2), 0, {}};
    ledger.accounts[1].spent += b.charge;
    iv.lines = {a, b};
    ledger.intervals.push_back(iv);
  }
  return ledger;
}

std::map<std::string, LineChart> Charts(const QueueLedger& ledger,
                                        const std::vector<JobMetrics>& jobs = {}) {
  std::map<std::string, LineChart> out;
  for (auto& [file, chart] : QueueCharts(ledger, jobs, "run")) out[file] = chart;
  return out;
}

TEST(QueueReport, TheCsvLinesAddUpToEachQueuesStatement) {
  const QueueLedger ledger = TwoQueues();
  std::istringstream csv(QueuesCsv(ledger));
  std::string line;
  std::getline(csv, line);
  EXPECT_EQ(line,
            "interval_start_s,interval_end_s,price,queue,rate,entitled_map_slots,"
            "entitled_reduce_slots,used_slot_s,paid_slot_s,entitled_slot_s,charge,balance");
  std::getline(csv, line);
  EXPECT_EQ(line, "0.000000,20.000000,3.000000,q1,2.000000,4,0,80.000000,80.000000,80.000000,"
                  "8.000000,92.000000");
  std::getline(csv, line);
  EXPECT_EQ(line, "0.000000,20.000000,3.000000,q2,1.000000,2,0,40.000000,40.000000,40.000000,"
                  "2.000000,");  // no limit: no balance
  EXPECT_EQ(ledger.accounts[0].balance(), ToMicroCredits(76));
}

TEST(QueueReport, TheBudgetChartFallsByEachChargeAndLeavesUnlimitedQueuesOut) {
  auto charts = Charts(TwoQueues());
  ASSERT_TRUE(charts.count("queues-budget.svg"));
  const LineChart& budget = charts["queues-budget.svg"];
  ASSERT_EQ(budget.series.size(), 1u);
  EXPECT_EQ(budget.series[0].name, "q1");
  std::vector<double> ys;
  for (const LinePoint& p : budget.series[0].points) ys.push_back(p.y);
  EXPECT_EQ(ys, (std::vector<double>{100, 92, 84, 76}));  // % of 100 credits
  EXPECT_TRUE(LineChartSvg(budget).ok());
}

TEST(QueueReport, ThePriceChartDrawsThePriceAndEachBid) {
  auto charts = Charts(TwoQueues());
  const LineChart& price = charts["queues-price.svg"];
  ASSERT_EQ(price.series.size(), 3u);
  EXPECT_EQ(price.series[0].name, "price (sum of bids)");
  for (const LinePoint& p : price.series[0].points) EXPECT_EQ(p.y, 3);
  for (const LinePoint& p : price.series[1].points) EXPECT_EQ(p.y, 2);
}

TEST(QueueReport, SharesOfEachIntervalSumToTheWhole) {
  auto charts = Charts(TwoQueues());
  const LineChart& share = charts["queues-share.svg"];
  ASSERT_EQ(share.series.size(), 2u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_NEAR(share.series[0].points[i].y, 100.0 * 2 / 3, 1e-9);
    EXPECT_NEAR(share.series[0].points[i].y + share.series[1].points[i].y, 100, 1e-9);
  }
}

TEST(QueueReport, EachCompletedJobIsAPointOfItsQueue) {
  std::vector<JobMetrics> jobs(3);
  jobs[0].queue = "q1", jobs[0].status = "succeeded", jobs[0].arrival_s = 0, jobs[0].finish_s = 30;
  jobs[1].queue = "q2", jobs[1].status = "succeeded", jobs[1].arrival_s = 5, jobs[1].finish_s = 50;
  jobs[2].queue = "q2", jobs[2].status = "failed", jobs[2].arrival_s = 5, jobs[2].finish_s = 9;
  auto charts = Charts(TwoQueues(), jobs);
  const LineChart& done = charts["queues-completion.svg"];
  ASSERT_EQ(done.series.size(), 2u);
  ASSERT_EQ(done.series[1].points.size(), 1u);  // the failed job has no completion time
  EXPECT_EQ(done.series[1].points[0].x, 50);
  EXPECT_EQ(done.series[1].points[0].y, 45);
}

TEST(QueueReport, WithEightyQueuesTwelveAreDrawnFromTheLowestBidToTheHighest) {
  QueueLedger ledger;
  ledger.interval_s = 20;
  QueueInterval iv{FromSeconds(0), FromSeconds(20), 0, {}};
  for (uint32_t i = 0; i < 80; ++i) {
    QueueAccount a;
    a.name = "q";
    a.name += std::to_string(i + 1);
    a.rate = 80 - i;  // the first declared bids the most
    ledger.accounts.push_back(a);
    iv.lines.push_back({i, a.rate, 1, 0, 20, 0, 20, 0, 0, {}});
    iv.price += a.rate;
  }
  ledger.intervals.push_back(iv);
  auto charts = Charts(ledger);
  const LineChart& share = charts["queues-share.svg"];
  ASSERT_EQ(share.series.size(), kMaxChartQueues);
  EXPECT_EQ(share.series.front().name, "q1");  // the highest bid
  EXPECT_EQ(share.series.back().name, "q80");  // the lowest
  EXPECT_EQ(share.subtitle, "12 of 80 queues, spread over the bids");
}

TEST(QueueReport, ANewLedgerHasNoCharts) { EXPECT_TRUE(QueueCharts({}, {}, "run").empty()); }

}  // namespace
}  // namespace mrlocal
