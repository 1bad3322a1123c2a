// Preset parameters on the command line (PresetParameters, datasets/workload_presets.h):
// `--param NAME=VALUE`, and `mrlocal compare --sweep NAME=LO:HI[:STEP]` (or NAME=V1,V2,...),
// the values of one parameter to run the comparison at; and `compare --load A,B,C`, the
// arrival-rate multipliers to run it at.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/status.h"

namespace mrlocal {

struct PresetSweep {
  std::string parameter;
  std::vector<double> values;  // in the order given; a range ascends from LO to HI
};

inline constexpr size_t kMaxSweepPoints = 1000;
// The largest arrival-rate multiplier (as --time-scale's largest factor): beyond it every
// arrival is at 0 to the nanosecond anyway.
inline constexpr double kMaxLoad = 1e6;

// Parses the text and checks every value against `preset`'s parameter. Errors are one
// line for exit code 2: "--sweep: preset rtmr-wl1 has no parameter 'concurrency' (it has
// none)", "--sweep: empty range 5:1 (LO must be <= HI)", "--sweep: concurrency must be an
// integer in [1, 100] (got 0)".
Result<PresetSweep> ParsePresetSweep(std::string_view text, std::string_view preset);

// `--param NAME=VALUE`: one parameter of `preset`, checked against its range. Errors like
// --sweep's, naming --param.
Result<std::pair<std::string, double>> ParsePresetParam(std::string_view text,
                                                        std::string_view preset);

// `--load A,B,C`: each value a number in (0, kMaxLoad], at most kMaxSweepPoints of them, in the
// order given. Errors are one line, without the option's name (its validator, LoadList,
// adds it): "0 is not a positive number", "an empty value in '1,,2'".
Result<std::vector<double>> ParseLoads(std::string_view text);
// The validator of --load: ParseLoads's errors, refused while parsing.
CLI::Validator LoadList();

}  // namespace mrlocal
