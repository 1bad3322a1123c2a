// A subcommand of `mrlocal`. Each one lives in its own tools/cli/*_command.cc, registers
// its options on the root CLI11 app, and runs after parsing.
#pragma once

#include <CLI/CLI.hpp>
#include <memory>

namespace mrlocal {

class Command {
 public:
  virtual ~Command() = default;
  // Executes the parsed command and returns the process exit code (tools/runtime/exit_codes.h).
  virtual int Run() = 0;
  // The CLI11 subcommand this command registered.
  CLI::App* app = nullptr;
};

}  // namespace mrlocal
