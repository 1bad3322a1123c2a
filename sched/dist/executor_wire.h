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
#include <utility>
#include <variant>
#include <vector>

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

// Executor::FinishJob: the job's map outputs may go (rank 0 commits or discards its output).
struct WireFinishJob {
  JobId job = 0;
  bool success = false;
};

// Executor::SetSpeed.
struct WireSpeed {
  SlotId slot = -1;
  double speed = 1.0;
  friend bool operator==(const WireSpeed&, const WireSpeed&) = default;
};

// A job to run tasks of (RealExecutor::AddJob on every rank): `definition` is what the
// front end needs to rebuild it there (tools/runtime's job definition).
struct WireAddJob {
  JobId job = 0;
  bool has_output = false;  // its reduces write output (to rank 0)
  std::string definition;
};

// Before a reduce task launches on a rank: which rank holds each map task's output.
struct WireMapRanks {
  JobId job = 0;
  std::vector<int32_t> rank_of_map;
};

// A reduce task asks a rank for the next chunk of its records: from maps[position], record
// `cursor` on, at most about `max_bytes`. Stateless on the serving side.
struct WireFetch {
  JobId job = 0;
  uint32_t reduce = 0;
  uint64_t token = 0;  // the reduce attempt's
  std::vector<uint32_t> maps;
  uint32_t position = 0;
  uint64_t cursor = 0;
  uint32_t max_bytes = 0;
};
// Its answer: the records, where the next chunk starts, whether that was the last.
struct WireChunk {
  uint64_t token = 0;
  Status status;
  uint32_t position = 0;
  uint64_t cursor = 0;
  bool done = false;
  std::string bytes;
};

// A reduce attempt's output, written on rank 0 (OutputSink::Append, Close, or dropped).
struct WirePart {
  enum class Step : uint8_t { kAppend, kClose, kDrop };
  JobId job = 0;
  uint32_t reduce = 0;
  uint64_t token = 0;
  Step step = Step::kAppend;
  std::string bytes;
};
// Rank 0's answer to each kAppend and kClose: what writing it did.
struct WirePartAck {
  uint64_t token = 0;
  Status status;
};

// The progress of a rank's running attempts (Executor::Progress), sent every so often.
struct WireProgress {
  std::vector<std::pair<SlotId, double>> slots;
};

// The run is over: a rank stops serving.
struct WireShutdown {};

using WireMessage = std::variant<TaskLaunch, WireCancel, WirePlan, WireFinishJob, WirePartAck,
                                 WireSpeed, TaskReport, WireAddJob, WireMapRanks, WireFetch,
                                 WireChunk, WirePart, WireProgress, WireShutdown>;

// The message's bytes; starts with the format's version and the message's kind.
std::string EncodeWire(const WireMessage& message);
// The message in `bytes`, or Corruption "executor message: <what>".
Result<WireMessage> DecodeWire(std::string_view bytes);

}  // namespace mrlocal
