// Friend-count as a user runs it: exact output against an independent reference on
// hand-made and real graphs (plain and gzip), every job shape, and bad records reported
// with file:line (or skipped and counted with --skip-bad-records).
#include "apps/friendcount.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <numeric>
#include <sstream>

#include "engine/typed_job.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::ExpectUsageError;
using testing::KeyOrder;
using testing::ReadJobOutput;
using testing::ReadMaybeGzip;
using testing::ReferenceFriends;
using testing::RunMrlocal;
using testing::ScratchDir;
using testing::WriteFile;
using testing::WriteGzip;

using Output = std::map<std::string, std::string>;

Output Counts(const std::map<uint64_t, std::set<uint64_t>>& friends) {
  Output out;
  for (auto& [u, f] : friends) out[std::to_string(u)] = std::to_string(f.size());
  return out;
}

Output Lists(const std::map<uint64_t, std::set<uint64_t>>& friends) {
  Output out;
  for (auto& [u, f] : friends) {
    std::string s;
    for (uint64_t v : f) s += (s.empty() ? "" : ",") + std::to_string(v);
    out[std::to_string(u)] = s;
  }
  return out;
}

// One line, saying what is wrong, and nothing else on stderr.

// Self-loops, an edge repeated and given in both directions, CRLF, comments, tabs and
// runs of spaces, blank lines, leading blanks, no newline at the end.
constexpr std::string_view kHandMade =
    "# a comment\r\n"
    "1 2\r\n"
    "2 1\n"
    "1\t\t2\n"
    "3 3\n"
    "  1   3  \n"
    "\n"
    "   \t\n"
    "# 9 9\n"
    "4\t1\r\n"
    "18446744073709551615 0\n"
    "5 5\n"
    "2 4";

class FriendCountCli : public ::testing::Test {
 protected:
  ScratchDir dir_;
  std::string P(const std::string& name) { return (dir_ / name).string(); }

  Output Run(std::vector<std::string> args, KeyOrder order = KeyOrder::kNumeric) {
    args.insert(args.begin(), "friendcount");
    args.insert(args.end(), {"-o", P("out"), "--overwrite", "-q"});
    auto r = RunMrlocal(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_TRUE(fs::exists(dir_ / "out" / "_SUCCESS"));
    return ReadJobOutput(dir_ / "out", order);
  }
};

TEST_F(FriendCountCli, HandMadeGraphGivesDistinctFriendsWithoutSelfLoops) {
  WriteFile(dir_ / "g.txt", kHandMade);
  // Worked by hand: 1-2 (three times), 1-3, 4-1, max-0, 2-4; 3-3 and 5-5 are self-loops,
  // so 5 has no friend at all and 3 has only 1.
  Output want_counts = {{"0", "1"}, {"1", "3"}, {"2", "2"},
                        {"3", "1"}, {"4", "2"}, {"18446744073709551615", "1"}};
  Output want_lists = {
      {"0", "18446744073709551615"}, {"1", "2,3,4"}, {"2", "1,4"}, {"3", "1"}, {"4", "1,2"},
      {"18446744073709551615", "0"}};
  EXPECT_EQ(Run({P("g.txt")}), want_counts);
  EXPECT_EQ(Run({P("g.txt"), "--list"}), want_lists);
  EXPECT_EQ(want_counts, Counts(ReferenceFriends(kHandMade)));
}

TEST_F(FriendCountCli, SameOutputForEveryShapeOfTheJob) {
  // A skewed graph: node 0 is everybody's friend, so one key's list dominates.
  std::string edges;
  for (uint64_t i = 1; i < 3000; ++i) {
    edges += "0 " + std::to_string(i) + "\n";
    edges += std::to_string(i) + "\t" + std::to_string((i * 7919) % 3001) + "\n";
    if (i % 5 == 0) edges += std::to_string(i) + " " + std::to_string(i) + "\n";
  }
  WriteFile(dir_ / "g.txt", edges);
  const Output want = Lists(ReferenceFriends(edges));
  std::vector<std::vector<std::string>> shapes = {
      {"--reduces", "1"},
      {"--reduces", "3", "--partitions", "3", "--partitioner", "hash"},
      {"--reduces", "2", "--partitions", "13", "--partitioner", "dp-sketch", "--sketch-rows", "6"},
      {"--reduces", "4", "--partitioner", "lb"},
      {"--reduces", "2", "--partitioner", "dp", "--block-size", "1000"},  // lines straddle
      {"--block-size", "37", "--cluster", "1x(2m,1r,1.0)+1x(1m,2r,0.5)"},
  };
  for (auto& shape : shapes) {
    std::vector<std::string> args = {P("g.txt"), "--list"};
    args.insert(args.end(), shape.begin(), shape.end());
    EXPECT_EQ(Run(args), want) << shape[0] << " " << shape[1];
  }
}

TEST_F(FriendCountCli, GzipFilesReadTransparentlyAsOneSplit) {
  std::string edges;
  for (int i = 0; i < 20000; ++i)
    edges += std::to_string(i % 977) + " " + std::to_string((i * 31) % 1013) + "\r\n";
  WriteGzip(dir_ / "g.txt.gz", edges, /*members=*/3);  // concatenated members, as zcat reads
  WriteFile(dir_ / "h.txt", kHandMade);
  auto r = RunMrlocal({"friendcount", P("g.txt.gz"), P("h.txt"), "-o", P("out"), "--block-size",
                       "4KiB", "--report", P("rep")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadJobOutput(dir_ / "out", KeyOrder::kNumeric),
            Counts(ReferenceFriends(edges + "\n" + std::string(kHandMade))));
  // One map task for the gzip file, whatever its number of blocks, plus one for h.txt.
  EXPECT_NE(r.out.find("in 2 map tasks"), std::string::npos) << r.out;
}

TEST_F(FriendCountCli, BadRecordsStopTheJobWithFileAndLine) {
  struct Case {
    std::string line, why;
  };
  std::vector<Case> cases = {
      {"3 x", "destination id is not a non-negative integer"},
      {"a 3", "source id is not a non-negative integer"},
      {"3", "missing the destination id"},
      {"18446744073709551616 1", "does not fit in 64 bits"},
      {"-1 2", "source id is not a non-negative integer"},
      {"1 2 3", "more than two fields"},
      {"1,2", "source id is not a non-negative integer"},
  };
  for (auto& c : cases) {
    WriteFile(dir_ / "g.txt", "# header\n1 2\n\n" + c.line + "\n4 5\n");
    auto r = RunMrlocal({"friendcount", P("g.txt"), "-o", P("out"), "-q"});
    ExpectUsageError(r, P("g.txt") + ":4: bad edge");
    EXPECT_NE(r.err.find(c.why), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir_ / "out")) << c.line;
    EXPECT_EQ(std::distance(fs::directory_iterator(dir_.path()), fs::directory_iterator()), 1)
        << "a temporary was left behind";
  }
}

TEST_F(FriendCountCli, TheLineNumberCountsFromTheStartOfTheFileInAnyBlock) {
  std::string edges;
  for (int i = 1; i < 5000; ++i) edges += std::to_string(i) + " " + std::to_string(i + 1) + "\n";
  WriteFile(dir_ / "g.txt", edges + "12 oops\n" + edges);
  auto r = RunMrlocal({"friendcount", P("g.txt"), "--block-size", "4KiB", "-q"});
  ExpectUsageError(r, P("g.txt") + ":5000: bad edge");
  WriteGzip(dir_ / "g.txt.gz", edges + "12 oops\n" + edges, 2);
  r = RunMrlocal({"friendcount", P("g.txt.gz"), "--block-size", "4KiB", "-q"});
  ExpectUsageError(r, P("g.txt.gz") + ":5000: bad edge");
}

TEST_F(FriendCountCli, SkipBadRecordsCountsThemAndKeepsTheRest) {
  std::string good = "1 2\n2 3\n", text = "1 2\nx y\n2 3\n7\n99999999999999999999 1\n";
  WriteFile(dir_ / "g.txt", text);
  auto r = RunMrlocal({"friendcount", P("g.txt"), "--skip-bad-records", "-o", P("out"), "-q",
                       "--report", P("rep")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadJobOutput(dir_ / "out", KeyOrder::kNumeric), Counts(ReferenceFriends(good)));
  EXPECT_NE(r.out.find("skipped   3 bad input records"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("skipped 3 bad record(s)"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(P("g.txt") + ":2: bad edge"), std::string::npos) << r.err;
  EXPECT_NE(testing::ReadFile(dir_ / "rep" / "metrics.json").find("\"skipped_records\": 3"),
            std::string::npos);
}

TEST_F(FriendCountCli, CorruptOrTruncatedGzipIsAnErrorWithNothingWritten) {
  WriteFile(dir_ / "plain.gz", "1 2\n3 4\n");  // not gzip at all
  auto r = RunMrlocal({"friendcount", P("plain.gz"), "-o", P("out"), "-q"});
  ExpectUsageError(r, "not valid gzip data");
  EXPECT_FALSE(fs::exists(dir_ / "out"));

  std::string edges;
  for (int i = 0; i < 50000; ++i) edges += std::to_string(i) + " " + std::to_string(i * 3) + "\n";
  WriteGzip(dir_ / "full.gz", edges);
  std::string bytes = testing::ReadFile(dir_ / "full.gz");
  WriteFile(dir_ / "cut.gz", bytes.substr(0, bytes.size() / 2));
  r = RunMrlocal({"friendcount", P("cut.gz"), "-o", P("out"), "-q"});
  ExpectUsageError(r, "unexpected end of gzip data");
  EXPECT_FALSE(fs::exists(dir_ / "out"));
}

TEST_F(FriendCountCli, NoEdgeFileIsAUsageError) {
  auto r = RunMrlocal({"friendcount"});
  ExpectUsageError(r, "EDGEFILE");
}

TEST_F(FriendCountCli, FacebookEgoNetworksMatchTheReference) {
  MRLOCAL_REQUIRE_DATASETS();
  fs::path file = testing::SharedDatasets() / "graphs" / "facebook_combined.txt";
  Output got = Run({file.string(), "--block-size", "128KiB"});
  Output want = Counts(ReferenceFriends(ReadMaybeGzip(file)));
  EXPECT_EQ(got, want);
  EXPECT_EQ(got.size(), 4039u);
  EXPECT_EQ(got["107"], "1045");
}

TEST_F(FriendCountCli, SlashdotGzipMatchesTheReference) {
  MRLOCAL_REQUIRE_DATASETS();
  fs::path file = testing::SharedDatasets() / "graphs" / "soc-Slashdot0902.txt.gz";
  auto r = RunMrlocal({"friendcount", file.string(), "-o", P("out"), "--top", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  Output got = ReadJobOutput(dir_ / "out", KeyOrder::kNumeric);
  std::string text = ReadMaybeGzip(file);
  EXPECT_EQ(got, Counts(ReferenceFriends(text)));
  EXPECT_EQ(got.size(), 82168u);
  uint64_t max = 0, self_loops = 0;
  for (auto& [u, n] : got) max = std::max<uint64_t>(max, std::stoull(n));
  EXPECT_EQ(max, 2552u);
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    uint64_t u, v;
    if (line[0] != '#' && std::istringstream(line) >> u >> v && u == v) ++self_loops;
  }
  EXPECT_EQ(self_loops, 78303u);  // all of them dropped: the counts above match
  EXPECT_NE(r.out.find("2494  2552"), std::string::npos) << r.out;  // the top user
}

// The map side: the combiner leaves one sorted, de-duplicated list per user and map task,
// and the partition statistics measure those lists' lengths.
TEST(FriendCountApp, MapOutputIsOneDedupedListPerUserSizedByItsLength) {
  JobRuntimeOptions o;
  o.hashes = MakePartitionHashes(2, 4, 1);
  TypedJobRuntime<apps::FriendCount> rt(o);
  MapInput in;
  in.pieces = {"1 2\n2 1\n1 2\n1 3\n4 4\n"};
  in.source = "test";
  UnthrottledContext ctx;
  auto out = rt.RunMap(in, ctx);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ((*out)->records(), 3u);     // users 1, 2, 3 (4 has only a self-loop)
  EXPECT_EQ((*out)->size_units(), 4u);  // 1: {2,3}; 2: {1}; 3: {1}
  for (int row = 0; row < 2; ++row) {
    auto cells = (*out)->sketch().Row(row);
    EXPECT_EQ(std::accumulate(cells.begin(), cells.end(), uint64_t{0}), 4u);
  }
}

// Repeated edges take the memory of the distinct friends, not of the lines: a gzip bomb
// of one edge repeated is not a list of that many ids. 100,000 ids of 100 distinct
// friends keep the list within one growth of the de-duplication threshold, and the user's
// friends are still the 100.
TEST(FriendCountApp, RepeatedEdgesDoNotGrowTheFriendList) {
  apps::FriendCount::Value friends;
  for (int repeat = 0; repeat < 1000; ++repeat)
    for (uint64_t v = 0; v < 100; ++v) apps::FriendCount::Combine(friends, v);
  EXPECT_LE(friends.capacity(), 2 * apps::FriendCount::kDedupFrom);
  apps::FriendCount::FinishMap(0, friends);
  std::vector<uint64_t> expected(100);
  std::iota(expected.begin(), expected.end(), 0);
  EXPECT_EQ(friends, expected);
}

}  // namespace
}  // namespace mrlocal
