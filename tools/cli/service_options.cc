#include "tools/cli/service_options.h"

#include <charconv>

#include "tools/cli/option_checks.h"
#include "tools/serve/service_store.h"

namespace mrlocal {

using nlohmann::json;

void AddServerOptions(CLI::App* cmd, ServerFlags& flags) {
  cmd->add_option("--server", flags.server,
                  "The service's URL, http://HOST:PORT (default http://127.0.0.1:8080)")
      ->check(NotEmpty());
  cmd->add_option("--key", flags.key, "Key file written by `mrlocal keys add`")
      ->required()
      ->check(NotEmpty());
}

Result<std::unique_ptr<ServiceClient>> Connect(const ServerFlags& flags) {
  auto address = ParseServiceUrl(flags.server);
  if (!address.ok()) return address.status();
  auto key = ReadKeyFile(flags.key);
  if (!key.ok()) return key.status();
  return std::make_unique<ServiceClient>(*address, *key);
}

Result<json> CallApi(ServiceClient& client, const std::string& method, const std::string& target,
                     const std::string& body) {
  auto r = client.Call(method, target, body);
  if (!r.ok()) return r.status();
  json j = json::parse(r->body, nullptr, /*allow_exceptions=*/false);
  if (r->status >= 200 && r->status < 300) {
    if (j.is_discarded()) return Status::Internal("the server's answer is not JSON");
    return j;
  }
  const std::string why = j.is_object() && j.contains("error") && j["error"].is_string()
                              ? j["error"].get<std::string>()
                              : "HTTP " + std::to_string(r->status);
  const std::string message = "server: " + why + " (HTTP " + std::to_string(r->status) + ")";
  if (r->status == 404) return Status::NotFound(message);
  if (r->status == 401 || r->status == 403) return Status::PermissionDenied(message);
  if (r->status < 500) return Status::InvalidArgument(message);
  return Status::Internal(message);
}

CLI::Validator Credits() {
  return CLI::Validator(
      [](std::string& text) {
        return ParseCredits(text, "").ok() ? std::string() : MustBe(kCreditsRange, text);
      },
      "");
}

Result<MicroCredits> ParseCredits(std::string_view text, const std::string& what) {
  const std::string given(text);
  const auto bad = [&] {
    return Status::InvalidArgument(what + ": '" + given +
                                   "' is not an amount of credits (at most 6 decimals, 0 to "
                                   "10^12)");
  };
  const size_t dot = text.find('.');
  const std::string_view whole = text.substr(0, dot);
  const std::string_view frac = dot == std::string_view::npos ? "" : text.substr(dot + 1);
  if (whole.empty() || whole.size() > 13 || frac.size() > 6 ||
      (dot != std::string_view::npos && frac.empty()))
    return bad();
  int64_t w = 0, f = 0;
  for (std::string_view part : {whole, frac})
    for (char c : part)
      if (c < '0' || c > '9') return bad();
  std::from_chars(whole.data(), whole.data() + whole.size(), w);
  if (!frac.empty()) std::from_chars(frac.data(), frac.data() + frac.size(), f);
  for (size_t i = frac.size(); i < 6; ++i) f *= 10;
  const MicroCredits micro = w * 1'000'000 + f;
  if (micro > kMaxMicroCredits) return bad();
  return micro;
}

}  // namespace mrlocal
