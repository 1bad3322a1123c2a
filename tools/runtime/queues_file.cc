#include "tools/runtime/queues_file.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <ostream>
#include <utility>

#include "datasets/workload_file.h"
#include "datasets/workload_spec.h"
#include "engine/atomic_file.h"

namespace mrlocal {
namespace {

Result<std::vector<QueueSpec>> ReadQueues(const std::filesystem::path& path) {
  Result<std::string> text = ReadWorkloadFile(path.string());
  if (!text.ok()) return text.status();
  return ParseQueueListJson(*text, path.string());
}

// An exclusive lock on the file's directory while a charge reads and replaces the file, so
// that two runs charging one file at once both land (the file itself is replaced by a
// rename, so it cannot hold the lock; a lock file would be a file left behind).
class DirectoryLock {
 public:
  static Result<DirectoryLock> Take(const std::filesystem::path& file) {
    const std::filesystem::path dir = file.has_parent_path() ? file.parent_path() : ".";
    DirectoryLock lock;
    lock.fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (lock.fd_ < 0 || ::flock(lock.fd_, LOCK_EX) != 0)
      return Status::IoError("cannot lock '" + dir.string() + "': " + std::strerror(errno));
    return lock;
  }
  DirectoryLock(DirectoryLock&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  DirectoryLock& operator=(DirectoryLock&&) = delete;
  ~DirectoryLock() {
    if (fd_ >= 0) ::close(fd_);  // releases the lock
  }

 private:
  DirectoryLock() = default;
  int fd_ = -1;
};

}  // namespace

std::string QueueListJson(const std::vector<QueueSpec>& queues) {
  std::string out = "[";
  for (size_t i = 0; i < queues.size(); ++i) {
    const QueueSpec& q = queues[i];
    out += i ? ",\n " : "\n ";
    out += "{\"name\": " + nlohmann::json(q.name).dump();
    if (q.budget) out += ", \"budget\": " + FormatCredits(ToMicroCredits(*q.budget));
    // A whole rate as the user wrote it ("2", not "2.0"); others in shortest round-trip form.
    const bool whole = q.rate == std::floor(q.rate) && q.rate < 1e15;
    out += ", \"rate\": " +
           (whole ? std::to_string(static_cast<int64_t>(q.rate)) : nlohmann::json(q.rate).dump()) +
           "}";
  }
  return out + "\n]\n";
}

Result<QueuesFile> QueuesFile::Open(const std::filesystem::path& path) {
  QueuesFile file;
  file.path_ = path;
  RemoveStaleTemporaries(path.string());  // of a run killed while it saved the file
  Result<std::vector<QueueSpec>> queues = ReadQueues(path);
  if (!queues.ok()) return queues.status();
  file.queues_ = std::move(queues).value();
  return file;
}

bool QueuesFile::Has(const std::string& name) const {
  return std::any_of(queues_.begin(), queues_.end(),
                     [&](const QueueSpec& q) { return q.name == name; });
}

Status QueuesFile::Charge(const QueueLedger& ledger) {
  std::map<std::string, MicroCredits> due;
  for (const QueueAccount& a : ledger.accounts) {
    if (a.unlimited) continue;
    const MicroCredits d = a.spent - charged_[a.name];
    if (d > 0) due[a.name] = d;
  }
  if (due.empty()) return Status::OK();
  Result<DirectoryLock> lock = DirectoryLock::Take(path_);
  if (!lock.ok()) return lock.status();
  Result<std::vector<QueueSpec>> read = ReadQueues(path_);
  if (!read.ok()) return read.status();
  std::vector<QueueSpec> now = std::move(read).value();
  for (QueueSpec& q : now) {
    auto it = due.find(q.name);
    if (it == due.end() || !q.budget) continue;
    q.budget = ToCredits(std::max<MicroCredits>(0, ToMicroCredits(*q.budget) - it->second));
  }
  MRLOCAL_RETURN_IF_ERROR(WriteFileAtomically(path_.string(), QueueListJson(now), /*sync=*/true));
  for (const auto& [name, d] : due) charged_[name] += d;
  return Status::OK();
}

void QueuesFileCharger::ChargeClosedIntervals() {
  const QueueLedger* ledger = ledger_();
  if (!ledger || ledger->intervals.size() == intervals_) return;
  intervals_ = ledger->intervals.size();
  Charge();
}

void QueuesFileCharger::Charge() {
  const QueueLedger* ledger = ledger_();
  if (!ledger) return;
  Status st = file_.Charge(*ledger);
  if (!st.ok() && !warned_) {
    err_ << "mrlocal: warning: queues file not updated: " << st.message() << "\n";
    warned_ = true;
  }
}

}  // namespace mrlocal
