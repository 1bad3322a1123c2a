#include "tools/cli/commands.h"

namespace mrlocal {

std::vector<std::unique_ptr<Command>> AddAllCommands(CLI::App& /*root*/) {
  std::vector<std::unique_ptr<Command>> commands;
  return commands;
}

}  // namespace mrlocal
