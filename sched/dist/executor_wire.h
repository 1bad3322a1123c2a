// The Executor's calls and reports as bytes (issue 18: slots on other hosts, over MPI).
// Rank 0's Controller calls an executor whose slots live in other processes; each call
// becomes a message to the rank that owns the slot, and each TaskReport, sketch and top
// keys included, a message back. This is that message: one self-describing byte string,
// little-endian fixed-width fields, strings and lists length-prefixed.
//
// Decoding never trusts its input: a truncated, padded or garbage message, an unknown kind
// or version, a list longer than the bytes that remain, a sketch whose cells do not fill
// its rows, is Corruption with what was wrong, and allocates no more than the message's
// own size (a peer's bug must not take this process down).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <variant>

#include "engine/job_runtime.h"
#include "engine/status.h"
#include "sched/core/executor.h"
#include "sched/core/slot_info.h"

namespace mrlocal {

// Executor::Cancel.
struct WireCancel {
  SlotId slot = -1;
  uint64_t token = 0;
  friend bool operator==(const WireCancel&, const WireCancel&) = default;
};

// Executor::SetPlan.
struct WirePlan {
  JobId job = 0;
  ReducePlan plan;
};

// Executor::FinishJob, and its answer (`status`, from the rank that committed or discarded).
struct WireFinishJob {
  JobId job = 0;
  bool success = false;
};
struct WireJobFinished {
  JobId job = 0;
  Status status;
};

// Executor::SetSpeed.
struct WireSpeed {
  SlotId slot = -1;
  double speed = 1.0;
  friend bool operator==(const WireSpeed&, const WireSpeed&) = default;
};

using WireMessage = std::variant<TaskLaunch, WireCancel, WirePlan, WireFinishJob, WireJobFinished,
                                 WireSpeed, TaskReport>;

// The message's bytes; starts with the format's version and the message's kind.
std::string EncodeWire(const WireMessage& message);
// The message in `bytes`, or Corruption "executor message: <what>".
Result<WireMessage> DecodeWire(std::string_view bytes);

}  // namespace mrlocal
