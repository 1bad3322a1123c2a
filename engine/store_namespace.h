// The namespace of a persistent block store (like an HDFS NameNode's fsimage): the store's
// geometry and every file's blocks, CRCs and replica nodes, as a small line-oriented text
// file. Decoding validates everything, so a damaged file is a Corruption error, never a
// crash or a silently wrong read.
//
//   mrlocal-store 1
//   nodes 3
//   block_size 33554432
//   replication 0
//   next_block_id 12
//   file <path, %-escaped> <size> <block_size> <replication> <block count>
//   block <id> <offset> <length> <crc32c, hex> <node>,<node>,...
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/block_info.h"
#include "engine/status.h"

namespace mrlocal {

struct StoreNamespace {
  int nodes = 1;
  uint64_t block_size = 0;
  int replication = 0;  // the store's default; 0 means min(3, nodes)
  uint64_t next_block_id = 1;
  std::vector<FileInfo> files;
};

std::string EncodeNamespace(const StoreNamespace& ns);

// `source` names the file in error messages.
Result<StoreNamespace> DecodeNamespace(std::string_view text, const std::string& source);

}  // namespace mrlocal
