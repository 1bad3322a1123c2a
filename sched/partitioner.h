// Partitioners: the control-plane decision that turns a job's p partitions into R reduce
// tasks at the end of its map phase (DynamicShare, "Handling data skewness").
//
//   hash       Hadoop's HashPartitioner: p = R, partition i is reduce task i.
//   lb         balance sizes, ignoring speed: largest partition first to the least-loaded
//              reduce task (the LB baseline).
//   dp         DynamicShare's Simple Partitions' assignment: largest first, each to the
//              reduce task whose estimated finish (load / its slot's speed) is earliest.
//   dp-sketch  dp for every row of the count-min sketch; keeps the row whose reduce phase
//              ends first.
#pragma once

#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/count_min_sketch.h"
#include "engine/job_runtime.h"
#include "engine/status.h"

namespace mrlocal {

struct PartitionPlan {
  ReducePlan plan;                   // route (the chosen row) and owner per partition
  int row = 0;                       // the sketch row chosen
  std::vector<uint64_t> reduce_load; // size units per reduce task
  double estimated_phase = 0;        // max over reduce tasks of load / speed
  double skewness = 0;               // over the chosen row's partition sizes
  double balance = 100;              // over the reduce loads
  double cost_us = 0;                // wall time spent planning
};

class Partitioner {
 public:
  virtual ~Partitioner() = default;
  virtual std::string_view name() const = 0;
  // `sizes`: the job's summed sketch (d rows x p partitions). `speeds`: the speed of the slot
  // each of the R = speeds.size() reduce tasks is expected to run on. Requires p >= R.
  virtual Result<PartitionPlan> Plan(const CountMinSketch& sizes,
                                     std::span<const double> speeds) const = 0;
};

Result<std::unique_ptr<Partitioner>> MakePartitioner(std::string_view name);
std::vector<std::string> PartitionerNames();

// skewness = 100 - 100 * sum S(i) / (p * max S(i)); 0 when every partition is empty.
double Skewness(std::span<const uint64_t> partition_sizes);
// Balance = 100 * sum_r S(P_r) / (R * max_r S(P_r)); 100 when every reduce task is empty.
double Balance(std::span<const uint64_t> reduce_loads);

}  // namespace mrlocal
