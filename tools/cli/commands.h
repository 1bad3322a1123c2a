// Every subcommand of mrlocal, registered on the root app in the order --help lists them.
#pragma once

#include <memory>
#include <vector>

#include "tools/cli/command.h"

namespace mrlocal {

std::vector<std::unique_ptr<Command>> AddAllCommands(CLI::App& root);

}  // namespace mrlocal
