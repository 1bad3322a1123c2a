#include "sched/dist/slot_host.h"

#include <algorithm>
#include <cstdio>
#include <utility>

namespace mrlocal {

// A reduce task's records on other ranks: one peer after another, the next chunk asked for
// as soon as one arrives, so that the peer encodes it while this task merges.
class SlotHost::Fetch final : public ShuffleSource {
 public:
  struct Peer {
    int rank = 0;
    std::vector<uint32_t> maps;
  };
  Fetch(SlotHost& host, JobId job, uint32_t reduce, std::vector<Peer> peers)
      : host_(host), job_(job), reduce_(reduce), peers_(std::move(peers)), key_(host.OpenInbox()) {}
  ~Fetch() override { host_.CloseInbox(key_); }
  uint64_t bytes() const override { return bytes_; }

  Result<std::string> Next() override {
    for (;;) {
      if (current_ >= peers_.size()) return std::string();
      if (!in_flight_) Ask(0, 0);
      Result<WireChunk> chunk = host_.AwaitChunk(key_);
      in_flight_ = false;
      if (!chunk.ok()) return chunk.status();
      if (!chunk->status.ok())
        return Status::Of(chunk->status.code(), "rank " + std::to_string(peers_[current_].rank) +
                                                    ": " + chunk->status.message());
      if (chunk->done) {
        if (++current_ < peers_.size()) Ask(0, 0);
      } else {
        Ask(chunk->position, chunk->cursor);
      }
      bytes_ += chunk->bytes.size();
      if (!chunk->bytes.empty()) return std::move(chunk->bytes);
    }
  }

 private:
  void Ask(uint32_t position, uint64_t cursor) {
    const Peer& peer = peers_[current_];
    host_.Send(peer.rank, WireFetch{job_, reduce_, key_, peer.maps, position, cursor,
                                    host_.options_.chunk_bytes});
    in_flight_ = true;
  }

  SlotHost& host_;
  const JobId job_;
  const uint32_t reduce_;
  const std::vector<Peer> peers_;
  const uint64_t key_;
  size_t current_ = 0;
  bool in_flight_ = false;
  uint64_t bytes_ = 0;
};

// A reduce attempt's output, written on rank 0: each Append is one message, and at most
// part_window of them go unanswered. Destroyed without Close, it is dropped there.
class SlotHost::PartSink final : public OutputSink {
 public:
  PartSink(SlotHost& host, JobId job, uint32_t reduce)
      : host_(host), job_(job), reduce_(reduce), key_(host.OpenInbox()) {}
  ~PartSink() override {
    if (!closed_) host_.Send(0, WirePart{job_, reduce_, key_, WirePart::Step::kDrop, {}});
    host_.CloseInbox(key_);
  }

  Status Append(std::string_view bytes) override {
    host_.Send(0, WirePart{job_, reduce_, key_, WirePart::Step::kAppend, std::string(bytes)});
    ++unanswered_;
    while (unanswered_ > host_.options_.part_window) MRLOCAL_RETURN_IF_ERROR(Answer());
    return Status::OK();
  }
  Status Close() override {
    host_.Send(0, WirePart{job_, reduce_, key_, WirePart::Step::kClose, {}});
    closed_ = true;
    ++unanswered_;
    while (unanswered_ > 0) MRLOCAL_RETURN_IF_ERROR(Answer());
    return Status::OK();
  }

 private:
  Status Answer() {
    Result<WirePartAck> ack = host_.AwaitAck(key_);
    --unanswered_;
    if (!ack.ok()) return ack.status();
    return ack->status;
  }

  SlotHost& host_;
  const JobId job_;
  const uint32_t reduce_;
  const uint64_t key_;
  uint32_t unanswered_ = 0;
  bool closed_ = false;
};

// The output of a job whose reduces run here: parts go to rank 0, which commits.
class SlotHost::RemoteOutput final : public JobOutput {
 public:
  RemoteOutput(SlotHost& host, JobId job) : host_(host), job_(job) {}
  Result<std::unique_ptr<OutputSink>> OpenPart(uint32_t reduce) override {
    return std::unique_ptr<OutputSink>(std::make_unique<PartSink>(host_, job_, reduce));
  }
  Status Commit(uint32_t) override { return Status::OK(); }
  void Abort() override {}

 private:
  SlotHost& host_;
  const JobId job_;
};

// Ranks on one host pin their slots from different CPUs on: rank l's map slots start
// where rank l-1's would end (when mpirun binds each rank to its own cores, the rotation
// is over those cores only and this changes nothing).
static size_t FirstCpu(const Transport& transport, const std::vector<SlotInfo>& slots) {
  size_t maps = 0;
  for (const SlotInfo& s : slots) maps += s.kind == SlotKind::kMap;
  return static_cast<size_t>(transport.local_rank()) * std::max<size_t>(maps, 1);
}

SlotHost::SlotHost(Transport& transport, const Clock& clock, const std::vector<SlotInfo>& slots,
                   JobFactory factory, SlotHostOptions options, Forward forward)
    : transport_(transport),
      options_(options),
      factory_(std::move(factory)),
      forward_(std::move(forward)),
      memory_limit_(options.memory_limit),
      // No idle spin: the next task comes back across ranks, later than a spin would wait.
      executor_(clock, slots,
                SlotThreads{.pin = options.pin,
                            .first_cpu = FirstCpu(transport, slots),
                            .spin = std::chrono::microseconds(0)}) {
  if (memory_limit_.bytes() != UINT64_MAX) executor_.SetMemoryLimit(&memory_limit_);
  executor_.KeepMapOutputsApart();  // peers fetch them map by map, from the rank rank 0 names
  executor_.SetReportFn([this](TaskReport report) {
    {
      std::lock_guard lock(mu_);
      auto it = running_.find(report.slot);
      if (it != running_.end() && it->second == report.token) running_.erase(it);
    }
    // Rank 0's own reports go to its executor from the slot thread, not through a message
    // to itself and this host's serving thread: one thread hand-off less per task.
    if (forward_ && transport_.rank() == 0)
      forward_(0, std::move(report));
    else
      Send(0, report);
  });
}

SlotHost::~SlotHost() = default;

Status SlotHost::Serve() {
  auto last_progress = std::chrono::steady_clock::now();
  for (;;) {
    Result<std::optional<Transport::Message>> got = transport_.Receive(options_.progress_every);
    if (!got.ok()) {
      Fail(got.status());
      CancelRunning();  // cut off from the run: what runs here is of no use to anyone
      return got.status();
    }
    if (*got) {
      Result<WireMessage> message = DecodeWire((*got)->bytes);
      if (!message.ok()) {
        // A peer's bug must not take this rank down; it is named and the message dropped.
        fprintf(stderr, "mrlocal: rank %d: from rank %d: %s\n", transport_.rank(), (*got)->from,
                message.status().message().c_str());
      } else if (std::holds_alternative<WireShutdown>(*message)) {
        return Status::OK();
      } else {
        Handle((*got)->from, std::move(message).value());
      }
    }
    if (std::chrono::steady_clock::now() - last_progress >= options_.progress_every) {
      SendProgress();
      last_progress = std::chrono::steady_clock::now();
    }
  }
}

void SlotHost::Handle(int from, WireMessage message) {
  if (auto* launch = std::get_if<TaskLaunch>(&message)) {
    Launch(*launch);
  } else if (auto* cancel = std::get_if<WireCancel>(&message)) {
    if (executor_.has_slot(cancel->slot)) executor_.Cancel(cancel->slot, cancel->token);
  } else if (auto* plan = std::get_if<WirePlan>(&message)) {
    if (executor_.has_job(plan->job)) executor_.SetPlan(plan->job, plan->plan);
  } else if (auto* finish = std::get_if<WireFinishJob>(&message)) {
    (void)executor_.FinishJob(finish->job, false);  // rank 0 commits; here only memory goes
    map_ranks_.erase(finish->job);
    failed_jobs_.erase(finish->job);
  } else if (auto* speed = std::get_if<WireSpeed>(&message)) {
    if (executor_.has_slot(speed->slot)) executor_.SetSpeed(speed->slot, speed->speed);
  } else if (auto* add = std::get_if<WireAddJob>(&message)) {
    AddJob(*add);
  } else if (auto* ranks = std::get_if<WireMapRanks>(&message)) {
    map_ranks_[ranks->job] = std::move(ranks->rank_of_map);
  } else if (auto* fetch = std::get_if<WireFetch>(&message)) {
    ServeFetch(from, *fetch);
  } else if (auto* chunk = std::get_if<WireChunk>(&message)) {
    Deliver(chunk->token, &Inbox::chunks, std::move(*chunk));
  } else if (auto* ack = std::get_if<WirePartAck>(&message)) {
    Deliver(ack->token, &Inbox::acks, std::move(*ack));
  } else if (forward_) {
    forward_(from, std::move(message));
  }
}

void SlotHost::AddJob(const WireAddJob& add) {
  Result<RealJob> job = factory_(add.job, add.definition);
  if (!job.ok()) {
    failed_jobs_[add.job] =
        Status::Of(job.status().code(),
                   "rank " + std::to_string(transport_.rank()) + ": " + job.status().message());
    return;
  }
  if (add.has_output && transport_.rank() != 0)
    job->output = std::make_shared<RemoteOutput>(*this, add.job);
  executor_.AddJob(add.job, std::move(job).value());
}

void SlotHost::Launch(const TaskLaunch& launch) {
  Status refused;
  if (!executor_.has_slot(launch.slot))
    refused = Status::Internal("rank " + std::to_string(transport_.rank()) + " has no slot " +
                               std::to_string(launch.slot));
  else if (auto f = failed_jobs_.find(launch.task.job); f != failed_jobs_.end())
    refused = f->second;
  else if (!executor_.has_job(launch.task.job))
    refused = Status::Internal("rank " + std::to_string(transport_.rank()) + " has no job " +
                               std::to_string(launch.task.job));
  if (!refused.ok()) {
    TaskReport report;
    report.task = launch.task;
    report.token = launch.token;
    report.slot = launch.slot;
    report.status = refused;
    Send(0, report);
    return;
  }
  {
    std::lock_guard lock(mu_);
    running_[launch.slot] = launch.token;
  }
  if (launch.task.kind == TaskKind::kMap) {
    executor_.Launch(launch);
    return;
  }
  // Maps whose outputs are here are read from memory, the others fetched rank by rank.
  RemoteMaps remote;
  std::map<int, std::vector<uint32_t>> by_rank;
  const std::vector<int32_t>& ranks = map_ranks_[launch.task.job];
  remote.local.resize(ranks.size());
  for (uint32_t m = 0; m < ranks.size(); ++m) {
    remote.local[m] = ranks[m] == transport_.rank();
    if (!remote.local[m]) by_rank[ranks[m]].push_back(m);
  }
  std::vector<Fetch::Peer> peers;
  for (auto& [rank, maps] : by_rank) peers.push_back({rank, std::move(maps)});
  remote.source =
      std::make_shared<Fetch>(*this, launch.task.job, launch.task.index, std::move(peers));
  executor_.LaunchReduce(launch, std::move(remote));
}

void SlotHost::ServeFetch(int from, const WireFetch& fetch) {
  WireChunk answer;
  answer.token = fetch.token;
  answer.position = fetch.position;
  answer.cursor = fetch.cursor;
  while (answer.position < fetch.maps.size() && answer.bytes.size() < fetch.max_bytes) {
    Result<bool> done =
        executor_.EncodeEntries(fetch.job, fetch.maps[answer.position], fetch.reduce,
                                &answer.cursor, fetch.max_bytes, &answer.bytes);
    if (!done.ok()) {
      answer.status = done.status();
      answer.bytes.clear();
      break;
    }
    if (*done) {
      ++answer.position;
      answer.cursor = 0;
    }
  }
  answer.done = answer.position >= fetch.maps.size();
  Send(from, answer);
}

void SlotHost::CancelRunning() {
  std::map<SlotId, uint64_t> running;
  {
    std::lock_guard lock(mu_);
    running = running_;
  }
  for (const auto& [slot, token] : running) executor_.Cancel(slot, token);
}

void SlotHost::SendProgress() {
  WireProgress progress;
  {
    std::lock_guard lock(mu_);
    for (const auto& [slot, token] : running_)
      progress.slots.emplace_back(slot, executor_.Progress(slot));
  }
  if (!progress.slots.empty()) Send(0, progress);
}

uint64_t SlotHost::OpenInbox() {
  std::lock_guard lock(mu_);
  const uint64_t key = next_inbox_++;
  inboxes_[key];
  return key;
}

void SlotHost::CloseInbox(uint64_t key) {
  std::lock_guard lock(mu_);
  inboxes_.erase(key);
}

// An answer for an inbox that closed (its attempt was cancelled) is dropped.
template <class T>
void SlotHost::Deliver(uint64_t key, std::deque<T> Inbox::*queue, T answer) {
  {
    std::lock_guard lock(mu_);
    auto it = inboxes_.find(key);
    if (it == inboxes_.end()) return;
    (it->second.*queue).push_back(std::move(answer));
  }
  arrived_.notify_all();
}

// The first of `key`'s inbox `queue`, waiting at most options_.wait; `waiting_for` says
// what did not come.
template <class T>
Result<T> SlotHost::Await(uint64_t key, std::deque<T> Inbox::*queue, const char* waiting_for) {
  std::unique_lock lock(mu_);
  std::deque<T>& q = inboxes_.at(key).*queue;
  if (!arrived_.wait_for(lock, options_.wait, [&] { return !q.empty() || !failed_.ok(); }))
    return Status::IoError(
        std::string(waiting_for) + " for " +
        std::to_string(std::chrono::duration_cast<std::chrono::seconds>(options_.wait).count()) +
        " s");
  if (q.empty()) return failed_;
  T first = std::move(q.front());
  q.pop_front();
  return first;
}

Result<WireChunk> SlotHost::AwaitChunk(uint64_t key) {
  return Await(key, &Inbox::chunks, "no shuffle data from a peer rank");
}

Result<WirePartAck> SlotHost::AwaitAck(uint64_t key) {
  return Await(key, &Inbox::acks, "rank 0 did not take reduce output");
}

void SlotHost::Fail(const Status& why) {
  {
    std::lock_guard lock(mu_);
    if (failed_.ok()) failed_ = why;
  }
  arrived_.notify_all();
}

void SlotHost::Send(int to, const WireMessage& message) {
  Status sent = transport_.Send(to, EncodeWire(message));
  if (!sent.ok()) Fail(sent);
}

}  // namespace mrlocal
