#include "engine/block_store.h"

#include <fcntl.h>
#include <unistd.h>
#include <xxhash.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <limits>
#include <mutex>
#include <ostream>

#include "engine/atomic_file.h"
#include "engine/crc32c.h"
#include "engine/mapped_file.h"
#include "engine/store_namespace.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

Status NoSuchFile(const std::string& path) {
  return Status::NotFound("'" + path + "': no such file in the store");
}

Status ValidateOptions(const BlockStoreOptions& o) {
  if (o.block_size == 0) return Status::InvalidArgument("block size must be positive");
  if (o.nodes < 1) return Status::InvalidArgument("a block store needs at least one node");
  if (o.replication < 0 || o.replication > o.nodes)
    return Status::InvalidArgument("replication " + std::to_string(o.replication) +
                                   " must be between 1 and the " + std::to_string(o.nodes) +
                                   " nodes");
  return Status::OK();
}

}  // namespace

std::string ReplicaProblem::ToString() const {
  return BlockName(path, block_id) + ": replica on node " + std::to_string(node) + " " + what;
}

BlockStore::BlockStore(BlockStoreOptions options, std::string dir)
    : options_(options), dir_(std::move(dir)) {}
BlockStore::~BlockStore() = default;

Result<std::unique_ptr<BlockStore>> BlockStore::InMemory(BlockStoreOptions options) {
  MRLOCAL_RETURN_IF_ERROR(ValidateOptions(options));
  return std::unique_ptr<BlockStore>(new BlockStore(options, ""));
}

Result<std::unique_ptr<BlockStore>> BlockStore::Open(const std::string& dir,
                                                     BlockStoreOptions options, OpenMode mode) {
  if (dir.empty()) return Status::InvalidArgument("the store directory cannot be empty");
  std::unique_ptr<BlockStore> store(new BlockStore(options, dir));
  std::error_code ec;
  const bool exists = fs::exists(dir, ec);
  if (exists && !fs::is_directory(dir, ec))
    return Status::InvalidArgument("store '" + dir + "' is not a directory");
  if (exists && fs::exists(fs::path(dir) / "namespace", ec)) {
    MRLOCAL_RETURN_IF_ERROR(store->LoadNamespace());
    store->RemoveStaleTemporaries();
    return store;
  }
  if (mode == OpenMode::kMustExist) return Status::NotFound("no mrlocal store in '" + dir + "'");
  MRLOCAL_RETURN_IF_ERROR(ValidateOptions(options));
  if (exists && !fs::is_empty(dir, ec))
    return Status::InvalidArgument("store '" + dir +
                                   "' is a non-empty directory that holds no mrlocal store");
  for (int n = 0; n < options.nodes; ++n) {
    fs::create_directories(fs::path(dir) / ("node-" + std::to_string(n)), ec);
    if (ec) return Status::IoError("cannot create store '" + dir + "': " + ec.message());
  }
  std::unique_lock lock(store->mu_);
  MRLOCAL_RETURN_IF_ERROR(store->SaveNamespaceLocked());
  lock.unlock();
  return store;
}

int BlockStore::default_replication() const {
  return options_.replication > 0 ? options_.replication : std::min(3, options_.nodes);
}

std::vector<int> BlockStore::PlaceReplicas(const std::string& path, uint32_t block,
                                           int replication) const {
  // Like HDFS spreading blocks over datanodes: consecutive nodes from an offset derived
  // from the path, so files start on different nodes and blocks rotate over all of them.
  const uint64_t base = XXH64(path.data(), path.size(), 0) % options_.nodes + block;
  std::vector<int> nodes;
  for (int k = 0; k < replication; ++k)
    nodes.push_back(static_cast<int>((base + static_cast<uint64_t>(k)) % options_.nodes));
  return nodes;
}

std::string BlockStore::ReplicaPath(int node, uint64_t block_id) const {
  return dir_ + "/node-" + std::to_string(node) + "/blk_" + std::to_string(block_id);
}

Status BlockStore::AddFile(const std::string& path, std::string_view bytes,
                           std::shared_ptr<const void> owner, PutOptions put) {
  if (path.empty()) return Status::InvalidArgument("a store path cannot be empty");
  const uint64_t block_size = put.block_size ? put.block_size : options_.block_size;
  const int replication = put.replication ? put.replication : default_replication();
  if (put.replication < 0 || replication > options_.nodes)
    return Status::InvalidArgument("replication " + std::to_string(replication) +
                                   " must be between 1 and the store's " +
                                   std::to_string(options_.nodes) + " nodes");
  const uint64_t nblocks = (bytes.size() + block_size - 1) / block_size;
  if (nblocks > std::numeric_limits<uint32_t>::max())
    return Status::InvalidArgument("'" + path + "' would have " + std::to_string(nblocks) +
                                   " blocks; use a larger block size");

  uint64_t first_id = 0;
  {
    std::unique_lock lock(mu_);
    if (files_.count(path))
      return Status::InvalidArgument("'" + path + "' already exists in the store");
    first_id = next_block_id_;
    next_block_id_ += nblocks;  // reserved even if the put fails: ids are never reused
  }

  // Checksums (and replica files) outside the lock: readers of other files go on.
  auto file = std::make_shared<File>();
  file->info.path = path;
  file->info.size = bytes.size();
  file->info.block_size = block_size;
  file->info.replication = replication;
  std::vector<std::string> written;
  auto undo = [&written] {
    for (auto& w : written) ::unlink(w.c_str());
  };
  for (uint32_t index = 0; index < nblocks; ++index) {
    BlockInfo b;
    b.id = first_id + index;
    b.offset = index * block_size;
    b.length = std::min<uint64_t>(block_size, bytes.size() - b.offset);
    std::string_view data = bytes.substr(b.offset, b.length);
    b.crc = Crc32c(data);
    b.replica_nodes = PlaceReplicas(path, index, replication);
    if (persistent()) {
      for (int node : b.replica_nodes) {
        std::string replica = ReplicaPath(node, b.id);
        std::error_code ec;
        fs::create_directories(fs::path(replica).parent_path(), ec);  // a node dir lost?
        Status st = WriteFileAtomically(replica, data, /*sync=*/false);
        if (!st.ok()) {
          undo();
          return st;
        }
        written.push_back(replica);
      }
    }
    file->info.blocks.push_back(std::move(b));
  }
  if (!persistent()) {
    file->owner = std::move(owner);
    file->bytes = bytes;
  }

  std::unique_lock lock(mu_);
  if (!files_.emplace(path, file).second) {  // another thread put the same path meanwhile
    undo();
    return Status::InvalidArgument("'" + path + "' already exists in the store");
  }
  if (persistent()) {
    Status st = SaveNamespaceLocked();
    if (!st.ok()) {
      files_.erase(path);
      undo();
      return st;
    }
  }
  return Status::OK();
}

Status BlockStore::Put(const std::string& local, const std::string& path, PutOptions put) {
  auto file = MappedFile::Open(local);
  if (!file.ok()) return file.status();
  std::string_view bytes = (*file)->data();
  return AddFile(path, bytes, std::move(file).value(), put);
}

Status BlockStore::PutBuffer(const std::string& path, std::shared_ptr<const std::string> bytes,
                             PutOptions put) {
  if (!bytes) return Status::InvalidArgument("no bytes given for '" + path + "'");
  std::string_view view = *bytes;
  return AddFile(path, view, std::move(bytes), put);
}

Result<FileInfo> BlockStore::Stat(const std::string& path) const {
  std::shared_lock lock(mu_);
  auto it = files_.find(path);
  if (it == files_.end()) return NoSuchFile(path);
  return it->second->info;
}

Result<uint32_t> BlockStore::BlockCount(const std::string& path) const {
  std::shared_lock lock(mu_);
  auto it = files_.find(path);
  if (it == files_.end()) return NoSuchFile(path);
  return static_cast<uint32_t>(it->second->info.blocks.size());
}

std::vector<FileInfo> BlockStore::List() const {
  std::shared_lock lock(mu_);
  std::vector<FileInfo> out;
  for (auto& [p, f] : files_) out.push_back(f->info);
  return out;
}

Status BlockStore::Remove(const std::string& path) {
  std::shared_ptr<const File> removed;
  {
    std::unique_lock lock(mu_);
    auto it = files_.find(path);
    if (it == files_.end()) return NoSuchFile(path);
    removed = it->second;
    files_.erase(it);
    if (persistent()) {
      // The namespace first: a crash in between leaves orphan replica files, never a
      // file whose replicas are gone.
      Status st = SaveNamespaceLocked();
      if (!st.ok()) {
        files_.emplace(path, removed);
        return st;
      }
    }
  }
  if (persistent()) {
    for (auto& b : removed->info.blocks)
      for (int node : b.replica_nodes) ::unlink(ReplicaPath(node, b.id).c_str());
  }
  return Status::OK();
}

bool BlockStore::ReadReplica(const File& f, uint32_t index, int node, BlockRead* out,
                             ReplicaProblem* problem) const {
  const BlockInfo& b = f.info.blocks[index];
  *problem = {f.info.path, index, b.id, node, ""};
  std::string_view data;
  std::shared_ptr<const void> keep;
  if (persistent()) {
    auto m = MappedFile::Open(ReplicaPath(node, b.id));
    if (!m.ok()) {
      problem->what =
          m.status().code() == Status::Code::kNotFound ? "is missing" : "cannot be read";
      return false;
    }
    data = (*m)->data();
    keep = std::move(m).value();
    if (data.size() != b.length) {
      problem->what =
          "has " + std::to_string(data.size()) + " bytes, not " + std::to_string(b.length);
      return false;
    }
  } else {
    data = f.bytes.substr(b.offset, b.length);
    keep = f.owner;
  }
  if (Crc32c(data) != b.crc) {
    problem->what = "failed its checksum";
    return false;
  }
  out->data = data;
  out->keepalive = std::move(keep);
  out->node = node;
  return true;
}

// What a read finds of an injected fault: what it would find of the real one.
std::string BlockStore::InjectedProblem(ReplicaFaultKind kind) {
  return kind == ReplicaFaultKind::kLost ? "is missing" : "failed its checksum";
}

Result<BlockRead> BlockStore::ReadBlock(const std::string& path, uint32_t index,
                                        int preferred_node) const {
  std::shared_ptr<const File> f;
  std::vector<int> order;
  std::map<int, ReplicaFaultKind> forced_bad;
  {
    std::shared_lock lock(mu_);
    auto it = files_.find(path);
    if (it == files_.end()) return NoSuchFile(path);
    f = it->second;
    if (index >= f->info.blocks.size())
      return Status::InvalidArgument("'" + path + "' has no block at index " +
                                     std::to_string(index) + " (it has " +
                                     std::to_string(f->info.blocks.size()) + ")");
    for (int n : f->info.blocks[index].replica_nodes)
      if (auto it = injected_.find({path, index, n}); it != injected_.end())
        forced_bad[n] = it->second;
  }
  const BlockInfo& b = f->info.blocks[index];
  for (int n : b.replica_nodes)
    if (n == preferred_node) order.push_back(n);
  for (int n : b.replica_nodes)
    if (n != preferred_node) order.push_back(n);

  BlockRead read;
  read.offset = b.offset;
  read.block_id = b.id;
  std::vector<ReplicaProblem> problems;
  for (int node : order) {
    ReplicaProblem problem;
    auto injected = forced_bad.find(node);
    const bool forced = injected != forced_bad.end();
    if (forced) problem = {path, index, b.id, node, InjectedProblem(injected->second)};
    if (!forced && ReadReplica(*f, index, node, &read, &problem)) {
      for (auto& p : problems)
        read.warnings.push_back(p.ToString() + "; read the replica on node " +
                                std::to_string(node));
      return read;
    }
    problems.push_back(std::move(problem));
  }
  return Status::Corruption(BlockName(path, b.id) + ": all " +
                            std::to_string(b.replica_nodes.size()) +
                            " replicas are corrupt or missing");
}

FsckReport BlockStore::Fsck() const {
  std::vector<std::shared_ptr<const File>> files;
  std::map<std::tuple<std::string, uint32_t, int>, ReplicaFaultKind> forced_bad;
  {
    std::shared_lock lock(mu_);
    for (auto& [path, f] : files_) files.push_back(f);
    forced_bad = injected_;
  }
  FsckReport r;
  for (const auto& f : files) {
    ++r.files;
    r.bytes += f->info.size;
    for (uint32_t index = 0; index < f->info.blocks.size(); ++index) {
      ++r.blocks;
      size_t bad = 0;
      for (int node : f->info.blocks[index].replica_nodes) {
        ++r.replicas;
        BlockRead ignored;
        ReplicaProblem problem;
        auto injected = forced_bad.find({f->info.path, index, node});
        bool ok = injected == forced_bad.end();
        if (!ok)
          problem = {f->info.path, index, f->info.blocks[index].id, node,
                     InjectedProblem(injected->second)};
        if (ok) ok = ReadReplica(*f, index, node, &ignored, &problem);
        if (ok) {
          ++r.healthy_replicas;
        } else {
          ++bad;
          r.problems.push_back(std::move(problem));
        }
      }
      if (bad > 0) ++r.degraded_blocks;
      if (bad == f->info.blocks[index].replica_nodes.size()) ++r.corrupt_blocks;
    }
  }
  return r;
}

Status BlockStore::Cat(const std::string& path, std::ostream& out) const {
  auto count = BlockCount(path);
  if (!count.ok()) return count.status();
  for (uint32_t i = 0; i < *count; ++i) {
    auto b = ReadBlock(path, i, -1);
    if (!b.ok()) return b.status();
    out.write(b->data.data(), static_cast<std::streamsize>(b->data.size()));
    if (!out) return Status::IoError("cannot write '" + path + "' to the output stream");
  }
  return Status::OK();
}

void BlockStore::InjectReplicaFault(const std::string& path, uint32_t block, int node,
                                    ReplicaFaultKind kind) {
  std::unique_lock lock(mu_);
  injected_[{path, block, node}] = kind;
}

Result<std::string> BlockStore::TEST_ReplicaFile(const std::string& path, uint32_t block,
                                                 int node) const {
  auto info = Stat(path);
  if (!info.ok()) return info.status();
  if (!persistent() || block >= info->blocks.size())
    return Status::InvalidArgument("no replica file for block index " + std::to_string(block) +
                                   " of '" + path + "'");
  return ReplicaPath(node, info->blocks[block].id);
}

Status BlockStore::SaveNamespaceLocked() const {
  StoreNamespace ns;
  ns.nodes = options_.nodes;
  ns.block_size = options_.block_size;
  ns.replication = options_.replication;
  ns.next_block_id = next_block_id_;
  for (auto& [path, f] : files_) ns.files.push_back(f->info);
  return WriteFileAtomically(dir_ + "/namespace", EncodeNamespace(ns), /*sync=*/true);
}

void BlockStore::RemoveStaleTemporaries() const {
  // A namespace save or a replica write cut short by a kill (`fs put`): never read, as
  // neither was renamed into place. Replicas already renamed whose file the namespace does
  // not list yet are another matter: a later put of the same block ids replaces them.
  RemoveStaleTemporariesIn(dir_);
  for (int n = 0; n < options_.nodes; ++n)
    RemoveStaleTemporariesIn(dir_ + "/node-" + std::to_string(n));
}

Status BlockStore::LoadNamespace() {
  const std::string file = dir_ + "/namespace";
  auto text = MappedFile::Open(file);
  if (!text.ok()) return text.status();
  auto ns = DecodeNamespace((*text)->data(), file);
  if (!ns.ok()) return ns.status();
  options_.nodes = ns->nodes;
  options_.block_size = ns->block_size;
  options_.replication = ns->replication;
  std::unique_lock lock(mu_);
  next_block_id_ = ns->next_block_id;
  for (FileInfo& info : ns->files) {
    auto f = std::make_shared<File>();
    f->info = std::move(info);
    files_.emplace(f->info.path, std::move(f));
  }
  return Status::OK();
}

}  // namespace mrlocal
