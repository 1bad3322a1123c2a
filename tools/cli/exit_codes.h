// The process exit codes of `mrlocal`, as documented in the README.
#pragma once

#include <iostream>

#include "engine/status.h"

namespace mrlocal {

enum ExitCode : int {
  kExitOk = 0,              // finished, and the deadline was met (or there was none)
  kExitInternal = 1,        // internal failure (a bug, or the OS failed us mid-job)
  kExitUsage = 2,           // bad usage or bad input
  kExitDeadlineMissed = 3,  // finished, but after the deadline
  kExitRejected = 4,        // refused by admission control
};

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
