// The durable state of `mrlocal serve`: API keys, queues with their budgets and spending
// rates, every deposit, rate change and charge, and every job, in one SQLite database,
// DIR/state.db (schema: tools/serve/schema.sql). The server is trusted with its users'
// budgets, so a charge and the budget it draws on change in one transaction, a charge is
// never counted twice, and for every queue sum(deposits) = budget + sum(charges) holds
// exactly, in integer micro-credits (CheckInvariant), across restarts and kill -9.
//
// engine/status.h has no AlreadyExists or FailedPrecondition code, so the store uses:
//   a name or charge already taken         InvalidArgument "... already exists/recorded"
//   charges beyond a queue's budget        ResourceExhausted (the budget is the bound)
//   a job in a final phase changed         InvalidArgument "job N is already PHASE"
//   a database of a newer schema           InvalidArgument naming the file
//   an unknown queue, key or job           NotFound
//   the file unreadable or not a database  IoError naming the file; Corruption when SQLite
//                                          finds it damaged later
// Every message is one line naming the file, queue, key or job concerned.
//
// Thread-safe: one connection, behind a mutex (HTTP threads and the scheduler's loop share
// it). Another process (`mrlocal keys add --state DIR`) may use the file at the same time;
// SQLite's locks and a busy timeout order them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"
#include "sched/core/queue_spec.h"

namespace mrlocal {

// The largest budget or rate: 10^12 credits, sched/core/queue_spec.h's kMaxCredits.
inline constexpr MicroCredits kMaxMicroCredits = 1'000'000'000'000'000'000;

// admin: keys and queues; owner: submits to and sets the rate of its own queue; reader:
// views.
enum class Role : uint8_t { kAdmin, kOwner, kReader };
std::string_view RoleName(Role r);  // "admin" "owner" "reader"
// InvalidArgument naming the accepted values.
Result<Role> ParseRole(std::string_view text);

struct KeyRecord {
  std::string id;      // the key's name, [A-Za-z0-9_.-]{1,64}
  std::string secret;  // 64 hex digits (32 random bytes); empty where not asked for
  Role role = Role::kReader;
  std::string queue;  // an owner's queue; empty for the others
  int64_t created_ms = 0;
};

struct QueueRecord {
  std::string name;
  MicroCredits rate = 0;      // bid per slot and allocation interval
  MicroCredits budget = 0;    // what is left to spend
  MicroCredits deposits = 0;  // all ever deposited
  MicroCredits charged = 0;   // all ever charged
  int64_t created_ms = 0;
};

// What a queue paid for slots over [start_ms, end_ms): slot_s slot-seconds at `price`,
// `amount` in all. (queue, job, start_ms) identifies it.
struct ChargeRecord {
  std::string queue;
  int64_t job = 0;  // 0: none
  int64_t start_ms = 0, end_ms = 0;
  double slot_s = 0;
  MicroCredits price = 0;
  MicroCredits amount = 0;
};

struct DepositRecord {
  MicroCredits amount = 0;
  int64_t at_ms = 0;
  std::string by_key;
};

struct RateChangeRecord {
  MicroCredits rate = 0;
  int64_t at_ms = 0;
  std::string by_key;  // empty for the rate a queue was created with, unless given
};

enum class JobStage : uint8_t { kQueued, kRunning, kSucceeded, kFailed, kCancelled, kRejected };
// "queued" "running" "succeeded" "failed" "cancelled" "rejected"
std::string_view JobStageName(JobStage phase);
// InvalidArgument naming the accepted values.
Result<JobStage> ParseJobStage(std::string_view text);
// Succeeded, failed, cancelled or rejected: the job does not change any more.
bool IsFinal(JobStage phase);

// How a job ended, as a local run of it ends: what it prints on stdout (its result and
// closing report) and its exit code. Empty and 0 until it ends, and for a job that never
// ran (its deadline passed while the server was down).
struct JobEnding {
  std::string report;
  int exit_code = 0;
};

struct StoredJob {
  int64_t id = 0;
  std::string owner;  // key id
  std::string queue, app;
  std::string request;  // the submission, JSON text
  JobStage phase = JobStage::kQueued;
  std::string message;
  int64_t submitted_ms = 0, started_ms = 0, finished_ms = 0;  // 0: not yet
  std::string output;                                         // output directory, may be empty
  uint32_t maps = 0, reduces = 0;                             // 0 until its input is split
  JobEnding ending;                                           // once it has ended
};

class ServiceStore {
 public:
  // Opens DIR/state.db, creating DIR (mode 0700) and the file (mode 0600: it holds the
  // keys' secrets) when missing; an existing file and its -wal and -shm are set to 0600.
  // Applies the schema, and refuses a database of a newer schema than this mrlocal's.
  static Result<std::unique_ptr<ServiceStore>> Open(const std::filesystem::path& dir);
  ~ServiceStore();
  ServiceStore(const ServiceStore&) = delete;
  ServiceStore& operator=(const ServiceStore&) = delete;

  const std::filesystem::path& path() const;  // DIR/state.db

  // Keys. An owner key needs an existing queue (InvalidArgument when none is given,
  // NotFound when it does not exist); admin and reader keys take none. The secret is 32
  // bytes from OpenSSL's RAND_bytes, returned as hex.
  Result<KeyRecord> AddKey(const std::string& id, Role role, const std::string& queue,
                           int64_t now_ms);
  Result<KeyRecord> FindKey(const std::string& id) const;  // with its secret
  std::vector<KeyRecord> Keys() const;                     // by id; secrets left empty
  Status RemoveKey(const std::string& id);

  // Queues, named [A-Za-z0-9_.-]{1,64}, with 0 <= rate <= kMaxMicroCredits. A new queue
  // has budget 0 and no deposits; its rate is the first of its rate changes.
  Status CreateQueue(const std::string& name, MicroCredits rate, int64_t now_ms,
                     const std::string& by_key = {});
  Status SetRate(const std::string& name, MicroCredits rate, const std::string& by_key,
                 int64_t now_ms);
  // amount > 0; InvalidArgument when the budget would exceed kMaxMicroCredits.
  Status Deposit(const std::string& name, MicroCredits amount, const std::string& by_key,
                 int64_t now_ms);
  Result<QueueRecord> FindQueue(const std::string& name) const;
  std::vector<QueueRecord> Queues() const;  // by name

  // All of `charges` or none: refused whole when a queue is unknown, a figure is negative,
  // a queue's charges exceed its remaining budget, or a charge's (queue, job, start_ms) is
  // already recorded (in the database or earlier in `charges`).
  Status RecordCharges(const std::vector<ChargeRecord>& charges);
  // A queue's statement, oldest first: at most `limit` charges from the `offset`-th.
  std::vector<ChargeRecord> Charges(const std::string& queue, size_t offset, size_t limit) const;
  std::vector<DepositRecord> Deposits(const std::string& queue) const;
  std::vector<RateChangeRecord> RateChanges(const std::string& queue) const;

  // Jobs. AddJob stores `job` under a new id, never one used before (the queue must
  // exist, the owner is a key id); a job added running gets started_ms = submitted_ms, one
  // added in a final phase finished_ms = submitted_ms, unless given.
  Result<int64_t> AddJob(const StoredJob& job);
  // Sets started_ms when the job becomes running (and clears it when it is queued again,
  // as a restarted server may do), finished_ms and `ending` when it reaches a final phase.
  Status SetJobPhase(int64_t id, JobStage phase, const std::string& message, int64_t now_ms,
                     const JobEnding& ending = {});
  // Where its output goes and its tasks, in any phase.
  Status SetJobTasks(int64_t id, const std::string& output, uint32_t maps, uint32_t reduces);
  Result<StoredJob> FindJob(int64_t id) const;
  // Newest first, at most `limit`; an empty owner: everyone's.
  std::vector<StoredJob> Jobs(const std::string& owner, size_t limit) const;
  // Queued or running, oldest first: what a restarted server takes up again.
  std::vector<StoredJob> UnfinishedJobs() const;
  std::map<JobStage, int64_t> JobCounts() const;  // for /metrics; phases with no job omitted
  // The heap SQLite holds in this process (its page caches, statements), for /metrics.
  static int64_t SqliteMemoryUsed();

  // For every queue, sum(deposits) = budget + sum(charges), exactly. Corruption naming the
  // first queue (by name) where it fails, with the three figures.
  Status CheckInvariant() const;

  // The lists above cannot return an error: when SQLite fails while reading one (the disk
  // failing), it holds what was read before, and the first such error is kept here for the
  // server's /healthz. OK while none has happened.
  Status ReadError() const;

 private:
  class Db;  // the connection and its prepared statements (service_store.cc)
  explicit ServiceStore(std::unique_ptr<Db> db);
  // Notes a failed read for ReadError. REQUIRES: mu_ held.
  void NoteReadError(const Status& s) const;

  mutable std::mutex mu_;  // guards db_ and read_error_
  std::unique_ptr<Db> db_;
  mutable Status read_error_;
};

}  // namespace mrlocal
