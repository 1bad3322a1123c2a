#include "tools/runtime/runtime.h"

#include <stdexcept>

#include "sched/core/asio_loop.h"
#include "sched/partition/partitioner.h"
#include "sched/sim/sim_loop.h"
#include "tools/runtime/run_forecast.h"

namespace mrlocal {

Result<std::unique_ptr<Runtime>> Runtime::Real(RuntimeOptions options) {
  return Make(std::move(options), /*simulated=*/false);
}

Result<std::unique_ptr<Runtime>> Runtime::Simulated(RuntimeOptions options) {
  return Make(std::move(options), /*simulated=*/true);
}

namespace {

// What a runtime cannot inject: faults of a block store (a job's), and any over MPI.
Status CheckFaults(const RuntimeOptions& o, const std::vector<SlotInfo>& slots) {
  if (o.faults.empty()) return Status::OK();
  if (o.transport && o.transport->size() > 1)
    return Status::InvalidArgument("faults are injected on one machine, not over MPI ranks");
  for (const Fault& f : o.faults)
    if (f.of_replica())
      return Status::InvalidArgument("fault '" + f.text +
                                     "': replica faults apply to a job's input blocks, in a "
                                     "real run of a job command");
  return FaultInjector(o.faults, o.fault_seed).CheckCluster(slots, o.cluster.nodes());
}

// What the options cannot ask of a runtime, before anything is built.
Status CheckOptions(const RuntimeOptions& o, bool simulated) {
  for (const auto& [node, profile] : o.availability)
    if (node < 0 || node >= o.cluster.nodes())
      return Status::InvalidArgument("availability names node " + std::to_string(node) +
                                     " but the cluster has " + std::to_string(o.cluster.nodes()) +
                                     " nodes");
  const bool ranks = o.transport && o.transport->size() > 1;
  if (simulated && o.availability_as == AvailabilityAs::kLoad)
    return Status::InvalidArgument(
        "--availability-as load runs on the real engine: in simulation the profiles are the "
        "load already");
  const std::vector<SlotInfo> slots = o.cluster.Slots();
  MRLOCAL_RETURN_IF_ERROR(CheckFaults(o, slots));
  if (!simulated && slots.size() > kMaxRealSlots && !ranks)
    return Status::InvalidArgument("the cluster has " + std::to_string(slots.size()) +
                                   " slots: the real engine runs a thread per slot, at most " +
                                   std::to_string(kMaxRealSlots) +
                                   " (simulate larger ones: mrlocal workload --sim)");
  if (!simulated && ranks && o.availability_as == AvailabilityAs::kLoad && !o.availability.empty())
    return Status::InvalidArgument(
        "--availability-as load runs on one machine, not over MPI ranks");
  return Status::OK();
}

}  // namespace

Result<std::unique_ptr<Runtime>> Runtime::Make(RuntimeOptions o, bool simulated) {
  if (!o.policy_args.forecast())
    o.policy_args.SetForecast(DefaultForecast(o.cluster.Slots(), o.availability));
  auto policy = MakePolicy(o.policy, o.estimator, o.policy_args);
  if (!policy.ok()) return policy.status();
  auto partitioner = MakePartitioner(o.partitioner);
  if (!partitioner.ok()) return partitioner.status();
  MRLOCAL_RETURN_IF_ERROR(CheckOptions(o, simulated));
  const bool load = o.availability_as == AvailabilityAs::kLoad && !o.availability.empty();
  std::unique_ptr<Runtime> r(new Runtime);
  r->slots_ = o.cluster.Slots();
  r->faults_ = std::make_unique<FaultInjector>(o.faults, o.fault_seed);
  const FaultInjector* faults = o.faults.empty() ? nullptr : r->faults_.get();
  if (simulated) {
    auto loop = std::make_unique<SimLoop>();
    SimExecutorOptions so;
    so.noise = o.noise;
    so.seed = o.seed;
    so.network = o.network;
    so.availability = o.availability;
    so.faults = faults;
    auto executor = std::make_unique<SimExecutor>(*loop, r->slots_, std::move(so));
    r->sim_executor_ = executor.get();
    r->loop_ = std::move(loop);
    r->executor_ = std::move(executor);
  } else if (o.transport && o.transport->size() > 1) {
    // No spin: reports cross ranks, and the transport's own polling covers their latency
    // (spinning here took the core the ranks' pollers needed: 130 us per task, not 25).
    r->loop_ = std::make_unique<AsioLoop>(std::chrono::microseconds(0));
    SlotHostOptions so;
    so.pin = o.pin;
    so.memory_limit = o.memory_limit.value_or(MemoryLimit::DefaultBytes());
    auto executor = std::make_unique<MpiExecutor>(*r->loop_, *o.transport, r->slots_,
                                                  RanksOfSlots(r->slots_, o.transport->size()), so);
    r->mpi_executor_ = executor.get();
    r->executor_ = std::move(executor);
  } else {
    MRLOCAL_RETURN_IF_ERROR(r->MakeRealExecutor(o, load, faults));
  }
  r->policy_ = std::move(policy).value();
  r->forecast_ = o.policy_args.forecast();
  r->forecast_->SetClock(r->loop_.get());
  ControllerOptions controller = o.controller;
  controller.node_task_limits = o.cluster.NodeTaskLimits();
  r->controller_ =
      std::make_unique<Controller>(*r->loop_, *r->executor_, *r->policy_, r->slots_,
                                   o.cluster.nodes(), std::move(partitioner).value(), controller);
  r->controller_->AddObserver(r.get());
  if (o.learner) {
    r->feed_ = std::make_unique<EstimatorFeed>(*o.learner, *r->controller_);
    r->controller_->AddObserver(r->feed_.get());
  }
  r->ScheduleAvailability(o.availability);
  r->ScheduleHiddenSlowdowns();
  r->options_ = std::move(o);
  return r;
}

// One process's slots: a thread each, throttled, or beside a CPU load (`load`).
Status Runtime::MakeRealExecutor(const RuntimeOptions& o, bool load, const FaultInjector* faults) {
  loop_ = std::make_unique<AsioLoop>();
  auto executor = std::make_unique<RealExecutor>(
      *loop_, slots_,
      SlotThreads{.pin = o.pin, .slow_down = load ? SlowDown::kCpuLoad : SlowDown::kThrottle});
  if (load) {
    std::vector<int> cpus;
    for (const SlotInfo& s : slots_) cpus.push_back(executor->cpu(s.id));
    auto made = AvailabilityLoad::Make(slots_, cpus, o.availability);
    if (!made.ok()) return made.status();
    load_ = std::move(made).value();
  }
  executor->SetFaults(faults);
  memory_limit_ =
      std::make_unique<MemoryLimit>(o.memory_limit.value_or(MemoryLimit::DefaultBytes()));
  if (memory_limit_->bytes() != UINT64_MAX) executor->SetMemoryLimit(memory_limit_.get());
  real_executor_ = executor.get();
  executor_ = std::move(executor);
  return Status::OK();
}

Runtime::~Runtime() {
  if (forecast_) forecast_->SetClock(nullptr);  // the loop goes; the forecast may stay
}

// At each step the node's slots run at their base speed times the step's factor, in the
// state the policy sees and on a real executor's throttles, or through the load beside
// them (a task running then slows down or speeds up from its next chunk, or window, on).
// The forecast is told first, so that a policy that re-plans on the change
// (OnSlotSpeedChanged) asks one that knows of it.
void Runtime::ScheduleAvailability(const std::map<NodeId, SpeedProfile>& availability) {
  for (const auto& [node, profile] : availability) {
    for (size_t i = 0; i < profile.size(); ++i) {
      loop_->At(profile.times()[i], [this, node = node, factor = profile.factors()[i]] {
        if (load_) load_->SetAvailability(node, factor);
        for (const SlotInfo& s : slots_) {
          if (s.node != node) continue;
          SlotInfo now = s;
          now.speed = s.speed * factor;
          forecast_->Observe(now, loop_->Now());
          (void)controller_->SetSlotSpeed(s.id, now.speed);
        }
      });
    }
  }
}

void Runtime::ScheduleHiddenSlowdowns() {
  if (!real_executor_) return;
  for (const auto& [node, profile] : faults_->SlowProfiles())
    for (size_t i = 0; i < profile.size(); ++i)
      loop_->At(profile.times()[i], [this, node = node, factor = profile.factors()[i]] {
        for (const SlotInfo& s : slots_)
          if (s.node == node) real_executor_->SetHiddenFactor(s.id, factor);
      });
}

void Runtime::AddWork(JobId id, const std::string& app, std::variant<RealJob, SimJob> work) {
  if (!faults_->empty()) faults_->AddJob(id, app);
  if (auto* real = std::get_if<RealJob>(&work)) {
    if (mpi_executor_) {
      std::string definition = real->definition;
      mpi_executor_->AddJob(id, std::move(*real), std::move(definition));
      return;
    }
    if (!real_executor_) throw std::logic_error("a real job submitted to a simulated runtime");
    real_executor_->AddJob(id, std::move(*real));
  } else {
    if (!sim_executor_) throw std::logic_error("a simulated job submitted to a real runtime");
    sim_executor_->AddJob(id, std::move(std::get<SimJob>(work)));
  }
}

JobId Runtime::Submit(RuntimeJob job) {
  // Registered before submission, which may plan the reduces of a job without maps at once.
  AddWork(controller_->next_job_id(), job.spec.app, std::move(job.work));
  return controller_->Submit(std::move(job.spec));
}

void Runtime::SubmitAt(Time arrival, std::function<RuntimeJob(JobId)> make) {
  controller_->SubmitAt(arrival, [this, make = std::move(make)](JobId id) {
    RuntimeJob job = make(id);
    AddWork(id, job.spec.app, std::move(job.work));
    if (shut_down_) loop_->Post([this, id] { (void)controller_->Cancel(id); });
    return std::move(job.spec);
  });
}

Status Runtime::Cancel(JobId id) { return controller_->Cancel(id); }

void Runtime::Run() { controller_->RunUntilIdle(); }

void Runtime::Serve() { controller_->RunUntilShutdown(); }

Status Runtime::ChangeQueue(const QueueEvent& event) {
  MRLOCAL_RETURN_IF_ERROR(policy_->ChangeQueue(event, controller_->state(), loop_->Now()));
  controller_->Redispatch();
  return Status::OK();
}

void Runtime::Shutdown(Status why) {
  loop_->Post([this, why = std::move(why)] {
    shut_down_ = true;
    controller_->AbortAll(why);
    StopIfDrained();
  });
}

void Runtime::OnAdmission(const JobState& job, const Admission& a, Time) {
  if (!a.admitted) faults_->RemoveJob(job.id);  // it never runs
}

void Runtime::OnJobFinished(const JobState& job, const JobOutcome&, Time) {
  faults_->RemoveJob(job.id);
  if (shut_down_) StopIfDrained();
}

// Jobs still to arrive would keep RunUntilIdle going: the run ends here instead.
void Runtime::StopIfDrained() {
  const ClusterState& state = controller_->state();
  if (!state.active.empty()) return;
  for (const SlotState& slot : state.slots)
    if (slot.task) return;
  controller_->Shutdown();
}

uint64_t Runtime::task_events() const { return sim_executor_ ? sim_executor_->task_events() : 0; }

}  // namespace mrlocal
