// Every subcommand of mrlocal, registered on the root app in the order --help lists them.
#pragma once

#include <memory>
#include <vector>

#include "tools/cli/command.h"

namespace mrlocal {

std::vector<std::unique_ptr<Command>> AddAllCommands(CLI::App& root);

// One per tools/cli/*_command.cc.
std::unique_ptr<Command> AddWordCountCommand(CLI::App& root);
std::unique_ptr<Command> AddPiCommand(CLI::App& root);
std::unique_ptr<Command> AddFriendCountCommand(CLI::App& root);
std::unique_ptr<Command> AddFsCommand(CLI::App& root);
std::unique_ptr<Command> AddGenerateCommand(CLI::App& root);
std::unique_ptr<Command> AddWorkloadCommand(CLI::App& root);
std::unique_ptr<Command> AddCompareCommand(CLI::App& root);
std::unique_ptr<Command> AddCalibrateCommand(CLI::App& root);
std::unique_ptr<Command> AddHistoryCommand(CLI::App& root);
std::unique_ptr<Command> AddServeCommand(CLI::App& root);
std::unique_ptr<Command> AddKeysCommand(CLI::App& root);
std::unique_ptr<Command> AddSubmitCommand(CLI::App& root);
std::unique_ptr<Command> AddStatusCommand(CLI::App& root);
std::unique_ptr<Command> AddCancelCommand(CLI::App& root);
std::unique_ptr<Command> AddQueueCommand(CLI::App& root);

}  // namespace mrlocal
