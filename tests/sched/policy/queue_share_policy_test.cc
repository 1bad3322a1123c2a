// QueueSharePolicy (dynprio, capacity): shares, payments, budgets, preemption and announced
// changes, through the real Controller on a SimLoop with scripted task times. The expected
// figures are worked by hand from section 3.1 of Sandholm and Lai.
#include "sched/policy/queue_share_policy.h"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <random>

#include "sched/core/controller.h"
#include "sched/policy/policy_registry.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/cluster.h"
#include "tests/util/fake_executor.h"
#include "tests/util/job_builder.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;
using testing::FakeExecutor;
using testing::JobBuilder;
using testing::OneNode;

QueueSpec Q(std::string name, double rate, std::optional<double> budget = std::nullopt) {
  return {std::move(name), budget, rate};
}

// A Controller on a SimLoop whose tasks take what `duration` says, measuring each queue's
// slot time from the attempts' reports.
struct QueueRun final : ControllerObserver {
  std::vector<SlotInfo> slots;
  SimLoop loop;
  FakeExecutor exec;
  std::unique_ptr<QueueSharePolicy> policy;
  std::unique_ptr<Controller> controller;
  std::map<JobId, std::string> queue_of;

  QueueRun(int map_slots, int reduce_slots, QueueShareOptions options,
           std::function<Duration(const TaskRef&)> duration)
      : slots(OneNode(map_slots, reduce_slots)), exec(loop, slots, std::move(duration)) {
    policy = std::make_unique<QueueSharePolicy>(
        options.rule == ShareRule::kDynamic ? "dynprio" : "capacity", std::move(options));
    auto partitioner = MakePartitioner("hash");
    EXPECT_TRUE(partitioner.ok());
    controller =
        std::make_unique<Controller>(loop, exec, *policy, slots, 1, std::move(*partitioner));
    controller->AddObserver(this);
  }
  void OnTaskReport(const TaskReport& r) override {
    measured[queue_of[r.task.job]] += Seconds(r.end - r.start);
    job_time.emplace_back(r.task.job, Seconds(r.end - r.start));
  }
  std::vector<std::pair<JobId, double>> job_time;  // every attempt's slot time
  std::map<std::string, double> measured;          // slot time by queue, every attempt
  // A job of `maps` maps (and `reduces` reduces) in `queue`, arriving at `at`. Jobs at 0
  // are all there when the run starts (arrivals at one instant would each be dispatched
  // as they come, the first taking every slot).
  void Submit(std::string queue, uint32_t maps, Time at = Time{0}, uint32_t reduces = 0) {
    if (at == Time{0}) {
      queue_of[controller->next_job_id()] = queue;
      controller->Submit(JobBuilder().Queue(queue).Maps(maps).Reduces(reduces).Build());
      return;
    }
    controller->SubmitAt(at, [this, queue, maps, reduces](JobId id) {
      queue_of[id] = queue;
      return JobBuilder().Queue(queue).Maps(maps).Reduces(reduces).Build();
    });
  }
  // Running maps per queue at `at`, once the run is over.
  std::map<std::string, int>* SampleAt(Time at) {
    auto sample = std::make_shared<std::map<std::string, int>>();
    samples.push_back(sample);
    loop.At(at, [this, sample] {
      for (const auto& [id, job] : controller->state().jobs)
        if (!job.finished()) (*sample)[queue_of[id]] += static_cast<int>(job.maps_running);
    });
    return sample.get();
  }
  void Run() { controller->RunUntilIdle(); }
  const QueueAccount& Account(const std::string& name) const {
    for (const QueueAccount& a : policy->Ledger()->accounts)
      if (a.name == name) return a;
    ADD_FAILURE() << "no account " << name;
    return policy->Ledger()->accounts.front();
  }
  std::vector<std::shared_ptr<std::map<std::string, int>>> samples;
};

// An event's queue, by name only.
QueueSpec Named(std::string name) { return {std::move(name), std::nullopt, 0}; }

// "q<i>", built without operator+ on a literal (GCC 12's -Wrestrict false positive).
std::string QName(int i) {
  std::string name = "q";
  name += std::to_string(i);
  return name;
}

auto Fixed(double s) {
  return [s](const TaskRef&) -> Duration { return FromSeconds(s); };
}

QueueShareOptions Queues(std::vector<QueueSpec> queues, std::vector<QueueEvent> events = {}) {
  QueueShareOptions o;
  auto setup = std::make_shared<QueueSetup>();
  setup->queues = std::move(queues);
  setup->events = std::move(events);
  o.setup = setup;
  return o;
}

TEST(QueueSharePolicy, PaperExampleBidsFourOneAndAHalfAndTwoOnFifteenSlotsGetEightThreeFour) {
  QueueRun run(15, 1, Queues({Q("alice", 4), Q("bob", 1.5), Q("sam", 2)}), Fixed(10));
  for (const char* q : {"alice", "bob", "sam"}) run.Submit(q, 40);
  auto* at1 = run.SampleAt(seconds(1));
  auto* at15 = run.SampleAt(seconds(15));  // after the first tasks ended and slots were re-given
  run.Run();
  EXPECT_EQ((*at1)["alice"], 8);
  EXPECT_EQ((*at1)["bob"], 3);
  EXPECT_EQ((*at1)["sam"], 4);
  EXPECT_EQ(*at15, *at1);
}

TEST(QueueSharePolicy, RoundsByLargestRemainderAndTheSharesSumToTheSlots) {
  // Bids 1, 1, 1 on 4 slots: quotas 4/3 each; the one slot left goes to the first declared.
  QueueRun run(4, 1, Queues({Q("a", 1), Q("b", 1), Q("c", 1)}), Fixed(10));
  for (const char* q : {"a", "b", "c"}) run.Submit(q, 20);
  auto* at1 = run.SampleAt(seconds(1));
  run.Run();
  EXPECT_EQ((*at1)["a"], 2);
  EXPECT_EQ((*at1)["b"], 1);
  EXPECT_EQ((*at1)["c"], 1);
}

TEST(QueueSharePolicy, UnusedShareGoesToQueuesWithPendingWork) {
  // b is entitled to 3 of 6 slots but has one task: a takes the other 5 (work-conserving).
  QueueRun run(6, 1, Queues({Q("a", 1), Q("b", 1)}), Fixed(10));
  run.Submit("a", 30);
  run.Submit("b", 1);
  auto* at1 = run.SampleAt(seconds(1));
  run.Run();
  EXPECT_EQ((*at1)["a"], 5);
  EXPECT_EQ((*at1)["b"], 1);
}

TEST(QueueSharePolicy, AQueueWithoutWorkHasNoShareUntilItsJobArrives) {
  // Only a has work: all 4 slots. b's job arrives at 5 s; as a's tasks end (every 10 s)
  // the freed slots go to b until it holds its half.
  QueueRun run(4, 1, Queues({Q("a", 1), Q("b", 1)}), Fixed(10));
  run.Submit("a", 40);
  run.Submit("b", 40, seconds(5));
  auto* at1 = run.SampleAt(seconds(1));
  auto* at6 = run.SampleAt(seconds(6));
  auto* at11 = run.SampleAt(seconds(11));
  run.Run();
  EXPECT_EQ((*at1)["a"], 4);
  EXPECT_EQ((*at6)["a"], 4) << "no preemption: b waits for a's tasks to end";
  EXPECT_EQ((*at11)["a"], 2);
  EXPECT_EQ((*at11)["b"], 2);
}

TEST(QueueSharePolicy, PaysItsBidPerSlotPerIntervalForTheSlotTimeItUsed) {
  // One queue bidding 2 credits per slot per 20 s interval runs 3 maps of 10 s on 2 slots:
  // 30 slot-seconds = 1.5 slot-intervals = 3 credits, in intervals [0, 20) and [20, 20].
  QueueShareOptions o = Queues({Q("a", 2, 100)});
  QueueRun run(2, 1, o, Fixed(10));
  run.Submit("a", 3);
  run.Run();
  const QueueAccount& a = run.Account("a");
  EXPECT_EQ(a.spent, ToMicroCredits(3));
  EXPECT_EQ(a.balance(), ToMicroCredits(97));
  EXPECT_DOUBLE_EQ(a.used_slot_s, 30);
  EXPECT_DOUBLE_EQ(a.paid_slot_s, 30);
  ASSERT_FALSE(run.policy->Ledger()->intervals.empty());
  EXPECT_DOUBLE_EQ(run.policy->Ledger()->intervals.front().price, 2);
}

TEST(QueueSharePolicy, AQueueOutOfBudgetPaysWhatItHadAndRunsOnlyOnWhatOthersLeave) {
  // a bids 4 with 2 credits: one interval of its 2 slots costs 8, so it runs out after the
  // first and b, with money, gets the cluster; a's later tasks only run once b has nothing.
  QueueShareOptions o = Queues({Q("a", 4, 2), Q("b", 1)});
  o.interval = seconds(10);
  QueueRun run(4, 1, o, Fixed(10));
  run.Submit("a", 12);
  run.Submit("b", 12);
  auto* at5 = run.SampleAt(seconds(5));
  auto* at15 = run.SampleAt(seconds(15));
  run.Run();
  EXPECT_EQ((*at5)["a"], 3) << "bids 4 : 1 on 4 slots -> 3.2 : 0.8 -> 3 : 1";
  EXPECT_EQ((*at15)["a"], 0) << "out of money: b takes every slot it can use";
  EXPECT_EQ((*at15)["b"], 4);
  const QueueAccount& a = run.Account("a");
  EXPECT_EQ(a.spent, ToMicroCredits(2)) << "never more than it had";
  EXPECT_EQ(a.balance(), 0);
  EXPECT_LT(a.paid_slot_s, a.used_slot_s);
}

TEST(QueueSharePolicy, WithPreemptionAnEntitledQueueGetsItsShareWithinTheInterval) {
  // a fills 4 slots with 100 s tasks; b arrives at 1 s. Preempting after 5 s, b holds its
  // 2 slots from 6 s; a's two latest attempts were killed and requeued.
  QueueShareOptions o = Queues({Q("a", 1), Q("b", 1)});
  o.preempt = seconds(5);
  QueueRun run(4, 1, o, Fixed(100));
  run.Submit("a", 8);
  run.Submit("b", 4, seconds(1));
  auto* at5 = run.SampleAt(seconds(5));
  auto* at7 = run.SampleAt(seconds(7));
  run.Run();
  EXPECT_EQ((*at5)["b"], 0);
  EXPECT_EQ((*at7)["a"], 2);
  EXPECT_EQ((*at7)["b"], 2);
  EXPECT_EQ(run.policy->Ledger()->preempted_attempts, 2u);
  EXPECT_DOUBLE_EQ(run.policy->Ledger()->preempted_slot_s, 2 * 6.0) << "each ran 0 s to 6 s";
  EXPECT_EQ(run.controller->stats().preemptions, 2u);
}

TEST(QueueSharePolicy, WithoutPreemptionNothingIsKilled) {
  QueueShareOptions o = Queues({Q("a", 1), Q("b", 1)});
  QueueRun run(4, 1, o, Fixed(100));
  run.Submit("a", 8);
  run.Submit("b", 4, seconds(1));
  auto* at7 = run.SampleAt(seconds(7));
  run.Run();
  EXPECT_EQ((*at7)["a"], 4);
  EXPECT_EQ(run.policy->Ledger()->preempted_attempts, 0u);
  EXPECT_EQ(run.controller->stats().preemptions, 0u);
}

TEST(QueueSharePolicy, CapacityKeepsStaticSharesAndReclaimsLentSlotsByPreemption) {
  // capacity: a's share is 1/4 of 4 slots whatever b does; idle b lends its 3, and takes
  // them back by preemption 5 s after its job arrives.
  QueueShareOptions o = Queues({Q("a", 1), Q("b", 3)});
  o.rule = ShareRule::kStatic;
  o.preempt = seconds(5);
  QueueRun run(4, 1, o, Fixed(100));
  run.Submit("a", 8);
  run.Submit("b", 8, seconds(1));
  auto* at1 = run.SampleAt(seconds(1) - Duration{1});
  auto* at7 = run.SampleAt(seconds(7));
  run.Run();
  EXPECT_EQ((*at1)["a"], 4);
  EXPECT_EQ((*at7)["a"], 1);
  EXPECT_EQ((*at7)["b"], 3);
  EXPECT_EQ(run.Account("a").spent, 0) << "capacity charges nothing";
}

TEST(QueueSharePolicy, ANewBidTakesEffectAtTheNextInterval) {
  // a and b bid 1 each on 4 slots; at 5 s a bids 3. The interval (20 s) that began at 0
  // keeps 2 : 2; the one from 20 s gives 3 : 1 as a's tasks (10 s) end.
  QueueShareOptions o =
      Queues({Q("a", 1), Q("b", 1)}, {{seconds(5), QueueEvent::Kind::kSetRate, Named("a"), 3}});
  QueueRun run(4, 1, o, Fixed(10));
  run.Submit("a", 40);
  run.Submit("b", 40);
  auto* at15 = run.SampleAt(seconds(15));
  auto* at35 = run.SampleAt(seconds(35));
  run.Run();
  EXPECT_EQ((*at15)["a"], 2);
  EXPECT_EQ((*at35)["a"], 3);
  EXPECT_EQ((*at35)["b"], 1);
  EXPECT_DOUBLE_EQ(run.Account("a").rate, 3);
}

TEST(QueueSharePolicy, AJobsOwnBidBoostsItsQueueWhileItIsInTheSystem) {
  // a and b bid 1 each on 4 slots; a's first job bids 3 (section 4.4's boost): 3 : 1 from
  // the start. It ends at 30 s (9 maps of 10 s on 3 slots); the interval it was in keeps
  // a's bid of 3, and from 40 s a's next job and b share 2 : 2.
  QueueRun run(4, 1, Queues({Q("a", 1), Q("b", 1)}), Fixed(10));
  run.queue_of[run.controller->next_job_id()] = "a";
  run.controller->Submit(JobBuilder().Queue("a").Bid(3).Maps(9).Reduces(0).Build());
  run.Submit("a", 40);
  run.Submit("b", 40);
  auto* at5 = run.SampleAt(seconds(5));
  auto* at35 = run.SampleAt(seconds(35));
  auto* at55 = run.SampleAt(seconds(55));
  run.Run();
  EXPECT_EQ((*at5)["a"], 3);
  EXPECT_EQ((*at35)["a"], 3);
  EXPECT_EQ((*at55)["a"], 2);
  EXPECT_EQ((*at55)["b"], 2);
  const QueueLedger& ledger = *run.policy->Ledger();
  ASSERT_GE(ledger.intervals.size(), 3u);
  EXPECT_DOUBLE_EQ(ledger.intervals[1].lines[0].rate, 3);  // [20 s, 40 s): still boosted
  EXPECT_DOUBLE_EQ(ledger.intervals[2].lines[0].rate, 1);
  // 3 slots x 20 s at 3 per slot per 20 s interval.
  EXPECT_EQ(ledger.intervals[0].lines[0].charge, ToMicroCredits(9));
  EXPECT_DOUBLE_EQ(run.Account("a").rate, 1) << "the queue's own rate is unchanged";
}

TEST(QueueSharePolicy, BudgetAddedAndQueuesOpenedAndClosedWhenAnnounced) {
  QueueShareOptions o = Queues({Q("a", 1, 0), Q("b", 1)},
                               {{seconds(5), QueueEvent::Kind::kAddBudget, Named("a"), 50},
                                {seconds(1), QueueEvent::Kind::kAddQueue, Q("c", 2, 10)},
                                {seconds(25), QueueEvent::Kind::kRemoveQueue, Named("b")}});
  QueueRun run(4, 1, o, Fixed(10));
  run.Submit("a", 20);
  run.Submit("b", 20);
  run.Submit("c", 4, seconds(2));
  auto* at1 = run.SampleAt(seconds(1));
  run.Run();
  EXPECT_EQ((*at1)["a"], 0) << "no money yet: b has every slot it can use";
  const QueueAccount& a = run.Account("a");
  EXPECT_EQ(a.added, ToMicroCredits(50));
  EXPECT_GT(a.spent, 0);
  EXPECT_EQ(run.Account("c").opened, seconds(1));
  ASSERT_TRUE(run.Account("b").closed.has_value());
  EXPECT_EQ(*run.Account("b").closed, seconds(25));
}

// Every statement adds up: each account's charges sum to what it spent, opening + added -
// spent = balance >= 0, and the slot time the ledger says each queue used is the slot time
// the executor measured for its attempts (killed ones included).
TEST(QueueSharePolicy, StatementsAddUpExactlyOverRandomRuns) {
  std::mt19937_64 rng(2026);
  uint64_t preempted = 0;
  int exhausted = 0;  // accounts that spent all they had: the cap was exercised
  for (int run_no = 0; run_no < 40; ++run_no) {
    std::uniform_int_distribution<int> queues_n(1, 6), slots_n(1, 12), maps_n(1, 30);
    std::uniform_real_distribution<double> u(0, 1);
    std::vector<QueueSpec> specs;
    const int nq = queues_n(rng);
    for (int i = 0; i < nq; ++i)
      specs.push_back(
          Q(QName(i), std::round(u(rng) * 40) / 10,
            u(rng) < 0.5 ? std::optional<double>(std::round(u(rng) * 3000) / 100) : std::nullopt));
    QueueShareOptions o =
        Queues(specs, {{seconds(7), QueueEvent::Kind::kAddBudget, Named("q0"), 5},
                       {seconds(13), QueueEvent::Kind::kSetRate, Named("q0"), 2.5}});
    o.interval = FromSeconds(1 + u(rng) * 20);
    if (u(rng) < 0.5) o.preempt = FromSeconds(1 + u(rng) * 5);
    if (u(rng) < 0.3) o.rule = ShareRule::kStatic;
    QueueRun run(slots_n(rng), 2, o, [](const TaskRef& t) {
      return FromSeconds(1 + (t.index * 7 + t.job * 3) % 9 + (t.kind == TaskKind::kReduce));
    });
    const int jobs = 2 + static_cast<int>(u(rng) * 8);
    for (int j = 0; j < jobs; ++j)
      run.Submit(QName(j % nq), maps_n(rng), FromSeconds(u(rng) * 30),
                 static_cast<uint32_t>(u(rng) * 3));
    run.Run();
    const QueueLedger& ledger = *run.policy->Ledger();
    preempted += ledger.preempted_attempts;
    std::vector<MicroCredits> charged(ledger.accounts.size(), 0);
    std::vector<double> used(ledger.accounts.size(), 0);
    for (const QueueInterval& iv : ledger.intervals)
      for (const QueueCharge& line : iv.lines) {
        charged[line.account] += line.charge;
        used[line.account] += line.used_slot_s;
      }
    for (size_t i = 0; i < ledger.accounts.size(); ++i) {
      const QueueAccount& a = ledger.accounts[i];
      SCOPED_TRACE(::testing::Message() << "run " << run_no << ", queue " << a.name);
      EXPECT_EQ(charged[i], a.spent);
      EXPECT_EQ(a.opening + a.added - a.spent, a.balance());
      if (!a.unlimited) {
        EXPECT_GE(a.balance(), 0);
        exhausted += a.balance() == 0 && a.opening + a.added > 0;
      }
      EXPECT_NEAR(used[i], a.used_slot_s, 1e-6);
      EXPECT_NEAR(a.used_slot_s, run.measured[a.name], 1e-6);
      EXPECT_LE(a.paid_slot_s, a.used_slot_s + 1e-9);
      if (o.rule == ShareRule::kStatic) {
        EXPECT_EQ(a.spent, 0);
      }
    }
    for (const auto& [id, job] : run.controller->state().jobs)
      EXPECT_EQ(job.phase, JobPhase::kDone);
  }
  EXPECT_GT(preempted, 0u);
  EXPECT_GT(exhausted, 0);
}

TEST(QueueSharePolicy, CreditsAreWrittenExactlyFromMicroCredits) {
  EXPECT_EQ(FormatCredits(ToMicroCredits(999998556.529067)), "999998556.529067");
  EXPECT_EQ(FormatCredits(ToMicroCredits(12.5)), "12.5");
  EXPECT_EQ(FormatCredits(ToMicroCredits(1000)), "1000");
  EXPECT_EQ(FormatCredits(0), "0");
  EXPECT_EQ(FormatCredits(-1), "-0.000001");
  EXPECT_EQ(FormatCredits(ToMicroCredits(12.5), /*all_decimals=*/true), "12.500000");
}

TEST(QueueSharePolicy, TheAdmissionSaysTheQueuesBidAndWhatItHasLeft) {
  // A balance of a billion credits is written out, not as 1e+09.
  QueueRun run(2, 1, Queues({Q("a", 2, 999998556.53), Q("b", 1)}), Fixed(1));
  run.Submit("a", 1);
  run.Submit("b", 1);
  run.Run();
  EXPECT_EQ(run.controller->outcome(1).admission.reason,
            "dynprio admits every job: queue 'a' bids 2 per slot per interval, 999998556.53 left");
  EXPECT_EQ(run.controller->outcome(2).admission.reason,
            "dynprio admits every job: queue 'b' bids 1 per slot per interval");
}

TEST(QueueSharePolicy, IsRegisteredAsDynprioAndCapacityWithItsSettings) {
  for (const char* name : {"dynprio", "capacity"}) {
    auto d = FindPolicy(name);
    ASSERT_TRUE(d.ok()) << name;
    EXPECT_NE((*d)->Setting(kPreempt), nullptr);
    EXPECT_NE((*d)->Setting(kAllocationInterval), nullptr);
    auto p = MakePolicy(name, nullptr, PolicyArgs().Set(kPreempt, Duration(seconds(10))));
    ASSERT_TRUE(p.ok());
    EXPECT_EQ((*p)->name(), name);
    EXPECT_NE((*p)->Ledger(), nullptr);
  }
}

// What a service bills each job: a queue's line split among the jobs that used slots in
// the interval, in proportion to their slot time, adding up to the line exactly.
TEST(QueueSharePolicy, EachIntervalsChargeIsSplitAmongItsJobsByTheirSlotTime) {
  QueueShareOptions o = Queues({Q("a", 3, 1000), Q("b", 1, 1000)});
  o.interval = seconds(7);  // intervals that cut through attempts
  QueueRun run(4, 1, o, [](const TaskRef& t) { return FromSeconds(1.5 + t.index % 4); });
  run.Submit("a", 30);
  run.Submit("a", 11);
  run.Submit("b", 23);
  run.Run();
  std::map<JobId, double> billed_time;
  size_t split_lines = 0;
  for (const QueueInterval& interval : run.policy->Ledger()->intervals) {
    for (const QueueCharge& line : interval.lines) {
      MicroCredits parts = 0;
      double used = 0;
      for (const JobCharge& j : line.jobs) {
        parts += j.charge;
        used += j.used_slot_s;
        billed_time[j.job] += j.used_slot_s;
        if (line.jobs.size() == 2 && line.jobs[0].used_slot_s > line.jobs[1].used_slot_s) {
          EXPECT_GE(line.jobs[0].charge, line.jobs[1].charge);
        }
      }
      EXPECT_EQ(parts, line.charge);
      EXPECT_NEAR(used, line.used_slot_s, 1e-9);
      split_lines += line.jobs.size() > 1;
    }
  }
  EXPECT_GT(split_lines, 0u) << "two jobs of queue a shared an interval";
  // Every attempt's slot time is billed to its own job, once.
  for (JobId id : {1u, 2u, 3u}) {
    double measured = 0;
    for (const auto& [task, s] : run.job_time)
      if (task == id) measured += s;
    EXPECT_NEAR(billed_time[id], measured, 1e-6) << "job " << id;
  }
}

// A service's long run: thousands of jobs pass, the policy keeps only the jobs in the
// system (not an entry for every job ever), and still bills each job's slot time to its
// own queue, once.
TEST(QueueSharePolicy, AfterThousandsOfJobsEachIsStillBilledToItsOwnQueue) {
  QueueShareOptions o = Queues({Q("a", 2), Q("b", 1)});
  o.interval = seconds(5);
  QueueRun run(2, 1, o, Fixed(0.5));
  constexpr int kJobs = 5000;
  for (int i = 0; i < kJobs; ++i)  // one job every 0.3 s: a few in the system at a time
    run.Submit(i % 3 == 0 ? "b" : "a", 1 + i % 2, FromSeconds(1 + 0.3 * i));
  run.Run();
  std::map<JobId, double> billed;
  std::map<std::string, double> billed_by_queue;
  for (const QueueInterval& interval : run.policy->Ledger()->intervals)
    for (const QueueCharge& line : interval.lines)
      for (const JobCharge& j : line.jobs) {
        billed[j.job] += j.used_slot_s;
        billed_by_queue[run.policy->Ledger()->accounts[line.account].name] += j.used_slot_s;
        EXPECT_EQ(run.queue_of[j.job], run.policy->Ledger()->accounts[line.account].name)
            << "job " << j.job;
      }
  ASSERT_EQ(billed.size(), static_cast<size_t>(kJobs));
  std::map<JobId, double> measured;
  for (const auto& [job, s] : run.job_time) measured[job] += s;
  for (const auto& [job, s] : measured) EXPECT_NEAR(billed[job], s, 1e-6) << "job " << job;
  EXPECT_NEAR(billed_by_queue["a"], run.measured["a"], 1e-3);
  EXPECT_NEAR(billed_by_queue["b"], run.measured["b"], 1e-3);
}

TEST(QueueSharePolicy, ARateChangeMadeDuringTheRunPricesTheNextInterval) {
  QueueShareOptions o = Queues({Q("a", 1), Q("b", 1)});
  o.interval = seconds(10);
  QueueRun run(4, 1, o, Fixed(2));
  run.Submit("a", 40);
  run.Submit("b", 40);
  run.loop.At(seconds(5), [&run] {
    QueueEvent e{seconds(5), QueueEvent::Kind::kSetRate, Named("a"), 3};
    EXPECT_TRUE(run.policy->ChangeQueue(e, run.controller->state(), seconds(5)).ok());
  });
  run.Run();
  const auto& intervals = run.policy->Ledger()->intervals;
  ASSERT_GE(intervals.size(), 2u);
  EXPECT_DOUBLE_EQ(intervals[0].lines[0].rate, 1) << "the interval under way keeps its price";
  EXPECT_DOUBLE_EQ(intervals[1].lines[0].rate, 3);
  EXPECT_EQ(intervals[1].lines[0].entitled_map_slots, 3);
}

TEST(QueueSharePolicy, APolicyWithoutQueuesRefusesQueueChanges) {
  auto fifo = MakePolicy("fifo", nullptr, PolicyArgs());
  ASSERT_TRUE(fifo.ok());
  QueueEvent e{Time{0}, QueueEvent::Kind::kSetRate, Named("a"), 3};
  const Status st = (*fifo)->ChangeQueue(e, ClusterState{}, Time{0});
  EXPECT_EQ(st.code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(st.message(),
            "fifo has no paying queues: rates and budgets apply under dynprio or capacity");
}

}  // namespace
}  // namespace mrlocal
