// The Controller as a long-running service: submissions from other threads, Cancel,
// Shutdown, outcomes taken and jobs forgotten, a policy's invalid pick survived, and
// memory that stays bounded over a stream of jobs.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <thread>

#include "sched/core/asio_loop.h"
#include "sched/policy/fifo_policy.h"
#include "tests/util/cluster.h"
#include "tests/util/fake_executor.h"
#include "tests/util/job_builder.h"
#include "tests/util/sim_cluster.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;
using testing::OneNode;
using testing::Quiet;
using testing::SimCluster;

TEST(ControllerLifecycle, CancelEndsARunningJobAndFreesItsSlots) {
  FifoPolicy fifo;
  SimCluster c(fifo, OneNode(2, 1));
  c.SubmitAt(Time{0}, 4, 10.0);    // job 1: would hold both map slots until t = 20 s
  c.SubmitAt(seconds(1), 2, 1.0);  // job 2: queued behind it
  c.loop.At(seconds(2), [&] { EXPECT_TRUE(c.controller.Cancel(1).ok()); });
  c.controller.RunUntilIdle();

  const JobState& cancelled = c.controller.state().job(1);
  EXPECT_EQ(cancelled.phase, JobPhase::kFailed);
  EXPECT_EQ(c.controller.outcome(1).failure.code(), Status::Code::kAborted);
  EXPECT_EQ(c.controller.outcome(1).failure.message(), "cancelled");
  EXPECT_EQ(cancelled.finish, seconds(2));
  // Job 2's maps took the freed slots at once.
  const JobState& next = c.controller.state().job(2);
  EXPECT_EQ(next.phase, JobPhase::kDone);
  EXPECT_EQ(next.maps[0].start, seconds(2));
  EXPECT_EQ(next.finish, seconds(4));
  for (const SlotState& s : c.controller.state().slots) EXPECT_FALSE(s.task);
}

TEST(ControllerLifecycle, CancelIsIdempotentAndAnUnknownJobIsAnError) {
  FifoPolicy fifo;
  SimCluster c(fifo, OneNode(1, 1));
  c.SubmitAt(Time{0}, 1, 1.0);
  c.controller.RunUntilIdle();
  ASSERT_EQ(c.controller.state().job(1).phase, JobPhase::kDone);
  EXPECT_TRUE(c.controller.Cancel(1).ok());
  EXPECT_EQ(c.controller.state().job(1).phase, JobPhase::kDone) << "an ended job stays as it was";
  EXPECT_EQ(c.controller.Cancel(42).code(), Status::Code::kNotFound);
}

TEST(ControllerLifecycle, TakeOutcomeForgetsTheJob) {
  FifoPolicy fifo;
  SimCluster c(fifo, OneNode(1, 1));
  c.SubmitAt(Time{0}, 3, 1.0);
  c.loop.At(seconds(1), [&] {
    EXPECT_EQ(c.controller.TakeOutcome(1).status().code(), Status::Code::kInvalidArgument)
        << "a running job keeps its outcome";
  });
  c.controller.RunUntilIdle();

  Result<JobOutcome> outcome = c.controller.TakeOutcome(1);
  ASSERT_TRUE(outcome.ok());
  EXPECT_TRUE(outcome->failure.ok());
  EXPECT_TRUE(outcome->plan.has_value());
  EXPECT_FALSE(c.controller.state().jobs.contains(1));
  const Controller::Footprint f = c.controller.footprint();
  EXPECT_EQ(f.jobs + f.outcomes + f.sketches + f.retired + f.held, 0u);
  EXPECT_EQ(c.controller.TakeOutcome(1).status().code(), Status::Code::kNotFound);
  EXPECT_EQ(c.controller.Cancel(1).code(), Status::Code::kNotFound);
}

// Picks a task that does not exist once, then behaves as fifo.
class OnceWrongPolicy final : public Policy {
 public:
  std::string_view name() const override { return "once-wrong"; }
  Admission Admit(const JobState& j, const ClusterState& s, Time t) override {
    return fifo_.Admit(j, s, t);
  }
  std::optional<TaskRef> PickTask(const SlotInfo& slot, const ClusterState& s, Time t) override {
    if (wrong_) {
      wrong_ = false;
      return TaskRef{1, TaskKind::kMap, 99};
    }
    return fifo_.PickTask(slot, s, t);
  }

 private:
  FifoPolicy fifo_;
  bool wrong_ = true;
};

class InvalidDecisions final : public ControllerObserver {
 public:
  void OnInvalidDecision(std::string_view why, Time) override { seen.emplace_back(why); }
  std::vector<std::string> seen;
};

TEST(ControllerLifecycle, AnInvalidPickIsReportedAndTheRunGoesOn) {
  OnceWrongPolicy policy;
  // The slot of the wrong pick stays free until the next event; the other one runs maps.
  SimCluster c(policy, OneNode(2, 1));
  InvalidDecisions observer;
  c.controller.AddObserver(&observer);
  c.SubmitAt(Time{0}, 2, 1.0);
  c.controller.RunUntilIdle();

  EXPECT_EQ(c.controller.state().job(1).phase, JobPhase::kDone);
  EXPECT_EQ(c.controller.stats().invalid_decisions, 1u);
  ASSERT_EQ(observer.seen.size(), 1u);
  EXPECT_NE(observer.seen[0].find("once-wrong"), std::string::npos) << observer.seen[0];
  EXPECT_NE(observer.seen[0].find("no such task"), std::string::npos) << observer.seen[0];
}

// Records the largest footprint seen whenever a job finishes.
class FootprintWatch final : public ControllerObserver {
 public:
  FootprintWatch(const Controller& c, const SimLoop& loop) : c_(c), loop_(loop) {}
  void OnJobFinished(const JobState&, const JobOutcome&, Time) override {
    ++finished;
    const Controller::Footprint f = c_.footprint();
    max_jobs = std::max(max_jobs, f.jobs);
    max_outcomes = std::max(max_outcomes, f.outcomes);
    max_sketches = std::max(max_sketches, f.sketches);
    max_retired = std::max(max_retired, f.retired);
    max_queue = std::max(max_queue, loop_.queued());
  }
  size_t finished = 0;
  size_t max_jobs = 0, max_outcomes = 0, max_sketches = 0, max_retired = 0, max_queue = 0;

 private:
  const Controller& c_;
  const SimLoop& loop_;
};

TEST(ControllerLifecycle, MemoryStaysBoundedOverAStreamOfJobs) {
  constexpr int kJobs = 20000;
  FifoPolicy fifo;
  ControllerOptions options = Quiet();
  options.forget_finished_jobs = true;
  SimCluster c(fifo, OneNode(4, 2), options);
  FootprintWatch watch(c.controller, c.loop);
  c.controller.AddObserver(&watch);
  // Each arrival submits the next (a job every 2 s; each takes 2 s of maps and 1 s of
  // reduce): the queue holds the next arrival, not all of them.
  int submitted = 0;
  std::function<void(Time)> submit = [&](Time at) {
    c.controller.SubmitAt(at, [&, at, make = c.Maker(3, 2.0, 1, 1.0)](JobId id) {
      if (++submitted < kJobs) submit(at + seconds(2));
      return make(id);
    });
  };
  submit(Time{0});
  c.controller.RunUntilIdle();

  EXPECT_EQ(watch.finished, static_cast<size_t>(kJobs));
  EXPECT_LE(watch.max_jobs, 3u);
  EXPECT_LE(watch.max_outcomes, 3u);
  EXPECT_LE(watch.max_sketches, 3u);
  EXPECT_LE(watch.max_retired, 3u);
  EXPECT_LE(watch.max_queue, 16u);
  const Controller::Footprint f = c.controller.footprint();
  EXPECT_EQ(f.jobs + f.outcomes + f.sketches + f.retired + f.held, 0u);
}

// Shuts the controller down when the first job finishes.
class ShutdownOnFinish final : public ControllerObserver {
 public:
  explicit ShutdownOnFinish(Controller& c) : c_(c) {}
  void OnJobFinished(const JobState& job, const JobOutcome&, Time) override {
    finished = job.id;
    c_.Shutdown();
  }
  JobId finished = 0;

 private:
  Controller& c_;
};

TEST(ControllerLifecycle, ASubmissionFromAnotherThreadRunsUntilShutdown) {
  AsioLoop loop;
  const std::vector<SlotInfo> slots = OneNode(1, 1);
  testing::FakeExecutor exec(loop, slots, [](const TaskRef&) { return Duration::zero(); });
  FifoPolicy fifo;
  Controller controller(loop, exec, fifo, slots, 1, std::move(MakePartitioner("hash")).value(),
                        Quiet());
  ShutdownOnFinish shutdown(controller);
  controller.AddObserver(&shutdown);
  std::thread::id made_on;
  std::thread submitter([&] {
    controller.SubmitAsync([&](JobId) {
      made_on = std::this_thread::get_id();
      return testing::JobBuilder().Maps(2, 1, {0}).Build();
    });
  });
  controller.RunUntilShutdown();  // not idle-bound: returns only through Shutdown
  submitter.join();
  EXPECT_EQ(made_on, std::this_thread::get_id());
  EXPECT_EQ(shutdown.finished, 1u);
  EXPECT_EQ(controller.state().job(1).phase, JobPhase::kDone);
}

TEST(ControllerLifecycle, RunUntilIdleWaitsForAnAsyncSubmission) {
  FifoPolicy fifo;
  SimCluster c(fifo, OneNode(1, 1));
  c.controller.SubmitAsync(c.Maker(2, 1.0, 1, 1.0));
  c.controller.RunUntilIdle();
  EXPECT_EQ(c.controller.state().job(1).phase, JobPhase::kDone);
  EXPECT_EQ(c.controller.state().job(1).finish, seconds(3));
}

}  // namespace
}  // namespace mrlocal
