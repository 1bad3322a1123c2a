// The policy registry: each policy's traits, the settings it is made with, the best-effort
// fallback, and that a name is registered once.
#include "sched/policy/policy_registry.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sched/policy/fifo_policy.h"
#include "tests/util/cluster.h"
#include "tests/util/policy_test_util.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;
using testing::ExactHistory;
using ::testing::HasSubstr;
using testing::MakeCluster;
using testing::MakeSyntheticJob;

const PolicyDescriptor& Descriptor(std::string_view name) {
  auto d = FindPolicy(name);
  EXPECT_TRUE(d.ok()) << name;
  return **d;
}

// Settings with a preview of one job of one map on one machine, for the planning policies,
// and a forecast, for those that plan with the capacity ahead.
PolicyArgs OneJobPreview() {
  PlanPreview preview;
  preview.instance.machine_speeds = {1.0};
  preview.instance.jobs.push_back({.maps = {1}, .reduces = {}, .name = "job"});
  return PolicyArgs()
      .SetPreview(std::make_shared<const PlanPreview>(std::move(preview)))
      .SetForecast(std::make_shared<ConstantForecast>(testing::OneNode(1, 1)));
}

TEST(PolicyRegistry, KeepsTheNamesAndTheirOrder) {
  EXPECT_EQ(PolicyNames(),
            (std::vector<std::string>{"fifo", "fair", "dynprio", "capacity", "edf", "llf",
                                      "adaptive", "reverse-adaptive", "rtmr", "rtmr-nofb", "dc",
                                      "mars", "t-mars", "mares", "h-mares", "huwf", "hjwf",
                                      "htwf", "stf", "so-mars"}));
  for (const std::string& name : PolicyNames()) EXPECT_FALSE(Descriptor(name).summary.empty());
}

TEST(PolicyRegistry, TraitsSayWhatCallersMustDoWithoutNamingThePolicy) {
  const JobHistory h = ExactHistory();
  for (const std::string& name : PolicyNames()) {
    SCOPED_TRACE(name);
    const PolicyTraits& t = Descriptor(name).traits;
    const bool deadline = name == "rtmr" || name == "rtmr-nofb" || name == "dc";
    const bool goals = name == "adaptive" || name == "reverse-adaptive";
    EXPECT_EQ(t.needs_estimator, deadline || name == "llf" || goals);
    EXPECT_EQ(t.needs_forecast, name == "reverse-adaptive");
    EXPECT_EQ(t.all_reduces_at_once, name == "dc");
    EXPECT_EQ(t.best_effort_fallback, name == "fifo");
    EXPECT_EQ(t.deadline_default, name == "rtmr");
    // --no-feedback: rtmr and rtmr-nofb become rtmr-nofb; no other policy has feedback.
    EXPECT_EQ(Descriptor(name).without_feedback,
              name == "rtmr" || name == "rtmr-nofb" ? "rtmr-nofb" : "");
    const bool shares = name == "fair" || name == "dynprio" || name == "capacity";
    EXPECT_EQ(t.needs_preview,
              !deadline && !goals && !shares && name != "llf" && name != "fifo" && name != "edf");
    auto made = MakePolicy(name, &h, OneJobPreview());
    ASSERT_TRUE(made.ok()) << made.status().message();
    EXPECT_EQ((*made)->name(), name);
    EXPECT_EQ(t.admission_control, (*made)->admission_control());
  }
  EXPECT_EQ(BestEffortPolicy().name, "fifo");
  EXPECT_EQ(DeadlineDefaultPolicy().name, "rtmr");
}

TEST(PolicyRegistry, ANameIsRegisteredOnce) {
  PolicyRegistry r;
  auto fifo = [](const Estimator*, const PolicyArgs&) { return std::make_unique<FifoPolicy>(); };
  ASSERT_TRUE(r.Register({"mine", "a test policy", {}, {}, fifo}).ok());
  Status again = r.Register({"mine", "another", {}, {}, fifo});
  EXPECT_EQ(again.code(), Status::Code::kInvalidArgument);
  EXPECT_THAT(again.message(), HasSubstr("'mine' is already registered"));
  EXPECT_EQ(r.Names(), std::vector<std::string>{"mine"});
  EXPECT_EQ(r.Register({"", "no name", {}, {}, fifo}).code(), Status::Code::kInvalidArgument);

  EXPECT_EQ(r.best_effort_fallback(), nullptr);
  ASSERT_TRUE(r.Register({"first", "", {.best_effort_fallback = true}, {}, fifo}).ok());
  EXPECT_FALSE(r.Register({"second", "", {.best_effort_fallback = true}, {}, fifo}).ok());
  EXPECT_EQ(r.best_effort_fallback()->name, "first");

  EXPECT_EQ(r.deadline_default(), nullptr);
  ASSERT_TRUE(r.Register({"edf1", "", {.deadline_default = true}, {}, fifo}).ok());
  EXPECT_FALSE(r.Register({"edf2", "", {.deadline_default = true}, {}, fifo}).ok());
  EXPECT_EQ(r.deadline_default()->name, "edf1");
}

// One range per setting name: the flag of that name checks it for every policy.
TEST(PolicyRegistry, ASettingIsDeclaredAlikeByEveryPolicyThatReadsIt) {
  PolicyRegistry r;
  auto fifo = [](const Estimator*, const PolicyArgs&) { return std::make_unique<FifoPolicy>(); };
  ASSERT_TRUE(r.Register({"one", "", {}, {kEstimateMarginSetting}, fifo}).ok());
  ASSERT_TRUE(r.Register({"two", "", {}, {kEstimateMarginSetting}, fifo}).ok());
  Status other =
      r.Register({"three", "", {}, {PolicySetting::Number(kEstimateMargin, 0, 100)}, fifo});
  EXPECT_EQ(other.message(),
            "policy 'three': setting 'estimate-margin' is declared otherwise by 'one'");
}

TEST(PolicyRegistry, AnUnknownNameListsTheKnownOnes) {
  auto bad = MakePolicy("nope");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "unknown policy 'nope' (known: fifo, fair, dynprio, capacity, edf, llf, adaptive, "
            "reverse-adaptive, rtmr, "
            "rtmr-nofb, dc, mars, t-mars, mares, h-mares, huwf, hjwf, htwf, stf, so-mars)");
  EXPECT_FALSE(FindPolicy("nope").ok());
}

// 1 map slot, 1 reduce slot; one 10 s map and one 5 s reduce, estimated exactly: 15 s.
TEST(PolicyRegistry, SettingsReachThePolicyThatDeclaresThem) {
  const JobHistory h = ExactHistory();
  const JobState job = MakeSyntheticJob(1, 0, 20, {10}, 1, 5);
  for (const char* name : {"rtmr", "dc"}) {
    SCOPED_TRACE(name);
    ClusterState s = MakeCluster(testing::OneNode(1, 1));
    auto plain = MakePolicy(name, &h);
    ASSERT_TRUE(plain.ok());
    EXPECT_TRUE((*plain)->Admit(job, s, Time{0}).admitted);
    // Four times the estimates: the reduce alone takes the whole 20 s.
    auto wide = MakePolicy(name, &h, PolicyArgs().Set(kEstimateMargin, 4.0));
    ASSERT_TRUE(wide.ok());
    EXPECT_FALSE((*wide)->Admit(job, s, Time{0}).admitted);
  }
  // A setting of the wrong type is refused; one the policy does not read is ignored.
  auto wrong = MakePolicy("rtmr", &h, PolicyArgs().Set(kEstimateMargin, seconds(2)));
  ASSERT_FALSE(wrong.ok());
  EXPECT_THAT(wrong.status().message(), HasSubstr("estimate-margin"));
  EXPECT_TRUE(MakePolicy("fifo", nullptr, PolicyArgs().Set(kEstimateMargin, seconds(2))).ok());
  // So is one out of the range the flag enforces.
  auto narrow = MakePolicy("dc", &h, PolicyArgs().Set(kEstimateMargin, 0.5));
  ASSERT_FALSE(narrow.ok());
  EXPECT_EQ(narrow.status().message(),
            "policy 'dc': setting 'estimate-margin' must be a number in [1, 100] (got '0.5')");
  EXPECT_FALSE(CheckPolicy("llf", PolicyArgs().Set(kLofMinPts, 2.5)).ok());
  EXPECT_TRUE(CheckPolicy("llf", PolicyArgs().Set(kLofMinPts, 2.0)).ok());
}

TEST(PolicyRegistry, APlanningPolicyWithoutAPreviewIsRefusedSayingWhy) {
  for (const char* name : {"mars", "huwf", "stf"}) {
    auto made = MakePolicy(name);
    ASSERT_FALSE(made.ok());
    EXPECT_EQ(made.status().message(),
              "policy '" + std::string(name) +
                  "' plans over the whole job set before the run: it needs a workload whose "
                  "jobs declare their task times (synthetic jobs)");
    EXPECT_EQ(CheckPolicy(name).message(), made.status().message());
  }
  EXPECT_TRUE(CheckPolicy("mars", OneJobPreview()).ok());
}

}  // namespace
}  // namespace mrlocal
