#include "tools/runtime/availability_load.h"

#include <algorithm>
#include <string>

namespace mrlocal {

namespace {

bool SameProfile(const SpeedProfile* a, const SpeedProfile* b) {
  if (!a || !b) return a == b;
  return a->times() == b->times() && a->factors() == b->factors();
}

const SpeedProfile* ProfileOf(const std::map<NodeId, SpeedProfile>& availability, NodeId node) {
  auto it = availability.find(node);
  return it == availability.end() ? nullptr : &it->second;
}

}  // namespace

Result<std::unique_ptr<AvailabilityLoad>> AvailabilityLoad::Make(
    const std::vector<SlotInfo>& slots, const std::vector<int>& slot_cpus,
    const std::map<NodeId, SpeedProfile>& availability) {
  std::map<int, LoadedCpu> by_cpu;
  for (size_t i = 0; i < slots.size(); ++i) {
    const SlotInfo& s = slots[i];
    if (slot_cpus[i] < 0) {
      if (ProfileOf(availability, s.node))
        return Status::InvalidArgument("--availability-as load: node " + std::to_string(s.node) +
                                       "'s slots are not pinned to CPUs, so no load can sit "
                                       "beside them");
      continue;
    }
    LoadedCpu& c = by_cpu[slot_cpus[i]];
    if (std::find(c.nodes.begin(), c.nodes.end(), s.node) == c.nodes.end())
      c.nodes.push_back(s.node);
    c.base_speed += s.speed;
  }
  std::unique_ptr<AvailabilityLoad> load(new AvailabilityLoad);
  for (auto& [cpu, c] : by_cpu) {
    const bool followed = std::any_of(c.nodes.begin(), c.nodes.end(),
                                      [&](NodeId n) { return ProfileOf(availability, n); });
    if (!followed) continue;
    const SpeedProfile* first = ProfileOf(availability, c.nodes[0]);
    for (NodeId n : c.nodes) {
      const SpeedProfile* other = ProfileOf(availability, n);
      if (SameProfile(first, other)) continue;
      const NodeId without = !first ? c.nodes[0] : n;
      return Status::InvalidArgument(
          "--availability-as load: nodes " + std::to_string(c.nodes[0]) + " and " +
          std::to_string(n) + " have slots on CPU " + std::to_string(cpu) +
          " but different availability profiles" +
          (!first || !other ? " (node " + std::to_string(without) + " has none)" : "") +
          ", and one load per CPU cannot follow both: give them the same profile, or use "
          "--availability-as throttle");
    }
    c.burner = std::make_unique<CpuBurner>(cpu, CpuBurner::DutyFor(1.0, c.base_speed));
    load->cpus_.push_back(std::move(c));
  }
  return load;
}

void AvailabilityLoad::SetAvailability(NodeId node, double factor) {
  for (LoadedCpu& c : cpus_)
    if (std::find(c.nodes.begin(), c.nodes.end(), node) != c.nodes.end())
      c.burner->SetDuty(CpuBurner::DutyFor(factor, c.base_speed));
}

double AvailabilityLoad::cpu_s() const {
  int64_t ns = 0;
  for (const LoadedCpu& c : cpus_) ns += c.burner->cpu_ns();
  return static_cast<double>(ns) / 1e9;
}

std::optional<double> AvailabilityLoad::duty(int cpu) const {
  for (const LoadedCpu& c : cpus_)
    if (c.burner->cpu() == cpu) return c.burner->duty();
  return std::nullopt;
}

}  // namespace mrlocal
