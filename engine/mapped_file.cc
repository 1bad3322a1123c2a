#include "engine/mapped_file.h"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace mrlocal {

Result<std::shared_ptr<const MappedFile>> MappedFile::Open(const std::string& path) {
  // O_NONBLOCK: opening a FIFO must not wait for a writer; it is rejected below.
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
  if (fd < 0) {
    int e = errno;
    std::string msg = "cannot open '" + path + "': " + std::strerror(e);
    return e == ENOENT ? Status::NotFound(msg) : Status::IoError(msg);
  }
  struct stat st;
  if (::fstat(fd, &st) != 0) {
    int e = errno;
    ::close(fd);
    return Status::IoError("cannot stat '" + path + "': " + std::strerror(e));
  }
  if (S_ISDIR(st.st_mode)) {
    ::close(fd);
    return Status::InvalidArgument("'" + path + "' is a directory, not a file");
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd);
    return Status::InvalidArgument("'" + path + "' is not a regular file");
  }
  size_t size = static_cast<size_t>(st.st_size);
  void* addr = nullptr;
  if (size > 0) {
    addr = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    if (addr == MAP_FAILED) {
      int e = errno;
      ::close(fd);
      return Status::IoError("cannot map '" + path + "': " + std::strerror(e));
    }
    ::madvise(addr, size, MADV_SEQUENTIAL);
  }
  ::close(fd);
  return std::shared_ptr<const MappedFile>(new MappedFile(path, addr, size));
}

MappedFile::~MappedFile() {
  if (addr_) ::munmap(addr_, size_);
}

}  // namespace mrlocal
