// mrlocal submit --server URL --key KEYFILE APP [FILE...] [job options] [--wait]
// A job for a running `mrlocal serve`: made into one job of the workload spec format (or
// given whole with --job JSON), signed with the key and sent. Prints the job's id and the
// admission's verdict; with --wait, its progress until it ends and how it ended, with the
// exit codes of a local run (0 done and any deadline met, 3 deadline missed, 4 rejected).
#include <filesystem>
#include <iostream>
#include <thread>

#include "sched/core/units.h"
#include "tools/cli/commands.h"
#include "tools/cli/exit_codes.h"
#include "tools/cli/option_checks.h"
#include "tools/cli/service_options.h"

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

// The job as the spec format writes it.
Result<std::string> JobJson(const SubmitFlags& f) {
  if (f.job_json) {
    if (!f.app.empty() || !f.files.empty())
      return Status::InvalidArgument("--job gives the whole job: no APP or FILE beside it");
    return *f.job_json;
  }
  if (f.app.empty()) return Status::InvalidArgument("APP is required (or --job JSON)");
  json job{{"app", f.app}};
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

// "job 12 (wordcount, queue q1): running, maps 3/8, reduces 0/2, 4.1 s".
std::string Line(const json& j) {
  std::string s = "job " + std::to_string(j.value("id", 0)) + " (" + j.value("app", "") +
                  ", queue " + j.value("queue", "") + "): " + j.value("phase", "");
  s += ", maps " + std::to_string(j.value("maps_done", 0)) + "/" +
       std::to_string(j.value("maps", 0)) + ", reduces " +
       std::to_string(j.value("reduces_done", 0)) + "/" + std::to_string(j.value("reduces", 0));
  char t[64];
  std::snprintf(t, sizeof t, ", %.1f s", j.value("elapsed_s", 0.0));
  return s + t;
}

// How a finished job ends the command: the local run's exit codes.
int Closing(const json& j) {
  const std::string phase = j.value("phase", "");
  std::cout << Line(j) << "\n";
  if (!j.value("message", "").empty()) std::cout << "  " << j.value("message", "") << "\n";
  if (!j.value("output", "").empty() && phase == "succeeded")
    std::cout << "  output: " << j.value("output", "") << "\n";
  if (phase == "rejected") return kExitRejected;
  if (phase != "succeeded") return phase == "cancelled" ? kExitUsage : kExitInternal;
  if (j["slack_s"].is_number()) {
    const double slack = j["slack_s"].get<double>();
    char t[96];
    std::snprintf(t, sizeof t, "  deadline %s by %.1f s\n", slack >= 0 ? "met" : "missed",
                  std::abs(slack));
    std::cout << t;
    if (slack < 0) return kExitDeadlineMissed;
  }
  return kExitOk;
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
                    "The whole job as JSON, one job of the workload spec format")
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
    const std::string target = "/api/v1/jobs/" + std::to_string((*job)["id"].get<int64_t>());
    std::string last;  // the progress last printed, without its time
    for (;;) {
      std::this_thread::sleep_for(std::chrono::milliseconds(250));
      auto now = CallApi(**client, "GET", target);
      if (!now.ok()) return ReportError(now.status());
      const std::string phase = (*now)["phase"];
      if (phase != "queued" && phase != "running") return Closing(*now);
      const std::string line = Line(*now), progress = line.substr(0, line.rfind(','));
      if (!f_.quiet && progress != last) std::cerr << line << "\n";
      last = progress;
    }
  }

 private:
  SubmitFlags f_;
};

}  // namespace

std::unique_ptr<Command> AddSubmitCommand(CLI::App& root) {
  return std::make_unique<SubmitCommand>(root);
}

}  // namespace mrlocal
