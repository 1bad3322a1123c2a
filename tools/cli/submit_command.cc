// mrlocal submit --server URL --key KEYFILE APP [FILE...] [job options] [--wait]
// A job for a running `mrlocal serve`: made into one job of the workload spec format (or
// given whole with --job JSON), signed with the key and sent. Prints the job's id and the
// admission's verdict; with --wait, the progress lines, the result and closing report of a
// local run of the job, and its exit code (tools/runtime/exit_codes.h; 130 if cancelled).
#include <filesystem>
#include <iostream>
#include <thread>

#include "sched/core/units.h"
#include "tools/cli/commands.h"
#include "tools/cli/option_checks.h"
#include "tools/cli/progress_printer.h"
#include "tools/cli/service_options.h"
#include "tools/runtime/exit_codes.h"

namespace mrlocal {
namespace {

using nlohmann::json;

struct SubmitFlags {
  ServerFlags server;
  std::string app;
  std::vector<std::string> files;
  std::optional<std::string> deadline, goal, queue, generate_text, job_json;
  std::optional<int> reduces, maps;
  std::optional<int64_t> samples;
  bool no_output = false;
  bool wait = false;
  bool quiet = false;
};

// The job as the spec format writes it: --job's, or one made of APP and FILEs; the job
// options given beside either set their keys.
Result<std::string> JobJson(const SubmitFlags& f) {
  json job;
  if (f.job_json) {
    if (!f.app.empty() || !f.files.empty())
      return Status::InvalidArgument("--job gives the whole job: no APP or FILE beside it");
    job = json::parse(*f.job_json, nullptr, /*allow_exceptions=*/false);
    if (job.is_discarded() || !job.is_object())
      return Status::InvalidArgument(
          "--job: not a JSON object (one job of the workload spec format)");
  } else if (f.app.empty()) {
    return Status::InvalidArgument("APP is required (or --job JSON)");
  } else {
    job["app"] = f.app;
  }
  if (!f.files.empty()) {
    json files = json::array();
    for (const std::string& file : f.files) {
      std::error_code ec;  // the server resolves paths from its own directory
      files.push_back(std::filesystem::absolute(file, ec).string());
    }
    job["input"] = {{"files", files}};
  } else if (f.generate_text) {
    job["input"] = {{"generate", "text"}, {"size", *f.generate_text}};
  }
  if (f.deadline) job["deadline_s"] = Seconds(ParseDuration(*f.deadline).value());
  if (f.goal) job["goal_s"] = Seconds(ParseDuration(*f.goal).value());
  if (f.queue) job["queue"] = *f.queue;
  if (f.reduces) job["reduces"] = *f.reduces;
  if (f.maps) job["maps"] = *f.maps;
  if (f.samples) job["samples"] = *f.samples;
  if (f.no_output) job["output"] = false;
  return job.dump();
}

// How a finished job ends the command: what a local run of it would print on stdout, and
// its exit code, both as the server recorded them when the job ended.
int Closing(const json& j) {
  const std::string phase = j.value("phase", ""), message = j.value("message", "");
  if (phase == "failed" || phase == "cancelled")
    std::cerr << "mrlocal: error: job failed: " << message << "\n";
  const std::string report = j.value("report", "");
  if (!report.empty()) {
    std::cout << report;
    return j.value("exit_code", int{kExitInternal});
  }
  // A job that never ran (its deadline passed while the server was down) has no report.
  std::cout << "job " << j.value("app", "") << ": " << phase << ": " << message << "\n";
  if (phase == "rejected") return kExitRejected;
  return phase == "succeeded" ? kExitOk : kExitInternal;
}

std::optional<Duration> OptionalSeconds(const json& j, const char* key) {
  if (!j.contains(key) || !j[key].is_number()) return std::nullopt;
  return FromSeconds(j[key].get<double>());
}

// Follows the job to its end: the progress lines of a local run on stderr while it
// runs (unless `quiet`), then Closing.
int Follow(ServiceClient& client, int64_t id, bool quiet) {
  const std::string target = "/api/v1/jobs/" + std::to_string(id);
  std::pair<int, int> last{-1, -1};  // the percentages last printed
  for (;;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(250));
    auto now = CallApi(client, "GET", target);
    if (!now.ok()) return ReportError(now.status());
    const json& j = *now;
    const std::string phase = j.value("phase", "");
    if (phase != "queued" && phase != "running") return Closing(j);
    const double map = j.value("map_progress", 0.0), reduce = j.value("reduce_progress", 0.0);
    const std::pair<int, int> percents = ProgressPercents(map, reduce);
    if (quiet || phase != "running" || percents == last) continue;
    last = percents;
    PrintProgressLine(std::cerr, map, reduce, FromSeconds(j.value("elapsed_s", 0.0)),
                      OptionalSeconds(j, "slack_s"), OptionalSeconds(j, "estimate_s"));
  }
}

class SubmitCommand final : public Command {
 public:
  explicit SubmitCommand(CLI::App& root) {
    app = root.add_subcommand("submit", "Submit a job to a running `mrlocal serve`");
    SubmitFlags& f = f_;
    AddServerOptions(app, f.server);
    app->add_option("APP", f.app, "wordcount, friendcount, pi or synthetic")->check(NotEmpty());
    app->add_option("FILE", f.files, "Input files (under the server's --data-root)")
        ->check(NotEmpty());
    app->add_option("--job", f.job_json,
                    "The whole job as JSON, one job of the workload spec format (the job "
                    "options given beside it set their keys)")
        ->check(NotEmpty());
    Within(app->add_option("--deadline", f.deadline, "Deadline from submission"),
           PositiveDuration());
    Within(app->add_option("--goal", f.goal, "Soft completion-time goal from submission"),
           PositiveDuration());
    app->add_option("--queue", f.queue, "The paying queue (default: an owner key's own queue)")
        ->check(NotEmpty());
    Within(app->add_option("--reduces", f.reduces, "Reduce tasks, 0 to 100000"),
           IntegerIn(0, 100000));
    Within(app->add_option("--maps", f.maps, "pi, synthetic: map tasks, 1 to 100000"),
           IntegerIn(1, 100000));
    Within(app->add_option("--samples", f.samples, "pi: samples per map, 1 to 10^12"),
           IntegerIn<int64_t>(1, 1'000'000'000'000));
    Within(app->add_option("--generate-text", f.generate_text,
                           "Read generated Zipf text of SIZE (1KiB to 64GiB) instead of files"),
           SizeIn(1024, 64ull << 30));
    app->add_flag("--no-output", f.no_output, "Compute the output, then discard it");
    app->add_flag("--wait", f.wait, "Follow the job to its end; exit as a local run would");
    app->add_flag("-q,--quiet", f.quiet, "With --wait: no progress lines");
  }

  int Run() override {
    auto body = JobJson(f_);
    if (!body.ok()) return ReportError(body.status());
    auto client = Connect(f_.server);
    if (!client.ok()) return ReportError(client.status());
    auto job = CallApi(**client, "POST", "/api/v1/jobs", *body);
    if (!job.ok()) return ReportError(job.status());
    std::cout << "job " << (*job)["id"] << " " << (*job)["phase"].get<std::string>() << ": "
              << (*job).value("admission", "") << "\n";
    if ((*job)["phase"] == "rejected") return kExitRejected;
    if (!f_.wait) return kExitOk;
    return Follow(**client, (*job)["id"].get<int64_t>(), f_.quiet);
  }

 private:
  SubmitFlags f_;
};

}  // namespace

std::unique_ptr<Command> AddSubmitCommand(CLI::App& root) {
  return std::make_unique<SubmitCommand>(root);
}

}  // namespace mrlocal
