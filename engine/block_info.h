// What the block store knows about a file: its blocks, their checksums and where their
// replicas live. Plain values, shared by the store, its namespace file and its readers.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace mrlocal {

struct BlockInfo {
  uint64_t id = 0;                 // unique within a store; names the replica files (blk_<id>)
  uint64_t offset = 0;             // within the file
  uint64_t length = 0;             // block_size, except for the file's last block
  uint32_t crc = 0;                // CRC32C of the block's bytes, computed when the file was put
  std::vector<int> replica_nodes;  // distinct virtual nodes, in placement order
};

struct FileInfo {
  std::string path;
  uint64_t size = 0;
  uint64_t block_size = 0;
  int replication = 0;
  std::vector<BlockInfo> blocks;  // contiguous from offset 0; none for an empty file
};

// How messages name a block: "PATH blk_7", by its id, as its replica files are named on
// disk (and as HDFS names blocks), never by its index in the file.
inline std::string BlockName(const std::string& path, uint64_t block_id) {
  return path + " blk_" + std::to_string(block_id);
}

}  // namespace mrlocal
