// The engine's type-erased view of a job's user code. Apps are typed templates (see
// engine/typed_job.h); everything above the per-record path sees only this interface.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/count_min_sketch.h"
#include "engine/line_stream.h"
#include "engine/partition_hash.h"
#include "engine/status.h"
#include "engine/task_context.h"

namespace mrlocal {

// One map task's input, in one of three shapes:
//   pieces  runs of complete records (lines), zero-copy: each piece ends right after a
//           '\n', except the last piece of a file that has no trailing newline;
//   stream  lines produced while the task reads them (a gzip file, decompressed on the
//           fly as Hadoop's codecs do);
//   neither jobs without input files (Pi) get only their task index.
// Pieces stay valid for the whole RunMap call (they point into mapped blocks or into a
// buffer the caller owns).
struct MapInput {
  uint32_t task_index = 0;
  std::vector<std::string_view> pieces;
  std::shared_ptr<LineStream> stream;
  std::string source;  // "PATH block N", for error messages
  // "PATH:LINE" of byte `offset` of pieces[piece], for bad-record messages. It may read
  // the file from its start to count lines: call it on the error path only. May be null.
  std::function<std::string(size_t piece, size_t offset)> locate;

  uint64_t bytes() const {
    if (stream) return stream->input_bytes();
    uint64_t n = 0;
    for (auto p : pieces) n += p.size();
    return n;
  }
};

// A map task's combined output (or several absorbed into one), held in memory until the
// reduce tasks have read it.
// The sketch counts the output's size per partition under every partition function.
class MapOutput {
 public:
  virtual ~MapOutput() = default;
  const CountMinSketch& sketch() const { return sketch_; }
  uint64_t records() const { return records_; }        // distinct keys after combining
  uint64_t size_units() const { return size_units_; }  // the sizes summed in the sketch
  uint64_t sketch_ns() const { return sketch_ns_; }    // time spent filling the sketch
  // Malformed records skipped (--skip-bad-records), and where the first one was.
  uint64_t skipped_records() const { return skipped_records_; }
  const std::string& first_skipped() const { return first_skipped_; }
  virtual uint64_t memory_bytes() const = 0;

 protected:
  CountMinSketch sketch_;
  uint64_t skipped_records_ = 0;
  std::string first_skipped_;
  uint64_t records_ = 0;
  uint64_t size_units_ = 0;
  uint64_t sketch_ns_ = 0;
};

// The partitioner's decision for a job: records go to partition route(hash), and
// partition i is processed by reduce task owner[i].
struct ReducePlan {
  PartitionHash route;
  std::vector<uint32_t> owner;
};

// Where a reduce task writes its formatted "key\tvalue\n" lines; null means discard.
class OutputSink {
 public:
  virtual ~OutputSink() = default;
  virtual Status Append(std::string_view bytes) = 0;
  // Flushes and closes; a sink destroyed without Close() leaves no complete output.
  virtual Status Close() { return Status::OK(); }
};

struct TopEntry {
  std::string key;
  std::string value;
  double score = 0;  // higher first; ties by key
};

// The order of a top-N list: higher score first, ties by key in ascending bytes (unsigned,
// as `LC_ALL=C sort` orders them). Each reduce task and the merge over all of them use it,
// so the job's list is exactly its N best keys.
inline bool RanksBefore(const TopEntry& a, const TopEntry& b) {
  return a.score != b.score ? a.score > b.score : a.key < b.key;
}

struct ReduceResult {
  uint64_t records_in = 0;  // map-output records read
  uint64_t keys_out = 0;    // lines written
  uint64_t bytes_out = 0;
  std::vector<TopEntry> top;  // this task's best `top_n` keys, best first
};

// Records that reach a reduce task from map outputs held by other processes (issue 18), as
// chunks of the bytes JobRuntime::EncodeEntries writes (engine/shuffle_records.h), one at
// a time, so that what is in memory at once stays bounded.
class ShuffleSource {
 public:
  virtual ~ShuffleSource() = default;
  // The next chunk; an empty one when there are no more. Fails when a peer did.
  virtual Result<std::string> Next() = 0;
  // Bytes of the chunks so far.
  virtual uint64_t bytes() const { return 0; }
};

struct JobRuntimeOptions {
  std::vector<PartitionHash> hashes;  // sketch rows; all share p = hashes[0].partitions
  int top_n = 10;
  // A malformed record (an app calls MapEmitter::BadRecord) is counted and skipped, as
  // Hadoop's skip mode does; otherwise it fails the task with "PATH:LINE: why".
  bool skip_bad_records = false;
};

class JobRuntime {
 public:
  virtual ~JobRuntime() = default;
  virtual std::string_view app() const = 0;

  // Runs the map and the combiner over `in`. Fails with Corruption/InvalidArgument for
  // malformed input (a bad record: "PATH:LINE: why") and Aborted when ctx.Checkpoint() returned
  // false.
  virtual Result<std::unique_ptr<MapOutput>> RunMap(const MapInput& in, TaskContext& ctx) const = 0;

  // Folds map output `from` into `into` (both from RunMap), as if one map task
  // had produced both: equal keys merged, so that what a process holds of a job's map
  // outputs grows with its distinct keys, not with its tasks. REQUIRES: no reduce task has
  // read `into` yet. Not thread-safe for one `into`. Fails (InvalidArgument) once `into`
  // holds more than 4 GiB of distinct key bytes.
  virtual Status Absorb(MapOutput& into, const MapOutput& from) const = 0;

  // Gathers the records of the partitions that `plan` gives to `reduce_index` from every
  // map output, groups and reduces them, and appends the output sorted by key to `sink`.
  // `remote`, when not null, adds the records other processes send (their map outputs'
  // EncodeEntries for this reduce task).
  virtual Result<ReduceResult> RunReduce(std::span<const MapOutput* const> maps,
                                         const ReducePlan& plan, uint32_t reduce_index,
                                         OutputSink* sink, TaskContext& ctx,
                                         ShuffleSource* remote = nullptr) const = 0;

  // The records of `out` that `plan` gives to reduce task `reduce`, as bytes for another
  // process: appends them to `bytes` from record `*cursor` on, until `bytes` holds at least
  // `max_bytes` or none are left, and advances `*cursor`. True when none are left.
  virtual bool EncodeEntries(const MapOutput& out, const ReducePlan& plan, uint32_t reduce,
                             uint64_t* cursor, size_t max_bytes, std::string* bytes) const = 0;
};

}  // namespace mrlocal
