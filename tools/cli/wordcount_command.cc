// mrlocal wordcount [FILE...] [job options]
#include "tools/cli/commands.h"
#include "tools/cli/job_runner.h"
#include "tools/cli/option_checks.h"
#include "tools/runtime/job_apps.h"

namespace mrlocal {
namespace {

class WordCountCommand final : public Command {
 public:
  explicit WordCountCommand(CLI::App& root) {
    app = root.add_subcommand("wordcount",
                              "Count words ([A-Za-z][A-Za-z']*, lower-cased) in FILEs, or in the "
                              "built-in 512 MiB corpus when no FILE is given");
    app->add_option("FILE", options_.inputs, "Input files (or store paths with --store)")
        ->check(NotEmpty());
    AddJobOptions(app, options_);
  }

  int Run() override { return RunJob(options_, WordCountApp()); }

 private:
  JobOptions options_;
};

}  // namespace

std::unique_ptr<Command> AddWordCountCommand(CLI::App& root) {
  return std::make_unique<WordCountCommand>(root);
}

}  // namespace mrlocal
