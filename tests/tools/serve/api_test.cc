// The service's API over real loopback HTTP, as its users and its attackers meet it: every
// route under every role, and bad input (malformed JSON, an unknown app, a 100 MB body, a
// bad signature, an expired timestamp, a replayed request, the wrong role, a path that
// escapes the data root) each with its exact status and a JSON error body, nothing run and
// nothing charged. A job runs to its end with correct counts; another user cannot see or
// cancel it; what dynprio charges lands in the statement and keeps the invariant.
#include "tools/serve/api.h"

#include <gtest/gtest.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <thread>

#include "tests/util/test_util.h"
#include "tools/serve/request_signing.h"
#include "tools/serve/service_client.h"

namespace mrlocal {
namespace {

using nlohmann::json;
using testing::ScratchDir;

class ApiTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::filesystem::create_directories(dir_ / "data");
    testing::WriteFile(dir_ / "data" / "words.txt", "the cat and the hat\nthe end\n");
    auto store = ServiceStore::Open(dir_ / "state");
    ASSERT_TRUE(store.ok()) << store.status().message();
    store_ = std::move(store).value();
    ASSERT_TRUE(store_->CreateQueue("q1", 2'000'000, NowMs()).ok());
    ASSERT_TRUE(store_->CreateQueue("q2", 1'000'000, NowMs()).ok());
    ASSERT_TRUE(store_->Deposit("q1", 1'000'000'000, "test", NowMs()).ok());
    for (auto [name, role, queue] : {std::tuple{"admin", Role::kAdmin, ""},
                                     {"alice", Role::kOwner, "q1"},
                                     {"bob", Role::kOwner, "q2"},
                                     {"reader", Role::kReader, ""}}) {
      auto key = store_->AddKey(name, role, queue, NowMs());
      ASSERT_TRUE(key.ok()) << key.status().message();
      keys_[name] = {key->id, key->secret, std::string(RoleName(role))};
    }
    ServiceOptions o;
    o.cluster = ClusterSpec::Parse("1x(2m,1r,1.0)").value();
    o.policy = "dynprio";
    o.policy_args.Set(kAllocationInterval, Duration(std::chrono::milliseconds(200)));
    o.state_dir = dir_ / "state";
    o.data_roots = {dir_ / "data"};
    o.pin = false;
    auto service = Service::Start(o, *store_);
    ASSERT_TRUE(service.ok()) << service.status().message();
    service_ = std::move(service).value();
    api_ = std::make_unique<Api>(*service_, 300);
    auto http = HttpServer::Listen(
        "127.0.0.1", 0, {}, [this](const HttpRequest& r) { return api_->Handle(r); }, 2);
    ASSERT_TRUE(http.ok());
    http_ = std::move(http).value();
  }
  void TearDown() override {
    if (http_) http_->Stop();
    if (service_) service_->Stop(std::chrono::milliseconds(0));
  }

  ServiceClient Client(const std::string& who) {
    return ServiceClient({"127.0.0.1", http_->port()}, who.empty() ? ServiceKey{} : keys_[who]);
  }
  // One call; its status and JSON body.
  std::pair<int, json> Call(const std::string& who, const std::string& method,
                            const std::string& target, const std::string& body = "") {
    ServiceClient c = Client(who);
    auto r = c.Call(method, target, body);
    EXPECT_TRUE(r.ok()) << r.status().message();
    if (!r.ok()) return {0, json()};
    return {r->status, json::parse(r->body, nullptr, false)};
  }
  json WaitForEnd(const std::string& who, int64_t id) {
    for (int i = 0; i < 2400; ++i) {
      auto [status, job] = Call(who, "GET", "/api/v1/jobs/" + std::to_string(id));
      if (status != 200) return job;
      if (job["phase"] != "queued" && job["phase"] != "running") return job;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    ADD_FAILURE() << "job " << id << " did not end";
    return json();
  }
  std::string Words() { return (dir_ / "data" / "words.txt").string(); }
  std::string WordCountJob() {
    return json{{"app", "wordcount"}, {"input", {{"files", {Words()}}}}}.dump();
  }

  ScratchDir dir_;
  std::unique_ptr<ServiceStore> store_;
  std::unique_ptr<Service> service_;
  std::unique_ptr<Api> api_;
  std::unique_ptr<HttpServer> http_;
  std::map<std::string, ServiceKey> keys_;
};

// A refused call: its exact status, and one line of JSON saying why.
void ExpectRefused(const std::pair<int, json>& answer, int status, const std::string& says) {
  EXPECT_EQ(answer.first, status) << answer.second.dump();
  ASSERT_TRUE(answer.second.is_object() && answer.second.contains("error")) << answer.second.dump();
  const std::string error = answer.second["error"];
  EXPECT_NE(error.find(says), std::string::npos) << error;
  EXPECT_EQ(error.find('\n'), std::string::npos);
}

TEST_F(ApiTest, AnOwnersJobRunsToItsEndWithCorrectCountsAndItsQueueIsCharged) {
  auto [status, job] = Call("alice", "POST", "/api/v1/jobs", WordCountJob());
  ASSERT_EQ(status, 201) << job.dump();
  EXPECT_EQ(job["queue"], "q1") << "an owner's job goes to its queue";
  EXPECT_NE(job["admission"].get<std::string>().find("dynprio admits"), std::string::npos);
  const json done = WaitForEnd("alice", job["id"]);
  EXPECT_EQ(done["phase"], "succeeded") << done.dump();
  EXPECT_GE(done["maps"].get<int>(), 1) << done.dump();
  EXPECT_EQ(done["maps_done"], done["maps"]);
  EXPECT_EQ(done["reduces_done"], done["reduces"]);
  // How a local run of it would have ended: its top keys, its closing report, exit 0.
  const std::string report = done["report"];
  EXPECT_EQ(report.rfind("top ", 0), 0u) << report;
  EXPECT_NE(report.find("job wordcount: SUCCEEDED in "), std::string::npos) << report;
  EXPECT_EQ(done["exit_code"], 0);
  const auto counts = testing::ReadJobOutput(done["output"].get<std::string>());
  const auto reference = testing::ReferenceWordCount(testing::ReadFile(Words()));
  ASSERT_EQ(counts.size(), reference.size());
  for (const auto& [word, n] : reference) EXPECT_EQ(counts.at(word), std::to_string(n)) << word;
  // Charges arrive when the allocation interval closes; the invariant holds throughout.
  EXPECT_TRUE(store_->CheckInvariant().ok()) << store_->CheckInvariant().message();
  auto [s, statement] = Call("alice", "GET", "/api/v1/queues/q1");
  EXPECT_EQ(s, 200) << statement.dump();
  for (const json& c : statement["charges"]) EXPECT_EQ(c["job"], job["id"]);
}

TEST_F(ApiTest, EveryRouteUnderEveryRole) {
  struct Row {
    std::string method, target, body;
    std::map<std::string, int> status;  // by key; "" is no key at all
  };
  const std::string queue = json{{"name", "q9"}, {"rate_micro", 1}}.dump();
  const std::string rate = json{{"rate_micro", 3'000'000}}.dump();
  const std::string deposit = json{{"amount_micro", 5}}.dump();
  const std::string key = json{{"key", "carol"}, {"role", "reader"}}.dump();
  const std::vector<Row> rows = {
      {"GET", "/healthz", "", {{"", 200}, {"reader", 200}}},
      {"GET", "/metrics", "", {{"", 200}}},
      {"GET", "/api/v1/openapi.json", "", {{"", 200}}},
      {"GET", "/api/v1/jobs", "", {{"", 401}, {"reader", 200}, {"alice", 200}, {"admin", 200}}},
      {"GET", "/api/v1/queues", "", {{"", 401}, {"reader", 200}, {"bob", 200}}},
      {"GET",
       "/api/v1/queues/q1",
       "",
       {{"reader", 200}, {"alice", 200}, {"bob", 403}, {"admin", 200}}},
      {"GET", "/api/v1/queues/nope", "", {{"admin", 404}}},
      {"POST", "/api/v1/queues", queue, {{"reader", 403}, {"alice", 403}, {"admin", 201}}},
      {"POST", "/api/v1/queues", queue, {{"admin", 409}}},
      {"POST",
       "/api/v1/queues/q1/rate",
       rate,
       {{"reader", 403}, {"bob", 403}, {"alice", 200}, {"admin", 200}}},
      {"POST",
       "/api/v1/queues/q1/deposit",
       deposit,
       {{"reader", 403}, {"alice", 403}, {"admin", 200}}},
      {"GET", "/api/v1/keys", "", {{"reader", 403}, {"alice", 403}, {"admin", 200}}},
      {"POST", "/api/v1/keys", key, {{"alice", 403}, {"admin", 201}}},
      {"POST", "/api/v1/keys", key, {{"admin", 409}}},
      {"DELETE", "/api/v1/keys/carol", "", {{"reader", 403}, {"admin", 200}}},
      {"DELETE", "/api/v1/keys/carol", "", {{"admin", 404}}},
      {"GET", "/api/v1/cluster", "", {{"", 401}, {"reader", 200}}},
      {"GET", "/api/v1/scheduler", "", {{"reader", 200}}},
      {"GET", "/api/v1/jobs/999", "", {{"reader", 404}}},
      {"POST", "/api/v1/jobs/999/cancel", "", {{"reader", 403}, {"alice", 404}}},
      {"POST", "/api/v1/jobs", WordCountJob(), {{"reader", 403}}},
      {"PUT", "/api/v1/jobs", "", {{"admin", 405}}},
      {"GET", "/api/v1/nothing", "", {{"admin", 404}}},
      {"GET", "/console/", "", {{"", 200}}},
      {"GET", "/console/nothing.js", "", {{"", 404}}},
  };
  for (const Row& row : rows) {
    for (const auto& [who, expected] : row.status) {
      auto [status, body] = Call(who, row.method, row.target, row.body);
      EXPECT_EQ(status, expected) << row.method << " " << row.target << " as '" << who
                                  << "': " << body.dump();
      if (expected >= 400) {
        EXPECT_TRUE(body.contains("error")) << body.dump();
      }
    }
  }
  std::set<std::string> routes;
  for (const Row& row : rows) routes.insert(row.method + " " + row.target);
  EXPECT_GE(routes.size(), Api::Routes().size()) << "a route the table misses";
}

TEST_F(ApiTest, BadInputIsRefusedWithItsStatusAndNothingRunsOrIsCharged) {
  ExpectRefused(Call("alice", "POST", "/api/v1/jobs", "{\"app\": "), 400, "malformed JSON");
  ExpectRefused(Call("alice", "POST", "/api/v1/jobs", R"({"app": "wordcont"})"), 400,
                "unknown app 'wordcont'");
  ExpectRefused(Call("alice", "POST", "/api/v1/jobs", R"({"app": "pi", "maps": -1})"), 400, "maps");
  ExpectRefused(Call("alice", "POST", "/api/v1/jobs", std::string(100 << 20, ' ')), 413,
                "the request body is over");
  ExpectRefused(
      Call("alice", "POST", "/api/v1/jobs",
           json{{"app", "wordcount"}, {"queue", "q2"}, {"input", {{"files", {Words()}}}}}.dump()),
      403, "may submit only to queue 'q1'");
  // A path that escapes the data root, by .. and by a symlink.
  testing::WriteFile(dir_ / "secret.txt", "secret\n");
  const std::string dotdot = (dir_ / "data" / ".." / "secret.txt").string();
  ExpectRefused(Call("alice", "POST", "/api/v1/jobs",
                     json{{"app", "wordcount"}, {"input", {{"files", {dotdot}}}}}.dump()),
                403, "outside the server's data roots");
  std::filesystem::create_symlink(dir_ / "secret.txt", dir_ / "data" / "link.txt");
  ExpectRefused(Call("alice", "POST", "/api/v1/jobs",
                     json{{"app", "wordcount"},
                          {"input", {{"files", {(dir_ / "data" / "link.txt").string()}}}}}
                         .dump()),
                403, "outside the server's data roots");
  ExpectRefused(Call("alice", "POST", "/api/v1/jobs",
                     json{{"app", "wordcount"},
                          {"input", {{"files", {(dir_ / "data" / "none.txt").string()}}}}}
                         .dump()),
                404, "none.txt': no such file");
  ExpectRefused(Call("alice", "POST", "/api/v1/jobs",
                     json{{"app", "wordcount"}, {"input", {{"files", {"/etc/none.txt"}}}}}.dump()),
                403, "outside the server's data roots");
  // Signatures: a wrong one, an unknown key, one too old, and the same request twice.
  ServiceClient alice = Client("alice");
  const std::string target = "/api/v1/jobs";
  const auto headers = [&](int64_t ts, const std::string& nonce, const std::string& secret,
                           const std::string& id) {
    RequestToSign r{"GET", target, "", id, ts, nonce};
    return std::vector<std::pair<std::string, std::string>>{
        {"X-Mrlocal-Key", id},
        {"X-Mrlocal-Timestamp", std::to_string(ts)},
        {"X-Mrlocal-Nonce", nonce},
        {"X-Mrlocal-Signature", SignRequest(secret, r)}};
  };
  const int64_t now = NowMs() / 1000;
  const std::string secret = keys_["alice"].secret;
  auto forged =
      alice.CallWith("GET", target, "", headers(now, "n1", std::string(64, '0'), "alice"));
  EXPECT_EQ(forged->status, 401);
  EXPECT_NE(forged->body.find("bad signature"), std::string::npos);
  auto unknown = alice.CallWith("GET", target, "", headers(now, "n2", secret, "mallory"));
  EXPECT_EQ(unknown->status, 401);
  EXPECT_NE(unknown->body.find("bad signature"), std::string::npos) << "no hint the key is unknown";
  auto expired = alice.CallWith("GET", target, "", headers(now - 3600, "n3", secret, "alice"));
  EXPECT_EQ(expired->status, 401);
  EXPECT_NE(expired->body.find("stale request"), std::string::npos) << expired->body;
  const auto once = headers(now, "n4", secret, "alice");
  EXPECT_EQ(alice.CallWith("GET", target, "", once)->status, 200);
  auto replayed = alice.CallWith("GET", target, "", once);
  EXPECT_EQ(replayed->status, 401);
  EXPECT_NE(replayed->body.find("replayed request"), std::string::npos) << replayed->body;
  // A signed GET whose body was changed on the way.
  auto tampered = alice.CallWith("GET", target, "x", once);
  EXPECT_EQ(tampered->status, 401);
  // Nothing ran, nothing was charged.
  auto [s, jobs] = Call("admin", "GET", "/api/v1/jobs");
  for (const json& j : jobs["jobs"]) EXPECT_NE(j["phase"], "succeeded") << j.dump();
  EXPECT_EQ(store_->FindQueue("q1")->charged, 0);
  EXPECT_EQ(store_->FindQueue("q1")->budget, 1'000'000'000);
  EXPECT_TRUE(store_->CheckInvariant().ok());
}

TEST_F(ApiTest, OneUserCannotSeeOrCancelAnothersJob) {
  auto [status, job] =
      Call("alice", "POST", "/api/v1/jobs",
           json{{"app", "synthetic"}, {"maps", 2}, {"map_s", 5}, {"reduces", 0}}.dump());
  ASSERT_EQ(status, 201) << job.dump();
  const std::string path = "/api/v1/jobs/" + std::to_string(job["id"].get<int64_t>());
  ExpectRefused(Call("bob", "GET", path), 404, "no job");
  ExpectRefused(Call("bob", "POST", path + "/cancel"), 404, "no job");
  auto [l, list] = Call("bob", "GET", "/api/v1/jobs");
  EXPECT_TRUE(list["jobs"].empty()) << list.dump();
  auto [c, cancelled] = Call("alice", "POST", path + "/cancel");
  EXPECT_EQ(c, 200) << cancelled.dump();
  EXPECT_EQ(WaitForEnd("alice", job["id"])["phase"], "cancelled");
  ExpectRefused(Call("alice", "POST", path + "/cancel"), 409, "has ended");
}

TEST_F(ApiTest, TheOpenApiDescriptionListsExactlyTheRoutes) {
  auto [status, doc] = Call("", "GET", "/api/v1/openapi.json");
  ASSERT_EQ(status, 200);
  std::set<std::string> described;
  for (const auto& [path, ops] : doc["paths"].items())
    for (const auto& [method, op] : ops.items()) {
      std::string m = method;
      for (char& ch : m) ch = static_cast<char>(std::toupper(static_cast<unsigned char>(ch)));
      described.insert(m + " " + path);
    }
  const auto routes = Api::Routes();
  EXPECT_EQ(described, std::set<std::string>(routes.begin(), routes.end()));
}

TEST_F(ApiTest, MetricsAreInThePrometheusFormat) {
  auto r = Client("").Call("GET", "/metrics");
  ASSERT_TRUE(r.ok());
  for (const char* line :
       {"# TYPE mrlocal_decision_latency_seconds histogram", "mrlocal_slots{kind=\"map\"} 2",
        "mrlocal_jobs{phase=\"queued\"} 0", "mrlocal_queue_budget_micro{queue=\"q1\"} 1000000000",
        "mrlocal_decision_latency_seconds_bucket{le=\"+Inf\"}"})
    EXPECT_NE(r->body.find(line), std::string::npos) << line;
  // The server's memory, and SQLite's part of it: both present and plausible.
  for (const char* name : {"process_resident_memory_bytes ", "mrlocal_store_memory_bytes "}) {
    const size_t at = r->body.find(std::string("\n") + name);
    ASSERT_NE(at, std::string::npos) << name;
    const double bytes = std::stod(r->body.substr(at + 1 + std::string(name).size()));
    EXPECT_GT(bytes, 1024) << name;
    EXPECT_LT(bytes, 64.0 * (1 << 30)) << name;
  }
}

}  // namespace
}  // namespace mrlocal
