#include "tools/serve/service_client.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <boost/asio/connect.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <ctime>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "tools/serve/request_signing.h"

namespace mrlocal {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;
using nlohmann::json;

Result<ServiceKey> ReadKeyFile(const std::filesystem::path& path) {
  std::ifstream in(path);
  if (!in) return Status::NotFound("key file '" + path.string() + "': cannot be read");
  std::stringstream text;
  text << in.rdbuf();
  const json j = json::parse(text.str(), nullptr, /*allow_exceptions=*/false);
  const auto field = [&j](const char* name) -> std::string {
    return j.is_object() && j.contains(name) && j[name].is_string() ? j[name].get<std::string>()
                                                                    : std::string();
  };
  ServiceKey key{field("key"), field("secret"), field("role")};
  if (key.id.empty() || key.secret.empty())
    return Status::InvalidArgument("key file '" + path.string() +
                                   "': not a key file of `mrlocal keys add`");
  return key;
}

Status WriteKeyFile(const std::filesystem::path& path, const ServiceKey& key) {
  const std::string text =
      json{{"key", key.id}, {"secret", key.secret}, {"role", key.role}}.dump(2) + "\n";
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
  if (fd < 0) {
    if (errno == EEXIST)
      return Status::InvalidArgument("'" + path.string() +
                                     "' exists: a key file is never replaced; choose another -o");
    return Status::IoError("cannot create '" + path.string() + "': " + std::strerror(errno));
  }
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) &&
                  ::fsync(fd) == 0;
  ::close(fd);
  if (!ok) {
    ::unlink(path.c_str());  // ours, half-written
    return Status::IoError("cannot write '" + path.string() + "'");
  }
  return Status::OK();
}

Result<ServiceAddress> ParseServiceUrl(std::string_view url) {
  const std::string given(url);
  if (url.rfind("http://", 0) == 0) url.remove_prefix(7);
  while (!url.empty() && url.back() == '/') url.remove_suffix(1);
  const size_t colon = url.rfind(':');
  ServiceAddress a;
  if (colon != std::string_view::npos && colon > 0) {
    a.host = std::string(url.substr(0, colon));
    const std::string_view port = url.substr(colon + 1);
    unsigned value = 0;
    auto [end, ec] = std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec == std::errc() && end == port.data() + port.size() && value >= 1 && value <= 65535) {
      a.port = static_cast<uint16_t>(value);
      return a;
    }
  }
  return Status::InvalidArgument("--server: '" + given +
                                 "' is not http://HOST:PORT (PORT 1 to 65535)");
}

struct ServiceClient::Connection {
  net::io_context io;
  beast::tcp_stream stream{io};
  beast::flat_buffer buffer;
};

ServiceClient::ServiceClient(ServiceAddress address, ServiceKey key,
                             std::chrono::milliseconds timeout)
    : address_(std::move(address)), key_(std::move(key)), timeout_(timeout) {}

ServiceClient::~ServiceClient() = default;

Result<HttpResponse> ServiceClient::Call(const std::string& method, const std::string& target,
                                         const std::string& body) {
  std::vector<std::pair<std::string, std::string>> headers;
  if (target.rfind("/api/", 0) == 0 && !key_.id.empty()) {
    RequestToSign r{method, target, body, key_.id, static_cast<int64_t>(std::time(nullptr)), ""};
    const std::string nonce = RandomNonce();
    r.nonce = nonce;
    headers = {{std::string(kKeyHeader), key_.id},
               {std::string(kTimestampHeader), std::to_string(r.timestamp_s)},
               {std::string(kNonceHeader), nonce},
               {std::string(kSignatureHeader), SignRequest(key_.secret, r)}};
  }
  return CallWith(method, target, body, headers);
}

Result<HttpResponse> ServiceClient::CallWith(
    const std::string& method, const std::string& target, const std::string& body,
    const std::vector<std::pair<std::string, std::string>>& headers) {
  const std::string where = "http://" + address_.host + ":" + std::to_string(address_.port);
  http::request<http::string_body> req(http::string_to_verb(method), target, 11);
  req.set(http::field::host, address_.host);
  req.set(http::field::content_type, "application/json");
  for (const auto& [name, value] : headers) req.set(name, value);
  req.body() = body;
  req.prepare_payload();
  req.keep_alive(true);
  // A kept-alive connection the server closed meanwhile fails the first try: reconnect once.
  for (int attempt = 0; attempt < 2; ++attempt) {
    const bool fresh = connection_ == nullptr;
    if (fresh) {
      connection_ = std::make_unique<Connection>();
      beast::error_code ec;
      tcp::resolver resolver(connection_->io);
      auto endpoints = resolver.resolve(address_.host, std::to_string(address_.port), ec);
      connection_->stream.expires_after(timeout_);
      if (!ec) connection_->stream.connect(endpoints, ec);
      if (ec) {
        connection_.reset();
        return Status::IoError("cannot reach the server at " + where + ": " + ec.message());
      }
      // The reads and writes below are blocking: the socket's own timeouts bound them.
      const timeval tv{static_cast<time_t>(timeout_.count() / 1000),
                       static_cast<suseconds_t>(timeout_.count() % 1000 * 1000)};
      const int fd = connection_->stream.socket().native_handle();
      ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
      ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof tv);
    }
    beast::error_code ec;
    http::write(connection_->stream.socket(), req, ec);
    http::response_parser<http::string_body> parser;
    parser.body_limit(size_t{1} << 30);
    if (!ec) http::read(connection_->stream.socket(), connection_->buffer, parser, ec);
    if (ec) {
      connection_.reset();
      if (!fresh) continue;
      return Status::IoError("no answer from the server at " + where + ": " + ec.message());
    }
    auto& res = parser.get();
    HttpResponse out;
    out.status = static_cast<int>(res.result_int());
    out.content_type = std::string(res[http::field::content_type]);
    out.body = std::move(res.body());
    for (const auto& field : res)
      out.headers.emplace_back(std::string(field.name_string()), std::string(field.value()));
    if (!res.keep_alive()) connection_.reset();
    return out;
  }
  return Status::IoError("no answer from the server at " + where);
}

}  // namespace mrlocal
