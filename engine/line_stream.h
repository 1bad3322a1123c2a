// Lines produced on the fly, for inputs that cannot be handed to a map task as mapped
// bytes: a gzip file is decompressed while its (single) map task reads it, as Hadoop's
// codecs do, so memory stays bounded whatever the file's size.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/status.h"

namespace mrlocal {

class LineStream {
 public:
  virtual ~LineStream() = default;

  // The next run of complete lines: each ends with '\n', except the input's last line
  // when the input does not end with one. Valid until the next call; empty at the end.
  // A line is never cut, however long it is.
  virtual Result<std::string_view> Next() = 0;

  // Fraction of the input consumed so far, in [0, 1] (map progress).
  virtual double progress() const = 0;

  // Bytes of the input as stored (compressed), for the task's input figure.
  virtual uint64_t input_bytes() const = 0;

  // "PATH:LINE" of byte `offset` of the run last returned by Next().
  virtual std::string Locate(size_t offset) const = 0;
};

}  // namespace mrlocal
