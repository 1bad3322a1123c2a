// mrlocal pi NMAPS NSAMPLES [job options]
// Hadoop's `hadoop jar hadoop-mapreduce-examples.jar pi NMAPS NSAMPLES`: the same arguments,
// the same lines on stdout and, bit for bit, the same estimate (apps/pi.h).
#include <charconv>
#include <cstdio>
#include <ostream>

#include "apps/pi.h"
#include "engine/slot_worker.h"
#include "sched/core/cluster_spec.h"
#include "tools/cli/commands.h"
#include "tools/cli/exit_codes.h"
#include "tools/cli/job_runner.h"
#include "tools/cli/option_checks.h"
#include "tools/runtime/job_apps.h"

namespace mrlocal {
namespace {

// The value of the top-N entry named `key` (both of Pi's keys are always there).
uint64_t CountOf(const JobMetrics& s, std::string_view key) {
  for (const TopEntry& t : s.top) {
    if (t.key != key) continue;
    uint64_t v = 0;
    std::from_chars(t.value.data(), t.value.data() + t.value.size(), v);
    return v;
  }
  return 0;
}

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
    options_.top = 2;      // "inside" and "outside": how the counts reach print_result
    AddJobOptions(app, options_, JobInput::kNone);
  }

  int Run() override {
    apps::PiArgs args;
    if (auto error = apps::ParsePiArgs(maps_, samples_, args))
      return ReportError(Status::InvalidArgument(*error));

    // The map slots that can work at once, for the per-core rate.
    const ClusterSpec cluster = options_.cluster.empty()
                                    ? ClusterSpec::Default(static_cast<int>(AllowedCpus().size()))
                                    : ClusterSpec::Parse(options_.cluster).value();
    const uint32_t slots = std::min(static_cast<uint32_t>(cluster.map_slots()), args.maps);

    JobApp job = PiApp(args.maps, args.samples);
    job.print_result = [args, slots](std::ostream& out, const JobMetrics& s) {
      const unsigned __int128 total = static_cast<unsigned __int128>(args.maps) * args.samples;
      const double samples = static_cast<double>(args.maps) * static_cast<double>(args.samples);
      // Hadoop prints the first two lines when the job starts; progress goes to stderr,
      // so printing them here gives the same stdout, and none for a job that never ran.
      out << "Number of Maps  = " << args.maps << "\n"
          << "Samples per Map = " << args.samples << "\n";
      char line[160];
      std::snprintf(line, sizeof line, "Job Finished in %.3f seconds\n", s.elapsed_s);
      out << line;
      out << "Estimated value of Pi is " << apps::FormatPiEstimate(CountOf(s, "inside"), total)
          << "\n";
      if (s.elapsed_s > 0 && slots > 0) {
        const double rate = samples / s.elapsed_s;
        std::snprintf(line, sizeof line,
                      "Samples per second = %.4g (%.4g per core on %u map slot%s)\n", rate,
                      rate / slots, slots, slots == 1 ? "" : "s");
        out << line;
      }
    };
    return RunJob(options_, job);
  }

 private:
  std::string maps_;  // parsed by apps::ParsePiArgs, as Hadoop parses them
  std::string samples_;
  JobOptions options_;
};

}  // namespace

std::unique_ptr<Command> AddPiCommand(CLI::App& root) { return std::make_unique<PiCommand>(root); }

}  // namespace mrlocal
