#include "tools/runtime/interrupt.h"

#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <stdexcept>

namespace mrlocal {
namespace {

// What the handler may touch (async-signal-safe): the signal, and a pipe that wakes the
// watcher thread. A byte of 0 stops the watcher.
std::atomic<int> g_signal{0};
int g_pipe[2] = {-1, -1};

extern "C" void OnSignal(int sig) {
  g_signal.store(sig);
  const int saved = errno;
  const char wake = 1;
  (void)!::write(g_pipe[1], &wake, 1);
  errno = saved;
}

}  // namespace

Interrupt::Interrupt() {
  if (::pipe2(g_pipe, O_CLOEXEC) != 0)
    throw std::runtime_error(std::string("interrupt: pipe: ") + std::strerror(errno));
  g_signal.store(0);
  watcher_ = std::thread([this] { WatchSignals(); });
  std::signal(SIGINT, OnSignal);
  std::signal(SIGTERM, OnSignal);
}

Interrupt::~Interrupt() {
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  const char stop = 0;
  (void)!::write(g_pipe[1], &stop, 1);
  watcher_.join();
  ::close(g_pipe[0]);
  ::close(g_pipe[1]);
}

void Interrupt::WatchSignals() {
  for (;;) {
    char byte = 0;
    const ssize_t n = ::read(g_pipe[0], &byte, 1);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0 || byte == 0) return;
    std::lock_guard<std::mutex> lock(mu_);
    ShutDownLocked();
  }
}

void Interrupt::Watch(Runtime* runtime) {
  std::lock_guard<std::mutex> lock(mu_);
  runtime_ = runtime;
  shut_down_ = false;
  if (signal() != 0) ShutDownLocked();
}

void Interrupt::ShutDownLocked() {
  if (!runtime_ || shut_down_) return;
  shut_down_ = true;
  // The signal's name, as the user sent it (Ctrl-C is SIGINT): strsignal says "Interrupt".
  const char* name = g_signal.load() == SIGINT ? "SIGINT" : "SIGTERM";
  runtime_->Shutdown(Status::Aborted(std::string("interrupted (") + name + ")"));
}

int Interrupt::signal() const { return g_signal.load(); }

StopSignals::StopSignals() {
  sigemptyset(&set_);
  sigaddset(&set_, SIGINT);
  sigaddset(&set_, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &set_, nullptr);
}

StopSignals::~StopSignals() { pthread_sigmask(SIG_UNBLOCK, &set_, nullptr); }

int StopSignals::Wait() {
  int sig = 0;
  while (sigwait(&set_, &sig) != 0) {
  }
  return sig;
}

}  // namespace mrlocal
