// mrlocal: one binary, one subcommand per tools/cli/*_command.cc.
#include <exception>
#include <iostream>

#include "tools/cli/exit_codes.h"
#include "tools/cli/mrlocal_app.h"
#include "tools/runtime/allocator.h"

int main(int argc, char** argv) {
  using namespace mrlocal;
  TuneAllocator();
  MrlocalApp app;
  if (std::optional<int> done = app.Parse(argc, argv, std::cout, std::cerr)) return *done;
  try {
    return app.Run();
  } catch (const std::exception& e) {
    std::cerr << "mrlocal: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
}
