// Input splits: one per block, with lines assigned exactly as Hadoop's LineRecordReader
// does. A line that starts at byte s belongs to the split [start, end) with
// start < s <= end (the first line of the file to the first split): a record that crosses a
// block boundary belongs to the split where it starts, none is lost or read twice, and a
// split inside one long line has no line at all.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "engine/block_store.h"
#include "engine/job_runtime.h"

namespace mrlocal {

struct SplitData {
  MapInput input;  // pieces: the block's complete lines (a view), then the straddling line
  std::vector<std::string> warnings;
  uint64_t bytes_read = 0;  // block bytes read, including the following blocks' heads
  // What keeps the pieces valid.
  std::vector<std::shared_ptr<const void>> keepalive;
  std::shared_ptr<std::string> tail;  // the straddling line, copied from following blocks
};

// Reads split `block` of `path` (its line-aligned records), preferring replicas on `node`.
Result<SplitData> ReadSplit(const BlockStore& store, const std::string& path, uint32_t block,
                            int node);

}  // namespace mrlocal
