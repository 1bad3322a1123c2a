// A workload from a file, whatever its format: what `mrlocal workload FILE` reads.
#pragma once

#include <string>

#include "datasets/swim_trace.h"
#include "datasets/workload_spec.h"
#include "engine/status.h"

namespace mrlocal {

// A name ending in ".tsv" is a SWIM trace (LoadSwimTrace with `trace`); anything else is a
// JSON spec (LoadWorkloadJson; `trace` is unused). Its jobs are of `apps`.
bool IsSwimTracePath(std::string_view path);
Result<WorkloadSpec> LoadWorkload(const std::string& path, const AppSchemas& apps,
                                  const TraceOptions& trace = {});

// The whole file, for the workload readers. Errors are one line with the OS's reason:
// "cannot read 'x': No such file or directory" (NotFound), "...: Is a directory"
// (InvalidArgument, as for any file that is not a regular file), IoError otherwise.
Result<std::string> ReadWorkloadFile(const std::string& path);

}  // namespace mrlocal
