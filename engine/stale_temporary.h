// Temporaries a killed mrlocal leaves behind, and how a later run tells they are stale.
// Every temporary mrlocal writes is hidden beside its target and named after it and the
// writing process: ".NAME.mrlocal-tmp-PID-SUFFIX" (an output directory's, an atomic file's).
// A `kill -9` runs no destructor, so such a name may outlive its writer; the next run
// removes it once that writer is provably gone, and never one a live run is writing.
#pragma once

#include <sys/types.h>
#include <time.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>

namespace mrlocal {

// Where a removal of a stale temporary is said ("removed a stale temporary directory
// '.o.mrlocal-tmp-1234-0' left by a killed run"): a front end sets it (mrlocal prints the
// sentence on stderr); by default nothing is said. Set it before any job runs.
void SetStaleNotice(std::function<void(const std::string& sentence)> notice);
// Says `sentence` through the notice set, if any.
void NoteStale(const std::string& sentence);

// The process that writes a temporary: its PID and its start time (clock ticks after boot,
// /proc/PID/stat's field 22; 0 when unknown), which tells it from a later process that
// reuses the PID.
struct TemporaryOwner {
  pid_t pid = 0;
  uint64_t start_ticks = 0;
};

TemporaryOwner ThisProcess();

// ".NAME.mrlocal-tmp-": the prefix of every temporary of `target`.
std::string TemporaryPrefix(const std::filesystem::path& target);
// ".NAME.mrlocal-tmp-<this PID>-".
std::string OwnTemporaryPrefix(const std::filesystem::path& target);

// For a name that begins with `prefix` then "PID-": the PID and what follows the dash;
// nullopt for any other name.
std::optional<pid_t> TemporaryPid(std::string_view name, std::string_view prefix,
                                  std::string_view* suffix);

// A marker's text ("mrlocal temporary\npid 12 start 3456\n") and back.
std::string EncodeOwner(const TemporaryOwner& owner);
std::optional<TemporaryOwner> DecodeOwner(std::string_view text);

// Whether the writer of a temporary is gone for good, so the temporary is stale: no
// process `owner.pid` runs (a zombie is gone too); or one runs that is another process:
// its start time differs from a known `owner.start_ticks`, or, when that is unknown, it
// started after `changed` (the temporary's last change: its writer was alive then).
// Unsure means not gone: a temporary is left for a later run rather than pulled from
// under a live one.
bool OwnerGone(const TemporaryOwner& owner, const timespec& changed);

// The time of the last change of `path` itself (st_ctim, not following a symlink);
// nullopt when it cannot be stat'ed.
std::optional<timespec> ChangeTime(const std::filesystem::path& path);

}  // namespace mrlocal
