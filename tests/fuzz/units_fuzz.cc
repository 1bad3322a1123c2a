// ParseDuration and ParseSize on any text: errors are InvalidArgument; what parses is in
// range, reads back from its plain form, and prints.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "check.h"
#include "sched/core/units.h"

namespace {

using mrlocal::fuzz::Check;

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mrlocal;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<Duration> d = ParseDuration(text);
  if (d.ok()) {
    Check(d->count() > 0);
    Result<Duration> again = ParseDuration(std::to_string(d->count()) + "ns");
    Check(again.ok() && *again == *d);
    Check(!FormatDuration(*d).empty());
    Check(!DurationScale({*d})(*d).empty());
  } else {
    Check(d.status().code() == Status::Code::kInvalidArgument);
  }
  Result<uint64_t> bytes = ParseSize(text);
  if (bytes.ok()) {
    Result<uint64_t> again = ParseSize(std::to_string(*bytes));
    Check(again.ok() && *again == *bytes);
    Check(!FormatBytes(*bytes).empty());
  } else {
    Check(bytes.status().code() == Status::Code::kInvalidArgument);
  }
  return 0;
}
