// The block store: mapped inputs, block cutting, replica placement, checksum-verified
// reads with fallback, fsck, the persistent store and its namespace, and `mrlocal fs`.
#include "engine/block_store.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <sstream>
#include <thread>

#include "engine/crc32c.h"
#include "engine/mapped_file.h"
#include "engine/store_namespace.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::ReadFile;
using testing::RunMrlocal;
using testing::ScratchDir;
using testing::WriteFile;
namespace fs = std::filesystem;

std::unique_ptr<BlockStore> MemStore(uint64_t block_size, int nodes = 3, int replication = 0) {
  auto s = BlockStore::InMemory({block_size, nodes, replication});
  EXPECT_TRUE(s.ok()) << s.status().message();
  return std::move(s).value();
}

std::string RandomText(size_t bytes, uint32_t seed) {
  std::mt19937 rng(seed);
  std::string s;
  while (s.size() < bytes)
    s += std::string(1 + rng() % 9, static_cast<char>('a' + rng() % 26)) + (rng() % 8 ? " " : "\n");
  s.resize(bytes);
  return s;
}

// ---------------------------------------------------------------------------------------
// MappedFile

TEST(MappedFile, MapsAFileAndAnEmptyFile) {
  ScratchDir dir;
  WriteFile(dir / "a.txt", "hello\n");
  WriteFile(dir / "empty", "");
  auto a = MappedFile::Open((dir / "a.txt").string());
  ASSERT_TRUE(a.ok());
  EXPECT_EQ((*a)->data(), "hello\n");
  auto e = MappedFile::Open((dir / "empty").string());
  ASSERT_TRUE(e.ok());
  EXPECT_EQ((*e)->data().size(), 0u);
}

TEST(MappedFile, BadInputsAreClearErrorsNamingTheFile) {
  ScratchDir dir;
  WriteFile(dir / "secret", "x");
  fs::permissions(dir / "secret", fs::perms::none);
  struct Case {
    std::string path;
    Status::Code code;
    std::string message;
  };
  std::vector<Case> cases = {
      {(dir / "missing.txt").string(), Status::Code::kNotFound,
       "cannot open '" + (dir / "missing.txt").string() + "': No such file or directory"},
      {dir.path().string(), Status::Code::kInvalidArgument,
       std::string("'") + dir.path().string() + "' is a directory, not a file"},
  };
  ASSERT_EQ(::mkfifo((dir / "fifo").c_str(), 0644), 0);
  cases.push_back({(dir / "fifo").string(), Status::Code::kInvalidArgument,
                   "'" + (dir / "fifo").string() + "' is not a regular file"});
  if (geteuid() != 0) {  // root reads anything
    cases.push_back({(dir / "secret").string(), Status::Code::kIoError,
                     "cannot open '" + (dir / "secret").string() + "': Permission denied"});
  }
  for (const Case& c : cases) {
    auto m = MappedFile::Open(c.path);
    ASSERT_FALSE(m.ok()) << c.path;
    EXPECT_EQ(m.status().code(), c.code) << c.path;
    EXPECT_EQ(m.status().message(), c.message);
  }
}

// ---------------------------------------------------------------------------------------
// In-memory store

TEST(BlockStore, CutsFilesIntoBlocksWithChecksums) {
  struct Case {
    uint64_t size, block_size;
    std::vector<uint64_t> lengths;
  };
  const std::vector<Case> cases = {
      {0, 10, {}},       {1, 10, {1}},          {10, 10, {10}},
      {11, 10, {10, 1}}, {25, 10, {10, 10, 5}}, {5, 1, {1, 1, 1, 1, 1}},
  };
  for (const Case& c : cases) {
    auto store = MemStore(c.block_size);
    const std::string text = RandomText(c.size, 1).substr(0, c.size);
    ASSERT_TRUE(store->PutBuffer("f", std::make_shared<std::string>(text)).ok());
    auto info = store->Stat("f");
    ASSERT_TRUE(info.ok());
    EXPECT_EQ(info->size, c.size);
    ASSERT_EQ(info->blocks.size(), c.lengths.size()) << c.size << "/" << c.block_size;
    uint64_t offset = 0;
    for (size_t i = 0; i < c.lengths.size(); ++i) {
      const BlockInfo& b = info->blocks[i];
      EXPECT_EQ(b.offset, offset);
      EXPECT_EQ(b.length, c.lengths[i]);
      EXPECT_EQ(b.crc, Crc32c(std::string_view(text).substr(offset, b.length)));
      offset += b.length;
    }
  }
}

TEST(BlockStore, ReplicasAreOnDistinctNodesAndSpreadOverAllOfThem) {
  struct Case {
    int nodes, replication, expected;
  };
  for (Case c :
       std::vector<Case>{{1, 0, 1}, {2, 0, 2}, {3, 0, 3}, {5, 0, 3}, {5, 2, 2}, {4, 4, 4}}) {
    auto store = MemStore(10, c.nodes, c.replication);
    ASSERT_TRUE(store->PutBuffer("f", std::make_shared<std::string>(std::string(95, 'a'))).ok());
    auto info = store->Stat("f");
    std::map<int, int> per_node;
    for (auto& b : info->blocks) {
      std::set<int> distinct(b.replica_nodes.begin(), b.replica_nodes.end());
      EXPECT_EQ(b.replica_nodes.size(), static_cast<size_t>(c.expected));
      EXPECT_EQ(distinct.size(), b.replica_nodes.size());
      for (int n : b.replica_nodes) {
        EXPECT_GE(n, 0);
        EXPECT_LT(n, c.nodes);
        ++per_node[n];
      }
    }
    EXPECT_EQ(per_node.size(), static_cast<size_t>(c.nodes)) << "every node holds replicas";
  }
  // Deterministic: the same path gets the same placement in another store.
  auto a = MemStore(10, 5), b = MemStore(10, 5);
  ASSERT_TRUE(a->PutBuffer("x", std::make_shared<std::string>(std::string(50, 'a'))).ok());
  ASSERT_TRUE(b->PutBuffer("x", std::make_shared<std::string>(std::string(50, 'b'))).ok());
  for (uint32_t i = 0; i < 5; ++i)
    EXPECT_EQ(a->Stat("x")->blocks[i].replica_nodes, b->Stat("x")->blocks[i].replica_nodes);
}

TEST(BlockStore, RejectsBadOptions) {
  struct Case {
    BlockStoreOptions o;
    const char* why;
  };
  for (const Case& c : std::vector<Case>{{{0, 1, 0}, "zero block size"},
                                         {{10, 0, 0}, "no nodes"},
                                         {{10, 2, 3}, "replication above the node count"},
                                         {{10, 2, -1}, "negative replication"}}) {
    auto s = BlockStore::InMemory(c.o);
    EXPECT_FALSE(s.ok()) << c.why;
    if (!s.ok()) {
      EXPECT_EQ(s.status().code(), Status::Code::kInvalidArgument);
    }
  }
  auto store = MemStore(10, 2);
  auto bytes = std::make_shared<std::string>("abc");
  EXPECT_FALSE(store->PutBuffer("f", bytes, {0, 3}).ok()) << "per-file replication above nodes";
  EXPECT_FALSE(store->PutBuffer("", bytes).ok()) << "empty path";
  ASSERT_TRUE(store->PutBuffer("f", bytes, {1, 1}).ok());
  EXPECT_EQ(store->Stat("f")->blocks.size(), 3u) << "per-file block size";
  EXPECT_EQ(store->Stat("f")->replication, 1);
  EXPECT_EQ(store->PutBuffer("f", bytes).code(), Status::Code::kInvalidArgument) << "exists";
}

TEST(BlockStore, MissingAndUnreadableInputsAreClearErrors) {
  auto store = MemStore(64);
  Status missing = store->Put("/no/such/file.txt", "x");
  EXPECT_EQ(missing.code(), Status::Code::kNotFound);
  EXPECT_EQ(missing.message(), "cannot open '/no/such/file.txt': No such file or directory");
  ScratchDir dir;
  EXPECT_EQ(store->Put(dir.path().string(), "d").code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(store->Stat("nope").status().message(), "'nope': no such file in the store");
  EXPECT_EQ(store->ReadBlock("nope", 0, 0).status().code(), Status::Code::kNotFound);
  EXPECT_EQ(store->Remove("nope").code(), Status::Code::kNotFound);
  EXPECT_TRUE(store->List().empty()) << "a failed put leaves nothing behind";
}

TEST(BlockStore, ACorruptReplicaIsReportedAndAnotherIsRead) {
  auto store = MemStore(16, 3);
  const std::string text = "0123456789abcdef0123456789ABCDEF";
  ASSERT_TRUE(store->PutBuffer("f", std::make_shared<std::string>(text)).ok());
  const std::vector<int> nodes = store->Stat("f")->blocks[1].replica_nodes;
  store->InjectReplicaFault("f", 1, nodes[0]);
  auto read = store->ReadBlock("f", 1, nodes[0]);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->data, text.substr(16));
  EXPECT_EQ(read->node, nodes[1]);
  ASSERT_EQ(read->warnings.size(), 1u);
  EXPECT_EQ(read->warnings[0], "f blk_2: replica on node " + std::to_string(nodes[0]) +
                                   " failed its checksum; read the replica on node " +
                                   std::to_string(nodes[1]));
  FsckReport r = store->Fsck();
  EXPECT_FALSE(r.healthy());
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].ToString(),
            "f blk_2: replica on node " + std::to_string(nodes[0]) + " failed its checksum");
  EXPECT_EQ(r.healthy_replicas, 5u);
  EXPECT_EQ(r.degraded_blocks, 1u);
  EXPECT_EQ(r.corrupt_blocks, 0u);

  for (int n : nodes) store->InjectReplicaFault("f", 1, n);
  auto lost = store->ReadBlock("f", 1, -1);
  ASSERT_FALSE(lost.ok());
  EXPECT_EQ(lost.status().code(), Status::Code::kCorruption);
  EXPECT_EQ(lost.status().message(), "f blk_2: all 3 replicas are corrupt or missing");
  std::ostringstream out;
  EXPECT_EQ(store->Cat("f", out).code(), Status::Code::kCorruption);
  EXPECT_EQ(store->Fsck().corrupt_blocks, 1u);
}

TEST(BlockStore, BytesStayValidAfterRemove) {
  auto store = MemStore(4, 1);
  ASSERT_TRUE(store->PutBuffer("f", std::make_shared<std::string>("abcdefgh")).ok());
  auto read = store->ReadBlock("f", 1, 0);
  ASSERT_TRUE(read.ok());
  ASSERT_TRUE(store->Remove("f").ok());
  EXPECT_EQ(read->data, "efgh");  // the keepalive owns the bytes
  EXPECT_FALSE(store->Stat("f").ok());
}

// The suite also runs under ThreadSanitizer: readers, fsck and writers at the same time.
TEST(BlockStore, ConcurrentReadersAndWritersAreSafe) {
  auto store = MemStore(64, 3);
  const std::string text = RandomText(64 * 50, 11);
  ASSERT_TRUE(store->PutBuffer("f", std::make_shared<std::string>(text)).ok());
  std::atomic<bool> stop{false};
  std::vector<std::thread> readers;
  for (int t = 0; t < 3; ++t) {
    readers.emplace_back([&, t] {
      while (!stop.load()) {
        for (uint32_t b = 0; b < 50; ++b) {
          auto r = store->ReadBlock("f", b, t);
          ASSERT_TRUE(r.ok());
          ASSERT_EQ(r->data, std::string_view(text).substr(b * 64, 64));
        }
        EXPECT_TRUE(store->Fsck().files >= 1);
      }
    });
  }
  for (int i = 0; i < 200; ++i) {
    const std::string name = std::string("g") + std::to_string(i % 7);
    (void)store->PutBuffer(name, std::make_shared<std::string>(text));
    if (i % 3 == 0) (void)store->Remove(name);
    if (i == 100) store->InjectReplicaFault("f", 3, store->Stat("f")->blocks[3].replica_nodes[0]);
  }
  stop = true;
  for (auto& th : readers) th.join();
}

// A 256 MiB input must cost page cache (file-backed), not heap: replicas share the mapping.
TEST(BlockStore, PutOfALargeFileDoesNotAllocateItsSize) {
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
  GTEST_SKIP() << "sanitizers shadow every byte read";
#endif
  auto rss_anon_kib = [] {
    std::ifstream in("/proc/self/status");
    for (std::string line; std::getline(in, line);)
      if (line.rfind("RssAnon:", 0) == 0) return std::stoull(line.substr(8));
    return 0ull;
  };
  if (rss_anon_kib() == 0) GTEST_SKIP() << "no RssAnon in /proc/self/status";
  ScratchDir dir;
  const fs::path big = dir / "big.txt";
  const uint64_t size = 256ull << 20;
  {
    int fd = ::open(big.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    ASSERT_GE(fd, 0);
    ASSERT_EQ(::ftruncate(fd, static_cast<off_t>(size)), 0);  // sparse: no disk needed
    ASSERT_EQ(::pwrite(fd, "end\n", 4, static_cast<off_t>(size - 4)), 4);
    ::close(fd);
  }
  const uint64_t before = rss_anon_kib();
  auto store = MemStore(32 << 20, 3);
  ASSERT_TRUE(store->Put(big.string(), "big").ok());  // reads every byte for the CRCs
  for (uint32_t b = 0; b < 8; ++b) ASSERT_TRUE(store->ReadBlock("big", b, 2).ok());
  const uint64_t after = rss_anon_kib();
  const uint64_t grown_mib = (after - std::min<uint64_t>(before, after)) >> 10;
  EXPECT_LT(grown_mib, 16u) << "anonymous memory grew by " << grown_mib << " MiB";
  std::printf("RssAnon growth after Put + 8 block reads of a 256 MiB file: %llu MiB\n",
              static_cast<unsigned long long>(grown_mib));
}

// ---------------------------------------------------------------------------------------
// Persistent store

class BlockStorePersistent : public ::testing::Test {
 protected:
  std::unique_ptr<BlockStore> Open(int nodes = 3, uint64_t block = 1000) {
    auto s = BlockStore::Open(store_dir(), {block, nodes, 0});
    EXPECT_TRUE(s.ok()) << s.status().message();
    return std::move(s).value();
  }
  std::string store_dir() const { return (dir_ / "store").string(); }
  std::string Replica(const BlockStore& s, const std::string& path, uint32_t block, int node) {
    auto r = s.TEST_ReplicaFile(path, block, node);
    EXPECT_TRUE(r.ok());
    return r.ok() ? *r : "";
  }
  ScratchDir dir_;
};

TEST_F(BlockStorePersistent, RoundTripsThroughReopen) {
  const std::string text = RandomText(10000, 9);
  WriteFile(dir_ / "in.txt", text);
  {
    auto store = Open();
    ASSERT_TRUE(store->Put((dir_ / "in.txt").string(), "/data/in.txt").ok());
    EXPECT_FALSE(store->Put((dir_ / "in.txt").string(), "/data/in.txt").ok()) << "exists";
    ASSERT_TRUE(store->Put((dir_ / "in.txt").string(), "/data/odd name\n%.txt", {4096, 2}).ok());
  }
  auto store = Open(1, 7);  // an existing store keeps its own options
  EXPECT_EQ(store->options().nodes, 3);
  EXPECT_EQ(store->options().block_size, 1000u);
  ASSERT_EQ(store->List().size(), 2u);
  auto info = store->Stat("/data/in.txt");
  ASSERT_TRUE(info.ok());
  EXPECT_EQ(info->size, text.size());
  EXPECT_EQ(info->blocks.size(), 10u);
  EXPECT_EQ(info->replication, 3);
  auto odd = store->Stat("/data/odd name\n%.txt");
  ASSERT_TRUE(odd.ok()) << "paths with any byte survive the namespace";
  EXPECT_EQ(odd->blocks.size(), 3u);
  EXPECT_EQ(odd->replication, 2);
  std::ostringstream back;
  ASSERT_TRUE(store->Cat("/data/in.txt", back).ok());
  EXPECT_EQ(back.str(), text);
  EXPECT_TRUE(store->Fsck().healthy());
  EXPECT_EQ(store->Fsck().replicas, 10u * 3 + 3 * 2);
  ASSERT_TRUE(store->Remove("/data/in.txt").ok());
  ASSERT_TRUE(store->Remove("/data/odd name\n%.txt").ok());
  EXPECT_TRUE(store->List().empty());
  for (auto& e : fs::recursive_directory_iterator(store_dir()))
    EXPECT_TRUE(e.is_directory() || e.path().filename() == "namespace") << e.path();
  EXPECT_TRUE(Open()->List().empty()) << "removal is persistent";
}

TEST_F(BlockStorePersistent, AFlippedByteInOneReplicaIsReadAroundAndReportedByFsck) {
  const std::string text = RandomText(3000, 4);
  WriteFile(dir_ / "in.txt", text);
  auto store = Open();
  ASSERT_TRUE(store->Put((dir_ / "in.txt").string(), "f").ok());
  const BlockInfo b = store->Stat("f")->blocks[1];
  {
    std::fstream f(Replica(*store, "f", 1, b.replica_nodes[0]),
                   std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(10);
    f.put(text[1010] ^ 1);
  }
  auto read = store->ReadBlock("f", 1, b.replica_nodes[0]);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->data, text.substr(1000, 1000));
  ASSERT_EQ(read->warnings.size(), 1u);
  EXPECT_EQ(read->warnings[0], "f blk_2: replica on node " + std::to_string(b.replica_nodes[0]) +
                                   " failed its checksum; read the replica on node " +
                                   std::to_string(b.replica_nodes[1]));
  FsckReport r = store->Fsck();
  ASSERT_EQ(r.problems.size(), 1u);
  EXPECT_EQ(r.problems[0].path, "f");
  EXPECT_EQ(r.problems[0].block, 1u);
  EXPECT_EQ(r.problems[0].node, b.replica_nodes[0]);
  EXPECT_EQ(r.healthy_replicas, 8u);
  std::ostringstream back;
  ASSERT_TRUE(store->Cat("f", back).ok());
  EXPECT_EQ(back.str(), text);
}

TEST_F(BlockStorePersistent, MissingOrTruncatedReplicasAreReported) {
  WriteFile(dir_ / "in.txt", RandomText(3000, 4));
  auto store = Open();
  ASSERT_TRUE(store->Put((dir_ / "in.txt").string(), "f").ok());
  const BlockInfo b = store->Stat("f")->blocks[2];
  fs::remove(Replica(*store, "f", 2, b.replica_nodes[0]));
  fs::resize_file(Replica(*store, "f", 2, b.replica_nodes[1]), 10);
  FsckReport r = store->Fsck();
  ASSERT_EQ(r.problems.size(), 2u);
  EXPECT_EQ(r.problems[0].ToString(),
            "f blk_3: replica on node " + std::to_string(b.replica_nodes[0]) + " is missing");
  EXPECT_EQ(
      r.problems[1].ToString(),
      "f blk_3: replica on node " + std::to_string(b.replica_nodes[1]) + " has 10 bytes, not 1000");
  EXPECT_EQ(r.corrupt_blocks, 0u);
  auto read = store->ReadBlock("f", 2, b.replica_nodes[0]);
  ASSERT_TRUE(read.ok());
  EXPECT_EQ(read->warnings.size(), 2u);

  fs::remove(Replica(*store, "f", 2, b.replica_nodes[2]));
  auto lost = store->ReadBlock("f", 2, 0);
  ASSERT_FALSE(lost.ok());
  EXPECT_EQ(lost.status().code(), Status::Code::kCorruption);
  EXPECT_EQ(lost.status().message(), "f blk_3: all 3 replicas are corrupt or missing");
  EXPECT_EQ(store->Fsck().corrupt_blocks, 1u);
}

TEST_F(BlockStorePersistent, OpeningNonStoresFailsClearly) {
  EXPECT_EQ(BlockStore::Open(store_dir(), {}, BlockStore::OpenMode::kMustExist).status().message(),
            "no mrlocal store in '" + store_dir() + "'");
  WriteFile(dir_ / "file", "x");
  EXPECT_EQ(BlockStore::Open((dir_ / "file").string(), {}).status().code(),
            Status::Code::kInvalidArgument);
  fs::create_directory(dir_ / "full");
  WriteFile(dir_ / "full" / "x", "x");
  EXPECT_EQ(BlockStore::Open((dir_ / "full").string(), {}).status().code(),
            Status::Code::kInvalidArgument);
  { auto store = Open(); }
  WriteFile(dir_ / "store" / "namespace", "mrlocal-store 1\nnodes 0\n");
  auto damaged = BlockStore::Open(store_dir(), {});
  ASSERT_FALSE(damaged.ok());
  EXPECT_EQ(damaged.status().code(), Status::Code::kCorruption);
  EXPECT_NE(damaged.status().message().find(store_dir() + "/namespace"), std::string::npos);
}

TEST(StoreNamespace, RoundTripsAndRejectsDamage) {
  StoreNamespace ns;
  ns.nodes = 3;
  ns.block_size = 4;
  ns.next_block_id = 9;
  ns.files.push_back({"a b", 6, 4, 2, {{1, 0, 4, 0xdeadbeef, {0, 1}}, {2, 4, 2, 7, {2, 0}}}});
  ns.files.push_back({"empty", 0, 4, 3, {}});
  const std::string text = EncodeNamespace(ns);
  auto back = DecodeNamespace(text, "ns");
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_EQ(EncodeNamespace(*back), text);
  EXPECT_EQ(back->files[0].path, "a b");
  EXPECT_EQ(back->files[0].blocks[0].crc, 0xdeadbeefu);

  auto replace = [&](const std::string& from, const std::string& to) {
    std::string t = text;
    t.replace(t.find(from), from.size(), to);
    return t;
  };
  const std::vector<std::pair<std::string, std::string>> damaged = {
      {"", "empty"},
      {text.substr(0, text.size() - 1), "no final newline"},
      {text.substr(0, text.find("block 2")), "a missing block"},
      {replace("nodes 3", "nodes x"), "a bad node count"},
      {replace("0,1", "0,0"), "duplicate replica nodes"},
      {replace("0,1", "0,5"), "a node out of range"},
      {replace("2,0", "2"), "too few replicas"},
      {replace("block 2 4 2", "block 2 3 2"), "a gap between blocks"},
      {replace("block 2", "block 1"), "a reused block id"},
      {replace("block 2", "block 99"), "an id beyond next_block_id"},
      {replace("deadbeef", "deadbee"), "a short crc"},
      {replace("file a%20b 6", "file a%2 6"), "a bad escape"},
      {text + "file x 1 4 1 1\n", "a file without its block"},
      {text + "garbage\n", "a stray line"},
  };
  for (auto& [t, why] : damaged) {
    auto r = DecodeNamespace(t, "ns");
    EXPECT_FALSE(r.ok()) << why;
    if (!r.ok()) {
      EXPECT_EQ(r.status().code(), Status::Code::kCorruption) << why;
    }
  }
}

// Found by reading what tests/fuzz/store_namespace_fuzz checks (blocks cover the file):
// the block count of a size near 2^64 wrapped to 0, so a namespace could name a file of
// 16 EiB with no block at all.
TEST(StoreNamespace, AHugeFileWithoutItsBlocksIsCorruption) {
  const std::string text =
      "mrlocal-store 1\nnodes 1\nblock_size 4\nreplication 0\nnext_block_id 9\n"
      "file /a 18446744073709551615 2 1 0\n";
  auto r = DecodeNamespace(text, "ns");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), Status::Code::kCorruption);
  EXPECT_NE(r.status().message().find("wrong block count for '/a'"), std::string::npos)
      << r.status().message();
}

// ---------------------------------------------------------------------------------------
// `mrlocal fs` (the binary, as users run it)

TEST(BlockStoreShell, PutLsCatRmFsck) {
  ScratchDir dir;
  const std::string store = (dir / "store").string();
  const std::string text = RandomText(5000, 3);
  WriteFile(dir / "in.txt", text);
  auto fs_cmd = [&](std::vector<std::string> args) {
    args.insert(args.begin(), {"fs", "--store", store});
    return RunMrlocal(args);
  };
  auto r = fs_cmd({"ls"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "mrlocal: error: no mrlocal store in '" + store + "'\n");

  r = fs_cmd(
      {"put", (dir / "in.txt").string(), "/data/in.txt", "--block-size", "1KiB", "--nodes", "4"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = fs_cmd({"put", (dir / "in.txt").string(), "/data/two.txt", "--replication", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = fs_cmd({"put", (dir / "in.txt").string(), "/x", "--nodes", "5"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--nodes applies only when creating a store"), std::string::npos) << r.err;
  r = fs_cmd({"put", (dir / "nope.txt").string(), "/x"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "mrlocal: error: cannot open '" + (dir / "nope.txt").string() +
                       "': No such file or directory\n");
  r = fs_cmd({"put", (dir / "in.txt").string(), "/x", "--block-size", "lots"});
  EXPECT_EQ(r.exit_code, 2);

  r = fs_cmd({"ls"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "Found 2 items\n"
            "-r--r--r--   3           " +
                std::to_string(text.size()) +
                "       5 blocks  /data/in.txt\n"
                "-r--r--r--   2           " +
                std::to_string(text.size()) + "       5 blocks  /data/two.txt\n");
  r = RunMrlocal({"fs", "ls", "/data/in.txt", "--store", store});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Found 1 item\n"), std::string::npos) << r.out;
  r = fs_cmd({"ls", "/data"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("Found 2 items"), std::string::npos);
  r = fs_cmd({"cat", "/data/in.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, text);

  r = fs_cmd({"fsck"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("Status: HEALTHY"), std::string::npos);

  auto s = BlockStore::Open(store, {});
  ASSERT_TRUE(s.ok());
  auto replica = (*s)->TEST_ReplicaFile("/data/in.txt", 3,
                                        (*s)->Stat("/data/in.txt")->blocks[3].replica_nodes[1]);
  ASSERT_TRUE(replica.ok());
  WriteFile(*replica, std::string(1024, '#'));
  r = fs_cmd({"fsck"});
  EXPECT_EQ(r.exit_code, 2);
  // The block is named as its replica file on disk.
  EXPECT_EQ(r.out.substr(0, r.out.find('\n')),
            "/data/in.txt " + std::filesystem::path(*replica).filename().string() +
                ": replica on node " +
                std::to_string((*s)->Stat("/data/in.txt")->blocks[3].replica_nodes[1]) +
                " failed its checksum");
  EXPECT_NE(r.out.find("Status: CORRUPT"), std::string::npos);
  r = fs_cmd({"cat", "/data/in.txt"});
  EXPECT_EQ(r.exit_code, 0) << "a good replica is left";
  EXPECT_EQ(r.out, text);

  r = fs_cmd({"rm", "/data/in.txt"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "Deleted /data/in.txt\n");
  r = fs_cmd({"cat", "/data/in.txt"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "mrlocal: error: '/data/in.txt': no such file in the store\n");
  r = fs_cmd({"fsck"});
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

}  // namespace
}  // namespace mrlocal
