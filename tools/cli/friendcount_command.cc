// mrlocal friendcount EDGEFILE... [job options] [--list]
#include "tools/cli/commands.h"
#include "tools/cli/job_runner.h"
#include "tools/cli/option_checks.h"
#include "tools/runtime/job_apps.h"

namespace mrlocal {
namespace {

class FriendCountCommand final : public Command {
 public:
  explicit FriendCountCommand(CLI::App& root) {
    app = root.add_subcommand(
        "friendcount",
        "Count each user's distinct friends in SNAP edge lists (src dst per line; '#' "
        "comments; .gz read as one split)");
    app->add_option("EDGEFILE", options_.inputs, "Edge-list files (or store paths with --store)")
        ->required()
        ->check(NotEmpty());
    app->add_flag("--list", list_, "Output each user's friends, ascending, not their count");
    AddJobOptions(app, options_);
  }

  int Run() override { return RunJob(options_, FriendCountApp(list_)); }

 private:
  JobOptions options_;
  bool list_ = false;
};

}  // namespace

std::unique_ptr<Command> AddFriendCountCommand(CLI::App& root) {
  return std::make_unique<FriendCountCommand>(root);
}

}  // namespace mrlocal
