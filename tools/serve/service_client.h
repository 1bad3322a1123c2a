// The client end of the service's API, for `mrlocal submit|status|cancel|queue`, the load
// client and the tests: one HTTP/1.1 exchange per call over a kept-alive connection, every
// /api request signed with the caller's key (tools/serve/request_signing.h), so that a user
// never builds a signature by hand.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "engine/status.h"
#include "tools/serve/http_server.h"

namespace mrlocal {

// A key as `mrlocal keys add` writes it to a key file (JSON, mode 0600).
struct ServiceKey {
  std::string id;
  std::string secret;  // hex
  std::string role;
};
Result<ServiceKey> ReadKeyFile(const std::filesystem::path& path);
// Writes the key file; refuses to replace an existing file (InvalidArgument), and creates
// it readable by its owner only.
Status WriteKeyFile(const std::filesystem::path& path, const ServiceKey& key);

// "http://127.0.0.1:8080" or "127.0.0.1:8080" into host and port; InvalidArgument otherwise
// (https is not served: the service binds to loopback unless told otherwise).
struct ServiceAddress {
  std::string host;
  uint16_t port = 0;
};
Result<ServiceAddress> ParseServiceUrl(std::string_view url);

class ServiceClient {
 public:
  // `key` may be empty for the routes that take none (/healthz, /metrics).
  ServiceClient(ServiceAddress address, ServiceKey key,
                std::chrono::milliseconds timeout = std::chrono::seconds(30));
  ~ServiceClient();
  // One request; a signed one when `target` starts with /api and there is a key. IoError
  // naming the server when it cannot be reached or answers no HTTP.
  Result<HttpResponse> Call(const std::string& method, const std::string& target,
                            const std::string& body = "");
  // The same, with headers of the caller's (e.g. a forged signature, in tests).
  Result<HttpResponse> CallWith(const std::string& method, const std::string& target,
                                const std::string& body,
                                const std::vector<std::pair<std::string, std::string>>& headers);

 private:
  struct Connection;
  ServiceAddress address_;
  ServiceKey key_;
  std::chrono::milliseconds timeout_;
  std::unique_ptr<Connection> connection_;  // kept alive between calls; reopened when lost
};

}  // namespace mrlocal
