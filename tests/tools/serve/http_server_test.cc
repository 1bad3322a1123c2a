// The HTTP front as a hostile or careless client meets it: answers come back whole over a
// kept-alive connection; an oversized body, an oversized or crowded header block and
// malformed HTTP get 413, 431 and 400 with a JSON error; a client that stops sending is cut
// off; connections over the limit get 503; a stream (Server-Sent Events) delivers its
// events in order and ends. No assertion depends on how fast anything runs.
#include "tools/serve/http_server.h"

#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "tools/serve/service_client.h"

namespace mrlocal {
namespace {

std::unique_ptr<HttpServer> Serve(HttpLimits limits, HttpHandler handler) {
  auto server = HttpServer::Listen("127.0.0.1", 0, limits, std::move(handler), 2);
  EXPECT_TRUE(server.ok()) << server.status().message();
  return std::move(server).value();
}

HttpResponse Echo(const HttpRequest& r) {
  return HttpResponse::Of(200, "text/plain",
                          r.method + " " + r.target + " " + r.Header("x-test") + " " + r.body);
}

// A raw connection, to send what no well-behaved client would.
class RawClient {
 public:
  explicit RawClient(uint16_t port) : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::connect(fd_, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    timeval tv{20, 0};  // a hang fails the test rather than the suite
    ::setsockopt(fd_, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
  }
  ~RawClient() { ::close(fd_); }
  void Send(std::string_view bytes) { (void)!::write(fd_, bytes.data(), bytes.size()); }
  // Everything until the server closes the connection.
  std::string ReadAll() {
    std::string out;
    char buf[4096];
    for (ssize_t n; (n = ::read(fd_, buf, sizeof buf)) > 0;) out.append(buf, n);
    return out;
  }

 private:
  int fd_;
};

ServiceClient ClientOf(const HttpServer& server) {
  return ServiceClient({"127.0.0.1", server.port()}, {});
}

TEST(HttpServer, AnswersRequestsOnAKeptAliveConnection) {
  auto server = Serve({}, Echo);
  ServiceClient client = ClientOf(*server);
  for (int i = 0; i < 3; ++i) {
    auto r = client.CallWith("POST", "/x?i=" + std::to_string(i), "body", {{"X-Test", "t"}});
    ASSERT_TRUE(r.ok()) << r.status().message();
    EXPECT_EQ(r->status, 200);
    EXPECT_EQ(r->body, "POST /x?i=" + std::to_string(i) + " t body");
  }
  EXPECT_EQ(server->open_connections(), 1u);
}

TEST(HttpServer, ABodyOverTheLimitIs413AndTheHandlerNeverSeesIt) {
  std::atomic<int> calls{0};
  auto server = Serve({}, [&calls](const HttpRequest& r) {
    ++calls;
    return Echo(r);
  });
  ServiceClient client = ClientOf(*server);
  auto r = client.Call("POST", "/x", std::string(100 << 20, 'a'));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->status, 413);
  EXPECT_NE(r->body.find("\"error\":\"the request body is over 1048576 bytes\""), std::string::npos)
      << r->body;
  EXPECT_EQ(calls.load(), 0);
  EXPECT_EQ(client.Call("GET", "/y")->status, 200) << "the client reconnects";
}

TEST(HttpServer, TooLargeOrTooManyHeadersAre431) {
  HttpLimits limits;
  limits.max_header_fields = 10;
  limits.max_header_bytes = 4096;
  auto server = Serve(limits, Echo);
  ServiceClient client = ClientOf(*server);
  std::vector<std::pair<std::string, std::string>> many;
  for (int i = 0; i < 20; ++i) many.emplace_back("X-H" + std::to_string(i), "v");
  auto crowded = client.CallWith("GET", "/", "", many);
  ASSERT_TRUE(crowded.ok()) << crowded.status().message();
  EXPECT_EQ(crowded->status, 431);
  auto large = client.CallWith("GET", "/", "", {{"X-Big", std::string(8192, 'v')}});
  ASSERT_TRUE(large.ok()) << large.status().message();
  EXPECT_EQ(large->status, 431);
}

TEST(HttpServer, MalformedHttpIs400WithAJsonError) {
  auto server = Serve({}, Echo);
  RawClient raw(server->port());
  raw.Send("GARBAGE\x01\x02 nonsense\r\n\r\n");
  const std::string answer = raw.ReadAll();
  EXPECT_EQ(answer.rfind("HTTP/1.1 400", 0), 0u) << answer;
  EXPECT_NE(answer.find("{\"error\":\"malformed HTTP request"), std::string::npos) << answer;
}

TEST(HttpServer, AClientThatStopsSendingIsCutOff) {
  HttpLimits limits;
  limits.read_timeout = std::chrono::milliseconds(200);
  auto server = Serve(limits, Echo);
  RawClient raw(server->port());
  raw.Send("GET / HTTP/1.1\r\nHost: x\r\n");  // and never the blank line
  EXPECT_EQ(raw.ReadAll(), "") << "closed without an answer";
}

TEST(HttpServer, ConnectionsOverTheLimitAre503) {
  HttpLimits limits;
  limits.max_connections = 2;
  auto server = Serve(limits, Echo);
  RawClient a(server->port()), b(server->port());
  while (server->open_connections() < 2) std::this_thread::yield();
  RawClient c(server->port());
  const std::string answer = c.ReadAll();
  EXPECT_EQ(answer.rfind("HTTP/1.1 503", 0), 0u) << answer;
  EXPECT_NE(answer.find("too many connections"), std::string::npos) << answer;
}

TEST(HttpServer, AStreamSendsItsEventsInOrderThenEnds) {
  auto server = Serve({}, [](const HttpRequest&) {
    auto n = std::make_shared<int>(0);
    HttpResponse r = HttpResponse::Of(200, "text/event-stream", "retry: 1000\n\n");
    r.stream_every = std::chrono::milliseconds(1);
    r.stream = [n]() -> std::optional<std::string> {
      if (++*n > 3) return std::nullopt;
      return "data: " + std::to_string(*n) + "\n\n";
    };
    return r;
  });
  RawClient raw(server->port());
  raw.Send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n");
  const std::string answer = raw.ReadAll();
  EXPECT_NE(answer.find("Content-Type: text/event-stream"), std::string::npos) << answer;
  EXPECT_NE(answer.find("retry: 1000\n\ndata: 1\n\ndata: 2\n\ndata: 3\n\n"), std::string::npos)
      << answer;
}

TEST(HttpServer, StopEndsOpenStreams) {
  std::atomic<int> pings{0};
  auto server = Serve({}, [&pings](const HttpRequest&) {
    HttpResponse r = HttpResponse::Of(200, "text/event-stream", "");
    r.stream_every = std::chrono::milliseconds(1);
    r.stream = [&pings]() -> std::optional<std::string> {
      ++pings;
      return std::string(": ping\n\n");
    };
    return r;
  });
  RawClient raw(server->port());
  raw.Send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n");
  while (pings.load() < 2) std::this_thread::yield();
  server->Stop();
  EXPECT_NE(raw.ReadAll().find(": ping"), std::string::npos) << "and then the end of the stream";
}

TEST(HttpServer, ABusyAddressIsAOneLineError) {
  auto server = Serve({}, Echo);
  auto again = HttpServer::Listen("127.0.0.1", server->port(), {}, Echo, 1);
  ASSERT_FALSE(again.ok());
  EXPECT_NE(again.status().message().find("cannot listen on 127.0.0.1:"), std::string::npos);
  EXPECT_FALSE(HttpServer::Listen("localhost:1", 0, {}, Echo, 1).ok());
}

}  // namespace
}  // namespace mrlocal
