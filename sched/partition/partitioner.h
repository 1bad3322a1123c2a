// Partitioners: the control-plane decision that turns a job's p partitions into R reduce
// tasks at the end of its map phase (DynamicShare, Section IV "Handling data skewness").
//
//   hash       Hadoop's HashPartitioner: p = R, partition i is reduce task i.
//   lb         balance sizes, ignoring speed: largest partition first to the least-loaded
//              reduce task (the LB baseline, ref. [14] of the paper).
//   lb-sketch  lb for every row of the count-min sketch; keeps the row with the best
//              Balance (the paper's LB enhanced with sketches, for Fig. 12).
//   dp         DynamicShare's Simple Partitions assignment on row 0: largest first, each
//              to the reduce task whose estimated finish (load / its slot's speed) is
//              earliest.
//   dp-sketch  dp for every row of the count-min sketch; keeps the row whose reduce
//              phase ends first (ties: the lower row).
//
// A partitioner is pure decision logic: no threads, no clocks other than timing itself.
#pragma once

#include <cstdint>
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
  ReducePlan plan;                    // route (the chosen row's hash) and owner per partition
  int row = 0;                        // the sketch row chosen
  std::vector<uint64_t> reduce_load;  // size units per reduce task: S(P_r)
  double estimated_phase = 0;         // max_r S(P_r) / speed_r, in size units
  double skewness = 0;                // over the chosen row's partition sizes, in [0, 100)
  double balance = 100;               // over the reduce loads, in (0, 100]
  double cost_us = 0;                 // wall time spent planning (the "sketch cost")
};

class Partitioner {
 public:
  virtual ~Partitioner() = default;
  virtual std::string_view name() const = 0;

  // `sizes`: the job's merged sketch (d rows x p partitions). `speeds`: the speed, in
  // (0, 1], of the slot each of the R = speeds.size() reduce tasks is expected to run on.
  // Fails with InvalidArgument unless d >= 1, R >= 1, p >= R and every speed is in (0, 1].
  // An all-empty sketch still gets a valid plan. Deterministic for equal inputs.
  Result<PartitionPlan> Plan(const CountMinSketch& sizes, std::span<const double> speeds) const;

 protected:
  struct Assignment {
    int row = 0;
    std::vector<uint32_t> owner;  // p entries, each < R
  };
  // REQUIRES: the inputs passed Plan's checks. Plan fills in the loads and metrics.
  virtual Result<Assignment> Assign(const CountMinSketch& sizes,
                                    std::span<const double> speeds) const = 0;
};

// The partitioner registered as `name`; InvalidArgument naming the valid ones otherwise.
Result<std::unique_ptr<Partitioner>> MakePartitioner(std::string_view name);
// Registered names, in a stable order, for --help.
std::vector<std::string> PartitionerNames();

// skewness = 100 - 100 * sum S(i) / (p * max S(i)) (paper, evaluation, "Dynamic
// Partitioning"); 0 when every partition is empty or there are none.
double Skewness(std::span<const uint64_t> partition_sizes);
// Balance = 100 * sum_r S(P_r) / (R * max_r S(P_r)) (same place); 100 when every reduce
// task is empty or there are none.
double Balance(std::span<const uint64_t> reduce_loads);

}  // namespace mrlocal
