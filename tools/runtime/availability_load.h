// A transactional load beside a real run's slots that follows the nodes' availability
// profiles (--availability-as load): one CpuBurner (engine/cpu_burner.h) per CPU that
// slots of a node with a profile are pinned to. At availability a the burner on a CPU takes
// 1 - a x (the base speeds of the slots pinned there), so that those slots, throttled to
// their base speeds and yielding to it (SlowDown::kCpuLoad), run at a x their base speeds
// as they would under the throttle alone (--availability-as throttle). The controller and
// the policy hear each step as the same slot speed change in both modes.
//
// Thread model: the loop thread's (SetAvailability, cpu_s).
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <vector>

#include "engine/cpu_burner.h"
#include "engine/status.h"
#include "sched/core/slot_info.h"
#include "sched/core/speed_profile.h"

namespace mrlocal {

// How a real run's availability profiles slow its slots (--availability-as).
enum class AvailabilityAs {
  kThrottle,  // the slots' throttles run at base speed x availability
  kLoad,      // a CPU load takes what the slots do not get (AvailabilityLoad)
};

class AvailabilityLoad {
 public:
  // slot_cpus[i]: the CPU slots[i] is pinned to (-1: not pinned). A burner per CPU that
  // holds slots of a node in `availability`, at the duty of availability 1.0 until the
  // first step. One burner cannot follow two profiles: InvalidArgument naming the nodes
  // when a CPU holds slots of nodes whose profiles differ (a node without one counts as
  // one that differs), or naming the node when its slot is not pinned.
  static Result<std::unique_ptr<AvailabilityLoad>> Make(
      const std::vector<SlotInfo>& slots, const std::vector<int>& slot_cpus,
      const std::map<NodeId, SpeedProfile>& availability);

  // Node `node`'s availability is now `factor`: the burners on its CPUs follow. A node
  // without a burner is ignored.
  void SetAvailability(NodeId node, double factor);

  // CPU the burners have used so far, in seconds; how many there are.
  double cpu_s() const;
  size_t burners() const { return cpus_.size(); }
  // The duty of the burner on `cpu`; nullopt: no burner there.
  std::optional<double> duty(int cpu) const;

 private:
  struct LoadedCpu {
    std::vector<NodeId> nodes;  // whose slots run there, all with the same profile
    double base_speed = 0;      // the sum of those slots' base speeds
    std::unique_ptr<CpuBurner> burner;
  };
  AvailabilityLoad() = default;

  std::vector<LoadedCpu> cpus_;
};

}  // namespace mrlocal
