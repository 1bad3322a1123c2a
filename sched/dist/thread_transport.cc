#include "sched/dist/thread_transport.h"

#include <string>

namespace mrlocal {

class ThreadTransportGroup::End final : public Transport {
 public:
  End(ThreadTransportGroup& group, int rank) : group_(group), rank_(rank) {}
  int rank() const override { return rank_; }
  int local_rank() const override { return rank_; }  // every thread rank shares the host
  int size() const override { return group_.size(); }

  Status Send(int to, std::string bytes) override {
    if (to < 0 || to >= size())
      return Status::InvalidArgument("rank " + std::to_string(to) + " is not in a group of " +
                                     std::to_string(size()));
    {
      std::lock_guard lock(group_.mu_);
      if (group_.dead_[to]) return Status::IoError("rank " + std::to_string(to) + " died");
      group_.boxes_[to].messages.push_back({rank_, std::move(bytes)});
    }
    group_.boxes_[to].arrived.notify_one();
    return Status::OK();
  }

  Result<std::optional<Message>> Receive(std::chrono::nanoseconds timeout) override {
    std::unique_lock lock(group_.mu_);
    if (group_.dead_[rank_]) return Status::IoError("rank " + std::to_string(rank_) + " died");
    auto& box = group_.boxes_[rank_].messages;
    auto ready = [&] { return !box.empty() || DeadPeer() >= 0 || group_.dead_[rank_]; };
    if (!group_.boxes_[rank_].arrived.wait_for(lock, timeout, ready))
      return std::optional<Message>();
    if (group_.dead_[rank_]) return Status::IoError("rank " + std::to_string(rank_) + " died");
    if (box.empty()) return Status::IoError("rank " + std::to_string(DeadPeer()) + " died");
    Message m = std::move(box.front());
    box.pop_front();
    return std::optional<Message>(std::move(m));
  }

 private:
  // The lowest other rank that died, or -1. REQUIRES: group_.mu_ held.
  int DeadPeer() const {
    for (int r = 0; r < size(); ++r)
      if (r != rank_ && group_.dead_[r]) return r;
    return -1;
  }
  ThreadTransportGroup& group_;
  const int rank_;
};

ThreadTransportGroup::ThreadTransportGroup(int ranks)
    : boxes_(static_cast<size_t>(ranks)), dead_(static_cast<size_t>(ranks), false) {
  for (int r = 0; r < ranks; ++r) ranks_.push_back(std::make_unique<End>(*this, r));
}

ThreadTransportGroup::~ThreadTransportGroup() = default;

Transport& ThreadTransportGroup::Rank(int r) { return *ranks_.at(static_cast<size_t>(r)); }

void ThreadTransportGroup::Kill(int r) {
  {
    std::lock_guard lock(mu_);
    dead_.at(static_cast<size_t>(r)) = true;
    boxes_[static_cast<size_t>(r)].messages.clear();
  }
  for (Mailbox& box : boxes_) box.arrived.notify_all();
}

}  // namespace mrlocal
