// `mrlocal fs --store DIR <put LOCAL PATH | ls [PATH] | cat PATH | rm PATH | fsck>`: the
// HDFS-like shell of the persistent block store (engine/block_store.h).
//
// Exit codes: 0 on success; 2 for bad usage, a missing file or store, and when fsck finds
// any corrupt or missing replica (it prints them, then "Status: CORRUPT"); 1 for internal
// failures.
#pragma once

#include <memory>

#include "tools/cli/command.h"

namespace mrlocal {

std::unique_ptr<Command> AddFsCommand(CLI::App& root);

}  // namespace mrlocal
