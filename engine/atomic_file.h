// Whole-file writes that are never seen half-done: write a temporary name beside the
// file, then rename it into place.
#pragma once

#include <string>
#include <string_view>

#include "engine/status.h"

namespace mrlocal {

// Writes `bytes` to `file` through `file.tmp` and a rename, so that a crash never leaves a
// half-written file under the final name. `sync` also makes it durable (fsync).
Status WriteFileAtomically(const std::string& file, std::string_view bytes, bool sync = false);

}  // namespace mrlocal
