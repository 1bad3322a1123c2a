// The service's durable state as its operator and users rely on it: secrets readable by
// the server's user only, a charge and the budget it draws on changing together or not at
// all, a charge never counted twice, deposits = budget + charges exactly (after 2,000 random
// operations, across restarts, and under two threads), jobs that keep their ids and final
// phases, and a damaged or newer database refused in one line rather than trusted.
#include "tools/serve/service_store.h"

#include <gtest/gtest.h>
#include <sqlite3.h>
#include <sys/stat.h>

#include <random>
#include <set>
#include <thread>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::ScratchDir;

std::unique_ptr<ServiceStore> OpenOrDie(const fs::path& dir) {
  Result<std::unique_ptr<ServiceStore>> store = ServiceStore::Open(dir);
  EXPECT_TRUE(store.ok()) << store.status().message();
  return store.ok() ? std::move(store).value() : nullptr;
}

mode_t ModeOf(const fs::path& p) {
  struct stat st {};
  EXPECT_EQ(::stat(p.c_str(), &st), 0) << p;
  return st.st_mode & 07777;
}

// Runs `sql` on the database file directly, as another program (or an attacker) could.
void RunSql(const fs::path& db_file, const std::string& sql) {
  sqlite3* db = nullptr;
  ASSERT_EQ(sqlite3_open(db_file.c_str(), &db), SQLITE_OK);
  char* error = nullptr;
  EXPECT_EQ(sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error), SQLITE_OK)
      << (error ? error : "");
  sqlite3_free(error);
  sqlite3_close(db);
}

void ExpectOneLine(const Status& s, Status::Code code, const std::string& fragment) {
  EXPECT_EQ(s.code(), code) << s.message();
  EXPECT_NE(s.message().find(fragment), std::string::npos) << s.message();
  EXPECT_EQ(s.message().find('\n'), std::string::npos) << s.message();
}

bool IsLowerHex(const std::string& s) {
  return s.find_first_not_of("0123456789abcdef") == std::string::npos;
}

ChargeRecord Charge(const std::string& queue, int64_t job, int64_t start_ms, MicroCredits amount) {
  return {queue, job, start_ms, start_ms + 1000, 2.0, amount / 2, amount};
}

TEST(ServiceStore, TheDirectoryIs0700AndItsFiles0600) {
  ScratchDir scratch;
  const fs::path dir = scratch / "deep" / "state";
  auto store = OpenOrDie(dir);
  ASSERT_TRUE(store);
  EXPECT_EQ(store->path(), dir / "state.db");
  ASSERT_TRUE(store->CreateQueue("q", 1, 0).ok());
  ASSERT_TRUE(store->AddKey("alice", Role::kOwner, "q", 0).ok());
  EXPECT_EQ(ModeOf(dir), 0700u);
  // The WAL holds the secrets too until a checkpoint: it must be as private as the file.
  for (const char* name : {"state.db", "state.db-wal", "state.db-shm"}) {
    ASSERT_TRUE(fs::exists(dir / name)) << name;
    EXPECT_EQ(ModeOf(dir / name), 0600u) << name;
  }
}

TEST(ServiceStore, AnExistingWorldReadableDatabaseIsMadePrivate) {
  ScratchDir scratch;
  OpenOrDie(scratch.path()).reset();
  ASSERT_EQ(::chmod((scratch / "state.db").c_str(), 0644), 0);
  auto store = OpenOrDie(scratch.path());
  EXPECT_EQ(ModeOf(scratch / "state.db"), 0600u);
}

TEST(ServiceStore, RoleAndPhaseNamesRoundTrip) {
  for (Role r : {Role::kAdmin, Role::kOwner, Role::kReader}) {
    Result<Role> parsed = ParseRole(RoleName(r));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, r);
  }
  ExpectOneLine(ParseRole("root").status(), Status::Code::kInvalidArgument,
                "admin, owner or reader");
  for (int i = 0; i <= static_cast<int>(JobStage::kRejected); ++i) {
    const auto phase = static_cast<JobStage>(i);
    Result<JobStage> parsed = ParseJobStage(JobStageName(phase));
    ASSERT_TRUE(parsed.ok());
    EXPECT_EQ(*parsed, phase);
    EXPECT_EQ(IsFinal(phase), phase != JobStage::kQueued && phase != JobStage::kRunning);
  }
  EXPECT_EQ(JobStageName(JobStage::kCancelled), "cancelled");
}

TEST(ServiceStore, KeysRoundTripWithARandomSecret) {
  ScratchDir scratch;
  auto store = OpenOrDie(scratch.path());
  ASSERT_TRUE(store->CreateQueue("research", 10, 5).ok());
  Result<KeyRecord> admin = store->AddKey("root.admin-1", Role::kAdmin, "", 100);
  Result<KeyRecord> owner = store->AddKey("alice", Role::kOwner, "research", 200);
  ASSERT_TRUE(admin.ok()) << admin.status().message();
  ASSERT_TRUE(owner.ok()) << owner.status().message();
  EXPECT_EQ(admin->secret.size(), 64u);
  EXPECT_TRUE(IsLowerHex(admin->secret)) << admin->secret;
  EXPECT_NE(admin->secret, owner->secret);

  Result<KeyRecord> found = store->FindKey("alice");
  ASSERT_TRUE(found.ok());
  EXPECT_EQ(found->secret, owner->secret);
  EXPECT_EQ(found->role, Role::kOwner);
  EXPECT_EQ(found->queue, "research");
  EXPECT_EQ(found->created_ms, 200);

  const std::vector<KeyRecord> keys = store->Keys();
  ASSERT_EQ(keys.size(), 2u);
  EXPECT_EQ(keys[0].id, "alice");  // by id
  EXPECT_EQ(keys[1].id, "root.admin-1");
  EXPECT_EQ(keys[1].role, Role::kAdmin);
  for (const KeyRecord& k : keys) EXPECT_TRUE(k.secret.empty()) << k.id;

  ASSERT_TRUE(store->RemoveKey("alice").ok());
  ExpectOneLine(store->FindKey("alice").status(), Status::Code::kNotFound, "'alice'");
  ExpectOneLine(store->RemoveKey("alice"), Status::Code::kNotFound, "'alice'");
  EXPECT_TRUE(store->ReadError().ok());
}

TEST(ServiceStore, KeysThatCannotBeAreRefused) {
  ScratchDir scratch;
  auto store = OpenOrDie(scratch.path());
  ASSERT_TRUE(store->CreateQueue("q", 1, 0).ok());
  ASSERT_TRUE(store->AddKey("bob", Role::kReader, "", 0).ok());
  const std::string before = store->FindKey("bob")->secret;
  ExpectOneLine(store->AddKey("bob", Role::kAdmin, "", 1).status(), Status::Code::kInvalidArgument,
                "key 'bob' already exists");
  EXPECT_EQ(store->FindKey("bob")->secret, before);  // the first key is untouched
  EXPECT_EQ(store->FindKey("bob")->role, Role::kReader);
  ExpectOneLine(store->AddKey("carol", Role::kOwner, "", 0).status(),
                Status::Code::kInvalidArgument, "needs a queue");
  ExpectOneLine(store->AddKey("carol", Role::kOwner, "nosuch", 0).status(), Status::Code::kNotFound,
                "queue 'nosuch'");
  ExpectOneLine(store->AddKey("carol", Role::kReader, "q", 0).status(),
                Status::Code::kInvalidArgument, "takes no queue");
  ExpectOneLine(store->AddKey("carol", Role::kAdmin, "q", 0).status(),
                Status::Code::kInvalidArgument, "takes no queue");
  for (const std::string& bad :
       std::vector<std::string>{"", "a b", "../x", "x/y", "caf\xc3\xa9", "two\nlines",
                                std::string(65, 'k'), std::string("nul\0", 4)})
    ExpectOneLine(store->AddKey(bad, Role::kReader, "", 0).status(), Status::Code::kInvalidArgument,
                  "key name");
  ExpectOneLine(store->CreateQueue("no queue", 1, 0), Status::Code::kInvalidArgument, "queue name");
  EXPECT_TRUE(store->AddKey(std::string(64, 'k'), Role::kReader, "", 0).ok());
  EXPECT_EQ(store->Keys().size(), 2u);
}

TEST(ServiceStore, QueuesKeepTheirRatesOverTimeAndRefuseBadFigures) {
  ScratchDir scratch;
  auto store = OpenOrDie(scratch.path());
  ASSERT_TRUE(store->CreateQueue("q", 3, 10, "admin").ok());
  ExpectOneLine(store->CreateQueue("q", 4, 11), Status::Code::kInvalidArgument,
                "queue 'q' already exists");
  ExpectOneLine(store->CreateQueue("neg", -1, 0), Status::Code::kInvalidArgument, "rate -1");
  ASSERT_TRUE(store->SetRate("q", 7, "alice", 20).ok());
  ASSERT_TRUE(store->SetRate("q", 0, "alice", 30).ok());
  ExpectOneLine(store->SetRate("q", -5, "alice", 40), Status::Code::kInvalidArgument, "'q'");
  ExpectOneLine(store->SetRate("nosuch", 1, "alice", 40), Status::Code::kNotFound, "'nosuch'");
  const std::vector<RateChangeRecord> rates = store->RateChanges("q");
  ASSERT_EQ(rates.size(), 3u);
  EXPECT_EQ(rates[0].rate, 3);
  EXPECT_EQ(rates[0].by_key, "admin");
  EXPECT_EQ(rates[1].rate, 7);
  EXPECT_EQ(rates[1].at_ms, 20);
  EXPECT_EQ(rates[2].rate, 0);
  EXPECT_EQ(rates[2].by_key, "alice");

  Result<QueueRecord> q = store->FindQueue("q");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->rate, 0);
  EXPECT_EQ(q->budget, 0);
  EXPECT_EQ(q->deposits, 0);
  EXPECT_EQ(q->created_ms, 10);
  ExpectOneLine(store->FindQueue("nosuch").status(), Status::Code::kNotFound, "'nosuch'");

  ExpectOneLine(store->Deposit("q", 0, "admin", 50), Status::Code::kInvalidArgument, "positive");
  ExpectOneLine(store->Deposit("q", -3, "admin", 50), Status::Code::kInvalidArgument, "positive");
  ExpectOneLine(store->Deposit("nosuch", 3, "admin", 50), Status::Code::kNotFound, "'nosuch'");
  ASSERT_TRUE(store->Deposit("q", kMaxMicroCredits - 1, "admin", 60).ok());
  ExpectOneLine(store->Deposit("q", 2, "admin", 70), Status::Code::kInvalidArgument, "10^18");
  ASSERT_TRUE(store->Deposit("q", 1, "admin", 80).ok());
  EXPECT_EQ(store->FindQueue("q")->budget, kMaxMicroCredits);
  EXPECT_EQ(store->Deposits("q").size(), 2u);
  EXPECT_TRUE(store->CheckInvariant().ok());
}

TEST(ServiceStore, DepositsAndChargesKeepTheInvariant) {
  ScratchDir scratch;
  auto store = OpenOrDie(scratch.path());
  ASSERT_TRUE(store->CreateQueue("a", 2, 0).ok());
  ASSERT_TRUE(store->CreateQueue("b", 1, 0).ok());
  ASSERT_TRUE(store->Deposit("a", 1'000'000, "admin", 1).ok());
  ASSERT_TRUE(store->Deposit("b", 500, "admin", 2).ok());
  ASSERT_TRUE(store->Deposit("a", 250, "admin", 3).ok());
  ASSERT_TRUE(store
                  ->RecordCharges({Charge("a", 1, 0, 400), Charge("b", 2, 0, 100),
                                   Charge("a", 1, 1000, 600), Charge("a", 0, 1000, 0)})
                  .ok());
  Result<QueueRecord> a = store->FindQueue("a");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a->deposits, 1'000'250);
  EXPECT_EQ(a->charged, 1'000);
  EXPECT_EQ(a->budget, 999'250);
  EXPECT_EQ(store->FindQueue("b")->budget, 400);
  EXPECT_TRUE(store->CheckInvariant().ok());

  // The statement, oldest first, a page at a time.
  const std::vector<ChargeRecord> all = store->Charges("a", 0, 100);
  ASSERT_EQ(all.size(), 3u);
  EXPECT_EQ(all[0].amount, 400);
  EXPECT_EQ(all[0].job, 1);
  EXPECT_EQ(all[0].end_ms, 1000);
  EXPECT_EQ(all[0].slot_s, 2.0);
  EXPECT_EQ(all[0].price, 200);
  EXPECT_EQ(all[1].start_ms, 1000);
  EXPECT_EQ(all[2].job, 0);
  const std::vector<ChargeRecord> page = store->Charges("a", 1, 1);
  ASSERT_EQ(page.size(), 1u);
  EXPECT_EQ(page[0].amount, 600);
  EXPECT_TRUE(store->Charges("a", 3, 10).empty());
  EXPECT_EQ(store->Deposits("a").size(), 2u);
  EXPECT_EQ(store->Deposits("a")[1].amount, 250);
  EXPECT_EQ(store->Queues().size(), 2u);
  EXPECT_TRUE(store->RecordCharges({}).ok());
}

// What each queue's figures are, to compare before and after a refused batch.
std::vector<std::tuple<std::string, MicroCredits, MicroCredits, MicroCredits>> Figures(
    const ServiceStore& store) {
  std::vector<std::tuple<std::string, MicroCredits, MicroCredits, MicroCredits>> out;
  for (const QueueRecord& q : store.Queues())
    out.emplace_back(q.name, q.budget, q.deposits, q.charged);
  return out;
}

TEST(ServiceStore, ABatchThatWouldOverdrawOneQueueWritesNothing) {
  ScratchDir scratch;
  auto store = OpenOrDie(scratch.path());
  for (const char* q : {"a", "b", "c"}) {
    ASSERT_TRUE(store->CreateQueue(q, 1, 0).ok());
    ASSERT_TRUE(store->Deposit(q, 1000, "admin", 0).ok());
  }
  const auto before = Figures(*store);
  // b's two charges are within its budget apart, not together.
  ExpectOneLine(store->RecordCharges({Charge("a", 1, 0, 10), Charge("b", 2, 0, 600),
                                      Charge("c", 3, 0, 10), Charge("b", 2, 1000, 401)}),
                Status::Code::kResourceExhausted, "queue 'b': charges of 1001");
  EXPECT_EQ(Figures(*store), before);
  EXPECT_TRUE(store->Charges("a", 0, 10).empty());
  EXPECT_TRUE(store->Charges("c", 0, 10).empty());
  ExpectOneLine(store->RecordCharges({Charge("a", 1, 0, 10), Charge("nosuch", 2, 0, 1)}),
                Status::Code::kNotFound, "'nosuch'");
  ExpectOneLine(store->RecordCharges({Charge("a", 1, 0, 10), Charge("c", 2, 0, -1)}),
                Status::Code::kInvalidArgument, "negative amount");
  ChargeRecord backwards = Charge("a", 1, 5000, 1);
  backwards.end_ms = 4000;
  ExpectOneLine(store->RecordCharges({backwards}), Status::Code::kInvalidArgument, "'a'");
  EXPECT_EQ(Figures(*store), before);
  EXPECT_TRUE(store->CheckInvariant().ok());
  // Exactly the budget is fine.
  ASSERT_TRUE(store->RecordCharges({Charge("b", 2, 0, 1000)}).ok());
  EXPECT_EQ(store->FindQueue("b")->budget, 0);
  EXPECT_TRUE(store->CheckInvariant().ok());
}

TEST(ServiceStore, TheSameChargeIsNeverCountedTwice) {
  ScratchDir scratch;
  auto store = OpenOrDie(scratch.path());
  ASSERT_TRUE(store->CreateQueue("a", 1, 0).ok());
  ASSERT_TRUE(store->CreateQueue("b", 1, 0).ok());
  ASSERT_TRUE(store->Deposit("a", 1000, "admin", 0).ok());
  ASSERT_TRUE(store->Deposit("b", 1000, "admin", 0).ok());
  ASSERT_TRUE(store->RecordCharges({Charge("a", 7, 3000, 100)}).ok());
  const auto before = Figures(*store);
  // Again, even with another amount, and inside a batch that is otherwise new.
  ExpectOneLine(store->RecordCharges({Charge("b", 7, 3000, 5), Charge("a", 7, 3000, 50)}),
                Status::Code::kInvalidArgument, "job 7 from 3000 ms is already recorded");
  EXPECT_EQ(Figures(*store), before);
  // Twice in one batch.
  ExpectOneLine(store->RecordCharges({Charge("b", 1, 0, 5), Charge("b", 1, 0, 5)}),
                Status::Code::kInvalidArgument, "already recorded");
  EXPECT_EQ(Figures(*store), before);
  // Another start, job or queue is another charge.
  ASSERT_TRUE(store
                  ->RecordCharges(
                      {Charge("a", 7, 4000, 1), Charge("a", 8, 3000, 1), Charge("b", 7, 3000, 1)})
                  .ok());
  EXPECT_EQ(store->FindQueue("a")->charged, 102);
  EXPECT_TRUE(store->CheckInvariant().ok());
}

StoredJob NewJob(const std::string& owner, const std::string& queue, int64_t at_ms) {
  StoredJob j;
  j.owner = owner;
  j.queue = queue;
  j.app = "wordcount";
  j.request = R"({"app":"wordcount","inputs":["in.txt"]})";
  j.submitted_ms = at_ms;
  return j;
}

TEST(ServiceStore, StateSurvivesClosingAndReopening) {
  ScratchDir scratch;
  std::string secret;
  int64_t job = 0;
  {
    auto store = OpenOrDie(scratch.path());
    ASSERT_TRUE(store->CreateQueue("q", 4, 1).ok());
    ASSERT_TRUE(store->Deposit("q", 900, "admin", 2).ok());
    ASSERT_TRUE(store->SetRate("q", 6, "alice", 3).ok());
    ASSERT_TRUE(store->RecordCharges({Charge("q", 1, 0, 300)}).ok());
    secret = store->AddKey("alice", Role::kOwner, "q", 4)->secret;
    StoredJob j = NewJob("alice", "q", 5);
    j.request = R"({"a":1})";
    job = *store->AddJob(j);
  }
  auto store = OpenOrDie(scratch.path());
  Result<QueueRecord> q = store->FindQueue("q");
  ASSERT_TRUE(q.ok());
  EXPECT_EQ(q->rate, 6);
  EXPECT_EQ(q->budget, 600);
  EXPECT_EQ(q->deposits, 900);
  EXPECT_EQ(q->charged, 300);
  EXPECT_EQ(store->FindKey("alice")->secret, secret);
  EXPECT_EQ(store->RateChanges("q").size(), 2u);
  EXPECT_EQ(store->Charges("q", 0, 10).size(), 1u);
  Result<StoredJob> j = store->FindJob(job);
  ASSERT_TRUE(j.ok());
  EXPECT_EQ(j->request, R"({"a":1})");
  EXPECT_EQ(j->phase, JobStage::kQueued);
  EXPECT_TRUE(store->CheckInvariant().ok());
  // And a charge recorded before the restart is still refused after it.
  ExpectOneLine(store->RecordCharges({Charge("q", 1, 0, 300)}), Status::Code::kInvalidArgument,
                "already recorded");
}

TEST(ServiceStore, AJobMovesThroughItsPhasesAndAFinalOneStays) {
  ScratchDir scratch;
  auto store = OpenOrDie(scratch.path());
  ASSERT_TRUE(store->CreateQueue("q", 1, 0).ok());
  Result<int64_t> id = store->AddJob(NewJob("alice", "q", 100));
  ASSERT_TRUE(id.ok()) << id.status().message();
  Result<StoredJob> j = store->FindJob(*id);
  ASSERT_TRUE(j.ok());
  EXPECT_EQ(j->phase, JobStage::kQueued);
  EXPECT_EQ(j->submitted_ms, 100);
  EXPECT_EQ(j->started_ms, 0);
  EXPECT_EQ(j->finished_ms, 0);

  ASSERT_TRUE(store->SetJobPhase(*id, JobStage::kRunning, "2 maps", 150).ok());
  ASSERT_TRUE(store->SetJobPhase(*id, JobStage::kRunning, "1 map", 170).ok());
  EXPECT_EQ(store->FindJob(*id)->started_ms, 150);  // when it became running
  EXPECT_EQ(store->FindJob(*id)->message, "1 map");
  ASSERT_TRUE(store->SetJobTasks(*id, "/state/out/1", 3, 2).ok());
  ASSERT_TRUE(
      store->SetJobPhase(*id, JobStage::kSucceeded, "done", 200, {"job wordcount: SUCCEEDED\n", 0})
          .ok());
  j = store->FindJob(*id);
  EXPECT_EQ(j->phase, JobStage::kSucceeded);
  EXPECT_EQ(j->started_ms, 150);
  EXPECT_EQ(j->finished_ms, 200);
  EXPECT_EQ(j->message, "done");
  EXPECT_EQ(j->output, "/state/out/1");
  EXPECT_EQ(j->maps, 3u);
  EXPECT_EQ(j->reduces, 2u);
  EXPECT_EQ(j->ending.report, "job wordcount: SUCCEEDED\n");
  EXPECT_EQ(j->ending.exit_code, 0);

  for (JobStage p : {JobStage::kRunning, JobStage::kQueued, JobStage::kFailed, JobStage::kCancelled,
                     JobStage::kSucceeded})
    ExpectOneLine(store->SetJobPhase(*id, p, "again", 300), Status::Code::kInvalidArgument,
                  "job " + std::to_string(*id) + " is already succeeded");
  j = store->FindJob(*id);
  EXPECT_EQ(j->phase, JobStage::kSucceeded);
  EXPECT_EQ(j->finished_ms, 200);
  EXPECT_EQ(j->message, "done");

  ExpectOneLine(store->SetJobPhase(999, JobStage::kRunning, "", 1), Status::Code::kNotFound,
                "job 999");
  ExpectOneLine(store->SetJobTasks(999, "x", 1, 1), Status::Code::kNotFound, "job 999");
  ExpectOneLine(store->FindJob(999).status(), Status::Code::kNotFound, "job 999");
  ExpectOneLine(store->AddJob(NewJob("alice", "nosuch", 1)).status(), Status::Code::kNotFound,
                "'nosuch'");

  // Cancelled while queued: it never started. Requeued after running: no start any more.
  const int64_t cancelled = *store->AddJob(NewJob("bob", "q", 400));
  ASSERT_TRUE(store->SetJobPhase(cancelled, JobStage::kCancelled, "by bob", 410).ok());
  EXPECT_EQ(store->FindJob(cancelled)->started_ms, 0);
  EXPECT_EQ(store->FindJob(cancelled)->finished_ms, 410);
  const int64_t requeued = *store->AddJob(NewJob("bob", "q", 500));
  ASSERT_TRUE(store->SetJobPhase(requeued, JobStage::kRunning, "", 510).ok());
  ASSERT_TRUE(store
                  ->SetJobPhase(requeued, JobStage::kQueued, "server restarted", 520,
                                {"an ending is only kept for a final phase", 1})
                  .ok());
  EXPECT_EQ(store->FindJob(requeued)->started_ms, 0);
  EXPECT_EQ(store->FindJob(requeued)->ending.report, "");
  EXPECT_EQ(store->FindJob(requeued)->ending.exit_code, 0);
  // Rejected at submission: final from the start.
  StoredJob rejected = NewJob("bob", "q", 600);
  rejected.phase = JobStage::kRejected;
  rejected.message = "cannot meet its deadline";
  EXPECT_EQ(store->FindJob(*store->AddJob(rejected))->finished_ms, 600);

  const std::map<JobStage, int64_t> counts = store->JobCounts();
  EXPECT_EQ(counts, (std::map<JobStage, int64_t>{{JobStage::kQueued, 1},
                                                 {JobStage::kSucceeded, 1},
                                                 {JobStage::kCancelled, 1},
                                                 {JobStage::kRejected, 1}}));
}

TEST(ServiceStore, JobsAreListedNewestFirstAndByOwner) {
  ScratchDir scratch;
  auto store = OpenOrDie(scratch.path());
  ASSERT_TRUE(store->CreateQueue("q", 1, 0).ok());
  std::vector<int64_t> ids;
  for (int i = 0; i < 6; ++i)
    ids.push_back(*store->AddJob(NewJob(i % 2 ? "bob" : "alice", "q", i)));
  const std::vector<StoredJob> all = store->Jobs("", 100);
  ASSERT_EQ(all.size(), 6u);
  EXPECT_EQ(all.front().id, ids.back());
  EXPECT_EQ(all.back().id, ids.front());
  const std::vector<StoredJob> bobs = store->Jobs("bob", 2);
  ASSERT_EQ(bobs.size(), 2u);
  EXPECT_EQ(bobs[0].id, ids[5]);
  EXPECT_EQ(bobs[1].id, ids[3]);
  EXPECT_TRUE(store->Jobs("carol", 10).empty());
  EXPECT_TRUE(store->Jobs("", 0).empty());
}

TEST(ServiceStore, ARestartedServerFindsItsUnfinishedJobsAndNeverReusesAnId) {
  ScratchDir scratch;
  std::vector<int64_t> ids;
  {
    auto store = OpenOrDie(scratch.path());
    ASSERT_TRUE(store->CreateQueue("q", 1, 0).ok());
    for (int i = 0; i < 4; ++i) ids.push_back(*store->AddJob(NewJob("alice", "q", i)));
    ASSERT_TRUE(store->SetJobPhase(ids[0], JobStage::kRunning, "", 10).ok());
    ASSERT_TRUE(store->SetJobPhase(ids[1], JobStage::kRunning, "", 10).ok());
    ASSERT_TRUE(store->SetJobPhase(ids[1], JobStage::kFailed, "map 3 failed", 20).ok());
    ASSERT_TRUE(store->SetJobPhase(ids[3], JobStage::kCancelled, "", 20).ok());
  }
  // The newest job's row goes (an operator's clean-up): its id must still not come back.
  RunSql(scratch / "state.db", "DELETE FROM jobs WHERE id = " + std::to_string(ids[3]));
  auto store = OpenOrDie(scratch.path());
  const std::vector<StoredJob> unfinished = store->UnfinishedJobs();
  ASSERT_EQ(unfinished.size(), 2u);
  EXPECT_EQ(unfinished[0].id, ids[0]);  // oldest first
  EXPECT_EQ(unfinished[0].phase, JobStage::kRunning);
  EXPECT_EQ(unfinished[1].id, ids[2]);
  EXPECT_EQ(unfinished[1].phase, JobStage::kQueued);
  const int64_t next = *store->AddJob(NewJob("alice", "q", 30));
  EXPECT_GT(next, ids[3]);
  for (size_t i = 1; i < ids.size(); ++i) EXPECT_GT(ids[i], ids[i - 1]);
}

TEST(ServiceStore, AFileThatIsNotADatabaseIsRefusedAndLeftAlone) {
  ScratchDir scratch;
  std::string garbage;
  std::mt19937_64 rng(7);
  for (int i = 0; i < 8192; ++i) garbage += static_cast<char>(rng());
  testing::WriteFile(scratch / "state.db", garbage);
  Result<std::unique_ptr<ServiceStore>> store = ServiceStore::Open(scratch.path());
  ASSERT_FALSE(store.ok());
  ExpectOneLine(store.status(), Status::Code::kIoError, (scratch / "state.db").string());
  EXPECT_EQ(testing::ReadFile(scratch / "state.db"), garbage);
}

TEST(ServiceStore, ADirectoryWhereTheFileShouldBeIsRefused) {
  ScratchDir scratch;
  fs::create_directory(scratch / "state.db");
  ExpectOneLine(ServiceStore::Open(scratch.path()).status(), Status::Code::kIoError,
                (scratch / "state.db").string());
  testing::WriteFile(scratch / "file", "x");
  ExpectOneLine(ServiceStore::Open(scratch / "file").status(), Status::Code::kIoError,
                (scratch / "file").string());
}

TEST(ServiceStore, ADatabaseOfANewerSchemaIsRefused) {
  ScratchDir scratch;
  {
    auto store = OpenOrDie(scratch.path());
    ASSERT_TRUE(store->CreateQueue("q", 1, 0).ok());
  }
  RunSql(scratch / "state.db", "PRAGMA user_version = 1000");
  Result<std::unique_ptr<ServiceStore>> store = ServiceStore::Open(scratch.path());
  ASSERT_FALSE(store.ok());
  ExpectOneLine(store.status(), Status::Code::kInvalidArgument,
                (scratch / "state.db").string() + " has schema version 1000");
}

TEST(ServiceStore, AVersionOneDatabaseGainsTheJobsTaskCountsAndEndings) {
  ScratchDir scratch;
  int64_t id = 0;
  {
    auto store = OpenOrDie(scratch.path());
    ASSERT_TRUE(store->CreateQueue("q", 1, 0).ok());
    id = *store->AddJob(NewJob("alice", "q", 100));
  }
  // The jobs table as version 1 made it.
  RunSql(scratch / "state.db",
         "ALTER TABLE jobs DROP COLUMN maps; ALTER TABLE jobs DROP COLUMN reduces; "
         "ALTER TABLE jobs DROP COLUMN report; ALTER TABLE jobs DROP COLUMN exit_code; "
         "PRAGMA user_version = 1");
  auto store = OpenOrDie(scratch.path());
  Result<StoredJob> job = store->FindJob(id);
  ASSERT_TRUE(job.ok()) << job.status().message();
  EXPECT_EQ(job->submitted_ms, 100);
  EXPECT_EQ(job->maps, 0u);
  ASSERT_TRUE(store->SetJobTasks(id, "", 4, 1).ok());
  ASSERT_TRUE(store->SetJobPhase(id, JobStage::kFailed, "bad input", 200, {"report\n", 2}).ok());
  job = store->FindJob(id);
  EXPECT_EQ(job->maps, 4u);
  EXPECT_EQ(job->ending.exit_code, 2);
}

TEST(ServiceStore, TheInvariantCheckFindsABudgetChangedBehindTheServersBack) {
  ScratchDir scratch;
  {
    auto store = OpenOrDie(scratch.path());
    ASSERT_TRUE(store->CreateQueue("a", 1, 0).ok());
    ASSERT_TRUE(store->CreateQueue("b", 1, 0).ok());
    ASSERT_TRUE(store->Deposit("b", 100, "admin", 0).ok());
    ASSERT_TRUE(store->RecordCharges({Charge("b", 1, 0, 30)}).ok());
  }
  RunSql(scratch / "state.db", "UPDATE queues SET budget = budget + 1 WHERE name = 'b'");
  auto store = OpenOrDie(scratch.path());
  ExpectOneLine(store->CheckInvariant(), Status::Code::kCorruption,
                "queue 'b': deposits 100 != budget 71 + charges 30");
}

// 2,000 random operations, some refused, against an independent model of what each queue
// should hold; the store is closed and reopened every 250 of them.
TEST(ServiceStore, RandomOperationsKeepTheInvariantAndMatchAModel) {
  struct Model {
    MicroCredits budget = 0, deposits = 0, charged = 0, rate = 0;
    size_t charges = 0;
  };
  const std::vector<std::string> names = {"q0", "q1", "q2", "q3"};
  std::map<std::string, Model> model;
  std::set<std::tuple<std::string, int64_t, int64_t>> recorded;
  std::vector<std::tuple<std::string, int64_t, int64_t>> recorded_list;
  ScratchDir scratch;
  auto store = OpenOrDie(scratch.path());
  for (const std::string& q : names) ASSERT_TRUE(store->CreateQueue(q, 1, 0).ok());
  for (const std::string& q : names) model[q].rate = 1;
  std::mt19937_64 rng(20240522);
  auto pick = [&](int64_t lo, int64_t hi) {
    return std::uniform_int_distribution<int64_t>(lo, hi)(rng);
  };
  int64_t clock = 0;
  int refused = 0;
  for (int op = 0; op < 2000; ++op) {
    const std::string& q = names[pick(0, 3)];
    Model& m = model[q];
    const int64_t kind = pick(0, 9);
    ++clock;
    if (kind <= 2) {  // a deposit, sometimes not a positive one
      const MicroCredits amount = pick(-2, 1'000'000);
      const Status s = store->Deposit(q, amount, "admin", clock);
      ASSERT_EQ(s.ok(), amount > 0) << s.message();
      if (amount > 0) m.budget += amount, m.deposits += amount;
    } else if (kind == 3) {  // a rate change, sometimes a negative one
      const MicroCredits rate = pick(-1, 5000);
      const Status s = store->SetRate(q, rate, "owner", clock);
      ASSERT_EQ(s.ok(), rate >= 0) << s.message();
      if (rate >= 0) m.rate = rate;
    } else {  // a batch of charges; some overdraw, some repeat a recorded one
      std::vector<ChargeRecord> batch;
      std::map<std::string, MicroCredits> totals;
      bool repeat = false;
      for (int64_t n = pick(1, 4); n > 0; --n) {
        const std::string& cq = names[pick(0, 3)];
        const MicroCredits amount = pick(0, model[cq].budget / 2 + pick(0, 1) * 200'000);
        ChargeRecord c = Charge(cq, pick(0, 50), clock * 10'000 + n, amount);
        if (!recorded_list.empty() && pick(0, 19) == 0) {
          std::tie(c.queue, c.job, c.start_ms) =
              recorded_list[pick(0, static_cast<int64_t>(recorded_list.size()) - 1)];
          repeat = true;
        }
        totals[c.queue] += c.amount;
        batch.push_back(c);
      }
      bool overdraws = false;
      for (const auto& [cq, total] : totals) overdraws = overdraws || total > model[cq].budget;
      const Status s = store->RecordCharges(batch);
      if (overdraws) {
        ASSERT_EQ(s.code(), Status::Code::kResourceExhausted) << s.message();
      } else if (repeat) {
        ASSERT_EQ(s.code(), Status::Code::kInvalidArgument) << s.message();
      } else {
        ASSERT_TRUE(s.ok()) << s.message();
        for (const ChargeRecord& c : batch) {
          Model& cm = model[c.queue];
          cm.budget -= c.amount, cm.charged += c.amount, ++cm.charges;
          recorded.insert({c.queue, c.job, c.start_ms});
          recorded_list.emplace_back(c.queue, c.job, c.start_ms);
        }
      }
      refused += !s.ok();
    }
    if (op % 250 == 249) {
      ASSERT_TRUE(store->CheckInvariant().ok());
      store.reset();
      store = OpenOrDie(scratch.path());
      ASSERT_TRUE(store);
    }
  }
  EXPECT_GT(refused, 50);  // the refusals were exercised, not only the happy path
  EXPECT_EQ(recorded.size(), recorded_list.size());
  Status invariant = store->CheckInvariant();
  EXPECT_TRUE(invariant.ok()) << invariant.message();
  for (const std::string& q : names) {
    Result<QueueRecord> r = store->FindQueue(q);
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->budget, model[q].budget) << q;
    EXPECT_EQ(r->deposits, model[q].deposits) << q;
    EXPECT_EQ(r->charged, model[q].charged) << q;
    EXPECT_EQ(r->rate, model[q].rate) << q;
    EXPECT_EQ(store->Charges(q, 0, 100'000).size(), model[q].charges) << q;
  }
  EXPECT_TRUE(store->ReadError().ok());
}

TEST(ServiceStore, DepositsAndChargesFromTwoThreadsKeepTheInvariant) {
  ScratchDir scratch;
  auto store = OpenOrDie(scratch.path());
  ASSERT_TRUE(store->CreateQueue("a", 1, 0).ok());
  ASSERT_TRUE(store->CreateQueue("b", 1, 0).ok());
  MicroCredits deposited = 0, charged = 0;
  int charge_failures = 0;
  std::thread depositor([&] {
    std::mt19937_64 rng(1);
    for (int i = 0; i < 1000; ++i) {
      const MicroCredits amount = 1 + static_cast<MicroCredits>(rng() % 1000);
      if (store->Deposit(i % 2 ? "a" : "b", amount, "admin", i).ok()) deposited += amount;
    }
  });
  std::thread charger([&] {
    std::mt19937_64 rng(2);
    for (int i = 0; i < 1000; ++i) {
      const MicroCredits x = static_cast<MicroCredits>(rng() % 600), y = x / 3;
      const Status s = store->RecordCharges({Charge("a", 1, i, x), Charge("b", 1, i, y)});
      if (s.ok()) {
        charged += x + y;
      } else if (s.code() != Status::Code::kResourceExhausted) {
        ++charge_failures;
      }
    }
  });
  depositor.join();
  charger.join();
  EXPECT_EQ(charge_failures, 0);
  EXPECT_TRUE(store->CheckInvariant().ok());
  const QueueRecord a = *store->FindQueue("a"), b = *store->FindQueue("b");
  EXPECT_EQ(a.deposits + b.deposits, deposited);
  EXPECT_EQ(a.charged + b.charged, charged);
  EXPECT_GT(charged, 0);
}

}  // namespace
}  // namespace mrlocal
