// The network of a simulated cluster spread over several hosts (issue 18), as MPI ranks
// spread a real one: the cluster's nodes go to hosts round-robin (node n on host n mod H,
// sched/dist's RanksOfSlots). Map outputs stay on the host that made them; a reduce task
// first pulls the share of its input that maps on other hosts produced, at the link's
// bandwidth plus one latency per message, then computes. Each reduce is charged as if it
// had the link to itself: concurrent pulls do not slow each other (with 2 hosts and one
// reduce per host at a time, as in the calibration run, that holds).
//
// Calibrated against two network namespaces joined by a veth pair shaped to 1 Gbit/s
// (tools/bench/bench_mpi.sh netns): see sched/dist/README.md#the-network-in-simulation.
#pragma once

#include <cstdint>
#include <string_view>

#include "engine/status.h"
#include "sched/core/clock.h"
#include "sched/core/slot_info.h"

namespace mrlocal {

struct NetworkModel {
  int hosts = 1;                        // 1: one host, no network
  double bytes_per_s = 0;               // of a link; 0: no network cost
  Duration latency{0};                  // per message
  uint64_t message_bytes = 4ull << 20;  // what a reduce pulls per message (SlotHost's chunk)
  // Bytes on the wire per size unit of map output (the apps' SizeUnits: WordCount counts a
  // key's bytes plus 8; its records cross as ~9-byte varints).
  double wire_bytes_per_unit = 1.0;

  bool active() const { return hosts > 1 && bytes_per_s > 0; }
  int HostOf(NodeId node) const { return hosts > 1 ? node % hosts : 0; }
  // How long `bytes` take over one link.
  Duration TransferTime(double bytes) const;

  // "RATE[,LATENCY]" for --link: RATE as "1gbit", "100mbit", "10kbit" (bits per second) or
  // "125MB" (bytes per second), LATENCY as "100us". InvalidArgument quoting the text.
  static Result<NetworkModel> ParseLink(std::string_view text, int hosts);
};

}  // namespace mrlocal
