// A `mrlocal serve` the test starts as a child process: its port, read from the line it
// prints when it listens, and the two ways it ends (SIGTERM, and kill -9 for crash tests).
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

namespace mrlocal::testing {

class ServerProcess {
 public:
  // Starts `mrlocal serve --listen 127.0.0.1:0 ARGS...`, its stderr going to `log`, and
  // waits (up to `timeout`) for it to listen. started() false when it did not.
  ServerProcess(const std::vector<std::string>& args, const std::filesystem::path& log,
                std::chrono::milliseconds timeout = std::chrono::seconds(60));
  ~ServerProcess();  // Kill() if still running
  ServerProcess(const ServerProcess&) = delete;
  ServerProcess& operator=(const ServerProcess&) = delete;

  bool started() const { return port_ != 0; }
  int port() const { return port_; }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_); }
  // From the exec to the "listening" line.
  std::chrono::milliseconds startup() const { return startup_; }
  // SIGTERM, then waits for the exit; its exit code (128 + signal when killed).
  int Stop();
  void Kill();  // SIGKILL, and reaps it
  std::string log() const;

 private:
  int Wait();
  pid_t pid_ = -1;
  int port_ = 0;
  std::chrono::milliseconds startup_{0};
  std::filesystem::path log_;
};

}  // namespace mrlocal::testing
