// A random workload (random_workload.h) run to its end on the simulator, under a real
// Controller and the policy a test gives: each job declares its tasks' worst cases as
// their sizes (the app "synthetic" costs 1 µs per unit) and the executor runs their
// actual work, through the node's availability and the workload's noise.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "sched/core/controller.h"
#include "sched/partition/partitioner.h"
#include "sched/sim/sim_executor.h"
#include "sched/sim/sim_loop.h"
#include "tests/util/job_builder.h"
#include "tests/util/random_workload.h"

namespace mrlocal::testing {

class WorkloadRun {
 public:
  // REQUIRES: `w`, `policy` and `faults` (null: none) outlive the run.
  WorkloadRun(const RandomWorkload& w, Policy& policy, const FaultInjector* faults = nullptr)
      : w_(w),
        slots_(w.cluster.Slots()),
        exec_(loop_, slots_,
              SimExecutorOptions{.noise = w.noise_sigma,
                                 .seed = w.seed,
                                 .availability = w.availability,
                                 .network = {},
                                 .faults = faults}),
        controller_(loop_, exec_, policy, slots_, w.cluster.nodes(),
                    std::move(MakePartitioner("hash")).value(),
                    ControllerOptions{.observer_tick = Duration::zero(), .reduce_slowstart = {}}) {}

  // Add observers here, before Run.
  Controller& controller() { return controller_; }
  const Controller& controller() const { return controller_; }

  // Submits every job at its arrival and runs until all are done. The controller sees
  // each availability step as the runtime shows it (tools/runtime/runtime.cc): the slots'
  // speeds change.
  void Run() {
    for (const auto& [node, profile] : w_.availability)
      for (size_t i = 0; i < profile.size(); ++i)
        loop_.At(profile.times()[i], [this, node = node, factor = profile.factors()[i]] {
          for (const SlotInfo& s : slots_)
            if (s.node == node) (void)controller_.SetSlotSpeed(s.id, s.speed * factor);
        });
    for (const RandomJob& j : w_.jobs)
      controller_.SubmitAt(FromSeconds(j.arrival_s), [this, &j](JobId id) {
        SimJob model;
        model.map_work_s = j.map_s;
        model.reduce_work_s = j.reduce_s;
        exec_.AddJob(id, std::move(model));
        JobBuilder spec;
        spec.Name("job" + std::to_string(id)).Deadline(FromSeconds(j.deadline_s));
        uint64_t input = 0;
        for (size_t i = 0; i < j.map_units.size(); ++i) {
          if (j.map_node.empty())
            spec.Map(j.map_units[i]);
          else
            spec.Map(j.map_units[i], {j.map_node[i]});
          input += j.map_units[i];
        }
        return spec.InputBytes(input).ReduceUnits(j.reduce_units).Build();
      });
    controller_.RunUntilIdle();
  }

 private:
  const RandomWorkload& w_;
  std::vector<SlotInfo> slots_;
  SimLoop loop_;
  SimExecutor exec_;
  Controller controller_;
};

}  // namespace mrlocal::testing
