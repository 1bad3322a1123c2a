#include "tests/util/server_process.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>

#include <regex>
#include <thread>

#include "tests/util/test_util.h"

namespace mrlocal::testing {

ServerProcess::ServerProcess(const std::vector<std::string>& args, const std::filesystem::path& log,
                             std::chrono::milliseconds timeout)
    : log_(log) {
  std::vector<std::string> argv_s = {MRLOCAL_BIN, "serve", "--listen", "127.0.0.1:0"};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  std::vector<std::string> env_s = ChildEnvironment();
  std::vector<char*> env;
  for (auto& e : env_s) env.push_back(e.data());
  env.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  const size_t log_start = std::filesystem::exists(log) ? std::filesystem::file_size(log) : 0;
  const auto start = std::chrono::steady_clock::now();
  const int rc = posix_spawn(&pid_, MRLOCAL_BIN, &actions, nullptr, argv.data(), env.data());
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0) {
    pid_ = -1;
    return;
  }
  // The log may hold earlier runs' lines: only what this run appends counts.
  const std::regex listening("listening on http://127\\.0\\.0\\.1:([0-9]+)");
  while (std::chrono::steady_clock::now() - start < timeout) {
    const std::string text = ReadFile(log_).substr(std::min(log_start, ReadFile(log_).size()));
    std::smatch m;
    if (std::regex_search(text, m, listening)) {
      port_ = std::stoi(m[1]);
      startup_ = std::chrono::duration_cast<std::chrono::milliseconds>(
          std::chrono::steady_clock::now() - start);
      return;
    }
    int status = 0;
    if (waitpid(pid_, &status, WNOHANG) == pid_) {  // it exited instead
      pid_ = -1;
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
  }
}

ServerProcess::~ServerProcess() { Kill(); }

int ServerProcess::Wait() {
  int status = 0;
  waitpid(pid_, &status, 0);
  pid_ = -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

int ServerProcess::Stop() {
  if (pid_ < 0) return -1;
  ::kill(pid_, SIGTERM);
  return Wait();
}

void ServerProcess::Kill() {
  if (pid_ < 0) return;
  ::kill(pid_, SIGKILL);
  Wait();
}

std::string ServerProcess::log() const { return ReadFile(log_); }

}  // namespace mrlocal::testing
