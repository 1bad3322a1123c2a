// A read-only memory mapping of a whole file: how inputs get into the block store without
// being copied (a 1 GB input costs page cache, not 1 GB of heap per replica).
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "engine/status.h"

namespace mrlocal {

class MappedFile {
 public:
  // Errors name the file: missing, a directory, unreadable, not a regular file.
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
