// Ctrl-C for a run: while an Interrupt lives, SIGINT and SIGTERM do not kill the process
// but shut the watched Runtime down (Runtime::Shutdown: its unfinished jobs are aborted
// "interrupted (SIGINT)" and their output discarded), so that a front end can report
// the interrupted run and exit with 130. A signal that comes while no runtime is watched
// is kept for the next one. The one place of the process that handles these signals; one
// Interrupt at a time.
#pragma once

#include <csignal>
#include <mutex>
#include <thread>

#include "tools/runtime/runtime.h"

namespace mrlocal {

class Interrupt {
 public:
  Interrupt();   // installs the handlers
  ~Interrupt();  // the default handlers again
  Interrupt(const Interrupt&) = delete;
  Interrupt& operator=(const Interrupt&) = delete;

  // From now on a signal shuts `runtime` down (at once if one came already); null: none.
  // REQUIRES: a real runtime (Shutdown is called from the watcher thread), watched no
  // longer once it is destroyed.
  void Watch(Runtime* runtime);

  // The signal that came (SIGINT, SIGTERM); 0 if none.
  int signal() const;
  bool interrupted() const { return signal() != 0; }

 private:
  void WatchSignals();  // the watcher thread
  void ShutDownLocked();

  std::mutex mu_;
  Runtime* runtime_ = nullptr;  // guarded by mu_
  bool shut_down_ = false;      // runtime_ was told; guarded by mu_
  std::thread watcher_;
};

// For a long-running server, which stops in its own time (a grace period for its jobs)
// rather than at once: SIGINT and SIGTERM are blocked in the calling thread and in every
// thread it makes from then on, and Wait returns the first that comes. Construct it before
// any thread starts. Not with an Interrupt.
class StopSignals {
 public:
  StopSignals();   // blocks them
  ~StopSignals();  // unblocks them in the calling thread
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;
  int Wait();  // SIGINT or SIGTERM
  static const char* Name(int sig) { return sig == SIGINT ? "SIGINT" : "SIGTERM"; }

 private:
  sigset_t set_;
};

}  // namespace mrlocal
