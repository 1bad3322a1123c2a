#include "tools/cli/preset_sweep.h"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "datasets/workload_presets.h"

namespace mrlocal {
namespace {

// Errors name the option they came from: --sweep or --param (none: a validator's, which
// CLI11 prefixes with the option).
Status Bad(std::string_view option, const std::string& why) {
  return Status::InvalidArgument(option.empty() ? why : std::string(option) + ": " + why);
}

// A finite number, the whole of `text`.
Result<double> Number(std::string_view option, std::string_view text) {
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || !std::isfinite(v))
    return Bad(option,
               std::string("'").append(text).append("' is not a number"));  // GCC 12: no -Wrestrict
  return v;
}

std::vector<std::string_view> Split(std::string_view text, char sep) {
  std::vector<std::string_view> parts;
  for (size_t start = 0;;) {
    const size_t end = text.find(sep, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string_view::npos) return parts;
    start = end + 1;
  }
}

// LO:HI[:STEP], STEP > 0 (default 1). HI is included when a step lands on it (within a
// millionth of a step, so that 0.1 steps reach 1.0).
Result<std::vector<double>> Range(std::string_view option, std::string_view text) {
  const std::vector<std::string_view> parts = Split(text, ':');
  if (parts.size() > 3)
    return Bad(option, "a range is LO:HI or LO:HI:STEP (got '" + std::string(text) + "')");
  std::vector<double> n;
  for (std::string_view p : parts) {
    auto v = Number(option, p);
    if (!v.ok()) return v.status();
    n.push_back(*v);
  }
  const double step = n.size() == 3 ? n[2] : 1;
  if (!(step > 0)) return Bad(option, "the step of " + std::string(text) + " must be positive");
  if (n[0] > n[1]) return Bad(option, "empty range " + std::string(text) + " (LO must be <= HI)");
  if ((n[1] - n[0]) / step >= kMaxSweepPoints)
    return Bad(option,
               std::string(text) + " has more than " + std::to_string(kMaxSweepPoints) + " points");
  std::vector<double> values;
  for (size_t i = 0; n[0] + static_cast<double>(i) * step <= n[1] + step * 1e-6; ++i)
    values.push_back(n[0] + static_cast<double>(i) * step);
  return values;
}

// NAME=..., NAME one of `preset`'s parameters: the name and the text after '='.
Result<std::pair<std::string, std::string_view>> NameAndValues(std::string_view option,
                                                               std::string_view text,
                                                               std::string_view preset,
                                                               std::string_view form) {
  const size_t eq = text.find('=');
  if (eq == std::string_view::npos || eq == 0 || eq + 1 == text.size())
    return Bad(option, "expected " + std::string(form) + " (got '" + std::string(text) + "')");
  std::string name(text.substr(0, eq));
  const std::vector<PresetParameter> known = PresetParameters(preset);
  if (std::none_of(known.begin(), known.end(),
                   [&](const PresetParameter& p) { return p.name == name; }))
    return CheckPresetParameter(preset, name, 0).WithContext(std::string(option) + ": ");
  return std::pair{std::move(name), text.substr(eq + 1)};
}

}  // namespace

Result<PresetSweep> ParsePresetSweep(std::string_view text, std::string_view preset) {
  constexpr std::string_view kOption = "--sweep";
  auto named = NameAndValues(kOption, text, preset, "NAME=LO:HI[:STEP] or NAME=V1,V2,...");
  if (!named.ok()) return named.status();
  PresetSweep sweep;
  sweep.parameter = named->first;
  const std::string_view values = named->second;
  if (values.find(':') != std::string_view::npos) {
    auto range = Range(kOption, values);
    if (!range.ok()) return range.status();
    sweep.values = std::move(range).value();
  } else {
    const std::vector<std::string_view> list = Split(values, ',');
    if (list.size() > kMaxSweepPoints)
      return Bad(kOption, "more than " + std::to_string(kMaxSweepPoints) + " values");
    for (std::string_view v : list) {
      auto x = Number(kOption, v);
      if (!x.ok()) return x.status();
      sweep.values.push_back(*x);
    }
  }
  for (double v : sweep.values)
    MRLOCAL_RETURN_IF_ERROR(
        CheckPresetParameter(preset, sweep.parameter, v).WithContext("--sweep: "));
  return sweep;
}

Result<std::pair<std::string, double>> ParsePresetParam(std::string_view text,
                                                        std::string_view preset) {
  constexpr std::string_view kOption = "--param";
  auto named = NameAndValues(kOption, text, preset, "NAME=VALUE");
  if (!named.ok()) return named.status();
  auto value = Number(kOption, named->second);
  if (!value.ok()) return value.status();
  MRLOCAL_RETURN_IF_ERROR(
      CheckPresetParameter(preset, named->first, *value).WithContext("--param: "));
  return std::pair{named->first, *value};
}

Result<std::vector<double>> ParseLoads(std::string_view text) {
  constexpr std::string_view kOption = "";  // the validator names it
  if (text.empty()) return Bad(kOption, "expected arrival-rate multipliers A,B,C (e.g. 0.5,1,2,4)");
  const std::vector<std::string_view> list = Split(text, ',');
  if (list.size() > kMaxSweepPoints)
    return Bad(kOption, "more than " + std::to_string(kMaxSweepPoints) + " values");
  std::vector<double> loads;
  for (std::string_view v : list) {
    if (v.empty()) return Bad(kOption, "an empty value in '" + std::string(text) + "'");
    auto x = Number(kOption, v);
    if (!x.ok()) return x.status();
    if (!(*x > 0)) return Bad(kOption, std::string(v) + " is not a positive number");
    if (*x > kMaxLoad) return Bad(kOption, std::string(v) + " is above 1000000");
    loads.push_back(*x);
  }
  return loads;
}

CLI::Validator LoadList() {
  return CLI::Validator(
      [](std::string& text) {
        auto loads = ParseLoads(text);
        return loads.ok() ? std::string() : std::string(loads.status().message());
      },
      "each a number in (0, 1000000], at most " + std::to_string(kMaxSweepPoints) + " of them");
}

}  // namespace mrlocal
