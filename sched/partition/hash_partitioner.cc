#include "sched/partition/hash_partitioner.h"

#include <numeric>
#include <string>

namespace mrlocal {

Result<Partitioner::Assignment> HashPartitioner::Assign(const CountMinSketch& sizes,
                                                        std::span<const double> speeds) const {
  if (sizes.width() != speeds.size())
    return Status::InvalidArgument("partitioner hash needs as many partitions (" +
                                   std::to_string(sizes.width()) + ") as reduce tasks (" +
                                   std::to_string(speeds.size()) + ")");
  Assignment a;
  a.owner.resize(sizes.width());
  std::iota(a.owner.begin(), a.owner.end(), 0u);
  return a;
}

}  // namespace mrlocal
