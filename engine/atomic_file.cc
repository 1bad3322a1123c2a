#include "engine/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace mrlocal {
namespace {

Status ErrnoStatus(const std::string& what, const std::string& file, int err) {
  return Status::IoError(what + " '" + file + "': " + std::strerror(err));
}

}  // namespace

Result<std::unique_ptr<AtomicFileWriter>> AtomicFileWriter::Create(const std::string& file) {
  const std::filesystem::path target(file);
  std::filesystem::path dir = target.parent_path();
  if (dir.empty()) dir = ".";
  std::string name = ".";  // appended, not chained with +: g++ 12 warns wrongly on that
  name.append(target.filename().string()).append(".XXXXXX");
  std::string tmp = (dir / name).string();
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
  if (::rename(tmp_.c_str(), file_.c_str()) != 0)
    return ErrnoStatus("cannot rename into", file_, errno);
  committed_ = true;
  return Status::OK();
}

Status WriteFileAtomically(const std::string& file, std::string_view bytes, bool sync) {
  auto writer = AtomicFileWriter::Create(file);
  if (!writer.ok()) return writer.status();
  MRLOCAL_RETURN_IF_ERROR((*writer)->Append(bytes));
  return (*writer)->Commit(sync);
}

}  // namespace mrlocal
