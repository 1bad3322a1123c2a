// mrlocal friendcount EDGEFILE... [job options] [--list]
#include "apps/friendcount.h"
#include "engine/typed_job.h"
#include "tools/cli/commands.h"
#include "tools/cli/job_runner.h"

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
        ->required();
    app->add_flag("--list", list_, "Output each user's friends, ascending, not their count");
    AddJobOptions(app, options_);
  }

  int Run() override {
    JobApp job;
    job.name = "friendcount";
    job.make_runtime = [list = list_](JobRuntimeOptions o) -> std::shared_ptr<const JobRuntime> {
      return std::make_shared<TypedJobRuntime<apps::FriendCount>>(std::move(o),
                                                                  apps::FriendCount{.list = list});
    };
    return RunJob(options_, job);
  }

 private:
  JobOptions options_;
  bool list_ = false;
};

}  // namespace

std::unique_ptr<Command> AddFriendCountCommand(CLI::App& root) {
  return std::make_unique<FriendCountCommand>(root);
}

}  // namespace mrlocal
