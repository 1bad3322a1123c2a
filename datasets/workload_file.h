// A workload from a file, whatever its format: what `mrlocal workload FILE` reads.
#pragma once

#include <string>

#include "datasets/swim_trace.h"
#include "datasets/workload_spec.h"
#include "engine/status.h"

namespace mrlocal {

// Whether `path` names a SWIM trace: its name ends in ".tsv".
bool IsSwimTracePath(std::string_view path);

// A name ending in ".tsv" is a SWIM trace (LoadSwimTrace with `trace`); anything else is a
// JSON spec (LoadWorkloadJson; `trace` is unused). Its jobs are of `apps`.
Result<WorkloadSpec> LoadWorkload(const std::string& path, const AppSchemas& apps,
                                  const TraceOptions& trace = {});

// The whole file, for the workload readers. Errors are one line with the OS's reason:
// "cannot read 'x': No such file or directory" (NotFound), "...: Is a directory"
// (InvalidArgument, as for any file that is not a regular file), IoError otherwise.
Result<std::string> ReadWorkloadFile(const std::string& path);

// Whether `path` is a regular file this process can read, as ReadWorkloadFile finds out,
// without reading it: the same errors, naming the file as `shown` ("cannot read <shown>:
// <reason>"), e.g. "'a.txt' (relative to /data)".
Status CheckReadableFile(const std::string& path, const std::string& shown);

}  // namespace mrlocal
