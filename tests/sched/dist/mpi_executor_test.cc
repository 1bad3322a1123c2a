// The Controller over MpiExecutor with ranks as threads (ThreadTransportGroup): the same
// jobs give the same output, byte for byte, as on one process's RealExecutor, whatever the
// number of ranks and wherever the map outputs end up; a rank that dies fails the job with
// its name, and nothing is committed.
#include "sched/dist/mpi_executor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "apps/friendcount.h"
#include "apps/wordcount.h"
#include "datasets/text_generator.h"
#include "engine/typed_job.h"
#include "sched/core/asio_loop.h"
#include "sched/core/cluster_spec.h"
#include "sched/core/controller.h"
#include "sched/dist/thread_transport.h"
#include "sched/partition/partitioner.h"
#include "sched/policy/fifo_policy.h"
#include "tests/util/memory_output.h"

namespace mrlocal {
namespace {

using testing::MemoryOutput;

// Thread ranks 1..N-1, each serving its share of `cluster`'s slots (nodes dealt round-robin)
// with the jobs `factory(rank)` builds; rank 0's Controller over MpiExecutor runs one job at
// a time. The ranks are told to stop, and joined, when this goes.
class ThreadRanks {
 public:
  ThreadRanks(int ranks, const ClusterSpec& cluster,
              const std::function<SlotHost::JobFactory(int rank)>& factory)
      : group_(ranks), cluster_(cluster), slots_(cluster.Slots()) {
    options_.pin = false;
    options_.chunk_bytes = 4096;  // many chunks per reduce, to go through the paging
    options_.part_window = 2;
    options_.wait = std::chrono::seconds(20);
    for (int r = 1; r < ranks; ++r)
      hosts_.emplace_back([this, r, f = factory(r)] {
        SteadyClock clock;
        SlotHost host(group_.Rank(r), clock, SlotsOfRank(slots_, group_.size(), r), f, options_);
        (void)host.Serve();
      });
  }
  ~ThreadRanks() {
    ShutDownRanks(group_.Rank(0));
    for (std::thread& t : hosts_) t.join();
  }

  // Runs the job to its end; what the Controller says of it.
  JobOutcome Run(const JobSpec& spec, RealJob job, const std::string& definition) {
    AsioLoop loop;
    MpiExecutor executor(loop, group_.Rank(0), slots_, RanksOfSlots(slots_, group_.size()),
                         options_);
    FifoPolicy fifo;
    Controller controller(loop, executor, fifo, slots_, cluster_.nodes(),
                          MakePartitioner("dp-sketch").value());
    const JobId id = controller.next_job_id();
    executor.AddJob(id, std::move(job), definition);
    controller.Submit(spec);
    controller.RunUntilIdle();
    return controller.outcome(id);
  }
  ThreadTransportGroup& group() { return group_; }

 private:
  ThreadTransportGroup group_;
  const ClusterSpec cluster_;
  const std::vector<SlotInfo> slots_;
  SlotHostOptions options_;
  std::vector<std::thread> hosts_;
};

// A job over in-memory splits of text: what every rank can rebuild from its name.
template <class App>
struct TextJob {
  std::vector<std::string> splits;
  uint32_t reduces = 3;
  std::vector<PartitionHash> hashes = MakePartitionHashes(4, 24, 11);
  App app{};

  RealJob Real(std::shared_ptr<JobOutput> output) const {
    RealJob job;
    job.runtime = std::make_shared<TypedJobRuntime<App>>(JobRuntimeOptions{hashes, 5}, app);
    job.read_split = [this](uint32_t index, NodeId) -> Result<SplitInput> {
      SplitInput in;
      in.input.pieces = {splits.at(index)};
      in.input.source = "split " + std::to_string(index);
      return in;
    };
    job.output = std::move(output);
    job.maps = static_cast<uint32_t>(splits.size());
    job.reduces = reduces;
    return job;
  }
  JobSpec Spec() const {
    JobSpec spec;
    spec.name = spec.app = std::string(App::kName);
    spec.reduces = reduces;
    spec.partition_hashes = hashes;
    for (const std::string& s : splits) spec.maps.push_back({s.size(), {}});
    return spec;
  }
};

struct RunResult {
  std::map<uint32_t, std::string> parts;
  std::optional<uint32_t> committed;
  bool aborted = false;
  Status failure;
  uint64_t remote_shuffle_bytes = 0;
};

RunResult ResultOf(const JobOutcome& outcome, const MemoryOutput& output) {
  return {output.parts, output.committed_parts, output.aborted, outcome.failure,
          outcome.remote_shuffle_bytes};
}

template <class App>
RunResult RunOnOneProcess(const TextJob<App>& job, const ClusterSpec& cluster) {
  AsioLoop loop;
  RealExecutor executor(loop, cluster.Slots(), SlotThreads{.pin = false});
  FifoPolicy fifo;
  Controller controller(loop, executor, fifo, cluster.Slots(), cluster.nodes(),
                        MakePartitioner("dp-sketch").value());
  auto output = std::make_shared<MemoryOutput>();
  const JobId id = controller.next_job_id();
  executor.AddJob(id, job.Real(output));
  controller.Submit(job.Spec());
  controller.RunUntilIdle();
  return ResultOf(controller.outcome(id), *output);
}

template <class App>
RunResult RunOnRanks(const TextJob<App>& job, const ClusterSpec& cluster, int ranks) {
  auto output = std::make_shared<MemoryOutput>();
  JobOutcome outcome;
  {
    ThreadRanks world(ranks, cluster, [&job](int) -> SlotHost::JobFactory {
      return [&job](JobId, const std::string& definition) -> Result<RealJob> {
        if (definition != App::kName) return Status::InvalidArgument("no such job");
        return job.Real(nullptr);
      };
    });
    outcome = world.Run(job.Spec(), job.Real(output), std::string(App::kName));
  }
  return ResultOf(outcome, *output);
}

TextJob<apps::WordCount> WordCountJob(int splits) {
  TextJob<apps::WordCount> job;
  for (int i = 0; i < splits; ++i) {
    TextOptions t;
    t.bytes = 150'000;
    t.seed = static_cast<uint64_t>(i) + 1;
    job.splits.push_back(GenerateText(t));
  }
  return job;
}

TEST(MpiExecutor, WordCountOnTwoAndFourRanksEqualsOneProcess) {
  const TextJob<apps::WordCount> job = WordCountJob(8);
  const ClusterSpec cluster = ClusterSpec::Parse("4x(1m,1r,1.0)").value();
  const RunResult one = RunOnOneProcess(job, cluster);
  ASSERT_TRUE(one.failure.ok()) << one.failure.message();
  ASSERT_EQ(one.committed, 3u);
  ASSERT_EQ(one.parts.size(), 3u);
  for (int ranks : {2, 4}) {
    const RunResult many = RunOnRanks(job, cluster, ranks);
    ASSERT_TRUE(many.failure.ok()) << ranks << " ranks: " << many.failure.message();
    EXPECT_EQ(many.committed, 3u) << ranks << " ranks";
    EXPECT_FALSE(many.aborted);
    EXPECT_EQ(many.parts, one.parts) << ranks << " ranks";
    EXPECT_GT(many.remote_shuffle_bytes, 0u) << "reduces read map outputs of other ranks";
  }
  EXPECT_EQ(one.remote_shuffle_bytes, 0u);
}

TEST(MpiExecutor, FriendListsOnThreeRanksEqualOneProcess) {
  TextJob<apps::FriendCount> job;
  job.app.list = true;
  job.splits.resize(6);
  for (uint64_t e = 0; e < 20'000; ++e)
    job.splits[e % 6] +=
        std::to_string((e * 31) % 500) + " " + std::to_string((e * 7) % 901) + "\n";
  const ClusterSpec cluster = ClusterSpec::Parse("3x(2m,1r,1.0)").value();
  const RunResult one = RunOnOneProcess(job, cluster);
  ASSERT_TRUE(one.failure.ok()) << one.failure.message();
  const RunResult many = RunOnRanks(job, cluster, 3);
  ASSERT_TRUE(many.failure.ok()) << many.failure.message();
  EXPECT_EQ(many.parts, one.parts);
  EXPECT_EQ(many.committed, 3u);
}

TEST(MpiExecutor, AJobARankCannotBuildFailsNamingTheRankAndCommitsNothing) {
  const TextJob<apps::WordCount> job = WordCountJob(4);
  auto output = std::make_shared<MemoryOutput>();
  JobOutcome outcome;
  {
    ThreadRanks world(2, ClusterSpec::Parse("2x(1m,1r,1.0)").value(), [](int) {
      return [](JobId, const std::string&) -> Result<RealJob> {
        return Status::NotFound("big.txt: no such file");
      };
    });
    outcome = world.Run(job.Spec(), job.Real(output), "wordcount");
  }
  ASSERT_FALSE(outcome.failure.ok());
  EXPECT_NE(outcome.failure.message().find("rank 1: big.txt: no such file"), std::string::npos)
      << outcome.failure.message();
  EXPECT_FALSE(output->committed_parts.has_value());
}

// Map task i of rank `stall_rank`'s copy runs until cancelled, saying it started.
struct Stall {
  static constexpr std::string_view kName = "stall";
  static constexpr bool kTextInput = false;
  using Key = uint64_t;
  using Value = uint64_t;
  template <class Out, class Checkpoint>
  bool Map(uint32_t task, Out& out, Checkpoint&& checkpoint) const {
    if (started) {
      started->store(true);
      while (checkpoint(0.5)) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      return false;
    }
    out.Emit(uint64_t{task}, uint64_t{1});
    return checkpoint(1.0);
  }
  void Combine(Value& into, uint64_t x) const { into += x; }
  void Merge(Value& into, const Value& other) const { into += other; }
  void Reduce(Key, Value&) const {}
  uint64_t SizeUnits(Key, const Value&) const { return 1; }
  void FormatKey(std::string& out, Key k) const { out += std::to_string(k); }
  void FormatValue(std::string& out, const Value& v) const { out += std::to_string(v); }
  double Score(Key, const Value& v) const { return static_cast<double>(v); }
  std::atomic<bool>* started = nullptr;
};

TEST(MpiExecutor, ARankThatDiesFailsTheJobNamingItAndNothingIsCommitted) {
  const std::vector<PartitionHash> hashes = MakePartitionHashes(2, 4, 1);
  auto make = [&hashes](std::atomic<bool>* started, std::shared_ptr<JobOutput> output) {
    RealJob job;
    job.runtime =
        std::make_shared<TypedJobRuntime<Stall>>(JobRuntimeOptions{hashes, 3}, Stall{started});
    job.output = std::move(output);
    job.maps = 3;
    job.reduces = 1;
    return job;
  };
  std::atomic<bool> started{false};
  auto output = std::make_shared<MemoryOutput>();
  JobOutcome outcome;
  {
    // One node per rank; rank 2's map stalls until that rank is killed.
    ThreadRanks world(3, ClusterSpec::Parse("3x(1m,1r,1.0)").value(), [&](int rank) {
      return [&, rank](JobId, const std::string&) -> Result<RealJob> {
        return make(rank == 2 ? &started : nullptr, nullptr);
      };
    });
    std::thread killer([&] {
      while (!started.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
      world.group().Kill(2);
    });
    JobSpec spec;
    spec.name = spec.app = "stall";
    spec.reduces = 1;
    spec.partition_hashes = hashes;
    spec.maps.assign(3, {1, {}});
    outcome = world.Run(spec, make(nullptr, output), "stall");
    killer.join();
  }
  ASSERT_FALSE(outcome.failure.ok());
  EXPECT_NE(outcome.failure.message().find("rank 2 died"), std::string::npos)
      << outcome.failure.message();
  EXPECT_FALSE(output->committed_parts.has_value());
  EXPECT_TRUE(output->parts.empty());
}

}  // namespace
}  // namespace mrlocal
