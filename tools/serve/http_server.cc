#include "tools/serve/http_server.h"

#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/strand.hpp>
#include <boost/asio/write.hpp>
#include <boost/beast/core.hpp>
#include <boost/beast/http.hpp>
#include <mutex>
#include <thread>

namespace mrlocal {

namespace beast = boost::beast;
namespace http = beast::http;
namespace net = boost::asio;
using tcp = net::ip::tcp;

namespace {

// A short JSON error body, as every answer of the service has ({"error": ...}).
std::string ErrorBody(std::string_view message) {
  std::string out = "{\"error\":\"";
  for (char c : message) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20) out += c;
  }
  return out + "\"}";
}

constexpr std::chrono::seconds kStreamWriteTimeout{10};
constexpr std::chrono::seconds kDrainTime{1};

}  // namespace

namespace {
class Session;
}  // namespace

struct HttpServer::Impl {
  std::atomic<size_t>* open = nullptr;  // first: the sessions that go with `io` count on it
  net::io_context io;
  // On a strand: its completions (which accept again) and Stop's close never run at once
  // on two of the server's threads.
  tcp::acceptor acceptor{net::make_strand(io)};
  HttpLimits limits;
  HttpHandler handler;
  std::vector<std::thread> threads;
  bool stopped = false;
  // Every session, to close those still open at Stop (their handlers stay queued in `io`
  // until it goes, and a client would wait on them).
  std::mutex sessions_mu;
  std::vector<std::weak_ptr<Session>> sessions;

  void Accept();
};

namespace {

class Session : public std::enable_shared_from_this<Session> {
 public:
  Session(tcp::socket socket, HttpServer::Impl& server)
      : stream_(std::move(socket)), server_(server), timer_(stream_.get_executor()) {
    ++*server_.open;
  }
  ~Session() { --*server_.open; }

  void Read() {
    parser_.emplace();
    parser_->body_limit(server_.limits.max_body_bytes);
    parser_->header_limit(static_cast<uint32_t>(server_.limits.max_header_bytes));
    stream_.expires_after(server_.limits.read_timeout);  // waiting for a request included
    http::async_read(
        stream_, buffer_, *parser_,
        [self = shared_from_this()](beast::error_code ec, size_t) { self->OnRead(ec); });
  }

  // Answers 503 to a connection over the limit, then closes it.
  void Refuse() {
    HttpResponse r = HttpResponse::Of(503, "application/json",
                                      ErrorBody("too many connections: try again later"));
    Write(std::move(r), /*keep_alive=*/false);
  }

  void Close() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_both, ignored);
    stream_.close();
  }

 private:
  void OnRead(beast::error_code ec) {
    if (ec == http::error::body_limit)
      return Fail(413, "the request body is over " + std::to_string(server_.limits.max_body_bytes) +
                           " bytes");
    if (ec == http::error::header_limit) return Fail(431, "the request's header is too large");
    if (ec && ec.category() == http::make_error_code(http::error::bad_target).category() &&
        ec != http::error::end_of_stream && ec != http::error::partial_message)
      return Fail(400, "malformed HTTP request: " + ec.message());
    if (ec) return Close();  // the client left, or the read timed out
    const auto& req = parser_->get();
    if (static_cast<size_t>(std::distance(req.begin(), req.end())) >
        server_.limits.max_header_fields)
      return Fail(431, "the request has over " + std::to_string(server_.limits.max_header_fields) +
                           " header fields");
    HttpRequest r;
    r.method = std::string(req.method_string());
    r.target = std::string(req.target());
    for (const auto& field : req) {
      std::string name(field.name_string());
      for (char& c : name) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
      r.headers[name] = std::string(field.value());
    }
    r.body = req.body();
    HttpResponse response;
    try {
      response = server_.handler(r);
    } catch (const std::exception& e) {
      response = HttpResponse::Of(500, "application/json",
                                  ErrorBody(std::string("internal error: ") + e.what()));
    }
    Write(std::move(response), req.keep_alive());
  }

  // Answers `status` and closes: the rest of what the client sends is not read, but drained
  // for a moment so that it sees the answer rather than a reset.
  void Fail(int status, const std::string& message) {
    drain_after_write_ = true;
    Write(HttpResponse::Of(status, "application/json", ErrorBody(message)), false);
  }

  void Write(HttpResponse response, bool keep_alive) {
    auto res = std::make_shared<http::response<http::string_body>>(
        static_cast<http::status>(response.status), 11);
    res->set(http::field::server, "mrlocal");
    res->set(http::field::content_type, response.content_type);
    for (auto& [name, value] : response.headers) res->set(name, value);
    const bool streaming = static_cast<bool>(response.stream);
    if (streaming) {
      // No length: the events run until the connection closes.
      res->set(http::field::cache_control, "no-cache");
      keep_alive = false;
    }
    res->keep_alive(keep_alive);
    res->body() = std::move(response.body);
    if (!streaming) res->prepare_payload();
    stream_fn_ = std::move(response.stream);
    stream_every_ = response.stream_every;
    stream_.expires_after(kStreamWriteTimeout);
    auto self = shared_from_this();
    if (streaming) {
      auto sr = std::make_shared<http::response_serializer<http::string_body>>(*res);
      http::async_write_header(stream_, *sr, [self, res, sr](beast::error_code ec, size_t) {
        if (ec) return self->Close();
        self->WriteEvent(std::make_shared<std::string>(std::move(res->body())));
      });
      return;
    }
    http::async_write(stream_, *res, [self, res, keep_alive](beast::error_code ec, size_t) {
      if (ec) return self->Close();
      if (self->drain_after_write_) return self->Drain();
      if (keep_alive) return self->Read();
      self->Close();
    });
  }

  void WriteEvent(std::shared_ptr<std::string> text) {
    stream_.expires_after(kStreamWriteTimeout);
    net::async_write(stream_, net::buffer(*text),
                     [self = shared_from_this(), text](beast::error_code ec, size_t) {
                       if (ec) return self->Close();
                       self->timer_.expires_after(self->stream_every_);
                       self->timer_.async_wait([self](beast::error_code ec) {
                         if (ec) return self->Close();
                         std::optional<std::string> next = self->stream_fn_();
                         if (!next) return self->Close();
                         self->WriteEvent(std::make_shared<std::string>(std::move(*next)));
                       });
                     });
  }

  void Drain() {
    beast::error_code ignored;
    stream_.socket().shutdown(tcp::socket::shutdown_send, ignored);
    stream_.expires_after(kDrainTime);
    auto sink = std::make_shared<std::array<char, 64 << 10>>();
    stream_.async_read_some(net::buffer(*sink),
                            [self = shared_from_this(), sink](beast::error_code ec, size_t) {
                              if (ec) return self->Close();
                              self->Drain();
                            });
  }

  beast::tcp_stream stream_;
  HttpServer::Impl& server_;
  net::steady_timer timer_;
  beast::flat_buffer buffer_;
  std::optional<http::request_parser<http::string_body>> parser_;
  std::function<std::optional<std::string>()> stream_fn_;
  std::chrono::milliseconds stream_every_{500};
  bool drain_after_write_ = false;
};

}  // namespace

void HttpServer::Impl::Accept() {
  acceptor.async_accept(net::make_strand(io), [this](beast::error_code ec, tcp::socket socket) {
    if (ec) {
      if (acceptor.is_open()) Accept();  // e.g. out of descriptors for a moment
      return;
    }
    auto session = std::make_shared<Session>(std::move(socket), *this);
    {
      std::lock_guard lock(sessions_mu);
      if (sessions.size() > 2 * open->load() + 16)
        std::erase_if(sessions, [](const std::weak_ptr<Session>& s) { return s.expired(); });
      sessions.push_back(session);
    }
    if (open->load() > limits.max_connections)
      session->Refuse();
    else
      session->Read();
    Accept();
  });
}

Result<std::unique_ptr<HttpServer>> HttpServer::Listen(const std::string& host, uint16_t port,
                                                       HttpLimits limits, HttpHandler handler,
                                                       int threads) {
  std::unique_ptr<HttpServer> server(new HttpServer());
  server->impl_ = std::make_unique<Impl>();
  Impl& impl = *server->impl_;
  impl.limits = limits;
  impl.handler = std::move(handler);
  impl.open = &server->open_;
  beast::error_code ec;
  const net::ip::address address = net::ip::make_address(host, ec);
  if (ec) return Status::InvalidArgument("--listen: '" + host + "' is not an IP address");
  const tcp::endpoint endpoint(address, port);
  const std::string where = host + ":" + std::to_string(port);
  impl.acceptor.open(endpoint.protocol(), ec);
  if (!ec) impl.acceptor.set_option(net::socket_base::reuse_address(true), ec);
  if (!ec) impl.acceptor.bind(endpoint, ec);
  if (!ec) impl.acceptor.listen(net::socket_base::max_listen_connections, ec);
  if (ec) return Status::IoError("cannot listen on " + where + ": " + ec.message());
  server->port_ = impl.acceptor.local_endpoint().port();
  impl.Accept();
  for (int i = 0; i < std::max(1, threads); ++i)
    impl.threads.emplace_back([&impl] { impl.io.run(); });
  return server;
}

void HttpServer::Stop() {
  if (!impl_ || impl_->stopped) return;
  impl_->stopped = true;
  net::post(impl_->acceptor.get_executor(), [impl = impl_.get()] {
    beast::error_code ignored;
    impl->acceptor.close(ignored);
  });
  impl_->io.stop();
  for (std::thread& t : impl_->threads) t.join();
  impl_->threads.clear();
  // No thread runs the sessions any more: close what is still open from here.
  for (const std::weak_ptr<Session>& s : impl_->sessions)
    if (auto session = s.lock()) session->Close();
}

HttpServer::~HttpServer() {
  Stop();
  impl_.reset();  // the sessions go with the io_context's handlers, before open_
}

}  // namespace mrlocal
