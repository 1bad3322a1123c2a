// The job history on disk (README, "Deadlines"): the JobHistory model
// (sched/estimate/job_history.h) and the k-NN estimator's observations
// (sched/estimate/knn_estimator.h), kept in a JSON file under the user's data directory,
// written crash-safely (a temporary file, then rename). A file that cannot be parsed is
// reported and never trusted.
//   {"version": 3, "apps": {"wordcount": {"alpha": ..., "map_fixed_s": ...,
//    "map_s_per_unit": ..., "reduce_fixed_s": ..., "reduce_s_per_unit": ...,
//    "reduce_skew": ..., "shuffle_fixed_units": ..., "jobs": N, "source": "history",
//    "observations": {"maps": [[units, seconds], ...], "reduces": [[units, seconds], ...],
//                     "shuffles": [[input units, shuffled units], ...], "skews": [...]}}},
//    "knn": {"wordcount": {"maps": [[units, slot speed, node tasks, seconds], ...],
//                          "reduces": [...]}}}
// The model is what the policies read; the observations (at most 64 tasks of each kind and
// 32 jobs per app, a few KB) are what the next job's refit starts from. "knn" holds at most
// 256 tasks of each kind per app (about 16 KB), the newest, whichever estimator ran. Version
// 2 files (no "knn") and version 1 files (the model only) are read, and rewritten as
// version 3 by the next recorded job. Doubles are written in their shortest round-trip
// form, so a loaded history is bit-exact.
#pragma once

#include <filesystem>
#include <iosfwd>

#include "engine/status.h"
#include "sched/estimate/job_history.h"
#include "sched/estimate/knn_estimator.h"

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
// nothing, for what LoadHistory would refuse. Writes no kNN observations: SaveHistoryFile
// keeps them.
Status SaveHistory(const JobHistory& history, const std::filesystem::path& path);

// All the file holds.
struct HistoryContents {
  JobHistory history;
  KnnObservations knn;
};
// As LoadHistory and SaveHistory, with the kNN observations; a file of version 1 or 2 has
// none. A "knn" entry of the wrong type is "... is corrupt: knn.APP.maps.3: <what>".
Result<HistoryContents> LoadHistoryFile(const std::filesystem::path& path, int* version = nullptr);
Status SaveHistoryFile(const HistoryContents& contents, const std::filesystem::path& path);

// The history as the job commands use it: read before the job, a corrupt file reported
// and set aside rather than trusted or fatal, and a finished job recorded into the file
// atomically.
class HistoryFile {
 public:
  // A missing file is an empty history (a first run). A corrupt one is an empty history
  // too, after a warning on `err`, unless `corrupt_is_error` (the kNN estimator's runs:
  // the observations it would set aside took many runs to gather), when it is
  // LoadHistoryFile's error and the file is left as it is; a version-1 one is read, after
  // a note on `err`. IoError when it cannot be read (a directory, permissions).
  static Result<HistoryFile> Open(const std::filesystem::path& path, std::ostream& err,
                                  bool corrupt_is_error = false);

  const std::filesystem::path& path() const { return path_; }
  // What the deadline policy reads; a probe's estimate may be Set in it (never saved).
  JobHistory& history() { return history_; }
  const JobHistory& history() const { return history_; }
  // The kNN observations the file held when read.
  const KnnObservations& knn() const { return knn_; }

  // Records a finished job into the file: read again (another run may have saved since),
  // the job recorded (and `knn`, its tasks' observations, added to the app's), written
  // atomically. A corrupt file is first renamed to F.corrupt, which is said on `err`;
  // "history: APP updated in F" goes to `out` unless `quiet`.
  Status Record(const JobObservation& job, const KnnAppObservations& knn, std::ostream& out,
                std::ostream& err, bool quiet);

 private:
  std::filesystem::path path_;
  JobHistory history_;
  KnnObservations knn_;
};

}  // namespace mrlocal
