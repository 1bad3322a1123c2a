// A gzip file on the local disk, inflated whole: what a job that asks for several maps of
// a .gz input reads (Hadoop cannot split one; we unpack it into the run's store first).
#pragma once

#include <cstdint>
#include <string>

#include "engine/status.h"

namespace mrlocal {

// The file's content, every member (as zcat). InvalidArgument "cannot inflate 'x': ..."
// naming zlib's reason for a file that is not gzip or is damaged.
Result<std::string> InflateFile(const std::string& path);

// The size of InflateFile's result. Remembered per (path, size, modification time), so
// that a simulation that builds the same job many times inflates the file once.
// Thread-safe.
Result<uint64_t> InflatedSize(const std::string& path);

}  // namespace mrlocal
