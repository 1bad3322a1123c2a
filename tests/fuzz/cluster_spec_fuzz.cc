// ClusterSpec::Parse on any text: an error is one line; a spec that parses stays within
// the limits and reads back from its canonical form unchanged.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "check.h"
#include "sched/core/cluster_spec.h"

namespace mrlocal {
namespace {

using mrlocal::fuzz::Check;

void CheckSpec(const ClusterSpec& spec) {
  Check(spec.nodes() >= 1 && spec.nodes() <= ClusterSpec::kMaxNodes);
  Check(spec.map_slots() >= 1 && spec.reduce_slots() >= 1);
  Check(spec.map_slots() + spec.reduce_slots() <= ClusterSpec::kMaxSlots);
  Check(spec.TaskCapacity() >= 1);
  Result<ClusterSpec> again = ClusterSpec::Parse(spec.ToString());
  Check(again.ok() && *again == spec);
  // Slots() costs a SlotInfo per slot: checked on the smaller specs only.
  if (spec.map_slots() + spec.reduce_slots() <= 4096) {
    Check(spec.Slots().size() == static_cast<size_t>(spec.map_slots() + spec.reduce_slots()));
    Check(spec.NodeTaskLimits().size() == static_cast<size_t>(spec.nodes()));
  }
}

}  // namespace
}  // namespace mrlocal

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace mrlocal;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  Result<ClusterSpec> spec = ClusterSpec::Parse(text);
  if (spec.ok()) {
    CheckSpec(*spec);
  } else {
    Check(spec.status().code() == Status::Code::kInvalidArgument);
    // One line, unless the spec itself (quoted in it) has a line break.
    Check(text.find('\n') != std::string_view::npos ||
          spec.status().message().find('\n') == std::string::npos);
  }
  return 0;
}
