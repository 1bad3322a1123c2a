// `compare --policies NAME[:SETTING=VALUE]...`: entries parsed by the settings each policy
// declares, their values by the setting's type and range (the flag's), each bad list refused
// with one line; and the flags' validators built from the same declarations.
#include "tools/cli/policy_list.h"

#include <gtest/gtest.h>

#include "sched/policy/fifo_policy.h"

namespace mrlocal {
namespace {

using std::chrono::seconds;

TEST(PolicyList, EachEntryIsAPolicyWithItsSettingsLabelledByItsText) {
  auto list = ParsePolicyList(
      "edf,rtmr,rtmr:estimate-margin=4,rtmr-nofb:feedback-threshold=2s:"
      "estimate-margin=1.5,llf:lof-min-pts=4");
  ASSERT_TRUE(list.ok()) << list.status().message();
  ASSERT_EQ(list->size(), 5u);
  EXPECT_EQ((*list)[0].label, "edf");
  EXPECT_EQ((*list)[0].policy, "edf");
  EXPECT_TRUE((*list)[0].settings.empty());
  EXPECT_EQ((*list)[2].label, "rtmr:estimate-margin=4");
  EXPECT_EQ((*list)[2].policy, "rtmr");
  EXPECT_EQ((*list)[2].settings.at("estimate-margin"), PolicyArgs::Value(4.0));
  EXPECT_EQ((*list)[3].policy, "rtmr-nofb");
  EXPECT_EQ((*list)[3].settings.at("feedback-threshold"), PolicyArgs::Value(Duration(seconds(2))));
  EXPECT_EQ((*list)[3].settings.at("estimate-margin"), PolicyArgs::Value(1.5));
  EXPECT_EQ((*list)[4].settings.at("lof-min-pts"), PolicyArgs::Value(4.0));
  EXPECT_EQ(PolicyNamesOf(*list),
            (std::vector<std::string>{"edf", "rtmr", "rtmr", "rtmr-nofb", "llf"}));
}

TEST(PolicyList, AnEntrysSettingsOverrideTheFlagsForThatEntryOnly) {
  auto list = ParsePolicyList("rtmr,rtmr:estimate-margin=4");
  ASSERT_TRUE(list.ok()) << list.status().message();
  PolicyArgs flags;
  flags.Set(kEstimateMargin, 2.0).Set(kFeedbackThreshold, Duration(seconds(3)));
  const PolicyArgs plain = (*list)[0].Args(flags);
  const PolicyArgs wide = (*list)[1].Args(flags);
  EXPECT_EQ(plain.Get<double>(kEstimateMargin), 2.0);
  EXPECT_EQ(wide.Get<double>(kEstimateMargin), 4.0);
  EXPECT_EQ(wide.Get<Duration>(kFeedbackThreshold), Duration(seconds(3)));
  EXPECT_EQ(flags.Get<double>(kEstimateMargin), 2.0);
}

TEST(PolicyList, EachBadListIsRefusedWithOneLineThatSaysWhy) {
  const struct {
    const char* text;
    const char* says;
  } cases[] = {
      {"", "expected a comma-separated list of policies, each NAME[:SETTING=VALUE]..."},
      {",", "expected a comma-separated list of policies"},
      {",,", "expected a comma-separated list of policies"},
      {"edf,,rtmr", "an empty entry in 'edf,,rtmr'"},
      {"edf,", "an empty entry in 'edf,'"},
      {"nope", "unknown policy 'nope' (known: fifo, fair, dynprio,"},
      {"rtmr:lof-threshold=2",
       "rtmr has no setting 'lof-threshold' (its settings: estimate-margin, feedback-threshold"},
      {"edf:estimate-margin=2", "edf has no setting 'estimate-margin' (it has none)"},
      {"rtmr:estimate-margin=0",
       "'rtmr:estimate-margin=0': estimate-margin must be a number in [1, 100] (got '0')"},
      {"rtmr:estimate-margin=2s", "estimate-margin must be a number in [1, 100] (got '2s')"},
      {"rtmr:estimate-margin=nan", "estimate-margin must be a number in [1, 100] (got 'nan')"},
      {"rtmr:feedback-threshold=2",
       "feedback-threshold must be a positive duration with a unit (ns, us, ms, s, m, h)"},
      {"rtmr:feedback-threshold=0s", "feedback-threshold must be a positive duration"},
      {"llf:lof-threshold=1", "lof-threshold must be a number in (1, 100] (got '1')"},
      {"llf:lof-min-pts=2.5", "lof-min-pts must be an integer from 2 to 1000 (got '2.5')"},
      {"rtmr:estimate-margin", "'rtmr:estimate-margin': expected SETTING=VALUE after ':'"},
      {"rtmr:", "'rtmr:': expected SETTING=VALUE after ':' (got '')"},
      {"rtmr:=2", "expected SETTING=VALUE after ':' (got '=2')"},
      {"rtmr:estimate-margin=", "estimate-margin must be a number in [1, 100] (got '')"},
      {"rtmr:estimate-margin=2:estimate-margin=3",
       "'rtmr:estimate-margin=2:estimate-margin=3': sets estimate-margin twice"},
      {"rtmr,edf,rtmr", "'rtmr' is given twice"},
      {"rtmr:estimate-margin=1,rtmr:estimate-margin=1.0",
       "'rtmr:estimate-margin=1' and 'rtmr:estimate-margin=1.0' are the same variant of rtmr"},
      {":estimate-margin=2", "unknown policy ''"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    auto list = ParsePolicyList(c.text);
    ASSERT_FALSE(list.ok());
    EXPECT_EQ(list.status().code(), Status::Code::kInvalidArgument);
    EXPECT_NE(list.status().message().find(c.says), std::string::npos) << list.status().message();
    EXPECT_EQ(list.status().message().find('\n'), std::string::npos);
  }
}

// A registry of one policy with a text setting, as reject-policy is declared.
PolicyRegistry TextSettingRegistry() {
  PolicyRegistry r;
  Status st = r.Register(
      {"shedder",
       "a test policy with a text setting",
       {},
       {kRejectPolicySetting, kEstimateMarginSetting},
       [](const Estimator*, const PolicyArgs&) { return std::make_unique<FifoPolicy>(); }});
  EXPECT_TRUE(st.ok()) << st.message();
  return r;
}

TEST(PolicyList, ATextSettingTakesOneOfItsChoices) {
  const PolicyRegistry registry = TextSettingRegistry();
  auto list =
      ParsePolicyList("shedder:reject-policy=drop,shedder:reject-policy=backfill", registry);
  ASSERT_TRUE(list.ok()) << list.status().message();
  EXPECT_EQ((*list)[1].settings.at("reject-policy"), PolicyArgs::Value(std::string("backfill")));
  EXPECT_TRUE(registry.Check("shedder", (*list)[1].Args({})).ok());

  auto bad = ParsePolicyList("shedder:reject-policy=keep", registry);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.status().message(),
            "'shedder:reject-policy=keep': reject-policy must be one of drop | backfill (got "
            "'keep')");
  auto unknown = ParsePolicyList("shedder:confidence=0.9", registry);
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().message(),
            "shedder has no setting 'confidence' (its settings: reject-policy, estimate-margin)");
}

// The flag and the entry check one declaration: what one refuses the other does.
TEST(PolicyList, AFlagsValidatorChecksTheSettingsRange) {
  for (const PolicySetting* s :
       {&kEstimateMarginSetting, &kLofThresholdSetting, &kLofMinPtsSetting, &kConfidenceSetting,
        &kRejectPolicySetting, &kFeedbackThresholdSetting}) {
    SCOPED_TRACE(s->name);
    const CLI::Validator check = SettingValue(*s);
    EXPECT_EQ(check.get_description(), s->Range());
    for (std::string text : {"0", "1", "1.5", "100", "101", "2.5", "4", "-1", "0s", "30s", "drop",
                             "backfill", "", "nan"}) {
      std::string given = text;
      const std::string message = check(given);
      EXPECT_EQ(message.empty(), s->Parse(text).ok()) << text << ": " << message;
    }
  }
  const CLI::Validator min_pts = SettingValue(kLofMinPtsSetting);
  std::string octal_looking = "010";
  EXPECT_EQ(min_pts(octal_looking), "");
  EXPECT_EQ(octal_looking, "10");
}

TEST(PolicySetting, StatesItsRangeAsTheFlagsDid) {
  EXPECT_EQ(kEstimateMarginSetting.Range(), "a number in [1, 100]");
  EXPECT_EQ(kLofThresholdSetting.Range(), "a number in (1, 100]");
  EXPECT_EQ(kLofMinPtsSetting.Range(), "an integer from 2 to 1000");
  EXPECT_EQ(kConfidenceSetting.Range(), "a number in (0, 1]");
  EXPECT_EQ(kRejectPolicySetting.Range(), "one of drop | backfill");
  EXPECT_TRUE(kConfidenceSetting.Parse("1").ok());
  EXPECT_FALSE(kConfidenceSetting.Parse("0").ok());
  EXPECT_TRUE(kConfidenceSetting.Parse("0.99").ok());
}

}  // namespace
}  // namespace mrlocal
