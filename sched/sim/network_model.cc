#include "sched/sim/network_model.h"

#include <cmath>
#include <string>

#include "sched/core/units.h"

namespace mrlocal {

Duration NetworkModel::TransferTime(double bytes) const {
  if (!active() || bytes <= 0) return Duration(0);
  const double messages = std::ceil(bytes / static_cast<double>(message_bytes));
  return FromSeconds(bytes / bytes_per_s) +
         Duration(static_cast<int64_t>(messages) * latency.count());
}

Result<NetworkModel> NetworkModel::ParseLink(std::string_view text, int hosts) {
  auto bad = [&](const std::string& why) {
    std::string quoted = "'";  // appended piecewise: g++ 12 warns on "'" + string (-Wrestrict)
    quoted += text;
    quoted += "': ";
    return Status::InvalidArgument(quoted + why +
                                   " (e.g. 1gbit,100us: a rate in kbit, mbit or gbit per second "
                                   "or in KB, MB or GB per second, then a latency per message)");
  };
  NetworkModel m;
  m.hosts = hosts;
  const size_t comma = text.find(',');
  const std::string_view rate = text.substr(0, comma);
  size_t digits = 0;
  while (digits < rate.size() &&
         (std::isdigit(static_cast<unsigned char>(rate[digits])) || rate[digits] == '.'))
    ++digits;
  double value = 0;
  try {
    value = digits ? std::stod(std::string(rate.substr(0, digits))) : 0;
  } catch (...) {
    return bad("not a rate");
  }
  const std::string_view unit = rate.substr(digits);
  const double scale = unit == "kbit"   ? 1e3 / 8
                       : unit == "mbit" ? 1e6 / 8
                       : unit == "gbit" ? 1e9 / 8
                       : unit == "KB"   ? 1e3
                       : unit == "MB"   ? 1e6
                       : unit == "GB"   ? 1e9
                                        : 0;
  if (scale == 0 || !(value > 0) || value * scale > 1e13) return bad("not a rate");
  m.bytes_per_s = value * scale;
  if (comma != std::string_view::npos) {
    Result<Duration> latency = ParseDuration(text.substr(comma + 1));
    if (!latency.ok() || *latency < Duration(0) || *latency > std::chrono::seconds(10))
      return bad("a latency from 0 to 10s");
    m.latency = *latency;
  }
  return m;
}

}  // namespace mrlocal
