// A read-only memory mapping of a whole file: how inputs get into the block store without
// being copied (a 1 GB input costs page cache, not 1 GB of heap per replica).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "engine/status.h"

namespace mrlocal {

// Immutable once opened, so any number of threads may read data() concurrently. Shared
// ownership (shared_ptr) is how views into the mapping are kept valid. The mapping is
// advised MADV_SEQUENTIAL (aggressive read-ahead). REQUIRES: nobody truncates the file
// while it is mapped (reading a page past the new end raises SIGBUS).
class MappedFile {
 public:
  // Errors name the file and the OS's reason: NotFound for a missing file, InvalidArgument
  // for a directory or anything but a regular file, IoError otherwise (e.g. permissions).
  // An empty file is fine: data() is empty and nothing is mapped.
  static Result<std::shared_ptr<const MappedFile>> Open(const std::string& path);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::string_view data() const { return {static_cast<const char*>(addr_), size_}; }
  const std::string& path() const { return path_; }

 private:
  MappedFile(std::string path, void* addr, size_t size)
      : path_(std::move(path)), addr_(addr), size_(size) {}
  std::string path_;
  void* addr_ = nullptr;  // null for an empty file
  size_t size_ = 0;
};

}  // namespace mrlocal
