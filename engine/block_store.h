// An in-process, HDFS-like block store. A file is cut into fixed-size blocks; each block
// has a CRC32C and replicas on distinct virtual nodes. Two modes behind one interface:
//
//   in-memory   (jobs on local files) the file is mapped, not copied; replicas are
//               placement metadata over the same bytes; checksums are computed at Put,
//               like an HDFS write, and verified on every read.
//   persistent  (--store DIR) replicas are real files DIR/node-K/blk_ID, the namespace is
//               DIR/namespace (rewritten atomically). A read verifies the replica's CRC
//               and falls back to another replica, reporting the bad one.
//
// Thread safety: reads (Stat, List, ReadBlock, Fsck) are safe from any thread; Put,
// PutBuffer and Remove must not run concurrently with anything else. One process per
// persistent store at a time.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "engine/status.h"

namespace mrlocal {

struct BlockStoreOptions {
  uint64_t block_size = 32ull << 20;
  int nodes = 1;        // virtual nodes
  int replication = 0;  // 0: min(3, nodes)
};

struct BlockInfo {
  uint64_t id = 0;
  uint64_t offset = 0;  // within the file
  uint64_t length = 0;
  uint32_t crc = 0;     // CRC32C of the block's bytes
  std::vector<int> replica_nodes;  // distinct
};

struct FileInfo {
  std::string path;
  uint64_t size = 0;
  uint64_t block_size = 0;
  int replication = 0;
  std::vector<BlockInfo> blocks;
};

// A verified block: the bytes, what keeps them valid, and what went wrong on the way.
struct BlockRead {
  std::string_view data;
  std::shared_ptr<const void> keepalive;
  int node = -1;                      // the replica that was read
  std::vector<std::string> warnings;  // replicas that failed their checksum or are missing
};

struct FsckReport {
  uint64_t files = 0, blocks = 0, replicas = 0, bad_replicas = 0, bad_blocks = 0;
  std::vector<std::string> problems;  // one line per corrupt or missing replica
  bool healthy() const { return problems.empty(); }
};

class BlockStore {
 public:
  static Result<std::unique_ptr<BlockStore>> InMemory(BlockStoreOptions options);
  // Opens the store in `dir`, creating it (with `options`' nodes and block size) when the
  // directory does not hold one yet.
  static Result<std::unique_ptr<BlockStore>> Open(const std::string& dir,
                                                  BlockStoreOptions options);
  ~BlockStore();

  // Stores the local file at `local` as `path`. Fails if `path` exists.
  Status Put(const std::string& local, const std::string& path);
  // Stores bytes held in memory (a generated corpus) as `path`. In-memory stores keep a
  // reference; persistent ones write replicas.
  Status PutBuffer(const std::string& path, std::shared_ptr<const std::string> bytes);

  Result<FileInfo> Stat(const std::string& path) const;
  std::vector<FileInfo> List() const;
  Status Remove(const std::string& path);

  // Reads block `index` of `path`, trying the replica on `preferred_node` first.
  Result<BlockRead> ReadBlock(const std::string& path, uint32_t index, int preferred_node) const;

  FsckReport Fsck() const;
  // Writes the file's bytes to `out`, block by block, verified.
  Status Cat(const std::string& path, std::string* out) const;

  bool persistent() const { return !dir_.empty(); }
  const BlockStoreOptions& options() const { return options_; }

  // Test hook: makes the replica of (path, block) on `node` fail its checksum on read.
  void TEST_CorruptReplica(const std::string& path, uint32_t block, int node);

 private:
  struct File {
    FileInfo info;
    std::shared_ptr<const void> owner;  // in-memory: what keeps `bytes` alive
    std::string_view bytes;
  };

  BlockStore(BlockStoreOptions options, std::string dir);
  int replication() const;
  std::vector<int> PlaceReplicas(const std::string& path, uint32_t block) const;
  Status AddFile(const std::string& path, std::string_view bytes, std::shared_ptr<const void> owner);
  std::string ReplicaPath(int node, uint64_t block_id) const;
  Status LoadNamespace();
  Status SaveNamespace() const;
  // Reads and verifies one replica; empty data plus a warning when it is bad.
  bool ReadReplica(const File& f, const BlockInfo& b, int node, BlockRead* out) const;

  BlockStoreOptions options_;
  std::string dir_;  // empty: in-memory
  uint64_t next_block_id_ = 1;
  std::map<std::string, File> files_;
  std::set<std::tuple<std::string, uint32_t, int>> test_corrupt_;
};

}  // namespace mrlocal
