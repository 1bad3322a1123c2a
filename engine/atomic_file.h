// Files that are never seen half-written: bytes go to a hidden temporary file beside the
// target (same file system, so the final rename is atomic), which is renamed into place
// only when complete. A writer killed before its Commit (kill -9 runs no destructor)
// leaves its temporary; RemoveStaleTemporaries finds and removes it on a later run.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"

namespace mrlocal {

// A file written in pieces. It appears under its name only when Commit succeeds; a writer
// destroyed before that removes its temporary. Not thread-safe.
class AtomicFileWriter {
 public:
  // Creates the hidden temporary ".NAME.mrlocal-tmp-PID-XXXXXX" beside `file` (named after
  // this process: engine/stale_temporary.h), with the permissions a new file would get
  // (0666 less the umask).
  static Result<std::unique_ptr<AtomicFileWriter>> Create(const std::string& file);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  Status Append(std::string_view bytes);
  // Closes the temporary (with `sync`, fsyncs it first) and renames it to the file.
  Status Commit(bool sync = false);

 private:
  AtomicFileWriter(std::string file, std::string tmp, int fd)
      : file_(std::move(file)), tmp_(std::move(tmp)), fd_(fd) {}
  const std::string file_;
  const std::string tmp_;
  int fd_;  // -1 once closed
  bool committed_ = false;
};

// Writes `bytes` to `file` in one go through an AtomicFileWriter.
Status WriteFileAtomically(const std::string& file, std::string_view bytes, bool sync = false);

// Removes the temporaries of `file` whose writer was killed (its process is gone: a live
// writer's are left alone), each said through NoteStale (engine/stale_temporary.h), and
// returns their paths. Only regular files named as Create names them are touched.
std::vector<std::string> RemoveStaleTemporaries(const std::string& file);
// The same for the temporaries of every file in the directory `dir`.
std::vector<std::string> RemoveStaleTemporariesIn(const std::string& dir);

}  // namespace mrlocal
