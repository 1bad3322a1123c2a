// The service's HTTP/1.1 front (Boost.Beast): accepts connections on its own threads, reads
// each request within bounds, hands it to one handler and writes the answer back. What a
// request means is the handler's business (tools/serve/api.h); this file only guarantees
// that no client can hold the server: a body over the limit is refused before it is read
// (413), as is an oversized header block (431); a client that sends too slowly is cut off
// at the read timeout; connections beyond the limit are answered 503 and closed.
// A handler may answer with a stream (Server-Sent Events): the server then writes what
// the stream yields every `stream_every`, until it ends, the client leaves, or Stop.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "engine/status.h"

namespace mrlocal {

struct HttpLimits {
  size_t max_body_bytes = size_t{1} << 20;
  size_t max_header_bytes = size_t{16} << 10;
  size_t max_header_fields = 64;
  size_t max_connections = 256;
  // For each request, from the end of the last one (or the connection) to its last byte:
  // a kept-alive connection left idle closes after it too.
  std::chrono::milliseconds read_timeout{10'000};
};

struct HttpRequest {
  std::string method;                          // "GET", "POST", ...
  std::string target;                          // path and query, as sent
  std::map<std::string, std::string> headers;  // names lower-cased
  std::string body;
  std::string Header(const std::string& lower_name) const {
    auto it = headers.find(lower_name);
    return it == headers.end() ? std::string() : it->second;
  }
};

struct HttpResponse {
  static HttpResponse Of(int status, std::string content_type, std::string body) {
    HttpResponse r;
    r.status = status;
    r.content_type = std::move(content_type);
    r.body = std::move(body);
    return r;
  }
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  // Server-Sent Events: when set, `body` is sent first, then what each call returns, every
  // `stream_every`; none ends the stream.
  std::function<std::optional<std::string>()> stream;
  std::chrono::milliseconds stream_every{500};
};

using HttpHandler = std::function<HttpResponse(const HttpRequest&)>;

class HttpServer {
 public:
  // Binds host:port (port 0: the kernel picks; see port()) and serves on `threads` threads.
  // IoError naming the address when it cannot bind.
  static Result<std::unique_ptr<HttpServer>> Listen(const std::string& host, uint16_t port,
                                                    HttpLimits limits, HttpHandler handler,
                                                    int threads);
  ~HttpServer();  // Stop()
  // Stops accepting, ends every connection and stream, and joins the threads. Idempotent.
  void Stop();
  uint16_t port() const { return port_; }
  size_t open_connections() const { return open_.load(); }

  struct Impl;

 private:
  HttpServer() = default;
  std::unique_ptr<Impl> impl_;
  uint16_t port_ = 0;
  std::atomic<size_t> open_{0};
};

}  // namespace mrlocal
