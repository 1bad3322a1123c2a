// A workload spec's queues, announced queue changes and closed-loop jobs ("queues",
// "events", "after"): what dynprio and capacity run on, and one clear line for each mistake.
#include <gtest/gtest.h>

#include "datasets/workload_spec.h"
#include "tools/runtime/app_registry.h"

namespace mrlocal {
namespace {

const AppSchemas& Apps() { return AppRegistry::BuiltIn().schemas(); }

// A spec of two synthetic jobs (a in q1, b in q2 after a) with `top` added at the top level.
std::string Spec(const std::string& top, const std::string& b_extra = R"(, "after": "a")") {
  return "{" + top + (top.empty() ? "" : ", ") +
         R"("jobs": [{"name": "a", "arrival_s": 0, "app": "synthetic", "maps": 1, "map_s": 1, "reduces": 0, "queue": "q1"},
                     {"name": "b", "arrival_s": 2, "app": "synthetic", "maps": 1, "map_s": 1, "reduces": 0, "queue": "q2")" +
         b_extra + "}]}";
}

TEST(WorkloadQueuesSpec, ReadsQueuesEventsInTimeOrderAndClosedLoops) {
  auto spec = ParseWorkloadJson(
      Spec(R"("queues": [{"name": "q1", "budget": 1000, "rate": 2}, {"name": "q2", "rate": 1}],
              "events": [{"at_s": 60, "queue": "q1", "add_budget": 500},
                         {"at_s": 30, "queue": "q2", "rate": 4},
                         {"at_s": 40, "add_queue": {"name": "q3", "budget": 5}},
                         {"at_s": 50, "remove_queue": "q3"}])"),
      "spec.json", Apps());
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  ASSERT_EQ(spec->queues.queues.size(), 2u);
  EXPECT_EQ(spec->queues.queues[0].budget, 1000);
  EXPECT_EQ(spec->queues.queues[0].rate, 2);
  EXPECT_FALSE(spec->queues.queues[1].budget.has_value()) << "no budget: unlimited";
  const auto& e = spec->queues.events;
  ASSERT_EQ(e.size(), 4u);
  EXPECT_EQ(e[0].kind, QueueEvent::Kind::kSetRate);
  EXPECT_EQ(e[0].at, std::chrono::seconds(30));
  EXPECT_EQ(e[0].value, 4);
  EXPECT_EQ(e[1].kind, QueueEvent::Kind::kAddQueue);
  EXPECT_EQ(e[1].queue.name, "q3");
  EXPECT_EQ(e[1].queue.budget, 5);
  EXPECT_EQ(e[2].kind, QueueEvent::Kind::kRemoveQueue);
  EXPECT_EQ(e[3].kind, QueueEvent::Kind::kAddBudget);
  EXPECT_EQ(e[3].value, 500);
  ASSERT_EQ(spec->jobs.size(), 2u);
  EXPECT_EQ(spec->jobs[1].after, "a");
}

TEST(WorkloadQueuesSpec, AJobMayBidForItself) {
  auto spec = ParseWorkloadJson(Spec("", R"(, "bid": 4)"), "spec.json", Apps());
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_FALSE(spec->jobs[0].bid.has_value());
  EXPECT_EQ(spec->jobs[1].bid, 4);
}

TEST(WorkloadQueuesSpec, WithoutQueuesAnyQueueNameIsFine) {
  auto spec = ParseWorkloadJson(Spec(""), "spec.json", Apps());
  ASSERT_TRUE(spec.ok()) << spec.status().message();
  EXPECT_TRUE(spec->queues.empty());
}

TEST(WorkloadQueuesSpec, EachMistakeIsOneLineNamingTheField) {
  const std::string q12 = R"("queues": [{"name": "q1"}, {"name": "q2"}])";
  const struct {
    std::string text, says;
  } cases[] = {
      {Spec(R"("queues": [{"name": "q1", "rate": -1}, {"name": "q2"}])"),
       "spec.json: queues[0].rate: must be a number of credits from 0 to 1000000000000 (got -1)"},
      {Spec(R"("queues": [{"name": "q1", "budget": -5}, {"name": "q2"}])"),
       "spec.json: queues[0].budget: must be a number of credits from 0 to 1000000000000 (got -5)"},
      {Spec(R"("queues": [{"name": "q1", "budget": "lots"}, {"name": "q2"}])"),
       "spec.json: queues[0].budget: must be a number of credits"},
      {Spec(R"("queues": [{"name": "q1", "rate": 1e13}, {"name": "q2"}])"),
       "spec.json: queues[0].rate: must be a number of credits from 0 to 1000000000000 (got "},
      {Spec(R"("queues": [{"name": "q1"}, {"name": "q2"}, {"name": "q1"}])"),
       "spec.json: queues[2].name: duplicate queue 'q1' (also queues[0])"},
      {Spec(R"("queues": [{"rate": 1}])"), "spec.json: queues[0].name: missing"},
      {Spec(R"("queues": [{"name": "q1", "rte": 1}])"),
       "spec.json: queues[0].rte: unknown key (did you mean 'rate'?)"},
      {Spec(R"("queues": {"name": "q1"})"), "spec.json: queues: must be a list of"},
      {Spec(R"("queues": [{"name": "q1"}])"),
       "spec.json: jobs[1].queue: unknown queue 'q2' (declared: q1)"},
      {Spec(q12 + R"(, "events": [{"at_s": 5, "queue": "q9", "rate": 2}])"),
       "spec.json: events[0]: no open queue 'q9' at 5 s (open then: q1, q2)"},
      {Spec(q12 + R"(, "events": [{"at_s": 5, "remove_queue": "q1"},
                                   {"at_s": 6, "queue": "q1", "add_budget": 2}])"),
       "spec.json: events[1]: no open queue 'q1' at 6 s (open then: q2)"},
      {Spec(q12 + R"(, "events": [{"at_s": 5, "add_queue": {"name": "q2"}}])"),
       "spec.json: events[0].add_queue.name: queue 'q2' is open already"},
      {Spec(q12 + R"(, "events": [{"at_s": 5, "queue": "q1", "rate": 2, "add_budget": 1}])"),
       "spec.json: events[0]: give exactly one of rate, add_budget, add_queue, remove_queue"},
      {Spec(q12 + R"(, "events": [{"at_s": 5, "queue": "q1"}])"),
       "spec.json: events[0]: give exactly one of"},
      {Spec(q12 + R"(, "events": [{"queue": "q1", "rate": 2}])"),
       "spec.json: events[0].at_s: missing"},
      {Spec(q12 + R"(, "events": [{"at_s": -1, "queue": "q1", "rate": 2}])"),
       "spec.json: events[0].at_s: must be a non-negative number (got -1)"},
      {Spec(q12 + R"(, "events": [{"at_s": 1, "queue": "q1", "rate": -2}])"),
       "spec.json: events[0].rate: must be a number of credits"},
      {Spec(q12 + R"(, "events": [{"at_s": 1, "queue": "q1", "add_budget": -2}])"),
       "spec.json: events[0].add_budget: must be a number of credits"},
      {Spec(q12 + R"(, "events": [{"at_s": 1, "queue": "q1", "remove_queue": "q1"}])"),
       "spec.json: events[0].queue: remove_queue names its queue itself"},
      {Spec(q12 + R"(, "events": [{"at_s": 2e9, "queue": "q1", "rate": 2}])"),
       "spec.json: events[0].at_s: must be at most 1000000000"},
      {Spec("", R"(, "after": "zz")"), "spec.json: jobs[1].after: no job named 'zz'"},
      {Spec("", R"(, "after": "b")"),
       "spec.json: jobs[1].after: 'b' would wait for itself (a cycle of after)"},
      {Spec("", R"(, "after": 3)"), "spec.json: jobs[1].after: must be a non-empty string"},
      {Spec("", R"(, "bid": -4)"),
       "spec.json: jobs[1].bid: must be a number of credits from 0 to 1000000000000 (got -4)"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    auto spec = ParseWorkloadJson(c.text, "spec.json", Apps());
    ASSERT_FALSE(spec.ok());
    EXPECT_EQ(spec.status().message().rfind(c.says, 0), 0u) << spec.status().message();
    EXPECT_EQ(spec.status().message().find('\n'), std::string::npos);
  }
}

TEST(WorkloadQueuesSpec, ACycleThroughTwoJobsIsRefused) {
  auto spec = ParseWorkloadJson(
      R"({"jobs": [{"name": "a", "arrival_s": 0, "app": "synthetic", "maps": 1, "map_s": 1, "reduces": 0, "after": "b"},
                   {"name": "b", "arrival_s": 0, "app": "synthetic", "maps": 1, "map_s": 1, "reduces": 0, "after": "a"}]})",
      "spec.json", Apps());
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().message(),
            "spec.json: jobs[0].after: 'a' would wait for itself (a cycle of after)");
}

}  // namespace
}  // namespace mrlocal
