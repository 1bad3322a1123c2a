// `mpirun -np N mrlocal ...` (issue 18), run for real on this machine's ranks (shared
// memory): the outputs of WordCount, friend-count and Pi over 2 and 4 ranks are byte for
// byte those of one process on the same cluster; a deadline job is admitted and met; a rank
// that cannot run the job, or that dies mid-job, ends the run with its rank named and
// nothing committed. Skipped when no mpirun is installed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "datasets/text_generator.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

namespace fs = std::filesystem;
using testing::CommandResult;
using testing::Contains;
using testing::ReadFile;
using testing::RunMrlocal;
using testing::RunProgram;
using testing::ScratchDir;
using testing::WriteFile;

bool HaveMpirun() { return std::string(MRLOCAL_MPIRUN).find("NOTFOUND") == std::string::npos; }

// What every rank of the suite's runs gets: as root; under AddressSanitizer, Open MPI's
// components stay loaded and leaks are traced through its frames (it has no frame
// pointers), so that tests/util/mpi_lsan.supp can name its libraries while mrlocal's own
// leaks stay reported; under ThreadSanitizer, Open MPI's own lock order is suppressed.
const std::vector<std::string>& RankEnv() {
  static const std::vector<std::string> env = {
      "OMPI_ALLOW_RUN_AS_ROOT=1",
      "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1",
      "OMPI_MCA_mca_base_component_disable_dlclose=1",
      "ASAN_OPTIONS=fast_unwind_on_malloc=0",
      "LSAN_OPTIONS=suppressions=" MRLOCAL_MPI_LSAN_SUPPRESSIONS ":print_suppressions=0",
      "TSAN_OPTIONS=suppressions=" MRLOCAL_MPI_TSAN_SUPPRESSIONS};
  return env;
}

// The ranks of one run on this host: as root, oversubscribed (4 ranks on 2 cores), over
// shared memory, the out-of-band channel on loopback only. `commands` is one command
// per group of ranks (MPMD, "A : B"), each {ranks, args...}.
CommandResult RunMpi(const std::vector<std::pair<int, std::vector<std::string>>>& commands) {
  std::vector<std::string> args = {
      "--mca", "btl",   "self,vader",         "--mca", "btl_tcp_if_include",
      "lo",    "--mca", "oob_tcp_if_include", "lo"};
  for (size_t i = 0; i < commands.size(); ++i) {
    if (i > 0) args.push_back(":");
    args.insert(args.end(), {"-np", std::to_string(commands[i].first)});
    args.insert(args.end(), commands[i].second.begin(), commands[i].second.end());
  }
  std::vector<std::string> env = {"OMPI_MCA_rmaps_base_oversubscribe=1"};
  env.insert(env.end(), RankEnv().begin(), RankEnv().end());
  return RunProgram(MRLOCAL_MPIRUN, args, env);
}
CommandResult RunMpi(int ranks, std::vector<std::string> args) {
  args.insert(args.begin(), MRLOCAL_BIN);
  return RunMpi({{ranks, args}});
}

// Every file of an output directory, by name.
std::map<std::string, std::string> Output(const fs::path& dir) {
  std::map<std::string, std::string> files;
  for (const auto& e : fs::directory_iterator(dir))
    files[e.path().filename().string()] = ReadFile(e.path());
  return files;
}

// Text to count: the shared King James Bible when present, else 4 MB generated.
std::string TextInput(const ScratchDir& dir) {
  const fs::path shared = testing::SharedDatasets();
  if (!shared.empty() && fs::exists(shared / "text/kjv-bible.txt"))
    return (shared / "text/kjv-bible.txt").string();
  TextOptions t;
  t.bytes = 4 << 20;
  const std::string path = (dir / "text.txt").string();
  WriteFile(path, GenerateText(t));
  return path;
}

class MpiCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!HaveMpirun()) GTEST_SKIP() << "no mpirun installed (Debian: openmpi-bin)";
  }
};

TEST_F(MpiCli, WordCountOnTwoAndFourRanksEqualsOneProcess) {
  ScratchDir dir;
  const std::string text = TextInput(dir);
  const std::vector<std::string> job = {"wordcount", text, "--cluster",    "4x(1m,1r,1.0)",
                                        "--reduces", "3",  "--block-size", "256KiB",
                                        "--no-pin",  "-q"};
  auto with = [&](const std::string& out) {
    std::vector<std::string> a = job;
    a.insert(a.end(), {"-o", out});
    return a;
  };
  const CommandResult one = RunMrlocal(with((dir / "one").string()));
  ASSERT_EQ(one.exit_code, 0) << one.err;
  for (int ranks : {2, 4}) {
    const fs::path out = dir / ("ranks" + std::to_string(ranks));
    const CommandResult many = RunMpi(ranks, with(out.string()));
    ASSERT_EQ(many.exit_code, 0) << many.err;
    EXPECT_EQ(Output(out), Output(dir / "one")) << ranks << " ranks";
    // The report is printed once, by rank 0.
    const std::string done = "job wordcount: SUCCEEDED";
    const size_t first = many.out.find(done);
    EXPECT_NE(first, std::string::npos) << many.out;
    EXPECT_EQ(many.out.find(done, first + 1), std::string::npos) << many.out;
  }
}

TEST_F(MpiCli, FriendCountAndPiOnTwoRanksEqualOneProcess) {
  ScratchDir dir;
  std::string edges;
  const fs::path shared = testing::SharedDatasets();
  if (!shared.empty() && fs::exists(shared / "graphs/facebook_combined.txt")) {
    edges = (shared / "graphs/facebook_combined.txt").string();
  } else {
    std::string text;
    for (uint64_t e = 0; e < 50'000; ++e)
      text += std::to_string((e * 31) % 4000) + " " + std::to_string((e * 7919) % 4001) + "\n";
    edges = (dir / "edges.txt").string();
    WriteFile(edges, text);
  }
  const std::vector<std::vector<std::string>> jobs = {
      {"friendcount", edges, "--list", "--block-size", "128KiB", "--reduces", "2"},
      {"pi", "8", "200000"}};
  for (size_t i = 0; i < jobs.size(); ++i) {
    std::vector<std::string> args = jobs[i];
    args.insert(args.end(), {"--cluster", "2x(1m,1r,1.0)", "--no-pin", "-q"});
    std::vector<std::string> a1 = args, a2 = args;
    a1.insert(a1.end(), {"-o", (dir / ("one" + std::to_string(i))).string()});
    a2.insert(a2.end(), {"-o", (dir / ("two" + std::to_string(i))).string()});
    const CommandResult one = RunMrlocal(a1);
    ASSERT_EQ(one.exit_code, 0) << one.err;
    const CommandResult two = RunMpi(2, a2);
    ASSERT_EQ(two.exit_code, 0) << two.err;
    EXPECT_EQ(Output(dir / ("two" + std::to_string(i))), Output(dir / ("one" + std::to_string(i))))
        << jobs[i][0];
  }
}

TEST_F(MpiCli, ADeadlineJobOnTwoRanksIsAdmittedAndMet) {
  ScratchDir dir;
  const CommandResult r = RunMpi(2, {"wordcount", "--deadline", "60s", TextInput(dir),
                                     "--block-size", "512KiB", "--no-pin", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "MET")) << r.out;
  EXPECT_TRUE(Contains(r.out, "admission rtmr estimated")) << r.out;
}

// `mrlocal workload` over ranks: rank 0 schedules, every rank builds the same jobs from the
// same spec and runs them on its slots. RTMR's admission holds across ranks: the job whose
// deadline its work cannot meet (8 maps of 0.2 s on 4 map slots, due in 0.3 s) is
// rejected, the two it admits are met; a mixed stream of real apps runs to its end.
TEST_F(MpiCli, AWorkloadOnTwoRanksAdmitsOnlyWhatItMeetsAndRunsEveryJob) {
  ScratchDir dir;
  const std::string synthetic = R"j("app": "synthetic", "maps": 8, "map_s": 0.2, "reduce_s": 0.1,
      "reduces": 2)j";
  WriteFile(dir / "deadlines.json",
            R"j({"cluster": "2x(2m,1r,1.0)", "jobs": [
  {"name": "a", "arrival_s": 0, )j" +
                synthetic + R"j(, "deadline_s": 4},
  {"name": "b", "arrival_s": 0.1, )j" +
                synthetic + R"j(, "deadline_s": 4},
  {"name": "c", "arrival_s": 0.2, )j" +
                synthetic + R"j(, "deadline_s": 0.3}]})j");
  const CommandResult r =
      RunMpi(2, {"workload", (dir / "deadlines.json").string(), "--policy", "rtmr", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Contains(r.out, "accepted   2 (AcceptR 66.7%); rejected 1")) << r.out;
  EXPECT_TRUE(Contains(r.out, "missed 0 of 2 with a deadline")) << r.out;

  WriteFile(dir / "mixed.json", R"j({"cluster": "2x(1m,1r,1.0)", "jobs": [
  {"name": "wc", "arrival_s": 0, "app": "wordcount", "reduces": 2,
   "input": {"generate": "text", "size": "4MiB", "seed": 1}},
  {"name": "pi", "arrival_s": 0.1, "app": "pi", "maps": 4, "samples": 100000},
  {"name": "fc", "arrival_s": 0.2, "app": "friendcount", "reduces": 2,
   "input": {"generate": "graph", "nodes": 20000, "edges": 200000, "seed": 2}}]})j");
  const CommandResult mixed = RunMpi(2, {"workload", (dir / "mixed.json").string(), "-q"});
  ASSERT_EQ(mixed.exit_code, 0) << mixed.err;
  EXPECT_TRUE(Contains(mixed.out, "successful 3 (SuccessR 100.0%)")) << mixed.out;

  const CommandResult sim = RunMpi(2, {"workload", (dir / "mixed.json").string(), "--sim"});
  EXPECT_EQ(sim.exit_code, 2);
  EXPECT_TRUE(Contains(sim.err, "mrlocal: error: --sim runs in one process")) << sim.err;
}

TEST_F(MpiCli, ARankRunningAnotherCommandFailsTheJobNamingItAndNothingIsCommitted) {
  ScratchDir dir;
  const std::string text = TextInput(dir);
  const fs::path out = dir / "out";
  const CommandResult r =
      RunMpi({{1, {MRLOCAL_BIN, "wordcount", text, "-o", out.string(), "--no-pin", "-q"}},
              {1, {MRLOCAL_BIN, "friendcount", text, "-o", out.string(), "--no-pin", "-q"}}});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_TRUE(Contains(r.err,
                       "mrlocal: error: job failed: rank 1: rank 0 sent a wordcount job "
                       "to a rank running friendcount"))
      << r.err;
  EXPECT_FALSE(fs::exists(out));
  for (const auto& e : fs::directory_iterator(dir.path()))  // nor a temporary directory
    EXPECT_EQ(e.path().filename().string().find(".out"), std::string::npos) << e.path();
}

TEST_F(MpiCli, ARankKilledMidJobEndsTheRunNamingItAndNothingIsCommitted) {
  ScratchDir dir;
  const std::string text = TextInput(dir);
  const fs::path out = dir / "out";
  // Slots at 1% speed: the job takes seconds; rank 1 is killed 0.4 s in.
  const std::vector<std::string> job = {"wordcount",    text,     "-o",        out.string(),
                                        "--block-size", "256KiB", "--cluster", "2x(1m,1r,0.01)",
                                        "--no-pin",     "-q"};
  std::vector<std::string> rank0 = {MRLOCAL_BIN},
                           rank1 = {"/usr/bin/timeout", "-s", "KILL", "0.4", MRLOCAL_BIN};
  rank0.insert(rank0.end(), job.begin(), job.end());
  rank1.insert(rank1.end(), job.begin(), job.end());
  const CommandResult r = RunMpi({{1, rank0}, {1, rank1}});
  EXPECT_NE(r.exit_code, 0);
  EXPECT_TRUE(Contains(r.err, "process rank 1")) << r.err;  // mpirun names the dead rank
  EXPECT_FALSE(fs::exists(out));
  for (const auto& e : fs::directory_iterator(dir.path()))
    EXPECT_EQ(e.path().filename().string().find(".out"), std::string::npos) << e.path();
}

// `srun -n 2 mrlocal ...` where Slurm gives no MPI (MpiDefault=none): each task would run
// the whole job and race the other for the output. Every task refuses, saying what to
// type; no Slurm is needed to see it, only the variable srun sets for its tasks.
TEST(SrunWithoutMpi, SeveralTasksWithoutMpiAreRefusedSayingWhatToUse) {
  ScratchDir dir;
  const fs::path out = dir / "out";
  for (const std::vector<std::string>& args :
       {std::vector<std::string>{"wordcount", "-o", out.string(), "-q"},
        std::vector<std::string>{"workload", "--preset", "rtmr-wl1", "-q"}}) {
    const CommandResult r = RunProgram(MRLOCAL_BIN, args, {"SLURM_STEP_NUM_TASKS=2"});
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_EQ(r.err,
              "mrlocal: error: srun started 2 tasks without MPI, so each would run the whole "
              "job: use srun --mpi=pmix (or MpiDefault=pmix in slurm.conf), or srun -n 1\n");
    EXPECT_FALSE(fs::exists(out));
  }
}

// Two hosts emulated by two network namespaces joined by a veth pair shaped to 1 Gbit/s
// (tbf), mpirun starting the second host's daemon with `ip netns exec` instead of ssh:
// the ranks talk TCP across the link, and the output is still one process's. Skipped when
// this machine does not let us make namespaces (not root, or a container without them).
TEST_F(MpiCli, WordCountOnTwoHostsOverAShapedLinkEqualsOneProcess) {
  ScratchDir dir;
  const std::string tag = std::to_string(::getpid() % 100000);
  const std::string a = "mrlt-a" + tag, b = "mrlt-b" + tag;
  const std::string setup =
      "set -e; ip netns add " + a + "; ip netns add " + b + "; ip link add va" + tag +
      " type veth peer name vb" + tag + "; ip link set va" + tag + " netns " + a +
      "; ip link set vb" + tag + " netns " + b + "; ip -n " + a + " addr add 10.78.0.1/24 dev va" +
      tag + "; ip -n " + b + " addr add 10.78.0.2/24 dev vb" + tag + "; ip -n " + a +
      " link set lo up; ip -n " + b + " link set lo up; ip -n " + a + " link set va" + tag +
      " up; ip -n " + b + " link set vb" + tag + " up; tc -n " + a + " qdisc add dev va" + tag +
      " root tbf rate 1gbit burst 256kb latency 50ms; tc -n " + b + " qdisc add dev vb" + tag +
      " root tbf rate 1gbit burst 256kb latency 50ms";
  const std::string teardown =
      "ip netns del " + a + " 2>/dev/null; ip netns del " + b + " 2>/dev/null; true";
  if (RunProgram("/bin/sh", {"-c", setup}).exit_code != 0) {
    RunProgram("/bin/sh", {"-c", teardown});
    GTEST_SKIP() << "cannot make network namespaces here (ip netns add needs root)";
  }
  struct Teardown {
    std::string script;
    ~Teardown() { RunProgram("/bin/sh", {"-c", script}); }
  } cleanup{teardown};
  const std::string agent = (dir / "agent").string();
  WriteFile(agent, "#!/bin/sh\nhost=$1; shift\ncase $host in 10.78.0.1) ns=" + a +
                       " ;; *) ns=" + b + " ;; esac\nexec ip netns exec $ns /bin/sh -c \"$*\"\n");
  fs::permissions(agent, fs::perms::owner_all);
  const std::string hosts = (dir / "hosts").string();
  WriteFile(hosts, "10.78.0.1 slots=1\n10.78.0.2 slots=1\n");
  const std::string text = TextInput(dir);
  const std::vector<std::string> job = {"wordcount", text, "--cluster",    "2x(1m,1r,1.0)",
                                        "--reduces", "2",  "--block-size", "256KiB",
                                        "--no-pin",  "-q"};
  std::vector<std::string> one = job, two = {"netns",         "exec",  a,
                                             MRLOCAL_MPIRUN,  "-np",   "2",
                                             "--hostfile",    hosts,   "--mca",
                                             "plm_rsh_agent", agent,   "--bind-to",
                                             "none",          "--mca", "btl",
                                             "self,tcp",      "--mca", "btl_tcp_if_include",
                                             "10.78.0.0/24",  "--mca", "oob_tcp_if_include",
                                             "10.78.0.0/24"};
  for (const std::string& variable : RankEnv())  // to the ranks the agent starts, too
    two.insert(two.end(), {"-x", variable.substr(0, variable.find('='))});
  two.push_back(MRLOCAL_BIN);
  two.insert(two.end(), job.begin(), job.end());
  one.insert(one.end(), {"-o", (dir / "one").string()});
  two.insert(two.end(), {"-o", (dir / "two").string()});
  const CommandResult single = RunMrlocal(one);
  ASSERT_EQ(single.exit_code, 0) << single.err;
  const CommandResult pair = RunProgram("/usr/sbin/ip", two, RankEnv());
  ASSERT_EQ(pair.exit_code, 0) << pair.err;
  EXPECT_EQ(Output(dir / "two"), Output(dir / "one"));
  EXPECT_TRUE(Contains(pair.out, "of map output fetched by reduces from other ranks")) << pair.out;
}

}  // namespace
}  // namespace mrlocal
