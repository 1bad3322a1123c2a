#include "engine/block_store.h"

#include <xxhash.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/crc32c.h"
#include "engine/mapped_file.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;

std::string Escape(std::string_view path) {
  std::string out;
  for (unsigned char c : path) {
    if (std::isalnum(c) || c == '.' || c == '_' || c == '-' || c == '/') {
      out.push_back(static_cast<char>(c));
    } else {
      char buf[4];
      std::snprintf(buf, sizeof buf, "%%%02X", c);
      out += buf;
    }
  }
  return out;
}

std::string Unescape(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '%' && i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
        std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
      out.push_back(static_cast<char>(std::stoi(std::string(s.substr(i + 1, 2)), nullptr, 16)));
      i += 2;
    } else {
      out.push_back(s[i]);
    }
  }
  return out;
}

std::string BlockName(const std::string& path, uint32_t index) {
  return "'" + path + "' block " + std::to_string(index);
}

Status WriteFileAtomically(const fs::path& file, std::string_view bytes) {
  fs::path tmp = file;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.flush();
    if (!out) return Status::IoError("cannot write '" + tmp.string() + "': " + std::strerror(errno));
  }
  std::error_code ec;
  fs::rename(tmp, file, ec);
  if (ec) return Status::IoError("cannot rename '" + tmp.string() + "': " + ec.message());
  return Status::OK();
}

}  // namespace

BlockStore::BlockStore(BlockStoreOptions options, std::string dir)
    : options_(options), dir_(std::move(dir)) {}
BlockStore::~BlockStore() = default;

Result<std::unique_ptr<BlockStore>> BlockStore::InMemory(BlockStoreOptions options) {
  if (options.block_size == 0) return Status::InvalidArgument("block size must be positive");
  if (options.nodes < 1) return Status::InvalidArgument("a block store needs at least one node");
  if (options.replication < 0 || options.replication > options.nodes)
    return Status::InvalidArgument("replication " + std::to_string(options.replication) +
                                   " exceeds the " + std::to_string(options.nodes) + " nodes");
  return std::unique_ptr<BlockStore>(new BlockStore(options, ""));
}

Result<std::unique_ptr<BlockStore>> BlockStore::Open(const std::string& dir,
                                                     BlockStoreOptions options) {
  auto mem = InMemory(options);
  if (!mem.ok()) return mem.status();
  std::unique_ptr<BlockStore> store(new BlockStore(options, dir));
  std::error_code ec;
  if (fs::exists(fs::path(dir) / "namespace", ec)) {
    MRLOCAL_RETURN_IF_ERROR(store->LoadNamespace());
    return store;
  }
  if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
    return Status::InvalidArgument("--store '" + dir + "' is not a directory");
  if (fs::exists(dir, ec) && !fs::is_empty(dir, ec))
    return Status::InvalidArgument("--store '" + dir +
                                   "' is a non-empty directory that holds no mrlocal store");
  fs::create_directories(dir, ec);
  if (ec) return Status::IoError("cannot create store '" + dir + "': " + ec.message());
  for (int n = 0; n < options.nodes; ++n) {
    fs::create_directories(fs::path(dir) / ("node-" + std::to_string(n)), ec);
    if (ec) return Status::IoError("cannot create store '" + dir + "': " + ec.message());
  }
  MRLOCAL_RETURN_IF_ERROR(store->SaveNamespace());
  return store;
}

int BlockStore::replication() const {
  return options_.replication > 0 ? options_.replication : std::min(3, options_.nodes);
}

std::vector<int> BlockStore::PlaceReplicas(const std::string& path, uint32_t block) const {
  // Like HDFS spreading blocks over datanodes: consecutive nodes from a per-file offset.
  uint64_t base = XXH64(path.data(), path.size(), 0) + block;
  std::vector<int> nodes;
  for (int k = 0; k < replication(); ++k)
    nodes.push_back(static_cast<int>((base + static_cast<uint64_t>(k)) % options_.nodes));
  return nodes;
}

std::string BlockStore::ReplicaPath(int node, uint64_t block_id) const {
  return (fs::path(dir_) / ("node-" + std::to_string(node)) / ("blk_" + std::to_string(block_id)))
      .string();
}

Status BlockStore::AddFile(const std::string& path, std::string_view bytes,
                           std::shared_ptr<const void> owner) {
  if (path.empty()) return Status::InvalidArgument("a store path cannot be empty");
  if (files_.count(path)) return Status::InvalidArgument("'" + path + "' already exists in the store");
  File f;
  f.info.path = path;
  f.info.size = bytes.size();
  f.info.block_size = options_.block_size;
  f.info.replication = replication();
  std::vector<std::string> written;
  for (uint64_t off = 0; off < bytes.size(); off += options_.block_size) {
    BlockInfo b;
    b.id = next_block_id_++;
    b.offset = off;
    b.length = std::min<uint64_t>(options_.block_size, bytes.size() - off);
    std::string_view data = bytes.substr(off, b.length);
    b.crc = Crc32c(data);
    b.replica_nodes = PlaceReplicas(path, static_cast<uint32_t>(f.info.blocks.size()));
    if (persistent()) {
      for (int node : b.replica_nodes) {
        std::string replica = ReplicaPath(node, b.id);
        Status st = WriteFileAtomically(replica, data);
        if (!st.ok()) {
          for (auto& w : written) std::remove(w.c_str());
          return st;
        }
        written.push_back(replica);
      }
    }
    f.info.blocks.push_back(std::move(b));
  }
  if (!persistent()) {
    f.owner = std::move(owner);
    f.bytes = bytes;
  }
  files_.emplace(path, std::move(f));
  if (persistent()) {
    Status st = SaveNamespace();
    if (!st.ok()) {
      files_.erase(path);
      for (auto& w : written) std::remove(w.c_str());
      return st;
    }
  }
  return Status::OK();
}

Status BlockStore::Put(const std::string& local, const std::string& path) {
  auto file = MappedFile::Open(local);
  if (!file.ok()) return file.status();
  std::string_view bytes = (*file)->data();
  return AddFile(path, bytes, *file);
}

Status BlockStore::PutBuffer(const std::string& path, std::shared_ptr<const std::string> bytes) {
  std::string_view view = *bytes;
  return AddFile(path, view, std::move(bytes));
}

Result<FileInfo> BlockStore::Stat(const std::string& path) const {
  auto it = files_.find(path);
  if (it == files_.end()) return Status::NotFound("'" + path + "' does not exist in the store");
  return it->second.info;
}

std::vector<FileInfo> BlockStore::List() const {
  std::vector<FileInfo> out;
  for (auto& [p, f] : files_) out.push_back(f.info);
  return out;
}

Status BlockStore::Remove(const std::string& path) {
  auto it = files_.find(path);
  if (it == files_.end()) return Status::NotFound("'" + path + "' does not exist in the store");
  File f = std::move(it->second);
  files_.erase(it);
  if (persistent()) {
    MRLOCAL_RETURN_IF_ERROR(SaveNamespace());
    for (auto& b : f.info.blocks)
      for (int node : b.replica_nodes) std::remove(ReplicaPath(node, b.id).c_str());
  }
  return Status::OK();
}

bool BlockStore::ReadReplica(const File& f, const BlockInfo& b, int node, BlockRead* out) const {
  uint32_t index = static_cast<uint32_t>(&b - f.info.blocks.data());
  std::string where = BlockName(f.info.path, index) + ": replica on node " + std::to_string(node);
  std::string_view data;
  std::shared_ptr<const void> keep;
  if (persistent()) {
    auto m = MappedFile::Open(ReplicaPath(node, b.id));
    if (!m.ok()) {
      out->warnings.push_back(where + " is missing");
      return false;
    }
    data = (*m)->data();
    keep = *m;
    if (data.size() != b.length) {
      out->warnings.push_back(where + " has " + std::to_string(data.size()) + " bytes, not " +
                              std::to_string(b.length));
      return false;
    }
  } else {
    data = f.bytes.substr(b.offset, b.length);
    keep = f.owner;
  }
  bool corrupt = Crc32c(data) != b.crc || test_corrupt_.count({f.info.path, index, node});
  if (corrupt) {
    out->warnings.push_back(where + " failed its checksum");
    return false;
  }
  out->data = data;
  out->keepalive = std::move(keep);
  out->node = node;
  return true;
}

Result<BlockRead> BlockStore::ReadBlock(const std::string& path, uint32_t index,
                                        int preferred_node) const {
  auto it = files_.find(path);
  if (it == files_.end()) return Status::NotFound("'" + path + "' does not exist in the store");
  const File& f = it->second;
  if (index >= f.info.blocks.size())
    return Status::InvalidArgument(BlockName(path, index) + " does not exist");
  const BlockInfo& b = f.info.blocks[index];
  std::vector<int> order;
  for (int n : b.replica_nodes)
    if (n == preferred_node) order.push_back(n);
  for (int n : b.replica_nodes)
    if (n != preferred_node) order.push_back(n);
  BlockRead read;
  for (int node : order) {
    if (ReadReplica(f, b, node, &read)) {
      if (!read.warnings.empty())
        read.warnings.back() += "; read the replica on node " + std::to_string(node);
      return read;
    }
  }
  return Status::Corruption(BlockName(path, index) + ": all " +
                            std::to_string(b.replica_nodes.size()) +
                            " replicas are corrupt or missing");
}

FsckReport BlockStore::Fsck() const {
  FsckReport r;
  for (auto& [path, f] : files_) {
    ++r.files;
    for (const BlockInfo& b : f.info.blocks) {
      ++r.blocks;
      size_t bad = 0;
      for (int node : b.replica_nodes) {
        ++r.replicas;
        BlockRead tmp;
        if (!ReadReplica(f, b, node, &tmp)) {
          ++bad;
          for (auto& w : tmp.warnings) r.problems.push_back(w);
        }
      }
      r.bad_replicas += bad;
      if (bad == b.replica_nodes.size()) ++r.bad_blocks;
    }
  }
  return r;
}

Status BlockStore::Cat(const std::string& path, std::string* out) const {
  auto info = Stat(path);
  if (!info.ok()) return info.status();
  for (uint32_t i = 0; i < info->blocks.size(); ++i) {
    auto b = ReadBlock(path, i, -1);
    if (!b.ok()) return b.status();
    out->append(b->data);
  }
  return Status::OK();
}

void BlockStore::TEST_CorruptReplica(const std::string& path, uint32_t block, int node) {
  test_corrupt_.insert({path, block, node});
}

Status BlockStore::SaveNamespace() const {
  std::ostringstream out;
  out << "mrlocal-store 1\nnodes " << options_.nodes << "\nblock_size " << options_.block_size
      << "\nreplication " << options_.replication << "\nnext_block_id " << next_block_id_ << "\n";
  for (auto& [path, f] : files_) {
    out << "file " << Escape(path) << " " << f.info.size << " " << f.info.block_size << " "
        << f.info.replication << "\n";
    for (auto& b : f.info.blocks) {
      out << "block " << b.id << " " << b.offset << " " << b.length << " " << b.crc << " ";
      for (size_t k = 0; k < b.replica_nodes.size(); ++k)
        out << (k ? "," : "") << b.replica_nodes[k];
      out << "\n";
    }
  }
  return WriteFileAtomically(fs::path(dir_) / "namespace", out.str());
}

Status BlockStore::LoadNamespace() {
  fs::path file = fs::path(dir_) / "namespace";
  std::ifstream in(file);
  if (!in) return Status::IoError("cannot read '" + file.string() + "'");
  auto bad = [&](const std::string& what) {
    return Status::Corruption("store namespace '" + file.string() + "' is damaged: " + what);
  };
  std::string word;
  int version = 0;
  if (!(in >> word >> version) || word != "mrlocal-store" || version != 1)
    return bad("unknown header");
  File* current = nullptr;
  while (in >> word) {
    if (word == "nodes") {
      in >> options_.nodes;
    } else if (word == "block_size") {
      in >> options_.block_size;
    } else if (word == "replication") {
      in >> options_.replication;
    } else if (word == "next_block_id") {
      in >> next_block_id_;
    } else if (word == "file") {
      std::string path;
      File f;
      in >> path >> f.info.size >> f.info.block_size >> f.info.replication;
      f.info.path = Unescape(path);
      current = &files_[f.info.path];
      *current = std::move(f);
    } else if (word == "block") {
      if (!current) return bad("a block before any file");
      BlockInfo b;
      std::string nodes;
      in >> b.id >> b.offset >> b.length >> b.crc >> nodes;
      std::stringstream ns(nodes);
      for (std::string n; std::getline(ns, n, ',');) {
        char* end = nullptr;
        long node = std::strtol(n.c_str(), &end, 10);
        if (*end || node < 0 || node >= options_.nodes) return bad("bad replica node '" + n + "'");
        b.replica_nodes.push_back(static_cast<int>(node));
      }
      current->info.blocks.push_back(std::move(b));
    } else {
      return bad("unexpected '" + word + "'");
    }
    if (!in) return bad("truncated");
  }
  if (options_.nodes < 1 || options_.block_size == 0) return bad("bad header values");
  return Status::OK();
}

}  // namespace mrlocal
