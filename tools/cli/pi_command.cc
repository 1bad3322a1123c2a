// mrlocal pi NMAPS NSAMPLES [job options]
// Hadoop's `hadoop jar hadoop-mapreduce-examples.jar pi NMAPS NSAMPLES`: the same arguments,
// the same lines on stdout and, bit for bit, the same estimate (apps/pi.h).

#include "apps/pi.h"
#include "tools/cli/commands.h"
#include "tools/cli/job_runner.h"
#include "tools/cli/option_checks.h"
#include "tools/runtime/exit_codes.h"
#include "tools/runtime/job_apps.h"

namespace mrlocal {
namespace {

class PiCommand final : public Command {
 public:
  explicit PiCommand(CLI::App& root) {
    app = root.add_subcommand(
        "pi",
        "Estimate Pi as Hadoop's example does: NMAPS map tasks each count which of NSAMPLES "
        "points of a Halton sequence fall in the circle (quasi-Monte Carlo); one reduce");
    // Hadoop's ranges (apps::ParsePiArgs, which also checks the product).
    Within(app->add_option("NMAPS", maps_, "Map tasks"), IntegerIn<int64_t>(1, INT32_MAX))
        ->required();
    Within(app->add_option("NSAMPLES", samples_, "Samples per map, NMAPS * NSAMPLES < 2^63"),
           IntegerIn<int64_t>(1, INT64_MAX))
        ->required();
    options_.reduces = 1;  // Hadoop's Pi has one reduce
    options_.top = 2;      // "inside" and "outside": how the counts reach PiApp's print_result
    AddJobOptions(app, options_, JobInput::kNone);
  }

  int Run() override {
    apps::PiArgs args;
    if (auto error = apps::ParsePiArgs(maps_, samples_, args))
      return ReportError(Status::InvalidArgument(*error));

    return RunJob(options_, PiApp(args.maps, args.samples));
  }

 private:
  std::string maps_;  // parsed by apps::ParsePiArgs, as Hadoop parses them
  std::string samples_;
  JobOptions options_;
};

}  // namespace

std::unique_ptr<Command> AddPiCommand(CLI::App& root) { return std::make_unique<PiCommand>(root); }

}  // namespace mrlocal
