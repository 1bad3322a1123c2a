#include "tools/runtime/history_file.h"

#include <ostream>
#include <system_error>

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

// "history file 'F' is corrupt (WHAT): ignored", from Load's "... is corrupt: WHAT".
std::string CorruptWarning(const Status& s) {
  std::string m = s.message();
  const std::string tag = " is corrupt: ";
  const size_t at = m.find(tag);
  if (at == std::string::npos) return m + ": ignored";
  return m.substr(0, at) + " is corrupt (" + m.substr(at + tag.size()) + "): ignored";
}

}  // namespace

Result<HistoryFile> HistoryFile::Open(const fs::path& path, std::ostream& err) {
  HistoryFile f;
  f.path_ = path;
  Result<JobHistory> loaded = JobHistory::Load(path);
  if (loaded.ok()) {
    f.history_ = std::move(loaded).value();
  } else if (loaded.status().code() == Status::Code::kInvalidArgument) {
    err << "mrlocal: warning: " << CorruptWarning(loaded.status()) << "\n";
  } else if (loaded.status().code() != Status::Code::kNotFound) {
    return loaded.status();
  }
  return f;
}

Status HistoryFile::Record(const JobObservation& job, std::ostream& out, std::ostream& err,
                           bool quiet) {
  JobHistory current;
  Result<JobHistory> loaded = JobHistory::Load(path_);
  if (loaded.ok()) {
    current = std::move(loaded).value();
  } else if (loaded.status().code() == Status::Code::kInvalidArgument) {
    // Kept for whoever wants to see what went wrong; never read again.
    fs::path aside = path_;
    aside += ".corrupt";
    std::error_code ec;
    fs::rename(path_, aside, ec);
    if (ec)
      return Status::IoError("cannot rename corrupt history file '" + path_.string() + "' to '" +
                             aside.string() + "': " + ec.message());
    err << "mrlocal: history: the corrupt file was kept as '" << aside.string() << "'\n";
  } else if (loaded.status().code() != Status::Code::kNotFound) {
    return loaded.status();
  }
  current.Record(job);
  Status saved = current.Save(path_);
  if (!saved.ok()) return saved;
  history_ = std::move(current);
  if (!quiet) out << "mrlocal: history: " << job.app << " updated in " << path_.string() << "\n";
  return Status::OK();
}

}  // namespace mrlocal
