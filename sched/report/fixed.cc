#include "sched/report/fixed.h"

#include <charconv>
#include <cmath>

namespace mrlocal {

std::string Fixed(double v, int decimals) {
  if (!std::isfinite(v)) return "";
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed, decimals);
  if (ec != std::errc()) return "";
  std::string s(buf, end);
  if (s.find_first_not_of("-0.") == std::string::npos && s[0] == '-') s.erase(0, 1);  // -0.0
  return s;
}

}  // namespace mrlocal
