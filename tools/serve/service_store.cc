#include "tools/serve/service_store.h"

#include <fcntl.h>
#include <openssl/rand.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <type_traits>
#include <unordered_map>
#include <utility>

#include "engine/one_line.h"
#include "tools/serve/hex.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

constexpr const char* kSchema =
#include "tools/serve/schema.inc"
    ;

// The user_version schema.sql ends with, so that the version has one source.
constexpr int64_t SchemaVersion(std::string_view schema) {
  constexpr std::string_view kPragma = "PRAGMA user_version = ";
  const size_t at = schema.rfind(kPragma);
  if (at == std::string_view::npos) return -1;
  int64_t version = 0;
  for (size_t i = at + kPragma.size(); i < schema.size() && schema[i] >= '0' && schema[i] <= '9';
       ++i)
    version = version * 10 + (schema[i] - '0');
  return version;
}
constexpr int64_t kSchemaVersion = SchemaVersion(kSchema);
static_assert(kSchemaVersion > 0, "schema.sql must set PRAGMA user_version = N");

// How long a write waits for another process's (`mrlocal keys add --state DIR`) to finish.
constexpr int kBusyTimeoutMs = 5000;
constexpr size_t kSecretBytes = 32;

constexpr std::array<std::string_view, 3> kRoleNames = {"admin", "owner", "reader"};
constexpr std::array<std::string_view, 6> kPhaseNames = {"queued", "running",   "succeeded",
                                                         "failed", "cancelled", "rejected"};

std::string Quoted(std::string_view text) { return "'" + OneLine(text) + "'"; }

// Key ids and queue names: [A-Za-z0-9_.-]{1,64}, safe in URLs, file names and logs.
Status CheckName(std::string_view kind, std::string_view name) {
  bool ok = !name.empty() && name.size() <= 64;
  for (const char c : name)
    ok = ok && ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ||
                c == '_' || c == '.' || c == '-');
  if (ok) return Status::OK();
  return Status::InvalidArgument(std::string(kind) + " name " + Quoted(name) +
                                 " is not 1 to 64 of A-Z a-z 0-9 _ . -");
}

Status CheckRate(const std::string& queue, MicroCredits rate) {
  if (rate >= 0 && rate <= kMaxMicroCredits) return Status::OK();
  return Status::InvalidArgument("queue " + Quoted(queue) + ": rate " + std::to_string(rate) +
                                 " micro-credits is not between 0 and 10^18");
}

Status CheckCharge(const ChargeRecord& c) {
  MRLOCAL_RETURN_IF_ERROR(CheckName("queue", c.queue));
  const char* bad = c.amount < 0               ? "a negative amount"
                    : c.price < 0              ? "a negative price"
                    : c.job < 0                ? "a negative job id"
                    : !(c.slot_s >= 0)         ? "negative or NaN slot-seconds"
                    : !std::isfinite(c.slot_s) ? "infinite slot-seconds"
                    : c.end_ms < c.start_ms    ? "an end before its start"
                                               : nullptr;
  if (bad == nullptr) return Status::OK();
  return Status::InvalidArgument("queue " + Quoted(c.queue) + ": the charge for job " +
                                 std::to_string(c.job) + " from " + std::to_string(c.start_ms) +
                                 " ms has " + bad);
}

// A value to bind as a BLOB rather than TEXT.
struct Blob {
  std::string_view bytes;
};

std::string TextAt(sqlite3_stmt* s, int col) {
  const auto* p = static_cast<const char*>(sqlite3_column_blob(s, col));
  return p == nullptr ? std::string() : std::string(p, sqlite3_column_bytes(s, col));
}
int64_t IntAt(sqlite3_stmt* s, int col) { return sqlite3_column_int64(s, col); }

int64_t Clamped(size_t n) {
  return n > static_cast<size_t>(std::numeric_limits<int64_t>::max())
             ? std::numeric_limits<int64_t>::max()
             : static_cast<int64_t>(n);
}

// Text the database holds for a role or a phase, which its CHECK constraints keep to
// these; anything else means the file was changed behind the server's back.
template <class E, size_t N>
E EnumAt(sqlite3_stmt* s, int col, const std::array<std::string_view, N>& names, Status& bad) {
  const std::string text = TextAt(s, col);
  for (size_t i = 0; i < N; ++i)
    if (names[i] == text) return static_cast<E>(i);
  if (bad.ok()) bad = Status::Corruption("state database holds an unknown value " + Quoted(text));
  return static_cast<E>(N - 1);  // reader, rejected: the least a bad row can do
}

// Creates `dir` 0700 when missing; an existing one is the operator's and left as it is
// (the database file itself is 0600 in any case).
Status MakePrivateDir(fs::path dir) {
  if (!dir.has_filename()) dir = dir.parent_path();  // "state/"
  if (dir.empty()) return Status::InvalidArgument("no state directory given");
  std::error_code ec;
  if (dir.has_parent_path()) fs::create_directories(dir.parent_path(), ec);
  if (ec)
    return Status::IoError("cannot create " + dir.parent_path().string() + ": " + ec.message());
  if (::mkdir(dir.c_str(), 0700) == 0) {
    // The umask may have taken bits away, never added any; this makes it exactly 0700.
    if (::chmod(dir.c_str(), 0700) == 0) return Status::OK();
  } else if (errno == EEXIST && fs::is_directory(dir, ec)) {
    return Status::OK();
  } else if (errno == EEXIST) {
    errno = ENOTDIR;
  }
  return Status::IoError("cannot create state directory " + dir.string() + ": " +
                         std::strerror(errno));
}

// Creates the database file 0600 before SQLite does (SQLite would create it 0644, and the
// -wal and -shm files it makes later copy the database file's mode), and takes an existing
// one and its -wal and -shm files back to 0600.
Status MakePrivateFile(const fs::path& path) {
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOCTTY, 0600);
  if (fd < 0) return Status::IoError("cannot open " + path.string() + ": " + std::strerror(errno));
  const bool made_private = ::fchmod(fd, 0600) == 0;
  const int error = errno;
  ::close(fd);
  if (!made_private)
    return Status::IoError("cannot make " + path.string() + " private: " + std::strerror(error));
  for (const char* suffix : {"-wal", "-shm"}) {
    const std::string side = path.string() + suffix;
    if (::chmod(side.c_str(), 0600) != 0 && errno != ENOENT)
      return Status::IoError("cannot make " + side + " private: " + std::strerror(errno));
  }
  return Status::OK();
}

}  // namespace

// The connection, its cached prepared statements, and the queries that several methods
// share. REQUIRES of every method: the owning store's mu_ held (or, in Open, no other user).
class ServiceStore::Db {
 public:
  Db(sqlite3* db, fs::path path) : db_(db), path_(std::move(path)) {}
  ~Db() {
    for (auto& entry : cache_) sqlite3_finalize(entry.second);
    sqlite3_close(db_);
  }
  Db(const Db&) = delete;
  Db& operator=(const Db&) = delete;

  const fs::path& path() const { return path_; }

  // BEGIN IMMEDIATE (the write lock at once, so a transaction never fails half-way for a
  // lock another process holds), COMMIT, and ROLLBACK on every path that does not commit.
  class Transaction {
   public:
    explicit Transaction(Db& db) : db_(db) {}
    ~Transaction() {
      if (open_ && !sqlite3_get_autocommit(db_.db_)) (void)db_.Exec("ROLLBACK");
    }
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;
    Status Begin() {
      MRLOCAL_RETURN_IF_ERROR(db_.Exec("BEGIN IMMEDIATE"));
      open_ = true;
      return Status::OK();
    }
    Status Commit() {
      MRLOCAL_RETURN_IF_ERROR(db_.Exec("COMMIT"));
      open_ = false;
      return Status::OK();
    }

   private:
    Db& db_;
    bool open_ = false;
  };

  // Runs `sql` with `args` bound to ?1, ?2, ... (never spliced into the text); `row` sees
  // each result row.
  template <class Row, class... Args>
  Status Run(const char* sql, Row&& row, const Args&... args) {
    sqlite3_stmt* stmt = nullptr;
    MRLOCAL_RETURN_IF_ERROR(Prepare(sql, &stmt));
    struct Reset {  // leaves the cached statement ready for its next use
      sqlite3_stmt* s;
      ~Reset() {
        sqlite3_reset(s);
        sqlite3_clear_bindings(s);
      }
    } reset{stmt};
    int index = 0, rc = SQLITE_OK;
    ((rc = rc == SQLITE_OK ? Bind(stmt, ++index, args) : rc), ...);
    if (rc != SQLITE_OK) return Fail();
    while ((rc = sqlite3_step(stmt)) == SQLITE_ROW) row(stmt);
    return rc == SQLITE_DONE ? Status::OK() : Fail();
  }
  template <class... Args>
  Status Exec(const char* sql, const Args&... args) {
    return Run(
        sql, [](sqlite3_stmt*) {}, args...);
  }

  // The status of the call that just failed: Corruption for a damaged file, IoError for
  // the rest (a full disk, a file that is not a database, ...).
  Status Fail() {
    last_code_ = sqlite3_extended_errcode(db_);
    const std::string m = "state database " + path_.string() + ": " + OneLine(sqlite3_errmsg(db_));
    return (last_code_ & 0xff) == SQLITE_CORRUPT ? Status::Corruption(m) : Status::IoError(m);
  }
  // Whether the failed statement broke a PRIMARY KEY or UNIQUE constraint, or a foreign key.
  bool Duplicate() const {
    return last_code_ == SQLITE_CONSTRAINT_PRIMARYKEY || last_code_ == SQLITE_CONSTRAINT_UNIQUE;
  }
  bool MissingParent() const { return last_code_ == SQLITE_CONSTRAINT_FOREIGNKEY; }
  int64_t Changes() const { return sqlite3_changes64(db_); }
  int64_t LastRowId() const { return sqlite3_last_insert_rowid(db_); }

  Status Configure();
  Status ApplySchema();
  Result<MicroCredits> Budget(const std::string& queue);

 private:
  Status Prepare(const char* sql, sqlite3_stmt** stmt) {
    auto [it, added] = cache_.try_emplace(sql, nullptr);
    if (added && sqlite3_prepare_v3(db_, sql, -1, SQLITE_PREPARE_PERSISTENT, &it->second,
                                    nullptr) != SQLITE_OK) {
      Status failed = Fail();
      cache_.erase(it);
      return failed;
    }
    *stmt = it->second;
    return Status::OK();
  }
  template <class T>
  static int Bind(sqlite3_stmt* s, int i, const T& v) {
    // SQLITE_STATIC: `v` outlives the statement's use (Run resets it before returning).
    if constexpr (std::is_same_v<T, Blob>) {
      return sqlite3_bind_blob64(s, i, v.bytes.data(), v.bytes.size(), SQLITE_STATIC);
    } else if constexpr (std::is_floating_point_v<T>) {
      return sqlite3_bind_double(s, i, v);
    } else if constexpr (std::is_integral_v<T>) {
      return sqlite3_bind_int64(s, i, static_cast<sqlite3_int64>(v));
    } else {
      const std::string_view text(v);
      return sqlite3_bind_text64(s, i, text.data(), text.size(), SQLITE_STATIC, SQLITE_UTF8);
    }
  }

  sqlite3* const db_;
  const fs::path path_;
  std::unordered_map<const char*, sqlite3_stmt*> cache_;  // by the address of the SQL literal
  int last_code_ = SQLITE_OK;
};

Status ServiceStore::Db::Configure() {
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
  std::string mode;
  // The first statement that reads the file: where garbage shows as "not a database".
  MRLOCAL_RETURN_IF_ERROR(
      Run("PRAGMA journal_mode = WAL", [&](sqlite3_stmt* s) { mode = TextAt(s, 0); }));
  if (mode != "wal")
    return Status::IoError("state database " + path_.string() + ": cannot use a WAL journal");
  // With a WAL journal, NORMAL syncs at checkpoints only: a committed transaction is in the
  // WAL file, so it survives the server's process dying (kill -9 included), but an OS crash
  // or power loss may lose the last few (the database stays consistent either way).
  MRLOCAL_RETURN_IF_ERROR(Exec("PRAGMA synchronous = NORMAL"));
  MRLOCAL_RETURN_IF_ERROR(Exec("PRAGMA foreign_keys = ON"));
  // A removed key's secret is overwritten, not left in a free page.
  return Exec("PRAGMA secure_delete = ON");
}

Status ServiceStore::Db::ApplySchema() {
  Transaction tx(*this);
  MRLOCAL_RETURN_IF_ERROR(tx.Begin());
  int64_t version = 0;
  MRLOCAL_RETURN_IF_ERROR(
      Run("PRAGMA user_version", [&](sqlite3_stmt* s) { version = IntAt(s, 0); }));
  if (version > kSchemaVersion)
    return Status::InvalidArgument("state database " + path_.string() + " has schema version " +
                                   std::to_string(version) + ", newer than this mrlocal's " +
                                   std::to_string(kSchemaVersion) +
                                   ": run the mrlocal that wrote it");
  if (version == 1)  // version 2 added the jobs' task counts and endings
    for (const char* statement :
         {"ALTER TABLE jobs ADD COLUMN maps INTEGER NOT NULL DEFAULT 0",
          "ALTER TABLE jobs ADD COLUMN reduces INTEGER NOT NULL DEFAULT 0",
          "ALTER TABLE jobs ADD COLUMN report TEXT NOT NULL DEFAULT ''",
          "ALTER TABLE jobs ADD COLUMN exit_code INTEGER NOT NULL DEFAULT 0"})
      MRLOCAL_RETURN_IF_ERROR(Exec(statement));  // literals: Exec caches by the text's address
  if (sqlite3_exec(db_, kSchema, nullptr, nullptr, nullptr) != SQLITE_OK) return Fail();
  return tx.Commit();
}

Result<MicroCredits> ServiceStore::Db::Budget(const std::string& queue) {
  std::optional<MicroCredits> budget;
  MRLOCAL_RETURN_IF_ERROR(Run(
      "SELECT budget FROM queues WHERE name = ?1", [&](sqlite3_stmt* s) { budget = IntAt(s, 0); },
      queue));
  if (!budget) return Status::NotFound("queue " + Quoted(queue) + " does not exist");
  return *budget;
}

int64_t ServiceStore::SqliteMemoryUsed() { return sqlite3_memory_used(); }

std::string_view RoleName(Role r) { return kRoleNames[static_cast<size_t>(r)]; }

Result<Role> ParseRole(std::string_view text) {
  for (size_t i = 0; i < kRoleNames.size(); ++i)
    if (kRoleNames[i] == text) return static_cast<Role>(i);
  return Status::InvalidArgument("unknown role " + Quoted(text) + ": admin, owner or reader");
}

std::string_view JobStageName(JobStage phase) { return kPhaseNames[static_cast<size_t>(phase)]; }

Result<JobStage> ParseJobStage(std::string_view text) {
  for (size_t i = 0; i < kPhaseNames.size(); ++i)
    if (kPhaseNames[i] == text) return static_cast<JobStage>(i);
  return Status::InvalidArgument("unknown job phase " + Quoted(text) +
                                 ": queued, running, succeeded, failed, cancelled or rejected");
}

bool IsFinal(JobStage phase) { return phase != JobStage::kQueued && phase != JobStage::kRunning; }

Result<std::unique_ptr<ServiceStore>> ServiceStore::Open(const fs::path& dir) {
  MRLOCAL_RETURN_IF_ERROR(MakePrivateDir(dir));
  const fs::path path = dir / "state.db";
  MRLOCAL_RETURN_IF_ERROR(MakePrivateFile(path));
  sqlite3* raw = nullptr;
  // NOMUTEX: the store's own mutex serializes every use of the connection.
  const int rc =
      sqlite3_open_v2(path.c_str(), &raw, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, nullptr);
  auto db = std::make_unique<Db>(raw, path);  // closes the connection, even a failed one
  if (rc != SQLITE_OK) return db->Fail();
  sqlite3_extended_result_codes(raw, 1);
  MRLOCAL_RETURN_IF_ERROR(db->Configure());
  MRLOCAL_RETURN_IF_ERROR(db->ApplySchema());
  return std::unique_ptr<ServiceStore>(new ServiceStore(std::move(db)));
}

ServiceStore::ServiceStore(std::unique_ptr<Db> db) : db_(std::move(db)) {}
ServiceStore::~ServiceStore() = default;

const fs::path& ServiceStore::path() const { return db_->path(); }

void ServiceStore::NoteReadError(const Status& s) const {
  if (read_error_.ok()) read_error_ = s;
}

Status ServiceStore::ReadError() const {
  std::lock_guard lock(mu_);
  return read_error_;
}

// ---- Keys

Result<KeyRecord> ServiceStore::AddKey(const std::string& id, Role role, const std::string& queue,
                                       int64_t now_ms) {
  MRLOCAL_RETURN_IF_ERROR(CheckName("key", id));
  if (role == Role::kOwner && queue.empty())
    return Status::InvalidArgument("key " + Quoted(id) + ": an owner key needs a queue");
  if (role != Role::kOwner && !queue.empty())
    return Status::InvalidArgument("key " + Quoted(id) + ": an " + std::string(RoleName(role)) +
                                   " key takes no queue (only owner keys have one)");
  if (!queue.empty()) MRLOCAL_RETURN_IF_ERROR(CheckName("queue", queue));
  std::string secret(kSecretBytes, '\0');
  if (RAND_bytes(reinterpret_cast<unsigned char*>(secret.data()), kSecretBytes) != 1)
    return Status::Internal("key " + Quoted(id) + ": OpenSSL's RAND_bytes failed");
  std::lock_guard lock(mu_);
  const Status added = db_->Exec(
      "INSERT INTO keys (id, secret, role, queue, created_ms) VALUES (?1, ?2, ?3, NULLIF(?4, ''), "
      "?5)",
      id, Blob{secret}, RoleName(role), queue, now_ms);
  if (!added.ok() && db_->Duplicate())
    return Status::InvalidArgument("key " + Quoted(id) + " already exists");
  if (!added.ok() && db_->MissingParent())
    return Status::NotFound("key " + Quoted(id) + ": queue " + Quoted(queue) + " does not exist");
  MRLOCAL_RETURN_IF_ERROR(added);
  return KeyRecord{id, ToHex(secret), role, queue, now_ms};
}

Result<KeyRecord> ServiceStore::FindKey(const std::string& id) const {
  std::lock_guard lock(mu_);
  std::optional<KeyRecord> key;
  Status bad;
  MRLOCAL_RETURN_IF_ERROR(db_->Run(
      "SELECT id, secret, role, coalesce(queue, ''), created_ms FROM keys WHERE id = ?1",
      [&](sqlite3_stmt* s) {
        key = KeyRecord{TextAt(s, 0), ToHex(TextAt(s, 1)), EnumAt<Role>(s, 2, kRoleNames, bad),
                        TextAt(s, 3), IntAt(s, 4)};
      },
      id));
  MRLOCAL_RETURN_IF_ERROR(bad);
  if (!key) return Status::NotFound("key " + Quoted(id) + " does not exist");
  return *std::move(key);
}

std::vector<KeyRecord> ServiceStore::Keys() const {
  std::lock_guard lock(mu_);
  std::vector<KeyRecord> keys;
  Status bad;
  NoteReadError(db_->Run("SELECT id, role, coalesce(queue, ''), created_ms FROM keys ORDER BY id",
                         [&](sqlite3_stmt* s) {
                           keys.push_back({TextAt(s, 0), "", EnumAt<Role>(s, 1, kRoleNames, bad),
                                           TextAt(s, 2), IntAt(s, 3)});
                         }));
  NoteReadError(bad);
  return keys;
}

Status ServiceStore::RemoveKey(const std::string& id) {
  std::lock_guard lock(mu_);
  MRLOCAL_RETURN_IF_ERROR(db_->Exec("DELETE FROM keys WHERE id = ?1", id));
  if (db_->Changes() == 0) return Status::NotFound("key " + Quoted(id) + " does not exist");
  return Status::OK();
}

// ---- Queues

Status ServiceStore::CreateQueue(const std::string& name, MicroCredits rate, int64_t now_ms,
                                 const std::string& by_key) {
  MRLOCAL_RETURN_IF_ERROR(CheckName("queue", name));
  MRLOCAL_RETURN_IF_ERROR(CheckRate(name, rate));
  std::lock_guard lock(mu_);
  Db::Transaction tx(*db_);
  MRLOCAL_RETURN_IF_ERROR(tx.Begin());
  const Status created =
      db_->Exec("INSERT INTO queues (name, rate, budget, created_ms) VALUES (?1, ?2, 0, ?3)", name,
                rate, now_ms);
  if (!created.ok() && db_->Duplicate())
    return Status::InvalidArgument("queue " + Quoted(name) + " already exists");
  MRLOCAL_RETURN_IF_ERROR(created);
  MRLOCAL_RETURN_IF_ERROR(
      db_->Exec("INSERT INTO rate_changes (queue, rate, at_ms, by_key) VALUES (?1, ?2, ?3, ?4)",
                name, rate, now_ms, by_key));
  return tx.Commit();
}

Status ServiceStore::SetRate(const std::string& name, MicroCredits rate, const std::string& by_key,
                             int64_t now_ms) {
  MRLOCAL_RETURN_IF_ERROR(CheckName("queue", name));
  MRLOCAL_RETURN_IF_ERROR(CheckRate(name, rate));
  std::lock_guard lock(mu_);
  Db::Transaction tx(*db_);
  MRLOCAL_RETURN_IF_ERROR(tx.Begin());
  MRLOCAL_RETURN_IF_ERROR(db_->Exec("UPDATE queues SET rate = ?2 WHERE name = ?1", name, rate));
  if (db_->Changes() == 0) return Status::NotFound("queue " + Quoted(name) + " does not exist");
  MRLOCAL_RETURN_IF_ERROR(
      db_->Exec("INSERT INTO rate_changes (queue, rate, at_ms, by_key) VALUES (?1, ?2, ?3, ?4)",
                name, rate, now_ms, by_key));
  return tx.Commit();
}

Status ServiceStore::Deposit(const std::string& name, MicroCredits amount,
                             const std::string& by_key, int64_t now_ms) {
  MRLOCAL_RETURN_IF_ERROR(CheckName("queue", name));
  if (amount <= 0)
    return Status::InvalidArgument("queue " + Quoted(name) + ": a deposit must be positive, not " +
                                   std::to_string(amount) + " micro-credits");
  std::lock_guard lock(mu_);
  Db::Transaction tx(*db_);
  MRLOCAL_RETURN_IF_ERROR(tx.Begin());
  const Result<MicroCredits> budget = db_->Budget(name);
  MRLOCAL_RETURN_IF_ERROR(budget.status());
  if (amount > kMaxMicroCredits - *budget)
    return Status::InvalidArgument(
        "queue " + Quoted(name) + ": a deposit of " + std::to_string(amount) +
        " micro-credits would take its budget (" + std::to_string(*budget) + ") beyond 10^18");
  MRLOCAL_RETURN_IF_ERROR(
      db_->Exec("INSERT INTO deposits (queue, amount, at_ms, by_key) VALUES (?1, ?2, ?3, ?4)", name,
                amount, now_ms, by_key));
  MRLOCAL_RETURN_IF_ERROR(
      db_->Exec("UPDATE queues SET budget = budget + ?2 WHERE name = ?1", name, amount));
  return tx.Commit();
}

namespace {

constexpr const char* kSelectQueue =
    "SELECT name, rate, budget, "
    "(SELECT coalesce(sum(amount), 0) FROM deposits WHERE queue = q.name), "
    "(SELECT coalesce(sum(amount), 0) FROM charges WHERE queue = q.name), created_ms "
    "FROM queues q";

QueueRecord QueueAt(sqlite3_stmt* s) {
  return {TextAt(s, 0), IntAt(s, 1), IntAt(s, 2), IntAt(s, 3), IntAt(s, 4), IntAt(s, 5)};
}

}  // namespace

Result<QueueRecord> ServiceStore::FindQueue(const std::string& name) const {
  static const std::string sql = std::string(kSelectQueue) + " WHERE name = ?1";
  std::lock_guard lock(mu_);
  std::optional<QueueRecord> queue;
  MRLOCAL_RETURN_IF_ERROR(db_->Run(
      sql.c_str(), [&](sqlite3_stmt* s) { queue = QueueAt(s); }, name));
  if (!queue) return Status::NotFound("queue " + Quoted(name) + " does not exist");
  return *std::move(queue);
}

std::vector<QueueRecord> ServiceStore::Queues() const {
  static const std::string sql = std::string(kSelectQueue) + " ORDER BY name";
  std::lock_guard lock(mu_);
  std::vector<QueueRecord> queues;
  NoteReadError(db_->Run(sql.c_str(), [&](sqlite3_stmt* s) { queues.push_back(QueueAt(s)); }));
  return queues;
}

// ---- Charges

Status ServiceStore::RecordCharges(const std::vector<ChargeRecord>& charges) {
  std::map<std::string, MicroCredits> totals;  // by queue; saturates, beyond any budget
  for (const ChargeRecord& c : charges) {
    MRLOCAL_RETURN_IF_ERROR(CheckCharge(c));
    MicroCredits& total = totals[c.queue];
    total = c.amount > std::numeric_limits<MicroCredits>::max() - total
                ? std::numeric_limits<MicroCredits>::max()
                : total + c.amount;
  }
  if (charges.empty()) return Status::OK();
  std::lock_guard lock(mu_);
  Db::Transaction tx(*db_);
  MRLOCAL_RETURN_IF_ERROR(tx.Begin());
  for (const auto& [queue, total] : totals) {
    const Result<MicroCredits> budget = db_->Budget(queue);
    MRLOCAL_RETURN_IF_ERROR(budget.status());
    if (total > *budget)
      return Status::ResourceExhausted(
          "queue " + Quoted(queue) + ": charges of " + std::to_string(total) +
          " micro-credits exceed its remaining budget of " + std::to_string(*budget));
  }
  for (const ChargeRecord& c : charges) {
    const Status added = db_->Exec(
        "INSERT INTO charges (queue, job, start_ms, end_ms, slot_s, price, amount) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        c.queue, c.job, c.start_ms, c.end_ms, c.slot_s, c.price, c.amount);
    if (!added.ok() && db_->Duplicate())
      return Status::InvalidArgument("queue " + Quoted(c.queue) + ": the charge for job " +
                                     std::to_string(c.job) + " from " + std::to_string(c.start_ms) +
                                     " ms is already recorded");
    MRLOCAL_RETURN_IF_ERROR(added);
  }
  for (const auto& [queue, total] : totals)
    MRLOCAL_RETURN_IF_ERROR(
        db_->Exec("UPDATE queues SET budget = budget - ?2 WHERE name = ?1", queue, total));
  return tx.Commit();
}

std::vector<ChargeRecord> ServiceStore::Charges(const std::string& queue, size_t offset,
                                                size_t limit) const {
  std::lock_guard lock(mu_);
  std::vector<ChargeRecord> charges;
  NoteReadError(db_->Run(
      "SELECT queue, job, start_ms, end_ms, slot_s, price, amount FROM charges "
      "WHERE queue = ?1 ORDER BY id LIMIT ?2 OFFSET ?3",
      [&](sqlite3_stmt* s) {
        charges.push_back({TextAt(s, 0), IntAt(s, 1), IntAt(s, 2), IntAt(s, 3),
                           sqlite3_column_double(s, 4), IntAt(s, 5), IntAt(s, 6)});
      },
      queue, Clamped(limit), Clamped(offset)));
  return charges;
}

std::vector<DepositRecord> ServiceStore::Deposits(const std::string& queue) const {
  std::lock_guard lock(mu_);
  std::vector<DepositRecord> deposits;
  NoteReadError(db_->Run(
      "SELECT amount, at_ms, by_key FROM deposits WHERE queue = ?1 ORDER BY id",
      [&](sqlite3_stmt* s) {
        deposits.push_back({IntAt(s, 0), IntAt(s, 1), TextAt(s, 2)});
      },
      queue));
  return deposits;
}

std::vector<RateChangeRecord> ServiceStore::RateChanges(const std::string& queue) const {
  std::lock_guard lock(mu_);
  std::vector<RateChangeRecord> changes;
  NoteReadError(db_->Run(
      "SELECT rate, at_ms, by_key FROM rate_changes WHERE queue = ?1 ORDER BY id",
      [&](sqlite3_stmt* s) {
        changes.push_back({IntAt(s, 0), IntAt(s, 1), TextAt(s, 2)});
      },
      queue));
  return changes;
}

// ---- Jobs

Result<int64_t> ServiceStore::AddJob(const StoredJob& job) {
  MRLOCAL_RETURN_IF_ERROR(CheckName("key", job.owner));
  MRLOCAL_RETURN_IF_ERROR(CheckName("queue", job.queue));
  const int64_t started =
      job.started_ms != 0 || job.phase != JobStage::kRunning ? job.started_ms : job.submitted_ms;
  const int64_t finished =
      job.finished_ms != 0 || !IsFinal(job.phase) ? job.finished_ms : job.submitted_ms;
  std::lock_guard lock(mu_);
  const Status added = db_->Exec(
      "INSERT INTO jobs (owner, queue, app, request, phase, message, submitted_ms, started_ms, "
      "finished_ms, output) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)",
      job.owner, job.queue, job.app, job.request, JobStageName(job.phase), job.message,
      job.submitted_ms, started, finished, job.output);
  if (!added.ok() && db_->MissingParent())
    return Status::NotFound("queue " + Quoted(job.queue) + " does not exist");
  MRLOCAL_RETURN_IF_ERROR(added);
  return db_->LastRowId();
}

Status ServiceStore::SetJobPhase(int64_t id, JobStage phase, const std::string& message,
                                 int64_t now_ms, const JobEnding& ending) {
  const bool final = IsFinal(phase);
  std::lock_guard lock(mu_);
  // In the SET expressions, `phase` is the job's phase before this change.
  MRLOCAL_RETURN_IF_ERROR(
      db_->Exec("UPDATE jobs SET phase = ?2, message = ?3, "
                "started_ms = CASE WHEN ?2 = 'queued' THEN 0 "
                "WHEN ?2 = 'running' AND phase <> 'running' THEN ?4 ELSE started_ms END, "
                "finished_ms = CASE WHEN ?5 THEN ?4 ELSE 0 END, report = ?6, exit_code = ?7 "
                "WHERE id = ?1 AND phase IN ('queued', 'running')",
                id, JobStageName(phase), message, now_ms, final ? 1 : 0,
                final ? ending.report : std::string(), final ? int64_t{ending.exit_code} : 0));
  if (db_->Changes() == 1) return Status::OK();
  std::string was;
  MRLOCAL_RETURN_IF_ERROR(db_->Run(
      "SELECT phase FROM jobs WHERE id = ?1", [&](sqlite3_stmt* s) { was = TextAt(s, 0); }, id));
  if (was.empty()) return Status::NotFound("job " + std::to_string(id) + " does not exist");
  return Status::InvalidArgument("job " + std::to_string(id) + " is already " + was +
                                 ": it cannot become " + std::string(JobStageName(phase)));
}

Status ServiceStore::SetJobTasks(int64_t id, const std::string& output, uint32_t maps,
                                 uint32_t reduces) {
  std::lock_guard lock(mu_);
  MRLOCAL_RETURN_IF_ERROR(
      db_->Exec("UPDATE jobs SET output = ?2, maps = ?3, reduces = ?4 WHERE id = ?1", id, output,
                int64_t{maps}, int64_t{reduces}));
  if (db_->Changes() == 0) return Status::NotFound("job " + std::to_string(id) + " does not exist");
  return Status::OK();
}

namespace {

constexpr const char* kJobColumns =
    "SELECT id, owner, queue, app, request, phase, message, submitted_ms, started_ms, "
    "finished_ms, output, maps, reduces, report, exit_code FROM jobs ";

StoredJob JobAt(sqlite3_stmt* s, Status& bad) {
  return {IntAt(s, 0),
          TextAt(s, 1),
          TextAt(s, 2),
          TextAt(s, 3),
          TextAt(s, 4),
          EnumAt<JobStage>(s, 5, kPhaseNames, bad),
          TextAt(s, 6),
          IntAt(s, 7),
          IntAt(s, 8),
          IntAt(s, 9),
          TextAt(s, 10),
          static_cast<uint32_t>(IntAt(s, 11)),
          static_cast<uint32_t>(IntAt(s, 12)),
          {TextAt(s, 13), static_cast<int>(IntAt(s, 14))}};
}

}  // namespace

Result<StoredJob> ServiceStore::FindJob(int64_t id) const {
  static const std::string sql = std::string(kJobColumns) + "WHERE id = ?1";
  std::lock_guard lock(mu_);
  std::optional<StoredJob> job;
  Status bad;
  MRLOCAL_RETURN_IF_ERROR(db_->Run(
      sql.c_str(), [&](sqlite3_stmt* s) { job = JobAt(s, bad); }, id));
  MRLOCAL_RETURN_IF_ERROR(bad);
  if (!job) return Status::NotFound("job " + std::to_string(id) + " does not exist");
  return *std::move(job);
}

std::vector<StoredJob> ServiceStore::Jobs(const std::string& owner, size_t limit) const {
  // Two statements rather than "?1 = '' OR owner = ?1", which would keep SQLite from using
  // the owner index.
  static const std::string everyone = std::string(kJobColumns) + "ORDER BY id DESC LIMIT ?1";
  static const std::string owners =
      std::string(kJobColumns) + "WHERE owner = ?2 ORDER BY id DESC LIMIT ?1";
  std::lock_guard lock(mu_);
  std::vector<StoredJob> jobs;
  Status bad;
  const auto row = [&](sqlite3_stmt* s) { jobs.push_back(JobAt(s, bad)); };
  NoteReadError(owner.empty() ? db_->Run(everyone.c_str(), row, Clamped(limit))
                              : db_->Run(owners.c_str(), row, Clamped(limit), owner));
  NoteReadError(bad);
  return jobs;
}

std::vector<StoredJob> ServiceStore::UnfinishedJobs() const {
  static const std::string sql =
      std::string(kJobColumns) + "WHERE phase IN ('queued', 'running') ORDER BY id";
  std::lock_guard lock(mu_);
  std::vector<StoredJob> jobs;
  Status bad;
  NoteReadError(db_->Run(sql.c_str(), [&](sqlite3_stmt* s) { jobs.push_back(JobAt(s, bad)); }));
  NoteReadError(bad);
  return jobs;
}

std::map<JobStage, int64_t> ServiceStore::JobCounts() const {
  std::lock_guard lock(mu_);
  std::map<JobStage, int64_t> counts;
  Status bad;
  NoteReadError(db_->Run("SELECT phase, count(*) FROM jobs GROUP BY phase", [&](sqlite3_stmt* s) {
    counts[EnumAt<JobStage>(s, 0, kPhaseNames, bad)] += IntAt(s, 1);
  }));
  NoteReadError(bad);
  return counts;
}

// ---- The invariant

Status ServiceStore::CheckInvariant() const {
  static const std::string sql = std::string(kSelectQueue) + " ORDER BY name";
  std::lock_guard lock(mu_);
  Status broken;
  // One statement: one consistent snapshot of all the queues.
  MRLOCAL_RETURN_IF_ERROR(db_->Run(sql.c_str(), [&](sqlite3_stmt* s) {
    const QueueRecord q = QueueAt(s);
    MicroCredits accounted = 0;
    if (broken.ok() &&
        (__builtin_add_overflow(q.budget, q.charged, &accounted) || accounted != q.deposits))
      broken = Status::Corruption(
          "queue " + Quoted(q.name) + ": deposits " + std::to_string(q.deposits) + " != budget " +
          std::to_string(q.budget) + " + charges " + std::to_string(q.charged) +
          " micro-credits in " + db_->path().string());
  }));
  return broken;
}

}  // namespace mrlocal
