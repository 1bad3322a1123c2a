// Availability profiles that a workload spec generates or reads rather than lists step by
// step (README, "Workload spec"): a daily web load as a sinusoid, bursts of load, and CPU
// availability measured on a machine, read from a CSV file. Each expands to the steps of
// a step function (sched/core/speed_profile.h) when the spec is read, so that everything
// downstream (the simulator, the slots' throttles, the forecasts) sees only steps.
//
// Errors are InvalidArgument with one line that names the field or the CSV's line but not
// the spec: the spec reader puts "spec.json: availability[0].profile..." before it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"

namespace mrlocal {

struct ProfileStep {
  double at_s = 0;      // seconds since the workload's start
  double factor = 1.0;  // in (0, 1], from at_s on
};

// A typo (a step of 1 ms over a year) must not expand to a profile that eats the memory.
inline constexpr size_t kMaxProfileSteps = 1'000'000;

// A web load that follows the day: availability a(t) = 1 - load(t) swings between `min`
// (when the load peaks, at phase_s, phase_s + period_s, ...) and `max` half a period
// later: a(t) = (max + min)/2 - (max - min)/2 cos(2 pi (t - phase_s) / period_s). Sampled
// at the middle of each step of step_s from 0 to until_s; the last sample holds after it.
struct SinusoidProfile {
  double period_s = 86400;
  double min = 0;  // REQUIRES: in (0, max]
  double max = 1.0;
  double phase_s = 0;
  double step_s = 0;  // 0: period_s / 96 (15 minutes of a day)
  double until_s = 0;
};

// Bursts of load that take the nodes down to `factor` for length_s each, 1.0 between them,
// from 0 to until_s (a burst still on at until_s ends there). A burst starts every every_s
// on average: kFixed, exactly every every_s (the first at every_s); kExponential, after a
// quiet time between bursts drawn exponential with mean every_s - length_s (so bursts
// arrive as a Poisson process, without overlapping), from `seed`.
struct BurstProfile {
  enum class Gaps { kExponential, kFixed };
  double every_s = 0;  // REQUIRES: > length_s
  double length_s = 0;
  double factor = 0.5;
  Gaps gaps = Gaps::kExponential;
  uint64_t seed = 1;
  double until_s = 0;
};

// The steps, or InvalidArgument naming the field at fault ("min: ...") when a value is out
// of range or the profile would have more than kMaxProfileSteps steps.
Result<std::vector<ProfileStep>> ExpandSinusoid(const SinusoidProfile& p);
Result<std::vector<ProfileStep>> ExpandBursts(const BurstProfile& p);

// The product a(t) x b(t) of two step functions (each 1.0 before its first step): a daily
// load with bursts on top. Steps at every time either changes, merged where equal.
std::vector<ProfileStep> MultiplyProfiles(const std::vector<ProfileStep>& a,
                                          const std::vector<ProfileStep>& b);

// Measured availability, one row per sample: a header line that names a `time_s` column
// and either an `availability` column (the factor, in (0, 1]) or a `cpu_busy` column (the
// CPU's busy fraction in [0, 1), as a monitor measures it: availability = 1 - cpu_busy);
// other columns are ignored. Comma-separated, times strictly increasing. A gap is an error
// (a forecast made from a hole would be made up): an empty cell, or two rows further apart
// than twice the median step. Errors name the line: "line 7: cpu_busy: empty cell".
Result<std::vector<ProfileStep>> ParseAvailabilityCsv(std::string_view text);

}  // namespace mrlocal
