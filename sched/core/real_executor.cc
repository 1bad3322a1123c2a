#include "sched/core/real_executor.h"

#include <algorithm>

#include "sched/core/units.h"

namespace mrlocal {

// The slot's context, failing the attempt where an injected fault says, or once the
// process's memory passed its limit: its Checkpoint stops the task then, and Failed() says
// why the attempt must fail (checked again at the end, for a task too short to checkpoint).
class RealExecutor::AttemptContext final : public TaskContext {
 public:
  AttemptContext(TaskContext& slot, AttemptFault fault, const Clock& clock,
                 const MemoryLimit* memory)
      : slot_(slot), fault_(std::move(fault)), clock_(clock), memory_(memory) {}
  bool Checkpoint(double progress) override {
    if (Due(progress)) {
      failed_ = true;
      return false;
    }
    if (memory_ && memory_->Exceeded()) {
      out_of_memory_ = true;
      return false;
    }
    return slot_.Checkpoint(progress);
  }
  // Why the attempt fails although its task may have returned fine: the fault's status
  // once it is due (at the end every task-fail point is reached), or the memory limit.
  Status Failed() {
    if (failed_ || Due(1.0)) return fault_.status();
    if (out_of_memory_)
      return Status::ResourceExhausted(
          "the process's memory (" + FormatBytes(memory_->last_resident()) +
          " resident) passed its limit of " + FormatBytes(memory_->bytes()) +
          " (--memory-limit): a job's map outputs stay in memory until it ends");
    return Status::OK();
  }

 private:
  bool Due(double progress) const {
    return (fault_.at_fraction && progress >= *fault_.at_fraction) ||
           (fault_.at_time && clock_.Now() >= *fault_.at_time);
  }
  TaskContext& slot_;
  const AttemptFault fault_;
  const Clock& clock_;
  const MemoryLimit* memory_;
  bool failed_ = false;
  bool out_of_memory_ = false;
};

RealExecutor::RealExecutor(const Clock& clock, const std::vector<SlotInfo>& slots,
                           SlotThreads threads)
    : clock_(clock), slow_down_(threads.slow_down) {
  // Map slots and reduce slots each go round-robin over the allowed CPUs, so that a job's
  // map phase and its reduce phase both spread over every core; reduce slots continue the
  // rotation where the map slots ended, so that with fewer slots than CPUs (1 map + 1
  // reduce slot on 2 CPUs) a map and a reduce running together do not share a core.
  std::vector<int> cpus = AllowedCpus();
  size_t next_map = threads.first_cpu, next_reduce = threads.first_cpu;
  size_t ids = 0;
  for (const SlotInfo& s : slots) {
    next_reduce += s.kind == SlotKind::kMap;
    ids = std::max(ids, static_cast<size_t>(s.id) + 1);
  }
  slots_.resize(ids);
  workers_.resize(ids);
  speed_.resize(ids, 1.0);
  hidden_factor_.resize(ids, 1.0);
  for (const SlotInfo& s : slots) {
    size_t& next = s.kind == SlotKind::kMap ? next_map : next_reduce;
    int cpu = threads.pin ? cpus[next++ % cpus.size()] : -1;
    slots_[s.id] = s;
    speed_[s.id] = s.speed;
    workers_[s.id] = std::make_unique<SlotWorker>(
        s.id, cpu, s.speed,
        slow_down_ == SlowDown::kCpuLoad ? SlotPriority::kIdle : SlotPriority::kNormal,
        threads.spin);
  }
}

RealExecutor::~RealExecutor() {
  workers_.clear();  // joins every slot thread before the jobs' data goes away
}

void RealExecutor::AddJob(JobId id, RealJob job) {
  auto data = std::make_shared<JobData>();
  if (keep_apart_)
    data->map_outputs.resize(job.maps);
  else
    data->done.resize(job.maps);
  data->job = std::move(job);
  jobs_[id] = std::move(data);
}

void RealExecutor::Launch(const TaskLaunch& launch) { Start(launch, nullptr); }

void RealExecutor::LaunchReduce(const TaskLaunch& launch, RemoteMaps remote) {
  Start(launch, std::make_shared<RemoteMaps>(std::move(remote)));
}

void RealExecutor::SetSpeed(SlotId slot, double s) {
  speed_[slot] = s;
  if (slow_down_ == SlowDown::kThrottle) workers_[slot]->SetSpeed(s * hidden_factor_[slot]);
}

void RealExecutor::SetHiddenFactor(SlotId slot, double factor) {
  hidden_factor_[slot] = factor;
  SetSpeed(slot, speed_[slot]);
}

void RealExecutor::Start(const TaskLaunch& launch, std::shared_ptr<RemoteMaps> remote) {
  std::shared_ptr<JobData> data = jobs_.at(launch.task.job);
  const NodeId node = slots_[launch.slot].node;
  AttemptFault fault;
  if (faults_)
    fault = faults_->ForAttempt(launch.task, launch.attempt, launch.slot, node, clock_.Now());
  workers_[launch.slot]->Run(launch.token, [this, data, launch, node, remote,
                                            fault = std::move(fault)](TaskContext& slot_ctx) {
    AttemptContext ctx(slot_ctx, fault, clock_, memory_limit_);
    TaskReport report;
    report.task = launch.task;
    report.token = launch.token;
    report.slot = launch.slot;
    report.start = clock_.Now();
    report.dispatch_latency = report.start - launch.ready_since;
    if (launch.task.kind == TaskKind::kMap)
      RunMap(*data, launch, node, ctx, report);
    else
      RunReduce(*data, launch, remote.get(), ctx, report);
    report.end = clock_.Now();
    report_(std::move(report));
  });
}

void RealExecutor::RunMap(JobData& data, const TaskLaunch& launch, NodeId node, AttemptContext& ctx,
                          TaskReport& report) {
  SplitInput split;
  split.input.task_index = launch.task.index;
  if (data.job.read_split) {
    Result<SplitInput> read = data.job.read_split(launch.task.index, node);
    if (!read.ok()) {
      report.status = read.status();
      return;
    }
    split = std::move(read).value();
    split.input.task_index = launch.task.index;
  }
  report.warnings = std::move(split.warnings);
  report.input_bytes = split.input.bytes();
  Result<std::unique_ptr<MapOutput>> out = data.job.runtime->RunMap(split.input, ctx);
  if (Status fault = ctx.Failed(); !fault.ok()) out = fault;
  if (!out.ok()) {
    report.status = out.status();
    return;
  }
  report.output_bytes = (*out)->size_units();
  report.output_records = (*out)->records();
  report.sketch = (*out)->sketch();
  report.sketch_time = Duration((*out)->sketch_ns());
  report.skipped_records = (*out)->skipped_records();
  if (report.skipped_records > 0)
    report.warnings.push_back("skipped " + std::to_string(report.skipped_records) +
                              " bad record(s) in " + split.input.source + ", the first at " +
                              (*out)->first_skipped());
  std::lock_guard lock(data.map_outputs_mu);
  const uint32_t m = launch.task.index;
  if (keep_apart_) {
    if (!data.map_outputs[m]) data.map_outputs[m] = std::move(out).value();
  } else if (!data.done[m]) {
    // Other maps of the job that finish meanwhile wait for the absorb (one probe per
    // distinct key of this output): a small share of a map task, which probes per word.
    if (data.combined)
      report.status = data.job.runtime->Absorb(*data.combined, **out);
    else
      data.combined = std::move(out).value();
    data.done[m] = true;  // a failed absorb (too many keys) fails the job: never twice
  }
}

void RealExecutor::RunReduce(JobData& data, const TaskLaunch& launch, const RemoteMaps* remote,
                             AttemptContext& ctx, TaskReport& report) {
  std::vector<const MapOutput*> maps;
  if (data.combined) maps.push_back(data.combined.get());
  maps.reserve(data.map_outputs.size());
  for (size_t m = 0; m < data.map_outputs.size(); ++m) {
    const bool local = !remote || (m < remote->local.size() && remote->local[m]);
    maps.push_back(local ? data.map_outputs[m].get() : nullptr);
  }
  std::unique_ptr<OutputSink> sink;
  if (data.job.output) {
    Result<std::unique_ptr<OutputSink>> opened = data.job.output->OpenPart(launch.task.index);
    if (!opened.ok()) {
      report.status = opened.status();
      return;
    }
    sink = std::move(opened).value();
  }
  Result<ReduceResult> result = data.job.runtime->RunReduce(
      maps, data.plan, launch.task.index, sink.get(), ctx, remote ? remote->source.get() : nullptr);
  if (Status fault = ctx.Failed(); !fault.ok()) result = fault;  // its part is not closed
  if (!result.ok()) {
    report.status = result.status();
    return;
  }
  if (sink) {
    Status closed = sink->Close();
    if (!closed.ok()) {
      report.status = closed;
      return;
    }
  }
  report.input_bytes = result->records_in;
  report.output_bytes = result->bytes_out;
  report.output_records = result->keys_out;
  report.top = std::move(result->top);
  if (remote && remote->source) report.remote_input_bytes = remote->source->bytes();
}

void RealExecutor::Cancel(SlotId slot, uint64_t token) { workers_[slot]->Cancel(token); }

void RealExecutor::SetPlan(JobId job, const ReducePlan& plan) { jobs_.at(job)->plan = plan; }

Status RealExecutor::FinishJob(JobId job, bool success) {
  auto it = jobs_.find(job);
  if (it == jobs_.end()) return Status::OK();
  Status s;
  if (auto& out = it->second->job.output) {
    if (success)
      s = out->Commit(it->second->job.reduces);
    else
      out->Abort();
  }
  jobs_.erase(it);
  return s;
}

double RealExecutor::Progress(SlotId slot) const { return workers_[slot]->progress(); }

Result<bool> RealExecutor::EncodeEntries(JobId job, uint32_t map, uint32_t reduce, uint64_t* cursor,
                                         size_t max_bytes, std::string* bytes) const {
  auto it = jobs_.find(job);
  const JobData* data = it == jobs_.end() ? nullptr : it->second.get();
  if (!data || map >= data->map_outputs.size() || !data->map_outputs[map])
    return Status::NotFound("job " + std::to_string(job) + " map " + std::to_string(map) +
                            ": no output here");
  return data->job.runtime->EncodeEntries(*data->map_outputs[map], data->plan, reduce, cursor,
                                          max_bytes, bytes);
}

}  // namespace mrlocal
