// Memory of a long-running Controller: a stream of simulated jobs (3 maps, 1 reduce, one
// arriving every 2 s of virtual time, so only a few are active at once) under FIFO, with
// finished jobs forgotten. Peak RSS is printed at 10k, 100k and 1M jobs: it should be
// flat, as the controller, the SimLoop's queue and the SimExecutor hold only the active
// jobs.
//
//   bench_controller_stream [--jobs N] [--keep]   (--keep: jobs are never forgotten, to
//                                                   show what forgetting saves)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <functional>
#include <string>

#include "sched/core/controller.h"
#include "sched/partition/partitioner.h"
#include "sched/policy/fifo_policy.h"
#include "sched/sim/sim_executor.h"
#include "sched/sim/sim_loop.h"

namespace mrlocal {
namespace {

// A line of /proc/self/status, e.g. "VmHWM" (peak resident set) or "VmRSS", in KiB.
long StatusKib(const std::string& field) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);)
    if (line.rfind(field + ":", 0) == 0)
      return std::strtol(line.c_str() + field.size() + 1, nullptr, 10);
  return -1;
}

// Prints the memory figures when the n-th job finishes, for n in 10k, 100k, 1M, ...
class Milestones final : public ControllerObserver {
 public:
  Milestones(const Controller& c, const SimLoop& loop) : c_(c), loop_(loop) {}
  void OnJobFinished(const JobState&, const JobOutcome&, Time now) override {
    if (++finished_ != next_) return;
    next_ *= 10;
    const Controller::Footprint f = c_.footprint();
    std::printf(
        "%9zu jobs  VmHWM %7ld KiB  VmRSS %7ld KiB  virtual %8.0f s  "
        "jobs %zu outcomes %zu sketches %zu retired %zu  loop queue %zu\n",
        finished_, StatusKib("VmHWM"), StatusKib("VmRSS"), Seconds(now), f.jobs, f.outcomes,
        f.sketches, f.retired, loop_.queued());
    std::fflush(stdout);
  }

 private:
  const Controller& c_;
  const SimLoop& loop_;
  size_t finished_ = 0;
  size_t next_ = 10000;
};

int Main(int argc, char** argv) {
  long jobs = 1000000;
  bool keep = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--jobs") == 0 && i + 1 < argc) jobs = std::atol(argv[++i]);
    if (std::strcmp(argv[i], "--keep") == 0) keep = true;
  }

  std::vector<SlotInfo> slots;
  for (int i = 0; i < 6; ++i)
    slots.push_back({i, i < 4 ? SlotKind::kMap : SlotKind::kReduce, 0, 1.0});
  SimLoop loop;
  SimExecutor exec(loop, slots);
  FifoPolicy fifo;
  ControllerOptions options;
  options.observer_tick = Duration::zero();
  options.forget_finished_jobs = !keep;
  Controller controller(loop, exec, fifo, slots, 1, std::move(MakePartitioner("hash")).value(),
                        options);
  Milestones milestones(controller, loop);
  controller.AddObserver(&milestones);

  // Each arrival submits the next, so the loop's queue holds one arrival, not all.
  long submitted = 0;
  std::function<void(Time)> submit = [&](Time at) {
    controller.SubmitAt(at, [&, at](JobId id) {
      if (++submitted < jobs) submit(at + std::chrono::seconds(2));
      SimJob model;
      model.map_work_s.assign(3, 2.0);
      model.reduce_work_s.assign(1, 1.0);
      exec.AddJob(id, std::move(model));
      JobSpec spec;
      spec.app = "sim";
      spec.maps.assign(3, {1, {0}});
      spec.reduces = 1;
      spec.partition_hashes = MakePartitionHashes(1, 1, 1);
      return spec;
    });
  };
  const long hwm_before = StatusKib("VmHWM");
  submit(Time{0});
  controller.RunUntilIdle();
  std::printf("start VmHWM %ld KiB; %lu decisions, %lu launches\n", hwm_before,
              static_cast<unsigned long>(controller.stats().decisions),
              static_cast<unsigned long>(controller.stats().launches));
  return 0;
}

}  // namespace
}  // namespace mrlocal

int main(int argc, char** argv) { return mrlocal::Main(argc, argv); }
