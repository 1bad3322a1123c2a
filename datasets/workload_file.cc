#include "datasets/workload_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mrlocal {
namespace {

// `shown`: the file as messages name it.
Status ReadError(const std::string& shown, int err) {
  std::string msg = "cannot read " + shown + ": " + std::strerror(err);
  if (err == ENOENT || err == ENOTDIR) return Status::NotFound(std::move(msg));
  if (err == EISDIR) return Status::InvalidArgument(std::move(msg));
  return Status::IoError(std::move(msg));
}

std::string Quoted(const std::string& path) { return "'" + path + "'"; }

struct OpenFile {
  int fd = -1;  // the caller closes it
  size_t size = 0;
};

// `path` opened for reading, when it is a regular file.
Result<OpenFile> OpenRegularFile(const std::string& path, const std::string& shown) {
  // O_NONBLOCK: a FIFO must not block the open; it is refused below as not a regular file.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) return ReadError(shown, errno);
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    const int e = errno;
    ::close(fd);
    return ReadError(shown, e);
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    if (S_ISDIR(st.st_mode)) return ReadError(shown, EISDIR);
    return Status::InvalidArgument("cannot read " + shown + ": not a regular file");
  }
  return OpenFile{fd, static_cast<size_t>(st.st_size)};
}

}  // namespace

Result<WorkloadSpec> LoadWorkload(const std::string& path, const AppSchemas& apps,
                                  const TraceOptions& trace) {
  if (IsSwimTracePath(path)) return LoadSwimTrace(path, apps, trace);
  return LoadWorkloadJson(path, apps);
}

bool IsSwimTracePath(std::string_view path) { return path.ends_with(".tsv"); }

Status CheckReadableFile(const std::string& path, const std::string& shown) {
  Result<OpenFile> file = OpenRegularFile(path, shown);
  if (!file.ok()) return file.status();
  ::close(file->fd);
  return Status::OK();
}

Result<std::string> ReadWorkloadFile(const std::string& path) {
  Result<OpenFile> file = OpenRegularFile(path, Quoted(path));
  if (!file.ok()) return file.status();
  const int fd = file->fd;
  std::string text(file->size, '\0');
  size_t got = 0;
  while (true) {
    if (got == text.size()) text.resize(text.size() + 4096);  // the file grew: keep reading
    const ssize_t n = ::read(fd, text.data() + got, text.size() - got);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      const int e = errno;
      ::close(fd);
      return ReadError(Quoted(path), e);
    }
    if (n == 0) break;
    got += static_cast<size_t>(n);
  }
  ::close(fd);
  text.resize(got);
  return text;
}

}  // namespace mrlocal
