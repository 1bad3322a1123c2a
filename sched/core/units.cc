#include "sched/core/units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>

namespace mrlocal {
namespace {

using u128 = unsigned __int128;

// "12.345" split exactly: whole = 12, frac = 345, scale = 1000.
struct Decimal {
  u128 whole = 0;
  uint64_t frac = 0;
  uint64_t scale = 1;
  bool whole_too_big = false;    // over 19 integer digits: beyond any value we accept
  bool dropped_nonzero = false;  // nonzero decimals past the 18th (too fine to keep)
};

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

// 'text', built by appending: g++ 12 warns falsely (-Wrestrict) on "'" + std::string.
std::string Quote(std::string_view text) {
  std::string q(1, '\'');
  q.append(text);
  q.push_back('\'');
  return q;
}

// Reads the leading decimal of `text` into `d` and the rest (trimmed, lower-cased) into
// `unit`. False when there is no well-formed number.
bool SplitNumber(std::string_view text, Decimal* d, std::string* unit) {
  size_t i = 0, digits = 0;
  for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i, ++digits) {
    if (d->whole >= 10'000'000'000'000'000'000ull)
      d->whole_too_big = true;
    else
      d->whole = d->whole * 10 + static_cast<unsigned>(text[i] - '0');
  }
  if (i < text.size() && text[i] == '.') {
    ++i;
    for (; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i, ++digits) {
      if (d->scale < 1'000'000'000'000'000'000ull) {
        d->frac = d->frac * 10 + static_cast<unsigned>(text[i] - '0');
        d->scale *= 10;
      } else if (text[i] != '0') {
        d->dropped_nonzero = true;
      }
    }
  }
  if (digits == 0) return false;
  unit->clear();
  for (char c : Trim(text.substr(i)))
    unit->push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return true;
}

}  // namespace

Result<Duration> ParseDuration(std::string_view raw) {
  const std::string_view text = Trim(raw);
  const std::string quoted = Quote(text);
  const std::string_view kExamples = " (use e.g. 30s, 1500ms, 2m, 1h)";
  if (text.empty()) return Status::InvalidArgument("empty duration" + std::string(kExamples));
  if (text[0] == '-') return Status::InvalidArgument("duration " + quoted + " must be positive");
  Decimal d;
  std::string unit;
  if (!SplitNumber(text, &d, &unit))
    return Status::InvalidArgument("cannot read duration " + quoted + std::string(kExamples));
  uint64_t ns_per;
  if (unit == "ns")
    ns_per = 1;
  else if (unit == "us" || unit == "\xc2\xb5s")
    ns_per = 1'000;
  else if (unit == "ms")
    ns_per = 1'000'000;
  else if (unit == "s")
    ns_per = 1'000'000'000;
  else if (unit == "m" || unit == "min")
    ns_per = 60'000'000'000;
  else if (unit == "h")
    ns_per = 3'600'000'000'000;
  else if (unit.empty())
    return Status::InvalidArgument("missing unit in duration " + quoted + std::string(kExamples));
  else
    return Status::InvalidArgument("unknown unit '" + unit + "' in duration " + quoted +
                                   " (use ns, us, ms, s, m or h)");
  constexpr u128 kMax = std::numeric_limits<int64_t>::max();
  if (d.whole_too_big || d.whole > kMax / ns_per)
    return Status::InvalidArgument("duration " + quoted + " is too long");
  u128 ns = d.whole * ns_per + (u128{d.frac} * ns_per + d.scale / 2) / d.scale;  // round
  if (ns > kMax) return Status::InvalidArgument("duration " + quoted + " is too long");
  if (ns == 0) return Status::InvalidArgument("duration " + quoted + " must be positive");
  return Duration(static_cast<int64_t>(ns));
}

Result<uint64_t> ParseSize(std::string_view raw) {
  const std::string_view text = Trim(raw);
  const std::string quoted = Quote(text);
  if (text.empty()) return Status::InvalidArgument("empty size (use e.g. 32MiB, 1GiB, 500MB)");
  if (text[0] == '-') return Status::InvalidArgument("size " + quoted + " must not be negative");
  Decimal d;
  std::string unit;
  if (!SplitNumber(text, &d, &unit))
    return Status::InvalidArgument("cannot read size " + quoted + " (use e.g. 32MiB, 1GiB, 500MB)");
  uint64_t mult;
  if (unit.empty() || unit == "b")
    mult = 1;
  else if (unit == "kb")
    mult = 1'000;
  else if (unit == "mb")
    mult = 1'000'000;
  else if (unit == "gb")
    mult = 1'000'000'000;
  else if (unit == "tb")
    mult = 1'000'000'000'000;
  else if (unit == "pb")
    mult = 1'000'000'000'000'000;
  else if (unit == "kib")
    mult = uint64_t{1} << 10;
  else if (unit == "mib")
    mult = uint64_t{1} << 20;
  else if (unit == "gib")
    mult = uint64_t{1} << 30;
  else if (unit == "tib")
    mult = uint64_t{1} << 40;
  else if (unit == "pib")
    mult = uint64_t{1} << 50;
  else if (unit == "k" || unit == "m" || unit == "g" || unit == "t" || unit == "p")
    return Status::InvalidArgument("ambiguous unit '" + unit + "' in size " + quoted + " (use " +
                                   unit + "iB for powers of 2 or " + unit + "B for powers of 10)");
  else
    return Status::InvalidArgument("unknown unit '" + unit + "' in size " + quoted +
                                   " (use B, KiB, MiB, GiB, TiB, KB, MB, GB, TB)");
  constexpr u128 kMax = std::numeric_limits<uint64_t>::max();
  const u128 frac_units = u128{d.frac} * mult;  // < 2^60 * 2^50
  if (frac_units % d.scale != 0 || d.dropped_nonzero)
    return Status::InvalidArgument("size " + quoted + " is not a whole number of bytes");
  const u128 bytes = d.whole * mult + frac_units / d.scale;
  if (d.whole_too_big || bytes > kMax)
    return Status::InvalidArgument("size " + quoted + " is too large");
  return static_cast<uint64_t>(bytes);
}

namespace {

// `seconds` >= 0 in `unit`: "850 us", "12.3 ms", "1.23 s", "2 m 05 s", "1 h 02 m".
std::string FormatIn(double seconds, DurationUnit unit) {
  char buf[48];
  switch (unit) {
    case DurationUnit::kMicros:
      std::snprintf(buf, sizeof buf, "%.0f us", seconds * 1e6);
      break;
    case DurationUnit::kMillis:
      std::snprintf(buf, sizeof buf, "%.1f ms", seconds * 1e3);
      break;
    case DurationUnit::kSeconds:
      std::snprintf(buf, sizeof buf, "%.2f s", seconds);
      break;
    case DurationUnit::kMinutes: {
      const long t = static_cast<long>(seconds + 0.5);
      std::snprintf(buf, sizeof buf, "%ld m %02ld s", t / 60, t % 60);
      break;
    }
    case DurationUnit::kHours: {
      const long t = static_cast<long>(seconds / 60 + 0.5);
      std::snprintf(buf, sizeof buf, "%ld h %02ld m", t / 60, t % 60);
      break;
    }
  }
  return buf;
}

// FormatDuration's unit for `seconds` >= 0: each bound is where the finer unit would
// round up to the next one ("%.1f ms" of 0.9996 s is "1000.0 ms").
DurationUnit UnitOf(double seconds) {
  if (seconds < 0.9995e-3) return DurationUnit::kMicros;
  if (seconds < 0.9995) return DurationUnit::kMillis;
  if (seconds < 119.995) return DurationUnit::kSeconds;
  if (seconds < 3599.5) return DurationUnit::kMinutes;
  return DurationUnit::kHours;
}

std::string Signed(Duration d, DurationUnit unit) {
  std::string sign(d < Duration::zero() ? 1 : 0, '-');  // not "-" + text: g++ 12 -Wrestrict
  return sign.append(FormatIn(std::abs(Seconds(d)), unit));
}

}  // namespace

std::string FormatDuration(Duration d) { return Signed(d, UnitOf(std::abs(Seconds(d)))); }

DurationScale::DurationScale(std::initializer_list<Duration> line) {
  double longest = 0;
  for (Duration d : line) longest = std::max(longest, std::abs(Seconds(d)));
  unit_ = UnitOf(longest);
  if (unit_ == DurationUnit::kMinutes && longest < 3599.995) unit_ = DurationUnit::kSeconds;
  if (unit_ == DurationUnit::kHours) unit_ = DurationUnit::kMinutes;
}

std::string DurationScale::operator()(Duration d) const { return Signed(d, unit_); }

std::string FormatBytes(uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  int unit = 0;
  double v = static_cast<double>(bytes);
  while (unit < 6 && v >= 1024) {
    v /= 1024;
    ++unit;
  }
  int decimals = unit <= 2 ? 1 : 2;
  // 1048575 B is 1024.0 KiB at one decimal: say 1.0 MiB instead.
  if (unit < 6 && v >= 1024 - (decimals == 1 ? 0.05 : 0.005)) {
    v /= 1024;
    ++unit;
    decimals = unit <= 2 ? 1 : 2;
  }
  char buf[48];
  std::snprintf(buf, sizeof buf, "%.*f %s", decimals, v, kUnits[unit]);
  return buf;
}

std::string FormatNumber(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, v == std::floor(v) && std::fabs(v) < 1e15 ? "%.0f" : "%g", v);
  return buf;
}

}  // namespace mrlocal
