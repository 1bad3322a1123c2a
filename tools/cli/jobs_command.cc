// mrlocal status --server URL --key KEYFILE [ID]   the newest jobs, or one job
// mrlocal cancel --server URL --key KEYFILE ID     end a queued or running job
// What a running `mrlocal serve` holds of the caller's jobs (an owner sees its own).
#include <iostream>

#include "tools/cli/commands.h"
#include "tools/cli/option_checks.h"
#include "tools/cli/service_options.h"
#include "tools/runtime/exit_codes.h"

namespace mrlocal {
namespace {

using nlohmann::json;

// "12  succeeded  wordcount  q1  maps 8/8  reduces 2/2  3.1 s  deadline 30 s, slack 26.9 s".
void PrintJob(const json& j) {
  char line[256];
  std::snprintf(line, sizeof line, "%-6lld %-10s %-12s %-10s maps %u/%u reduces %u/%u %8.1f s",
                static_cast<long long>(j.value("id", 0LL)), j.value("phase", "").c_str(),
                j.value("app", "").c_str(), j.value("queue", "").c_str(), j.value("maps_done", 0u),
                j.value("maps", 0u), j.value("reduces_done", 0u), j.value("reduces", 0u),
                j.value("elapsed_s", 0.0));
  std::cout << line;
  if (j["deadline_s"].is_number()) {
    std::snprintf(line, sizeof line, "  deadline %.1f s, slack %.1f s",
                  j["deadline_s"].get<double>(), j["slack_s"].get<double>());
    std::cout << line;
  }
  std::cout << "\n";
}

class JobsCommand final : public Command {
 public:
  JobsCommand(CLI::App& root, bool cancel) : cancel_(cancel) {
    app = cancel ? root.add_subcommand("cancel", "Cancel a job of a running `mrlocal serve`")
                 : root.add_subcommand("status", "The jobs of a running `mrlocal serve`");
    AddServerOptions(app, server_);
    auto* id = Within(app->add_option("ID", id_, "The job's id"),
                      IntegerIn<int64_t>(1, std::numeric_limits<int64_t>::max()));
    if (cancel) id->required();
    if (!cancel)
      Within(app->add_option("--limit", limit_, "How many of the newest jobs, 1 to 10000"),
             IntegerIn(1, 10000));
  }

  int Run() override {
    auto client = Connect(server_);
    if (!client.ok()) return ReportError(client.status());
    if (cancel_ || id_) {
      const std::string target =
          "/api/v1/jobs/" + std::to_string(*id_) + (cancel_ ? "/cancel" : "");
      auto job = CallApi(**client, cancel_ ? "POST" : "GET", target);
      if (!job.ok()) return ReportError(job.status());
      PrintJob(*job);
      const std::string message = job->value("message", ""),
                        admission = job->value("admission", "");
      if (!message.empty()) std::cout << "  " << message << "\n";
      if (!admission.empty()) std::cout << "  admission: " << admission << "\n";
      if (!job->value("output", "").empty())
        std::cout << "  output: " << job->value("output", "") << "\n";
      return kExitOk;
    }
    auto jobs = CallApi(**client, "GET", "/api/v1/jobs?limit=" + std::to_string(limit_));
    if (!jobs.ok()) return ReportError(jobs.status());
    for (const json& j : (*jobs)["jobs"]) PrintJob(j);
    return kExitOk;
  }

 private:
  bool cancel_;
  ServerFlags server_;
  std::optional<int64_t> id_;
  int limit_ = 20;
};

}  // namespace

std::unique_ptr<Command> AddStatusCommand(CLI::App& root) {
  return std::make_unique<JobsCommand>(root, false);
}
std::unique_ptr<Command> AddCancelCommand(CLI::App& root) {
  return std::make_unique<JobsCommand>(root, true);
}

}  // namespace mrlocal
