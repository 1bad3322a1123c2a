// mrlocal: one binary, one subcommand per tools/cli/*_command.cc.
#include <exception>
#include <iostream>
#include <sstream>

#include "engine/stale_temporary.h"
#include "tools/runtime/exit_codes.h"
#include "sched/dist/mpi_transport.h"
#include "tools/cli/mrlocal_app.h"
#include "tools/runtime/allocator.h"

int main(int argc, char** argv) {
  using namespace mrlocal;
  TuneAllocator();
  // What a killed run left behind is removed when found, and the user is told so.
  SetStaleNotice([](const std::string& s) { std::cerr << "mrlocal: " << s << "\n"; });
  MrlocalApp app;
  // Under mpirun every rank parses the same command line: rank 0 alone prints what parsing
  // says (help, usage errors); the others exit with the same code.
  std::ostringstream quiet;
  const bool other_rank = MpiTransport::LaunchedRank() > 0;
  if (std::optional<int> done = app.Parse(argc, argv, other_rank ? quiet : std::cout,
                                          other_rank ? quiet : std::cerr))
    return *done;
  try {
    return app.Run();
  } catch (const std::exception& e) {
    std::cerr << "mrlocal: internal error: " << e.what() << "\n";
    return kExitInternal;
  }
}
