// Ranks as threads of one process: the suite's stand-in for `mpirun -np N` (deterministic
// in what it delivers, clean under both sanitizers). A group of N mailboxes; each rank's
// Transport sends into the others' and receives from its own. Kill(r) plays a rank that
// died: what is sent to it fails, and every rank waiting for a message is told.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <vector>

#include "sched/dist/transport.h"

namespace mrlocal {

class ThreadTransportGroup {
 public:
  explicit ThreadTransportGroup(int ranks);
  ~ThreadTransportGroup();
  ThreadTransportGroup(const ThreadTransportGroup&) = delete;
  ThreadTransportGroup& operator=(const ThreadTransportGroup&) = delete;

  int size() const { return static_cast<int>(ranks_.size()); }
  // Rank r's end; lives as long as the group. Each may be used from one thread at a time.
  Transport& Rank(int r);
  // Rank r dies: sends to it fail, its own receives fail, and receives on every other
  // rank fail naming it once their mailbox is empty.
  void Kill(int r);

 private:
  class End;
  struct Mailbox {
    std::deque<Transport::Message> messages;
    std::condition_variable arrived;  // one per rank: a send wakes only its receiver
  };
  friend class End;
  std::mutex mu_;
  std::vector<Mailbox> boxes_;  // by rank, guarded by mu_
  std::vector<bool> dead_;      // by rank, guarded by mu_
  std::vector<std::unique_ptr<End>> ranks_;
};

}  // namespace mrlocal
