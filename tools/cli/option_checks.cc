#include "tools/cli/option_checks.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

#include "sched/core/cluster_spec.h"
#include "sched/core/fault_injection.h"
#include "sched/core/units.h"

namespace mrlocal {
namespace {

// As a user would type it: "1MiB", "4096".
std::string Size(uint64_t bytes) {
  constexpr uint64_t kMiB = uint64_t{1} << 20;
  return bytes >= kMiB && bytes % kMiB == 0 ? std::to_string(bytes / kMiB) + "MiB"
                                            : std::to_string(bytes);
}

}  // namespace

CLI::Option* Within(CLI::Option* opt, const CLI::Validator& check) {
  const std::string range = check.get_description();
  opt->description(opt->get_description() + " (" + range + ")");
  return opt->check(CLI::Validator(check).description(""));
}

std::string MustBe(const std::string& range, const std::string& text) {
  return "must be " + range + " (got '" + text + "')";
}

CLI::Validator NumberIn(double lo, double hi, LowEnd low) {
  const bool open = low == LowEnd::kOpen;
  const std::string range = hi == DBL_MAX
                                ? "a number " + std::string(open ? "> " : ">= ") + FormatNumber(lo)
                                : "a number in " + std::string(open ? "(" : "[") +
                                      FormatNumber(lo) + ", " + FormatNumber(hi) + "]";
  return CLI::Validator(
      [=](std::string& text) {
        double v = 0;
        // from_chars reads no blanks, hex or "0x", and "nan" and "inf" are not finite.
        auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
        const bool read = !text.empty() && ec == std::errc() && end == text.data() + text.size();
        if (!read || !std::isfinite(v) || v < lo || (open && v == lo) || v > hi)
          return MustBe(range, text);
        return std::string();
      },
      range);
}

CLI::Validator PositiveDuration() {
  const std::string range =
      "a positive duration with a unit (ns, us, ms, s, m, h), e.g. 30s or 1500ms";
  return CLI::Validator(
      [=](std::string& text) { return ParseDuration(text).ok() ? "" : MustBe(range, text); },
      range);
}

CLI::Validator SizeAtLeast(uint64_t min) {
  const std::string at_least = min <= 1 ? "> 0" : ">= " + Size(min);
  const std::string range = "a size " + at_least +
                            ", in bytes or with a unit (KiB, MiB, GiB, TiB; KB, MB, GB, TB), "
                            "e.g. 64MiB";
  return CLI::Validator(
      [=](std::string& text) {
        auto size = ParseSize(text);
        return size.ok() && *size >= std::max<uint64_t>(min, 1) ? "" : MustBe(range, text);
      },
      range);
}

CLI::Validator SizeIn(uint64_t min, uint64_t max) {
  const std::string range = "a size from " + Size(min) + " to " + Size(max) + " (" +
                            FormatBytes(max) +
                            "), in bytes or with a unit (KiB, MiB, GiB, TiB; KB, MB, GB, TB)";
  return CLI::Validator(
      [=](std::string& text) {
        auto size = ParseSize(text);
        return size.ok() && *size >= min && *size <= max ? "" : MustBe(range, text);
      },
      range);
}

CLI::Validator ClusterSpecOrPreset(const std::vector<std::string>& presets) {
  std::string range = "a cluster spec such as 2x(4m,1r,1.0)+1x(2m,1r,0.5)";
  if (!presets.empty()) range += " or a preset: " + JoinNames(presets);
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        if (std::find(presets.begin(), presets.end(), text) != presets.end()) return "";
        auto spec = ClusterSpec::Parse(text);
        if (spec.ok()) return "";
        // Parse's message names the option, the text and the form already: keep its reason.
        std::string reason = spec.status().message();
        const std::string prefix = "--cluster '" + text + "': ";
        if (reason.compare(0, prefix.size(), prefix) == 0) reason.erase(0, prefix.size());
        reason = reason.substr(0, reason.find(" (form: "));
        return "must be " + range + " (got '" + text + "': " + reason + ")";
      },
      range);
}

CLI::Validator FaultSpec() {
  const std::string range =
      "task-fail:P[,app=NAME][,kind=map|reduce][,seed=N], slot-fail:SLOT[,from=T], "
      "node-fail:NODE[,from=T], "
      "node-slow:NODE,factor=F[,from=T], replica-corrupt:MAP[,node=N] or "
      "replica-lost:MAP[,node=N]; "
      "P in [0, 1], F in (0, 1]";
  return CLI::Validator(
      [=](std::string& text) -> std::string {
        auto fault = ParseFault(text);
        return fault.ok() ? "" : fault.status().message();
      },
      range);
}

CLI::Validator OneOf(const std::vector<std::string>& names) {
  const std::string range = "one of " + JoinNames(names);
  return CLI::Validator(
      [=](std::string& text) {
        return std::find(names.begin(), names.end(), text) != names.end() ? ""
                                                                          : MustBe(range, text);
      },
      range);
}

CLI::Validator NotEmpty() {
  return CLI::Validator(
      [](std::string& text) { return text.empty() ? std::string("must not be empty") : ""; }, "");
}

std::string JoinNames(const std::vector<std::string>& names, std::string_view separator) {
  std::string all;
  for (const std::string& n : names) {
    if (!all.empty()) all += separator;
    all += n;
  }
  return all;
}

}  // namespace mrlocal
