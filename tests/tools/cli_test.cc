// The mrlocal binary as a user runs it: output against the reference counter, exit codes,
// one-line errors, nothing written for bad input, the block store shell, reports.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>

#include "datasets/text_generator.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::ExpectUsageError;
using testing::ReadFile;
using testing::ReadJobOutput;
using testing::ReferenceWordCount;
using testing::RunMrlocal;
using testing::ScratchDir;
using testing::WriteFile;

std::map<std::string, std::string> AsStrings(const std::map<std::string, uint64_t>& m) {
  std::map<std::string, std::string> out;
  for (auto& [k, v] : m) out[k] = std::to_string(v);
  return out;
}

std::string ZipfText(uint64_t bytes, uint64_t seed) {
  TextOptions o;
  o.bytes = bytes;
  o.vocabulary = 5000;
  o.seed = seed;
  return GenerateText(o);
}

// One line, saying what is wrong, and nothing else on stderr.

class Cli : public ::testing::Test {
 protected:
  ScratchDir dir_;
  std::string P(const std::string& name) { return (dir_ / name).string(); }
};

TEST_F(Cli, WordCountOutputEqualsTheReferenceWithSuccessMarker) {
  std::string text = ZipfText(3 << 20, 1);
  WriteFile(dir_ / "in.txt", text);
  auto r = RunMrlocal({"wordcount", P("in.txt"), "-o", P("out"), "--block-size", "256KiB", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(dir_ / "out" / "_SUCCESS"));
  EXPECT_EQ(ReadFile(dir_ / "out" / "_SUCCESS"), "");
  EXPECT_EQ(ReadJobOutput(dir_ / "out"), AsStrings(ReferenceWordCount(text)));
  EXPECT_NE(r.out.find("SUCCEEDED"), std::string::npos);
}

TEST_F(Cli, SameOutputForEveryShapeOfTheJob) {
  std::string a = ZipfText(1 << 20, 2), b = ZipfText(700000, 3) + "no newline at the end";
  WriteFile(dir_ / "a.txt", a);
  WriteFile(dir_ / "b.txt", b);
  auto want = AsStrings(ReferenceWordCount(a + "\n" + b));
  // Word counts of two files are the sum over both files.
  want = AsStrings([&] {
    auto m = ReferenceWordCount(a);
    for (auto& [k, v] : ReferenceWordCount(b)) m[k] += v;
    return m;
  }());
  std::vector<std::vector<std::string>> shapes = {
      {"--reduces", "1"},
      {"--reduces", "3", "--partitions", "3", "--partitioner", "hash"},
      {"--reduces", "2", "--partitions", "17", "--partitioner", "dp-sketch", "--sketch-rows", "8"},
      {"--reduces", "4", "--partitioner", "lb"},
      {"--reduces", "2", "--partitioner", "dp"},
      {"--block-size", "1000"},
      {"--block-size", "64KiB", "--cluster", "2x(4m,1r,1.0)+1x(2m,1r,0.5)"},
      {"--cluster", "1x(1m,1r,0.25)", "--block-size", "512KiB", "--no-pin"},
  };
  int i = 0;
  for (auto& shape : shapes) {
    std::vector<std::string> args = {"wordcount", P("a.txt"), P("b.txt"),
                                     "-q",        "-o",       P("out" + std::to_string(i++))};
    args.insert(args.end(), shape.begin(), shape.end());
    auto r = RunMrlocal(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(ReadJobOutput(args[5]), want) << shape[0] << " " << shape[1];
  }
}

TEST_F(Cli, RealTextsMatchTheReference) {
  MRLOCAL_REQUIRE_DATASETS();
  fs::path text = testing::SharedDatasets() / "text";
  std::vector<std::string> args = {"wordcount", "-q", "-o", P("out"), "--block-size", "1MiB"};
  std::map<std::string, uint64_t> want;
  std::vector<fs::path> files = {text / "kjv-bible.txt",
                                 text / "wikipedia" / "wikitext-2-valid.txt"};
  for (auto& e : fs::directory_iterator(text / "gutenberg")) files.push_back(e.path());
  for (auto& f : files) {
    args.push_back(f.string());
    for (auto& [k, v] : ReferenceWordCount(ReadFile(f))) want[k] += v;
  }
  auto r = RunMrlocal(args);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadJobOutput(dir_ / "out"), AsStrings(want));
}

TEST_F(Cli, GzipTextIsReadTransparentlyFromFilesAndTheStore) {
  std::string text = ZipfText(2 << 20, 9);
  testing::WriteGzip(dir_ / "in.txt.gz", text, 2);
  auto r = RunMrlocal({"wordcount", P("in.txt.gz"), "-o", P("out"), "--block-size", "64KiB", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadJobOutput(dir_ / "out"), AsStrings(ReferenceWordCount(text)));
  EXPECT_NE(r.out.find("in 1 map task on"), std::string::npos) << r.out;  // not splittable

  auto put = RunMrlocal(
      {"fs", "--store", P("st"), "put", P("in.txt.gz"), "/in.txt.gz", "--block-size", "64KiB"});
  ASSERT_EQ(put.exit_code, 0) << put.err;
  r = RunMrlocal({"wordcount", "--store", P("st"), "/in.txt.gz", "-o", P("out2"), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(ReadJobOutput(dir_ / "out2"), AsStrings(ReferenceWordCount(text)));
}

TEST_F(Cli, EdgeCaseInputs) {
  std::string garbage(300000, '\0');
  std::mt19937 rng(7);
  for (auto& c : garbage) c = static_cast<char>(rng());
  std::vector<std::pair<std::string, std::string>> inputs = {
      {"empty", ""},
      {"no-words", "1234 ... !!! \n\n\t 42\r\n"},
      {"crlf", "Hello World\r\nhello world\r\n"},
      {"one-10mb-line", "start " + std::string(10 << 20, 'z') + " stop"},
      {"garbage", garbage},
  };
  for (auto& [name, text] : inputs) {
    WriteFile(dir_ / name, text);
    auto r =
        RunMrlocal({"wordcount", P(name), "-q", "-o", P("out-" + name), "--block-size", "1MiB"});
    ASSERT_EQ(r.exit_code, 0) << name << ": " << r.err;
    EXPECT_TRUE(fs::exists(dir_ / ("out-" + name) / "_SUCCESS")) << name;
    EXPECT_EQ(ReadJobOutput(dir_ / ("out-" + name)), AsStrings(ReferenceWordCount(text))) << name;
  }
}

TEST_F(Cli, BadUsageIsOneLineExitTwoAndWritesNothing) {
  WriteFile(dir_ / "in.txt", "some words\n");
  fs::create_directory(dir_ / "full");
  WriteFile(dir_ / "full" / "x", "x");
  ASSERT_EQ(mkfifo(P("fifo").c_str(), 0644), 0);
  struct Case {
    std::vector<std::string> args;
    std::string says;
  };
  std::vector<Case> cases = {
      {{"wordcount", P("missing.txt")}, "missing.txt"},
      {{"wordcount", dir_.path().string()}, "directory"},
      {{"wordcount", P("fifo")}, "not a regular file"},
      {{"wordcount", P("in.txt"), "-o", P("full")}, "already exists"},
      {{"wordcount", P("in.txt"), "--cluster", "2x(4m,1r)"}, "--cluster"},
      {{"wordcount", P("in.txt"), "--cluster", "0x(1m,1r,1.0)"}, "--cluster"},
      {{"wordcount", P("in.txt"), "--cluster", "1x(1m,1r,1.5)"}, "speed"},
      {{"wordcount", P("in.txt"), "--deadline", "-3s"}, "positive"},
      {{"wordcount", P("in.txt"), "--deadline", "30"}, "unit"},
      {{"wordcount", P("in.txt"), "--deadline", "soon"}, "deadline"},
      {{"wordcount", P("in.txt"), "--reduces", "0"}, "--reduces"},
      {{"wordcount", P("in.txt"), "--reduces", "4", "--partitions", "2"}, "--partitions"},
      {{"wordcount", P("in.txt"), "--partitioner", "magic"}, "magic"},
      {{"wordcount", P("in.txt"), "--policy", "nope"}, "nope"},
      {{"wordcount", P("in.txt"), "--block-size", "0"}, "block-size"},
      {{"wordcount", P("in.txt"), "--block-size", "12 parsecs"}, "block-size"},
      {{"wordcount", "--no-such-flag"}, "no-such-flag"},
      {{"frobnicate"}, "frobnicate"},
  };
  for (auto& c : cases) {
    std::vector<std::string> args = c.args;
    if (std::find(args.begin(), args.end(), "-o") == args.end() && args[0] == "wordcount") {
      args.push_back("-o");
      args.push_back(P("out"));
    }
    auto r = RunMrlocal(args);
    ExpectUsageError(r, c.says);
    EXPECT_FALSE(fs::exists(dir_ / "out")) << args[1];
  }
  // Nothing was left beside the outputs either (no temporary directories).
  EXPECT_EQ(testing::EntryNames(dir_.path()), (std::set<std::string>{"fifo", "full", "in.txt"}));
}

TEST_F(Cli, AMissedDeadlineExitsThreeAndSaysByHowMuch) {
  WriteFile(dir_ / "in.txt", ZipfText(8 << 20, 4));
  auto r = RunMrlocal({"wordcount", P("in.txt"), "--deadline", "1ms", "--cluster", "1x(1m,1r,0.5)",
                       "-q", "--policy", "fifo"});  // no admission control: rtmr would reject it
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.out.find("MISSED by"), std::string::npos) << r.out;
  auto ok = RunMrlocal({"wordcount", P("in.txt"), "--deadline", "10m", "-q"});
  EXPECT_EQ(ok.exit_code, 0);
  EXPECT_NE(ok.out.find("MET with"), std::string::npos) << ok.out;
}

TEST_F(Cli, ReportWritesMetricsAndATrace) {
  WriteFile(dir_ / "in.txt", ZipfText(2 << 20, 5));
  auto r = RunMrlocal({"wordcount", P("in.txt"), "-q", "--report", P("rep"), "--deadline", "1m",
                       "--block-size", "256KiB"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string m = ReadFile(dir_ / "rep" / "metrics.json");
  for (const char* key :
       {"\"app\"", "\"input_bytes\"", "\"maps\"", "\"reduces\"", "\"partitions\"", "\"deadline_s\"",
        "\"elapsed_s\"", "\"map_phase_s\"", "\"reduce_phase_s\"", "\"met_deadline\": true",
        "\"throughput_mb_s\"", "\"skewness\"", "\"balance\"", "\"scheduler\"", "\"decisions\"",
        "\"decision_latency_us\"", "\"dispatch_latency_us\"", "\"p50\"", "\"p99\""})
    EXPECT_NE(m.find(key), std::string::npos) << key;
  std::string t = ReadFile(dir_ / "rep" / "trace.json");
  EXPECT_NE(t.find("\"traceEvents\""), std::string::npos);
  EXPECT_NE(t.find("\"ph\":\"X\""), std::string::npos) << "task slices";
  EXPECT_NE(t.find("\"ph\":\"i\""), std::string::npos) << "decision instants";
  EXPECT_NE(t.find("map slot 0"), std::string::npos) << "slot tracks";
  for (const char* f : {"metrics.json", "trace.json"})
    EXPECT_TRUE(nlohmann::json::accept(ReadFile(dir_ / "rep" / f))) << f << " is not valid JSON";
  // The same files as a workload's report, one row for the job.
  for (const char* f : {"jobs.csv", "tasks.csv", "gantt.svg"})
    EXPECT_TRUE(fs::exists(dir_ / "rep" / f)) << f;
  const std::string jobs = ReadFile(dir_ / "rep" / "jobs.csv");
  EXPECT_EQ(std::count(jobs.begin(), jobs.end(), '\n'), 2) << jobs;
  auto none = RunMrlocal({"wordcount", P("in.txt"), "-q", "--report", P("rep2")});
  EXPECT_NE(ReadFile(dir_ / "rep2" / "metrics.json").find("\"deadline_s\": null"),
            std::string::npos);
}

// A single job is a workload of one job: its metrics.json has a workload's keys.
TEST_F(Cli, OneJobsMetricsHaveAWorkloadsKeys) {
  WriteFile(dir_ / "in.txt", ZipfText(1 << 20, 5));
  auto one = RunMrlocal({"wordcount", P("in.txt"), "-q", "--report", P("one")});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  auto many = RunMrlocal(
      {"workload", "--preset", "mars-random", "--jobs", "3", "--sim", "--report", P("many")});
  ASSERT_EQ(many.exit_code, 0) << many.err;
  auto keys = [](const nlohmann::ordered_json& o) {
    std::vector<std::string> k;
    for (auto it = o.begin(); it != o.end(); ++it) k.push_back(it.key());
    return k;
  };
  const auto a = nlohmann::ordered_json::parse(ReadFile(dir_ / "one" / "metrics.json"));
  const auto b = nlohmann::ordered_json::parse(ReadFile(dir_ / "many" / "metrics.json"));
  EXPECT_EQ(keys(a), keys(b));
  ASSERT_EQ(a.at("per_job").size(), 1u);
  ASSERT_EQ(b.at("per_job").size(), 3u);
  EXPECT_EQ(keys(a.at("per_job")[0]), keys(b.at("per_job")[0]));
  EXPECT_EQ(a.at("jobs"), 1);
  EXPECT_EQ(a.at("per_job")[0].at("app"), "wordcount");
  EXPECT_EQ(a.at("sim"), false);
}

TEST_F(Cli, StoreShellAndJobsReadingFromTheStore) {
  std::string text = ZipfText(600000, 6);
  WriteFile(dir_ / "in.txt", text);
  std::string store = P("store");
  ASSERT_EQ(RunMrlocal({"fs", "--store", store, "put", P("in.txt"), "/in.txt", "--block-size",
                        "64KiB", "--nodes", "3"})
                .exit_code,
            0);
  auto ls = RunMrlocal({"fs", "--store", store, "ls"});
  EXPECT_EQ(ls.exit_code, 0);
  EXPECT_NE(ls.out.find("/in.txt"), std::string::npos);
  EXPECT_NE(ls.out.find("-r--r--r--   3 "), std::string::npos) << ls.out;
  auto cat = RunMrlocal({"fs", "--store", store, "cat", "/in.txt"});
  EXPECT_EQ(cat.out, text);
  EXPECT_EQ(RunMrlocal({"fs", "--store", store, "fsck"}).exit_code, 0);

  // Flip a byte in the replicas of one block on nodes 0 and 1, where the default cluster's
  // slots run (node 2 keeps a good one): the job still counts right and says so.
  fs::path victim;
  for (auto& e : fs::directory_iterator(fs::path(store) / "node-0")) victim = e.path();
  for (const char* node : {"node-0", "node-1"}) {
    std::fstream f(fs::path(store) / node / victim.filename(),
                   std::ios::in | std::ios::out | std::ios::binary);
    f.seekp(100);
    f.put('#');
  }
  auto fsck = RunMrlocal({"fs", "--store", store, "fsck"});
  EXPECT_NE(fsck.exit_code, 0);
  EXPECT_NE(fsck.out.find("failed its checksum"), std::string::npos) << fsck.out;
  EXPECT_NE(fsck.out.find("CORRUPT"), std::string::npos);
  auto job = RunMrlocal({"wordcount", "--store", store, "/in.txt", "-q", "-o", P("out"),
                         "--cluster", "2x(1m,1r,1.0)"});
  ASSERT_EQ(job.exit_code, 0) << job.err;
  EXPECT_NE(job.err.find("failed its checksum"), std::string::npos) << job.err;
  EXPECT_EQ(ReadJobOutput(dir_ / "out"), AsStrings(ReferenceWordCount(text)));

  // Every replica of that block bad: a clear error, and no output at all.
  std::string id = victim.filename().string();
  for (auto& e : fs::directory_iterator(store))
    if (e.is_directory()) fs::remove(e.path() / id);
  auto bad = RunMrlocal({"wordcount", "--store", store, "/in.txt", "-q", "-o", P("out2")});
  EXPECT_EQ(bad.exit_code, 2) << bad.err;
  EXPECT_NE(bad.err.find("replicas are corrupt or missing"), std::string::npos) << bad.err;
  EXPECT_FALSE(fs::exists(dir_ / "out2"));
  for (auto& e : fs::directory_iterator(dir_.path()))
    EXPECT_EQ(e.path().filename().string().find(".out2"), std::string::npos) << e.path();

  EXPECT_EQ(RunMrlocal({"fs", "--store", store, "rm", "/in.txt"}).exit_code, 0);
  EXPECT_EQ(RunMrlocal({"fs", "--store", store, "cat", "/in.txt"}).exit_code, 2);
  ExpectUsageError(RunMrlocal({"fs", "--store", P("nothing"), "ls"}), "no mrlocal store");
}

TEST_F(Cli, VersionNamesTheAllocator) {
  auto r = RunMrlocal({"--version"});
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_NE(r.out.find("mrlocal"), std::string::npos);
  EXPECT_NE(r.out.find("allocator:"), std::string::npos);
#if !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
  EXPECT_NE(r.out.find("mimalloc 2."), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("serving malloc and new"), std::string::npos) << r.out;
#endif
}

}  // namespace
}  // namespace mrlocal

namespace mrlocal {
namespace {

TEST(CliInterrupt, CtrlCCancelsTheJobAndLeavesNoOutput) {
  testing::ScratchDir dir;
  TextOptions o;
  o.bytes = 32 << 20;
  o.vocabulary = 5000;
  testing::WriteFile(dir / "in.txt", GenerateText(o));
  // A slow cluster (about 4 s of work). SIGINT goes once stderr says the job was
  // admitted, so it surely runs by then, however slow the start (sanitizers, a busy CI).
  const std::string err = (dir / "err").string();
  testing::WriteFile(err, "");
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    int fd = open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    dup2(fd, 2);
    int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    execl(MRLOCAL_BIN, MRLOCAL_BIN, "wordcount", (dir / "in.txt").c_str(), "--block-size", "1MiB",
          "--cluster", "1x(1m,1r,0.05)", "-o", (dir / "out").c_str(), nullptr);
    _exit(127);
  }
  bool admitted = false;
  for (int i = 0; i < 3000 && !admitted; ++i) {  // up to 30 s
    admitted = testing::ReadFile(err).find("admitted") != std::string::npos;
    if (!admitted) usleep(10000);
  }
  EXPECT_TRUE(admitted) << testing::ReadFile(err);
  kill(pid, SIGINT);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << testing::ReadFile(err);
  EXPECT_EQ(WEXITSTATUS(status), 130) << testing::ReadFile(err);
  EXPECT_NE(testing::ReadFile(err).find("interrupted"), std::string::npos)
      << testing::ReadFile(err);
  std::set<std::string> names;
  for (auto& e : std::filesystem::directory_iterator(dir.path()))
    names.insert(e.path().filename().string());
  EXPECT_EQ(names, (std::set<std::string>{"err", "in.txt"})) << "no output, no temporary";
}

}  // namespace
}  // namespace mrlocal
