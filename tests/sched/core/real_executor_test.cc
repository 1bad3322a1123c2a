// RealExecutor on two real slot threads (one map, one reduce) running a tiny typed app:
// what its reports say, that Cancel stops a running attempt, and that FinishJob commits
// or discards the job's output. Driven directly, as the Controller drives it; no timing.
#include "sched/core/real_executor.h"

#include <gtest/gtest.h>

#include <atomic>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "engine/typed_job.h"
#include "tests/util/cluster.h"
#include "tests/util/memory_output.h"

namespace mrlocal {
namespace {

// Map task i adds i + 1 to each of the keys 0..9; the reduce sums. Its task `stall_task`
// instead runs until it is told to stop, after saying it started.
struct Tally {
  static constexpr std::string_view kName = "tally";
  static constexpr bool kTextInput = false;
  using Key = uint64_t;
  using Value = uint64_t;

  template <class Out, class Checkpoint>
  bool Map(uint32_t task, Out& out, Checkpoint&& checkpoint) const {
    if (task == stall_task) {
      stalled->store(true);
      while (checkpoint(0.5)) std::this_thread::yield();
      return false;
    }
    for (uint64_t k = 0; k < 10; ++k) out.Emit(k, uint64_t{task + 1});
    return checkpoint(1.0);
  }
  void Combine(Value& into, uint64_t x) const { into += x; }
  void Merge(Value& into, const Value& other) const { into += other; }
  void Reduce(Key, Value&) const {}
  uint64_t SizeUnits(Key, const Value&) const { return 1; }
  void FormatKey(std::string& out, Key k) const { out += std::to_string(k); }
  void FormatValue(std::string& out, const Value& v) const { out += std::to_string(v); }
  double Score(Key, const Value& v) const { return static_cast<double>(v); }

  uint32_t stall_task = UINT32_MAX;
  std::atomic<bool>* stalled = nullptr;
};

using testing::MemoryOutput;

// The executor on slots 0 (map) and 1 (reduce), and the reports it sends from their
// threads.
class RealExecutorTest : public ::testing::Test {
 protected:
  RealExecutorTest() : executor_(clock_, testing::OneNode(1, 1), SlotThreads{.pin = false}) {
    executor_.SetReportFn([this](TaskReport r) {
      std::lock_guard lock(mu_);
      reports_.push_back(std::move(r));
      arrived_.notify_all();
    });
  }

  void AddJob(JobId id, uint32_t maps, Tally app, RealJob job = {}) {
    job.runtime = std::make_shared<TypedJobRuntime<Tally>>(JobRuntimeOptions{hashes_, 3}, app);
    job.output = output_;
    job.maps = maps;
    job.reduces = 2;
    executor_.AddJob(id, std::move(job));
  }

  // Launches the task as attempt `token` and waits for its report.
  TaskReport Run(TaskRef task, uint64_t token) {
    executor_.Launch(Launch(task, token));
    return Await();
  }
  TaskLaunch Launch(TaskRef task, uint64_t token) {
    return TaskLaunch{task, token, task.kind == TaskKind::kMap ? 0 : 1, Time{0}, 1};
  }
  TaskReport Await() {
    std::unique_lock lock(mu_);
    arrived_.wait(lock, [this] { return !reports_.empty(); });
    TaskReport r = std::move(reports_.front());
    reports_.pop_front();
    return r;
  }

  FakeClock clock_;  // read from the slot threads; never moves
  std::vector<PartitionHash> hashes_ = MakePartitionHashes(2, 2, 1);
  std::shared_ptr<MemoryOutput> output_ = std::make_shared<MemoryOutput>();
  std::mutex mu_;
  std::condition_variable arrived_;
  std::deque<TaskReport> reports_;  // guarded by mu_
  RealExecutor executor_;           // last: its slot threads stop before the rest goes
};

// Runs maps 0..2 of job 1 (then map `again` a second time, as a speculative copy would,
// unless it is -1) and both reduces; returns the reduces' records in and the output lines.
struct TallyRun {
  uint64_t map_units = 0, records_in = 0;
  std::map<std::string, std::string> lines;  // key -> value
};

class RealExecutorJobTest : public RealExecutorTest,
                            public ::testing::WithParamInterface<bool> {  // kept apart
 protected:
  TallyRun RunTally(int again) {
    if (GetParam()) executor_.KeepMapOutputsApart();
    AddJob(1, 3, Tally{});
    TallyRun run;
    std::vector<uint32_t> maps = {0, 1, 2};
    if (again >= 0) maps.push_back(static_cast<uint32_t>(again));
    for (size_t n = 0; n < maps.size(); ++n) {
      const uint32_t i = maps[n];
      const TaskReport r = Run({1, TaskKind::kMap, i}, 10 + n);
      EXPECT_TRUE(r.status.ok()) << r.status.message();
      EXPECT_EQ(r.task, (TaskRef{1, TaskKind::kMap, i}));
      EXPECT_EQ(r.token, 10 + n);
      EXPECT_EQ(r.slot, 0);
      EXPECT_EQ(r.output_records, 10u) << "ten keys, combined";
      EXPECT_EQ(r.output_bytes, 10u) << "one size unit per key";
      EXPECT_TRUE(r.sketch.has_value());
      if (n < 3) run.map_units += r.output_bytes;
    }
    EXPECT_EQ(executor_.Progress(0), 1.0);

    executor_.SetPlan(1, ReducePlan{hashes_[0], {0, 1}});
    uint64_t keys_out = 0;
    for (uint32_t r = 0; r < 2; ++r) {
      const TaskReport report = Run({1, TaskKind::kReduce, r}, 20 + r);
      EXPECT_TRUE(report.status.ok()) << report.status.message();
      EXPECT_EQ(report.slot, 1);
      run.records_in += report.input_bytes;
      keys_out += report.output_records;
      EXPECT_LE(report.top.size(), 3u);
    }
    EXPECT_EQ(keys_out, 10u);

    EXPECT_TRUE(executor_.FinishJob(1, /*success=*/true).ok());
    EXPECT_TRUE(output_->committed_parts.has_value());
    EXPECT_EQ(output_->committed_parts.value_or(0), 2u);
    EXPECT_FALSE(output_->aborted);
    std::string all;
    for (const auto& [reduce, text] : output_->parts) all += text;
    for (size_t pos = 0, nl; (nl = all.find('\n', pos)) != std::string::npos; pos = nl + 1) {
      const std::string line = all.substr(pos, nl - pos);
      run.lines[line.substr(0, line.find('\t'))] = line.substr(line.find('\t') + 1);
    }
    return run;
  }
};

TEST_P(RealExecutorJobTest, RunsMapsThenReducesAndCommitsTheOutput) {
  const TallyRun run = RunTally(-1);
  if (GetParam())
    EXPECT_EQ(run.records_in, run.map_units) << "every map output record reached one reduce";
  else
    EXPECT_EQ(run.records_in, 10u) << "the maps' outputs, absorbed into one as they finished, "
                                      "hold each key once, and every key reached one reduce";
  ASSERT_EQ(run.lines.size(), 10u);
  for (const auto& [key, value] : run.lines) EXPECT_EQ(value, "6") << "key " << key << ": 1+2+3";
}

// A map that finishes twice (a speculative copy beside the original) counts once.
TEST_P(RealExecutorJobTest, AMapThatFinishesTwiceCountsOnce) {
  const TallyRun run = RunTally(/*again=*/1);
  ASSERT_EQ(run.lines.size(), 10u);
  for (const auto& [key, value] : run.lines) EXPECT_EQ(value, "6") << "key " << key << ": 1+2+3";
}

INSTANTIATE_TEST_SUITE_P(MapOutputs, RealExecutorJobTest, ::testing::Values(false, true),
                         [](const auto& info) { return info.param ? "KeptApart" : "Absorbed"; });

TEST_F(RealExecutorTest, CancelStopsARunningAttemptAndAFailedJobsOutputIsDiscarded) {
  std::atomic<bool> stalled{false};
  AddJob(1, 2, Tally{.stall_task = 1, .stalled = &stalled});
  ASSERT_TRUE(Run({1, TaskKind::kMap, 0}, 1).status.ok());
  executor_.Launch(Launch({1, TaskKind::kMap, 1}, 2));
  while (!stalled.load()) std::this_thread::yield();
  executor_.Cancel(0, 2);
  const TaskReport r = Await();
  EXPECT_EQ(r.token, 2u);
  EXPECT_EQ(r.status.code(), Status::Code::kAborted) << r.status.message();

  ASSERT_TRUE(executor_.FinishJob(1, /*success=*/false).ok());
  EXPECT_TRUE(output_->aborted);
  EXPECT_FALSE(output_->committed_parts.has_value());
  EXPECT_TRUE(executor_.FinishJob(1, true).ok()) << "a job it no longer knows: nothing to do";
}

TEST_F(RealExecutorTest, AMapWhoseSplitCannotBeReadFailsWithTheReadersStatus) {
  RealJob job;
  job.read_split = [](uint32_t index, NodeId node) -> Result<SplitInput> {
    if (index == 1)
      return Status::Corruption("block 1: all replicas corrupt (node " + std::to_string(node) +
                                ")");
    return SplitInput{};
  };
  AddJob(1, 2, Tally{}, std::move(job));
  EXPECT_TRUE(Run({1, TaskKind::kMap, 0}, 1).status.ok());
  const TaskReport r = Run({1, TaskKind::kMap, 1}, 2);
  EXPECT_EQ(r.status.code(), Status::Code::kCorruption);
  EXPECT_EQ(r.status.message(), "block 1: all replicas corrupt (node 0)");
}

}  // namespace
}  // namespace mrlocal
