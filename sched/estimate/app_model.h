// One app's tasks as an affine model at slot speed 1.0: what the simulator plays out
// (calibrated, sched/estimate/task_model.h) and what the deadline policies assume (the
// worst case seen, sched/estimate/job_history.h) are the same shape, and share it.
//   a map of σ_i input units      map_fixed_s + map_s_per_unit · σ_i seconds
//   its output, the shuffle       alpha · σ_i size units (RTMR's α)
//   a job's shuffle of σ units    shuffle_fixed_units + alpha · σ (history only: what a
//                                 small job shuffles is not proportional to its input)
//   a reduce of u size units      reduce_fixed_s + reduce_s_per_unit · u seconds
//   the largest reduce's input    reduce_skew × the mean reduce input
// Units: bytes of input for text apps (wordcount, friendcount); samples for pi; the
// engine's size units (what the sketches count) for map output and reduce input.
#pragma once

namespace mrlocal {

// Fields in this order, so that designated initializers name any subset.
struct AppModel {
  double alpha = 0;                // map output (shuffled) size units per input unit
  double map_fixed_s = 0;          // seconds of a map task beyond its per-unit cost
  double map_s_per_unit = 0;       // seconds per input unit
  double reduce_fixed_s = 0;       // seconds of a reduce task beyond its per-unit cost
  double reduce_s_per_unit = 0;    // seconds per reduce input unit
  double reduce_skew = 1;          // >= 1; 1: the shuffle splits evenly
  double shuffle_fixed_units = 0;  // a job's shuffle beyond alpha · σ; 0 in calibrated models

  double MapSeconds(double units) const { return map_fixed_s + map_s_per_unit * units; }
  double ReduceSeconds(double units) const { return reduce_fixed_s + reduce_s_per_unit * units; }
  bool operator==(const AppModel&) const = default;
};

}  // namespace mrlocal
