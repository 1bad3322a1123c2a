// Hadoop's HashPartitioner as a baseline: p = R and partition i is reduce task i, so a
// record goes to reduce task hash mod R (row 0 of the sketch).
#pragma once

#include "sched/partition/partitioner.h"

namespace mrlocal {

class HashPartitioner final : public Partitioner {
 public:
  std::string_view name() const override { return "hash"; }

 protected:
  // Fails with InvalidArgument unless p == R.
  Result<Assignment> Assign(const CountMinSketch& sizes,
                            std::span<const double> speeds) const override;
};

}  // namespace mrlocal
