// An in-process, HDFS-like block store. A file is cut into fixed-size blocks; each block
// has a CRC32C and replicas on distinct virtual nodes. Two modes behind one class:
//
//   in-memory   (jobs on local files) the file is mapped, not copied: replicas are
//               placement metadata over the same mapped bytes, so a 1 GB input costs page
//               cache, not 3 GB of heap. Checksums are computed at Put, like an HDFS
//               write, and verified on every read.
//   persistent  (--store DIR) replicas are real files DIR/node-K/blk_<id>, written under a
//               temporary name and renamed; the namespace (engine/store_namespace.h) is
//               DIR/namespace, rewritten atomically. A store keeps the node count, default
//               block size and replication it was created with.
//
// A read verifies the CRC of the replica it reads and falls back to the other replicas,
// reporting the bad ones. Verified bytes are handed out zero-copy (the shared mapping, or
// a mapping of the replica file).
//
// Thread safety: every method may be called from any thread at any time. Bytes handed
// out stay valid while their BlockRead::keepalive lives, even if the file is removed.
// One process at a time per persistent store (there is no lock file).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <map>
#include <memory>
#include <set>
#include <shared_mutex>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "engine/block_info.h"
#include "engine/status.h"

namespace mrlocal {

struct BlockStoreOptions {
  uint64_t block_size = 32ull << 20;  // default for files put without their own
  int nodes = 1;                      // virtual nodes
  int replication = 0;                // 0: min(3, nodes); must not exceed nodes
};

// Per-file overrides, as `hdfs dfs -D dfs.blocksize=... -D dfs.replication=... -put`.
struct PutOptions {
  uint64_t block_size = 0;  // 0: the store's
  int replication = 0;      // 0: the store's
};

// A verified block: the bytes, what keeps them valid, and what went wrong on the way.
struct BlockRead {
  std::string_view data;
  std::shared_ptr<const void> keepalive;
  uint64_t offset = 0;                // of the block within its file
  uint64_t block_id = 0;              // BlockInfo::id: messages name the block by it
  int node = -1;                      // the replica that was read
  std::vector<std::string> warnings;  // replicas that failed their checksum or are missing
};

// One replica that cannot be read correctly.
struct ReplicaProblem {
  std::string path;
  uint32_t block = 0;     // index in the file
  uint64_t block_id = 0;  // BlockInfo::id, as its replica files are named (blk_<id>)
  int node = 0;
  std::string what;  // "failed its checksum", "is missing", "has 10 bytes, not 12"
  // "PATH blk_7: replica on node 1 failed its checksum": named as on disk (and as HDFS's
  // fsck names blocks), one numbering for fsck, jobs and the replica files.
  std::string ToString() const;
};

struct FsckReport {
  uint64_t files = 0, blocks = 0, replicas = 0, bytes = 0;
  uint64_t healthy_replicas = 0;
  uint64_t degraded_blocks = 0;          // with at least one bad replica (HDFS: under-replicated)
  uint64_t corrupt_blocks = 0;           // with no good replica at all: data is lost
  std::vector<ReplicaProblem> problems;  // every corrupt or missing replica
  bool healthy() const { return problems.empty(); }
};

class BlockStore {
 public:
  enum class OpenMode { kCreateIfMissing, kMustExist };

  static Result<std::unique_ptr<BlockStore>> InMemory(BlockStoreOptions options);
  // Opens the store in `dir`. When `dir` holds none yet, kCreateIfMissing creates one with
  // `options` (the directory must be absent or empty) and kMustExist fails with NotFound.
  // An existing store keeps its own options; `options` are then ignored.
  static Result<std::unique_ptr<BlockStore>> Open(const std::string& dir, BlockStoreOptions options,
                                                  OpenMode mode = OpenMode::kCreateIfMissing);
  ~BlockStore();
  BlockStore(const BlockStore&) = delete;
  BlockStore& operator=(const BlockStore&) = delete;

  // Stores the local file `local` as `path`; fails if `path` exists. In-memory stores map
  // the file (REQUIRES: nobody truncates it while the store uses it); persistent ones copy
  // it into replica files.
  Status Put(const std::string& local, const std::string& path, PutOptions put = {});
  // Stores bytes held in memory (a generated corpus) as `path`. In-memory stores keep the
  // reference; persistent ones write replicas.
  Status PutBuffer(const std::string& path, std::shared_ptr<const std::string> bytes,
                   PutOptions put = {});

  Result<FileInfo> Stat(const std::string& path) const;
  Result<uint32_t> BlockCount(const std::string& path) const;  // cheaper than Stat
  std::vector<FileInfo> List() const;                          // sorted by path
  Status Remove(const std::string& path);

  // Reads block `index` of `path`, trying the replica on `preferred_node` first (-1: no
  // preference). Corruption when no replica passes its checksum.
  Result<BlockRead> ReadBlock(const std::string& path, uint32_t index, int preferred_node) const;

  // Reads and verifies every replica of every file.
  FsckReport Fsck() const;
  // Writes the file's bytes to `out`, block by block, verified (with replica fallback).
  Status Cat(const std::string& path, std::ostream& out) const;

  bool persistent() const { return !dir_.empty(); }
  const std::string& dir() const { return dir_; }
  // For a persistent store, the options it was created with.
  const BlockStoreOptions& options() const { return options_; }
  int default_replication() const;

  // Fault injection (--inject replica-corrupt, replica-lost) and tests: from now on the
  // replica of (path, block) on `node` fails its checksum on read, or is missing. Nothing
  // on disk changes (and in-memory replicas share their bytes, so they cannot be damaged
  // one by one).
  enum class ReplicaFaultKind { kCorrupt, kLost };
  void InjectReplicaFault(const std::string& path, uint32_t block, int node,
                          ReplicaFaultKind kind = ReplicaFaultKind::kCorrupt);
  // The replica file of (path, block) on `node` in a persistent store.
  Result<std::string> TEST_ReplicaFile(const std::string& path, uint32_t block, int node) const;

 private:
  struct File {
    FileInfo info;
    std::shared_ptr<const void> owner;  // in-memory: what keeps `bytes` alive
    std::string_view bytes;             // in-memory: the whole file
  };

  BlockStore(BlockStoreOptions options, std::string dir);
  Status AddFile(const std::string& path, std::string_view bytes, std::shared_ptr<const void> owner,
                 PutOptions put);
  std::vector<int> PlaceReplicas(const std::string& path, uint32_t block, int replication) const;
  std::string ReplicaPath(int node, uint64_t block_id) const;
  // Reads one replica; false (and a problem) when it is missing or fails its checksum.
  bool ReadReplica(const File& f, uint32_t index, int node, BlockRead* out,
                   ReplicaProblem* problem) const;
  static std::string InjectedProblem(ReplicaFaultKind kind);
  Status LoadNamespace();
  // Removes the temporaries that killed writers of this store left (engine/atomic_file.h).
  void RemoveStaleTemporaries() const;
  Status SaveNamespaceLocked() const;  // REQUIRES: mu_ held exclusively

  BlockStoreOptions options_;
  const std::string dir_;  // empty: in-memory

  mutable std::shared_mutex mu_;
  uint64_t next_block_id_ = 1;                                                   // GUARDED_BY(mu_)
  std::map<std::string, std::shared_ptr<const File>> files_;                     // GUARDED_BY(mu_)
  std::map<std::tuple<std::string, uint32_t, int>, ReplicaFaultKind> injected_;  // GUARDED_BY(mu_)
};

}  // namespace mrlocal
