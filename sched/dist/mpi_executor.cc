#include "sched/dist/mpi_executor.h"

#include <algorithm>
#include <utility>

namespace mrlocal {
namespace {

// Rank 0's reduces write their parts straight into the job's output; the commit is the
// MpiExecutor's (FinishJob), once every rank's reduces have reported.
class PartsOnly final : public JobOutput {
 public:
  explicit PartsOnly(std::shared_ptr<JobOutput> output) : output_(std::move(output)) {}
  Result<std::unique_ptr<OutputSink>> OpenPart(uint32_t reduce) override {
    return output_->OpenPart(reduce);
  }
  Status Commit(uint32_t) override { return Status::OK(); }
  void Abort() override {}

 private:
  std::shared_ptr<JobOutput> output_;
};

}  // namespace

MpiExecutor::MpiExecutor(const Clock& clock, Transport& transport,
                         const std::vector<SlotInfo>& slots, std::vector<int> rank_of_slot,
                         SlotHostOptions options)
    : clock_(clock),
      transport_(transport),
      rank_of_slot_(std::move(rank_of_slot)),
      progress_(slots.size(), 0.0) {
  std::vector<SlotInfo> own;
  for (const SlotInfo& s : slots)
    if (rank_of_slot_.at(static_cast<size_t>(s.id)) == transport.rank()) own.push_back(s);
  host_ = std::make_unique<SlotHost>(
      transport, clock, own, [this](JobId id, const std::string&) { return TakeLocalJob(id); },
      options, [this](int from, WireMessage m) { OnMessage(from, std::move(m)); });
  host_thread_ = std::thread([this] {
    Status served = host_->Serve();
    if (!served.ok()) OnDead(served);
  });
}

MpiExecutor::~MpiExecutor() {
  (void)transport_.Send(transport_.rank(), EncodeWire(WireShutdown{}));
  host_thread_.join();
  host_.reset();  // joins rank 0's slot threads
}

void MpiExecutor::AddJob(JobId id, RealJob job, std::string definition) {
  const bool has_output = job.output != nullptr;
  {
    std::lock_guard lock(mu_);
    JobEntry& entry = jobs_[id];
    entry.output = job.output;
    entry.reduces = job.reduces;
    entry.rank_of_map.assign(job.maps, -1);
    if (job.output) job.output = std::make_shared<PartsOnly>(job.output);
    pending_[id] = std::move(job);
  }
  WireAddJob add{id, has_output, std::move(definition)};
  Broadcast(add);
}

Result<RealJob> MpiExecutor::TakeLocalJob(JobId id) {
  std::lock_guard lock(mu_);
  auto it = pending_.find(id);
  if (it == pending_.end()) return Status::Internal("job " + std::to_string(id) + " was not added");
  RealJob job = std::move(it->second);
  pending_.erase(it);
  return job;
}

void MpiExecutor::Launch(const TaskLaunch& launch) {
  const int rank = rank_of_slot_.at(static_cast<size_t>(launch.slot));
  std::vector<int32_t> map_ranks;
  Status dead;
  {
    std::lock_guard lock(mu_);
    dead = dead_;
    if (dead.ok()) {
      running_[launch.token] = {launch, rank};
      progress_[static_cast<size_t>(launch.slot)] = 0;
      // A reduce's rank learns where the map outputs are, when that changed since it last did.
      auto job = jobs_.find(launch.task.job);
      if (launch.task.kind == TaskKind::kReduce && job != jobs_.end() &&
          job->second.sent[rank] != job->second.rank_of_map) {
        job->second.sent[rank] = job->second.rank_of_map;
        map_ranks = job->second.rank_of_map;
      }
    }
  }
  if (!dead.ok()) return FailAttempt(launch, dead);
  Status sent = Status::OK();
  if (!map_ranks.empty()) sent = Send(rank, WireMapRanks{launch.task.job, std::move(map_ranks)});
  if (sent.ok()) sent = Send(rank, launch);
  if (sent.ok()) return;
  {
    std::lock_guard lock(mu_);
    if (running_.erase(launch.token) == 0) return;  // failed already, by OnDead
  }
  FailAttempt(launch, sent);
}

void MpiExecutor::Cancel(SlotId slot, uint64_t token) {
  (void)Send(rank_of_slot_.at(static_cast<size_t>(slot)), WireCancel{slot, token});
}

void MpiExecutor::SetPlan(JobId job, const ReducePlan& plan) { Broadcast(WirePlan{job, plan}); }

Status MpiExecutor::FinishJob(JobId job, bool success) {
  Broadcast(WireFinishJob{job, success});
  JobEntry entry;
  Status dead;
  {
    std::lock_guard lock(mu_);
    auto it = jobs_.find(job);
    if (it == jobs_.end()) return Status::OK();
    entry = std::move(it->second);
    jobs_.erase(it);
    pending_.erase(job);
    dead = dead_;
  }
  if (!entry.output) return Status::OK();
  if (success && dead.ok()) return entry.output->Commit(entry.reduces);
  entry.output->Abort();
  return success ? dead : Status::OK();
}

void MpiExecutor::SetSpeed(SlotId slot, double speed) {
  (void)Send(rank_of_slot_.at(static_cast<size_t>(slot)), WireSpeed{slot, speed});
}

double MpiExecutor::Progress(SlotId slot) const {
  std::lock_guard lock(mu_);
  return progress_.at(static_cast<size_t>(slot));
}

void MpiExecutor::OnMessage(int from, WireMessage message) {
  if (auto* report = std::get_if<TaskReport>(&message)) {
    OnReport(from, std::move(*report));
  } else if (auto* part = std::get_if<WirePart>(&message)) {
    OnPart(from, *part);
  } else if (auto* progress = std::get_if<WireProgress>(&message)) {
    std::lock_guard lock(mu_);
    for (const auto& [slot, p] : progress->slots)
      if (slot >= 0 && static_cast<size_t>(slot) < progress_.size())
        progress_[static_cast<size_t>(slot)] = std::clamp(p, 0.0, 1.0);
  }
}

void MpiExecutor::OnReport(int from, TaskReport report) {
  {
    std::lock_guard lock(mu_);
    auto it = running_.find(report.token);
    if (it == running_.end()) return;  // failed already (its rank was declared dead)
    if (from != transport_.rank()) {
      // Another host's clock: the attempt ends now, and lasted what that host measured.
      const Duration took = std::max(Duration(0), report.end - report.start);
      report.end = clock_.Now();
      report.start = report.end - took;
      report.dispatch_latency = std::max(Duration(0), report.start - it->second.launch.ready_since);
    }
    running_.erase(it);
    if (report.status.ok() && report.task.kind == TaskKind::kMap) {
      auto job = jobs_.find(report.task.job);
      if (job != jobs_.end() && report.task.index < job->second.rank_of_map.size() &&
          job->second.rank_of_map[report.task.index] < 0)
        job->second.rank_of_map[report.task.index] = from;
    }
  }
  report_(std::move(report));
}

void MpiExecutor::OnPart(int from, WirePart& part) {
  const auto key = std::make_pair(from, part.token);
  if (part.step == WirePart::Step::kDrop) {
    parts_.erase(key);  // destroyed unclosed: the attempt leaves nothing
    return;
  }
  Status status;
  auto it = parts_.find(key);
  if (it == parts_.end()) {
    std::shared_ptr<JobOutput> output;
    {
      std::lock_guard lock(mu_);
      auto job = jobs_.find(part.job);
      if (job != jobs_.end()) output = job->second.output;
    }
    Result<std::unique_ptr<OutputSink>> opened =
        output ? output->OpenPart(part.reduce)
               : Status::NotFound("job " + std::to_string(part.job) + " has no output here");
    if (opened.ok())
      it = parts_.emplace(key, std::move(opened).value()).first;
    else
      status = opened.status();
  }
  if (it != parts_.end()) {
    if (part.step == WirePart::Step::kAppend) {
      status = it->second->Append(part.bytes);
    } else {
      status = it->second->Close();
      parts_.erase(it);
    }
  }
  (void)Send(from, WirePartAck{part.token, status});
}

void MpiExecutor::OnDead(const Status& why) {
  std::map<uint64_t, Attempt> lost;
  {
    std::lock_guard lock(mu_);
    if (dead_.ok()) dead_ = Status::IoError(why.message());
    lost.swap(running_);
  }
  parts_.clear();
  for (auto& [token, attempt] : lost) FailAttempt(attempt.launch, Status::IoError(why.message()));
}

void MpiExecutor::FailAttempt(const TaskLaunch& launch, const Status& why) {
  TaskReport report;
  report.task = launch.task;
  report.token = launch.token;
  report.slot = launch.slot;
  report.status = why;
  report.start = report.end = clock_.Now();
  report_(std::move(report));
}

// Every rank, rank 0 too; the message is encoded once.
void MpiExecutor::Broadcast(const WireMessage& message) {
  const std::string bytes = EncodeWire(message);
  for (int r = 0; r < transport_.size(); ++r) (void)SendBytes(r, bytes);
}

Status MpiExecutor::Send(int to, const WireMessage& message) {
  return SendBytes(to, EncodeWire(message));
}

Status MpiExecutor::SendBytes(int to, std::string bytes) {
  Status sent = transport_.Send(to, std::move(bytes));
  if (!sent.ok()) {
    std::lock_guard lock(mu_);
    if (dead_.ok()) dead_ = sent;
  }
  return sent;
}

std::vector<int> RanksOfSlots(const std::vector<SlotInfo>& slots, int ranks) {
  std::vector<int> rank(slots.size(), 0);
  for (const SlotInfo& s : slots) rank.at(static_cast<size_t>(s.id)) = s.node % std::max(ranks, 1);
  return rank;
}

std::vector<SlotInfo> SlotsOfRank(const std::vector<SlotInfo>& slots, int ranks, int rank) {
  std::vector<SlotInfo> own;
  for (const SlotInfo& s : slots)
    if (s.node % std::max(ranks, 1) == rank) own.push_back(s);
  return own;
}

void ShutDownRanks(Transport& transport) {
  for (int r = 0; r < transport.size(); ++r)
    if (r != transport.rank()) (void)transport.Send(r, EncodeWire(WireShutdown{}));
}

}  // namespace mrlocal
