#include "tools/serve/service.h"

#include <algorithm>
#include <cmath>
#include <condition_variable>
#include <future>
#include <iostream>
#include <map>
#include <mutex>
#include <nlohmann/json.hpp>
#include <sstream>
#include <thread>
#include <unordered_map>

#include "datasets/workload_spec.h"
#include "engine/output_committer.h"
#include "sched/core/controller.h"
#include "sched/core/job_progress.h"
#include "sched/policy/policy_registry.h"
#include "sched/report/run_recorder.h"
#include "sched/report/workload_metrics.h"
#include "tools/runtime/app_registry.h"
#include "tools/runtime/closing_report.h"
#include "tools/runtime/committer_output.h"
#include "tools/runtime/exit_codes.h"
#include "tools/runtime/runtime.h"
#include "tools/runtime/spec_job.h"

namespace mrlocal {

using nlohmann::json;

int64_t NowMs() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

namespace {

constexpr size_t kLatencyBuckets = 24;  // up to 2^23 us (8 s); the last holds the rest
constexpr const char* kStoppedMessage = "the server stopped while it ran";
constexpr int kTopKeys = 10;  // in a job's closing report, as a local run's --top

// A Status out of the loop thread (Result<Status> is not a thing).
struct Done {
  Status status;
};

// A job the service has submitted and not yet seen end.
struct ActiveJob {
  JobView view;
  JobId cid = 0;  // the Controller's id
  bool admitted = false;
  JobEnding rejection;  // a rejected job's, told by OnAdmission
  // What its tasks read and run, kept until it ends.
  std::unique_ptr<BlockStore> store;
  std::unique_ptr<JobApp> app;
};

// Whether `path` (canonical) lies under one of `roots` (canonical), component-wise.
bool Under(const std::filesystem::path& path, const std::vector<std::filesystem::path>& roots) {
  for (const auto& root : roots) {
    auto [r, p] = std::mismatch(root.begin(), root.end(), path.begin(), path.end());
    if (r == root.end()) return true;
  }
  return false;
}

// The submission's input files, each resolved (symlinks followed, "..", relative parts
// gone) and checked to lie under a data root.
Status CheckInputs(WorkloadJob& job, const std::vector<std::filesystem::path>& roots) {
  for (std::string& f : job.input.files) {
    if (roots.empty())
      return Status::PermissionDenied(
          "this server reads no files: it was started without "
          "--data-root");
    // Outside first: whether a file exists is none of the caller's business out there.
    std::error_code ec;
    const std::filesystem::path real = std::filesystem::weakly_canonical(f, ec);
    if (ec || !Under(real, roots))
      return Status::PermissionDenied("input '" + f + "' is outside the server's data roots");
    if (!std::filesystem::is_regular_file(real, ec))
      return Status::NotFound("input '" + f + "': no such file");
    f = real.string();
  }
  return Status::OK();
}

// A submission: one job of the workload spec format, read as a workload spec reads it,
// and what the service alone reads of it.
struct Submission {
  WorkloadJob job;
  bool keep_output = true;  // "output": false discards it
  bool queue_given = false;
  json body;  // as submitted: what the store keeps, for a restart
};

Result<Submission> ParseSubmission(std::string_view text) {
  json j = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    return Status::InvalidArgument(
        "the body is not a JSON object (a job of the workload spec "
        "format)");
  if (j.contains("arrival_s") || j.contains("after"))
    return Status::InvalidArgument(
        "a submitted job arrives when it is submitted: no "
        "arrival_s or after");
  Submission s;
  s.body = j;
  if (j.contains("output")) {
    if (!j["output"].is_boolean()) return Status::InvalidArgument("'output' must be true or false");
    s.keep_output = j["output"].get<bool>();
    j.erase("output");
  }
  s.queue_given = j.contains("queue");
  if (!j.contains("name")) j["name"] = "job";
  j["arrival_s"] = 0;
  auto spec = ParseWorkloadJson(json{{"jobs", json::array({j})}}.dump(), "job",
                                AppRegistry::BuiltIn().schemas());
  if (!spec.ok()) return spec.status();
  s.job = std::move(spec->jobs.front());
  return s;
}

JobStage PhaseOf(const JobOutcome& outcome) {
  if (outcome.failure.ok()) return JobStage::kSucceeded;
  if (outcome.failure.code() == Status::Code::kAborted && outcome.failure.message() == "cancelled")
    return JobStage::kCancelled;
  return JobStage::kFailed;
}

}  // namespace

class Service::Impl final : public ControllerObserver {
 public:
  Impl(Service& s) : s_(s) {}

  Status Start();
  void Stop(std::chrono::milliseconds grace);
  Result<JobView> Submit(const StoredJob& record, WorkloadJob job, std::optional<double> deadline);
  Result<JobView> Cancel(int64_t id);
  std::optional<JobView> Active(int64_t id) const;
  Status ChangeQueue(QueueEvent event);
  std::vector<QueueView> Queues() const;
  double price() const;
  std::vector<SlotView> Slots() const;
  SchedulerView Scheduler() const;
  bool stopping() const { return stopping_.load(); }
  size_t active() const {
    std::lock_guard lock(mu_);
    return active_.size();
  }
  void Resume();

  // ControllerObserver, on the loop thread.
  void OnAdmission(const JobState& job, const Admission& a, Time now) override;
  void OnTaskStart(const TaskLaunch& launch, Time now) override;
  void OnTaskReport(const TaskReport& report) override;
  void OnDecision(SlotId, const std::optional<TaskRef>&, Time, Duration cost) override;
  void OnJobFinished(const JobState& job, const JobOutcome& outcome, Time now) override;
  void OnTick(const ClusterState& state, const Executor& exec, Time now) override;

 private:
  // Runs `fn` on the loop thread and waits for it. Aborted once the loop has ended.
  template <class Fn>
  auto OnLoop(Fn fn) -> Result<decltype(fn())>;
  int64_t WallMs(Time t) const { return epoch_ms_ + ToMillis(t); }
  static int64_t ToMillis(Time t) {
    return std::chrono::duration_cast<std::chrono::milliseconds>(t).count();
  }
  // Records the charges of the allocation intervals closed since the last call.
  void RecordCharges();
  // How a local run of `job`, which the recorder has seen end, would have ended; forgets
  // its record.
  JobEnding Ending(const ActiveJob& job, bool user_error, bool cancelled);
  void Finish(ActiveJob& job, JobStage phase, const std::string& message, const JobEnding& ending,
              Time now);

  Service& s_;
  std::unique_ptr<Runtime> runtime_;
  // Each job's figures for its closing report, kept while it is in the system (loop thread).
  RunRecorder recorder_{RunRecorderOptions{.keep_attempts = false}};
  std::thread loop_thread_;
  int64_t epoch_ms_ = 0;  // wall-clock ms at loop time 0
  std::atomic<bool> stopping_{false};
  bool loop_ended_ = false;                 // guarded by mu_
  std::atomic<bool> shutting_down_{false};  // jobs aborted from now on are queued again

  mutable std::mutex mu_;         // guards what the API reads while the loop writes
  std::condition_variable idle_;  // notified when a job ends
  std::map<int64_t, std::shared_ptr<ActiveJob>> active_;  // by store id
  std::unordered_map<JobId, std::shared_ptr<ActiveJob>> by_cid_;
  std::vector<SlotView> slots_;
  SchedulerView scheduler_;
  std::map<std::string, std::pair<int, int>> queue_tasks_;  // running, pending by queue
  // Each queue's share of the map and reduce slots in the last closed allocation interval.
  std::map<std::string, std::pair<double, double>> queue_shares_;
  size_t charged_intervals_ = 0;  // loop thread
  // Loop thread: the store's id of each job the ledger may still bill (a job's last
  // interval often closes after it ended), and when each ended, to forget them once billed.
  std::map<JobId, int64_t> store_ids_;
  std::vector<std::pair<Time, JobId>> ended_;
};

template <class Fn>
auto Service::Impl::OnLoop(Fn fn) -> Result<decltype(fn())> {
  using T = decltype(fn());
  {
    std::lock_guard lock(mu_);
    if (loop_ended_) return Status::Aborted("the server is stopping");
  }
  auto done = std::make_shared<std::promise<T>>();
  std::future<T> answer = done->get_future();
  runtime_->loop().Post([fn = std::move(fn), done]() mutable { done->set_value(fn()); });
  // A loop that ends before it ran `fn` drops it, and the promise with it.
  try {
    return answer.get();
  } catch (const std::future_error&) {
    return Status::Aborted("the server is stopping");
  }
}

Status Service::Impl::Start() {
  const ServiceOptions& o = s_.options_;
  RuntimeOptions ro;
  ro.cluster = o.cluster;
  ro.policy = o.policy;
  ro.policy_args = o.policy_args;
  ro.partitioner = o.partitioner;
  ro.pin = o.pin;
  ro.memory_limit = o.memory_limit;
  ro.controller.observer_tick = std::chrono::milliseconds(250);
  // A service runs for ever: a job's state goes once its observers have seen it end (the
  // store keeps the record).
  ro.controller.forget_finished_jobs = true;
  // The queues as the store has them: what is left of each budget, and each rate.
  auto setup = std::make_shared<QueueSetup>();
  for (const QueueRecord& q : s_.store_.Queues())
    setup->queues.push_back({q.name, ToCredits(q.budget), ToCredits(q.rate)});
  ro.policy_args.SetQueues(setup);
  auto runtime = Runtime::Real(std::move(ro));
  if (!runtime.ok()) return runtime.status();
  runtime_ = std::move(runtime).value();
  runtime_->AddObserver(&recorder_);  // first: the service reads what it recorded
  runtime_->AddObserver(this);
  epoch_ms_ = NowMs() - ToMillis(runtime_->loop().Now());
  for (const SlotInfo& slot : runtime_->slots())
    slots_.push_back({slot.id, slot.node, slot.kind == SlotKind::kMap, slot.speed, 0, true, 0, 0});
  scheduler_.policy = o.policy;
  scheduler_.latency_buckets.assign(kLatencyBuckets, 0);
  loop_thread_ = std::thread([this] {
    runtime_->Serve();
    std::lock_guard lock(mu_);
    loop_ended_ = true;
  });
  return Status::OK();
}

Result<JobView> Service::Impl::Submit(const StoredJob& record, WorkloadJob job,
                                      std::optional<double> deadline) {
  auto entry = std::make_shared<ActiveJob>();
  entry->view.record = record;
  entry->view.deadline_s = job.deadline_s;
  auto descriptor = AppRegistry::BuiltIn().Find(job.app);
  if (!descriptor.ok()) return descriptor.status();
  entry->app = std::make_unique<JobApp>((*descriptor)->runtime(job));
  BlockStoreOptions so;
  so.nodes = s_.options_.cluster.nodes();
  auto store = BlockStore::InMemory(so);
  if (!store.ok()) return store.status();
  entry->store = std::move(store).value();
  job.deadline_s = deadline;  // what is left of it
  std::map<std::string, bool> present;
  auto parts = BuildRealSpecJob(job, *entry->app, *entry->store, present, s_.options_.partitioner,
                                0, kTopKeys);
  if (!parts.ok()) return parts.status();
  const auto output = s_.options_.state_dir / "outputs" / std::to_string(record.id);
  if (!record.output.empty()) parts->real.output = std::make_shared<CommitterOutput>(output, false);
  entry->view.record.maps = static_cast<uint32_t>(parts->spec.maps.size());
  entry->view.record.reduces = parts->spec.reduces;
  (void)s_.store_.SetJobTasks(record.id, record.output, entry->view.record.maps,
                              entry->view.record.reduces);
  auto shared_parts = std::make_shared<RealJobParts>(std::move(parts).value());
  auto admitted = OnLoop([this, entry, shared_parts]() -> Admission {
    entry->cid = runtime_->controller().next_job_id();
    store_ids_[entry->cid] = entry->view.record.id;
    {
      std::lock_guard lock(mu_);
      active_[entry->view.record.id] = entry;
      by_cid_[entry->cid] = entry;
    }
    // OnAdmission has the verdict by the time Submit returns (the controller forgets a
    // rejected job at once).
    runtime_->Submit({std::move(shared_parts->spec), std::move(shared_parts->real)});
    std::lock_guard lock(mu_);
    return entry->admitted ? Admission::Yes(entry->view.admission)
                           : Admission::No(entry->view.admission);
  });
  if (!admitted.ok()) return admitted.status();
  JobView view;
  {
    std::lock_guard lock(mu_);
    view = entry->view;
  }
  if (!admitted->admitted) {
    (void)s_.store_.SetJobPhase(record.id, JobStage::kRejected, admitted->reason, NowMs(),
                                entry->rejection);
    view.record.phase = JobStage::kRejected;
    view.record.message = admitted->reason;
    view.record.ending = entry->rejection;
  }
  return view;
}

Result<JobView> Service::Impl::Cancel(int64_t id) {
  std::shared_ptr<ActiveJob> entry;
  {
    std::lock_guard lock(mu_);
    auto it = active_.find(id);
    if (it != active_.end()) entry = it->second;
  }
  if (!entry) return Status::InvalidArgument("job " + std::to_string(id) + " has ended");
  auto cancelled = OnLoop([this, entry] { return Done{runtime_->Cancel(entry->cid)}; });
  if (!cancelled.ok()) return cancelled.status();
  MRLOCAL_RETURN_IF_ERROR(cancelled->status);
  std::lock_guard lock(mu_);
  return entry->view;
}

std::optional<JobView> Service::Impl::Active(int64_t id) const {
  std::lock_guard lock(mu_);
  auto it = active_.find(id);
  if (it == active_.end()) return std::nullopt;
  return it->second->view;
}

Status Service::Impl::ChangeQueue(QueueEvent event) {
  auto changed = OnLoop([this, event]() mutable {
    event.at = runtime_->loop().Now();
    return Done{runtime_->ChangeQueue(event)};
  });
  return changed.ok() ? changed->status : changed.status();
}

void Service::Impl::OnTaskStart(const TaskLaunch& launch, Time now) {
  std::shared_ptr<ActiveJob> entry;
  {
    std::lock_guard lock(mu_);
    auto it = by_cid_.find(launch.task.job);
    if (it == by_cid_.end()) return;
    entry = it->second;
    SlotView& slot = slots_.at(static_cast<size_t>(launch.slot));
    slot.job = entry->view.record.id;
    slot.task_is_map = launch.task.kind == TaskKind::kMap;
    slot.task = launch.task.index;
    slot.since_s = static_cast<double>(ToMillis(now)) / 1000;
    if (entry->view.record.phase != JobStage::kQueued) return;
    entry->view.record.phase = JobStage::kRunning;
    entry->view.record.started_ms = WallMs(now);
  }
  (void)s_.store_.SetJobPhase(entry->view.record.id, JobStage::kRunning, "", WallMs(now));
}

void Service::Impl::OnTaskReport(const TaskReport& report) {
  std::lock_guard lock(mu_);
  if (report.slot >= 0 && static_cast<size_t>(report.slot) < slots_.size())
    slots_[static_cast<size_t>(report.slot)].job = 0;
}

void Service::Impl::OnDecision(SlotId, const std::optional<TaskRef>&, Time, Duration cost) {
  const double us = std::chrono::duration<double, std::micro>(cost).count();
  size_t bucket = 0;
  while (bucket + 1 < kLatencyBuckets && us >= std::ldexp(1.0, int(bucket))) ++bucket;
  std::lock_guard lock(mu_);
  ++scheduler_.slot_decisions;
  ++scheduler_.latency_buckets[bucket];
  scheduler_.latency_sum_s += us * 1e-6;
  scheduler_.latency_max_s = std::max(scheduler_.latency_max_s, us * 1e-6);
}

JobEnding Service::Impl::Ending(const ActiveJob& job, bool user_error, bool cancelled) {
  JobEnding ending;
  const JobRecord* record = recorder_.job(job.cid);
  if (!record) return ending;
  JobMetrics metrics = MeasureJob(*record, Duration::zero(), recorder_.counts_records());
  const ServiceOptions& o = s_.options_;
  MetricsContext context;
  context.policy = context.admission_policy = o.policy;
  context.cluster = o.cluster.ToString();
  context.partitioner = o.partitioner;
  context.total_slots = o.cluster.TaskCapacity();
  context.admission_control = runtime_->policy().admission_control();
  context.scheduler = &runtime_->controller().stats();
  std::ostringstream report;
  PrintJobEnd(report, *job.app, ComputeMetrics(recorder_, context), metrics,
              job.view.record.output);
  ending.report = report.str();
  ending.exit_code =
      cancelled ? kExitInterrupted : JobExitCode(metrics.status, user_error, metrics.met_deadline);
  recorder_.ForgetJob(job.cid);
  return ending;
}

void Service::Impl::Finish(ActiveJob& job, JobStage phase, const std::string& message,
                           const JobEnding& ending, Time now) {
  {
    std::lock_guard lock(mu_);
    job.view.record.phase = phase;
    job.view.record.message = message;
    if (IsFinal(phase)) {
      job.view.record.finished_ms = WallMs(now);
      job.view.record.ending = ending;
    }
    active_.erase(job.view.record.id);
    by_cid_.erase(job.cid);
  }
  (void)s_.store_.SetJobPhase(job.view.record.id, phase, message, WallMs(now), ending);
  idle_.notify_all();
}

void Service::Impl::OnJobFinished(const JobState& job, const JobOutcome& outcome, Time now) {
  std::shared_ptr<ActiveJob> entry;
  {
    std::lock_guard lock(mu_);
    auto it = by_cid_.find(job.id);
    if (it == by_cid_.end()) return;
    entry = it->second;
  }
  ended_.emplace_back(now, job.id);
  RecordCharges();  // the interval its last attempt closed
  JobStage phase = PhaseOf(outcome);
  std::string message = outcome.failure.message();
  JobEnding ending = Ending(*entry, outcome.failure.IsUserError(), phase == JobStage::kCancelled);
  if (shutting_down_ && phase != JobStage::kSucceeded) {
    phase = JobStage::kQueued;  // it runs again at the next start
    message = std::string(kStoppedMessage) + ": it runs again when the server starts";
  }
  Finish(*entry, phase, message, ending, now);
}

void Service::Impl::OnAdmission(const JobState& job, const Admission& a, Time) {
  std::shared_ptr<ActiveJob> entry;
  {
    std::lock_guard lock(mu_);
    auto it = by_cid_.find(job.id);
    if (it == by_cid_.end()) return;
    entry = it->second;
    entry->view.admission = a.reason;
    entry->admitted = a.admitted;
    if (a.guaranteed() && a.estimated_finish())
      entry->view.estimate_s = Seconds(*a.estimated_finish() - job.arrival);
    if (a.admitted) return;
  }
  // Submit reads it once the loop has run this (the controller forgets a rejected job now).
  entry->rejection = Ending(*entry, false, false);
  std::lock_guard lock(mu_);
  active_.erase(entry->view.record.id);
  by_cid_.erase(job.id);
}

void Service::Impl::OnTick(const ClusterState& state, const Executor& exec, Time now) {
  RecordCharges();
  const SchedulerStats& stats = runtime_->controller().stats();
  std::lock_guard lock(mu_);
  scheduler_.decisions = stats.decisions;
  scheduler_.p50_us = stats.decision_ns.PercentileUs(0.5);
  scheduler_.p99_us = stats.decision_ns.PercentileUs(0.99);
  if (const QueueLedger* ledger = runtime_->policy().Ledger();
      ledger && !ledger->intervals.empty()) {
    const int maps = s_.options_.cluster.map_slots(), reduces = s_.options_.cluster.reduce_slots();
    queue_shares_.clear();
    for (const QueueCharge& line : ledger->intervals.back().lines)
      queue_shares_[ledger->accounts[line.account].name] = {
          maps > 0 ? static_cast<double>(line.entitled_map_slots) / maps : 0,
          reduces > 0 ? static_cast<double>(line.entitled_reduce_slots) / reduces : 0};
  }
  queue_tasks_.clear();
  for (auto& [cid, entry] : by_cid_) {
    auto it = state.jobs.find(cid);
    if (it == state.jobs.end()) continue;
    const JobState& j = it->second;
    entry->view.maps_done = j.maps_done;
    entry->view.reduces_done = j.reduces_done;
    std::tie(entry->view.map_progress, entry->view.reduce_progress) = JobProgress(j, state, exec);
    auto& [running, pending] = queue_tasks_[j.spec.queue];
    running += static_cast<int>(j.maps_running + j.reduces_running);
    pending += static_cast<int>(j.maps_pending() + j.reduces_pending());
  }
  (void)now;
}

void Service::Impl::RecordCharges() {
  const QueueLedger* ledger = runtime_->policy().Ledger();
  if (!ledger) return;
  std::vector<ChargeRecord> charges;
  for (; charged_intervals_ < ledger->intervals.size(); ++charged_intervals_) {
    const QueueInterval& interval = ledger->intervals[charged_intervals_];
    charges.clear();
    for (const QueueCharge& line : interval.lines) {
      const std::string& queue = ledger->accounts[line.account].name;
      for (const JobCharge& part : line.jobs) {
        if (part.charge == 0) continue;
        int64_t job = 0;
        if (auto it = store_ids_.find(part.job); it != store_ids_.end()) job = it->second;
        charges.push_back({queue, job, WallMs(interval.start), WallMs(interval.end),
                           part.used_slot_s, ToMicroCredits(line.rate), part.charge});
      }
    }
    if (charges.empty()) continue;
    const Status st = s_.store_.RecordCharges(charges);
    if (!st.ok()) std::cerr << "mrlocal serve: charges not recorded: " << st.message() << "\n";
  }
  // Jobs that ended by the end of the last billed interval are billed for good.
  if (charged_intervals_ == 0) return;
  const Time billed = ledger->intervals[charged_intervals_ - 1].end;
  std::erase_if(ended_, [&](const std::pair<Time, JobId>& e) {
    if (e.first > billed) return false;
    store_ids_.erase(e.second);
    return true;
  });
  // The store has them now; the last stays for the queues' shares (OnTick).
  runtime_->ForgetLedgerIntervals(charged_intervals_ - 1);
  charged_intervals_ = 1;
}

void Service::Impl::Stop(std::chrono::milliseconds grace) {
  stopping_ = true;
  {
    std::unique_lock lock(mu_);
    if (!loop_thread_.joinable()) return;
    idle_.wait_for(lock, grace, [this] { return active_.empty() || loop_ended_; });
  }
  shutting_down_ = true;
  runtime_->Shutdown(Status::Aborted(kStoppedMessage));
  loop_thread_.join();
  RecordCharges();
  // Jobs the loop never saw end (none, unless it stopped early) stay queued in the store.
  std::lock_guard lock(mu_);
  active_.clear();
  by_cid_.clear();
}

std::vector<QueueView> Service::Impl::Queues() const {
  std::vector<QueueView> views;
  for (QueueRecord& q : s_.store_.Queues()) views.push_back({std::move(q), 0, 0, 0, 0});
  std::lock_guard lock(mu_);
  for (QueueView& v : views) {
    if (auto it = queue_tasks_.find(v.record.name); it != queue_tasks_.end())
      std::tie(v.running, v.pending) = it->second;
    if (auto it = queue_shares_.find(v.record.name); it != queue_shares_.end())
      std::tie(v.share_map, v.share_reduce) = it->second;
  }
  return views;
}

std::vector<SlotView> Service::Impl::Slots() const {
  std::lock_guard lock(mu_);
  return slots_;
}

SchedulerView Service::Impl::Scheduler() const {
  std::lock_guard lock(mu_);
  SchedulerView v = scheduler_;
  v.uptime_s = static_cast<double>(NowMs() - epoch_ms_) / 1000;
  return v;
}

// Jobs the store holds as queued or running: a stopped server's, submitted again.
void Service::Impl::Resume() {
  for (StoredJob& record : s_.store_.UnfinishedJobs()) {
    auto submission = ParseSubmission(record.request);
    Status st = submission.status();
    WorkloadJob* job = submission.ok() ? &submission->job : nullptr;
    if (st.ok()) st = CheckInputs(*job, s_.options_.data_roots);
    std::optional<double> deadline;
    if (st.ok() && job->deadline_s) {
      deadline = *job->deadline_s - static_cast<double>(NowMs() - record.submitted_ms) / 1000;
      if (*deadline <= 0) {
        (void)s_.store_.SetJobPhase(record.id, JobStage::kRejected,
                                    "its deadline passed while the server was down", NowMs());
        continue;
      }
    }
    if (!record.output.empty() && std::filesystem::exists(record.output + "/_SUCCESS")) {
      (void)s_.store_.SetJobPhase(record.id, JobStage::kSucceeded,
                                  "its output was committed before the server stopped", NowMs());
      continue;
    }
    if (!record.output.empty()) OutputCommitter::RemoveStale(record.output);
    if (record.phase == JobStage::kRunning)
      (void)s_.store_.SetJobPhase(record.id, JobStage::kQueued,
                                  std::string(kStoppedMessage) + ": it runs again", NowMs());
    record.phase = JobStage::kQueued;
    if (st.ok()) st = Submit(record, std::move(*job), deadline).status();
    if (!st.ok()) (void)s_.store_.SetJobPhase(record.id, JobStage::kFailed, st.message(), NowMs());
  }
}

Service::Service(ServiceOptions options, ServiceStore& store)
    : options_(std::move(options)), store_(store), impl_(std::make_unique<Impl>(*this)) {}

Service::~Service() { Stop(std::chrono::milliseconds(0)); }

Result<std::unique_ptr<Service>> Service::Start(ServiceOptions options, ServiceStore& store) {
  for (auto& root : options.data_roots) {
    std::error_code ec;
    auto real = std::filesystem::canonical(root, ec);
    if (ec || !std::filesystem::is_directory(real))
      return Status::InvalidArgument("--data-root '" + root.string() + "' is not a directory");
    root = real;
  }
  if (!store.FindQueue("default").ok())
    MRLOCAL_RETURN_IF_ERROR(store.CreateQueue("default", 0, NowMs()));
  std::unique_ptr<Service> service(new Service(std::move(options), store));
  MRLOCAL_RETURN_IF_ERROR(service->impl_->Start());
  service->impl_->Resume();
  return service;
}

void Service::Stop(std::chrono::milliseconds grace) { impl_->Stop(grace); }
bool Service::stopping() const { return impl_->stopping(); }

Result<JobView> Service::Submit(const Caller& caller, std::string_view job_json) {
  if (impl_->stopping()) return Status::ResourceExhausted("the server is stopping");
  if (caller.role == Role::kReader)
    return Status::PermissionDenied("key '" + caller.key + "' is a reader: it cannot submit");
  auto submission = ParseSubmission(job_json);
  if (!submission.ok()) return submission.status();
  if (impl_->active() >= options_.max_active_jobs)
    return Status::ResourceExhausted("the server holds " +
                                     std::to_string(options_.max_active_jobs) +
                                     " queued or running jobs, its limit: try again later");
  WorkloadJob& job = submission->job;
  if (caller.role == Role::kOwner) {
    if (!submission->queue_given) job.queue = caller.queue;
    if (job.queue != caller.queue)
      return Status::PermissionDenied("key '" + caller.key + "' may submit only to queue '" +
                                      caller.queue + "'");
  }
  if (!store_.FindQueue(job.queue).ok()) return Status::NotFound("no queue '" + job.queue + "'");
  MRLOCAL_RETURN_IF_ERROR(CheckInputs(job, options_.data_roots));
  StoredJob record;
  record.owner = caller.key;
  record.queue = job.queue;
  record.app = job.app;
  submission->body["queue"] = job.queue;  // an owner's default, for a restart
  record.request = submission->body.dump();
  record.submitted_ms = NowMs();
  auto id = store_.AddJob(record);
  if (!id.ok()) return id.status();
  record.id = *id;
  if (submission->keep_output)  // stored with its tasks
    record.output = (options_.state_dir / "outputs" / std::to_string(*id)).string();
  auto view = impl_->Submit(record, job, job.deadline_s);
  if (!view.ok())
    (void)store_.SetJobPhase(*id, JobStage::kFailed, view.status().message(), NowMs());
  return view;
}

namespace {

JobView ViewOf(StoredJob record) {
  JobView v;
  v.record = std::move(record);
  if (v.record.phase == JobStage::kSucceeded) {
    v.maps_done = v.record.maps;
    v.reduces_done = v.record.reduces;
    v.map_progress = v.reduce_progress = 1;
  }
  json request = json::parse(v.record.request, nullptr, false);
  if (request.is_object() && request.contains("deadline_s") && request["deadline_s"].is_number())
    v.deadline_s = request["deadline_s"].get<double>();
  return v;
}

bool Sees(const Caller& caller, const StoredJob& record) {
  return caller.role != Role::kOwner || record.owner == caller.key;
}

void Timing(JobView& v) {
  const int64_t end = v.record.finished_ms > 0 ? v.record.finished_ms : NowMs();
  v.elapsed_s = static_cast<double>(end - v.record.submitted_ms) / 1000;
  if (v.deadline_s) v.slack_s = *v.deadline_s - v.elapsed_s;
}

}  // namespace

Result<JobView> Service::Job(const Caller& caller, int64_t id) const {
  auto record = store_.FindJob(id);
  if (!record.ok() || !Sees(caller, *record))
    return Status::NotFound("no job " + std::to_string(id));
  JobView v = impl_->Active(id).value_or(ViewOf(std::move(record).value()));
  Timing(v);
  return v;
}

std::vector<JobView> Service::Jobs(const Caller& caller, size_t limit) const {
  std::vector<JobView> views;
  for (StoredJob& r : store_.Jobs(caller.role == Role::kOwner ? caller.key : "", limit)) {
    const int64_t id = r.id;
    views.push_back(impl_->Active(id).value_or(ViewOf(std::move(r))));
    Timing(views.back());
  }
  return views;
}

Result<JobView> Service::Cancel(const Caller& caller, int64_t id) {
  MRLOCAL_RETURN_IF_ERROR(Job(caller, id).status());
  if (caller.role == Role::kReader)
    return Status::PermissionDenied("key '" + caller.key + "' is a reader: it cannot cancel");
  MRLOCAL_RETURN_IF_ERROR(impl_->Cancel(id).status());
  return Job(caller, id);
}

// A queue change recorded in the store, told to the policy; a policy without queues
// (ChangeQueue's InvalidArgument) has nothing to be told.
Status Service::TellPolicy(QueueEvent::Kind kind, QueueSpec queue, double value) {
  QueueEvent e;
  e.kind = kind;
  e.queue = std::move(queue);
  e.value = value;
  const Status st = impl_->ChangeQueue(e);
  return st.code() == Status::Code::kInvalidArgument ? Status::OK() : st;
}

Status Service::CreateQueue(const Caller& caller, const std::string& name, MicroCredits rate) {
  MRLOCAL_RETURN_IF_ERROR(store_.CreateQueue(name, rate, NowMs(), caller.key));
  return TellPolicy(QueueEvent::Kind::kAddQueue, {name, 0.0, ToCredits(rate)}, 0);
}

Status Service::SetRate(const Caller& caller, const std::string& name, MicroCredits rate) {
  MRLOCAL_RETURN_IF_ERROR(store_.SetRate(name, rate, caller.key, NowMs()));
  return TellPolicy(QueueEvent::Kind::kSetRate, {name, std::nullopt, 0}, ToCredits(rate));
}

Status Service::Deposit(const Caller& caller, const std::string& name, MicroCredits amount) {
  MRLOCAL_RETURN_IF_ERROR(store_.Deposit(name, amount, caller.key, NowMs()));
  return TellPolicy(QueueEvent::Kind::kAddBudget, {name, std::nullopt, 0}, ToCredits(amount));
}

std::vector<QueueView> Service::Queues() const { return impl_->Queues(); }
std::vector<SlotView> Service::Slots() const { return impl_->Slots(); }
SchedulerView Service::Scheduler() const { return impl_->Scheduler(); }

}  // namespace mrlocal
