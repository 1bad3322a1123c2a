// Input splits: one per block (Hadoop with split size = block size), with lines assigned
// exactly as Hadoop's LineRecordReader does. A line that starts at byte s belongs to the
// split [start, end) with start < s <= end, and the line at s = 0 to the first split. So a
// record that crosses block boundaries belongs to the split where it starts, none is lost
// or read twice, and a split inside one long line has no line at all. An empty file has
// no blocks and hence no splits.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/block_store.h"
#include "engine/job_runtime.h"

namespace mrlocal {

// One map task's input, and what keeps it valid. Movable; the pieces stay valid across
// moves because they point into mappings and a heap buffer that SplitData co-owns.
struct SplitData {
  // pieces[0]: the block's complete lines, a zero-copy view into the verified block;
  // pieces[1] (if any): the line that starts in this block and runs into the following
  // ones, copied. Either may be absent.
  MapInput input;
  std::vector<std::string> warnings;  // replicas that failed their checksum on the way
  uint64_t bytes_read = 0;            // this block plus the heads read from later blocks
  std::vector<std::shared_ptr<const void>> keepalive;
  std::shared_ptr<const std::string> tail;  // owns pieces[1]
};

// The longest line a split reads across block boundaries: a line that runs on past it
// fails the map with InvalidArgument, naming where it starts. Such a line is copied whole
// (and its key again by the map), so this bounds a map's memory at about five times it
// (a 300 MB line took 1.5 GB); lines within one block are read in place.
inline constexpr uint64_t kMaxLineBytes = 256ull << 20;

// Reads split `block` of `path`, preferring the replicas on `preferred_node` (-1: none).
// Every block read (this one and the following ones the last line runs into) is
// checksum-verified with replica fallback. Thread-safe (see BlockStore). The split's
// `input.locate` names "PATH:LINE" for bad-record messages; it reads through `store`, so
// it is valid while the store is.
Result<SplitData> ReadSplit(const BlockStore& store, const std::string& path, uint32_t block,
                            int preferred_node, uint64_t max_line = kMaxLineBytes);

// The 1-based number of the line that holds byte `offset` of `path`: one more than the
// '\n' bytes before it. Reads (and verifies) the blocks up to `offset`.
Result<uint64_t> LineNumberAt(const BlockStore& store, const std::string& path, uint64_t offset);

}  // namespace mrlocal
