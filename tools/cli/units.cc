#include "tools/cli/units.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace mrlocal {
namespace {

// Splits "1.5GiB" into 1.5 and "GiB"; fails unless the number is a plain decimal.
bool SplitNumber(std::string_view text, double* value, std::string* unit) {
  size_t i = 0;
  while (i < text.size() && (std::isdigit(static_cast<unsigned char>(text[i])) || text[i] == '.'))
    ++i;
  if (i == 0) return false;
  std::string num(text.substr(0, i));
  if (std::count(num.begin(), num.end(), '.') > 1 || num == ".") return false;
  *value = std::strtod(num.c_str(), nullptr);
  unit->clear();
  for (char c : text.substr(i)) unit->push_back(static_cast<char>(std::tolower(static_cast<unsigned char>(c))));
  return true;
}

std::string Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return std::string(s);
}

}  // namespace

Result<Duration> ParseDuration(std::string_view raw) {
  std::string text = Trim(raw);
  if (!text.empty() && text[0] == '-')
    return Status::InvalidArgument("duration '" + text + "' must be positive");
  double v;
  std::string unit;
  if (!SplitNumber(text, &v, &unit))
    return Status::InvalidArgument("cannot read duration '" + text + "' (use e.g. 30s, 1500ms, 2m, 1h)");
  double ns_per;
  if (unit == "ns") ns_per = 1;
  else if (unit == "us") ns_per = 1e3;
  else if (unit == "ms") ns_per = 1e6;
  else if (unit == "s") ns_per = 1e9;
  else if (unit == "m" || unit == "min") ns_per = 60e9;
  else if (unit == "h") ns_per = 3600e9;
  else if (unit.empty())
    return Status::InvalidArgument("duration '" + text + "' needs a unit (e.g. 30s, 1500ms, 2m, 1h)");
  else
    return Status::InvalidArgument("unknown unit '" + unit + "' in duration '" + text + "' (use ms, s, m or h)");
  double ns = v * ns_per;
  if (!(ns >= 1)) return Status::InvalidArgument("duration '" + text + "' must be positive");
  if (ns > 1e18) return Status::InvalidArgument("duration '" + text + "' is too long");
  return Duration(static_cast<int64_t>(std::llround(ns)));
}

Result<uint64_t> ParseSize(std::string_view raw) {
  std::string text = Trim(raw);
  if (!text.empty() && text[0] == '-')
    return Status::InvalidArgument("size '" + text + "' must not be negative");
  double v;
  std::string unit;
  if (!SplitNumber(text, &v, &unit))
    return Status::InvalidArgument("cannot read size '" + text + "' (use e.g. 32MiB, 1GiB, 500MB)");
  double mult;
  if (unit.empty() || unit == "b") mult = 1;
  else if (unit == "k" || unit == "kb") mult = 1e3;
  else if (unit == "m" || unit == "mb") mult = 1e6;
  else if (unit == "g" || unit == "gb") mult = 1e9;
  else if (unit == "t" || unit == "tb") mult = 1e12;
  else if (unit == "kib") mult = 1024.0;
  else if (unit == "mib") mult = 1024.0 * 1024;
  else if (unit == "gib") mult = 1024.0 * 1024 * 1024;
  else if (unit == "tib") mult = 1024.0 * 1024 * 1024 * 1024;
  else
    return Status::InvalidArgument("unknown unit '" + unit + "' in size '" + text + "' (use B, KiB, MiB, GiB, KB, MB, GB)");
  double bytes = v * mult;
  if (bytes > 9.2e18) return Status::InvalidArgument("size '" + text + "' is too large");
  if (bytes != std::floor(bytes))
    return Status::InvalidArgument("size '" + text + "' is not a whole number of bytes");
  return static_cast<uint64_t>(bytes);
}

std::string FormatDuration(Duration d) {
  double s = Seconds(d);
  char buf[48];
  if (s < 1e-3) std::snprintf(buf, sizeof buf, "%.0f us", s * 1e6);
  else if (s < 1) std::snprintf(buf, sizeof buf, "%.1f ms", s * 1e3);
  else if (s < 120) std::snprintf(buf, sizeof buf, "%.2f s", s);
  else std::snprintf(buf, sizeof buf, "%d m %02d s", static_cast<int>(s / 60), static_cast<int>(s) % 60);
  return buf;
}

std::string FormatBytes(uint64_t bytes) {
  char buf[48];
  double b = static_cast<double>(bytes);
  if (bytes < 1024) std::snprintf(buf, sizeof buf, "%lu B", static_cast<unsigned long>(bytes));
  else if (b < 1024.0 * 1024) std::snprintf(buf, sizeof buf, "%.1f KiB", b / 1024);
  else if (b < 1024.0 * 1024 * 1024) std::snprintf(buf, sizeof buf, "%.1f MiB", b / 1024 / 1024);
  else std::snprintf(buf, sizeof buf, "%.2f GiB", b / 1024 / 1024 / 1024);
  return buf;
}

}  // namespace mrlocal
