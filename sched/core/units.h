// Durations and sizes as users type them (30s, 1500ms, 2m, 1h; 32MiB, 1GiB, 500MB) and as
// reports print them. Parsing is exact decimal arithmetic, independent of the locale.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>

#include "engine/status.h"
#include "sched/core/clock.h"

namespace mrlocal {

// A decimal number and a unit: ns, us (or µs), ms, s, m or min, h; case-insensitive,
// blanks around and between allowed ("1.5s", " 2 m "). Rounded to the nanosecond. Fails
// with InvalidArgument for a missing or unknown unit, zero or negative values, values
// over ~292 years, and anything else (exponents, signs, "1..2s").
Result<Duration> ParseDuration(std::string_view text);

// A decimal number and an optional unit: B, KB/MB/GB/TB/PB (powers of 10),
// KiB/MiB/GiB/TiB/PiB (powers of 2); case-insensitive; no unit means bytes. Fractions are
// fine when they make whole bytes ("1.5GiB"), zero is returned as 0 (callers that need
// a positive size check). Single letters (k, m, g) are refused as ambiguous.
Result<uint64_t> ParseSize(std::string_view text);

// For reports: "850 us", "12.3 ms", "1.23 s", "2 m 05 s", "1 h 02 m"; negatives get '-'.
std::string FormatDuration(Duration d);
// Durations printed side by side, in one unit so that they read and add up alike:
// "deadline 120.00 s MET with 119.99 s to spare", where FormatDuration alone says
// "2 m 00 s" and "119.99 s". The unit is the one FormatDuration picks for the longest of
// them, except that seconds serve up to an hour, and minutes (with seconds) beyond.
enum class DurationUnit { kMicros, kMillis, kSeconds, kMinutes, kHours };
class DurationScale {
 public:
  explicit DurationScale(std::initializer_list<Duration> line);
  std::string operator()(Duration d) const;

 private:
  DurationUnit unit_;
};

// For reports: "512 B", "1.5 KiB", "512.0 MiB", "1.00 GiB", "2.00 TiB".
std::string FormatBytes(uint64_t bytes);
// A number as a user would type it: "1000000", not "1e+06"; "0.5".
std::string FormatNumber(double v);

}  // namespace mrlocal
