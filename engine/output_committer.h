// A job's output directory, committed atomically like Hadoop's FileOutputCommitter but
// stricter: every part is written into a hidden temporary directory beside DIR (same file
// system), `_SUCCESS` is written last there, and the whole directory is renamed into place
// at Commit. A job that fails or is interrupted (Abort, or destruction without Commit)
// removes the temporary directory: it never leaves a `_SUCCESS` or a partial part file.
//
// Each OpenPart is a task attempt: it writes a hidden attempt file that becomes
// `part-r-NNNNN` only when the writer is closed, so a preempted attempt (writer destroyed
// without Close) leaves nothing, and a re-run attempt replaces an earlier closed one.
//
// The temporary directory is ".DIR.mrlocal-tmp-PID-N" and holds a marker naming its
// process, so that when a `kill -9` leaves it (no destructor runs), RemoveStale on a later
// run can tell it is stale and remove it (engine/crash-safety.md).
//
// Not durable against power loss (no fsync, like Hadoop on a local file system): atomic
// against failed, cancelled, interrupted and killed jobs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/job_runtime.h"
#include "engine/status.h"

namespace mrlocal {

class OutputCommitter {
 public:
  // Refuses an existing non-empty DIR ("Output directory DIR already exists", as Hadoop
  // says) unless `overwrite` and DIR is a job's output: an empty `_SUCCESS` and
  // part-r-NNNNN files, nothing else. That is replaced only at Commit, which checks again
  // and deletes only those files. mrlocal never deletes a file it did not write: a DIR
  // holding anything else, or a file DIR, is refused, naming what is in the way. An
  // existing empty DIR is fine. Missing parent directories are created, as Hadoop does.
  static Result<std::unique_ptr<OutputCommitter>> Begin(const std::filesystem::path& dir,
                                                        bool overwrite);
  // What Begin would refuse, checked without creating anything: lets a job refuse a bad
  // output before it decides whether it runs at all.
  static Status Check(const std::filesystem::path& dir, bool overwrite);
  // What killed jobs with output DIR left beside it, once their process is gone
  // (engine/stale_temporary.h): a temporary directory is removed (only the files a job
  // writes in it; it stays if anything else is there), and a previous output that a
  // killed commit had moved aside is put back when DIR is missing, else removed. Each is
  // said in a sentence through NoteStale (engine/stale_temporary.h), and returned. Call it
  // before Check.
  static std::vector<std::string> RemoveStale(const std::filesystem::path& dir);
  ~OutputCommitter();  // aborts unless committed
  OutputCommitter(const OutputCommitter&) = delete;
  OutputCommitter& operator=(const OutputCommitter&) = delete;

  // A writer for part-r-NNNNN (an OutputSink: Append, then Close to publish the part).
  // Thread-safe: different threads may write different parts (or attempts) at once. A
  // writer may outlive the committer (its Close then fails and it leaves nothing).
  Result<std::unique_ptr<OutputSink>> OpenPart(uint32_t reduce_index);

  // Writes _SUCCESS and renames the directory into place. Fails (and commits nothing)
  // unless parts 0..parts-1 were all closed, no other part exists, and no writer is still
  // open. After a failed Commit the job should Abort.
  Status Commit(uint32_t parts);

  // Removes the temporary directory. Idempotent; writers still open fail on Close.
  void Abort();

  const std::filesystem::path& dir() const;
  const std::filesystem::path& temporary_dir() const;

 private:
  class Writer;
  struct State;  // shared with the writers, so a late writer never dangles

  explicit OutputCommitter(std::shared_ptr<State> state) : state_(std::move(state)) {}

  std::shared_ptr<State> state_;
};

// "part-r-00003".
std::string PartName(uint32_t reduce_index);

}  // namespace mrlocal
