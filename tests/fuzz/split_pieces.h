// For the fuzzers that read a stored file as map tasks do: every piece of every split, in
// order, each split checked to read cleanly (an in-memory store has no bad replica).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "check.h"
#include "engine/block_store.h"
#include "engine/split_reader.h"

namespace mrlocal::fuzz {

// Calls fn(piece) for each piece of splits 0, 1, ... of `path`.
template <typename Fn>
void ForEachSplitPiece(const BlockStore& store, const std::string& path, Fn&& fn) {
  Result<uint32_t> blocks = store.BlockCount(path);
  Check(blocks.ok());
  for (uint32_t b = 0; b < *blocks; ++b) {
    Result<SplitData> split = ReadSplit(store, path, b, /*preferred_node=*/-1);
    Check(split.ok() && split->warnings.empty());
    for (std::string_view piece : split->input.pieces) fn(piece);
  }
}

}  // namespace mrlocal::fuzz
