// TypedJobRuntime with apps shaped like the project's other two: friend-count (integer
// keys, list values, a reduce that sorts and dedups) and Pi (no input data, driven by the
// task index). They show the App concept fits them; the real apps live in apps/.
#include "engine/typed_job.h"

#include <gtest/gtest.h>

#include <charconv>
#include <map>
#include <set>

#include "apps/wordcount.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using testing::StopAt;
using testing::StringSink;

// "user friend friend ..." per line -> user \t sorted distinct friends, comma-separated.
struct FriendLists {
  static constexpr std::string_view kName = "friendlists";
  static constexpr bool kTextInput = true;
  using Key = uint64_t;
  using Value = std::vector<uint64_t>;

  template <class Out>
  static void Map(std::string_view lines, Out& out) {
    size_t pos = 0;
    while (pos < lines.size()) {
      size_t nl = lines.find('\n', pos);
      if (nl == std::string_view::npos) nl = lines.size();
      std::vector<uint64_t> ids;
      const char* p = lines.data() + pos;
      const char* end = lines.data() + nl;
      while (p < end) {
        uint64_t v;
        auto r = std::from_chars(p, end, v);
        if (r.ec == std::errc()) ids.push_back(v);
        p = r.ptr == p ? p + 1 : r.ptr;
      }
      for (size_t i = 1; i < ids.size(); ++i) out.Emit(ids[0], ids[i]);
      pos = nl + 1;
    }
  }
  static void Combine(Value& into, uint64_t friend_id) { into.push_back(friend_id); }
  static void Merge(Value& into, const Value& other) {
    into.insert(into.end(), other.begin(), other.end());
  }
  static void Reduce(Key, Value& v) {
    std::sort(v.begin(), v.end());
    v.erase(std::unique(v.begin(), v.end()), v.end());
  }
  static uint64_t SizeUnits(Key, const Value& v) { return v.size(); }
  static void FormatKey(std::string& out, Key k) { out += std::to_string(k); }
  static void FormatValue(std::string& out, const Value& v) {
    for (size_t i = 0; i < v.size(); ++i) {
      if (i) out.push_back(',');
      out += std::to_string(v[i]);
    }
  }
  static double Score(Key, const Value& v) { return static_cast<double>(v.size()); }
};

// Pi-like: task t, chunk c emits deterministic "samples" into keys 0 (inside) and 1
// (outside); the value is a pair of counts. The app carries a parameter (chunks per task).
struct CountingPi {
  static constexpr std::string_view kName = "countingpi";
  static constexpr bool kTextInput = false;
  using Key = uint32_t;
  struct Value {
    uint64_t inside = 0, outside = 0;
  };
  uint64_t chunks = 3;

  template <class Out, class Checkpoint>
  bool Map(uint32_t task, Out& out, Checkpoint&& checkpoint) const {
    for (uint64_t chunk = 0; chunk < chunks; ++chunk) {
      for (uint64_t i = 0; i < 100; ++i) {
        bool inside = (task * 7 + chunk * 3 + i) % 4 != 0;
        out.Emit(inside ? 0u : 1u, inside);
      }
      if (!checkpoint(static_cast<double>(chunk + 1) / static_cast<double>(chunks))) return false;
    }
    return true;
  }
  static void Combine(Value& v, bool inside) { ++(inside ? v.inside : v.outside); }
  static void Merge(Value& into, const Value& o) {
    into.inside += o.inside;
    into.outside += o.outside;
  }
  static void Reduce(Key, Value&) {}
  static uint64_t SizeUnits(Key, const Value&) { return 1; }
  static void FormatKey(std::string& out, Key k) { out += k == 0 ? "inside" : "outside"; }
  static void FormatValue(std::string& out, const Value& v) {
    out += std::to_string(v.inside);
    out.push_back(',');
    out += std::to_string(v.outside);
  }
  static double Score(Key, const Value& v) { return static_cast<double>(v.inside + v.outside); }
};

static_assert(TypedApp<apps::WordCount>);
static_assert(TypedApp<FriendLists>);
static_assert(TypedApp<CountingPi>);

template <class App>
std::string RunJob(const TypedJobRuntime<App>& rt, const std::vector<MapInput>& inputs, uint32_t p,
                   uint32_t R, std::vector<ReduceResult>* results = nullptr) {
  UnthrottledContext ctx;
  std::vector<std::unique_ptr<MapOutput>> outs;
  for (auto& in : inputs) {
    auto out = rt.RunMap(in, ctx);
    EXPECT_TRUE(out.ok()) << out.status().message();
    outs.push_back(std::move(out).value());
  }
  std::vector<const MapOutput*> ptrs;
  for (auto& o : outs) ptrs.push_back(o.get());
  ReducePlan plan;
  plan.route = MakePartitionHashes(2, p, 5)[1];
  for (uint32_t i = 0; i < p; ++i) plan.owner.push_back(i % R);
  std::string all;
  for (uint32_t r = 0; r < R; ++r) {
    StringSink sink;
    auto res = rt.RunReduce(ptrs, plan, r, &sink, ctx);
    EXPECT_TRUE(res.ok());
    all += sink.text;
    if (results) results->push_back(*res);
  }
  return all;
}

std::map<std::string, std::string> Lines(const std::string& text) {
  std::map<std::string, std::string> m;
  size_t pos = 0;
  while (pos < text.size()) {
    size_t nl = text.find('\n', pos);
    std::string line = text.substr(pos, nl - pos);
    size_t tab = line.find('\t');
    EXPECT_TRUE(m.emplace(line.substr(0, tab), line.substr(tab + 1)).second) << line;
    pos = nl + 1;
  }
  return m;
}

MapInput Text(std::string_view s) {
  MapInput in;
  in.pieces = {s};
  in.source = "test";
  return in;
}

TEST(TypedJob, IntegerKeysAndListValuesSortAndDedupInReduce) {
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(2, 8, 1);
  TypedJobRuntime<FriendLists> rt(o);
  std::string a = "1 5 3 5\n2 1\n10 4\n", b = "1 3 2\n2 9 1\n";
  for (uint32_t R : {1u, 3u}) {
    std::vector<ReduceResult> results;
    auto got = Lines(RunJob(rt, {Text(a), Text(b)}, 8, R, &results));
    std::map<std::string, std::string> want = {{"1", "2,3,5"}, {"2", "1,9"}, {"10", "4"}};
    EXPECT_EQ(got, want);
  }
}

TEST(TypedJob, IntegerKeysSortNumerically) {
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(1, 1, 1);
  TypedJobRuntime<FriendLists> rt(o);
  EXPECT_EQ(RunJob(rt, {Text("10 1\n9 1\n100 2\n")}, 1, 1), "9\t1\n10\t1\n100\t2\n");
}

TEST(TypedJob, IndexDrivenMapsCheckpointAfterEveryChunk) {
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(3, 4, 1);
  TypedJobRuntime<CountingPi> rt(o, CountingPi{.chunks = 5});
  UnthrottledContext ctx;
  MapInput in;
  in.task_index = 2;
  auto out = rt.RunMap(in, ctx);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(ctx.checkpoints, 5);
  EXPECT_EQ((*out)->records(), 2u);
  EXPECT_EQ((*out)->size_units(), 2u);
  std::vector<MapInput> tasks(4);
  for (uint32_t t = 0; t < 4; ++t) tasks[t].task_index = t;
  auto got = Lines(RunJob(rt, tasks, 4, 2));
  EXPECT_EQ(got["inside"], "1500,0");  // 4 tasks x 5 chunks x 100 samples, 3 in 4 inside
  EXPECT_EQ(got["outside"], "0,500");
}

TEST(TypedJob, NullSinkDoesTheSameWork) {
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(1, 1, 1);
  TypedJobRuntime<apps::WordCount> rt(o);
  UnthrottledContext ctx;
  auto out = rt.RunMap(Text("b a c a b a\n"), ctx);
  ASSERT_TRUE(out.ok());
  const MapOutput* maps[] = {out->get()};
  ReducePlan plan{MakePartitionHashes(1, 1, 1)[0], {0}};
  StringSink sink;
  auto with = rt.RunReduce(maps, plan, 0, &sink, ctx);
  auto without = rt.RunReduce(maps, plan, 0, nullptr, ctx);
  ASSERT_TRUE(with.ok() && without.ok());
  EXPECT_EQ(sink.text, "a\t3\nb\t2\nc\t1\n");
  EXPECT_EQ(with->bytes_out, sink.text.size());
  EXPECT_EQ(without->bytes_out, with->bytes_out);
  EXPECT_EQ(without->keys_out, 3u);
}

TEST(TypedJob, TopNIsByScoreThenKey) {
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(1, 1, 1);
  o.top_n = 3;
  TypedJobRuntime<apps::WordCount> rt(o);
  std::vector<ReduceResult> results;
  RunJob(rt, {Text("d d c c b b a e e e\n")}, 1, 1, &results);
  ASSERT_EQ(results[0].top.size(), 3u);
  EXPECT_EQ(results[0].top[0].key, "e");
  EXPECT_EQ(results[0].top[0].value, "3");
  EXPECT_EQ(results[0].top[0].score, 3.0);
  EXPECT_EQ(results[0].top[1].key, "b");
  EXPECT_EQ(results[0].top[2].key, "c");
}

// When every key ties (each word once), the top N are the N first keys in byte order,
// whichever order the table holds them in.
TEST(TypedJob, TopNOfKeysThatAllTieIsTheFirstKeysInByteOrder) {
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(1, 1, 1);
  o.top_n = 3;
  TypedJobRuntime<apps::WordCount> rt(o);
  std::string text;
  for (int i = 999; i >= 0; --i) {  // 1000 distinct three-letter words, last first
    for (int d : {1, 10, 100}) text += static_cast<char>('a' + (i / d) % 10);
    text += ' ';
  }
  std::vector<ReduceResult> results;
  RunJob(rt, {Text(text + "\n")}, 1, 1, &results);
  ASSERT_EQ(results[0].top.size(), 3u);
  EXPECT_EQ(results[0].top[0].key, "aaa");
  EXPECT_EQ(results[0].top[1].key, "aab");
  EXPECT_EQ(results[0].top[2].key, "aac");
  EXPECT_EQ(results[0].top[2].value, "1");
}

TEST(TypedJob, AReduceStopsWhenItsSlotSaysSo) {
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(1, 1, 1);
  TypedJobRuntime<apps::WordCount> rt(o);
  std::string text;
  for (int i = 0; i < 20000; ++i) {  // 17576 distinct words: several checkpoints' worth
    for (int d : {1, 26, 676}) text.push_back(static_cast<char>('a' + (i / d) % 26));
    text.push_back(' ');
  }
  UnthrottledContext ok;
  auto out = rt.RunMap(Text(text), ok);
  ASSERT_TRUE(out.ok());
  const MapOutput* maps[] = {out->get()};
  ReducePlan plan{MakePartitionHashes(1, 1, 1)[0], {0}};
  StopAt stop(2);
  auto res = rt.RunReduce(maps, plan, 0, nullptr, stop);
  ASSERT_FALSE(res.ok());
  EXPECT_EQ(res.status().code(), Status::Code::kAborted);
}

TEST(TypedJob, ALongLineIsCutAtSeparatorsForCheckpoints) {
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(1, 1, 1);
  TypedJobRuntime<apps::WordCount> rt(o);
  std::string line;
  while (line.size() < (5u << 20)) line += "alpha beta gamma ";
  line += "\n";
  UnthrottledContext ctx;
  auto out = rt.RunMap(Text(line), ctx);
  ASSERT_TRUE(out.ok());
  EXPECT_GE(ctx.checkpoints, 5);
  EXPECT_EQ((*out)->records(), 3u);
}

}  // namespace
}  // namespace mrlocal
