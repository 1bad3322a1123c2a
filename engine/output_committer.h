// A job's output directory, committed atomically like Hadoop's FileOutputCommitter but
// stricter: every part is written into a hidden temporary directory beside DIR, `_SUCCESS`
// is written last there, and the whole directory is renamed into place at Commit. A job
// that fails or is interrupted (Abort, or destruction without Commit) removes the
// temporary directory: it never leaves a `_SUCCESS` or a partial part file.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <mutex>
#include <string>

#include "engine/job_runtime.h"
#include "engine/status.h"

namespace mrlocal {

class OutputCommitter {
 public:
  // Refuses an existing non-empty DIR ("already exists", as Hadoop does) unless
  // `overwrite`, in which case the old directory is replaced only at Commit. Creates
  // missing parent directories, as Hadoop does.
  static Result<std::unique_ptr<OutputCommitter>> Begin(const std::filesystem::path& dir,
                                                         bool overwrite);
  ~OutputCommitter();  // aborts unless committed

  // part-r-NNNNN in the temporary directory. Thread-safe for different indexes. Opening an
  // index again replaces the earlier attempt's file.
  Result<std::unique_ptr<OutputSink>> OpenPart(uint32_t reduce_index);

  // REQUIRES: parts 0..parts-1 were written and closed. Writes _SUCCESS, renames into place.
  Status Commit(uint32_t parts);
  void Abort();

  const std::filesystem::path& dir() const { return dir_; }
  const std::filesystem::path& temporary_dir() const { return tmp_; }

 private:
  OutputCommitter(std::filesystem::path dir, std::filesystem::path tmp, bool overwrite)
      : dir_(std::move(dir)), tmp_(std::move(tmp)), overwrite_(overwrite) {}

  std::filesystem::path dir_, tmp_;
  bool overwrite_;
  bool done_ = false;
};

// "part-r-00003".
std::string PartName(uint32_t reduce_index);

}  // namespace mrlocal
