#include "datasets/workload_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mrlocal {
namespace {

Status ReadError(const std::string& path, int err) {
  std::string msg = "cannot read '" + path + "': " + std::strerror(err);
  if (err == ENOENT || err == ENOTDIR) return Status::NotFound(std::move(msg));
  if (err == EISDIR) return Status::InvalidArgument(std::move(msg));
  return Status::IoError(std::move(msg));
}

}  // namespace

bool IsSwimTracePath(std::string_view path) { return path.ends_with(".tsv"); }

Result<WorkloadSpec> LoadWorkload(const std::string& path, const AppSchemas& apps,
                                  const TraceOptions& trace) {
  if (IsSwimTracePath(path)) return LoadSwimTrace(path, apps, trace);
  return LoadWorkloadJson(path, apps);
}

Result<std::string> ReadWorkloadFile(const std::string& path) {
  // O_NONBLOCK: a FIFO must not block the open; it is refused below as not a regular file.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return ReadError(path, errno);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    return ReadError(path, e);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    if (S_ISDIR(st.st_mode)) return ReadError(path, EISDIR);
    return Status::InvalidArgument("cannot read '" + path + "': not a regular file");
  }
  std::string text(static_cast<size_t>(st.st_size), '\0');
  size_t got = 0;
  while (true) {
    if (got == text.size()) text.resize(text.size() + 4096);  // the file grew: keep reading
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      ::close(fd);
      return ReadError(path, e);
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  ::close(fd);
  text.resize(got);
  return text;
}

}  // namespace mrlocal
