// Input splits: every line in exactly one split, for many block sizes and awkward inputs;
// pieces are complete lines; checksum fallback also for the blocks a long line runs into.
#include "engine/split_reader.h"

#include <gtest/gtest.h>

#include <random>
#include <thread>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::ScratchDir;
using testing::WriteFile;

std::unique_ptr<BlockStore> MemStore(uint64_t block_size, int nodes = 3) {
  auto s = BlockStore::InMemory({block_size, nodes, 0});
  EXPECT_TRUE(s.ok()) << s.status().message();
  return std::move(s).value();
}

// Lines as Hadoop's LineRecordReader sees them: each ends after '\n', except a last line
// without one.
std::vector<std::string> Lines(std::string_view text) {
  std::vector<std::string> out;
  for (size_t pos = 0; pos < text.size();) {
    size_t nl = text.find('\n', pos);
    size_t end = nl == std::string_view::npos ? text.size() : nl + 1;
    out.emplace_back(text.substr(pos, end - pos));
    pos = end;
  }
  return out;
}

// Reads every split of `path` and returns the lines found, in split order, checking that
// every piece is a run of complete lines.
std::vector<std::string> LinesOfAllSplits(const BlockStore& store, const std::string& path) {
  auto info = store.Stat(path);
  EXPECT_TRUE(info.ok());
  std::vector<std::string> lines;
  uint64_t seen = 0;
  for (uint32_t b = 0; b < info->blocks.size(); ++b) {
    auto split = ReadSplit(store, path, b, 0);
    EXPECT_TRUE(split.ok()) << split.status().message();
    if (!split.ok()) continue;
    for (std::string_view piece : split->input.pieces) {
      EXPECT_FALSE(piece.empty()) << "block " << b;
      seen += piece.size();
      if (!piece.empty() && piece.back() != '\n') {
        EXPECT_EQ(seen, info->size) << "a piece of block " << b << " ends mid-line";
      }
      for (auto& l : Lines(piece)) lines.push_back(std::move(l));
    }
  }
  return lines;
}

std::string RandomLines(size_t bytes, uint32_t seed, const char* eol) {
  std::mt19937 rng(seed);
  std::string s;
  while (s.size() < bytes) {
    int words = static_cast<int>(rng() % 12);  // some lines are empty
    for (int w = 0; w < words; ++w)
      s += std::string(1 + rng() % 9, static_cast<char>('a' + rng() % 26)) + " ";
    s += eol;
  }
  return s;
}

TEST(SplitReader, EveryLineInExactlyOneSplitForManyBlockSizes) {
  std::string garbage;
  for (int rep = 0; rep < 40; ++rep)
    for (int c = 0; c < 256; ++c) garbage.push_back(static_cast<char>(c));  // all byte values
  std::mt19937 rng(5);
  for (int i = 0; i < 60000; ++i) garbage.push_back(static_cast<char>(rng()));

  struct Input {
    const char* name;
    std::string text;
  };
  const std::vector<Input> inputs = {
      {"random lines", RandomLines(20000, 1, "\n")},
      {"CRLF lines", RandomLines(20000, 2, "\r\n")},
      {"no trailing newline", RandomLines(5000, 3, "\n") + "last line without newline"},
      {"one long line then short ones", std::string(100000, 'x') + "\nshort\ntail\n"},
      {"newlines only", std::string(1000, '\n')},
      {"a single byte", "a"},
      {"a single newline", "\n"},
      {"binary garbage, all 256 byte values", garbage},
  };
  for (const Input& in : inputs) {
    for (uint64_t bs : {1ull, 2ull, 7ull, 64ull, 4096ull, 65536ull, 1ull << 20}) {
      // With tiny blocks each split reads ahead to its line's end, so long lines cost
      // quadratic time, as in Hadoop: keep those inputs short.
      std::string text = bs < 64 ? in.text.substr(0, 3000) : in.text;
      auto store = MemStore(bs, 2);
      ASSERT_TRUE(store->PutBuffer("f", std::make_shared<std::string>(text)).ok());
      EXPECT_EQ(LinesOfAllSplits(*store, "f"), Lines(text)) << in.name << ", block size " << bs;
    }
  }
}

TEST(SplitReader, AWordStraddlingABlockBoundaryBelongsToTheSplitWhereItsLineStarts) {
  auto store = MemStore(8, 1);
  // Blocks: "abc defg" "hij\nxyz\n"; "defghij" crosses the boundary.
  ASSERT_TRUE(store->PutBuffer("f", std::make_shared<std::string>("abc defghij\nxyz\n")).ok());
  auto s0 = ReadSplit(*store, "f", 0, 0);
  auto s1 = ReadSplit(*store, "f", 1, 0);
  ASSERT_TRUE(s0.ok() && s1.ok());
  ASSERT_EQ(s0->input.pieces.size(), 1u);
  EXPECT_EQ(s0->input.pieces[0], "abc defghij\n");
  ASSERT_EQ(s1->input.pieces.size(), 1u);
  EXPECT_EQ(s1->input.pieces[0], "xyz\n");
  EXPECT_EQ(s0->bytes_read, 12u);
}

TEST(SplitReader, ALineStartingExactlyAtABlockBoundaryBelongsToTheEarlierSplit) {
  // Hadoop: a line starting at s belongs to the split with start < s <= end.
  auto store = MemStore(4, 1);
  ASSERT_TRUE(store->PutBuffer("f", std::make_shared<std::string>("abc\ndef\nghi\n")).ok());
  std::vector<std::vector<std::string>> expected = {{"abc\n", "def\n"}, {"ghi\n"}, {}};
  for (uint32_t b = 0; b < 3; ++b) {
    auto split = ReadSplit(*store, "f", b, 0);
    ASSERT_TRUE(split.ok());
    std::vector<std::string> lines;
    for (auto piece : split->input.pieces)
      for (auto& l : Lines(piece)) lines.push_back(l);
    EXPECT_EQ(lines, expected[b]) << "split " << b;
  }
}

TEST(SplitReader, A10MegabyteLineWith1MiBBlocksIsReadOnceByTheFirstSplit) {
  const std::string text = "head " + std::string(10 << 20, 'w') + " end\nnext line\n";
  auto store = MemStore(1 << 20, 1);
  ASSERT_TRUE(store->PutBuffer("f", std::make_shared<std::string>(text)).ok());
  ASSERT_EQ(*store->BlockCount("f"), 11u);
  auto s0 = ReadSplit(*store, "f", 0, 0);
  ASSERT_TRUE(s0.ok());
  ASSERT_EQ(s0->input.pieces.size(), 1u);  // all of it assembled from 11 blocks
  EXPECT_EQ(s0->input.bytes(), text.find('\n') + 1);
  for (uint32_t b = 1; b < 10; ++b) {
    auto s = ReadSplit(*store, "f", b, 0);
    ASSERT_TRUE(s.ok());
    EXPECT_EQ(s->input.bytes(), 0u) << "split " << b << " lies inside the long line";
  }
  auto s10 = ReadSplit(*store, "f", 10, 0);
  ASSERT_TRUE(s10.ok());
  EXPECT_EQ(s10->input.bytes(), std::string("next line\n").size());
}

// Memory is bounded for any input: a line that runs past the longest line a split reads
// (kMaxLineBytes; here a small one) fails its split in one line naming where it starts,
// while the splits after it, and a line just within the bound, read as ever.
TEST(SplitReader, ALineLongerThanTheBoundFailsItsSplitNamingWhereItStarts) {
  const std::string text =
      "short\n" + std::string(100, 'w') + "\n" + std::string(40, 'x') + "\nz\n";
  auto store = MemStore(16, 1);
  ASSERT_TRUE(store->PutBuffer("f", std::make_shared<std::string>(text)).ok());
  auto s0 = ReadSplit(*store, "f", 0, 0, /*max_line=*/64);
  ASSERT_FALSE(s0.ok());
  EXPECT_EQ(s0.status().code(), Status::Code::kInvalidArgument);
  EXPECT_EQ(s0.status().message(),
            "f: the line from byte 6 is longer than 64 bytes, the longest line mrlocal reads");
  const uint32_t blocks = *store->BlockCount("f");
  std::string rest;
  for (uint32_t b = 1; b < blocks; ++b) {
    auto s = ReadSplit(*store, "f", b, 0, /*max_line=*/64);
    ASSERT_TRUE(s.ok()) << "split " << b << ": " << s.status().message();
    for (std::string_view piece : s->input.pieces) rest += piece;
  }
  EXPECT_EQ(rest, std::string(40, 'x') + "\nz\n");
}

TEST(SplitReader, AnEmptyFileHasNoSplits) {
  ScratchDir dir;
  WriteFile(dir / "empty", "");
  auto store = MemStore(64);
  ASSERT_TRUE(store->Put((dir / "empty").string(), "empty").ok());
  EXPECT_EQ(*store->BlockCount("empty"), 0u);
  EXPECT_EQ(ReadSplit(*store, "empty", 0, 0).status().code(), Status::Code::kInvalidArgument);
}

TEST(SplitReader, TheBulkIsAZeroCopyViewIntoTheStoredBytes) {
  auto bytes = std::make_shared<std::string>(RandomLines(5000, 7, "\n"));
  auto store = MemStore(1024, 1);
  ASSERT_TRUE(store->PutBuffer("f", bytes).ok());
  auto split = ReadSplit(*store, "f", 1, 0);
  ASSERT_TRUE(split.ok());
  ASSERT_FALSE(split->input.pieces.empty());
  const char* p = split->input.pieces[0].data();
  EXPECT_GE(p, bytes->data() + 1024);
  EXPECT_LT(p, bytes->data() + 2048);
}

TEST(SplitReader, ACorruptReplicaOfAFollowingBlockIsReadAroundAndReported) {
  auto store = MemStore(16, 2);
  const std::string text = "a line that spans three blocks of sixteen\nnext\n";
  ASSERT_TRUE(store->PutBuffer("f", std::make_shared<std::string>(text)).ok());
  const BlockInfo b1 = store->Stat("f")->blocks[1];
  store->InjectReplicaFault("f", 1, b1.replica_nodes[0]);
  auto split = ReadSplit(*store, "f", 0, b1.replica_nodes[0]);
  ASSERT_TRUE(split.ok());
  EXPECT_EQ(split->input.pieces.back(), "a line that spans three blocks of sixteen\n");
  ASSERT_EQ(split->warnings.size(), 1u);
  EXPECT_EQ(split->warnings[0], "f blk_2: replica on node " + std::to_string(b1.replica_nodes[0]) +
                                    " failed its checksum; read the replica on node " +
                                    std::to_string(b1.replica_nodes[1]));
  store->InjectReplicaFault("f", 1, b1.replica_nodes[1]);
  auto lost = ReadSplit(*store, "f", 0, 0);
  ASSERT_FALSE(lost.ok());
  EXPECT_EQ(lost.status().message(), "f blk_2: all 2 replicas are corrupt or missing");
}

TEST(SplitReader, ConcurrentReadersSeeTheSameLines) {
  const std::string text = RandomLines(200000, 8, "\n");
  auto store = MemStore(4096, 3);
  ASSERT_TRUE(store->PutBuffer("f", std::make_shared<std::string>(text)).ok());
  const auto expected = Lines(text);
  std::vector<std::vector<std::string>> got(4);
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] { got[t] = LinesOfAllSplits(*store, "f"); });
  for (auto& th : threads) th.join();
  for (auto& g : got) EXPECT_EQ(g, expected);
}

}  // namespace
}  // namespace mrlocal
