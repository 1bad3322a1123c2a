// Durations and sizes as users type them (30s, 1500ms, 2m, 1h; 32MiB, 1GiB, 500MB) and as
// reports print them.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "engine/status.h"
#include "sched/clock.h"

namespace mrlocal {

// "30s", "1500ms", "250us", "2m", "1h", "1.5s". Must be positive; a unit is required.
Result<Duration> ParseDuration(std::string_view text);

// "32MiB", "1GiB", "500MB", "64KiB", "4096" (bytes). Units are case-insensitive;
// KB/MB/GB are powers of 10, KiB/MiB/GiB powers of 2.
Result<uint64_t> ParseSize(std::string_view text);

std::string FormatDuration(Duration d);  // "850 us", "12.3 ms", "1.234 s", "2 m 05 s"
std::string FormatBytes(uint64_t bytes);  // "512 B", "1.5 KiB", "32.0 MiB", "1.00 GiB"

}  // namespace mrlocal
