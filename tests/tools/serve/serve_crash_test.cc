// kill -9 of `mrlocal serve` at random moments under a load of submissions, deposits and
// rate changes (seeded), as an operator trusting it with budgets needs it to survive:
// after each kill the accounting invariant holds in the store, every acknowledged job and
// deposit is there, no charge recorded before is lost, none is counted twice (a job's
// charged intervals never overlap), and a job that was running is queued again by the
// restart and runs to its end. MRLOCAL_SERVE_KILLS sets the number of kills (default 8;
// the README's figure is of MRLOCAL_SERVE_KILLS=100).
#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <map>
#include <nlohmann/json.hpp>
#include <random>
#include <set>
#include <thread>

#include "tests/util/server_process.h"
#include "tests/util/test_util.h"
#include "tools/serve/service.h"
#include "tools/serve/service_client.h"

namespace mrlocal {
namespace {

using nlohmann::json;
using testing::ScratchDir;
using testing::ServerProcess;

// What the load saw acknowledged: it must all be in the store after any kill.
struct Acknowledged {
  std::mutex mu;
  std::set<int64_t> jobs;
  std::map<std::string, std::multiset<MicroCredits>> deposits;
};

// Submissions, deposits and rate changes, a few hundred a second, until `stop`.
void Load(int port, ServiceKey key, uint64_t seed, std::atomic<bool>& stop, Acknowledged& ack) {
  ServiceClient client({"127.0.0.1", static_cast<uint16_t>(port)}, key,
                       std::chrono::milliseconds(2000));
  std::mt19937_64 rng(seed);
  while (!stop) {
    std::this_thread::sleep_for(std::chrono::milliseconds(rng() % 6));
    const std::string queue = rng() % 2 ? "q1" : "q2";
    const int op = static_cast<int>(rng() % 10);
    if (op < 3) {
      const json job{{"app", "synthetic"}, {"maps", 2},      {"reduces", 1},   {"map_s", 0.05},
                     {"reduce_s", 0.02},   {"queue", queue}, {"output", false}};
      auto r = client.Call("POST", "/api/v1/jobs", job.dump());
      if (r.ok() && r->status == 201) {
        std::lock_guard lock(ack.mu);
        ack.jobs.insert(json::parse(r->body)["id"].get<int64_t>());
      }
    } else if (op < 7) {
      const MicroCredits amount = 1 + static_cast<MicroCredits>(rng() % 1'000'000);
      auto r = client.Call("POST", "/api/v1/queues/" + queue + "/deposit",
                           json{{"amount_micro", amount}}.dump());
      if (r.ok() && r->status == 200) {
        std::lock_guard lock(ack.mu);
        ack.deposits[queue].insert(amount);
      }
    } else {
      const MicroCredits rate = 1'000'000 * (1 + static_cast<MicroCredits>(rng() % 5));
      (void)client.Call("POST", "/api/v1/queues/" + queue + "/rate",
                        json{{"rate_micro", rate}}.dump());
    }
  }
}

using ChargeKey = std::tuple<std::string, int64_t, int64_t>;  // queue, job, start_ms

// Checks the store of a killed server; returns its charges.
std::map<ChargeKey, ChargeRecord> CheckStore(const std::filesystem::path& state, Acknowledged& ack,
                                             const std::map<ChargeKey, ChargeRecord>& before,
                                             std::set<int64_t>* running) {
  auto store = ServiceStore::Open(state);
  EXPECT_TRUE(store.ok()) << store.status().message();
  if (!store.ok()) return before;
  const Status invariant = (*store)->CheckInvariant();
  EXPECT_TRUE(invariant.ok()) << invariant.message();
  std::lock_guard lock(ack.mu);
  for (int64_t id : ack.jobs) EXPECT_TRUE((*store)->FindJob(id).ok()) << "job " << id << " lost";
  std::map<ChargeKey, ChargeRecord> charges;
  std::map<int64_t, std::vector<std::pair<int64_t, int64_t>>> spans;  // by job
  for (const char* queue : {"q1", "q2"}) {
    std::multiset<MicroCredits> stored;
    for (const DepositRecord& d : (*store)->Deposits(queue)) stored.insert(d.amount);
    for (MicroCredits amount : ack.deposits[queue])
      EXPECT_GT(stored.count(amount), 0u) << "an acknowledged deposit of " << amount << " lost";
    for (const ChargeRecord& c : (*store)->Charges(queue, 0, 1'000'000)) {
      EXPECT_NE(c.job, 0) << "a charge billed to no job";
      charges[{c.queue, c.job, c.start_ms}] = c;
      spans[c.job].emplace_back(c.start_ms, c.end_ms);
    }
  }
  for (const auto& [key, c] : before)
    EXPECT_TRUE(charges.count(key)) << "a charge of job " << c.job << " lost";
  for (auto& [job, list] : spans) {
    std::sort(list.begin(), list.end());
    for (size_t i = 1; i < list.size(); ++i)
      EXPECT_LE(list[i - 1].second, list[i].first) << "job " << job << " charged twice";
  }
  running->clear();
  for (const StoredJob& j : (*store)->UnfinishedJobs())
    if (j.phase == JobStage::kRunning) running->insert(j.id);
  return charges;
}

TEST(ServeCrash, KillNineAtRandomMomentsLosesNothingAndCountsNothingTwice) {
  const char* env = std::getenv("MRLOCAL_SERVE_KILLS");
  const int kills = env ? std::atoi(env) : 8;
  ScratchDir dir;
  const auto state = dir / "state";
  ServiceKey root;
  {
    auto store = ServiceStore::Open(state);
    ASSERT_TRUE(store.ok());
    for (const char* q : {"q1", "q2"}) {
      ASSERT_TRUE((*store)->CreateQueue(q, 1'000'000, NowMs()).ok());
      ASSERT_TRUE((*store)->Deposit(q, 50'000'000, "setup", NowMs()).ok());
    }
    auto key = (*store)->AddKey("root", Role::kAdmin, "", NowMs());
    ASSERT_TRUE(key.ok());
    root = {key->id, key->secret, "admin"};
  }
  const std::vector<std::string> args = {"--state",       state.string(), "--cluster",
                                         "1x(2m,1r,1.0)", "--no-pin",     "--allocation-interval",
                                         "50ms"};
  std::mt19937_64 rng(20261129);
  Acknowledged ack;
  std::map<ChargeKey, ChargeRecord> charges;
  std::set<int64_t> was_running;
  std::chrono::milliseconds slowest_start{0};
  for (int i = 0; i < kills; ++i) {
    ServerProcess server(args, dir / "serve.log");
    ASSERT_TRUE(server.started()) << server.log();
    slowest_start = std::max(slowest_start, server.startup());
    // Jobs running at the last kill were queued again by this start, then run again.
    {
      auto store = ServiceStore::Open(state);
      ASSERT_TRUE(store.ok());
      for (int64_t id : was_running) {
        auto job = (*store)->FindJob(id);
        ASSERT_TRUE(job.ok());
        EXPECT_TRUE(job->phase != JobStage::kRunning ||
                    job->message.find("server stopped") != std::string::npos || job->started_ms > 0)
            << "job " << id << ": " << JobStageName(job->phase) << " " << job->message;
      }
    }
    std::atomic<bool> stop{false};
    std::thread load(Load, server.port(), root, rng(), std::ref(stop), std::ref(ack));
    std::this_thread::sleep_for(std::chrono::milliseconds(20 + rng() % 400));
    server.Kill();
    stop = true;
    load.join();
    charges = CheckStore(state, ack, charges, &was_running);
  }
  // Last, a clean run: every acknowledged job ends, and the books still balance.
  ServerProcess server(args, dir / "serve.log");
  ASSERT_TRUE(server.started()) << server.log();
  ServiceClient client({"127.0.0.1", static_cast<uint16_t>(server.port())}, root);
  // Up to 60 s, and 0.2 s more per job acknowledged (each runs about 0.1 s of slots).
  const size_t tries_allowed = 3000 + 10 * ack.jobs.size();
  for (size_t tries = 0; tries < tries_allowed; ++tries) {
    auto r = client.Call("GET", "/metrics");
    ASSERT_TRUE(r.ok());
    if (r->body.find("mrlocal_jobs{phase=\"queued\"} 0") != std::string::npos &&
        r->body.find("mrlocal_jobs{phase=\"running\"} 0") != std::string::npos)
      break;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  EXPECT_EQ(server.Stop(), 0) << server.log();
  charges = CheckStore(state, ack, charges, &was_running);
  auto store = ServiceStore::Open(state);
  ASSERT_TRUE(store.ok());
  EXPECT_TRUE((*store)->UnfinishedJobs().empty()) << "every job ended";
  std::cout << "[ figures ] " << kills << " kills, " << ack.jobs.size() << " jobs acknowledged, "
            << charges.size() << " charges; slowest start " << slowest_start.count() << " ms\n";
}

}  // namespace
}  // namespace mrlocal
