// Durations and sizes: parsing (table-driven, valid and invalid) and report formatting.
#include "sched/core/units.h"

#include <gtest/gtest.h>

namespace mrlocal {
namespace {

using std::chrono::hours;
using std::chrono::microseconds;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::nanoseconds;
using std::chrono::seconds;

TEST(Units, ParsesDurations) {
  struct Case {
    std::string text;
    Duration want;
  };
  const std::vector<Case> cases = {
      {"30s", seconds(30)},
      {"1500ms", milliseconds(1500)},
      {"2m", minutes(2)},
      {"1h", hours(1)},
      {"250us", microseconds(250)},
      {"250\xc2\xb5s", microseconds(250)},
      {"7ns", nanoseconds(7)},
      {"1.5s", milliseconds(1500)},
      {".5s", milliseconds(500)},
      {"2.s", seconds(2)},
      {"0.25h", minutes(15)},
      {"1.5min", seconds(90)},
      {" 30 s ", seconds(30)},
      {"30S", seconds(30)},
      {"1500MS", milliseconds(1500)},
      {"0.0000000015s", nanoseconds(2)},  // rounded to the nanosecond
      {"0030s", seconds(30)},
      {"1.000000000000000000000000s", seconds(1)},
      {"9223372036s", seconds(9223372036)},  // just under INT64_MAX ns
  };
  for (const Case& c : cases) {
    auto d = ParseDuration(c.text);
    ASSERT_TRUE(d.ok()) << c.text << ": " << d.status().message();
    EXPECT_EQ(*d, c.want) << c.text;
  }
}

TEST(Units, RejectsBadDurationsWithOneLineReasons) {
  struct Case {
    std::string text;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"30", "missing unit in duration '30' (use e.g. 30s, 1500ms, 2m, 1h)"},
      {"0s", "duration '0s' must be positive"},
      {"0.0000000001s", "duration '0.0000000001s' must be positive"},
      {"-3s", "duration '-3s' must be positive"},
      {"soon", "cannot read duration 'soon' (use e.g. 30s, 1500ms, 2m, 1h)"},
      {"", "empty duration (use e.g. 30s, 1500ms, 2m, 1h)"},
      {"s", "cannot read duration 's' (use e.g. 30s, 1500ms, 2m, 1h)"},
      {".s", "cannot read duration '.s' (use e.g. 30s, 1500ms, 2m, 1h)"},
      {"+3s", "cannot read duration '+3s' (use e.g. 30s, 1500ms, 2m, 1h)"},
      {"3 parsecs", "unknown unit 'parsecs' in duration '3 parsecs' (use ns, us, ms, s, m or h)"},
      {"1..2s", "unknown unit '.2s' in duration '1..2s' (use ns, us, ms, s, m or h)"},
      {"1e3s", "unknown unit 'e3s' in duration '1e3s' (use ns, us, ms, s, m or h)"},
      {"1s2", "unknown unit 's2' in duration '1s2' (use ns, us, ms, s, m or h)"},
      {"9223372037s", "duration '9223372037s' is too long"},
      {"3000000h", "duration '3000000h' is too long"},
      {"99999999999999999999999999h", "duration '99999999999999999999999999h' is too long"},
  };
  for (const Case& c : cases) {
    auto d = ParseDuration(c.text);
    ASSERT_FALSE(d.ok()) << c.text;
    EXPECT_EQ(d.status().code(), Status::Code::kInvalidArgument);
    EXPECT_EQ(d.status().message(), c.message);
  }
}

TEST(Units, ParsesSizes) {
  struct Case {
    std::string text;
    uint64_t want;
  };
  const std::vector<Case> cases = {
      {"32MiB", 32ull << 20},
      {"1GiB", 1ull << 30},
      {"500MB", 500'000'000},
      {"64KiB", 64 << 10},
      {"4096", 4096},
      {"4096B", 4096},
      {"1.5GiB", 3ull << 29},
      {"0.5KiB", 512},
      {"32mib", 32ull << 20},
      {"1 gib", 1ull << 30},
      {"2kb", 2000},
      {"1TiB", 1ull << 40},
      {"1.25PB", 1'250'000'000'000'000},
      {"0", 0},
      {"16383PiB", 16383ull << 50},
      {"18446744073709551615", UINT64_MAX},
  };
  for (const Case& c : cases) {
    auto s = ParseSize(c.text);
    ASSERT_TRUE(s.ok()) << c.text << ": " << s.status().message();
    EXPECT_EQ(*s, c.want) << c.text;
  }
}

TEST(Units, RejectsBadSizesWithOneLineReasons) {
  struct Case {
    std::string text;
    std::string message;
  };
  const std::vector<Case> cases = {
      {"12 parsecs",
       "unknown unit 'parsecs' in size '12 parsecs' (use B, KiB, MiB, GiB, TiB, KB, MB, GB, TB)"},
      {"1.5B", "size '1.5B' is not a whole number of bytes"},
      {"0.3KiB", "size '0.3KiB' is not a whole number of bytes"},
      {"1.0000000000000000000001KiB",
       "size '1.0000000000000000000001KiB' is not a whole number of bytes"},
      {"-1MiB", "size '-1MiB' must not be negative"},
      {"MiB", "cannot read size 'MiB' (use e.g. 32MiB, 1GiB, 500MB)"},
      {"", "empty size (use e.g. 32MiB, 1GiB, 500MB)"},
      {"64m", "ambiguous unit 'm' in size '64m' (use miB for powers of 2 or mB for powers of 10)"},
      {"18446744073709551616", "size '18446744073709551616' is too large"},
      {"16384PiB", "size '16384PiB' is too large"},
      {"123456789012345678901234GiB", "size '123456789012345678901234GiB' is too large"},
  };
  for (const Case& c : cases) {
    auto s = ParseSize(c.text);
    ASSERT_FALSE(s.ok()) << c.text;
    EXPECT_EQ(s.status().code(), Status::Code::kInvalidArgument);
    EXPECT_EQ(s.status().message(), c.message);
  }
}

TEST(Units, FormatsDurationsForReports) {
  struct Case {
    Duration d;
    std::string want;
  };
  const std::vector<Case> cases = {
      {microseconds(850), "850 us"},
      {nanoseconds(0), "0 us"},
      {microseconds(12300), "12.3 ms"},
      {milliseconds(80), "80.0 ms"},
      {nanoseconds(999'999'000), "1.00 s"},
      {milliseconds(1234), "1.23 s"},
      {seconds(30), "30.00 s"},
      {seconds(125), "2 m 05 s"},
      {minutes(62) + seconds(10), "1 h 02 m"},
      {-milliseconds(1500), "-1.50 s"},
  };
  for (const Case& c : cases) EXPECT_EQ(FormatDuration(c.d), c.want);
}

TEST(Units, DurationsOnOneLineShareOneUnit) {
  // The closing report's "deadline 2 m 00 s MET with 119.99 s to spare".
  const DurationScale minutes2({seconds(120), milliseconds(119990), milliseconds(10)});
  EXPECT_EQ(minutes2(seconds(120)), "120.00 s");
  EXPECT_EQ(minutes2(milliseconds(119990)), "119.99 s");
  EXPECT_EQ(minutes2(milliseconds(10)), "0.01 s");
  const DurationScale millis({milliseconds(500), microseconds(300)});
  EXPECT_EQ(millis(milliseconds(500)), "500.0 ms");
  EXPECT_EQ(millis(microseconds(300)), "0.3 ms");
  EXPECT_EQ(millis(-milliseconds(2)), "-2.0 ms");
  const DurationScale long_run({minutes(90), seconds(30)});
  EXPECT_EQ(long_run(minutes(90)), "90 m 00 s");
  EXPECT_EQ(long_run(seconds(30)), "0 m 30 s");
  // Alone, a duration reads as FormatDuration says it.
  for (auto d : {nanoseconds(850'000), nanoseconds(12'300'000), nanoseconds(1'230'000'000)})
    EXPECT_EQ(DurationScale({d})(d), FormatDuration(d));
}

TEST(Units, FormatsBytesForReports) {
  struct Case {
    uint64_t bytes;
    std::string want;
  };
  const std::vector<Case> cases = {
      {0, "0 B"},
      {512, "512 B"},
      {1023, "1023 B"},
      {1536, "1.5 KiB"},
      {512ull << 20, "512.0 MiB"},
      {(1ull << 20) - 1, "1.0 MiB"},
      {1ull << 30, "1.00 GiB"},
      {2ull << 40, "2.00 TiB"},
      {UINT64_MAX, "16.00 EiB"},
  };
  for (const Case& c : cases) EXPECT_EQ(FormatBytes(c.bytes), c.want) << c.bytes;
}

}  // namespace
}  // namespace mrlocal
