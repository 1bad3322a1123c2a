// Refuses a signed request that is stale or was seen before: a request captured on the way
// cannot be sent again. A request is fresh while its timestamp is within `window` of the
// server's clock; within that time its (key, nonce) pair is remembered, so a second copy is
// refused; once the window has passed, the timestamp alone refuses it. Requests signed
// before the server started are refused too: the pairs remembered by an earlier process
// are gone, and without this a request captured just before a restart could be replayed
// just after it. Thread-safe; memory is bounded by `capacity` pairs (beyond it, fresh
// requests are refused until old pairs expire, rather than forgetting pairs early).
//
// A pair is remembered as its 128-bit XXH3 digest (about 70 bytes with the set's node and
// the expiry queue, where the two strings took about 250): two pairs share a digest with
// a probability under 2^-88 in a full guard, and the cost of one would be a fresh request
// refused as replayed, which the client's next nonce fixes.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <string_view>
#include <unordered_set>

namespace mrlocal {

class ReplayGuard {
 public:
  enum class Verdict : uint8_t {
    kFresh,
    kStale,          // outside the window, or signed before the server started
    kReplayed,       // this key's nonce was seen within the window
    kTooManyRecent,  // `capacity` pairs are remembered already: try again shortly
  };
  ReplayGuard(int64_t window_s, int64_t started_s, size_t capacity = size_t{1} << 20)
      : window_s_(window_s), started_s_(started_s), capacity_(capacity) {}

  // Remembers (key_id, nonce) when the request is fresh.
  Verdict Admit(int64_t timestamp_s, std::string_view key_id, std::string_view nonce,
                int64_t now_s);
  size_t remembered() const;

 private:
  void ExpireBefore(int64_t oldest_s);  // REQUIRES: mu_ held

  const int64_t window_s_, started_s_;
  const size_t capacity_;
  mutable std::mutex mu_;
  struct Digest {
    uint64_t low, high;
    bool operator==(const Digest&) const = default;
  };
  struct DigestHash {
    size_t operator()(const Digest& d) const { return static_cast<size_t>(d.low); }
  };
  std::unordered_set<Digest, DigestHash> seen_;     // of key id + '\n' + nonce
  std::deque<std::pair<int64_t, Digest>> by_time_;  // (timestamp, entry of seen_)
};

}  // namespace mrlocal
