#include "tools/cli/commands.h"

namespace mrlocal {

std::vector<std::unique_ptr<Command>> AddAllCommands(CLI::App& root) {
  std::vector<std::unique_ptr<Command>> commands;
  commands.push_back(AddWordCountCommand(root));
  commands.push_back(AddPiCommand(root));
  commands.push_back(AddFriendCountCommand(root));
  commands.push_back(AddFsCommand(root));
  commands.push_back(AddGenerateCommand(root));
  commands.push_back(AddWorkloadCommand(root));
  commands.push_back(AddCompareCommand(root));
  commands.push_back(AddCalibrateCommand(root));
  commands.push_back(AddHistoryCommand(root));
  commands.push_back(AddServeCommand(root));
  commands.push_back(AddKeysCommand(root));
  commands.push_back(AddSubmitCommand(root));
  commands.push_back(AddStatusCommand(root));
  commands.push_back(AddCancelCommand(root));
  commands.push_back(AddQueueCommand(root));
  return commands;
}

}  // namespace mrlocal
