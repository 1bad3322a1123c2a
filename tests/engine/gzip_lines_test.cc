// The gzip line stream: whole lines whatever the block and member boundaries, line
// numbers for error messages, progress, and clear errors for damaged files.
#include "engine/gzip_lines.h"

#include <gtest/gtest.h>

#include <memory>

#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::ScratchDir;

// Compresses `text` as `members` gzip members (zlib's gzwrite, through the test helper).
std::string Gzip(std::string_view text, int members = 1) {
  ScratchDir dir;
  testing::WriteGzip(dir / "x.gz", text, members);
  return testing::ReadFile(dir / "x.gz");
}

struct Store {
  std::unique_ptr<BlockStore> store;
  explicit Store(std::string bytes, uint64_t block_size = 1 << 10) {
    BlockStoreOptions o;
    o.block_size = block_size;
    o.nodes = 2;
    store = std::move(BlockStore::InMemory(o)).value();
    EXPECT_TRUE(
        store->PutBuffer("/g.gz", std::make_shared<const std::string>(std::move(bytes))).ok());
  }
};

// Every run the stream hands out, concatenated; checks that each run is whole lines.
Result<std::string> ReadAll(LineStream& s, int* runs = nullptr) {
  std::string all;
  for (;;) {
    Result<std::string_view> run = s.Next();
    if (!run.ok()) return run.status();
    if (run->empty()) return all;
    if (runs) ++*runs;
    all.append(*run);
    if (run->back() != '\n') {  // only the input's last line may lack its '\n'
      auto more = s.Next();
      EXPECT_TRUE(more.ok() && more->empty());
      return all;
    }
  }
}

TEST(GzipLines, ReadsEveryLineAcrossBlocksAndMembers) {
  std::string text;
  for (int i = 0; i < 300000; ++i) text += std::to_string(i) + "\t" + std::to_string(i * 7) + "\n";
  Store st(Gzip(text, 4), 64 << 10);
  auto s = OpenGzipLines(*st.store, "/g.gz", -1);
  ASSERT_TRUE(s.ok());
  int runs = 0;
  auto all = ReadAll(**s, &runs);
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(*all, text);
  EXPECT_GT(runs, 1);  // handed out in bounded runs, not all at once
  EXPECT_EQ((*s)->progress(), 1.0);
}

TEST(GzipLines, ALineLongerThanARunStaysWhole) {
  std::string text = "short\n" + std::string(3 << 20, 'x') + "\nend";  // no final '\n'
  Store st(Gzip(text), 1 << 16);
  auto s = OpenGzipLines(*st.store, "/g.gz", -1);
  ASSERT_TRUE(s.ok());
  auto all = ReadAll(**s);
  ASSERT_TRUE(all.ok());
  EXPECT_EQ(*all, text);
}

TEST(GzipLines, LocateCountsLinesFromTheStartOfTheFile) {
  std::string text;
  for (int i = 1; i <= 200000; ++i) text += "line " + std::to_string(i) + "\n";
  Store st(Gzip(text, 2), 1 << 12);
  auto s = OpenGzipLines(*st.store, "/g.gz", -1);
  ASSERT_TRUE(s.ok());
  bool found = false;
  for (;;) {
    auto run = (*s)->Next();
    ASSERT_TRUE(run.ok());
    if (run->empty()) break;
    size_t at = run->find("line 150001\n");
    if (at != std::string_view::npos && (at == 0 || (*run)[at - 1] == '\n')) {
      EXPECT_EQ((*s)->Locate(at), "/g.gz:150001");
      found = true;
    }
  }
  EXPECT_TRUE(found);
}

TEST(GzipLines, EmptyInputsHaveNoLines) {
  for (std::string bytes : {std::string(), Gzip("")}) {
    Store st(bytes);
    auto s = OpenGzipLines(*st.store, "/g.gz", -1);
    ASSERT_TRUE(s.ok());
    auto all = ReadAll(**s);
    ASSERT_TRUE(all.ok()) << all.status().message();
    EXPECT_EQ(*all, "");
  }
}

TEST(GzipLines, DamagedFilesAreCorruptionNamingTheFile) {
  std::string good = Gzip(std::string(100000, 'a') + "\n");
  std::string flipped = good;
  flipped[good.size() / 2] ^= 0x5a;  // inside the deflate data (or its CRC)
  for (auto [bytes, what] : std::vector<std::pair<std::string, std::string>>{
           {"just text\n", "not valid gzip data"},
           {good.substr(0, good.size() - 5), "unexpected end of gzip data"},
           {good + "trailing garbage", "not valid gzip data"},
           {flipped, "not valid gzip data"}}) {
    Store st(bytes);
    auto s = OpenGzipLines(*st.store, "/g.gz", -1);
    ASSERT_TRUE(s.ok());
    auto all = ReadAll(**s);
    ASSERT_FALSE(all.ok()) << what;
    EXPECT_EQ(all.status().code(), Status::Code::kCorruption);
    EXPECT_NE(all.status().message().find("/g.gz: " + what), std::string::npos)
        << all.status().message();
  }
}

TEST(GzipLines, OnlyTheGzSuffixMeansGzip) {
  EXPECT_TRUE(IsGzipPath("a/b.txt.gz"));
  EXPECT_FALSE(IsGzipPath("a/b.txt"));
  EXPECT_FALSE(IsGzipPath(".gz"));
  EXPECT_FALSE(IsGzipPath("a.gzip"));
}

}  // namespace
}  // namespace mrlocal
