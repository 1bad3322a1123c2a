#include "tools/cli/mrlocal_app.h"

#include <ostream>

#include "tools/cli/commands.h"
#include "tools/cli/version.h"
#include "tools/runtime/exit_codes.h"

namespace mrlocal {
namespace {

// "mrlocal gen text": the root and the subcommands given, down to the last one.
std::string CommandPath(const CLI::App& root) {
  std::string path = root.get_name();
  for (const CLI::App* app = &root; !app->get_subcommands().empty();) {
    app = app->get_subcommands().front();
    path += " " + app->get_name();
  }
  return path;
}

}  // namespace

MrlocalApp::MrlocalApp()
    : root_("mrlocal: a multicore MapReduce engine with a real-time scheduler", "mrlocal") {
  root_.require_subcommand(0, 1);
  root_.add_flag("--version", version_, "Print the version and the allocator in use");
  commands_ = AddAllCommands(root_);
}

std::optional<int> MrlocalApp::Parse(int argc, const char* const* argv, std::ostream& out,
                                     std::ostream& err) {
  try {
    root_.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return root_.exit(e, out, err);
  } catch (const CLI::CallForAllHelp& e) {
    return root_.exit(e, out, err);
  } catch (const CLI::ParseError& e) {
    // One line, like every other error of ours.
    err << "mrlocal: error: " << e.what() << " (see " << CommandPath(root_) << " --help)\n";
    return kExitUsage;
  }
  if (version_) {
    out << VersionText();
    return kExitOk;
  }
  for (auto& c : commands_)
    if (c->app->parsed()) return std::nullopt;
  err << root_.help();
  return kExitUsage;
}

int MrlocalApp::Run() {
  for (auto& c : commands_)
    if (c->app->parsed()) return c->Run();
  return kExitUsage;
}

}  // namespace mrlocal
