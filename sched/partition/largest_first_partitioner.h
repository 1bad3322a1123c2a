// The largest-first family: lb, lb-sketch, dp and dp-sketch. They differ only in the
// speeds they plan with (lb, lb-sketch: all equal) and in the sketch rows they try (the
// -sketch modes: all of them).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "sched/partition/partitioner.h"

namespace mrlocal {

// One row's assignment (DynamicShare Section IV, "Simple Partitions": sort partitions by
// size, descending, and give each to the reduce task with the smallest estimated
// execution time). Partition i of size sizes[i] goes to the reduce task r minimising
// (S(P_r) + sizes[i]) / speeds[r]; ties go to the lower r. With equal speeds this is LPT,
// the LB baseline. Writes owner (p entries) and returns the estimated phase length
// max_r S(P_r) / speeds[r]. REQUIRES: speeds non-empty, each > 0.
double AssignLargestFirst(std::span<const uint64_t> sizes, std::span<const double> speeds,
                          std::vector<uint32_t>* owner);

class LargestFirstPartitioner final : public Partitioner {
 public:
  enum class Mode {
    kLb,        // row 0, speeds ignored
    kLbSketch,  // every row, speeds ignored; the row with the best Balance wins
    kDp,        // row 0, speeds used
    kDpSketch,  // every row, speeds used; the row with the shortest phase wins
  };
  explicit LargestFirstPartitioner(Mode mode) : mode_(mode) {}
  std::string_view name() const override;

 protected:
  Result<Assignment> Assign(const CountMinSketch& sizes,
                            std::span<const double> speeds) const override;

 private:
  Mode mode_;
};

}  // namespace mrlocal
