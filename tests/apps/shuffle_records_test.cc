// A reduce task whose map outputs are held by other processes (issue 18): records sent as
// bytes (EncodeEntries, then RunReduce's ShuffleSource) give the same output, byte for byte,
// as the reduce that reads every map output from memory, for each kind of key and value.
#include "engine/shuffle_records.h"

#include <gtest/gtest.h>

#include <deque>

#include "apps/friendcount.h"
#include "apps/pi.h"
#include "apps/wordcount.h"
#include "datasets/text_generator.h"
#include "engine/typed_job.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::StringSink;

class ChunkSource final : public ShuffleSource {
 public:
  explicit ChunkSource(std::deque<std::string> chunks) : chunks_(std::move(chunks)) {}
  Result<std::string> Next() override {
    if (chunks_.empty()) return std::string();
    std::string c = std::move(chunks_.front());
    chunks_.pop_front();
    return c;
  }

 private:
  std::deque<std::string> chunks_;
};

struct Outputs {
  std::vector<std::unique_ptr<MapOutput>> maps;
  ReducePlan plan;
};

Outputs RunMaps(const JobRuntime& rt, const JobRuntimeOptions& o, const std::vector<MapInput>& in,
                uint32_t reduces) {
  Outputs out;
  UnthrottledContext ctx;
  for (const MapInput& i : in) {
    auto m = rt.RunMap(i, ctx);
    EXPECT_TRUE(m.ok()) << m.status().message();
    out.maps.push_back(std::move(m).value());
  }
  out.plan.route = o.hashes[0];
  for (uint32_t p = 0; p < o.hashes[0].partitions; ++p) out.plan.owner.push_back(p % reduces);
  return out;
}

// Reduce `r` with every map output in memory, and with the maps from `first_remote` on sent
// as chunks of about `chunk` bytes.
void ExpectSameOutput(const JobRuntime& rt, const Outputs& o, uint32_t reduces, size_t first_remote,
                      size_t chunk) {
  UnthrottledContext ctx;
  for (uint32_t r = 0; r < reduces; ++r) {
    std::vector<const MapOutput*> all, local;
    std::deque<std::string> chunks;
    for (size_t m = 0; m < o.maps.size(); ++m) {
      all.push_back(o.maps[m].get());
      local.push_back(m < first_remote ? o.maps[m].get() : nullptr);
      if (m < first_remote) continue;
      uint64_t cursor = 0;
      for (bool done = false; !done;) {
        std::string bytes;
        done = rt.EncodeEntries(*o.maps[m], o.plan, r, &cursor, chunk, &bytes);
        if (!bytes.empty()) chunks.push_back(std::move(bytes));
      }
    }
    StringSink in_memory, shipped;
    auto a = rt.RunReduce(all, o.plan, r, &in_memory, ctx);
    ChunkSource source(std::move(chunks));
    auto b = rt.RunReduce(local, o.plan, r, &shipped, ctx, &source);
    ASSERT_TRUE(a.ok() && b.ok()) << b.status().message();
    EXPECT_EQ(in_memory.text, shipped.text) << "reduce " << r;
    EXPECT_EQ(a->records_in, b->records_in);
    EXPECT_EQ(a->keys_out, b->keys_out);
    EXPECT_FALSE(in_memory.text.empty());
  }
}

std::vector<MapInput> TextSplits(const std::vector<std::string>& texts) {
  std::vector<MapInput> in;
  for (const auto& t : texts) {
    MapInput i;
    i.pieces = {t};
    in.push_back(i);
  }
  return in;
}

TEST(ShuffleRecords, WordCountShippedEqualsInMemory) {
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(2, 16, 7);
  TypedJobRuntime<apps::WordCount> rt(o);
  std::vector<std::string> texts;
  for (uint64_t seed = 1; seed <= 4; ++seed) {
    TextOptions t;
    t.bytes = 200'000;
    t.seed = seed;
    texts.push_back(GenerateText(t));
  }
  Outputs out = RunMaps(rt, o, TextSplits(texts), 3);
  ExpectSameOutput(rt, out, 3, 1, 1 << 20);  // one chunk per map
  ExpectSameOutput(rt, out, 3, 0, 64);       // every map remote, chunks of one record or few
}

TEST(ShuffleRecords, FriendCountListsShippedEqualInMemory) {
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(2, 8, 7);
  apps::FriendCount app;
  app.list = true;  // the whole friend lists, not only their lengths
  TypedJobRuntime<apps::FriendCount> rt(o, app);
  std::vector<std::string> texts(3);
  for (uint64_t u = 0; u < 3000; ++u)
    texts[u % 3] += std::to_string(u % 97) + "\t" + std::to_string((u * 7919) % 1000 + 1) + "\n";
  texts[0] += "18446744073709551615 0\n";  // the largest id
  Outputs out = RunMaps(rt, o, TextSplits(texts), 2);
  ExpectSameOutput(rt, out, 2, 1, 100);
}

TEST(ShuffleRecords, PiShippedEqualsInMemory) {
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(1, 1, 7);
  apps::Pi app;
  app.samples = 10'000;
  TypedJobRuntime<apps::Pi> rt(o, app);
  std::vector<MapInput> in(4);
  for (uint32_t i = 0; i < 4; ++i) in[i].task_index = i;
  Outputs out = RunMaps(rt, o, in, 1);
  ExpectSameOutput(rt, out, 1, 2, 3);
}

TEST(ShuffleRecords, AMalformedChunkIsCorruptionNotACrash) {
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(1, 4, 7);
  TypedJobRuntime<apps::WordCount> rt(o);
  Outputs out = RunMaps(rt, o, TextSplits({"a b c\n"}), 1);
  std::string good;
  uint64_t cursor = 0;
  rt.EncodeEntries(*out.maps[0], out.plan, 0, &cursor, 1 << 20, &good);
  const std::vector<std::string> bad = {
      std::string(1, '\x80'),  // a varint cut short
      std::string("\x05"
                  "ab",
                  3),              // a key longer than what is left
      std::string("\x00\x01", 2),  // an empty key
      std::string("\x01"
                  "a"
                  "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01",
                  13),                  // too long
      good.substr(0, good.size() - 1),  // the last value cut off
  };
  UnthrottledContext ctx;
  for (const std::string& b : bad) {
    ChunkSource source({b});
    auto r =
        rt.RunReduce(std::vector<const MapOutput*>{nullptr}, out.plan, 0, nullptr, ctx, &source);
    ASSERT_FALSE(r.ok());
    EXPECT_EQ(r.status().code(), Status::Code::kCorruption) << r.status().message();
  }
}

TEST(ShuffleRecords, IntegersRoundTripAtTheirLimits) {
  for (int64_t v : {int64_t{0}, int64_t{-1}, int64_t{1}, INT64_MIN, INT64_MAX}) {
    std::string s;
    shuffle::PutInt(s, v);
    std::string_view in = s;
    int64_t back = 7;
    ASSERT_TRUE(shuffle::GetInt(in, back));
    EXPECT_EQ(back, v);
    EXPECT_TRUE(in.empty());
  }
  std::string wide;
  shuffle::PutInt(wide, uint64_t{300});
  std::string_view in = wide;
  uint8_t narrow = 0;
  EXPECT_FALSE(shuffle::GetInt(in, narrow));  // 300 does not fit a uint8_t key
}

}  // namespace
}  // namespace mrlocal
