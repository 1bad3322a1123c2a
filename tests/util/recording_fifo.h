// FIFO that keeps every finished attempt it is told of (Policy::OnTaskFinished), for tests
// that look at what the Controller reported.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "sched/policy/fifo_policy.h"

namespace mrlocal::testing {

class RecordingFifo final : public Policy {
 public:
  std::string_view name() const override { return "recording-fifo"; }
  Admission Admit(const JobState& job, const ClusterState& state, Time now) override {
    return fifo_.Admit(job, state, now);
  }
  std::optional<TaskRef> PickTask(const SlotInfo& slot, const ClusterState& state,
                                  Time now) override {
    return fifo_.PickTask(slot, state, now);
  }
  void OnTaskFinished(const TaskRecord& record, const ClusterState&, Time) override {
    records.push_back(record);
  }
  std::vector<TaskRecord> records;

 private:
  FifoPolicy fifo_;
};

}  // namespace mrlocal::testing
