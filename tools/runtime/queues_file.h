// A queues file: the paying queues of dynprio and capacity for jobs run one at a time
// (`mrlocal wordcount --policy dynprio --queues FILE --queue NAME`), the list a workload
// spec's "queues" holds,
//   [{"name": "q1", "budget": 1000, "rate": 2}, {"name": "q2", "rate": 1}]
// (no budget: no limit). What a run's queues spend is taken off their budgets in the file
// as allocation intervals close, so that the next job starts from what is left: written
// crash-safely (a temporary file, then rename, synced), the file read again first (another
// run may have charged since). A file that cannot be parsed is an error, and left as it is.
#pragma once

#include <filesystem>
#include <functional>
#include <iosfwd>
#include <map>
#include <string>
#include <vector>

#include "engine/status.h"
#include "sched/core/controller.h"
#include "sched/core/queue_ledger.h"
#include "sched/core/queue_spec.h"

namespace mrlocal {

// The file's text for `queues`: one queue per line, budgets in credits exact to the
// micro-credit. The one writer of the format.
std::string QueueListJson(const std::vector<QueueSpec>& queues);

class QueuesFile {
 public:
  // NotFound when the file does not exist, IoError when it cannot be read, InvalidArgument
  // "F: [1].rate: must be ..." when it cannot be parsed (ParseQueueListJson).
  static Result<QueuesFile> Open(const std::filesystem::path& path);

  const std::filesystem::path& path() const { return path_; }
  // As read; what a run starts from.
  const std::vector<QueueSpec>& queues() const { return queues_; }
  bool Has(const std::string& name) const;

  // Takes what the ledger's accounts spent since the last Charge off their queues' budgets
  // in the file (never below 0; unlimited queues and queues no longer in the file are left
  // alone) and writes it atomically. Nothing is written when nothing was spent since.
  Status Charge(const QueueLedger& ledger);

 private:
  std::filesystem::path path_;
  std::vector<QueueSpec> queues_;
  std::map<std::string, MicroCredits> charged_;  // per queue, written back so far
};

// Charges a run's spending to a queues file as its policy closes allocation intervals
// (checked at each observer tick and job end, on the controller's thread, where the
// policy's ledger may be read). A failed write is said once on `err`; the run goes on.
class QueuesFileCharger final : public ControllerObserver {
 public:
  // `ledger`: the run's (Policy::Ledger), null while it has none.
  QueuesFileCharger(QueuesFile& file, std::function<const QueueLedger*()> ledger, std::ostream& err)
      : file_(file), ledger_(std::move(ledger)), err_(err) {}
  void OnTick(const ClusterState&, const Executor&, Time) override { ChargeClosedIntervals(); }
  void OnJobFinished(const JobState&, const JobOutcome&, Time) override {
    ChargeClosedIntervals();
  }
  // What is left to charge, after the run: the ledger's last interval.
  void Flush() { Charge(); }

 private:
  void ChargeClosedIntervals();
  void Charge();
  QueuesFile& file_;
  std::function<const QueueLedger*()> ledger_;
  std::ostream& err_;
  size_t intervals_ = 0;  // the ledger's, at the last charge
  bool warned_ = false;
};

}  // namespace mrlocal
