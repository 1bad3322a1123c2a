// Byte messages between the ranks of one run (issue 18): rank 0 runs the Controller, every
// rank owns slots. The interface MPI point-to-point messaging gives (MPI_Isend/MPI_Irecv
// on MPI_ANY_SOURCE), so that the executor logic above it is tested with ranks as threads
// (ThreadTransport) and runs over MPI unchanged: messages between two ranks arrive in the
// order they were sent (MPI's non-overtaking rule); nothing is ordered across senders.
#pragma once

#include <chrono>
#include <optional>
#include <string>

#include "engine/status.h"

namespace mrlocal {

class Transport {
 public:
  struct Message {
    int from = 0;
    std::string bytes;
  };

  virtual ~Transport() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  // This rank's index among the ranks on its host: ranks that share a host pin their slot
  // threads from different CPUs on (SlotHost), not all from the first.
  virtual int local_rank() const { return 0; }
  // Queues `bytes` for rank `to` and returns without waiting for it to be received.
  // Thread-safe (slot threads send their reports); Receive is called by one thread.
  // InvalidArgument for a rank outside [0, size()); IoError naming the rank when it is
  // known to be gone.
  virtual Status Send(int to, std::string bytes) = 0;
  // The next message for this rank from any rank, waiting at most `timeout` (every wait is
  // bounded: a dead peer must not hang the run). None when nothing came in time; IoError
  // naming the rank when one this rank depends on died.
  virtual Result<std::optional<Message>> Receive(std::chrono::nanoseconds timeout) = 0;
};

}  // namespace mrlocal
