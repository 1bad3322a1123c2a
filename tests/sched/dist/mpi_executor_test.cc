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

namespace mrlocal {
namespace {

// Each reduce's part in memory; how the job ended.
class MemoryOutput final : public JobOutput {
 public:
  Result<std::unique_ptr<OutputSink>> OpenPart(uint32_t reduce) override {
    struct Sink final : OutputSink {
      Sink(MemoryOutput& out, uint32_t reduce) : out(out), reduce(reduce) {}
      Status Append(std::string_view bytes) override {
        text.append(bytes);
        return Status::OK();
      }
      Status Close() override {
        std::lock_guard lock(out.mu);
        out.parts[reduce] = text;
        return Status::OK();
      }
      MemoryOutput& out;
      uint32_t reduce;
      std::string text;
    };
    return std::unique_ptr<OutputSink>(std::make_unique<Sink>(*this, reduce));
  }
  Status Commit(uint32_t parts) override {
    committed = parts;
    return Status::OK();
  }
  void Abort() override { aborted = true; }

  std::mutex mu;
  std::map<uint32_t, std::string> parts;  // guarded by mu
  int committed = -1;
  bool aborted = false;
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
  int committed = -1;
  bool aborted = false;
  Status failure;
  uint64_t remote_shuffle_bytes = 0;
};

template <class App>
RunResult RunOnOneProcess(const TextJob<App>& job, const ClusterSpec& cluster) {
  AsioLoop loop;
  RealExecutor executor(loop, cluster.Slots(), /*pin=*/false);
  FifoPolicy fifo;
  Controller controller(loop, executor, fifo, cluster.Slots(), cluster.nodes(),
                        MakePartitioner("dp-sketch").value());
  auto output = std::make_shared<MemoryOutput>();
  const JobId id = controller.next_job_id();
  executor.AddJob(id, job.Real(output));
  controller.Submit(job.Spec());
  controller.RunUntilIdle();
  return {output->parts, output->committed, output->aborted, controller.outcome(id).failure,
          controller.outcome(id).remote_shuffle_bytes};
}

// The cluster's nodes go to ranks round-robin; rank r > 0 serves on a thread of its own.
template <class App>
RunResult RunOnRanks(const TextJob<App>& job, const ClusterSpec& cluster, int ranks) {
  ThreadTransportGroup group(ranks);
  const std::vector<SlotInfo> slots = cluster.Slots();
  std::vector<int> rank_of_slot;
  for (const SlotInfo& s : slots) rank_of_slot.push_back(s.node % ranks);
  SlotHostOptions options;
  options.pin = false;
  options.chunk_bytes = 4096;  // many chunks per reduce, to go through the paging
  options.part_window = 2;
  options.wait = std::chrono::seconds(20);
  std::vector<std::thread> hosts;
  for (int r = 1; r < ranks; ++r) {
    std::vector<SlotInfo> own;
    for (const SlotInfo& s : slots)
      if (rank_of_slot[s.id] == r) own.push_back(s);
    hosts.emplace_back([&group, &job, own, r, options] {
      SteadyClock clock;
      SlotHost host(
          group.Rank(r), clock, own,
          [&job](JobId, const std::string& definition) -> Result<RealJob> {
            if (definition != App::kName) return Status::InvalidArgument("no such job");
            return job.Real(nullptr);
          },
          options);
      (void)host.Serve();
    });
  }
  RunResult result;
  {
    AsioLoop loop;
    MpiExecutor executor(loop, group.Rank(0), slots, rank_of_slot, options);
    FifoPolicy fifo;
    Controller controller(loop, executor, fifo, slots, cluster.nodes(),
                          MakePartitioner("dp-sketch").value());
    auto output = std::make_shared<MemoryOutput>();
    const JobId id = controller.next_job_id();
    executor.AddJob(id, job.Real(output), std::string(App::kName));
    controller.Submit(job.Spec());
    controller.RunUntilIdle();
    result = {output->parts, output->committed, output->aborted, controller.outcome(id).failure,
              controller.outcome(id).remote_shuffle_bytes};
  }
  ShutDownRanks(group.Rank(0));
  for (std::thread& t : hosts) t.join();
  return result;
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
  ASSERT_EQ(one.committed, 3);
  ASSERT_EQ(one.parts.size(), 3u);
  for (int ranks : {2, 4}) {
    const RunResult many = RunOnRanks(job, cluster, ranks);
    ASSERT_TRUE(many.failure.ok()) << ranks << " ranks: " << many.failure.message();
    EXPECT_EQ(many.committed, 3) << ranks << " ranks";
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
  EXPECT_EQ(many.committed, 3);
}

TEST(MpiExecutor, AJobARankCannotBuildFailsNamingTheRankAndCommitsNothing) {
  TextJob<apps::WordCount> job = WordCountJob(4);
  ThreadTransportGroup group(2);
  const ClusterSpec cluster = ClusterSpec::Parse("2x(1m,1r,1.0)").value();
  const std::vector<SlotInfo> slots = cluster.Slots();
  std::vector<int> rank_of_slot;
  for (const SlotInfo& s : slots) rank_of_slot.push_back(s.node % 2);
  SlotHostOptions options;
  options.pin = false;
  std::vector<SlotInfo> own;
  for (const SlotInfo& s : slots)
    if (rank_of_slot[s.id] == 1) own.push_back(s);
  std::thread rank1([&] {
    SteadyClock clock;
    SlotHost host(
        group.Rank(1), clock, own,
        [](JobId, const std::string&) -> Result<RealJob> {
          return Status::NotFound("big.txt: no such file");
        },
        options);
    (void)host.Serve();
  });
  Status failure;
  auto output = std::make_shared<MemoryOutput>();
  {
    AsioLoop loop;
    MpiExecutor executor(loop, group.Rank(0), slots, rank_of_slot, options);
    FifoPolicy fifo;
    Controller controller(loop, executor, fifo, slots, cluster.nodes(),
                          MakePartitioner("dp-sketch").value());
    const JobId id = controller.next_job_id();
    executor.AddJob(id, job.Real(output), "wordcount");
    controller.Submit(job.Spec());
    controller.RunUntilIdle();
    failure = controller.outcome(id).failure;
  }
  ShutDownRanks(group.Rank(0));
  rank1.join();
  ASSERT_FALSE(failure.ok());
  EXPECT_NE(failure.message().find("rank 1: big.txt: no such file"), std::string::npos)
      << failure.message();
  EXPECT_EQ(output->committed, -1);
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
  const ClusterSpec cluster = ClusterSpec::Parse("3x(1m,1r,1.0)").value();
  const std::vector<SlotInfo> slots = cluster.Slots();
  std::vector<int> rank_of_slot;
  for (const SlotInfo& s : slots) rank_of_slot.push_back(s.node);
  std::vector<PartitionHash> hashes = MakePartitionHashes(2, 4, 1);
  auto make = [&hashes](std::atomic<bool>* started, std::shared_ptr<JobOutput> output) {
    RealJob job;
    job.runtime =
        std::make_shared<TypedJobRuntime<Stall>>(JobRuntimeOptions{hashes, 3}, Stall{started});
    job.output = std::move(output);
    job.maps = 3;
    job.reduces = 1;
    return job;
  };
  ThreadTransportGroup group(3);
  SlotHostOptions options;
  options.pin = false;
  std::atomic<bool> started{false};
  std::vector<std::thread> hosts;
  for (int r = 1; r < 3; ++r) {
    hosts.emplace_back([&, r] {
      SteadyClock clock;
      SlotHost host(
          group.Rank(r), clock, {slots[static_cast<size_t>(r)], slots[static_cast<size_t>(r) + 3]},
          [&, r](JobId, const std::string&) -> Result<RealJob> {
            return make(r == 2 ? &started : nullptr, nullptr);
          },
          options);
      (void)host.Serve();
    });
  }
  std::thread killer([&] {
    while (!started.load()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
    group.Kill(2);
  });
  auto output = std::make_shared<MemoryOutput>();
  Status failure;
  {
    AsioLoop loop;
    MpiExecutor executor(loop, group.Rank(0), slots, rank_of_slot, options);
    FifoPolicy fifo;
    Controller controller(loop, executor, fifo, slots, cluster.nodes(),
                          MakePartitioner("dp-sketch").value());
    const JobId id = controller.next_job_id();
    executor.AddJob(id, make(nullptr, output), "stall");
    JobSpec spec;
    spec.name = spec.app = "stall";
    spec.reduces = 1;
    spec.partition_hashes = hashes;
    spec.maps.assign(3, {1, {}});
    controller.Submit(spec);
    controller.RunUntilIdle();
    failure = controller.outcome(id).failure;
  }
  ShutDownRanks(group.Rank(0));
  killer.join();
  for (std::thread& t : hosts) t.join();
  ASSERT_FALSE(failure.ok());
  EXPECT_NE(failure.message().find("rank 2 died"), std::string::npos) << failure.message();
  EXPECT_EQ(output->committed, -1);
  EXPECT_TRUE(output->parts.empty());
}

}  // namespace
}  // namespace mrlocal
