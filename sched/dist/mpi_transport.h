// Transport over MPI point-to-point messages (issue 18): MPI_Isend of raw bytes, one tag,
// and MPI_Iprobe/MPI_Recv on MPI_ANY_SOURCE. Concurrent jobs, preemption and reduces that
// fetch whenever they start mean ranks never enter collectives in a common order, so no
// collective is used. MPI's non-overtaking rule gives the per-sender order Transport
// promises.
//
// Threads: MPI is initialised at MPI_THREAD_SERIALIZED and every MPI call is made under one
// mutex, so slot threads may Send while the serving thread polls. Receive polls with a short
// back-off (a blocking MPI_Recv would hold the mutex), so every wait stays bounded. What a
// rank sends itself (rank 0 launching on its own slots) never enters MPI: it is queued
// here, and the back-off waits on a condition variable that such a send wakes at once. Any
// send restarts the quick polls: its answer usually follows within microseconds.
//
// Faults: MPI_ERRORS_RETURN is set, so a failed call is an IoError, not an abort. Under
// Open MPI without ULFM a rank that dies makes mpirun end every rank (it names the dead one
// on stderr); rank 0 then aborts its jobs as on Ctrl-C, and nothing is committed.
#pragma once

#include <condition_variable>
#include <deque>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "engine/status.h"
#include "sched/dist/transport.h"

namespace mrlocal {

class MpiTransport final : public Transport {
 public:
  // True when this process was started by an MPI launcher (mpirun, mpiexec, or srun with
  // PMI/PMIx): what decides whether MPI is initialised at all, so that a plain run never
  // touches MPI.
  static bool Launched();
  // This process's rank as the launcher's environment gives it, before MPI is initialised
  // (OMPI_COMM_WORLD_RANK, PMI_RANK, PMIX_RANK); -1 when not launched or not said.
  static int LaunchedRank();
  // Initialises MPI (once per process) and joins MPI_COMM_WORLD. An error when the
  // library cannot give MPI_THREAD_SERIALIZED.
  static Result<std::unique_ptr<MpiTransport>> Init();
  // What a command that runs jobs calls first: Init() when Launched(), else null (one
  // process). InvalidArgument when Slurm's srun started several tasks without MPI
  // (`srun -n 2` where MpiDefault is none): each would run the whole job on its own.
  static Result<std::unique_ptr<MpiTransport>> JoinIfLaunched();
  // Completes what is still being sent (waiting at most a few seconds), then MPI_Finalize.
  ~MpiTransport() override;
  MpiTransport(const MpiTransport&) = delete;
  MpiTransport& operator=(const MpiTransport&) = delete;

  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_rank() const override { return local_rank_; }
  Status Send(int to, std::string bytes) override;
  Result<std::optional<Message>> Receive(std::chrono::nanoseconds timeout) override;

  // The host this rank runs on (MPI_Get_processor_name), for messages.
  const std::string& host() const { return host_; }
  // `status` said by this rank: "rank R (host): ...".
  Status Said(const Status& status) const {
    return Status::Of(status.code(),
                      "rank " + std::to_string(rank_) + " (" + host_ + "): " + status.message());
  }

 private:
  struct Pending;
  MpiTransport(int rank, int size, int local_rank, std::string host);
  // Frees the sends that completed. REQUIRES: mu_ held.
  Status Reap();
  // One MPI_Iprobe, and the message when there is one. REQUIRES: mu_ held.
  Result<std::optional<Message>> Probe();

  const int rank_;
  const int size_;
  const int local_rank_;
  const std::string host_;
  std::mutex mu_;
  std::vector<std::unique_ptr<Pending>> pending_;  // guarded by mu_
  std::deque<std::string> to_self_;                // guarded by mu_
  uint64_t sends_ = 0;                             // guarded by mu_: MPI_Isends made
  std::condition_variable sent_;                   // a Send ends Receive's pause
};

}  // namespace mrlocal
