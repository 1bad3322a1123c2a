// A slot as the control plane sees it: Hadoop 1's map or reduce slot on a virtual node,
// with a speed factor s in (0, 1] (s = 0.5: a task takes twice as long).
#pragma once

#include <cstdint>
#include <string_view>

namespace mrlocal {

using SlotId = int;
using NodeId = int;

enum class SlotKind : uint8_t { kMap, kReduce };

inline std::string_view ToString(SlotKind k) { return k == SlotKind::kMap ? "map" : "reduce"; }

struct SlotInfo {
  SlotId id = 0;  // index in the cluster's slot list
  SlotKind kind = SlotKind::kMap;
  NodeId node = 0;
  double speed = 1.0;
};

}  // namespace mrlocal
