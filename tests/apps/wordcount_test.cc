// WordCount through TypedJobRuntime, against the independent reference counter.
#include "apps/wordcount.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <random>

#include "datasets/text_generator.h"
#include "engine/typed_job.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::StopAt;
using testing::StringSink;

using testing::ReferenceWordCount;

// Runs the whole job in-process: one map per chunk of `splits`, R reduces, plan from `owner`.
std::map<std::string, uint64_t> RunWordCount(const std::vector<std::string>& splits, uint32_t p,
                                             uint32_t R, int row, int rows = 4) {
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(rows, p, 42);
  TypedJobRuntime<apps::WordCount> rt(o);
  UnthrottledContext ctx;
  std::vector<std::unique_ptr<MapOutput>> outs;
  for (auto& s : splits) {
    MapInput in;
    in.pieces = {s};
    auto out = rt.RunMap(in, ctx);
    EXPECT_TRUE(out.ok());
    outs.push_back(std::move(out).value());
  }
  std::vector<const MapOutput*> ptrs;
  for (auto& o2 : outs) ptrs.push_back(o2.get());
  ReducePlan plan;
  plan.route = o.hashes[row];
  for (uint32_t i = 0; i < p; ++i) plan.owner.push_back(i % R);
  std::map<std::string, uint64_t> all;
  for (uint32_t r = 0; r < R; ++r) {
    StringSink sink;
    auto res = rt.RunReduce(ptrs, plan, r, &sink, ctx);
    EXPECT_TRUE(res.ok());
    std::string prev;
    size_t pos = 0;
    while (pos < sink.text.size()) {
      size_t nl = sink.text.find('\n', pos);
      std::string line = sink.text.substr(pos, nl - pos);
      size_t tab = line.find('\t');
      std::string k = line.substr(0, tab);
      EXPECT_LT(prev, k);
      prev = k;
      EXPECT_TRUE(all.emplace(k, std::stoull(line.substr(tab + 1))).second) << k;
      pos = nl + 1;
    }
  }
  return all;
}

std::string RandomText(size_t bytes, uint32_t seed) {
  std::mt19937 rng(seed);
  const char alphabet[] = "abcXYZ'' \n\r\t,.0123\x80\xff-";
  std::string s;
  for (size_t i = 0; i < bytes; ++i) s.push_back(alphabet[rng() % (sizeof(alphabet) - 1)]);
  return s;
}

TEST(WordCount, TokenizerEdgeCases) {
  struct Case {
    std::string text;
    std::map<std::string, uint64_t> want;
  };
  std::vector<Case> cases = {
      {"", {}},
      {" ,.;\r\n123", {}},
      {"Hello, hello HELLO", {{"hello", 3}}},
      {"don't 'quoted' rock'n'roll", {{"don't", 1}, {"quoted'", 1}, {"rock'n'roll", 1}}},
      {"abc123def", {{"abc", 1}, {"def", 1}}},
      {"caf\xc3\xa9 na\xefve", {{"caf", 1}, {"na", 1}, {"ve", 1}}},
      {"line one\r\nline two\r\n", {{"line", 2}, {"one", 1}, {"two", 1}}},
      {"no trailing newline", {{"no", 1}, {"trailing", 1}, {"newline", 1}}},
      {"''a''", {{"a''", 1}}},
      {"'tis o' 'twas", {{"tis", 1}, {"o'", 1}, {"twas", 1}}},
      {"'' ' '", {}},
      {"\r\n\r\n", {}},
      {"A\x80"
       "B\xff\x7f"
       "c",
       {{"a", 1}, {"b", 1}, {"c", 1}}},
      {"x", {{"x", 1}}},
  };
  for (auto& c : cases) {
    EXPECT_EQ(RunWordCount({c.text}, 4, 2, 1), c.want) << c.text;
    EXPECT_EQ(ReferenceWordCount(c.text), c.want) << "reference disagrees on " << c.text;
  }
}

TEST(WordCount, A10MegabyteWordIsOneWord) {
  std::string w(10 << 20, 'q');
  auto got = RunWordCount({"a " + w + " b\n"}, 2, 2, 0);
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[w], 1u);
}

TEST(WordCount, SameOutputForAnyPartitionsReducesAndRow) {
  std::vector<std::string> splits;
  std::string all;
  for (int i = 0; i < 5; ++i) {
    splits.push_back(RandomText(20000, i) + "\n");
    all += splits.back();
  }
  auto want = ReferenceWordCount(all);
  for (uint32_t p : {1u, 2u, 7u, 64u}) {
    for (uint32_t R : {1u, 2u, 3u, 5u}) {
      if (R > p) continue;
      for (int row : {0, 3}) EXPECT_EQ(RunWordCount(splits, p, R, row), want) << p << " " << R;
    }
  }
}

TEST(WordCount, SketchRowsSumToTheOutputSize) {
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(4, 16, 7);
  TypedJobRuntime<apps::WordCount> rt(o);
  UnthrottledContext ctx;
  MapInput in;
  std::string text = RandomText(50000, 9);
  in.pieces = {text};
  auto out = rt.RunMap(in, ctx);
  ASSERT_TRUE(out.ok());
  uint64_t units = 0;
  for (auto& [w, c] : ReferenceWordCount(text)) units += w.size() + 8;
  EXPECT_EQ((*out)->size_units(), units);
  for (int r = 0; r < 4; ++r) {
    uint64_t sum = 0;
    for (auto v : (*out)->sketch().Row(r)) sum += v;
    EXPECT_EQ(sum, units) << "row " << r;
  }
}

// Cuts `text` into about `n` splits at line ends (the block store's splits are too).
std::vector<std::string> SplitLines(std::string_view text, size_t n) {
  std::vector<std::string> out;
  size_t pos = 0;
  for (size_t i = 1; i <= n && pos < text.size(); ++i) {
    size_t end = text.size();
    if (i < n) {
      size_t nl = text.find('\n', std::max(pos, text.size() * i / n));
      if (nl != std::string_view::npos) end = nl + 1;
    }
    out.emplace_back(text.substr(pos, end - pos));
    pos = end;
  }
  return out;
}

TEST(WordCount, GeneratedZipfTextMatchesTheReference) {
  TextOptions o;
  o.bytes = 6 << 20;
  o.vocabulary = 20000;
  o.seed = 11;
  std::string text = GenerateText(o);
  auto want = ReferenceWordCount(text);
  EXPECT_EQ(RunWordCount(SplitLines(text, 3), 16, 3, 2), want);
  EXPECT_EQ(RunWordCount({text}, 1, 1, 0), want);
}

TEST(WordCount, RealTextsMatchTheReference) {
  MRLOCAL_REQUIRE_DATASETS();
  const std::string dir = (testing::SharedDatasets() / "text").string() + "/";
  std::string text;
  const std::string cmd = "xz -dc '" + dir + "gcide.dict.xz' 2>/dev/null; cat '" + dir +
                          "kjv-bible.txt' '" + dir + "'gutenberg/*.txt '" + dir +
                          "'wikipedia/*.txt 2>/dev/null";
  if (FILE* f = popen(cmd.c_str(), "r")) {
    char buf[1 << 16];
    size_t n;
    while ((n = fread(buf, 1, sizeof buf, f)) > 0) text.append(buf, n);
    pclose(f);
  }
  if (text.empty()) GTEST_SKIP() << "no texts under " << dir;
  auto want = ReferenceWordCount(text);
  EXPECT_EQ(RunWordCount(SplitLines(text, 4), 8, 2, 1), want);
}

TEST(WordCount, AMapStopsWhenItsSlotSaysSo) {
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(1, 1, 1);
  TypedJobRuntime<apps::WordCount> rt(o);
  std::string text;
  while (text.size() < (5u << 20)) text += "some words on a line\n";
  MapInput in;
  in.pieces = {text};
  StopAt ctx(2);
  auto out = rt.RunMap(in, ctx);
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status().code(), Status::Code::kAborted);
}

}  // namespace
}  // namespace mrlocal
