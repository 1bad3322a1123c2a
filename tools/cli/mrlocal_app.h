// The mrlocal command line: the root CLI11 app with every subcommand (commands.h)
// registered. main() parses and runs it; tests build it to walk every option.
#pragma once

#include <iosfwd>
#include <memory>
#include <optional>
#include <vector>

#include "tools/cli/command.h"

namespace mrlocal {

class MrlocalApp {
 public:
  MrlocalApp();

  CLI::App& root() { return root_; }

  // Parses argv (argv[0] is the program's name). nullopt: a command is ready to Run().
  // Otherwise the exit code, after the help or version on `out`, or one line on `err` for
  // bad usage, which points at the help of the subcommand it was given to.
  std::optional<int> Parse(int argc, const char* const* argv, std::ostream& out, std::ostream& err);

  // Runs the parsed command; its exit code. REQUIRES: Parse() returned nullopt.
  int Run();

 private:
  CLI::App root_;
  bool version_ = false;
  std::vector<std::unique_ptr<Command>> commands_;
};

}  // namespace mrlocal
