// The ranges of mrlocal's options, as CLI11 validators attached where each option is
// declared: a value outside the range is refused while parsing, before anything runs or is
// written, with one line naming the option and the range:
//   mrlocal: error: --top: must be an integer from 0 to 2147483647 (got '-1')
// Within() attaches a check and states its range in the option's help, so that what the
// help says and what is enforced cannot drift apart. Every option that takes a value has
// one (tests/tools/option_walk_test.cc walks them all).
#pragma once

#include <CLI/CLI.hpp>
#include <charconv>
#include <cstdint>
#include <string>
#include <vector>

namespace mrlocal {

// Attaches `check` to `opt` and appends its range to the option's help: "(RANGE)".
CLI::Option* Within(CLI::Option* opt, const CLI::Validator& check);

// "must be RANGE (got 'TEXT')": the message of every check below.
std::string MustBe(const std::string& range, const std::string& text);

// Decimal digits with an optional sign ('+', or '-' for signed types), nothing else.
template <class T>
bool ParseInteger(std::string_view text, T& value) {
  if (text.size() > 1 && text[0] == '+' && text[1] != '-') text.remove_prefix(1);
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  return !text.empty() && ec == std::errc() && end == text.data() + text.size();
}

// An integer in [lo, hi]. The value is handed on in plain decimal: CLI11 itself would read
// "010" as octal 8 and wrap "-1" into an unsigned option.
template <class T>
CLI::Validator IntegerIn(T lo, T hi) {
  const std::string range = "an integer from " + std::to_string(lo) + " to " + std::to_string(hi);
  return CLI::Validator(
      [=](std::string& text) {
        T v{};
        if (!ParseInteger(text, v) || v < lo || v > hi) return MustBe(range, text);
        text = std::to_string(v);
        return std::string();
      },
      range);
}

// A finite number in [lo, hi], or (lo, hi] when the low end is open; hi = DBL_MAX: no upper
// bound ("a number >= 1").
enum class LowEnd { kClosed, kOpen };
CLI::Validator NumberIn(double lo, double hi, LowEnd low = LowEnd::kClosed);

// A duration of sched/core/units.h's ParseDuration: positive, with a unit.
CLI::Validator PositiveDuration();
// A size of ParseSize, at least `min` bytes.
CLI::Validator SizeAtLeast(uint64_t min);
// A size of ParseSize in [min, max] bytes.
CLI::Validator SizeIn(uint64_t min, uint64_t max);
// A cluster spec (ClusterSpec::Parse), or one of `presets` by name.
CLI::Validator ClusterSpecOrPreset(const std::vector<std::string>& presets = {});
// A fault to inject (sched/core/fault_injection.h's ParseFault).
CLI::Validator FaultSpec();
// One of `names`, exactly.
CLI::Validator OneOf(const std::vector<std::string>& names);
// Anything but the empty string (a file or directory name); states no range in the help.
CLI::Validator NotEmpty();

// "a | b | c", or with another separator.
std::string JoinNames(const std::vector<std::string>& names, std::string_view separator = " | ");

}  // namespace mrlocal
