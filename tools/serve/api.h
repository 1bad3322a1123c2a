// The service's HTTP API, version 1 (described for clients in tools/serve/openapi.json):
// routes, who may call each, and the JSON in and out. Every /api/v1 request but the
// OpenAPI description is signed (tools/serve/request_signing.h) and checked against the
// replay guard; /healthz, /metrics and the console's files need no key. Errors are a JSON
// body {"error": "one line"} with the status that says what went wrong: 400 bad input, 401
// no or a bad signature, a stale or replayed request, 403 the caller's role or queue does
// not allow it, 404 no such thing (another user's job included), 409 it exists already or
// has ended, 413 too large, 503 the server is stopping or full.
#pragma once

#include <string>
#include <vector>

#include "tools/serve/http_server.h"
#include "tools/serve/replay_guard.h"
#include "tools/serve/service.h"

namespace mrlocal {

class Api {
 public:
  // `window_s`: how old a signed request may be (ReplayGuard's window).
  Api(Service& service, int64_t window_s);
  HttpResponse Handle(const HttpRequest& request);

  // The routes, as "METHOD /path/{param}": what the OpenAPI description must list.
  static std::vector<std::string> Routes();

  struct Call;  // a request on its way through the routes (api.cc)

 private:
  Service& service_;
  ServiceStore& store_;
  ReplayGuard guard_;
};

}  // namespace mrlocal
