// A big report file (millions of rows or trace events) written through an
// AtomicFileWriter a chunk at a time, so that it never sits whole in memory.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "engine/atomic_file.h"

namespace mrlocal {

class ChunkedFile {
 public:
  static Result<ChunkedFile> Open(const std::string& file) {
    auto w = AtomicFileWriter::Create(file);
    if (!w.ok()) return w.status();
    return ChunkedFile(std::move(w).value());
  }
  Status Append(std::string_view s) {
    buf_.append(s);
    return buf_.size() >= kChunk ? Flush() : Status::OK();
  }
  // Writes what is buffered and renames the file into place.
  Status Commit() {
    MRLOCAL_RETURN_IF_ERROR(Flush());
    return writer_->Commit();
  }

 private:
  static constexpr size_t kChunk = 1 << 20;  // bytes buffered before a write

  explicit ChunkedFile(std::unique_ptr<AtomicFileWriter> w) : writer_(std::move(w)) {}
  Status Flush() {
    Status s = writer_->Append(buf_);
    buf_.clear();
    return s;
  }
  std::unique_ptr<AtomicFileWriter> writer_;
  std::string buf_;
};

}  // namespace mrlocal
