// The process exit codes of `mrlocal`, as documented in the README.
#pragma once

#include <iostream>
#include <optional>
#include <string_view>

#include "engine/status.h"

namespace mrlocal {

enum ExitCode : int {
  kExitOk = 0,              // finished, and the deadline was met (or there was none)
  kExitInternal = 1,        // internal failure (a bug, or the OS failed us mid-job)
  kExitUsage = 2,           // bad usage or bad input
  kExitDeadlineMissed = 3,  // finished, but after the deadline
  kExitRejected = 4,        // refused by admission control
  kExitInterrupted = 130,   // interrupted (Ctrl-C), or cancelled on a server
};

// How a job that ended ends the command that ran it, a local run or `mrlocal submit
// --wait` alike: JobMetrics::status, whether a failure was the user's (bad input), and
// whether it met its deadline. Interrupted (130) is the caller's to say.
inline int JobExitCode(std::string_view status, bool user_error, std::optional<bool> met_deadline) {
  if (status == "rejected") return kExitRejected;
  if (status != "succeeded") return user_error ? kExitUsage : kExitInternal;
  return met_deadline.value_or(true) ? kExitOk : kExitDeadlineMissed;
}

inline int ExitCodeFor(const Status& s) {
  if (s.ok()) return kExitOk;
  return s.IsUserError() ? kExitUsage : kExitInternal;
}

// Prints "mrlocal: error: MESSAGE" as one line on stderr and returns the exit code.
inline int ReportError(const Status& s) {
  std::cerr << "mrlocal: error: " << s.message() << "\n";
  return ExitCodeFor(s);
}

// ReportError when `s` failed; `s` either way.
inline Status ReportIfError(Status s) {
  if (!s.ok()) ReportError(s);
  return s;
}

}  // namespace mrlocal
