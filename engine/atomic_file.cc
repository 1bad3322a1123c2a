#include "engine/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>

#include "engine/kill_point.h"
#include "engine/stale_temporary.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

Status ErrnoStatus(const std::string& what, const std::string& file, int err) {
  return Status::IoError(what + " '" + file + "': " + std::strerror(err));
}

}  // namespace

Result<std::unique_ptr<AtomicFileWriter>> AtomicFileWriter::Create(const std::string& file) {
  const fs::path target(file);
  fs::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  std::string tmp = (dir / (OwnTemporaryPrefix(target) + "XXXXXX")).string();
  int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) return ErrnoStatus("cannot create", file, errno);
  const mode_t mask = ::umask(0);  // mkstemp makes 0600; give what open(0666) would
  ::umask(mask);
  ::fchmod(fd, 0666 & ~mask);
  return std::unique_ptr<AtomicFileWriter>(new AtomicFileWriter(file, std::move(tmp), fd));
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ >= 0) ::close(fd_);
  if (!committed_) ::unlink(tmp_.c_str());
}

Status AtomicFileWriter::Append(std::string_view bytes) {
  if (fd_ < 0) return Status::Internal("'" + file_ + "': append after commit");
  while (!bytes.empty()) {
    ssize_t n = ::write(fd_, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return ErrnoStatus("cannot write", file_, errno);
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return Status::OK();
}

Status AtomicFileWriter::Commit(bool sync) {
  if (fd_ < 0) return Status::Internal("'" + file_ + "': committed twice");
  const bool synced = !sync || ::fsync(fd_) == 0;
  const int e = synced ? 0 : errno;
  const bool closed = ::close(fd_) == 0;
  fd_ = -1;
  if (!synced || !closed) return ErrnoStatus("cannot write", file_, synced ? errno : e);
  KillPoint("atomic-file-written");
  if (::rename(tmp_.c_str(), file_.c_str()) != 0)
    return ErrnoStatus("cannot rename into", file_, errno);
  committed_ = true;
  return Status::OK();
}

namespace {

// Whether `name` is a temporary as Create names them (mkostemp's six characters last),
// given the ".NAME.mrlocal-tmp-" it must begin with; sets its writer's PID.
bool IsTemporaryName(const std::string& name, const std::string& prefix, pid_t* pid) {
  std::string_view suffix;
  std::optional<pid_t> p = TemporaryPid(name, prefix, &suffix);
  if (!p || suffix.size() != 6) return false;
  for (char c : suffix)
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  *pid = *p;
  return true;
}

// Removes the stale temporaries in `dir` of the file `target`, or of any file when
// `target` is empty.
std::vector<std::string> RemoveStale(const fs::path& dir, const std::string& target) {
  std::vector<std::string> removed;
  std::error_code ec;
  constexpr std::string_view kTag = ".mrlocal-tmp-";
  for (const fs::directory_entry& e : fs::directory_iterator(dir, ec)) {
    const std::string name = e.path().filename().string();
    const size_t tag = name.rfind(kTag);
    if (name[0] != '.' || tag == std::string::npos) continue;
    const std::string prefix = name.substr(0, tag + kTag.size());
    if (!target.empty() && prefix != TemporaryPrefix(target)) continue;
    pid_t pid = 0;
    if (!IsTemporaryName(name, prefix, &pid) || !fs::is_regular_file(e.symlink_status(ec)))
      continue;
    const std::optional<timespec> changed = ChangeTime(e.path());
    if (changed && OwnerGone({pid, 0}, *changed) && ::unlink(e.path().c_str()) == 0) {
      removed.push_back(e.path().string());
      NoteStale("removed a stale temporary file '" + removed.back() + "' left by a killed run");
    }
  }
  return removed;
}

}  // namespace

std::vector<std::string> RemoveStaleTemporaries(const std::string& file) {
  const fs::path target(file);
  const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
  return RemoveStale(dir, target.filename().string());
}

std::vector<std::string> RemoveStaleTemporariesIn(const std::string& dir) {
  return RemoveStale(dir, "");
}

Status WriteFileAtomically(const std::string& file, std::string_view bytes, bool sync) {
  auto writer = AtomicFileWriter::Create(file);
  if (!writer.ok()) return writer.status();
  MRLOCAL_RETURN_IF_ERROR((*writer)->Append(bytes));
  return (*writer)->Commit(sync);
}

}  // namespace mrlocal
