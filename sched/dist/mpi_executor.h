// The Executor of a run over several ranks (issue 18), on rank 0: the Controller's calls
// become messages to the rank that owns the slot (sched/dist/executor_wire.h), and each
// rank's TaskReports come back and go to the report function exactly as slot threads'
// reports do on one machine. Rank 0's own slots are served by a SlotHost on a thread of
// this executor, through the same messages.
//
// Over MPI the Transport is MpiTransport; in the suite, ranks are threads
// (ThreadTransportGroup). Map outputs stay on the rank that made them; a reduce pulls its
// records from each rank (SlotHost). Reduce output is written here, on rank 0, and the job
// is committed here once every reduce has reported: no shared file system is needed.
//
// Failures: when the transport reports a dead rank, every attempt still running anywhere
// fails with "rank R died", and so does every later launch; nothing is committed. (MPI's
// own fault model ends the whole job when a process dies: see sched/dist/README.md.)
// Report times are in rank 0's clock: an attempt from another rank ends when its report
// arrives and started its own measured duration before.
#pragma once

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "sched/core/executor.h"
#include "sched/core/real_executor.h"
#include "sched/dist/slot_host.h"
#include "sched/dist/transport.h"

namespace mrlocal {

class MpiExecutor final : public Executor {
 public:
  // `slots`: the whole cluster's; rank_of_slot[id]: the rank that owns slot id.
  // `transport`: rank 0's end; `clock`: the loop's (safe from any thread).
  MpiExecutor(const Clock& clock, Transport& transport, const std::vector<SlotInfo>& slots,
              std::vector<int> rank_of_slot, SlotHostOptions options = {});
  // Stops rank 0's SlotHost (the other ranks serve on, for the next run of this process,
  // until ShutDownRanks).
  ~MpiExecutor() override;

  // Registers a job before the Controller submits it: `job` runs on rank 0 as it is, and
  // every other rank rebuilds it from `definition` (SlotHost::JobFactory).
  void AddJob(JobId id, RealJob job, std::string definition);

  void SetReportFn(ReportFn fn) override { report_ = std::move(fn); }
  void Launch(const TaskLaunch& launch) override;
  void Cancel(SlotId slot, uint64_t token) override;
  void SetPlan(JobId job, const ReducePlan& plan) override;
  Status FinishJob(JobId job, bool success) override;
  void SetSpeed(SlotId slot, double speed) override;
  double Progress(SlotId slot) const override;

 private:
  struct Attempt {
    TaskLaunch launch;
    int rank = 0;
  };
  struct JobEntry {
    std::shared_ptr<JobOutput> output;  // the real one; null: discarded
    uint32_t reduces = 0;
    std::vector<int32_t> rank_of_map;          // -1: not done yet
    std::map<int, std::vector<int32_t>> sent;  // what each rank was last told of it
  };
  // Rank 0's SlotHost thread: what it does not take itself.
  void OnMessage(int from, WireMessage message);
  void OnReport(int from, TaskReport report);
  void OnPart(int from, WirePart& part);
  void OnDead(const Status& why);
  Result<RealJob> TakeLocalJob(JobId id);
  Status Send(int to, const WireMessage& message);
  Status SendBytes(int to, std::string bytes);
  void Broadcast(const WireMessage& message);
  // Fails an attempt that cannot run or whose rank died.
  void FailAttempt(const TaskLaunch& launch, const Status& why);

  const Clock& clock_;
  Transport& transport_;
  const std::vector<int> rank_of_slot_;
  ReportFn report_;

  mutable std::mutex mu_;
  std::map<JobId, RealJob> pending_;     // guarded by mu_: AddJob -> rank 0's host
  std::map<JobId, JobEntry> jobs_;       // guarded by mu_
  std::map<uint64_t, Attempt> running_;  // guarded by mu_: by token
  std::vector<double> progress_;         // guarded by mu_: by slot
  Status dead_;                          // guarded by mu_: a rank died
  // Reduce output from other ranks: (rank, sink) -> its writer. Host thread only.
  std::map<std::pair<int, uint64_t>, std::unique_ptr<OutputSink>> parts_;

  std::unique_ptr<SlotHost> host_;  // rank 0's slots
  std::thread host_thread_;
};

// The rank that owns each slot: nodes go to ranks round-robin (node n on rank n % ranks),
// so that `--cluster 4x(...)` on 2 ranks puts nodes 0 and 2 on rank 0.
std::vector<int> RanksOfSlots(const std::vector<SlotInfo>& slots, int ranks);
// The slots `rank` owns.
std::vector<SlotInfo> SlotsOfRank(const std::vector<SlotInfo>& slots, int ranks, int rank);

// Tells every other rank that the process's runs are over (their SlotHost::Serve returns).
void ShutDownRanks(Transport& transport);

// ShutDownRanks when it goes out of scope, however rank 0's run ends. Null: nothing to do.
class ShutDownRanksAtExit {
 public:
  explicit ShutDownRanksAtExit(Transport* transport) : transport_(transport) {}
  ~ShutDownRanksAtExit() {
    if (transport_) ShutDownRanks(*transport_);
  }
  ShutDownRanksAtExit(const ShutDownRanksAtExit&) = delete;
  ShutDownRanksAtExit& operator=(const ShutDownRanksAtExit&) = delete;

 private:
  Transport* transport_;
};

}  // namespace mrlocal
