// mrlocal serve --listen HOST:PORT --state DIR [--cluster SPEC] [--policy NAME]
//               [--data-root DIR ...] [--grace DUR]
// The scheduler service (tools/serve/service.h): the slots stay up, jobs come over HTTP
// (tools/serve/api.h), and the state (keys, queues, budgets, charges, jobs) is kept in
// DIR/state.db. SIGTERM or SIGINT: no new jobs, the running ones get --grace to finish, the
// rest are queued again for the next start.
#include <iostream>

#include "engine/slot_worker.h"
#include "sched/core/units.h"
#include "sched/policy/policy_registry.h"
#include "tools/cli/commands.h"
#include "tools/cli/option_checks.h"
#include "tools/cli/workload_options.h"
#include "tools/runtime/exit_codes.h"
#include "tools/runtime/interrupt.h"
#include "tools/serve/api.h"
#include "tools/serve/http_server.h"
#include "tools/serve/service.h"
#include "tools/serve/service_client.h"

namespace mrlocal {
namespace {

struct ServeFlags {
  std::string listen = "127.0.0.1:8080";
  std::string state;
  std::string cluster;
  std::string policy = "dynprio";
  std::vector<std::string> data_roots;
  std::string grace = "30s";
  std::string window = "5m";
  std::string allocation_interval, preempt;
  std::optional<std::string> memory_limit;
  std::string max_body = "1MiB";
  int max_connections = 256;
  int threads = 4;
  int max_jobs = 10'000;
  bool no_pin = false;
};

class ServeCommand final : public Command {
 public:
  explicit ServeCommand(CLI::App& root) {
    app = root.add_subcommand("serve",
                              "Run the scheduler as a service: jobs submitted over HTTP run on "
                              "slots that stay up, queues pay for them (README, `mrlocal serve`)");
    ServeFlags& f = flags_;
    app->add_option("--listen", f.listen,
                    "HOST:PORT to listen on (default 127.0.0.1:8080; PORT 0: any free port, "
                    "printed at start)")
        ->check(NotEmpty());
    app->add_option("--state", f.state,
                    "Directory of the service's state: DIR/state.db (keys, queues, budgets, "
                    "charges, jobs; mode 0600) and DIR/outputs (created, mode 0700)")
        ->required()
        ->check(NotEmpty());
    Within(app->add_option("--cluster", f.cluster,
                           "Cluster: groups of N x (map slots, reduce slots, speed) (default: one "
                           "node per CPU, each (1m,1r,1.0))"),
           ClusterSpecOrPreset());
    Within(app->add_option("--policy", f.policy, "Scheduling policy (default: dynprio)"),
           OneOf(PolicyNames()));
    app->add_option("--data-root", f.data_roots,
                    "A directory submitted jobs may read files under (repeatable; none: jobs "
                    "read no files, only generated inputs)")
        ->check(NotEmpty());  // Service::Start says which is not a directory
    Within(app->add_option("--grace", f.grace,
                           "On SIGTERM: how long running jobs may take to finish before they "
                           "are cancelled and queued again, a positive duration (default 30s)"),
           PositiveDuration());
    Within(app->add_option("--signature-window", f.window,
                           "How old a signed request may be, a positive duration (default 5m); "
                           "within it each nonce is taken once"),
           PositiveDuration());
    Within(app->add_option("--max-body", f.max_body,
                           "Largest request body, 1KiB to 64MiB (default 1MiB): larger is 413"),
           SizeIn(1024, 64ull << 20));
    Within(app->add_option("--max-connections", f.max_connections,
                           "Connections at once, 1 to 10000 (default 256): more get 503"),
           IntegerIn(1, 10000));
    Within(app->add_option("--http-threads", f.threads, "HTTP threads, 1 to 64 (default 4)"),
           IntegerIn(1, 64));
    Within(app->add_option("--max-jobs", f.max_jobs,
                           "Jobs queued or running at once, 1 to 1000000 (default 10000): a "
                           "submission beyond is refused with 503 until some end"),
           IntegerIn(1, 1'000'000));
    AddQueueShareOptions(app, f.allocation_interval, f.preempt);
    AddMemoryLimitOption(app, f.memory_limit);
    app->add_flag("--no-pin", f.no_pin, "Do not pin slot threads to CPUs");
  }

  int Run() override;

 private:
  Result<ServiceOptions> Options() const;
  ServeFlags flags_;
};

Result<ServiceOptions> ServeCommand::Options() const {
  const ServeFlags& f = flags_;
  ServiceOptions o;
  o.cluster = f.cluster.empty() ? ClusterSpec::Default(static_cast<int>(AllowedCpus().size()))
                                : ClusterSpec::Parse(f.cluster).value();
  o.policy = f.policy;
  MRLOCAL_RETURN_IF_ERROR(CheckQueueShareOptions(f.allocation_interval, f.preempt, {o.policy}));
  SetQueueShareSettings(f.allocation_interval, f.preempt, o.policy_args);
  o.state_dir = f.state;
  for (const std::string& root : f.data_roots) o.data_roots.emplace_back(root);
  if (f.memory_limit) o.memory_limit = ParseSize(*f.memory_limit).value();
  o.pin = !f.no_pin;
  o.max_active_jobs = static_cast<size_t>(f.max_jobs);
  return o;
}

int ServeCommand::Run() {
  const ServeFlags& f = flags_;
  auto address = ParseServiceUrl(f.listen);
  if (!address.ok() && f.listen.size() > 2 && f.listen.substr(f.listen.size() - 2) == ":0")
    address = ServiceAddress{f.listen.substr(0, f.listen.size() - 2), 0};
  if (!address.ok())
    return ReportError(
        Status::InvalidArgument("--listen: '" + f.listen + "' is not HOST:PORT (PORT 0 to 65535)"));
  auto options = Options();
  if (!options.ok()) return ReportError(options.status());
  StopSignals signals;  // before any thread: every thread inherits the blocked signals
  auto store = ServiceStore::Open(f.state);
  if (!store.ok()) return ReportError(store.status());
  auto service = Service::Start(*options, **store);
  if (!service.ok()) return ReportError(service.status());
  Api api(**service, ParseDuration(f.window).value() / std::chrono::seconds(1));
  HttpLimits limits;
  limits.max_body_bytes = ParseSize(f.max_body).value();
  limits.max_connections = static_cast<size_t>(f.max_connections);
  auto http = HttpServer::Listen(
      address->host, address->port, limits, [&api](const HttpRequest& r) { return api.Handle(r); },
      f.threads);
  if (!http.ok()) {
    (*service)->Stop(std::chrono::milliseconds(0));
    return ReportError(http.status());
  }
  const std::string url = "http://" + address->host + ":" + std::to_string((*http)->port());
  const ClusterSpec& cluster = options->cluster;
  std::cerr << "mrlocal serve: listening on " << url << " (policy " << options->policy << ", "
            << cluster.map_slots() << " map and " << cluster.reduce_slots()
            << " reduce slots; state " << f.state << ")\n"
            << "mrlocal serve: console " << url << "/console/\n";
  const int sig = signals.Wait();
  const auto grace =
      std::chrono::duration_cast<std::chrono::milliseconds>(ParseDuration(f.grace).value());
  std::cerr << "mrlocal serve: " << StopSignals::Name(sig) << ": no new jobs; running jobs have "
            << f.grace << " to finish\n";
  (*service)->Stop(grace);
  (*http)->Stop();
  std::cerr << "mrlocal serve: stopped\n";
  return kExitOk;
}

}  // namespace

std::unique_ptr<Command> AddServeCommand(CLI::App& root) {
  return std::make_unique<ServeCommand>(root);
}

}  // namespace mrlocal
