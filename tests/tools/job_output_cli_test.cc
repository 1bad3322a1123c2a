// What a job command prints, line by line, as a user reads it: quiet is quiet, blocks
// are named as on disk, counts agree with their nouns, one line reads in one unit, an
// interrupt says which signal, a failed job claims no throughput, and a report prints
// no shuffle plan where there was nothing to partition.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <regex>
#include <sstream>

#include "datasets/text_generator.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::Contains;
using testing::ReadFile;
using testing::RunMrlocal;
using testing::ScratchDir;
using testing::WriteFile;

// The line of `text` that starts with `prefix`, or "".
std::string LineStarting(const std::string& text, const std::string& prefix) {
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind(prefix, 0) == 0) return line;
  return "";
}

class JobOutputCli : public ::testing::Test {
 protected:
  std::string P(const std::string& name) { return (dir_ / name).string(); }
  ScratchDir dir_;
};

TEST_F(JobOutputCli, QuietOnAnEmptyInputSaysNothing) {
  WriteFile(dir_ / "empty.txt", "");
  for (const char* app : {"wordcount", "friendcount"}) {
    auto quiet = RunMrlocal({app, P("empty.txt"), "-q"});
    EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
    EXPECT_EQ(quiet.err, "") << app;
    // Without -q: no map progress of a job that has no maps, before its admission.
    auto loud = RunMrlocal({app, P("empty.txt")});
    EXPECT_EQ(loud.exit_code, 0) << loud.err;
    EXPECT_FALSE(Contains(loud.err, "reduce   0%")) << loud.err;
    EXPECT_EQ(loud.err.rfind("mrlocal: " + std::string(app) + " (0 maps, ", 0), 0u) << loud.err;
  }
}

TEST_F(JobOutputCli, FsckAndJobsNameABlockAsItsReplicaFileOnDisk) {
  WriteFile(dir_ / "a.txt", std::string(4000, 'a') + "\n");  // 4 blocks of 1 KiB
  WriteFile(dir_ / "b.txt", "the cat\nsaw the dog\n");
  const std::string store = P("st");
  ASSERT_EQ(RunMrlocal({"fs", "--store", store, "put", P("a.txt"), "/a", "--block-size", "1KiB"})
                .exit_code,
            0);
  ASSERT_EQ(
      RunMrlocal({"fs", "--store", store, "put", P("b.txt"), "/b", "--replication", "2"}).exit_code,
      0);
  // /b's one block follows /a's four: its replica files are blk_5, its index in /b is 0.
  std::vector<fs::path> replicas;
  for (auto& e : fs::recursive_directory_iterator(store))
    if (e.path().filename() == "blk_5") replicas.push_back(e.path());
  ASSERT_EQ(replicas.size(), 2u);
  for (const fs::path& r : replicas) WriteFile(r, "the cat\nsaw the dot\n");  // a byte flipped

  auto fsck = RunMrlocal({"fs", "--store", store, "fsck"});
  EXPECT_EQ(fsck.exit_code, 2);
  const std::string node = replicas[0].parent_path().filename().string().substr(5);  // node-K
  EXPECT_TRUE(Contains(fsck.out, "/b blk_5: replica on node " + node + " failed its checksum"))
      << fsck.out;
  auto job = RunMrlocal({"wordcount", "--store", store, "/b", "-q"});
  EXPECT_EQ(job.exit_code, 2) << job.err;
  EXPECT_TRUE(Contains(job.err, "job failed: /b blk_5: all 2 replicas are corrupt or missing"))
      << job.err;
  EXPECT_FALSE(Contains(fsck.out + job.err, "block 0")) << fsck.out << job.err;
}

TEST_F(JobOutputCli, CountsAgreeWithTheirNouns) {
  WriteFile(dir_ / "w.txt", "word\n");
  auto one = RunMrlocal({"wordcount", P("w.txt"), "-q", "--reduces", "2"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_TRUE(Contains(one.out, " in 1 map task on ")) << one.out;
  EXPECT_TRUE(Contains(one.out, "  output    1 key, ")) << one.out;
  EXPECT_TRUE(Contains(one.out, " partitions -> 2 reduces by ")) << one.out;

  WriteFile(dir_ / "one.json", R"json({"name": "one", "cluster": "1x(1m,1r,1.0)", "jobs": [
      {"name": "syn", "arrival_s": 0, "app": "synthetic", "maps": 1, "reduces": 1, "map_s": 0.01,
       "reduce_s": 0.01}]})json");
  auto workload = RunMrlocal({"workload", P("one.json"), "--sim", "-q"});
  ASSERT_EQ(workload.exit_code, 0) << workload.err;
  EXPECT_TRUE(Contains(workload.out, "workload one: 1 job on 1x(1m,1r,1.0) (2 slots)"))
      << workload.out;
  auto compare = RunMrlocal({"compare", P("one.json"), "--sim", "--policies", "fifo"});
  ASSERT_EQ(compare.exit_code, 0) << compare.err;
  EXPECT_TRUE(Contains(compare.err, "(1 job, ")) << compare.err;
  const std::regex one_plural(R"(\b1 [a-z ]*(tasks|reduces|jobs|keys)\b)");
  for (const std::string& text : {one.out, workload.out, compare.err})
    EXPECT_FALSE(std::regex_search(text, one_plural)) << text;
}

TEST_F(JobOutputCli, TheDeadlineLineReadsInOneUnit) {
  WriteFile(dir_ / "w.txt", "the cat saw the dog\n");
  // fifo admits it without a history; the job takes milliseconds of the 2 minutes.
  auto r = RunMrlocal({"wordcount", P("w.txt"), "-q", "--deadline", "2m", "--policy", "fifo"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string line = LineStarting(r.out, "job wordcount: SUCCEEDED");
  EXPECT_TRUE(std::regex_match(
      line,
      std::regex(
          R"(job wordcount: SUCCEEDED in \d+\.\d\d s, deadline 120\.00 s( \(\d+\.\d\d s of it set-up\))? MET with 1\d\d\.\d\d s to spare)")))
      << line;
}

TEST_F(JobOutputCli, AProgressLineReadsInOneUnit) {
  WriteFile(dir_ / "w.txt", "the cat saw the dog\n");
  auto r = RunMrlocal({"wordcount", P("w.txt"), "--deadline", "2m", "--policy", "fifo"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string line = LineStarting(r.err, "mrlocal: map 100% reduce 100%");
  EXPECT_TRUE(std::regex_match(
      line,
      std::regex(R"(mrlocal: map 100% reduce 100% \| elapsed \d+\.\d\d s \| slack 1\d\d\.\d\d s)")))
      << line;
}

TEST_F(JobOutputCli, AFailedJobClaimsNoThroughput) {
  WriteFile(dir_ / "g.txt", "1 2\n3 x\n");
  auto r = RunMrlocal({"friendcount", P("g.txt"), "-q"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(Contains(r.out, "job friendcount: FAILED")) << r.out;
  EXPECT_TRUE(Contains(r.out, "  phases    map ")) << r.out;
  EXPECT_FALSE(Contains(r.out, "throughput")) << r.out;
}

TEST_F(JobOutputCli, NoShufflePlanWhereNothingWasPartitioned) {
  auto pi = RunMrlocal({"pi", "2", "100", "-q"});
  ASSERT_EQ(pi.exit_code, 0) << pi.err;
  EXPECT_TRUE(Contains(pi.out, "  phases    ")) << pi.out;
  EXPECT_FALSE(Contains(pi.out, "shuffle")) << pi.out;
  EXPECT_FALSE(Contains(pi.out, "skewness")) << pi.out;
  WriteFile(dir_ / "w.txt", "the cat saw the dog\n");
  auto one = RunMrlocal({"wordcount", P("w.txt"), "-q", "--reduces", "1"});
  EXPECT_FALSE(Contains(one.out, "shuffle")) << one.out;
  auto two = RunMrlocal({"wordcount", P("w.txt"), "-q", "--reduces", "2"});
  EXPECT_TRUE(Contains(two.out, "  shuffle   8 partitions -> 2 reduces by dp-sketch")) << two.out;
}

// Ctrl-C: the failure names the signal, and the FAILED report has no throughput.
TEST_F(JobOutputCli, AnInterruptSaysWhichSignal) {
  TextOptions o;
  o.bytes = 8 << 20;
  o.vocabulary = 5000;
  WriteFile(dir_ / "in.txt", GenerateText(o));
  const std::string out = P("out.txt"), err = P("err.txt");
  WriteFile(err, "");
  pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    dup2(open(out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), 1);
    dup2(open(err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644), 2);
    execl(MRLOCAL_BIN, MRLOCAL_BIN, "wordcount", P("in.txt").c_str(), "--block-size", "256KiB",
          "--cluster", "1x(1m,1r,0.02)", nullptr);
    _exit(127);
  }
  bool admitted = false;
  for (int i = 0; i < 3000 && !admitted; ++i) {  // up to 30 s
    admitted = Contains(ReadFile(err), "admitted");
    if (!admitted) usleep(10000);
  }
  EXPECT_TRUE(admitted) << ReadFile(err);
  kill(pid, SIGINT);
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 130);
  EXPECT_TRUE(Contains(ReadFile(err), "mrlocal: error: job failed: interrupted (SIGINT)\n"))
      << ReadFile(err);
  const std::string report = ReadFile(out);
  EXPECT_TRUE(Contains(report, "  failure   interrupted (SIGINT)\n")) << report;
  EXPECT_FALSE(Contains(report, "throughput")) << report;
}

}  // namespace
}  // namespace mrlocal
