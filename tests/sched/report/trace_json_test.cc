// trace.json as Perfetto reads it: valid JSON, one track per slot, one slice per attempt
// with what it was, controller events for jobs and decisions, and a cap on big runs.
#include "sched/report/trace_json.h"

#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "hand_made_run.h"
#include "simulated_run.h"
#include "tests/util/test_util.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;
using testing::ReadFile;
using testing::ScratchDir;

nlohmann::json Written(const RunRecorder& rec, const std::vector<SlotInfo>& slots,
                       const TraceOptions& o = {}) {
  ScratchDir dir;
  EXPECT_TRUE(WriteTrace(dir / "trace.json", rec, slots, o).ok());
  return nlohmann::json::parse(ReadFile(dir / "trace.json"));
}

TEST(TraceJson, HasOneTrackPerSlotAndOneSlicePerAttempt) {
  RunRecorder rec;
  const testing::SimulatedRun run = testing::Simulate(rec, 3, seconds(100));
  const nlohmann::json trace = Written(rec, run.slots);
  std::set<int> tracks, used;
  std::map<std::string, int> phases;
  for (const auto& e : trace.at("traceEvents")) {
    const std::string ph = e.at("ph");
    ++phases[ph];
    if (ph == "M" && e.at("name") == "thread_name" && e.at("tid") != 0)
      tracks.insert(e.at("tid").get<int>());
    if (ph == "X") used.insert(e.at("tid").get<int>());
  }
  EXPECT_EQ(tracks.size(), run.slots.size());
  EXPECT_EQ(phases["X"], 9);  // 3 jobs x (2 maps + 1 reduce)
  EXPECT_EQ(static_cast<size_t>(phases["X"]), rec.attempts().size());
  for (int t : used) EXPECT_TRUE(tracks.count(t)) << t;
  // The controller's instants: per job its admission, deadline, plan and end; per attempt
  // the decision that launched it.
  EXPECT_EQ(phases["i"], 3 * 4 + 9);
}

// Two attempts of one map of job 5 "sort" on slot 1 (node 0, half speed), the first
// preempted; then a failed reduce.
RunRecorder SmallRun() {
  testing::HandMadeRun run;
  run.input_bytes = 64;
  run.Arrive(5, 0, testing::JobBuilder().Name("sort").Maps(1).Build(), Admission::Yes("fits"));
  run.rec.OnDecision(1, TaskRef{5, TaskKind::kMap, 0}, seconds(1), std::chrono::microseconds(3));
  run.Attempt({5, TaskKind::kMap, 0}, 1, 1, 2, Status::Aborted("preempted"));
  run.Attempt({5, TaskKind::kMap, 0}, 1, 2, 4);
  run.Attempt({5, TaskKind::kReduce, 0}, 1, 4, 5, Status::Corruption("bad spill"));
  return std::move(run.rec);
}

const std::vector<SlotInfo> kSlots = {{0, SlotKind::kMap, 0, 1.0}, {1, SlotKind::kMap, 0, 0.5}};

TEST(TraceJson, SaysWhatEachSliceIs) {
  TraceOptions o;
  o.process = "mrlocal test";
  const nlohmann::json trace = Written(SmallRun(), kSlots, o);
  std::vector<nlohmann::json> slices;
  std::map<std::string, nlohmann::json> named;
  for (const auto& e : trace.at("traceEvents")) {
    if (e.at("ph") == "X") slices.push_back(e);
    named[e.at("name")] = e;
  }
  EXPECT_EQ(named.at("process_name").at("args").at("name"), "mrlocal test");
  EXPECT_EQ(named.at("admit sort (job 5)").at("args").at("detail"), "fits");
  EXPECT_EQ(named.at("assign sort (job 5) map 0 to slot 1").at("args").at("detail"),
            "decision took 3.000 us");
  ASSERT_EQ(slices.size(), 3u);
  const auto& preempted = slices[0];
  EXPECT_EQ(preempted.at("name"), "sort (job 5) map 0");
  EXPECT_EQ(preempted.at("tid"), 2);  // slot 1's track
  EXPECT_EQ(preempted.at("ts"), 1e6);
  EXPECT_EQ(preempted.at("dur"), 1e6);
  EXPECT_EQ(preempted.at("args").at("preempted"), true);
  EXPECT_EQ(slices[1].at("args").at("attempt"), 2);
  EXPECT_EQ(slices[1].at("args").at("ok"), true);
  EXPECT_EQ(slices[2].at("args").at("error"), "bad spill");
  EXPECT_FALSE(slices[0].at("args").contains("error"));
}

TEST(TraceJson, TrackNamesSayNodeKindSlotAndSpeed) {
  bool found = false;
  const nlohmann::json trace = Written(SmallRun(), kSlots);
  for (const auto& e : trace.at("traceEvents")) {
    if (e.at("name") != "thread_name" || e.at("tid") != 2) continue;
    EXPECT_EQ(e.at("args").at("name"), "node 0 map slot 1 (s=0.50)");
    found = true;
  }
  EXPECT_TRUE(found);
}

TEST(TraceJson, WithoutDecisionCostsTheSameRunGivesTheSameBytes) {
  ScratchDir dir;
  TraceOptions o;
  o.decision_costs = false;
  for (const char* f : {"a.json", "b.json"}) {
    RunRecorder rec;
    testing::Simulate(rec, 2, seconds(100));
    ASSERT_TRUE(WriteTrace(dir / f, rec, testing::SimulatedRun().slots, o).ok());
  }
  EXPECT_EQ(ReadFile(dir / "a.json"), ReadFile(dir / "b.json"));
  EXPECT_EQ(ReadFile(dir / "a.json").find("decision took"), std::string::npos);
}

TEST(TraceJson, CapsBigRunsAndSaysSo) {
  TraceOptions o;
  o.max_events = 2;
  int slices = 0;
  std::string note;
  const nlohmann::json trace = Written(SmallRun(), kSlots, o);
  for (const auto& e : trace.at("traceEvents")) {
    slices += e.at("ph") == "X";
    if (e.at("name") == "trace truncated") note = e.at("args").at("detail");
  }
  EXPECT_EQ(slices, 2);
  EXPECT_EQ(note, "1 later attempts left out (tasks.csv has them)");
}

TEST(TraceJson, InvalidUtf8InANameIsReplacedNotAnError) {
  RunRecorder rec;
  rec.OnAdmission(testing::ArrivingJob(testing::JobBuilder().Name("bad\xff name").Build()),
                  Admission::Yes(""), seconds(0));
  const nlohmann::json trace = Written(rec, kSlots);
  bool found = false;
  for (const auto& e : trace.at("traceEvents"))
    found = found || e.at("name") == "admit bad\xEF\xBF\xBD name (job 1)";
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace mrlocal
