// One rank's slots in a distributed run (issue 18). Every rank, rank 0 too, runs a SlotHost:
// it takes the Executor calls rank 0's MpiExecutor sends for the slots this rank owns and
// runs them on a RealExecutor of those slots; it serves the map outputs it holds to reduce
// tasks on other ranks, chunk by chunk (WireFetch); its reduce tasks pull theirs the same
// way, and send their output to rank 0, where it is written (WirePart). Reports, sketches
// included, go to rank 0 as the slot threads finish.
//
// Memory stays bounded: a reduce has at most two chunks of one peer's records in flight,
// and at most `part_window` chunks of its output unacknowledged.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <vector>

#include "engine/memory_limit.h"
#include "engine/status.h"
#include "sched/core/clock.h"
#include "sched/core/real_executor.h"
#include "sched/dist/executor_wire.h"
#include "sched/dist/transport.h"

namespace mrlocal {

struct SlotHostOptions {
  bool pin = true;  // pin the slot threads to this process's CPUs
  // The longest a reduce waits for a peer's chunk or rank 0's acknowledgement.
  std::chrono::nanoseconds wait = std::chrono::seconds(120);
  uint32_t chunk_bytes = 4u << 20;  // records per fetch answer, about
  uint32_t part_window = 4;         // output chunks sent before waiting for an answer
  std::chrono::nanoseconds progress_every = std::chrono::milliseconds(100);
  // This process's memory limit (engine/memory_limit.h), in bytes; UINT64_MAX: none.
  uint64_t memory_limit = UINT64_MAX;
};

class SlotHost {
 public:
  // Rebuilds job `job` on this rank from the definition rank 0 sent (WireAddJob); its
  // output is ignored: reduce output goes to rank 0.
  using JobFactory = std::function<Result<RealJob>(JobId job, const std::string& definition)>;
  // The messages that are not this host's (reports, output parts: rank 0's MpiExecutor's),
  // on the thread that runs Serve; on rank 0, its own slots' reports too, on the slot
  // thread that made them.
  using Forward = std::function<void(int from, WireMessage message)>;

  // `slots`: this rank's. `clock`: what reports' times are in; safe from any thread.
  SlotHost(Transport& transport, const Clock& clock, const std::vector<SlotInfo>& slots,
           JobFactory factory, SlotHostOptions options = {}, Forward forward = {});
  ~SlotHost();
  SlotHost(const SlotHost&) = delete;
  SlotHost& operator=(const SlotHost&) = delete;

  // Serves until a WireShutdown (OK), or until the transport fails (its error: a rank died).
  Status Serve();

 private:
  class Fetch;
  class PartSink;
  class RemoteOutput;
  struct Inbox {
    std::deque<WireChunk> chunks;
    std::deque<WirePartAck> acks;
  };

  void Handle(int from, WireMessage message);
  void AddJob(const WireAddJob& add);
  void Launch(const TaskLaunch& launch);
  void ServeFetch(int from, const WireFetch& fetch);
  void SendProgress();
  void CancelRunning();
  template <class T>
  void Deliver(uint64_t key, std::deque<T> Inbox::*queue, T answer);
  void Fail(const Status& why);
  // Sends to `to`; a failure is remembered and fails every waiter.
  void Send(int to, const WireMessage& message);
  // The next chunk or acknowledgement for `key`, waiting at most options_.wait.
  Result<WireChunk> AwaitChunk(uint64_t key);
  Result<WirePartAck> AwaitAck(uint64_t key);
  template <class T>
  Result<T> Await(uint64_t key, std::deque<T> Inbox::*queue, const char* waiting_for);
  uint64_t OpenInbox();
  void CloseInbox(uint64_t key);

  Transport& transport_;
  const SlotHostOptions options_;
  JobFactory factory_;
  Forward forward_;
  std::map<JobId, Status> failed_jobs_;              // serve thread: factory errors
  std::map<JobId, std::vector<int32_t>> map_ranks_;  // serve thread

  std::mutex mu_;
  std::condition_variable arrived_;
  std::map<uint64_t, Inbox> inboxes_;   // guarded by mu_: open fetches and part sinks
  uint64_t next_inbox_ = 1;             // guarded by mu_
  std::map<SlotId, uint64_t> running_;  // guarded by mu_: slot -> token
  Status failed_;                       // guarded by mu_: the transport's failure
  const MemoryLimit memory_limit_;      // before executor_, which reads it
  // Last: its slot threads (which report through mu_ and the transport) stop first.
  RealExecutor executor_;
};

}  // namespace mrlocal
