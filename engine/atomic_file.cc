#include "engine/atomic_file.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mrlocal {
namespace {

Status ErrnoStatus(const std::string& what, const std::string& file, int err) {
  return Status::IoError(what + " '" + file + "': " + std::strerror(err));
}

}  // namespace

Status WriteFileAtomically(const std::string& file, std::string_view bytes, bool sync) {
  const std::string tmp = file + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return ErrnoStatus("cannot create", tmp, errno);
  const char* p = bytes.data();
  size_t left = bytes.size();
  while (left > 0) {
    ssize_t n = ::write(fd, p, left);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      int e = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return ErrnoStatus("cannot write", tmp, e);
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  if ((sync && ::fsync(fd) != 0) || ::close(fd) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    return ErrnoStatus("cannot write", tmp, e);
  }
  if (::rename(tmp.c_str(), file.c_str()) != 0) {
    int e = errno;
    ::unlink(tmp.c_str());
    return ErrnoStatus("cannot rename into", file, e);
  }
  return Status::OK();
}

}  // namespace mrlocal
