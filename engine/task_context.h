// What a running task sees of the slot it runs on.
#pragma once

namespace mrlocal {

class TaskContext {
 public:
  virtual ~TaskContext() = default;

  // Task code calls this between chunks of work (about every MiB of input, or every few
  // thousand keys in a reduce). It publishes progress in [0, 1], applies the slot's
  // throttle (a slot of speed s sleeps t*(1/s - 1) after a chunk that took t), and returns
  // false when the task must stop now (preempted or its job cancelled).
  virtual bool Checkpoint(double progress) = 0;
};

// Full speed, never stops: for unit tests and micro-benchmarks.
class UnthrottledContext final : public TaskContext {
 public:
  bool Checkpoint(double progress) override {
    last_progress = progress;
    ++checkpoints;
    return true;
  }
  double last_progress = 0;
  int checkpoints = 0;
};

}  // namespace mrlocal
