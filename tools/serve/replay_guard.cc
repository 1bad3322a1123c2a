#include "tools/serve/replay_guard.h"

#include <xxhash.h>

#include <algorithm>
#include <string>

namespace mrlocal {

ReplayGuard::Verdict ReplayGuard::Admit(int64_t timestamp_s, std::string_view key_id,
                                        std::string_view nonce, int64_t now_s) {
  if (timestamp_s < started_s_ || timestamp_s < now_s - window_s_ ||
      timestamp_s > now_s + window_s_)
    return Verdict::kStale;
  std::string pair;
  ((pair += key_id) += '\n') += nonce;
  const XXH128_hash_t h = XXH3_128bits(pair.data(), pair.size());
  const Digest entry{h.low64, h.high64};
  std::lock_guard lock(mu_);
  ExpireBefore(now_s - window_s_);
  if (seen_.count(entry)) return Verdict::kReplayed;
  if (seen_.size() >= capacity_) return Verdict::kTooManyRecent;
  seen_.insert(entry);
  // Timestamps arrive nearly in order; keeping the deque sorted makes expiry a pop_front.
  auto at =
      std::upper_bound(by_time_.begin(), by_time_.end(), timestamp_s,
                       [](int64_t t, const std::pair<int64_t, Digest>& e) { return t < e.first; });
  by_time_.insert(at, {timestamp_s, entry});
  return Verdict::kFresh;
}

void ReplayGuard::ExpireBefore(int64_t oldest_s) {
  // A pair whose timestamp left the window cannot come back: its timestamp alone refuses it.
  while (!by_time_.empty() && by_time_.front().first < oldest_s) {
    seen_.erase(by_time_.front().second);
    by_time_.pop_front();
  }
}

size_t ReplayGuard::remembered() const {
  std::lock_guard lock(mu_);
  return seen_.size();
}

}  // namespace mrlocal
