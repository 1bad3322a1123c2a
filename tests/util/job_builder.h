// JobSpecs for tests, said in one line:
//   JobBuilder("wordcount").Deadline(30s).Maps(8, 64 << 20).SpreadOver(2).Reduces(2).Build()
// What is not said is JobSpec's default (one reduce, no deadline, weight 1, queue
// "default"). A job with reduces and no partition functions gets one, hash mod R.
//
// Synthetic jobs ("synthetic", the app whose task sizes are microseconds of work at speed
// 1.0) say their task times instead: MapSeconds({10, 10}).ReduceSeconds(1, 5) is two 10 s
// maps and one 5 s reduce, which ExactHistory (policy_test_util.h) estimates exactly.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "sched/core/job.h"

namespace mrlocal::testing {

// A synthetic task's size: its time at speed 1.0 in whole microseconds.
inline uint64_t Micros(double s) { return static_cast<uint64_t>(s * 1e6); }

class JobBuilder {
 public:
  explicit JobBuilder(std::string app = "synthetic") { spec_.app = std::move(app); }

  JobBuilder& Name(std::string name) {
    spec_.name = std::move(name);
    return *this;
  }
  // Relative to the job's arrival; none: best effort.
  JobBuilder& Deadline(std::optional<Duration> d) {
    spec_.deadline = d;
    return *this;
  }
  // `n` more maps, each a split of `split_bytes` with replicas on `nodes`.
  JobBuilder& Maps(uint32_t n, uint64_t split_bytes = 0, std::vector<NodeId> nodes = {}) {
    for (uint32_t i = 0; i < n; ++i) Map(split_bytes, nodes);
    return *this;
  }
  JobBuilder& Map(uint64_t split_bytes, std::vector<NodeId> nodes = {}) {
    spec_.maps.push_back({split_bytes, std::move(nodes)});
    return *this;
  }
  // Map i's split has its one replica on node i % nodes (Hadoop's round-robin placement).
  JobBuilder& SpreadOver(int nodes) {
    for (size_t i = 0; i < spec_.maps.size(); ++i)
      spec_.maps[i].nodes = {static_cast<NodeId>(i % static_cast<size_t>(nodes))};
    return *this;
  }
  JobBuilder& Reduces(uint32_t r) {
    spec_.reduces = r;
    return *this;
  }
  JobBuilder& InputBytes(uint64_t bytes) {
    spec_.input_bytes = bytes;
    return *this;
  }
  JobBuilder& Weight(double w) {
    spec_.weight = w;
    return *this;
  }
  JobBuilder& Queue(std::string queue) {
    spec_.queue = std::move(queue);
    return *this;
  }
  JobBuilder& Bid(double bid) {
    spec_.bid = bid;
    return *this;
  }
  JobBuilder& PartitionHashes(std::vector<PartitionHash> hashes) {
    spec_.partition_hashes = std::move(hashes);
    return *this;
  }
  // The reduces and what the submitter knows of their input, in size units: one reduce
  // per entry.
  JobBuilder& ReduceUnits(const std::vector<uint64_t>& units) {
    spec_.reduces = static_cast<uint32_t>(units.size());
    spec_.shuffle_units = 0;
    spec_.max_reduce_units = 0;
    for (uint64_t u : units) {
      spec_.shuffle_units += u;
      spec_.max_reduce_units = std::max(spec_.max_reduce_units, u);
    }
    return *this;
  }

  // Synthetic jobs: one more map per entry, of that many seconds.
  JobBuilder& MapSeconds(const std::vector<double>& seconds) {
    for (double s : seconds) Map(Micros(s));
    return *this;
  }
  // Synthetic jobs: one reduce per entry, of that many seconds.
  JobBuilder& ReduceSeconds(const std::vector<double>& seconds) {
    std::vector<uint64_t> units;
    for (double s : seconds) units.push_back(Micros(s));
    return ReduceUnits(units);
  }
  JobBuilder& ReduceSeconds(uint32_t reduces, double seconds) {
    return ReduceSeconds(std::vector<double>(reduces, seconds));
  }

  JobSpec Build() const {
    JobSpec spec = spec_;
    if (spec.reduces > 0 && spec.partition_hashes.empty())
      spec.partition_hashes = MakePartitionHashes(1, spec.reduces, 1);
    return spec;
  }

 private:
  JobSpec spec_;
};

}  // namespace mrlocal::testing
