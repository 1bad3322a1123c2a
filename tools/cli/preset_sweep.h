// `mrlocal compare --sweep NAME=LO:HI[:STEP]` (or NAME=V1,V2,...): the values of one preset
// parameter (PresetParameters, datasets/workload_presets.h) to run the comparison at.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "engine/status.h"

namespace mrlocal {

struct PresetSweep {
  std::string parameter;
  std::vector<double> values;  // in the order given; a range ascends from LO to HI
};

inline constexpr size_t kMaxSweepPoints = 1000;

// Parses the text and checks every value against `preset`'s parameter. Errors are one
// line for exit code 2: "--sweep: preset rtmr-wl1 has no parameter 'concurrency' (it has
// none)", "--sweep: empty range 5:1 (LO must be <= HI)", "--sweep: concurrency must be an
// integer in [1, 100] (got 0)".
Result<PresetSweep> ParsePresetSweep(std::string_view text, std::string_view preset);

}  // namespace mrlocal
