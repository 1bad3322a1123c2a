// mrlocal: one binary, one subcommand per tools/cli/*_command.cc.
#include <exception>
#include <iostream>
#include <memory>
#include <vector>

#include "tools/runtime/allocator.h"
#include "tools/cli/command.h"
#include "tools/cli/commands.h"
#include "tools/cli/exit_codes.h"
#include "tools/cli/version.h"

int main(int argc, char** argv) {
  using namespace mrlocal;
  TuneAllocator();
  CLI::App app{"mrlocal: a multicore MapReduce engine with a real-time scheduler", "mrlocal"};
  app.require_subcommand(0, 1);
  bool version = false;
  app.add_flag("--version", version, "Print the version and the allocator in use");
  std::vector<std::unique_ptr<Command>> commands = AddAllCommands(app);
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    // One line, like every other error of ours.
    std::cerr << "mrlocal: error: " << e.what() << " (see mrlocal --help)\n";
    return kExitUsage;
  }
  if (version) {
    std::cout << VersionText();
    return kExitOk;
  }
  try {
    for (auto& c : commands)
      if (c->app->parsed()) return c->Run();
  } catch (const std::exception& e) {
    std::cerr << "mrlocal: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
  std::cerr << app.help();
  return kExitUsage;
}
