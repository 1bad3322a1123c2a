// What the service's client commands share (`mrlocal submit|status|cancel|queue`): the
// --server and --key options, and one API call whose answer is JSON or a one-line error.
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>
#include <string>

#include "engine/status.h"
#include "sched/core/queue_spec.h"
#include "tools/serve/service_client.h"

namespace mrlocal {

struct ServerFlags {
  std::string server = "http://127.0.0.1:8080";
  std::string key;  // the key file of `mrlocal keys add`
};

void AddServerOptions(CLI::App* cmd, ServerFlags& flags);

// A client signing with the key file's key. Errors name the file or the URL.
Result<std::unique_ptr<ServiceClient>> Connect(const ServerFlags& flags);

// One call; a 2xx answer's JSON body, or the server's {"error"} as a Status whose code
// gives the exit code: 4xx a user error, 5xx (and no answer) ours or the server's.
Result<nlohmann::json> CallApi(ServiceClient& client, const std::string& method,
                               const std::string& target, const std::string& body = "");

// Credits as the user writes them ("2", "0.5", "1000.000001") into micro-credits, exactly
// (no floating point); InvalidArgument naming `what` otherwise.
Result<MicroCredits> ParseCredits(std::string_view text, const std::string& what);
// The option check of an amount of credits (ParseCredits), saying kCreditsRange.
inline constexpr const char* kCreditsRange = "credits from 0 to 10^12, at most 6 decimals";
CLI::Validator Credits();

}  // namespace mrlocal
