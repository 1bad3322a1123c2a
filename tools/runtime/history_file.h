// The job history as the job commands use it (README, "Deadlines"): read before the job,
// a corrupt file reported and set aside rather than trusted or fatal, and a finished job
// recorded into the file atomically.
#pragma once

#include <filesystem>
#include <iosfwd>

#include "engine/status.h"
#include "sched/estimate/job_history.h"

namespace mrlocal {

class HistoryFile {
 public:
  // A missing file is an empty history (a first run). A corrupt one is an empty history
  // too, after a warning on `err`. IoError when it cannot be read (a directory,
  // permissions).
  static Result<HistoryFile> Open(const std::filesystem::path& path, std::ostream& err);

  const std::filesystem::path& path() const { return path_; }
  // What the deadline policy reads; a probe's estimate may be Set in it (never saved).
  JobHistory& history() { return history_; }
  const JobHistory& history() const { return history_; }

  // Records a finished job into the file: read again (another run may have saved since),
  // the job recorded, written atomically. A corrupt file is first renamed to F.corrupt,
  // which is said on `err`; "history: APP updated in F" goes to `out` unless `quiet`.
  Status Record(const JobObservation& job, std::ostream& out, std::ostream& err, bool quiet);

 private:
  std::filesystem::path path_;
  JobHistory history_;
};

}  // namespace mrlocal
