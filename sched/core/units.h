// Durations and sizes as users type them (30s, 1500ms, 2m, 1h; 32MiB, 1GiB, 500MB) and as
// reports print them. Parsing is exact decimal arithmetic, independent of the locale.
#pragma once

#include <cstdint>
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
// For reports: "512 B", "1.5 KiB", "512.0 MiB", "1.00 GiB", "2.00 TiB".
std::string FormatBytes(uint64_t bytes);

}  // namespace mrlocal
