// The job history on disk (README, "Deadlines"): the JobHistory model
// (sched/estimate/job_history.h) kept in a JSON file under the user's data directory,
// written crash-safely (a temporary file, then rename). A file that cannot be parsed is
// reported and never trusted.
//   {"version": 2, "apps": {"wordcount": {"alpha": ..., "map_fixed_s": ...,
//    "map_s_per_unit": ..., "reduce_fixed_s": ..., "reduce_s_per_unit": ...,
//    "reduce_skew": ..., "shuffle_fixed_units": ..., "jobs": N, "source": "history",
//    "observations": {"maps": [[units, seconds], ...], "reduces": [[units, seconds], ...],
//                     "shuffles": [[input units, shuffled units], ...], "skews": [...]}}}}
// The model is what the policies read; the observations (at most 64 tasks of each kind and
// 32 jobs per app, a few KB) are what the next job's refit starts from. Version 1 files
// (the model only) are read, and rewritten as version 2 by the next recorded job.
// Doubles are written in their shortest round-trip form, so a loaded history is bit-exact.
#pragma once

#include <filesystem>
#include <iosfwd>

#include "engine/status.h"
#include "sched/estimate/job_history.h"

namespace mrlocal {

// $MRLOCAL_HISTORY, else $XDG_DATA_HOME/mrlocal/history.json, else
// ~/.local/share/mrlocal/history.json.
std::filesystem::path DefaultHistoryPath();

// NotFound when the file does not exist; IoError when it cannot be read (a directory,
// permissions); InvalidArgument "history file 'F' is corrupt: <what>" when it cannot be
// parsed or a field is out of range (negative, not finite, skew < 1...), or its version is
// newer than this mrlocal's. `version`, when given, is set to the file's version.
Result<JobHistory> LoadHistory(const std::filesystem::path& path, int* version = nullptr);
// Atomically (temporary file + rename); creates the directory. InvalidArgument, writing
// nothing, for what LoadHistory would refuse.
Status SaveHistory(const JobHistory& history, const std::filesystem::path& path);

// The history as the job commands use it: read before the job, a corrupt file reported
// and set aside rather than trusted or fatal, and a finished job recorded into the file
// atomically.
class HistoryFile {
 public:
  // A missing file is an empty history (a first run). A corrupt one is an empty history
  // too, after a warning on `err`; a version-1 one is read, after a note on `err`. IoError
  // when it cannot be read (a directory, permissions).
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
