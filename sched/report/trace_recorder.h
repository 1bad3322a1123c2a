// Records what ran where, for a Chrome trace-event file (opens in Perfetto and
// chrome://tracing): one track per slot with one slice per task attempt, and a controller
// track with admissions, launch decisions and partition plans as instant events.
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "engine/status.h"
#include "sched/core/controller.h"

namespace mrlocal {

class TraceRecorder final : public ControllerObserver {
 public:
  explicit TraceRecorder(std::vector<SlotInfo> slots) : slots_(std::move(slots)) {}

  void OnAdmission(const JobState& job, const Admission& a, Time now) override;
  void OnDecision(SlotId slot, const std::optional<TaskRef>& pick, Time now,
                  Duration cost) override;
  void OnTaskReport(const TaskReport& r) override;
  void OnPlan(const JobState& job, const PartitionPlan& plan, Time now) override;
  void OnJobFinished(const JobState& job, const JobOutcome& outcome, Time now) override;

  // Writes the trace atomically (a temporary file, then rename).
  Status Write(const std::filesystem::path& file) const;

 private:
  struct Slice {
    TaskRef task;
    SlotId slot;
    Time start, end;
    bool ok;
    uint64_t input_bytes, output_bytes;
    std::string failure;
  };
  struct Instant {
    std::string name;
    Time at;
    std::string detail;
  };
  std::vector<SlotInfo> slots_;
  std::vector<Slice> slices_;
  std::vector<Instant> instants_;
};

}  // namespace mrlocal
